"""A prepared workload answered at an array of rates (``PreparedWorkload.answers``, the batch's
vectorised path) equals its answer at each rate (``PreparedWorkload.answer``).

The reference is the engine's own scalar answer with the same inputs, on a prepared workload of
its own (so that nothing filled on first use is shared): every figure within 1e-12 (relative),
every warning, sentence, label and null the same, on an old machine (z10 EC: zAAPs, one per CP),
a z13 (two zIIPs per CP, unconfirmed: the other rule's sentence) and a z17, for every sized
path, and for the answers that are not a plain fit: does not fit, overloaded on the CPs given, a
lower bound (the published upper bound of the cost), no CPU data, a response goal, a closed
population, given specialty engines and each objective.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from models_lib.checks import InputError
from models_lib.prepared import PreparedWorkload, prepare
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z10, Z13, Z17, table

#: Rates from a few transactions a second to past any of these paths' saturation, one repeated.
RATES = (0.5, 20.0, 333.3, 700.0, 1234.5, 4000.0, 4000.0, 9000.0, 30000.0, 150000.0, 5e6)

PATHS = [
    ("fiteq-authenticator", "multi-region"),
    ("fiteq-authenticator", "single-region-log"),
    ("cicsts-catalog", "v5.3"),
    ("zosconnect-cics", "channel"),
    ("cicstg", "ipic-commarea-64"),
    ("cicstg", "ipic-channel-64"),
]


def _prepared(path: str, configuration: str, machine: str, **options: Any) -> PreparedWorkload:
    cfg = P.configuration(path, configuration)
    return prepare(cfg, target_machine=machine, target_machine_type=machine, capacity=table(), **options)


def _same(scalar: Any, vector: Any, where: str = "answer") -> None:
    """Equal, floats within 1e-12 relative (non-finite ones equal)."""
    if isinstance(scalar, dict):
        assert isinstance(vector, dict) and list(scalar) == list(vector), where
        for key in scalar:
            _same(scalar[key], vector[key], f"{where}.{key}")
    elif isinstance(scalar, list | tuple):
        assert type(vector) is type(scalar) and len(vector) == len(scalar), where
        for k, (a, b) in enumerate(zip(scalar, vector, strict=True)):
            _same(a, b, f"{where}[{k}]")
    elif isinstance(scalar, float) and not isinstance(scalar, bool):
        assert isinstance(vector, float), where
        if math.isfinite(scalar):
            assert vector == pytest.approx(scalar, rel=1e-12, abs=1e-300), where
        else:
            assert vector == scalar, where
    else:
        assert vector == scalar, where


def _check(path: str, configuration: str, machine: str, rates: Any = RATES, prep: Any = None, **at_rate: Any) -> list[Any]:  # fmt: skip
    """The group's answers against the scalar ones; returns the scalar answers."""
    prep = prep or {}
    scalar = [_prepared(path, configuration, machine, **prep).answer(float(t), **at_rate) for t in rates]
    vector = _prepared(path, configuration, machine, **prep).answers(rates, **at_rate)
    assert len(vector) == len(scalar)
    for t, s, v in zip(rates, scalar, vector, strict=True):
        assert v.tps == float(t)
        assert v.warnings == s.warnings  # codes, messages, levels and inputs, in order
        _same(s.to_dict(), v.to_dict(), f"{path}/{configuration} on {machine} at {t}")
    return scalar


@pytest.mark.parametrize(("path", "configuration"), PATHS)
@pytest.mark.parametrize("machine", [Z10, Z13, Z17])
def test_every_path_on_old_and_current_machines(path: str, configuration: str, machine: str) -> None:
    answers = _check(path, configuration, machine)
    # the rates reach both sides of the saturation: some fit, the largest does not
    assert answers[1].feasibility.feasible
    assert not answers[-1].feasibility.feasible


@pytest.mark.parametrize("machine", [Z10, Z13, Z17])
def test_overloaded_on_the_cps_given(machine: str) -> None:
    answers = _check("fiteq-authenticator", "multi-region", machine, cps=4)
    reasons = {a.feasibility.reason for a in answers if not a.feasibility.feasible}
    assert reasons  # 4 CPs do not carry the largest rates
    assert all(a.evaluated_cps == 4 for a in answers)
    _check("zosconnect-cics", "channel", machine, cps=2, ziips=1)


def test_does_not_fit_where_the_software_station_binds() -> None:
    # REDP-5114 multi-region: the fitted software station saturates near 8,830 TPS (test_sizing.py)
    answers = _check("fiteq-authenticator", "multi-region", Z13, rates=(5000.0, 10000.0, 12000.0))
    assert [a.feasibility.feasible for a in answers] == [True, False, False]


@pytest.mark.parametrize("machine", [Z10, Z13, Z17])
def test_lower_bound_of_the_published_upper_cost(machine: str) -> None:
    # z/OS Connect at 256K: the central cost is the published upper bound (test_engine.py)
    answers = _check("zosconnect-cics", "channel", machine, rates=(100.0, 600.0, 800.0, 5000.0), prep={"payload_bytes": 262144})  # fmt: skip
    assert {a.saturation_kind for a in answers} == {"lower-bound"}


@pytest.mark.parametrize("machine", [Z10, Z17])
def test_no_cpu_data(machine: str) -> None:
    answers = _check("hostbridge-http", "default-tcpip", machine, rates=(20.0, 50.0), response_time_sla_ms=30.0)
    assert all("no-cpu-data" in a.warning_codes() for a in answers)


@pytest.mark.parametrize(
    "at_rate",
    [
        {"response_time_sla_ms": 30.0},
        {"response_time_sla_ms": 5.0},
        {"clients": 300, "think_time_s": 0.5},
        {"ziips": 2},
        {"objective": "least-msu-consumed"},
        {"objective": "fewest-engines"},
    ],
)
@pytest.mark.parametrize("machine", [Z10, Z13, Z17])
def test_rate_options(at_rate: dict[str, Any], machine: str) -> None:
    for path, configuration in (PATHS[0], PATHS[3]):
        _check(path, configuration, machine, **at_rate)


@pytest.mark.parametrize("machine", [Z13, Z17])
def test_prepared_options(machine: str) -> None:
    for prep in ({"payload_bytes": 32768}, {"projection_band": 0.1}, {"max_utilization": 0.7, "lpar_overhead": 0.05}):
        _check("zosconnect-cics", "channel", machine, prep=prep)
    _check("cicsts-catalog", "v5.3", machine, prep={"capacity_setting": None, "server_share": 0.5})


def test_an_array_of_rates_and_an_empty_one() -> None:
    prepared = _prepared("cicstg", "ipic-commarea-64", Z17)
    rates = np.array([[100.0, 200.0], [300.0, 400.0]])
    as_array = [a.to_dict() for a in prepared.answers(rates)]
    assert as_array == [a.to_dict() for a in prepared.answers(list(rates.ravel()))]
    assert prepared.answers([]) == []


def test_a_bad_rate_or_option_raises_as_the_scalar_answer() -> None:
    prepared = _prepared("cicstg", "ipic-commarea-64", Z13)
    for bad in (-1.0, math.nan, math.inf):
        with pytest.raises(InputError) as scalar:
            prepared.answer(bad)
        with pytest.raises(InputError) as vector:
            prepared.answers([100.0, bad])
        assert (vector.value.argument, str(vector.value)) == (scalar.value.argument, str(scalar.value))
    with pytest.raises(InputError) as scalar:
        prepared.answer(100.0, cps=1000)
    with pytest.raises(InputError) as vector:
        prepared.answers([100.0, 200.0], cps=1000)
    assert (vector.value.argument, str(vector.value)) == (scalar.value.argument, str(scalar.value))
