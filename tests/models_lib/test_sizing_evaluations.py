"""size() evaluates CP counts only as far as the answer needs them (models_lib.evaluation.evaluations).

The reference is the engine's former loop: every rated count of the target evaluated (the
response times are modelled where a goal is checked, in both).  The answers must be equal, field for field, with and without a
response-time goal, a given CP count, a closed client population and a utilisation ceiling.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import models_lib.decision as decision_module
from models_lib.evaluation import evaluate_count
from models_lib.sizing import size
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z10, Z13, Z17, table

CASES = [
    ("fiteq-authenticator", "multi-region"),
    ("fiteq-authenticator", "single-region-log"),
    ("cicstg", "ipic-channel-64"),
    ("zosconnect-cics", "channel"),
    ("hostbridge-http", "tuned-tcpip"),
    ("cicsts-catalog", "v5.3"),
]
OPTIONS: list[dict[str, Any]] = [
    {},
    {"response_time_sla_ms": 5.0},
    {"response_time_sla_ms": 50.0},
    {"cps": 4},
    {"cps": 6, "response_time_sla_ms": 20.0},
    {"clients": 200, "think_time_s": 0.5},
    {"max_utilization": 0.6, "response_time_sla_ms": 20.0},
]


def _every_count(counts: Any, basis: Any, target: Any, **_: Any) -> list[Any]:
    """The former loop: every rated count of the target."""
    return [evaluate_count(k, basis=basis, target=target) for k in counts]


def _answer(path: str, config: str, machine_type: str, tps: float, options: dict[str, Any]) -> str:
    cfg = P.configuration(path, config)
    try:
        result = size(
            cfg, target_machine=machine_type, target_machine_type=machine_type, capacity=table(), tps=tps, **options
        )
    except ValueError as exc:
        return f"ValueError: {exc}"
    return json.dumps(result.to_dict(), sort_keys=True, default=str)


@pytest.mark.parametrize(("path", "config"), CASES)
def test_answers_equal_the_engine_evaluating_every_cp_count(path: str, config: str, monkeypatch: Any) -> None:
    scenarios = [(m, tps, o) for m in (Z10, Z13, Z17) for tps in (50.0, 2000.0, 40000.0) for o in OPTIONS]
    lazy = [_answer(path, config, m, tps, o) for m, tps, o in scenarios]
    monkeypatch.setattr(decision_module, "evaluations", _every_count)
    full = [_answer(path, config, m, tps, o) for m, tps, o in scenarios]
    assert lazy == full
    assert sum(a.startswith("{") for a in lazy) > len(lazy) // 2  # mostly answers, not refusals
