"""The typed records at the app's edge: ``EstimateInputs`` and ``EstimateRecord``.

The served JSON is the record's ``to_dict()`` and must stay what it was (byte for byte); a
stored answer of every version loads; ``from_dict(to_dict(record)) == record``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import models_lib
from sizing.records import RECORD_VERSION, EstimateInputs, EstimateRecord
from sizing.services.estimate_inputs import validated_estimate_inputs
from sizing.services.estimates import estimate_answer_record, estimate_compute, normalised_inputs

DATA = Path(__file__).resolve().parent.parent / "data" / "answers"
STORED = ("estimate_v1_fits.json", "estimate_v1_does_not_fit.json", "estimate_v1_no_cpu_data.json")

FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region"}
CASES = {
    "fits": {**FITEQ, "machine": "z16", "tps": "7000"},
    "does-not-fit": {**FITEQ, "machine": "z10", "tps": "60000"},
    "overloaded": {**FITEQ, "machine": "z16", "cps": "2", "tps": "20000"},
    "no-cpu-data": {"path": "hostbridge-http", "configuration": "default-tcpip", "machine": "z13", "tps": "100"},
    "sub-capacity": {"path": "zosconnect-cics", "configuration": "channel", "model": "3931-510", "tps": "900"},
}


def _stored(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", STORED)
def test_a_stored_answer_of_version_1_loads_and_is_written_back_unchanged(name: str) -> None:
    data = _stored(name)
    record = EstimateRecord.from_dict(data)
    assert record.schema_version == 1 == RECORD_VERSION
    # written back as it was stored: the same keys, in the same order, the same values
    assert json.dumps(record.to_dict()) == json.dumps(data)
    assert EstimateRecord.from_dict(record.to_dict()) == record
    # the typed fields are the stored values
    assert record.tps == data["tps"] and record.cps_required == data["cps_required"]
    assert record.cpu_per_tran_ms.total == data["cpu_per_tran_ms"]["total"]
    assert record.basis.points == tuple(data["basis"]["points"])
    assert record.basis.statements == tuple(data["basis"]["statements"])
    projection = data["basis"]["projection"]
    assert (record.basis.projection is None) is (projection is None)
    if record.basis.projection is not None:
        assert record.basis.projection.rating_ids == tuple(projection["rating_ids"])
    assert [w.code for w in record.warnings] == [w["code"] for w in data["warnings"]]
    assert record.inputs is not None and record.inputs.path == data["inputs"]["path"]


def test_the_stored_answers_say_what_they_are() -> None:
    fits, dnf, none = (EstimateRecord.from_dict(_stored(n)) for n in STORED)
    assert (fits.status, fits.feasible) == ("sized", True)
    assert (dnf.status, dnf.feasible) == ("does-not-fit", False)
    assert dnf.feasibility.max_tps == _stored(STORED[1])["feasibility"]["max_tps"]
    assert dnf.specialty_engine == "zAAP"  # z10
    assert dnf.saturation_binding is not None and dnf.saturation_binding.resource == "software"
    # HostBridge: stored with feasible true and nothing sized; the record does not say it fits
    assert _stored(STORED[2])["feasible"] is True
    assert (none.status, none.feasible, none.has_cpu_data) == ("no-cpu-data", None, False)
    # the capacity of the CPs is read from its block (cp.mips_installed)
    assert fits.capacity is not None
    assert fits.capacity.cp_mips_installed == _stored(STORED[0])["capacity"]["cp"]["mips_installed"]


def _version_0(data: dict[str, Any]) -> dict[str, Any]:
    """The same answer in the shape stored before the feasibility block (record version 0): one
    number for the response time, ranges as low/high objects, the CPs' capacity flat."""
    old = copy.deepcopy(data)
    feasible = old.pop("feasibility")["feasible"]
    old["feasible"] = feasible
    old["response_time_ms"] = data["response_time_ms"]["value"]
    old["ranges"] = {k: {"low": v[0], "high": v[1]} for k, v in data["ranges"].items()}
    cp = old["capacity"].pop("cp")
    old["capacity"]["cp_mips_installed"] = cp["mips_installed"]
    old["capacity"]["cp_msu_installed"] = cp["msu_installed"]
    return old


def test_an_answer_of_version_0_reads_as_the_same_numbers() -> None:
    data = _stored(STORED[0])
    new = EstimateRecord.from_dict(data)
    old = EstimateRecord.from_dict(_version_0(data))
    assert old.schema_version == 0
    assert old.ranges == new.ranges and old.feasibility.feasible is new.feasibility.feasible
    assert old.response_time_ms.value == new.response_time_ms.value
    assert old.capacity is not None and new.capacity is not None
    assert old.capacity.cp_mips_installed == new.capacity.cp_mips_installed
    # written in the current shape
    assert old.to_dict()["ranges"] == data["ranges"]
    assert old.to_dict()["feasibility"]["feasible"] is data["feasibility"]["feasible"]


def test_a_newer_version_is_refused() -> None:
    with pytest.raises(ValueError, match="schema_version"):
        EstimateRecord.from_dict({**_stored(STORED[0]), "schema_version": RECORD_VERSION + 1})


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES)
def test_the_served_answer_is_the_records_to_dict_and_round_trips(user: Any, case: str) -> None:
    inputs = validated_estimate_inputs(CASES[case])
    config_row, machine_row, outputs = estimate_compute(user=user, inputs=inputs)
    # the body the estimate API served before the record existed
    before = {"inputs": normalised_inputs(inputs, config_row, machine_row), "model_version": models_lib.__version__}
    before.update(outputs)
    record = estimate_answer_record(user=user, inputs=EstimateInputs.from_dict(inputs))
    assert json.dumps(record.to_dict()) == json.dumps(before)
    again = EstimateRecord.from_dict(record.to_dict())
    assert again.to_dict() == record.to_dict()
    assert again == EstimateRecord.from_dict(before)


@pytest.mark.django_db
def test_the_estimate_api_serves_the_same_json(api: Any, user: Any) -> None:
    response = api.get("/api/v1/estimate", CASES["does-not-fit"])
    assert response.status_code == 200
    inputs = validated_estimate_inputs(CASES["does-not-fit"])
    config_row, machine_row, outputs = estimate_compute(user=user, inputs=inputs)
    expected = {"inputs": normalised_inputs(inputs, config_row, machine_row), "model_version": models_lib.__version__}
    expected.update(outputs)
    # the same keys in the same order at every level, the same values
    assert json.dumps(response.json()) == json.dumps(expected)


def test_inputs_are_the_validated_fields_in_the_forms_order() -> None:
    validated = validated_estimate_inputs({**FITEQ, "machine": "z16", "tps": "8000", "cps": "4", "name": "A"})
    typed = EstimateInputs.from_dict(validated)
    assert (typed.tps, typed.cps, typed.name, typed.ziips) == (8000.0, 4, "A", None)
    assert typed.to_dict() == {k: v for k, v in validated.items() if v not in (None, "")}
    assert list(typed.to_dict()) == [k for k, v in validated.items() if v not in (None, "")]
    with pytest.raises(ValueError, match="tps"):
        EstimateInputs.from_dict({**FITEQ, "machine": "z16"})
