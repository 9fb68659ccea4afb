"""Specialty-engine rules, capacity settings, the capacity block, ranges, binding resources and
published limits (issue 10 items 2, 5-8; issue 11 items 2-3).

Rules and settings come from ``tests/models_lib/engine_data.py`` (with their sources).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models_lib.capacity import projection_factor
from models_lib.costmodel import fit_configuration
from models_lib.engine import component_cost, engine_policy, saturation
from models_lib.inputs import PublishedLimit
from models_lib.sizing import SizingResult, size
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z10, Z13, Z17, table


def _size(path: str, configuration: str, machine_type: str, **kw: Any) -> SizingResult:
    cfg = P.configuration(path, configuration)
    return size(cfg, target_machine=machine_type, target_machine_type=machine_type, capacity=table(), **kw)


# ---------------------------------------------------------------------------------------
# Specialty-engine rules
# ---------------------------------------------------------------------------------------


def test_cicstg_on_z10_names_the_zaap_and_keeps_one_per_cp() -> None:
    # Issue 10: the seed measured "1 zAAP where specified" on the z10; the answer must say zAAP.
    r = _size("cicstg", "ipic-commarea-64", Z10, tps=2000.0)
    assert r.specialty_engine == "zAAP"
    assert r.cps is not None and r.ziips is not None
    assert r.ziips <= r.cps  # 1:1 (rules above)
    assert r.specialty_engine_max == r.cps
    assert r.to_dict()["capacity"]["specialty"]["engine"] == "zAAP"


def test_zosconnect_2000_tps_on_z13_obeys_two_ziips_per_cp() -> None:
    # Issue 10's first example: 32K channel, 2,000 TPS, z13 answered 1 CP + 11 zIIPs.  With the
    # z13 rule (at most 2 zIIPs per CP) the eligible work beyond 2 zIIPs per CP runs on CPs, so
    # the CP count grows until the CPs carry it within the ceiling.
    before = size(
        P.configuration("zosconnect-cics", "channel"),
        target_machine="z13",
        target_machine_type=Z13,
        capacity=replace(table(), engine_rules={}),
        tps=2000.0,
        payload_bytes=32768,
    )
    # fewest-cps: the smallest CP count within the ceiling, the engine's choice before issue 22.
    r = _size("zosconnect-cics", "channel", Z13, tps=2000.0, payload_bytes=32768, objective="fewest-cps")
    assert before.ziips is not None and before.cps is not None
    assert before.ziips > 2 * before.cps  # the old answer broke the rule
    assert r.cps is not None and r.ziips is not None
    assert r.ziips <= 2 * r.cps
    assert r.ziips_required == r.ziips  # one number per concept
    assert r.cps > before.cps
    assert "engine-ratio" in r.warning_codes()
    assert r.gcp_utilization is not None and r.gcp_utilization <= r.max_utilization + 1e-9
    # Total work is the same: what the zIIPs cannot take is on the CPs.
    assert r.busy_cps["ziip_on_gcp"] is not None and r.busy_cps["ziip_on_gcp"] > 0.0
    # least-msu-consumed (issue 22 item 4) sizes the CPs that allow enough zIIPs instead: nothing
    # spills, so the MSU consumed is lower, and the fewest-cps mix (the default) is the alternative.
    least = _size("zosconnect-cics", "channel", Z13, tps=2000.0, payload_bytes=32768, objective="least-msu-consumed")
    assert least.cps is not None and least.ziips is not None and least.msu is not None and r.msu is not None
    assert least.ziips <= 2 * least.cps and least.busy_cps["ziip_on_gcp"] == 0.0
    assert least.msu < r.msu and "engine-ratio" not in least.warning_codes()
    assert least.alternative is not None
    assert (least.alternative.objective, least.alternative.cps, least.alternative.ziips) == (
        "fewest-cps",
        r.cps,
        r.ziips,
    )
    assert least.alternative.msu == pytest.approx(r.msu, rel=1e-12)


def test_given_ziips_above_the_ratio_are_capped_with_a_warning() -> None:
    r = _size("zosconnect-cics", "channel", Z13, tps=800.0, cps=2, ziips=9)
    assert r.ziips == 4  # 2 CPs x 2 (benchmarks/engine_rules.yaml, z13)
    message = next(w.message for w in r.warnings if w.code == "engine-ratio")
    assert "9 zIIPs were given" in message and "z13 allows at most 2 zIIPs per CP" in message
    assert engine_policy(table(), Z13).rules.reference in message  # type: ignore[union-attr]


def test_machine_without_rules_enforces_no_ratio_and_says_so() -> None:
    without = replace(table(), engine_rules={t: r for t, r in table().engine_rules.items() if t != Z17})
    cfg = P.configuration("zosconnect-cics", "channel")
    r = size(cfg, target_machine="z17", target_machine_type=Z17, capacity=without, tps=800.0)
    assert r.specialty_engine == "zIIP" and r.specialty_engine_max is None
    assert any("no specialty-engine rules stored" in a for a in r.basis["assumptions"])


def test_smt2_factor_is_none_when_not_published() -> None:
    assert engine_policy(table(), Z13).smt2_throughput_factor is None


# ---------------------------------------------------------------------------------------
# Capacity settings and the capacity block (issue 11 items 2 and 3)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("tps", [1500.0, 3000.0, 6000.0])
def test_sub_capacity_needs_more_cps_than_full_speed_and_the_same_ziips(tps: float) -> None:
    full = _size("cicstg", "ipic-commarea-64", Z13, tps=tps)
    sub = _size("cicstg", "ipic-commarea-64", Z13, tps=tps, capacity_setting="400")
    assert full.cps is not None and sub.cps is not None
    assert sub.cps > full.cps
    # zIIPs run at full speed: the eligible work in zIIP busy engines is the same at the same CP
    # count; compare at the sub-capacity answer's CP count.
    full_same = _size("cicstg", "ipic-commarea-64", Z13, tps=tps, cps=sub.cps)
    assert sub.ziips == full_same.ziips
    assert sub.busy_cps["ziip"] == pytest.approx(full_same.busy_cps["ziip"], rel=1e-12)


def test_projection_to_the_measured_model_is_the_identity() -> None:
    cfg = P.configuration("fiteq-authenticator", "multi-region")
    assert cfg.lpar_cps is not None
    r = size(
        cfg,
        target_machine=cfg.machine,
        target_machine_type=cfg.machine_type,
        capacity=table(),
        tps=5000.0,
        cps=cfg.lpar_cps,
    )
    assert r.basis["projection"]["factor"] == 1.0
    assert r.basis["projection"]["specialty_factor"] == 1.0
    assert r.busy_cps["total"] == pytest.approx(r.basis["native"]["busy_cps"], rel=1e-12)


def test_msu_grows_with_work() -> None:
    msus = [_size("cicstg", "ipic-commarea-64", Z13, tps=t, cps=8).msu for t in (200.0, 800.0, 1600.0)]
    assert all(m is not None for m in msus)
    assert msus[0] < msus[1] < msus[2]  # type: ignore[operator]


def test_z17_answer_names_9175_and_the_seed_machine() -> None:
    r = _size("zosconnect-cics", "channel", Z17, tps=800.0)
    cap = r.to_dict()["capacity"]
    assert cap["machine_type"] == Z17 and cap["model"].startswith("9175-7")
    assert cap["basis"]["to_model"].startswith("9175-") and cap["basis"]["from_machine_type"] == "2964"
    assert r.basis["projection"]["to_machine_type"] == Z17


def test_capacity_block_prices_cps_apart_from_ziips() -> None:
    # 2964-608 rates 7,132 MIPS and 874 MSU (zPCR export row in benchmarks/lspr_zpcr_configuration_summary.csv).
    r = _size("cicstg", "ipic-commarea-64", Z13, tps=800.0, cps=8, capacity_setting="600")
    cap = r.to_dict()["capacity"]
    assert cap["model"] == "2964-608"
    assert cap["cp"]["mips_installed"] == 7132.0 and cap["cp"]["msu_installed"] == 874.0
    assert cap["cp"]["msu_used"] == pytest.approx(r.busy_cps["gcp"] * 874.0 / 8, rel=1e-12)
    assert r.msu == cap["cp"]["msu_used"]
    assert cap["specialty"]["priced"] is False and "msu_used" not in cap["specialty"]
    assert cap["cp"]["utilization"] == r.gcp_utilization


# ---------------------------------------------------------------------------------------
# Ranges, saturation kind and binding resources (issue 10 items 5 and 8)
# ---------------------------------------------------------------------------------------


def test_bounds_only_saturation_is_a_lower_bound_only_at_the_upper_cost() -> None:
    # z/OS Connect at 256K: the central cost is the published upper bound (no throughput table
    # at that payload), so the saturation is a lower bound and the low end of its range.
    r = _size("zosconnect-cics", "channel", Z13, tps=800.0, payload_bytes=262144)
    assert r.saturation_kind == "lower-bound"
    low, _ = r.ranges["saturation_tps"]
    assert low == pytest.approx(r.saturation_tps, rel=1e-12)
    # At 32K the central cost is tightened below the upper bound by the throughput table
    # (section 7.1): a central estimate, whose range starts lower (at the published bound).
    tightened = _size("zosconnect-cics", "channel", Z13, tps=800.0, payload_bytes=32768)
    assert tightened.saturation_kind == "value"
    low, _ = tightened.ranges["saturation_tps"]
    assert tightened.saturation_tps is not None and low is not None and low < tightened.saturation_tps
    fitted = _size("fiteq-authenticator", "multi-region", "2827", tps=5000.0)
    assert fitted.saturation_kind == "value"


def test_cicsts_saturation_lies_inside_its_own_range() -> None:
    # Known trap (a): CICS TS v5.3 on z13 at 1000 TPS gave 10,034 TPS outside 1,915..2,946.
    r = _size("cicsts-catalog", "v5.3", Z13, tps=1000.0)
    lo, hi = r.ranges["saturation_tps"]
    assert r.saturation_tps is not None and lo is not None and hi is not None
    assert lo <= r.saturation_tps <= hi
    clo, chi = r.ranges["cps"]
    assert clo is not None and chi is not None and clo <= (r.cps_required or 0) <= chi


def test_projection_band_widens_the_ranges() -> None:
    plain = _size("cicsts-catalog", "v5.3", Z10, tps=1000.0)
    wide = _size("cicsts-catalog", "v5.3", Z10, tps=1000.0, projection_band=0.1)
    assert wide.ranges["saturation_tps"][0] < plain.ranges["saturation_tps"][0]  # type: ignore[operator]
    assert wide.ranges["saturation_tps"][1] > plain.ranges["saturation_tps"][1]  # type: ignore[operator]
    assert wide.saturation_tps == plain.saturation_tps


def test_fiteq_software_station_binds_saturation_and_is_named() -> None:
    # On 10 CPs (the measured LPAR) the fitted software station, not the CPs, saturates first.
    r = _size("fiteq-authenticator", "single-region-log", "2827", tps=1000.0, cps=10)
    assert r.saturation_binding is not None and r.saturation_binding["resource"] == "software"
    one = _size("fiteq-authenticator", "single-region-log", "2827", tps=1000.0, cps=1)
    assert one.saturation_binding is not None and one.saturation_binding["resource"] == "cps"
    assert r.binding_resource is not None and r.binding_resource["resource"] in {"cps", "software"}


def test_fiteq_software_bound_saturation_says_it_is_the_measured_configuration_unscaled() -> None:
    # Issue 10 item 5: REDP-5114 section 11.3 puts the multi-region wait on a free HSM channel
    # and says more channels or HSMs "might have" helped, but publishes neither count (Figure
    # 3-1 is a sample of six channels and two HSMs), so the fitted station is not scaled and the
    # answer says so whenever it binds; more CPs leave it where it is.
    zec12 = "2827"  # the measured machine (machines.yaml)
    ten = _size("fiteq-authenticator", "multi-region", zec12, tps=5000.0, cps=10)
    forty = _size("fiteq-authenticator", "multi-region", zec12, tps=5000.0, cps=40)
    assert ten.saturation_binding is not None and ten.saturation_binding["resource"] == "software"
    assert forty.saturation_tps == ten.saturation_tps
    (note,) = [w for w in forty.warnings if w.code == "software-unscaled"]
    assert "fiteq-authenticator/multi-region" in note.message and "more CPs do not raise it" in note.message
    # Where the CPs bind, there is nothing to say about the software station.
    one = _size("fiteq-authenticator", "multi-region", zec12, tps=1000.0, cps=1)
    assert one.saturation_binding is not None and one.saturation_binding["resource"] == "cps"
    assert not [w for w in one.warnings if w.code == "software-unscaled"]


def test_zosconnect_share_applies_to_the_server_not_to_cics() -> None:
    # Issue 10 item 3: the 99 % was published for the z/OS Connect server ("over 99% of the
    # product", section 11).  The CICS part is taken from the CICS TS V5.3 paper on the same
    # machine type (z13): its fitted 'cics' slope, LSPR-projected from 18 to 6 CPs.
    cicsts = P.configuration("cicsts-catalog", "v5.3")
    other = component_cost(cicsts, fit_configuration(cicsts), "cics")
    assert other is not None and other.machine_type == Z13 and other.cps == 18
    whole = _size("zosconnect-cics", "channel", Z13, tps=800.0)
    scoped = _size("zosconnect-cics", "channel", Z13, tps=800.0, other_cost=other)
    share = scoped.basis["server_share"]
    k = projection_factor(table(), Z13, 18, Z13, 6).factor
    cost = scoped.basis["native"]["slope_s"]
    assert share["value"] == pytest.approx(1.0 - other.cost_s * k / cost, rel=1e-12)
    assert share["low"] <= share["value"] <= share["high"] < 1.0
    assert scoped.basis["eligible_share"]["value"] == pytest.approx(0.99 * share["value"], rel=1e-12)
    assert scoped.busy_cps["gcp"] > whole.busy_cps["gcp"]  # CICS work stays on CPs
    assert "REDP-5320" in next(w.message for w in scoped.warnings if w.code == "eligibility-scope")
    # The user's override wins, and its range is the value itself.
    given = _size("zosconnect-cics", "channel", Z13, tps=800.0, other_cost=other, server_share=0.5)
    assert given.basis["eligible_share"]["value"] == pytest.approx(0.495, rel=1e-12)
    # CICS TG's share was published for CICS + the Gateway daemon: no CICS cost is taken off.
    ctg = _size("cicstg", "ipic-commarea-64", Z13, tps=800.0, other_cost=other)
    assert ctg.basis["server_share"] is None


def test_cics_ts_answers_the_lpar_with_a_stated_overhead() -> None:
    # Issue 22 item 1: REDP-5320 states the rest of the LPAR beside the CICS CPU (statement
    # lpar-overhead-top-rate: 1746 / 1499.4 - 1 = 0.16447); a given lpar_overhead overrides it.
    regions = _size("cicsts-catalog", "v5.3", Z13, tps=100_000.0, lpar_overhead=0.0)
    published = _size("cicsts-catalog", "v5.3", Z13, tps=100_000.0)
    assert "cics-only" not in published.warning_codes()
    k = 1746.0 / 1499.4  # 97 % x 18 CPs over Figure 10's APPL% CP
    assert published.basis["native"]["busy_cps"] == pytest.approx(k * regions.basis["native"]["busy_cps"], rel=1e-12)
    lpar = _size("cicsts-catalog", "v5.3", Z13, tps=100_000.0, lpar_overhead=0.25)
    assert "cics-only" not in lpar.warning_codes()
    assert lpar.basis["native"]["busy_cps"] == pytest.approx(1.25 * regions.basis["native"]["busy_cps"], rel=1e-12)
    assert lpar.breakdown["lpar"] == pytest.approx(lpar.busy_cps["total"], rel=1e-12)
    # On the same CPs, the CICS regions are unchanged and the LPAR is 1.25 times them.
    a = _size("cicsts-catalog", "v5.3", Z13, tps=100_000.0, cps=20)
    b = _size("cicsts-catalog", "v5.3", Z13, tps=100_000.0, cps=20, lpar_overhead=0.25)
    assert b.breakdown["cics"] == pytest.approx(a.breakdown["cics"], rel=1e-12)
    assert b.breakdown["lpar"] == pytest.approx(1.25 * a.breakdown["cics"], rel=1e-12)
    assert (lpar.cps_required or 0) >= (regions.cps_required or 0)
    with pytest.raises(ValueError, match="lpar_overhead"):
        _size("cicsts-catalog", "v5.3", Z13, tps=1000.0, lpar_overhead=-0.1)


def test_published_limit_warns_with_its_source() -> None:
    # benchmarks/cicsts_v53_redp5320.yaml `perfmon-max-etr` (kind limit): REDP-5320 Figure 13,
    # "With performance class monitoring active, the highest ETR achieved is reduced from 174 K
    # to about 135 K TPS ... the QR TCB becoming a constraint".
    cfg = P.configuration("cicsts-catalog", "v5.3")
    (limit,) = cfg.limits
    assert limit.value == 135_000.0 and "performance class monitoring" in limit.condition
    below = size(cfg, target_machine="z13", target_machine_type=Z13, capacity=table(), tps=130_000.0)
    above = size(cfg, target_machine="z13", target_machine_type=Z13, capacity=table(), tps=140_000.0)
    assert "published-limit" not in below.warning_codes()
    message = next(w.message for w in above.warnings if w.code == "published-limit")
    # the limit as printed ("135,000 TPS per LPAR"), not "135000 TPS per lpar"
    assert "140,000 TPS passes the published limit of 135,000 TPS per LPAR" in message
    assert "REDP-5320" in message and "monitoring" in message
    # A synthetic per-region limit checks the arithmetic: ceil(120,000 / 50,000) = 3 regions.
    per_region = PublishedLimit("tps", 50_000.0, "region", None, statement_id=1, reference="a source")
    r = size(
        replace(cfg, limits=(per_region,)),
        target_machine="z13",
        target_machine_type=Z13,
        capacity=table(),
        tps=120_000.0,
    )
    assert "at least 3 of them" in next(w.message for w in r.warnings if w.code == "published-limit")


# ---------------------------------------------------------------------------------------
# Properties over paths, machines and a grid of TPS and CPs
# ---------------------------------------------------------------------------------------

CONFIGS = [
    ("fiteq-authenticator", "multi-region"),
    ("fiteq-authenticator", "single-region-log"),
    ("cicsts-catalog", "v5.3"),
    ("zosconnect-cics", "channel"),
    ("cicstg", "ipic-commarea-64"),
    ("cicstg", "exci-commarea-31"),
]
MACHINES = [Z10, "2827", Z13, Z17]


@settings(max_examples=40, deadline=None)
@given(
    cfg=st.sampled_from(CONFIGS),
    machine=st.sampled_from(MACHINES),
    tps=st.floats(min_value=50.0, max_value=6000.0),
)
def test_every_answer_obeys_the_rules_and_sums(cfg: tuple[str, str], machine: str, tps: float) -> None:
    r = _size(*cfg, machine, tps=tps)
    if not r.feasibility.feasible:
        # Beyond what the target carries (FiTeq *-log: its software station): said, no headline.
        assert (r.cps, r.ziips, r.cps_required, r.ziips_required) == (None, None, None, None)
        assert r.feasibility.reason in ("engines", "software-limit") and r.feasibility.max_tps is not None
        assert r.feasibility.max_tps <= tps
        return
    assert r.cps is not None and r.cps >= 1
    policy = engine_policy(table(), machine)
    assert r.specialty_engine == policy.name
    cap = policy.max_engines(r.cps)
    assert r.ziips is not None and (cap is None or r.ziips <= cap)
    assert r.ziips_required is not None and r.ziips_required <= (cap if cap is not None else r.ziips_required)
    b = r.busy_cps
    assert b["gcp"] is not None and b["ziip"] is not None and b["total"] is not None
    assert b["gcp"] + b["ziip"] == pytest.approx(b["total"], rel=1e-12)
    # CPs never fall as TPS rises.
    more = _size(*cfg, machine, tps=tps * 1.5)
    if r.cps_required is not None and more.cps_required is not None:
        assert more.cps_required >= r.cps_required


@settings(max_examples=40, deadline=None)
@given(
    cfg=st.sampled_from(CONFIGS[:3]),
    machine=st.sampled_from(MACHINES),
    tps=st.floats(min_value=10.0, max_value=200_000.0),
)
def test_breakdown_parts_sum_to_their_whole_at_every_tps(cfg: tuple[str, str], machine: str, tps: float) -> None:
    # Issue 10 item 9 (CICS TS at 1,000 TPS had AOR above the total and TOR 0): REDP-5320's
    # "CICS" is TOR + AOR + FOR; the LPAR (FiTeq) contains the CICS regions.
    b = _size(*cfg, machine, tps=tps).breakdown
    if "cics" in b and "tor" in b:
        assert b["tor"] + b["aor"] + b["for"] == pytest.approx(b["cics"], rel=1e-9, abs=1e-12)
        assert all(b[k] > 0.0 for k in ("tor", "aor", "for"))
    if "lpar" in b and "cics" in b:
        assert b["cics"] <= b["lpar"] * (1 + 1e-12)


def test_cicsts_breakdown_at_1000_tps_has_every_region_and_sums() -> None:
    b = _size("cicsts-catalog", "v5.3", Z13, tps=1000.0).breakdown
    assert 0.0 < b["aor"] < b["cics"] and b["tor"] > 0.0
    assert b["tor"] + b["aor"] + b["for"] == pytest.approx(b["cics"], rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    cfg=st.sampled_from(CONFIGS),
    machine=st.sampled_from(MACHINES),
    tps=st.floats(min_value=50.0, max_value=6000.0),
    cps=st.integers(min_value=1, max_value=39),
)
def test_saturation_never_falls_as_cps_rise(cfg: tuple[str, str], machine: str, tps: float, cps: int) -> None:
    a = _size(*cfg, machine, tps=tps, cps=cps, ziips=0)
    b = _size(*cfg, machine, tps=tps, cps=cps + 1, ziips=0)
    assert a.saturation_tps is not None and b.saturation_tps is not None
    assert b.saturation_tps >= a.saturation_tps * (1.0 - 1e-12)


def test_saturation_of_a_software_station_does_not_depend_on_cps() -> None:
    # A station of 9,000 TPS binds above the CPs' rate and stays put as CPs are added.
    s = [
        saturation(
            cps=n,
            engines=0,
            fraction=0.0,
            cp_factor=1.0,
            special_factor=1.0,
            intercept=0.0,
            slope=1e-3,
            software_tps=9000.0,
        )
        for n in (4, 8, 40)
    ]
    assert [x.tps for x in s] == [4000.0, 8000.0, 9000.0]
    assert [x.binding for x in s] == ["cps", "cps", "software"]
    assert math.isfinite(s[-1].tps)
