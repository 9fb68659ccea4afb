"""The sizing engine against the published tables, bounds and hand computations."""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any

import pytest
from numpy.testing import assert_allclose

from models_lib.answer import LEVEL_ORDER
from models_lib.costmodel import fit_configuration
from models_lib.inputs import CapacityTable, ConfigurationData
from models_lib.queueing import Station, mva
from models_lib.response import fit_response
from models_lib.sizing import (
    DEFAULT_MAX_UTILIZATION,
    THROUGHPUT_TABLE_TOLERANCE,
    WARNING_CODES,
    SizingResult,
    cost_from_throughput_rows,
    size,
)
from tests.models_lib import published as P
from tests.models_lib.engine_data import table as rules_table

ZEC12, Z13, Z10 = "2827", "2964", "2097"
TYPES = {"zec12": ZEC12, "z13": Z13, "z10": Z10}


@pytest.fixture(scope="module")
def table() -> CapacityTable:
    return P.capacity_table()


def _size(path: str, configuration: str, table: CapacityTable, machine: str | None = None, **kw: Any) -> SizingResult:
    cfg = P.configuration(path, configuration)
    machine = machine or cfg.machine
    return size(cfg, target_machine=machine, target_machine_type=TYPES[machine], capacity=table, **kw)


def _json(result: SizingResult) -> dict[str, Any]:
    out = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert isinstance(out, dict)
    return out


# ---------------------------------------------------------------------------------------
# Measured configurations
# ---------------------------------------------------------------------------------------


def test_fiteq_multi_region_native_busy_lpar_within_5_percent_of_table_11_1(table: CapacityTable) -> None:
    # Expected: REDP-5114 Table 11-1 "LPAR CPU%" (of 10 CPs) * 10 / 100 at each published ETR,
    # read from benchmarks/fiteq_redp5114.yaml: 4.59, 8.56, 16.66, 75.99 % -> 0.459, 0.856,
    # 1.666, 7.599 busy CPs.  Same machine and CP count: the LSPR factor is exactly 1.
    rows = [p for p in P.raw_points("fiteq_redp5114.yaml") if p.configuration == "multi-region"]
    assert len(rows) == 4
    for row in rows:
        lpar = row.metric("lpar_cpu")
        assert lpar is not None and lpar["engines"] == 10
        expected = lpar["value"] * 10 / 100.0
        r = _size("fiteq-authenticator", "multi-region", table, tps=float(row.data["etr"]), cps=10)
        assert r.basis["projection"]["factor"] == 1.0
        assert "projection" not in r.warning_codes()
        assert_allclose(r.busy_cps["total"], expected, rtol=0.05)  # type: ignore[arg-type]
        assert r.busy_cps["gcp"] == r.busy_cps["total"] and r.busy_cps["ziip"] == 0.0
        assert set(r.breakdown) == {"cics", "smsvsam", "lpar", "icf"}
        assert_allclose(r.breakdown["lpar"], r.busy_cps["total"], rtol=1e-12)  # type: ignore[arg-type]


def test_z13_projection_lowers_fiteq_multi_region_cpu_per_tran(table: CapacityTable) -> None:
    # zEC12 10-way 12179 MIPS (CSV row 2827-710) vs z13 10-way 13515 MIPS (row 2964-710):
    # a z13 CP is faster, so CPU per transaction falls by 12179/13515 = 0.9011.
    zec12 = _size("fiteq-authenticator", "multi-region", table, tps=5000.0, cps=10)
    z13 = _size("fiteq-authenticator", "multi-region", table, machine="z13", tps=5000.0, cps=10)
    assert z13.cpu_per_tran_ms["total"] < zec12.cpu_per_tran_ms["total"]  # type: ignore[operator]
    assert_allclose(
        z13.cpu_per_tran_ms["total"] / zec12.cpu_per_tran_ms["total"],  # type: ignore[operator]
        12179 / 13515,
        rtol=1e-12,
    )
    assert "projection" in z13.warning_codes()
    # same demand in MIPS on both (work is conserved): busy * MIPS(10)/10
    assert_allclose(z13.mips, zec12.mips, rtol=1e-12)  # type: ignore[arg-type]


def test_cps_required_is_the_smallest_count_within_the_ceiling(table: CapacityTable) -> None:
    # 7,000 TPS: the software station (1 server, about 8,830 TPS) runs under the ceiling, the CPs decide
    r = _size("fiteq-authenticator", "multi-region", table, tps=7000.0)
    assert r.binding_resource is not None and r.binding_resource.resource == "cps"
    assert r.cps == r.cps_required and r.cps is not None
    assert r.gcp_utilization is not None and r.gcp_utilization <= DEFAULT_MAX_UTILIZATION
    one_less = _size("fiteq-authenticator", "multi-region", table, tps=7000.0, cps=r.cps - 1)
    assert one_less.gcp_utilization is not None and one_less.gcp_utilization > DEFAULT_MAX_UTILIZATION
    assert "utilization-above-ceiling" in one_less.warning_codes()
    assert one_less.cps_required == r.cps
    # MIPS and MSU of the GCP demand at the chosen count (hand: busy * MIPS(n)/n)
    rating = table.ratings[(ZEC12, r.cps)]
    assert_allclose(r.mips, r.busy_cps["gcp"] * rating.mips / r.cps, rtol=1e-12)  # type: ignore[operator]
    assert_allclose(r.msu, r.busy_cps["gcp"] * rating.msu / r.cps, rtol=1e-12)  # type: ignore[operator]


def test_cicsts_sizes_the_lpar_from_the_cics_component_and_the_stated_overhead(table: CapacityTable) -> None:
    # REDP-5320 publishes the CICS address spaces' CPU at every point and, at its top rate, the
    # LPAR busy beside it: the estimate is the LPAR, CICS x (1 + the stated overhead).
    r = _size("cicsts-catalog", "v5.3", table, tps=174624.30, cps=18)
    # Table 1 row 5: Total CICS CPU% 1499.40 -> 14.994 busy CPs at 174624.30 TPS (1 % tolerance:
    # the line fits Table 1 to 0.4 %)
    assert_allclose(r.breakdown["cics"], 14.994, rtol=0.01)
    # "the LPAR was already running at 97%" of 18 CPs = 17.46 busy CPs (statement
    # lpar-overhead-top-rate: the central overhead is that figure over the CICS CPU; 1 %: the fit)
    assert_allclose(r.busy_cps["total"], 0.97 * 18, rtol=0.01)  # type: ignore[arg-type]
    assert r.basis["model"]["component"] == "cics"
    assert "cics-only" not in r.warning_codes()
    assert any("LPAR = cics CPU x 1.164" in a for a in r.basis["assumptions"])
    assert "no-response-time-data" in r.warning_codes()
    assert r.response_time_ms["value"] is None and r.response_time_ms["low"] is not None


def test_sla_raises_cps_when_cp_queueing_is_what_misses_it(table: CapacityTable) -> None:
    base = _size("fiteq-authenticator", "multi-region", table, tps=6000.0)
    value = base.response_time_ms["value"]
    assert value is not None and base.cps is not None
    # an objective just under the response at the ceiling-based count, above the fixed part
    sla = value - 0.05
    raised = _size("fiteq-authenticator", "multi-region", table, tps=6000.0, response_time_sla_ms=sla)
    assert raised.cps is not None and raised.cps > base.cps
    assert raised.response_time_ms["value"] is not None and raised.response_time_ms["value"] <= sla
    assert "sla-missed" not in raised.warning_codes()
    assert any("to meet the" in a for a in raised.basis["assumptions"])


def test_sla_that_no_cp_count_can_meet_does_not_fit_and_says_why(table: CapacityTable) -> None:
    # Single region with the Validation Log: the log-file station (not the CPs) sets the response
    # near 3000 TPS, R0 alone is ~6.8 ms; a 5 ms objective is unreachable with any CP count.  At
    # 2,500 TPS the station runs under the 85 % ceiling (at 3,000 it is above: a software limit).
    # Issue 10 item 7: say so (sla-unreachable), name the binding resource, evaluate on CPU alone
    # (the CP count without a goal), instead of raising CPs that do not help.  Issue 32 item 3: a
    # missed goal does not fit (one predicate), and no rate at all meets it (R0 alone is above).
    r = _size("fiteq-authenticator", "single-region-log", table, tps=2500.0, response_time_sla_ms=5.0)
    assert "sla-missed" in r.warning_codes()
    assert "sla-unreachable" in r.warning_codes()
    plain = _size("fiteq-authenticator", "single-region-log", table, tps=2500.0)
    assert r.feasibility.feasible is False and r.feasibility.reason == "response-goal"
    assert r.cps is None and r.cps_required is None and r.evaluated_cps == plain.cps_required
    message = next(w.message for w in r.warnings if w.code == "sla-unreachable")
    assert "CPs do not shorten" in message and f"{plain.cps_required} CPs" in message
    # The time that no CP count removes is named: not the CPs.
    assert "in the CPs" not in message
    # Every rated CP count is indeed above 5 ms (what "unreachable" claims).
    for n in range(1, 41):
        other = _size("fiteq-authenticator", "single-region-log", table, tps=2500.0, cps=n)
        rt = other.response_time_ms["value"]
        assert rt is None or rt > 5.0


def test_closed_network_obeys_the_response_time_law(table: CapacityTable) -> None:
    # Interactive response-time law: X = N / (R + Z) (Menasce et al. 2004).
    n, z = 10000, 2.0
    r = _size("fiteq-authenticator", "multi-region-log", table, tps=4000.0, clients=n, think_time_s=z)
    x, rt = r.closed_throughput_tps, r.response_time_ms["value"]
    assert x is not None and rt is not None
    assert_allclose(x, n / (rt / 1000.0 + z), rtol=1e-9)
    assert x <= n / z


# z/OS Connect EE V3.0 performance summary, sec. 7.1 (statement s7-1-tps-table): 100..500 clients
# at 0.5 s think time "maintained" 200..1000 TPS for 1K-128K responses on a z13 LPAR with 6 GCPs
# and no zIIPs.  The largest CPU per transaction with which the closed network (one 6-server CP
# queue of demand D, think time 0.5 s, no other station) reaches >= 99 % of every row
# (THROUGHPUT_TABLE_TOLERANCE = 1 %), and its throughput per row, computed independently of
# models_lib with Buzen's normalising constant G(n) = sum_j Z^(n-j)/(n-j)! * D^j / prod_{i<=j}
# min(i, 6), X(N) = G(N-1)/G(N), in exact rational arithmetic (fractions.Fraction), D bisected
# to 6e-13 s:
ZOSCONNECT_TABLE_COST_MS = 4.264931290294044
ZOSCONNECT_TABLE_TPS = {  # clients: X(N) at D = 4.264931290294044 ms
    100: 198.3083870682878,
    200: 396.61089753638197,
    300: 594.8555086399018,
    400: 792.8487677665644,
    500: 990.0000000000316,
}
# Same computation at D = 1.01 * 4.264931290294044 = 4.307580603196984 ms: 500 clients fall to
# 989.8131408875398 TPS, below 0.99 * 1000.  And at the published bound D = 6 ms (6 CPs 100 %
# busy at 1000 TPS): 197.6279, 395.2113, 592.3747, 787.1902, 961.0891011248744 TPS.
ZOSCONNECT_TPS_AT_1_PERCENT_MORE = 989.8131408875398
ZOSCONNECT_TPS_AT_THE_BOUND = 961.0891011248744


def test_zosconnect_closed_model_reproduces_the_published_throughput_rows(table: CapacityTable) -> None:
    # All five rows through size() with the paper's LPAR (6 CPs, no zIIPs) and think time: the
    # engine's closed network runs each within 2 % (by construction within 1 %) of the table,
    # and equals the independent product-form values above.
    cfg = P.configuration("zosconnect-cics", "channel")
    assert cfg.think_time_s == 0.5
    assert cfg.throughput_rows == ((100, 200.0), (200, 400.0), (300, 600.0), (400, 800.0), (500, 1000.0))
    for clients, tps in cfg.throughput_rows:
        r = _size("zosconnect-cics", "channel", table, tps=tps, cps=6, ziips=0, clients=clients, think_time_s=0.5)
        assert r.closed_throughput_tps is not None
        assert_allclose(r.closed_throughput_tps, tps, rtol=0.02)
        assert r.closed_throughput_tps <= tps  # a closed loop never exceeds N / Z
        # the exact MVA against exact rational arithmetic: agreement to ~1e-12 is the solver's
        # documented accuracy; 1e-9 leaves room for the bisection's last step
        assert_allclose(r.closed_throughput_tps, ZOSCONNECT_TABLE_TPS[clients], rtol=1e-9)
        assert not {"clients-limit-throughput", "beyond-saturation"} & set(r.warning_codes())
    # 500 clients: 1000 TPS x 4.2649 ms on 6 CPs = 71.1 % busy, not the 100 % of the bound
    assert_allclose(r.gcp_utilization, 1000.0 * ZOSCONNECT_TABLE_COST_MS / 1000.0 / 6.0, rtol=1e-9)  # type: ignore[arg-type]


def test_zosconnect_table_cost_is_the_largest_consistent_with_every_row() -> None:
    rows = P.configuration("zosconnect-cics", "channel").throughput_rows
    cost = cost_from_throughput_rows(rows, 0.5, 6, 0.006)
    assert THROUGHPUT_TABLE_TOLERANCE == 0.01
    # the exact-rational bisection above, to its 6e-13 s step
    assert_allclose(cost * 1000.0, ZOSCONNECT_TABLE_COST_MS, rtol=1e-9)
    network = [Station("cp", cost, servers=6)]
    curve = mva(network, 500, think_time=0.5).throughput_curve
    assert curve is not None
    assert all(curve[n - 1] >= 0.99 * tps for n, tps in rows)
    # 1 % more cost violates the 1 % tolerance on the 500-client row (989.81 < 990)
    more = mva([Station("cp", 1.01 * cost, servers=6)], 500, think_time=0.5)
    assert_allclose(more.throughput, ZOSCONNECT_TPS_AT_1_PERCENT_MORE, rtol=1e-9)
    assert any(more.throughput_curve[n - 1] < 0.99 * tps for n, tps in rows)  # type: ignore[index]
    # the published bound itself runs 3.9 % short at 500 clients
    assert_allclose(
        mva([Station("cp", 0.006, servers=6)], 500, think_time=0.5).throughput, ZOSCONNECT_TPS_AT_THE_BOUND, rtol=1e-9
    )


def test_cost_from_throughput_rows_limits() -> None:
    # Rows the bound already reproduces are no constraint: the bound is returned.  One client at
    # 1 s think time and 1 TPS: X = 1 / (1 + D) >= 0.99 for any D <= 1/99 s.
    assert cost_from_throughput_rows([(1, 1.0)], 1.0, 1, 0.005) == 0.005
    # Single client, one server: X = 1 / (Z + D) exactly, so D* = 1 / (0.99 x) - Z.
    assert_allclose(cost_from_throughput_rows([(1, 1.0)], 1.0, 1, 1.0), 1.0 / 0.99 - 1.0, rtol=1e-9)
    # A row above N / Z by more than the tolerance: no cost reproduces it.
    assert math.isnan(cost_from_throughput_rows([(10, 30.0)], 0.5, 2, 0.01))
    with pytest.raises(ValueError, match="rows must not be empty"):
        cost_from_throughput_rows([], 0.5, 6, 0.006)
    with pytest.raises(ValueError, match="clients must be an int >= 1"):
        cost_from_throughput_rows([(0, 1.0)], 0.5, 6, 0.006)
    with pytest.raises(ValueError, match="servers must be an int >= 1"):
        cost_from_throughput_rows([(1, 1.0)], 0.5, 0, 0.006)
    with pytest.raises(ValueError, match="tolerance must be in"):
        cost_from_throughput_rows([(1, 1.0)], 0.5, 1, 0.006, tolerance=1.0)


# ---------------------------------------------------------------------------------------
# Bounds-only and no-data paths
# ---------------------------------------------------------------------------------------


def test_zosconnect_central_value_is_the_bound_tightened_by_the_throughput_table(table: CapacityTable) -> None:
    # z/OS Connect EE V3.0 sec. 7.1: 1000 TPS sustained on 6 GCPs for 1K-128K responses:
    # CPU per transaction <= 6/1000 s = 6 ms (whole LPAR), no lower bound -> range 0..6 ms.
    # The sec. 7.1 table tightens the central value to 4.2649 ms (see above); the range stays
    # the published 0..6 ms.
    bound_id = P.stable_id("zosconnect-ee-v3-cics", "s7-1-bound-1000tps")
    for payload in (None, 1024, 65536, 131072):
        r = _size("zosconnect-cics", "channel", table, tps=1000.0, cps=6, ziips=0, payload_bytes=payload)
        assert_allclose(
            [r.cpu_per_tran_ms["total"], r.cpu_per_tran_ms["low"], r.cpu_per_tran_ms["high"]],  # type: ignore[list-item]
            [ZOSCONNECT_TABLE_COST_MS, 0.0, 6.0],
            rtol=1e-9,
        )
        assert {"bounds-only", "eligibility-scope"} <= set(r.warning_codes())
        assert bound_id in r.basis["statements"]
    message = next(w.message for w in r.warnings if w.code == "bounds-only")
    assert "tightened with the published throughput table" in message and "range 0-6 ms" in message
    assert any("taken as exact to within 1%" in a and "4.265 ms" in a for a in r.basis["assumptions"])
    # saturation of 6 CPs at the central cost: 6 / 4.2649 ms = 1406.8 TPS
    assert_allclose(r.saturation_tps, 6.0 / ZOSCONNECT_TABLE_COST_MS * 1000.0, rtol=1e-9)  # type: ignore[arg-type]
    # Without the table (as for CICS TG, which publishes none) the central value is the bound.
    bare = dataclasses.replace(P.configuration("zosconnect-cics", "channel"), throughput_rows=(), think_time_s=None)
    plain = size(bare, target_machine="z13", target_machine_type=Z13, capacity=table, tps=1000.0, cps=6, ziips=0)
    assert plain.cpu_per_tran_ms["total"] == 6.0
    # Outside the table's payloads the published bounds stand.  512 bytes: the 1K-128K bound,
    # held (payload-outside-range), not tightened.
    small = _size("zosconnect-cics", "channel", table, tps=500.0, cps=6, ziips=0, payload_bytes=512)
    assert small.cpu_per_tran_ms["total"] == 6.0 and "payload-outside-range" in small.warning_codes()
    # 256K (sec. 12): sustained 300 clients = 600 TPS, exhausted before 800 TPS on 6 GCPs:
    # 6/800 = 7.5 ms < CPU per transaction <= 6/600 = 10 ms.
    big = _size("zosconnect-cics", "channel", table, tps=500.0, cps=6, ziips=0, payload_bytes=262144)
    assert_allclose(
        [big.cpu_per_tran_ms["total"], big.cpu_per_tran_ms["low"], big.cpu_per_tran_ms["high"]],  # type: ignore[list-item]
        [10.0, 7.5, 10.0],
        rtol=1e-12,
    )
    # saturation at the upper-bound cost on 6 CPs: 6 / 10 ms = 600 TPS (the published limit)
    assert_allclose(big.saturation_tps, 600.0, rtol=1e-12)  # type: ignore[arg-type]
    ids = {
        P.stable_id("zosconnect-ee-v3-cics", k)
        for k in ("s12-bound-256k-300-clients", "s12-bound-256k-400-clients-exhausted")
    }
    assert ids <= set(big.basis["statements"])
    assert not any("throughput table" in a for a in big.basis["assumptions"])


def test_zosconnect_ziips_take_the_eligible_share(table: CapacityTable) -> None:
    # ">99% eligible" (sec. 11) -> 0.99 of the busy engines at 1000 TPS on zIIPs: 1000 TPS x
    # 4.2649 ms (the sec. 7.1 table's cost, above) = 4.2649 busy engines on the native 6 CPs.
    # The zIIPs sit beside the 6 CPs, so the configuration is rated at 6 + z engines (the MP
    # effect, issue 32 item 6): per engine MIPS(6)/6 on the measured LPAR (2964, 6 GCPs, no
    # zIIPs) against MIPS(6+z)/(6+z).  At the CP-only rating 5 zIIPs would do (4.22 / 0.85 =
    # 4.97); rated at 11 engines they carry 4.61 busy engines of work (5.42 at the ceiling), so
    # the fixed point is 6, and 6 zIIPs rated at 12 engines still need 6.
    r = _size("zosconnect-cics", "channel", table, tps=1000.0, cps=6)
    busy = 1000.0 * ZOSCONNECT_TABLE_COST_MS / 1000.0
    rows = {int(row["cps"]): float(row["mips"]) for row in P.lspr_rows("2964", (6, 11, 12))}

    def factor(z: int) -> float:
        return (rows[6] / 6) / (rows[6 + z] / (6 + z))

    assert math.ceil(0.99 * busy / DEFAULT_MAX_UTILIZATION) == 5
    assert math.ceil(0.99 * busy * factor(5) / DEFAULT_MAX_UTILIZATION) == 6
    assert math.ceil(0.99 * busy * factor(6) / DEFAULT_MAX_UTILIZATION) == 6
    assert r.ziips == r.ziips_required == 6
    assert_allclose(r.busy_cps["ziip"], 0.99 * busy * factor(6), rtol=1e-9)  # type: ignore[arg-type]
    assert_allclose(r.busy_cps["gcp"] + r.busy_cps["ziip"], r.busy_cps["total"], rtol=1e-12)  # type: ignore[operator]


def test_cicstg_bound_4_engines_over_1780_tps(table: CapacityTable) -> None:
    # CICS TG V9.0 Scenario 1: ~1780 TPS on 3 GCPs + 1 zAAP (z10): <= 4/1780 s = 2.247 ms;
    # eligible share of IPIC/channel 64-bit = 72.72 % (Table 2).
    r = _size("cicstg", "ipic-channel-64", table, tps=1780.0, cps=3, ziips=1)
    # Central cost (models_lib.bounds.bounded_cost): the geometric mean of the highest floor,
    # EXCI 64-bit's 0.85 / (0.4897 x 1780) (statements s1-floor-exci-commarea-64 and
    # s1-ipic-longer-path-64), and the largest cost that keeps 3 CPs + 1 zAAP at <= 100 % CP,
    # (3 + 0.85) / 1780.
    central = math.sqrt(0.85 / (0.4897 * 1780.0) * (3.0 + 0.85) / 1780.0)
    assert_allclose(r.cpu_per_tran_ms["total"], 1000.0 * central, rtol=1e-12)  # type: ignore[arg-type]
    assert_allclose(r.busy_cps["total"], central * 1780.0, rtol=1e-12)  # type: ignore[arg-type]
    eligible = central * 1780.0 * 0.7272
    # one zAAP at the 85 % ceiling carries 0.85 of it; the rest is IIPCP
    assert_allclose(r.busy_cps["ziip"], 0.85, rtol=1e-12)  # type: ignore[arg-type]
    assert_allclose(r.busy_cps["ziip_on_gcp"], eligible - 0.85, rtol=1e-12)  # type: ignore[arg-type]
    assert {"bounds-only", "ratio-only", "ziip-overflow"} <= set(r.warning_codes())
    ratio = next(w for w in r.warnings if w.code == "ratio-only")
    assert "1.04-1.19" in ratio.message and "1.027-1.09" in ratio.message


def test_cicstg_payload_doubling_doubles_the_cost(table: CapacityTable) -> None:
    # Scenario 5 (31-bit): "as the payload doubles in size ... the CPU cost per transaction
    # also doubles": 64K = 2 x the 32K central cost, sqrt(floor x sustainable ceiling) with the
    # EXCI 31-bit floor 0.85 / (0.4889 x 1780) and the ceiling (3 + 0.85) / 1780 (Scenario 1).
    r = _size("cicstg", "ipic-channel-31", table, tps=500.0, cps=3, ziips=1, payload_bytes=65536)
    central = math.sqrt(0.85 / (0.4889 * 1780.0) * (3.0 + 0.85) / 1780.0)
    assert_allclose(r.cpu_per_tran_ms["total"], 2 * 1000.0 * central, rtol=1e-12)  # type: ignore[arg-type]
    assert "payload-scaled" in r.warning_codes()


def test_hostbridge_has_no_cpu_data_but_a_response_floor(table: CapacityTable) -> None:
    # HostBridge white paper, tuned trace: last packet at 0.042000 s -> floor 42.0 ms.
    r = _size("hostbridge-http", "tuned-tcpip", table, tps=50.0, response_time_sla_ms=30.0)
    assert r.warning_codes() == ("no-cpu-data", "sla-missed")
    assert r.cps is None and r.busy_cps["total"] is None
    assert r.response_time_ms == {"value": None, "low": 42.0, "high": None}
    d = _json(r)
    assert d["cps_required"] is None and d["basis"]["projection"] is None
    bare = dataclasses.replace(P.configuration("hostbridge-http", "tuned-tcpip"), response_floor=None)
    with pytest.raises(ValueError, match="CPs cannot be sized"):
        size(bare, target_machine="z10", target_machine_type=Z10, capacity=table, tps=50.0)


# ---------------------------------------------------------------------------------------
# Output contract
# ---------------------------------------------------------------------------------------


def test_result_is_json_safe_and_carries_its_basis(table: CapacityTable) -> None:
    r = _size("fiteq-authenticator", "multi-region", table, machine="z13", tps=20000.0)
    d = _json(r)  # allow_nan=False: no NaN or inf anywhere
    for key in (
        "cpu_per_tran_ms",
        "busy_cps",
        "breakdown",
        "cps_required",
        "ziips_required",
        "gcp_utilization",
        "ziip_utilization",
        "mips",
        "msu",
        "response_time_ms",
        "saturation_tps",
        "warnings",
        "basis",
    ):
        assert key in d
    assert set(d["cpu_per_tran_ms"]) == {"total", "gcp", "ziip", "low", "high"}
    assert set(d["busy_cps"]) == {"total", "gcp", "ziip", "ziip_on_gcp"}
    assert set(d["response_time_ms"]) == {"value", "low", "high"}
    model = d["basis"]["model"]
    assert {"component", "slope_ms", "intercept_cps", "r2", "n", "etr_min", "etr_max"} <= set(model)
    assert set(d["basis"]["projection"]) >= {
        "from_machine_type",
        "from_cps",
        "to_machine_type",
        "to_cps",
        "factor",
        "source",
    }
    assert sorted(d["basis"]["points"]) == sorted(
        p.id for p in P.configuration("fiteq-authenticator", "multi-region").points
    )
    # 20000 TPS is beyond the HSM-channel station of the fitted model: unbounded response -> None
    assert "beyond-saturation" in r.warning_codes() and d["response_time_ms"]["value"] is None
    assert all(
        set(w) == {"code", "message", "level", "inputs"} and w["code"] in WARNING_CODES and w["level"] in LEVEL_ORDER
        for w in d["warnings"]
    )


def test_prefitted_models_give_identical_results(table: CapacityTable) -> None:
    cfg = P.configuration("fiteq-authenticator", "multi-region-log")
    model = fit_configuration(cfg)
    rmodel = fit_response(cfg, model)
    a = size(cfg, target_machine="z13", target_machine_type=Z13, capacity=table, tps=3000.0)
    b = size(
        cfg,
        target_machine="z13",
        target_machine_type=Z13,
        capacity=table,
        tps=3000.0,
        model=model,
        response_model=rmodel,
    )
    assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"tps": 0.0}, "tps must be finite and > 0"),
        ({"tps": float("inf")}, "tps must be finite"),
        ({"tps": 100.0, "cps": 0}, "cps must be an int >= 1"),
        ({"tps": 100.0, "cps": 257}, "cps must be in 1..256"),  # z/OS: at most 256 CPs
        ({"tps": 100.0, "ziips": -1}, "ziips must be an int >= 0"),
        ({"tps": 100.0, "max_utilization": 1.5}, "max_utilization must be in"),
        ({"tps": 100.0, "clients": 10}, "clients and think_time_s must be given together"),
        ({"tps": 100.0, "payload_bytes": 0}, "payload_bytes must be an int >= 1"),
        ({"tps": 100.0, "response_time_sla_ms": -1.0}, "response_time_sla_ms"),
        (
            {"tps": 100.0, "target_machine_type": "2098"},
            "target_machine_type .2098. is not in the LSPR table",
        ),  # z10 BC: not in the export
    ],
)
def test_size_rejects_bad_input_naming_the_argument(table: CapacityTable, kwargs: dict[str, Any], needle: str) -> None:
    cfg = P.configuration("fiteq-authenticator", "single-region")
    args: dict[str, Any] = {"target_machine": "zec12", "target_machine_type": ZEC12, "capacity": table}
    args.update(kwargs)
    with pytest.raises(ValueError, match=needle):
        size(cfg, **args)


def test_model_of_another_configuration_is_rejected(table: CapacityTable) -> None:
    other = fit_configuration(P.configuration("fiteq-authenticator", "multi-region"))
    with pytest.raises(ValueError, match="model belongs to"):
        size(
            P.configuration("fiteq-authenticator", "single-region"),
            target_machine="zec12",
            target_machine_type=ZEC12,
            capacity=table,
            tps=100.0,
            model=other,
        )


# ---------------------------------------------------------------------------------------
# Every warning code comes from some realistic input
# ---------------------------------------------------------------------------------------


def _two_point_calibration() -> ConfigurationData:
    # A customer's own calibration with only two measurements (Table 9-1 rows 1 and 4).
    cfg = P.configuration("fiteq-authenticator", "single-region")
    pts = sorted(cfg.points, key=lambda p: p.etr)
    return dataclasses.replace(cfg, points=(pts[0], pts[-1]))


WARNING_CASES: dict[str, tuple[str, str, str | None, dict[str, Any]]] = {
    # code: (path, configuration, target machine, size() keywords)
    "extrapolation": ("fiteq-authenticator", "multi-region", None, {"tps": 12000.0}),
    "projection": ("fiteq-authenticator", "multi-region", "z13", {"tps": 5000.0}),
    "payload-outside-range": ("fiteq-authenticator", "single-region", None, {"tps": 1000.0, "payload_bytes": 4096}),
    "payload-scaled": ("cicstg", "ipic-channel-31", None, {"tps": 1000.0, "payload_bytes": 131072}),
    "ratio-only": ("cicstg", "ipic-channel-64", None, {"tps": 1000.0}),
    "bounds-only": ("zosconnect-cics", "channel", None, {"tps": 800.0}),
    "interval-assumed": ("<two-point>", "", None, {"tps": 2000.0}),
    "no-response-time-data": ("cicsts-catalog", "v5.3", None, {"tps": 100000.0}),
    "no-eligibility-data": ("fiteq-authenticator", "single-region", None, {"tps": 1000.0}),
    "eligibility-scope": ("zosconnect-cics", "channel", "z13", {"tps": 800.0}),
    "sla-missed": ("fiteq-authenticator", "single-region-log", None, {"tps": 3000.0, "response_time_sla_ms": 5.0}),
    "utilization-above-ceiling": ("fiteq-authenticator", "multi-region", None, {"tps": 8000.0, "cps": 7}),
    "ziip-overflow": ("cicstg", "ipic-commarea-64", None, {"tps": 2000.0, "ziips": 1}),
    "capacity-exceeded": ("cicsts-catalog", "v5.3", "z10", {"tps": 600000.0}),
    "beyond-saturation": (
        "zosconnect-cics",
        "channel",
        None,
        {"tps": 700.0, "payload_bytes": 262144, "cps": 6, "ziips": 0},
    ),
    "clients-limit-throughput": (
        "zosconnect-cics",
        "channel",
        None,
        {"tps": 1000.0, "clients": 100, "think_time_s": 0.5},
    ),
    # 300 clients at 0.5 s think time are the paper's 600 TPS row (z/OS Connect sec. 7.1)
    "clients-exceed-throughput": (
        "zosconnect-cics",
        "channel",
        None,
        {"tps": 400.0, "clients": 300, "think_time_s": 0.5},
    ),
    "no-cpu-data": ("hostbridge-http", "default-tcpip", None, {"tps": 20.0}),
    # Issue 10's example: 2,000 TPS of 32K z/OS Connect on a z13 (2 zIIPs per CP, engine_data.py).
    # With fewest-cps: least-msu (the default) sizes the CPs that allow enough zIIPs instead.
    "engine-ratio": (
        "zosconnect-cics",
        "channel",
        "z13",
        {"tps": 2000.0, "payload_bytes": 32768, "objective": "fewest-cps"},
    ),
    # Issue 22 item 3: REDP-5114 multi-region's fitted software station saturates at about 8,830 TPS.
    "does-not-fit": ("fiteq-authenticator", "multi-region", "z13", {"tps": 10000.0}),
    "sla-unreachable": ("fiteq-authenticator", "single-region-log", None, {"tps": 3000.0, "response_time_sla_ms": 5.0}),
    # REDP-5320, Figure 13: with performance class monitoring the QR TCB limits v5.3 at ~135 K TPS.
    "published-limit": ("cicsts-catalog", "v5.3", None, {"tps": 140000.0}),
    # A source of CICS CPU only with no LPAR figure: REDP-5320 without its LPAR statement.
    "cics-only": ("<cics-without-lpar>", "v5.3", "z13", {"tps": 1000.0}),
    # REDP-5114 multi-region on its measured 10 CPs: the fitted HSM-channel station binds first.
    "software-unscaled": ("fiteq-authenticator", "multi-region", None, {"tps": 5000.0, "cps": 10}),
    # REDP-5114 Table 11-1: 4 response times, D + a software station fitted: 2 degrees of freedom.
    "response-fit-weak": ("fiteq-authenticator", "multi-region", None, {"tps": 499.34, "cps": 10}),
    # REDP-5320's line at 1 TPS: its 17 regions' fixed base is the demand (issue 32 item 7).
    "fixed-base-dominates": ("cicsts-catalog", "v5.3", "z13", {"tps": 1.0}),
}


def test_every_warning_code_has_a_case() -> None:
    assert set(WARNING_CASES) == set(WARNING_CODES)


@pytest.mark.parametrize("code", sorted(WARNING_CASES))
def test_each_warning_code_is_produced_by_a_realistic_input(table: CapacityTable, code: str) -> None:
    path, configuration, machine, kwargs = WARNING_CASES[code]
    if path == "<two-point>":
        cfg = _two_point_calibration()
    elif path == "<cics-without-lpar>":
        cfg = dataclasses.replace(P.configuration("cicsts-catalog", configuration), lpar_overhead=None)
    else:
        cfg = P.configuration(path, configuration)
    machine = machine or cfg.machine
    r = size(cfg, target_machine=machine, target_machine_type=TYPES[machine], capacity=rules_table(), **kwargs)
    assert code in r.warning_codes(), r.warning_codes()
    message = next(w.message for w in r.warnings if w.code == code)
    print(f"\n[{code}] {message}")
    _json(r)
