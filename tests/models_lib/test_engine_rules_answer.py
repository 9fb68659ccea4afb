"""Engine rules in the answer: the ratio in force with its citation, the unconfirmed ratio's
recorded alternative at the same rate, and SMT-2 on zIIPs stated either way
(benchmarks/engine_rules.yaml; issue 22 item 6)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from numpy.testing import assert_allclose

from models_lib.checks import InputError
from models_lib.inputs import CapacityTable
from models_lib.sizing import SizingResult, size
from tests.models_lib import published as P
from tests.models_lib.engine_data import table as rules_table

ZOSCONNECT = ("zosconnect-cics", "channel")
MACHINES = {"zec12": "2827", "z13": "2964", "z16": "3931", "z10": "2097"}


@pytest.fixture(scope="module")
def table() -> CapacityTable:
    return rules_table()


def _size(table: CapacityTable, machine: str, **kw: Any) -> SizingResult:
    cfg = P.configuration(*ZOSCONNECT)
    kw.setdefault("payload_bytes", 32768)
    return size(cfg, target_machine=machine, target_machine_type=MACHINES[machine], capacity=table, **kw)


def _with_rule(table: CapacityTable, machine_type: str, **fields: Any) -> CapacityTable:
    """The table with one generation's rule replaced and nothing left unconfirmed."""
    rules = dict(table.engine_rules)
    rules[machine_type] = replace(rules[machine_type], unconfirmed=(), alternatives=(), **fields)
    return replace(table, engine_rules=rules)


def _sentence(r: SizingResult, needle: str) -> str:
    hits = [a for a in r.basis.assumptions if needle in a]
    assert len(hits) == 1, r.basis.assumptions
    return hits[0]


def test_zec12_answer_cites_its_unconfirmed_ratio_and_gives_the_1_to_1_alternative(table: CapacityTable) -> None:
    # engine_rules.yaml, zEC12 (issue 32 item 5): zaaps_per_cp 2 (GA2, 2013), unconfirmed,
    # alternatives {zaaps_per_cp: 1} (GA1, the z/OS V2R1 pages).  The alternative must be the
    # engine's own answer under the 1:1 rule; the fewest CPs the rule allows (fewest-cps).
    r = _size(table, "zec12", tps=1000.0, objective="fewest-cps")
    rule = _sentence(r, "zEC12: eligible (Java) work runs on zAAPs")
    assert "at most 2 per CP (unconfirmed" in rule and "z/OS V2R1 (2013) MVS Planning" in rule
    assert "'zAAP on zIIP capability' product page (zEC12/zBC12 edition" in rule
    other = _size(_with_rule(table, "2827", zaaps_per_cp=1.0), "zec12", tps=1000.0, objective="fewest-cps")
    assert r.cps is not None and r.ziips is not None and other.cps is not None and other.ziips is not None
    assert r.ziips <= 2 * r.cps and other.ziips <= other.cps
    assert (other.cps, other.ziips) != (r.cps, r.ziips)
    alt = _sentence(r, "ratio in force is unconfirmed")
    assert "(at most 1 zAAP per CP)" in alt
    cps = f"{other.cps} CP{'' if other.cps == 1 else 's'}"
    assert f"takes {cps} + {other.ziips} zAAPs at {other.gcp_utilization:.1%} CP busy" in alt
    assert f"{other.msu:,.1f} MSU" in alt


def test_z16_alternative_is_no_ratio(table: CapacityTable) -> None:
    # engine_rules.yaml, z16: ziips_per_cp 2 unconfirmed, alternative null (no ratio).
    r = _size(table, "z16", tps=1000.0)
    other = _size(_with_rule(table, "3931", ziips_per_cp=None), "z16", tps=1000.0)
    alt = _sentence(r, "ratio in force is unconfirmed")
    assert "(no ratio)" in alt and f"takes {other.cps} CP" in alt and f"+ {other.ziips} zIIPs" in alt


def test_confirmed_rule_has_no_alternative(table: CapacityTable) -> None:
    # engine_rules.yaml, z10 EC: unconfirmed [] (z/OS WLM pages and the z10 EC reference guide).
    r = _size(table, "z10", tps=1000.0)
    assert "unconfirmed" not in _sentence(r, "z10 EC: eligible (Java) work runs on zAAPs")
    assert not [a for a in r.basis.assumptions if "ratio in force is unconfirmed" in a]


@pytest.mark.parametrize("machine", ["zec12", "z13", "z16", "z10"])
def test_every_answer_says_whether_smt2_is_applied(table: CapacityTable, machine: str) -> None:
    r = _size(table, machine, tps=1000.0)
    assert _sentence(r, "SMT-2 on zIIPs:").startswith("SMT-2 on zIIPs: not ")


def test_smt2_factor_divides_the_ziip_core_busy_on_z16(table: CapacityTable) -> None:
    # Each zIIP core with SMT-2 carries `factor` zIIPs of eligible work: at the same CPs and
    # zIIPs, busy zIIP cores = busy zIIPs without SMT-2 / 1.25 (smt2_ziip_capacity).
    plain = _size(table, "z16", tps=1000.0, cps=3, ziips=6)
    smt = _size(table, "z16", tps=1000.0, cps=3, ziips=6, smt2_factor=1.25)
    assert_allclose(smt.busy_cps.ziip, plain.busy_cps.ziip / 1.25, rtol=1e-12)
    assert_allclose(smt.busy_cps.gcp, plain.busy_cps.gcp, rtol=1e-12)
    assert _sentence(smt, "SMT-2 on zIIPs:") == (
        "SMT-2 on zIIPs: applied with the user-given factor 1.25 (each zIIP core = 1.25 zIIPs)"
    )


def test_smt2_factor_is_not_applied_where_zaaps_run_the_work(table: CapacityTable) -> None:
    plain = _size(table, "zec12", tps=1000.0)
    smt = _size(table, "zec12", tps=1000.0, smt2_factor=1.25)
    assert (smt.cps, smt.ziips, smt.busy_cps.ziip) == (plain.cps, plain.ziips, plain.busy_cps.ziip)
    assert "not applied (factor 1.25 given, but zAAPs run the eligible work)" in _sentence(smt, "SMT-2 on zIIPs:")


@pytest.mark.parametrize("factor", [0.9, 2.5, float("nan")])
def test_smt2_factor_outside_1_to_2_is_rejected_naming_it(table: CapacityTable, factor: float) -> None:
    with pytest.raises(InputError) as err:
        _size(table, "z16", tps=1000.0, smt2_factor=factor)
    assert err.value.argument == "smt2_factor"


def test_fiteq_coupling_facility_is_icf_busy_apart_from_the_lpar_cps() -> None:
    # REDP-5114 sec. 5.1: "Internal Coupling Facility with two dedicated CPs"; Table 11-1 row 4
    # (8680.75 TPS): CF CPU 3.80 % of those 2 engines = 0.076 busy ICF engines, LPAR CPU 75.99 %
    # of 10 CPs.  The CF's busy is served apart (breakdown "icf", capacity.icf) and the CPs
    # sized carry the LPAR only.
    cfg = P.configuration("fiteq-authenticator", "multi-region")
    r = size(cfg, target_machine="zec12", target_machine_type="2827", capacity=P.capacity_table(), tps=8680.75, cps=10)
    assert "cf" not in r.breakdown
    assert_allclose(r.breakdown["icf"], 3.80 * 2 / 100.0, rtol=0.10)  # the CF line's fit at a published rate
    assert r.capacity_detail is not None and r.capacity_detail.icf is not None
    assert r.capacity_detail.icf.busy == r.breakdown["icf"]
    assert "not in the CPs sized" in r.capacity_detail.icf.note
    assert_allclose(r.busy_cps.gcp, r.breakdown["lpar"], rtol=1e-12)  # type: ignore[arg-type]
    assert r.to_dict()["capacity"]["icf"]["busy"] == r.breakdown["icf"]


def test_paths_without_a_coupling_facility_have_no_icf_line(table: CapacityTable) -> None:
    r = _size(table, "z16", tps=1000.0)
    assert "icf" not in r.breakdown and r.capacity_detail is not None and r.capacity_detail.icf is None


def test_without_eligible_work_the_other_rule_gives_the_same_answer(table: CapacityTable) -> None:
    # FiTeq publishes no zIIP eligibility (0 % assumed): no ratio can bind on z17, whose 2:1 is
    # unconfirmed with "no ratio" recorded as the alternative (engine_rules.yaml).
    cfg = P.configuration("fiteq-authenticator", "multi-region")
    r = size(cfg, target_machine="z17", target_machine_type="9175", capacity=table, tps=3000.0)
    alt = _sentence(r, "ratio in force is unconfirmed")
    assert "(no ratio) gives the same answer: no eligible work" in alt


def test_basis_states_the_mp_effect_of_the_whole_configuration(table: CapacityTable) -> None:
    # z/OS Connect 32K at 3,000 TPS on z16, 4 CPs + 8 zIIPs given.  LSPR rows (the zPCR export,
    # benchmarks/lspr_zpcr_configuration_summary.csv): 3931-704 and 3931-712; per engine
    # MIPS(4)/4 at the CPs alone against MIPS(12)/12 at the configuration's 12 engines, applied.
    r = _size(table, "z16", tps=3000.0, cps=4, ziips=8)
    assert (r.cps, r.ziips) == (4, 8)
    rows = {int(row["cps"]): float(row["mips"]) for row in P.lspr_rows("3931", (4, 12))}
    per4, per12 = rows[4] / 4, rows[12] / 12
    note = _sentence(r, "MP effect: the 4 CPs and 8 zIIPs are rated at the configuration's 12 engines")
    assert f"{per12:,.1f} MIPS per engine at full speed against {per4:,.1f} at 4 CPs alone" in note
    assert f"(factor {per12 / per4:.3f})" in note
    assert r.capacity_detail is not None
    b = r.capacity_detail.basis
    assert b.mp_engines == 12
    assert_allclose((b.mips_per_engine_at_cps, b.mips_per_engine_at_total, b.mp_factor), (per4, per12, per12 / per4))
    assert not [a for a in r.basis.assumptions if "not applied" in a and "MP" in a]


def test_no_mp_effect_sentence_without_specialty_engines(table: CapacityTable) -> None:
    cfg = P.configuration("fiteq-authenticator", "multi-region")
    r = size(cfg, target_machine="z16", target_machine_type="3931", capacity=table, tps=3000.0)
    assert r.ziips == 0 and not [a for a in r.basis.assumptions if "MP effect" in a]
