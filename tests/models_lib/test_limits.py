"""Machine-type configuration limits (most engines, CPs per setting, engines per CP) and SMT-2
on zIIPs, from benchmarks/engine_rules.yaml and the zPCR table."""

from __future__ import annotations

import csv

import pytest
from numpy.testing import assert_allclose

from models_lib.limits import engine_limits, smt2_ziip_capacity
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z10, Z13, rules, table


def _largest_full_speed_cps() -> dict[str, int]:
    """Machine type -> CPs of its largest 7xx model, read from the CSV the product loads."""
    out: dict[str, int] = {}
    with (P.BENCHMARKS / "lspr_zpcr_configuration_summary.csv").open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            if row["capacity_setting"] == "700":
                out[row["machine_type"]] = max(out.get(row["machine_type"], 0), int(row["cps"]))
    return out


def test_max_engines_of_every_full_speed_type_is_the_largest_7xx_model_of_the_zpcr_table() -> None:
    largest = _largest_full_speed_cps()
    # 2097-764, 2827-7A1, 2964-7E1, 3906-7H0, 8561-7J0, 3931-7K0, 9175-7K8 (zPCR export).
    assert largest == {"2097": 64, "2827": 101, "2964": 141, "3906": 170, "8561": 190, "3931": 200, "9175": 208}
    stated = {t: r.max_engines_for(t) for t, r in rules().items()}
    assert {t: n for t, n in stated.items() if n is not None} == largest
    # Midrange types and the unrated z10 BC / zBC12 state none.
    assert sorted(t for t, n in stated.items() if n is None) == ["2098", "2828", "2965", "3907", "3932", "8562", "9176"]


def test_cicstg_exci_answer_of_41_cps_and_39_zaaps_does_not_fit_a_z10() -> None:
    # Issue 22 example 3: 41 CPs + 39 zAAPs = 80 engines on a 2097, whose largest model has 64.
    check = engine_limits(table(), Z10).check(41, 39)
    assert not check.fits and check.reason == "engines"
    assert "80 engines" in check.message and "64" in check.message


def test_zosconnect_answer_of_141_cps_and_282_ziips_does_not_fit_a_z13() -> None:
    # Issue 22 example 3: 141 + 282 = 423 engines on a 2964 (largest model 2964-7E1, 141).
    check = engine_limits(table(), Z13).check(141, 282)
    assert not check.fits and check.reason == "engines"


def test_most_specialty_engines_beside_cps_is_the_ratio_then_the_engines_left() -> None:
    lim = engine_limits(table(), Z13)
    assert lim.max_specialty(40) == 80  # 2 per CP (z13), 120 engines within 141
    assert lim.max_specialty(100) == 41  # 141 - 100 engines left, below 2 x 100
    # z10 EC: 1 zAAP per CP and 64 engines: 32 CPs + 32 zAAPs fit, 31 + 32 passes the ratio,
    # 33 + 32 the engines.
    z10 = engine_limits(table(), Z10)
    assert z10.check(32, 32).fits
    assert z10.check(31, 32).reason == "ratio" and z10.check(33, 32).reason == "engines"


def test_sub_capacity_setting_limits_the_cps_as_the_table_shows() -> None:
    # zPCR table: z16 A01 (3931) sub-capacity models 401..439, full speed up to 7K0 (200 CPs).
    lim = engine_limits(table(), "3931", "400")
    assert (lim.max_cps, lim.max_cps_full_speed, lim.max_engines) == (39, 200, 200)
    check = lim.check(40, 0)
    assert not check.fits and check.reason == "cps"
    with pytest.raises(ValueError, match="capacity_setting"):
        engine_limits(table(), "3931", "A00")


def test_midrange_bound_is_six_cps_and_two_ziips_per_cp() -> None:
    # 3932 (z16 A02): largest model 3932-Z06 in the table; no max_engines stated: 6 + 2 x 6 = 18.
    lim = engine_limits(table(), "3932")
    assert (lim.max_cps, lim.max_engines, lim.engine_bound()) == (6, None, 18)
    assert lim.check(6, 12).fits
    check = lim.check(6, 13)
    assert not check.fits and check.reason in ("engines", "ratio")


def test_zec12_ratio_is_unconfirmed_with_the_1_to_1_alternative() -> None:
    # Issue 32 item 5: GA2's 2:1 in force (unconfirmed), GA1's 1:1 the recorded alternative.
    r = rules()["2827"]
    assert r.ziips_per_cp == 2.0 and r.zaaps_per_cp == 2.0 and "ziips_per_cp" in r.unconfirmed
    assert r.alternative("ziips_per_cp") == (True, 1.0)
    assert r.alternative("min_cps_per_lpar") == (False, None)


def test_smt2_is_off_by_default_and_said_so() -> None:
    off = smt2_ziip_capacity(ziips=4, smt2_factor=None, smt2_available=True)
    assert (off.applied, off.capacity) == (False, 4.0) and "not applied" in off.statement
    on = smt2_ziip_capacity(ziips=4, smt2_factor=1.25, smt2_available=True)
    assert_allclose(on.capacity, 4 * 1.25, rtol=1e-15)  # capacity = cores x user-given factor
    assert on.applied and "1.25" in on.statement
    none = smt2_ziip_capacity(ziips=2, smt2_factor=None, smt2_available=False)
    assert "not available" in none.statement


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"ziips": -1, "smt2_factor": None, "smt2_available": True}, "ziips"),
        ({"ziips": 1, "smt2_factor": 2.5, "smt2_available": True}, "smt2_factor"),
        ({"ziips": 1, "smt2_factor": 0.9, "smt2_available": True}, "smt2_factor"),
        ({"ziips": 1, "smt2_factor": 1.2, "smt2_available": False}, "smt2_factor"),
    ],
)
def test_smt2_bad_input_raises_naming_the_argument(kwargs: dict[str, object], name: str) -> None:
    with pytest.raises(ValueError, match=name):
        smt2_ziip_capacity(**kwargs)  # type: ignore[arg-type]


def test_check_rejects_bad_counts() -> None:
    lim = engine_limits(table(), Z13)
    with pytest.raises(ValueError, match="cps"):
        lim.check(0, 0)
    with pytest.raises(ValueError, match="specialty"):
        lim.check(1, -1)
