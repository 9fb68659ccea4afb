"""The prepared workload: set up once, evaluated at any rate, CP and specialty-engine count.

The reference for every figure is the engine's own answer (``size()``) with the same inputs: the
prepared workload's methods must reproduce it exactly (the same functions on the same numbers),
whether called once, many times, or over an array of rates.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from numpy.testing import assert_allclose

from models_lib.checks import InputError
from models_lib.prepared import prepare
from models_lib.sizing import size
from models_lib.workload import workload_model
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z10, Z13, Z17, table

CASES = [
    ("fiteq-authenticator", "multi-region"),
    ("cicsts-catalog", "v5.3"),
    ("zosconnect-cics", "channel"),
    ("cicstg", "ipic-commarea-64"),
]
RATES = (20.0, 700.0, 4000.0, 30000.0)


def _prepared(path: str, configuration: str, machine: str, **options: Any):  # type: ignore[no-untyped-def]
    cfg = P.configuration(path, configuration)
    return prepare(cfg, target_machine=machine, target_machine_type=machine, capacity=table(), **options)


def _size(path: str, configuration: str, machine: str, **options: Any):  # type: ignore[no-untyped-def]
    cfg = P.configuration(path, configuration)
    return size(cfg, target_machine=machine, target_machine_type=machine, capacity=table(), **options)


@pytest.mark.parametrize(("path", "configuration"), CASES)
def test_one_prepared_workload_answers_every_rate_as_fresh_size_calls(path: str, configuration: str) -> None:
    # Preparing once and answering many questions must equal a fresh engine per question: the
    # projections filled on first use carry nothing from one rate to the next.
    prepared = _prepared(path, configuration, Z13, payload_bytes=4096)
    for tps in RATES:
        for rate_options in ({}, {"cps": 6}, {"cps": 4, "ziips": 1}, {"response_time_sla_ms": 30.0}):
            reused = prepared.answer(tps, **rate_options).to_dict()
            fresh = _size(path, configuration, Z13, tps=tps, payload_bytes=4096, **rate_options).to_dict()
            assert json.dumps(reused) == json.dumps(fresh)


@pytest.mark.parametrize(("path", "configuration"), CASES)
@pytest.mark.parametrize("machine", [Z10, Z17])
def test_evaluate_splits_the_demand_as_the_answer_does(path: str, configuration: str, machine: str) -> None:
    prepared = _prepared(path, configuration, machine)
    for tps in RATES:
        answer = prepared.answer(tps)
        assert answer.evaluated_cps is not None
        # Where the answer does not fit, its figures are those of the configuration evaluated.
        assert answer.cps in (answer.evaluated_cps, None)
        split = prepared.evaluate(tps, answer.evaluated_cps)
        assert split.engines == answer.evaluated_ziips
        # The same functions on the same numbers: equal to the last bit.
        assert split.gcp == answer.busy_cps["gcp"]
        assert split.special == answer.busy_cps["ziip"]
        assert split.on_gcp == answer.busy_cps["ziip_on_gcp"]
        assert prepared.native_busy(tps) == answer.basis["native"]["busy_cps"]


@pytest.mark.parametrize(("path", "configuration"), CASES)
def test_evaluate_over_an_array_of_rates_equals_the_scalar_evaluation(path: str, configuration: str) -> None:
    prepared = _prepared(path, configuration, Z13)
    rates = np.linspace(1.0, 20000.0, 97)
    for cps, ziips in ((3, None), (8, None), (8, 2)):
        loads = prepared.evaluate(rates, cps, ziips)
        one_by_one = [prepared.evaluate(float(t), cps, ziips) for t in rates]
        # numpy applies the same IEEE operations elementwise; 1e-12 leaves room for none else.
        assert_allclose(loads.gcp, [s.gcp for s in one_by_one], rtol=1e-12, atol=1e-15)
        assert_allclose(loads.special, [s.special for s in one_by_one], rtol=1e-12, atol=1e-15)
        assert_allclose(loads.engines, [s.engines for s in one_by_one], rtol=0, atol=0)


@pytest.mark.parametrize(("path", "configuration"), CASES)
def test_saturation_and_binding_resource_are_the_answers(path: str, configuration: str) -> None:
    prepared = _prepared(path, configuration, Z13)
    for tps, cps in ((500.0, 2), (2000.0, 6), (8000.0, 12)):
        answer = prepared.answer(tps, cps=cps)
        sat = prepared.saturation(cps, answer.ziips)
        if answer.saturation_tps is None:
            assert not np.isfinite(sat.tps)
        else:
            assert sat.tps == answer.saturation_tps
            assert answer.saturation_binding is not None
            assert sat.binding == answer.saturation_binding["resource"]


@pytest.mark.parametrize(("path", "configuration"), CASES)
def test_workload_model_is_built_on_the_prepared_workload_not_on_the_answers_dict(
    path: str, configuration: str
) -> None:
    cfg = P.configuration(path, configuration)
    wm = workload_model(cfg, machine=Z13, machine_type=Z13, capacity=table(), payload_bytes=100_000)
    assert wm.prepared is not None
    line = wm.prepared.line
    assert (wm.intercept, wm.slope, wm.response_scale) == (line.intercept, line.slope, line.payload_factor)
    # The demand the model evaluates is the engine's at every rate (not a refitted line).
    for tps in RATES:
        answer = size(
            cfg, target_machine=Z13, target_machine_type=Z13, capacity=table(), tps=tps, payload_bytes=100_000
        )
        assert wm.native_busy(tps) == answer.basis["native"]["busy_cps"]
        assert wm.eligible == answer.basis["eligible_share"]["value"]


@pytest.mark.parametrize(
    ("options", "argument"),
    [
        ({"tps": -1.0}, "tps"),
        ({"tps": 100.0, "cps": 0}, "cps"),
        ({"tps": 100.0, "cps": 999}, "cps"),
        ({"tps": 100.0, "ziips": -1}, "ziips"),
        ({"tps": 100.0, "max_utilization": 1.5}, "max_utilization"),
        ({"tps": 100.0, "ziip_max_utilization": 0.0}, "ziip_max_utilization"),
        ({"tps": 100.0, "payload_bytes": 0}, "payload_bytes"),
        ({"tps": 100.0, "clients": 10}, "clients"),
        ({"tps": 100.0, "clients": 10, "think_time_s": -1.0}, "think_time_s"),
        ({"tps": 100.0, "response_time_sla_ms": 0.0}, "response_time_sla_ms"),
        ({"tps": 100.0, "projection_band": 1.0}, "projection_band"),
        ({"tps": 100.0, "lpar_overhead": -0.1}, "lpar_overhead"),
        ({"tps": 100.0, "server_share": 2.0}, "server_share"),
        ({"tps": 100.0, "capacity_setting": "Q99"}, "capacity_setting"),
    ],
)
def test_bad_input_raises_an_error_naming_its_argument(options: dict[str, Any], argument: str) -> None:
    with pytest.raises(InputError) as caught:
        _size("fiteq-authenticator", "multi-region", Z13, **options)
    assert caught.value.argument == argument
    assert argument in str(caught.value)


def test_unknown_machine_type_names_the_target_machine_type() -> None:
    with pytest.raises(InputError) as caught:
        _size("fiteq-authenticator", "multi-region", "0000", tps=100.0)
    assert caught.value.argument == "target_machine_type"


def test_prepare_rejects_a_model_of_another_configuration() -> None:
    from models_lib.costmodel import fit_configuration

    other = fit_configuration(P.configuration("cicsts-catalog", "v5.3"))
    with pytest.raises(InputError) as caught:
        _prepared("fiteq-authenticator", "multi-region", Z17, model=other)
    assert caught.value.argument == "model"
