"""The one scenario every request goes through (``sizing.selectors.scenario``,
``sizing.services.scenario``): the other component's cost is found once per reference-data
version, a warm estimate reads no reference rows, an upgrade column is the estimate of its model
and an engine error names its field."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from models_lib.checks import InputError
from models_lib.prepared import PreparedWorkload
from models_lib.sizing import size
from models_lib.targets import TargetError
from sizing.models import Configuration
from sizing.selectors.configuration_data import configuration_data, other_component_cost
from sizing.selectors.fitted import current_reference
from sizing.selectors.scenario import prepared_scenario
from sizing.services.charts import chart_data
from sizing.services.estimates import estimate_compute, estimate_scenario
from sizing.services.reference_version import bump_reference_version
from sizing.services.scenario import engine_error, estimate_result, scenario_prepared

pytestmark = pytest.mark.django_db

ZOSCONNECT = {"path": "zosconnect-cics", "configuration": "channel"}
FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region"}


def test_the_cached_other_cost_is_the_one_the_database_query_finds() -> None:
    reference = current_reference()
    rows = list(Configuration.objects.select_related("path__native_machine"))
    needing = 0
    for row in rows:
        direct = other_component_cost(configuration=row, data=configuration_data(configuration=row))
        assert reference.other_cost(row) == direct, row.slug
        needing += direct is not None
    assert needing >= 1  # z/OS Connect's configurations need CICS's cost (its share excludes CICS)


def test_a_warm_zos_connect_estimate_reads_no_reference_rows(user: Any) -> None:
    estimate_compute(user=user, inputs={**ZOSCONNECT, "machine": "z16", "tps": 901.0})  # warms the version's cache
    with CaptureQueriesContext(connection) as queries:
        _, _, outputs = estimate_compute(user=user, inputs={**ZOSCONNECT, "machine": "z16", "tps": 903.0})
    read = " ".join(q["sql"] for q in queries.captured_queries)
    for table in ("sizing_benchmarkpoint", "sizing_configuration", "sizing_statement", "sizing_capacityrating"):
        assert table not in read
    assert outputs["cps_required"] is not None


def test_an_upgrade_column_is_the_estimate_of_its_model(api: Any) -> None:
    # Issue 21: FiTeq at 8,000 TPS on 9175-705 had CPs 4..5 and no saturation range in the
    # estimate, 3..7 and 7,557..8,830 in the upgrade column.
    body = api.get("/api/v1/upgrade", {**FITEQ, "model": "2964-708", "tps": 8000, "targets": "9175-705"}).json()
    _, column = body["columns"]
    est = api.get("/api/v1/estimate", {**FITEQ, "model": "9175-705", "tps": 8000}).json()
    assert column["cps"] == est["capacity"]["cps"] == 5
    assert column["cps_range"] == est["ranges"]["cps"]
    assert column["saturation_range"] == est["ranges"].get("saturation_tps")
    assert column["saturation_tps"] == est["saturation_tps"] and column["ziips"] == est["ziips_required"]


def test_a_scenario_prepares_a_calibration_and_names_a_bad_field(user: Any) -> None:
    with pytest.raises(ValidationError) as bad:
        prepared_scenario(user=user, inputs={**ZOSCONNECT, "configuration": "nope", "machine": "z16"})
    assert "configuration" in bad.value.message_dict
    with pytest.raises(ValidationError) as missing:
        prepared_scenario(user=user, inputs={**ZOSCONNECT, "calibration": 10**9})
    assert "calibration" in missing.value.message_dict


def test_an_engine_error_goes_to_the_field_it_names() -> None:
    class Named(ValueError):
        argument = "payload_bytes"

    assert engine_error(Named("too large")).message_dict == {"payload_bytes": ["too large"]}
    assert engine_error(TargetError("cps", "cps 99 is not rated")).message_dict == {"cps": ["cps 99 is not rated"]}
    assert engine_error(InputError("max_utilization", "max_utilization must be in (0, 1]")).message_dict == {
        "max_utilization": ["max_utilization must be in (0, 1]"]
    }
    # The message's words are never read: a plain ValueError that names a field stays whole-request.
    assert engine_error(ValueError("max_utilization must be in (0, 1]")).message_dict == {
        "non_field_errors": ["max_utilization must be in (0, 1]"]
    }
    assert "non_field_errors" in engine_error(ValueError("something else")).message_dict


def test_a_chart_request_computes_its_answer_once_and_serves_the_same_answer(user: Any, monkeypatch: Any) -> None:
    # Issue 21: the charts built the typed answer with their own copy of the set-up and computed
    # it a second time.  A spy (it calls the engine) counts the engine's calls.
    calls = []
    engine = PreparedWorkload.answer

    def counted(self: PreparedWorkload, tps: float, **kwargs: Any) -> Any:
        calls.append(tps)
        return engine(self, tps, **kwargs)

    monkeypatch.setattr(PreparedWorkload, "answer", counted)
    inputs = {**ZOSCONNECT, "machine": "z16", "tps": 2011.0}
    body = chart_data(user=user, inputs=inputs)
    assert calls == [2011.0]
    again = chart_data(user=user, inputs=inputs)
    assert calls == [2011.0]  # a repeated request computes nothing
    assert again == body
    scenario, target = estimate_scenario(user=user, inputs=inputs)
    answer = estimate_result(scenario=scenario, target=target, inputs=scenario.inputs)
    assert answer is estimate_result(scenario=scenario, target=target, inputs=scenario.inputs)
    # The served estimate is the typed answer serialised (plus the warnings' levels and whose data).
    served = body["estimate"]
    for name, value in answer.to_dict().items():
        if name not in ("warnings", "basis"):
            assert served[name] == value, name
    assert sorted(w["code"] for w in served["warnings"]) == sorted(answer.warning_codes())
    assert served["cps"] == body["cpu"]["capacity"]["cps"] == answer.cps


def test_a_prepared_workload_serves_every_rate_of_its_scenario_as_size_does(user: Any) -> None:
    # Prepared once per version and rate-free options (the fits, the projections, the other
    # component's cost); each rate and rate option is an evaluation of it, equal to a fresh size().
    inputs = {**ZOSCONNECT, "machine": "z16", "payload_bytes": 2048}
    scenario, target = estimate_scenario(user=user, inputs={**inputs, "tps": 1.0})
    options = {"payload_bytes": 2048, "max_utilization": 0.8}
    prepared = scenario_prepared(scenario=scenario, target=target, options=options)
    assert scenario_prepared(scenario=scenario, target=target, options=dict(options)) is prepared
    assert (
        scenario_prepared(scenario=scenario, target=target, options={**options, "payload_bytes": 4096}) is not prepared
    )
    for tps, at_rate in ((150.0, {}), (1500.0, {"cps": 6}), (4100.0, {"response_time_sla_ms": 20.0})):
        asked = {**inputs, **options, **at_rate, "tps": tps}
        served = estimate_result(scenario=scenario, target=target, inputs=asked)
        fresh = size(
            scenario.fitted.data,
            target_machine=target.machine.slug,
            target_machine_type=target.machine.machine_type,
            capacity=scenario.capacity,
            tps=tps,
            **scenario.engine(),
            **options,
            **at_rate,
        )
        assert served.to_dict() == fresh.to_dict()
        assert served.prepared is prepared


def test_a_new_reference_version_prepares_and_answers_afresh(user: Any) -> None:
    # The prepared workloads and typed answers kept in the process belong to their version: new
    # reference data (bump_reference_version) must never meet an old fit or answer.
    inputs = {**FITEQ, "machine": "z13", "tps": 3100.0}
    scenario, target = estimate_scenario(user=user, inputs=inputs)
    before = estimate_result(scenario=scenario, target=target, inputs=scenario.inputs)
    prepared = scenario_prepared(scenario=scenario, target=target, options={})
    assert before.prepared is prepared
    with transaction.atomic():
        bump_reference_version()
    scenario, target = estimate_scenario(user=user, inputs=inputs)
    after = estimate_result(scenario=scenario, target=target, inputs=scenario.inputs)
    assert after is not before and after.prepared is not prepared
    assert after.prepared is scenario_prepared(scenario=scenario, target=target, options={})
    assert after.to_dict() == before.to_dict()  # the same data, so the same answer
