"""The MP effect of the whole configuration (issue 32 item 6): CPs and specialty engines rated at
the configuration's total engine count, the fixed point solved per CP count in the prepared
workload, and the rule for sub-capacity and midrange targets.

Every expected figure is recomputed here from the LSPR rows of the zPCR export
(benchmarks/lspr_zpcr_configuration_summary.csv, read through ``tests.models_lib.published``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from models_lib.capacity import full_speed_per_engine, per_engine_mips_at, setting_speed
from models_lib.inputs import CapacityTable
from models_lib.prepared import prepare
from models_lib.sizing import SizingResult, size
from models_lib.ziip import ziips_required
from tests.models_lib import published as P
from tests.models_lib.engine_data import table as rules_table

ZOSCONNECT = ("zosconnect-cics", "channel")
TABLE = rules_table()
TYPES = sorted({mt for mt, _ in TABLE.ratings})


@pytest.fixture(scope="module")
def table() -> CapacityTable:
    return TABLE


def _mips(machine_type: str, cps: int, setting: str = "700") -> float:
    rows = P.lspr_rows(machine_type, (cps,), setting)
    assert len(rows) == 1, (machine_type, cps, setting)
    return float(rows[0]["mips"])


def _size(machine: str, machine_type: str, **kw: Any) -> SizingResult:
    cfg = P.configuration(*ZOSCONNECT)
    kw.setdefault("payload_bytes", 32768)
    return size(cfg, target_machine=machine, target_machine_type=machine_type, capacity=TABLE, **kw)


def _settings(machine_type: str) -> list[str | None]:
    found = sorted({s for mt, s, _ in TABLE.settings if mt == machine_type})
    return [None, *found]


@settings(max_examples=200, deadline=None)
@given(
    mt=st.sampled_from(TYPES),
    n=st.integers(min_value=1, max_value=200),
    step=st.integers(min_value=1, max_value=40),
    pick=st.integers(min_value=0, max_value=40),
)
def test_per_engine_capacity_never_rises_with_more_engines(mt: str, n: int, step: int, pick: int) -> None:
    options = _settings(mt)
    setting = options[pick % len(options)]
    a = per_engine_mips_at(TABLE, mt, n, setting=setting)
    b = per_engine_mips_at(TABLE, mt, n + step, setting=setting)
    assert b <= a * (1.0 + 1e-12), (mt, setting, n, step, a, b)
    if setting is not None:
        rated = max(c for t, s, c in TABLE.settings if t == mt and s == setting)
        cps = 1 + pick % rated
        a = per_engine_mips_at(TABLE, mt, max(n, cps), setting=setting, cps=cps)
        b = per_engine_mips_at(TABLE, mt, max(n, cps) + step, setting=setting, cps=cps)
        assert b <= a * (1.0 + 1e-12)


def test_full_speed_per_engine_is_the_lspr_rating_of_the_total() -> None:
    # 2964-742 (14 CPs + 28 zIIPs): MIPS(42) / 42.
    assert_allclose(full_speed_per_engine(TABLE, "2964", 42), _mips("2964", 42) / 42)
    assert_allclose(per_engine_mips_at(TABLE, "2964", 42), _mips("2964", 42) / 42)


def test_sub_capacity_cps_are_the_full_speed_total_scaled_by_the_setting() -> None:
    # 3931-505 with 10 zIIPs: a CP = MIPS_700(15)/15 x MIPS_500(5)/MIPS_700(5); a zIIP = MIPS_700(15)/15.
    cp = per_engine_mips_at(TABLE, "3931", 15, setting="500", cps=5)
    assert_allclose(cp, _mips("3931", 15) / 15 * _mips("3931", 5, "500") / _mips("3931", 5))
    assert_allclose(setting_speed(TABLE, "3931", "500", 5), _mips("3931", 5, "500") / _mips("3931", 5))
    # Without specialty engines the rule gives the setting's own rating back.
    assert_allclose(per_engine_mips_at(TABLE, "3931", 5, setting="500", cps=5), _mips("3931", 5, "500") / 5)


def test_midrange_beyond_its_table_takes_the_generations_full_speed_mp_ratio() -> None:
    # 9176 rates 1..6 CPs (Z06 the fastest); 18 engines: Z06/6 x (9175-718/18) / (9175-706/6).
    z06 = _mips("9176", 6, "Z00") / 6
    ratio = (_mips("9175", 18) / 18) / (_mips("9175", 6) / 6)
    assert_allclose(full_speed_per_engine(TABLE, "9176", 18), z06 * ratio)
    # D05 CPs with 10 zIIPs: the same full-speed figure at 15 engines times D05's speed at 5 CPs.
    d = per_engine_mips_at(TABLE, "9176", 15, setting="D00", cps=5)
    at15 = z06 * (_mips("9175", 15) / 15) / (_mips("9175", 6) / 6)
    assert_allclose(d, at15 * _mips("9176", 5, "D00") / _mips("9176", 5, "Z00"))


def test_issue_example_14_cps_and_28_ziips_on_z13_are_rated_at_42_engines() -> None:
    # Issue 32 item 6: 14 CPs + 28 zIIPs on a z13 were rated at 14 engines (2964-714).
    r = _size("z13", "2964", tps=5000.0, cps=14, ziips=28)
    cfg = P.configuration(*ZOSCONNECT)
    assert cfg.lpar_cps is not None
    src = _mips(cfg.machine_type, 6) / 6  # the z/OS Connect LPAR: 6 GCPs, no zIIPs (section 7.1)
    at42, at14 = _mips("2964", 42) / 42, _mips("2964", 14) / 14
    assert r.basis.projection is not None and r.capacity_detail is not None
    assert_allclose(r.basis.projection.factor, src / at42)
    assert_allclose(r.basis.projection.specialty_factor, src / at42)
    b = r.capacity_detail.basis
    assert (b.mp_engines, r.cps, r.ziips) == (42, 14, 28)
    assert_allclose((b.mips_per_engine_at_cps, b.mips_per_engine_at_total, b.mp_factor), (at14, at42, at42 / at14))
    assert at42 / at14 < 0.85  # the issue's "up to 23 %" overstatement, now applied


@pytest.mark.parametrize(("machine", "mt"), [("zec12", "2827"), ("z13", "2964"), ("z16", "3931"), ("z17", "9175")])
@pytest.mark.parametrize("tps", [800.0, 3000.0, 9000.0])
def test_sized_specialty_engines_are_the_fixed_point(machine: str, mt: str, tps: float) -> None:
    cfg = P.configuration(*ZOSCONNECT)
    pw = prepare(cfg, target_machine=machine, target_machine_type=mt, capacity=TABLE, payload_bytes=32768)
    native = pw.native_busy(tps)
    for cps in pw.counts[:12]:
        split = pw.evaluate(tps, cps)
        z = split.engines
        cap = pw.policy.max_engines(cps)
        needed = ziips_required(native * pw.eligible_share * pw.special_factor(cps, z), pw.ziip_max_utilization)
        # The count sized is the one its own rating needs (or the rules' cap), and one fewer would not do.
        assert z == (needed if cap is None else min(needed, cap))
        if 0 < z and (cap is None or z < cap):
            fewer = ziips_required(native * pw.eligible_share * pw.special_factor(cps, z - 1), pw.ziip_max_utilization)
            assert fewer > z - 1
        # The array evaluation, the CPs' factor and the saturation are of the same configuration.
        loads = pw.evaluate(np.array([tps]), cps)
        assert_allclose((loads.gcp[0], loads.special[0], loads.engines[0]), (split.gcp, split.special, z))
        assert_allclose(split.gcp, native * (1 - pw.eligible_share) * pw.cp_factor(cps, z) + split.on_gcp)


def test_answer_is_rated_at_its_own_total_and_saturation_uses_it() -> None:
    r = _size("z16", "3931", tps=3000.0)
    assert r.cps is not None and r.ziips is not None and r.capacity_detail is not None and r.prepared is not None
    pw = r.prepared
    assert r.capacity_detail.basis.mp_engines == r.cps + r.ziips
    assert_allclose(r.basis.projection.factor if r.basis.projection else math.nan, pw.cp_factor(r.cps, r.ziips))
    sat = pw.saturation(r.cps, r.ziips)
    line = pw.line
    # CP-bound saturation of the configuration, in native busy engines at the total's factors.
    cpcap = r.cps / pw.cp_factor(r.cps, r.ziips)
    helped = cpcap + r.ziips / pw.special_factor(r.cps, r.ziips)
    alone = cpcap / (1 - pw.eligible_share)
    assert_allclose(sat.tps, (min(alone, helped) - line.intercept) / line.slope)
