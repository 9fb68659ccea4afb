"""The rest of the LPAR beside CICS, from REDP-5320's figures at its top V5.3 rate."""

from __future__ import annotations

import pytest
from numpy.testing import assert_allclose

from models_lib.lpar import LparOverhead, lpar_overhead_from_published, lpar_overhead_from_statement
from tests.models_lib import published as P

FILE = "cicsts_v53_redp5320.yaml"


def _rows(key: str) -> dict[str, float]:
    return {r["name"]: r["value"] for r in P.statement(FILE, key)["data"]["rows"]}


def _published() -> LparOverhead:
    # REDP-5320 at 174,624.3 TPS on 18 CPs: Figure 10 (WORKLOAD=CICSCPU, APPL% CP 1499.4),
    # Figure 14 (REPORT BY POLICY, APPL% CP 1669.7), "the LPAR was already running at 97%".
    busy = P.statement(FILE, "perfmon-lpar-97pct")["data"]
    return lpar_overhead_from_published(
        cics_cpu_pct=_rows("fig10-rmf-workload-cicscpu")["appl_pct_cp"],
        policy_cpu_pct=_rows("fig14-rmf-policy-mobile")["appl_pct_cp"],
        lpar_busy_pct=busy["value"],
        lpar_cps=busy["condition"]["engines"],
    )


def test_redp5320_overhead_matches_the_hand_arithmetic() -> None:
    o = _published()
    # central = 97 % x 18 CPs = 1746 % of one CP over CICS 1499.4: 1746 / 1499.4 - 1
    assert_allclose(o.central, 1746 / 1499.4 - 1, rtol=1e-12)
    # low = policy total over CICS: 1669.7 / 1499.4 - 1 (captured time only)
    assert_allclose(o.low, 1669.7 / 1499.4 - 1, rtol=1e-12)
    # high = 97.5 % (the printed 97 % at its upper end) x 18 = 1755: 1755 / 1499.4 - 1
    assert_allclose(o.high, 1755 / 1499.4 - 1, rtol=1e-12)
    assert_allclose(o.capture_ratio(), 1669.7 / 1746, rtol=1e-12)


def test_redp5320_statement_carries_the_derived_overhead_and_its_inputs() -> None:
    o = _published()
    data = P.statement(FILE, "lpar-overhead-top-rate")["data"]
    # Stored to five decimals in the YAML.
    assert_allclose((data["value"], data["low"], data["high"]), (o.central, o.low, o.high), atol=5e-6)
    recomputed = lpar_overhead_from_published(**data["inputs"])
    assert recomputed == o


def test_lpar_at_the_top_published_rate_lies_inside_the_stated_range() -> None:
    o = _published()
    central, low, high = o.lpar_cpu(1499.4)  # Table 1 row 5, Total CICS CPU%, 174,624.30 TPS
    # The LPAR's 97 % of 18 CPs (1746 % of one CP) and the policy total (1669.7 %) both lie in
    # the range; the centre is the LPAR busy.
    assert low <= 1669.7 <= high and low <= 97 * 18 <= high
    assert_allclose(central / 18, 97.0, rtol=1e-12)
    assert o.covers(o.policy_overhead()) and o.covers(97 * 18 / 1499.4 - 1)


def test_cics_only_answer_at_the_top_rate_falls_short_of_the_published_lpar() -> None:
    # The regions alone are 1499.4 / 18 = 83.3 % of the LPAR, below the 97 % the paper reports:
    # the overhead is what closes the gap.
    o = _published()
    assert 1499.4 / 18 < 97.0
    assert_allclose(1499.4 * (1 + o.central) / 18, 97.0, rtol=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"cics_cpu_pct": 0.0}, "cics_cpu_pct"),
        ({"policy_cpu_pct": float("nan")}, "policy_cpu_pct"),
        ({"policy_cpu_pct": 1000.0}, "policy_cpu_pct"),  # below the CICS CPU
        ({"lpar_busy_pct": 101.0}, "lpar_busy_pct"),
        ({"lpar_busy_pct": 50.0}, "lpar_busy_pct"),  # 50.5 % x 18 = 909 < 1669.7 captured
        ({"lpar_cps": 0}, "lpar_cps"),
        ({"lpar_cps": True}, "lpar_cps"),
        ({"lpar_busy_half_step": -0.1}, "lpar_busy_half_step"),
    ],
)
def test_bad_input_raises_naming_the_argument(kwargs: dict[str, float], name: str) -> None:
    args: dict[str, float] = {
        "cics_cpu_pct": 1499.4,
        "policy_cpu_pct": 1669.7,
        "lpar_busy_pct": 97.0,
        "lpar_cps": 18,
        **kwargs,
    }
    with pytest.raises(ValueError, match=name):
        lpar_overhead_from_published(**args)  # type: ignore[arg-type]


def test_lpar_cpu_rejects_a_negative_cics_cpu() -> None:
    with pytest.raises(ValueError, match="cics_cpu"):
        _published().lpar_cpu(-1.0)


def test_statement_reader_recomputes_the_stored_overhead() -> None:
    data = P.statement(FILE, "lpar-overhead-top-rate")["data"]
    assert lpar_overhead_from_statement(data) == _published()
    with pytest.raises(ValueError, match="'value'"):
        lpar_overhead_from_statement({**data, "value": 0.2})
    with pytest.raises(ValueError, match="data"):
        lpar_overhead_from_statement({"quantity": "cpu_per_tran"})
