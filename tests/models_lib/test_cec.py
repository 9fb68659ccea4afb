"""The CEC's PR/SM rules (models_lib/cec.py) on IBM's documented examples, each test naming its
document; the pool capacity at the CEC's total engine count from the stored LSPR rows."""

from __future__ import annotations

import pytest

from models_lib.cec import (
    Cec,
    Lpar,
    LparPool,
    cec_engine_mips,
    check_cec,
    pool_engine_mips,
    pool_shares,
    vertical_counts,
)
from models_lib.checks import InputError
from tests.models_lib.engine_data import table


def _cec(cps: int, *lpars: Lpar, ziips: int = 0) -> Cec:
    return Cec(model=f"8561-7{cps:02d}", machine_type="8561", capacity_setting="700", cps=cps, ziips=ziips,
               lpars=lpars)  # fmt: skip


def _shared(name: str, logical: int, weight: int, *, capped: bool = False, busy: float = 0.0) -> Lpar:
    return Lpar(name, LparPool(logical, weight, capped, busy))


def test_use_of_processing_weights_6_cps_300_100_900() -> None:
    # IBM Z PR/SM Planning Guide, "Use of processing weights": 6 CPs; ZVSE 1 logical core weight
    # 300, ZOSTEST 6 weight 100, ZVM 2 weight 900: "ZVSE 300/1300 = 23.1%, ZOSTEST 100/1300 = 7.7%,
    # ZVM 900/1300 = 69.2%".
    cec = _cec(6, _shared("ZVSE", 1, 300), _shared("ZOSTEST", 6, 100), _shared("ZVM", 2, 900))
    shares = {s.name: s for s in pool_shares(cec, "cp")}
    assert [round(shares[n].weight_fraction * 100, 1) for n in ("ZVSE", "ZOSTEST", "ZVM")] == [23.1, 7.7, 69.2]
    # Entitled to 1.38 and 4.15 engines, ZVSE and ZVM can use only their logical cores (1 and 2; the
    # System z9 PR/SM Planning Guide's "never more than" rule); what they cannot use goes to the
    # others by weight ("Processing weight management"): ZOSTEST is left the other 3.
    assert (shares["ZVSE"].share, shares["ZVM"].share, shares["ZOSTEST"].share) == (1.0, 2.0, 3.0)
    assert (shares["ZVSE"].by_logical, shares["ZVM"].by_logical, shares["ZOSTEST"].by_logical) == (True, True, False)


def test_an_lp_with_two_cps_on_a_three_way_cpc_never_more_than_67_percent() -> None:
    # IBM System z9 PR/SM Planning Guide (SB10-7041), "Processing Weights": "an LP defined to have
    # two CPs on a three-way CPC can never be allocated more than 67% of the CP resources no
    # matter what its processing weight".
    cec = _cec(3, _shared("BIG", 2, 999), _shared("SMALL", 3, 1))
    big, small = pool_shares(cec, "cp")
    assert big.share / 3 == pytest.approx(2 / 3)
    assert big.by_logical
    assert small.share == pytest.approx(1.0)


def test_example_2_without_capping_shares_per_logical_core() -> None:
    # IBM Z PR/SM Planning Guide, "Example 2. Without processor resource capping": 6 physical
    # cores; A 6 LCPs weight 500, B 3 LCPs 300, C 3 LCPs 200; "LCP % of PCP" 50, 60, 40; the
    # resulting utilisation ranges centre on 50 %, 30 %, 20 % of the 6 cores.
    cec = _cec(6, _shared("A", 6, 500), _shared("B", 3, 300), _shared("C", 3, 200))
    shares = pool_shares(cec, "cp")
    assert [round(s.share / s.logical * 100, 6) for s in shares] == [50.0, 60.0, 40.0]
    assert [round(s.share / 6 * 100, 6) for s in shares] == [50.0, 30.0, 20.0]


def test_a_dedicated_lpar_is_outside_the_shared_pool() -> None:
    # IBM z/VM "LPAR Entitlement Calculator": "if you have 15 physical IFL cores and you have two
    # dedicated LPARs configured with 7 IFL cores altogether, your number of shared physical cores
    # is 15-7 = 8"; z/VM Performance, "PR/SM Concepts": a dedicated logical CPU is entitled to 100 %
    # of one real CPU.  (The same rule for CPs: PR/SM Planning Guide, "Shared central processors".)
    ded = Lpar("DED1", LparPool(4), dedicated=True)
    ded2 = Lpar("DED2", LparPool(3), dedicated=True)
    cec = _cec(15, ded, ded2, _shared("S1", 8, 500), _shared("S2", 8, 500))
    shares = {s.name: s for s in pool_shares(cec, "cp")}
    assert (shares["DED1"].share, shares["DED2"].share) == (4.0, 3.0)
    assert shares["S1"].share + shares["S2"].share == pytest.approx(15 - 7)
    assert shares["S1"].share == pytest.approx(4.0)
    assert shares["DED1"].weight is None


def test_a_capped_lpar_uses_at_most_its_share() -> None:
    # PR/SM Planning Guide, "Capping processing weights": "A capped LP running at its cap does not
    # have access to the CP resources that are not utilized by other LPs".
    cec = _cec(6, _shared("CAPPED", 6, 500, capped=True), _shared("FREE", 6, 500))
    capped, free = pool_shares(cec, "cp")
    assert capped.limit == pytest.approx(3.0) and capped.capped
    assert free.limit == 6.0


def test_vertical_counts_of_the_pr_sm_guides_example() -> None:
    # IBM Z PR/SM Planning Guide, "Enabling HiperDispatch for z/OS Logical Partitions": 8 CPs,
    # weights 600 and 400, "600 / (600 + 400) * 8 = 4.8 physical processors. If one defines 8
    # logical processors for this partition, 5 will be active at all times and up to 3 ...".
    cec = _cec(8, _shared("P600", 8, 600), _shared("P400", 8, 400))
    p600 = pool_shares(cec, "cp")[0]
    assert p600.share == pytest.approx(4.8)
    assert (p600.vh, p600.vm, p600.vl) == (4, 1, 3)
    assert p600.vh + p600.vm == 5


def test_vertical_counts_200_percent_share_with_four_logical_processors() -> None:
    # z/OS MVS Planning: Workload Management, "The concept of HiperDispatch mode": "a logical
    # partition with a 200% processor share and four logical processors, two logical processors
    # are sufficient to obtain the two physical processors worth of capacity".
    assert vertical_counts(2.0, 4) == (2, 0, 2)


@pytest.mark.parametrize(
    ("weight", "expected"),
    [(28, (8, 1)), (26, (7, 2))],
)
def test_vertical_mediums_carry_at_least_half_an_engine(weight: int, expected: tuple[int, int]) -> None:
    # "Planning Considerations for HiperDispatch Mode" V2 (IBM, 2011), as worked by
    # mainframe-tips-and-tricks (2021): 32 shared CPs, 28 % -> 8.96 = 8 VH + 1 VM; 26 % -> 8.32 =
    # 7 VH + 2 VM (fraction below 50 %: one VH fewer, two VMs with 1.32 between them).
    cec = Cec("8561-732", "8561", "700", 32, lpars=(_shared("X", 16, weight), _shared("Y", 32, 100 - weight)))
    x = pool_shares(cec, "cp")[0]
    assert x.share == pytest.approx(32 * weight / 100)
    assert (x.vh, x.vm) == expected
    assert x.vl == 16 - sum(expected)


def test_pool_capacity_at_the_cecs_total_engine_count() -> None:
    # The MP effect at the CEC's total engine count: per-engine MIPS = MIPS(N) / N of the LSPR
    # row; an 8561-710 with 4 zIIPs has 14 engines, rated by the 8561-714 row; specialty
    # engines at full speed even on a sub-capacity model.
    t = table()
    cec = _cec(10, _shared("PROD", 10, 100), ziips=4)
    assert pool_engine_mips(t, cec, "cp") == t.ratings[("8561", 14)].mips / 14
    assert pool_engine_mips(t, cec, "ziip") == t.ratings[("8561", 14)].mips / 14
    sub = Cec("8561-510", "8561", "500", 10, ziips=4, lpars=cec.lpars)
    # A sub-capacity CP: the full-speed figure at the total times the setting's speed at the
    # CPs installed (models_lib.capacity.per_engine_mips_at, the estimate's own rule).
    speed = t.settings[("8561", "500", 10)].mips / t.ratings[("8561", 10)].mips
    assert pool_engine_mips(t, sub, "cp") == pytest.approx(t.ratings[("8561", 14)].mips / 14 * speed, rel=1e-12)
    assert pool_engine_mips(t, sub, "ziip") == t.ratings[("8561", 14)].mips / 14
    assert cec_engine_mips(t, "8561", 10) == t.ratings[("8561", 10)].mips / 10
    with pytest.raises(InputError) as err:
        cec_engine_mips(t, "8561", 999)
    assert err.value.argument == "model"


@pytest.mark.parametrize(
    ("lpar", "field"),
    [
        (_shared("ZERO", 4, 0), "lpars.0.cp.weight"),
        (_shared("MANY", 11, 100), "lpars.0.cp.logical"),
        (_shared("BUSY", 4, 100, busy=100.5), "lpars.0.cp.busy_pct"),
        (Lpar("NOCP", LparPool(0, 100)), "lpars.0.cp.logical"),
        (Lpar("DED", LparPool(2, 100), dedicated=True), "lpars.0.cp.weight"),
        (Lpar("ZIIP", LparPool(2, 100), LparPool(5, 100)), "lpars.0.ziip.logical"),
    ],
)
def test_bad_configurations_name_the_field(lpar: Lpar, field: str) -> None:
    with pytest.raises(InputError) as err:
        check_cec(_cec(10, lpar, ziips=4))
    assert err.value.argument == field


def test_placing_work_adds_it_in_engines_of_this_cec_and_each_change_makes_it_fit() -> None:
    # Demand in MIPS is carried into engines at the CEC's per-engine capacity (8561 at 14 engines);
    # every change the placement proposes, applied, fits (placed again with the same demand).
    import dataclasses

    from models_lib.cec_place import place

    t = table()
    prod = Lpar("PROD", LparPool(6, 600, busy_pct=50.0), LparPool(4, 600))
    test = Lpar("TEST", LparPool(4, 300, busy_pct=20.0), LparPool(2, 300))
    cec = _cec(10, prod, test, Lpar("DEV", LparPool(2, 100)), ziips=4)
    per_engine = t.ratings[("8561", 14)].mips / 14
    demand = {"cp": (3.0 * per_engine, 2.0 * per_engine, 4.0 * per_engine), "ziip": (0.0, 0.0, 0.0)}
    placed = place(cec, t, lpar="PROD", demand_mips=demand, ceiling=0.85)
    cp = placed.pool("cp")
    assert cp is not None
    assert cp.added == pytest.approx(3.0) and cp.today == pytest.approx(3.0)
    assert cp.share == pytest.approx(6.0)  # 600 / 1000 x 10
    assert cp.fits == (6.0 <= 0.85 * 6.0)
    assert not placed.fits and cp.binding == "logical"
    assert placed.changes and placed.changes[0].kind == "logical"
    change = placed.changes[0]
    assert change.logical == 8  # ceil(6.0 / 0.85) = 8 logical CPs
    wider = dataclasses.replace(
        cec,
        lpars=(dataclasses.replace(prod, cp=LparPool(8, change.weight, busy_pct=3.0 / 8 * 100)), *cec.lpars[1:]),
    )
    again = place(wider, t, lpar="PROD", demand_mips=demand, ceiling=0.85)
    assert again.fits


def test_a_weight_change_is_the_smallest_weight_that_carries_the_work() -> None:
    # PROD (6 logical, weight 300 of 1,000 on 10 CPs: share 3) takes 3.4 engines of work at
    # 85 %: it needs a share of 4.0, i.e. weight w with w / (w + 700) x 10 >= 4.0: w = 467.
    from models_lib.cec_place import place

    t = table()
    cec = _cec(10, _shared("PROD", 6, 300), _shared("TEST", 8, 700, busy=50.0))
    engine = t.ratings[("8561", 10)].mips / 10
    placed = place(cec, t, lpar="PROD", demand_mips={"cp": (3.4 * engine,) * 3}, ceiling=0.85)
    cp = placed.pool("cp")
    assert cp is not None and cp.binding == "share" and not placed.fits
    weight = placed.changes[0]
    assert (weight.kind, weight.weight) == ("weight", 467)
    assert 466 / (466 + 700) * 10 < 3.4 / 0.85 <= 467 / (467 + 700) * 10
    # TEST runs 4 CPs today: with PROD at 467 its share is 700 / 1,167 x 10 = 6.0, 85 % of it 5.1: it keeps up.
    assert weight.others_short == ()


def test_a_new_lpar_is_placed_with_the_others_shares_recomputed() -> None:
    from models_lib.cec_place import place

    t = table()
    cec = _cec(10, _shared("PROD", 8, 500, busy=40.0))
    engine = t.ratings[("8561", 10)].mips / 10
    placed = place(cec, t, lpar="", demand_mips={"cp": (1.0 * engine,) * 3}, ceiling=0.85,
                   new_lpar=_shared("NEW", 4, 500))  # fmt: skip
    cp = placed.pool("cp")
    assert placed.new and placed.lpar == "NEW" and cp is not None
    # 500 / 1,000 x 10 = 5, held at its 4 logical CPs (PROD is left 6).
    assert cp.share == pytest.approx(4.0) and cp.today == 0.0 and cp.added == pytest.approx(1.0)
    assert placed.fits
    with pytest.raises(InputError) as err:
        place(cec, t, lpar="", demand_mips={}, ceiling=0.85, new_lpar=_shared("PROD", 2, 100))
    assert err.value.argument == "new_lpar.name"


def test_a_weight_change_names_the_lpars_it_would_starve() -> None:
    # Weights 100 / 600 / 300 on 10 CPs: shares 1, 6, 3. TEST runs 5.0 CPs within 85 % of its 6
    # (5.1). PROD takes 3.4 CPs of work: it needs a share of 4.0, weight 600 (600 / 1,500 x 10),
    # which leaves TEST 600 / 1,500 x 10 = 4.0 CPs, 85 % of which (3.4) no longer carries 5.0.
    from models_lib.cec_place import place

    t = table()
    cec = _cec(10, _shared("PROD", 6, 100), _shared("TEST", 8, 600, busy=5.0 / 8 * 100), _shared("DEV", 8, 300))
    engine = t.ratings[("8561", 10)].mips / 10
    placed = place(cec, t, lpar="PROD", demand_mips={"cp": (3.4 * engine,) * 3}, ceiling=0.85)
    weight = next(c for c in placed.changes if c.kind == "weight")
    assert weight.weight == 600 and weight.others_short == ("TEST",)
    assert "TEST would run above 85% of their share" in weight.sentence
