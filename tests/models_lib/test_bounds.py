"""Central cost between published bounds: CICS TG V9.0 Scenario 1 (seed 004) comes out sustainable."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from models_lib.bounds import SustainedRun, bounded_cost, floor_from_unabsorbed_eligible, floors_for_configuration
from tests.models_lib import published as P

FILE = "cicstg_v9_perf.yaml"
CONFIGS = (
    "exci-commarea-31",
    "ipic-commarea-31",
    "ipic-channel-31",
    "exci-commarea-64",
    "ipic-commarea-64",
    "ipic-channel-64",
)
# The engine's default zIIP/zAAP ceiling (max_utilization 0.85), the one the floors were derived with.
ZIIP_CEILING = 0.85


def _run(config: str) -> SustainedRun:
    b = P.statement(FILE, f"s1-bound-{config}")["data"]
    elig = P.statement(FILE, f"s1-elig-{config}")["data"]["fraction"]
    return SustainedRun(tps=b["tps"], gcps=b["gcps"], specialty=b["zaaps"], eligible_fraction=elig, label=config)


def _floors(config: str) -> list[float]:
    """The configuration's own floor, plus EXCI's where IPIC's path is published as longer."""
    floors = [P.statement(FILE, f"s1-floor-{config}")["data"]]
    bits = config[-2:]
    order = P.statement(FILE, f"s1-ipic-longer-path-{bits}")["data"]
    if config in order["greater"]:
        floors.append(P.statement(FILE, order["floor_from"])["data"])
    return [
        floor_from_unabsorbed_eligible(
            tps=f["tps"], specialty=f["zaaps"], eligible_fraction=f["eligible_fraction"], ziip_ceiling=f["ziip_ceiling"]
        )
        for f in floors
    ]


def test_floor_formula_matches_the_stored_floors() -> None:
    # Table 1 "EXCI / COMMAREA": 48.89 % eligible; one zAAP at 0.85 short at 1780 TPS:
    # cost > 0.85 / (0.4889 x 1780) = 0.9767 ms; at a full zAAP 1 / (0.4889 x 1780) = 1.1491 ms.
    assert_allclose(
        floor_from_unabsorbed_eligible(tps=1780, specialty=1, eligible_fraction=0.4889, ziip_ceiling=0.85),
        0.85 / (0.4889 * 1780),
        rtol=1e-15,
    )
    for config in CONFIGS:
        f = P.statement(FILE, f"s1-floor-{config}")["data"]
        got = floor_from_unabsorbed_eligible(
            tps=f["tps"], specialty=f["zaaps"], eligible_fraction=f["eligible_fraction"], ziip_ceiling=f["ziip_ceiling"]
        )
        assert_allclose(got * 1000, f["value_ms"], atol=5e-5)  # stored to 4 decimals
        assert_allclose(1000 / (f["eligible_fraction"] * f["tps"]), f["value_ms_at_full_zaap"], atol=5e-5)


@pytest.mark.parametrize("config", CONFIGS)
def test_cicstg_1780_tps_on_3_cps_and_1_zaap_is_sustainable_with_the_central_cost(config: str) -> None:
    run = _run(config)
    b = bounded_cost(runs=[run], floors_s=_floors(config), ziip_ceiling=ZIIP_CEILING)
    # Published ceiling: 4 engines / 1780 TPS = 2.2472 ms.
    assert_allclose(b.published_ceiling_s, 4 / 1780, rtol=1e-15)
    # Sustainable ceiling: the zAAP short, CP demand = c x 1780 - 0.85 <= 3 CPs: (3 + 0.85) / 1780.
    assert_allclose(b.sustainable_ceiling_s, 3.85 / 1780, rtol=1e-12)
    assert b.floor_s < b.central_s < b.upper_s()
    assert_allclose(b.central_s, math.sqrt(b.floor_s * b.upper_s()), rtol=1e-15)
    split = run.split(b.central_s, ZIIP_CEILING)
    assert split.gcp / run.gcps < 1.0  # sustainable on its 3 CPs
    assert split.ziips_short()  # and the single zAAP still cannot absorb all eligible work
    # The former choice (the published ceiling) is not sustainable: (4 - 0.85) / 3 = 105 % CP.
    assert_allclose(run.cp_utilization(b.published_ceiling_s, ZIIP_CEILING), (4 - 0.85) / 3, rtol=1e-12)


def test_exci_31_central_cost_numbers() -> None:
    # floor 0.85 / (0.4889 x 1780) s, upper 3.85 / 1780 s, central = their geometric mean.
    b = bounded_cost(runs=[_run("exci-commarea-31")], floors_s=_floors("exci-commarea-31"), ziip_ceiling=ZIIP_CEILING)
    floor, upper = 0.85 / (0.4889 * 1780), 3.85 / 1780
    assert_allclose(b.interval(), (floor, upper), rtol=1e-12)
    assert_allclose(b.central_s, math.sqrt(floor * upper), rtol=1e-12)
    # CP utilisation at the central cost: (c x 1780 - 0.85) / 3 (the zAAP is short).
    assert_allclose(b.cp_utilizations()[0], (b.central_s * 1780 - 0.85) / 3, rtol=1e-12)


def test_ipic_floor_is_raised_by_the_longer_path_statement() -> None:
    # IPIC's own floor (0.85 / (0.6854 x 1780) = 0.6967 ms) is below EXCI's (0.9767 ms); the
    # source says IPIC's path is longer, so EXCI's floor binds.
    floors = _floors("ipic-commarea-31")
    assert_allclose(max(floors), 0.85 / (0.4889 * 1780), rtol=1e-12)
    assert_allclose(min(floors), 0.85 / (0.6854 * 1780), rtol=1e-12)


def test_without_a_floor_the_central_cost_is_the_sustainable_ceiling() -> None:
    run = SustainedRun(tps=1000, gcps=6, specialty=0, eligible_fraction=0.5)
    b = bounded_cost(runs=[run], ziip_ceiling=0.85)
    # No specialty engine: CP demand = c x 1000 <= 6, the same as the published 6 / 1000.
    assert_allclose(b.central_s, 6 / 1000, rtol=1e-15)
    assert b.all_sustainable()


def test_sustainable_ceiling_while_the_specialty_engines_keep_up() -> None:
    # 2 CPs, 4 zIIPs, 25 % eligible at 100 TPS: the CPs fill first. CP demand (1 - 0.25) c x 100
    # = 2 at c = 2 / 75; eligible then 0.25 x 2/75 x 100 = 0.667 < 4 x 0.85: the zIIPs keep up.
    run = SustainedRun(tps=100, gcps=2, specialty=4, eligible_fraction=0.25)
    assert_allclose(run.sustainable_ceiling_s(0.85), 2 / 75, rtol=1e-12)
    assert_allclose(run.cp_utilization(2 / 75, 0.85), 1.0, rtol=1e-12)


@given(
    tps=st.floats(1.0, 1e5),
    gcps=st.integers(1, 64),
    specialty=st.integers(0, 64),
    eligible=st.floats(0.0, 1.0),
    ceiling=st.floats(0.05, 1.0),
)
def test_every_run_is_exactly_full_at_its_sustainable_ceiling(
    tps: float, gcps: int, specialty: int, eligible: float, ceiling: float
) -> None:
    run = SustainedRun(tps=tps, gcps=gcps, specialty=specialty, eligible_fraction=eligible)
    c = run.sustainable_ceiling_s(ceiling)
    assert math.isfinite(c) and c > 0.0
    assert_allclose(run.cp_utilization(c, ceiling), 1.0, rtol=1e-9)


def test_contradicting_floor_raises_naming_floors() -> None:
    run = SustainedRun(tps=1780, gcps=3, specialty=1, eligible_fraction=0.4889)
    with pytest.raises(ValueError, match="floors_s"):
        bounded_cost(runs=[run], floors_s=[4 / 1780], ziip_ceiling=0.85)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: bounded_cost(runs=[], ziip_ceiling=0.85), "runs"),
        (lambda: bounded_cost(runs=[SustainedRun(1, 1, 0, 0.0)], floors_s=[-1.0], ziip_ceiling=0.85), "floors_s"),
        (lambda: bounded_cost(runs=[SustainedRun(1, 1, 0, 0.0)], ziip_ceiling=0.0), "ziip_ceiling"),
        (lambda: bounded_cost(runs=[SustainedRun(1, 1, 0, 0.0)], ziip_ceiling=0.85, cp_ceiling=1.5), "cp_ceiling"),
        (lambda: SustainedRun(0.0, 1, 0, 0.0), "tps"),
        (lambda: SustainedRun(1.0, 0, 0, 0.0), "gcps"),
        (lambda: SustainedRun(1.0, 1, -1, 0.0), "specialty"),
        (lambda: SustainedRun(1.0, 1, 0, 1.2), "eligible_fraction"),
        (
            lambda: floor_from_unabsorbed_eligible(tps=1, specialty=0, eligible_fraction=0.5, ziip_ceiling=1),
            "specialty",
        ),
        (lambda: floor_from_unabsorbed_eligible(tps=1, specialty=1, eligible_fraction=0.0, ziip_ceiling=1), "eligible"),
    ],
)
def test_bad_input_raises_naming_the_argument(call: object, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        call()  # type: ignore[operator]


@pytest.mark.parametrize("config", CONFIGS)
def test_floors_read_from_the_stored_statements_match_the_hand_assembled_ones(config: str) -> None:
    statements = [(s.get("configuration"), s["data"]) for s in P.load(FILE)["statements"] if s["kind"] == "bound"]
    got = floors_for_configuration(config, statements, ziip_ceiling=ZIIP_CEILING)
    assert_allclose(sorted(got), sorted(_floors(config)), rtol=1e-15)
    # IPIC configurations get EXCI's floor too (the longer-path statement): two floors; EXCI one.
    assert len(got) == (1 if config.startswith("exci") else 2)
