"""Which model fits: every row is the engine's own estimate of that machine type and setting; the
cheapest in installed MSU is marked; sub-capacity settings need more, slower CPs."""

from __future__ import annotations

import pytest

from models_lib.costmodel import fit_configuration
from models_lib.fit import FitResult, fitting_models
from models_lib.response import fit_response
from models_lib.sizing import size
from tests.models_lib import engine_data as E
from tests.models_lib import published as P

Z16 = ("3931", "3932")


@pytest.fixture(scope="module")
def fiteq() -> tuple[object, object, object]:
    cfg = P.configuration("fiteq-authenticator", "multi-region")  # REDP-5114 Tables 11-1, 11-2
    model = fit_configuration(cfg)
    return cfg, model, fit_response(cfg, model)


@pytest.fixture(scope="module")
def z16_7000(fiteq: tuple[object, object, object]) -> FitResult:
    # 7,000 TPS: within the fitted software station's ceiling (0.85 x 8,830 TPS), so the CPs decide
    cfg, model, rmodel = fiteq
    software = rmodel.software  # type: ignore[attr-defined]
    assert 7000 <= 0.85 * software.saturation_tps()
    return fitting_models(cfg, capacity=E.table(), machine_types=Z16, tps=7000, model=model, response_model=rmodel)  # type: ignore[arg-type]


def test_every_row_is_the_estimate_of_its_setting(fiteq: tuple[object, object, object], z16_7000: FitResult) -> None:
    cfg, model, rmodel = fiteq
    table = E.table()
    # One row per setting of the CSV: 3931 has 400..700, 3932 A00..Z00 (full speed first).
    assert [r.capacity_setting for r in z16_7000.rows[:4]] == ["700", "400", "500", "600"]
    assert len(z16_7000.rows) == 4 + 26
    for row in z16_7000.rows:
        full = table.full_speed_setting[row.machine_type]
        est = size(
            cfg,  # type: ignore[arg-type]
            target_machine=row.machine_type,
            target_machine_type=row.machine_type,
            capacity=table,
            tps=7000,
            model=model,  # type: ignore[arg-type]
            response_model=rmodel,  # type: ignore[arg-type]
            capacity_setting=None if row.capacity_setting == full else row.capacity_setting,
        )
        assert row.cps == est.evaluated_cps and row.fits == (est.feasibility.feasible and est.cps_required is not None)
        assert row.max_tps == est.feasibility.max_tps
        assert row.msu_used == est.msu
        assert est.capacity_detail is not None and row.model == est.capacity_detail["model"]
        rated = table.settings[(row.machine_type, row.capacity_setting, row.cps)]
        assert (row.mips, row.msu) == (rated.mips, rated.msu)


def test_slower_settings_need_more_cps_and_the_cheapest_in_msu_is_marked(z16_7000: FitResult) -> None:
    by = {r.capacity_setting: r for r in z16_7000.rows if r.machine_type == "3931"}
    assert by["700"].fits and by["600"].fits and by["500"].fits
    assert by["700"].cps < by["600"].cps < by["500"].cps  # type: ignore[operator]
    assert not by["400"].fits and "3931-439" in by["400"].reason  # the largest 4xx model, 39 CPs
    fitting = [r for r in z16_7000.rows if r.fits]
    best = z16_7000.cheapest()
    assert best is not None and best.msu == min(r.msu for r in fitting if r.msu is not None)
    assert sum(r.cheapest for r in z16_7000.rows) == 1
    assert [r.model for r in z16_7000.rows if r.cheapest_in_generation] == [best.model]  # one generation
    assert z16_7000.to_dict()["cheapest"] == best.model


def test_past_the_software_stations_ceiling_no_model_fits(fiteq: tuple[object, object, object]) -> None:
    # 8,000 TPS runs FiTeq's software station (the HSM channel, REDP-5114 11.3) above the 85 %
    # ceiling on every model: none fits, and the most each carries is the ceiling x its saturation.
    cfg, model, rmodel = fiteq
    software = rmodel.software  # type: ignore[attr-defined]
    assert software.utilization(8000.0) > 0.85
    found = fitting_models(cfg, capacity=E.table(), machine_types=Z16, tps=8000, model=model, response_model=rmodel)  # type: ignore[arg-type]
    assert not any(r.fits for r in found.rows) and found.cheapest() is None
    most = 0.85 * software.saturation_tps()
    assert all(r.max_tps is None or r.max_tps <= most * (1 + 1e-9) for r in found.rows)
    (full,) = [r for r in found.rows if (r.machine_type, r.capacity_setting) == ("3931", "700")]
    assert full.max_tps == pytest.approx(most, rel=1e-9) and "software station" in (full.reason or "")


def test_a_response_time_goal_removes_the_models_that_miss_it(fiteq: tuple[object, object, object]) -> None:
    cfg, model, rmodel = fiteq
    # REDP-5114 Table 11-1 publishes 4 ms at 499 TPS and 14 ms at 8,680.75 TPS; a 1 ms goal is
    # below even the lightest published time, so no model meets it.
    tight = fitting_models(
        cfg,  # type: ignore[arg-type]
        capacity=E.table(),
        machine_types=("3931",),
        tps=8000,
        response_time_sla_ms=1.0,
        model=model,
        response_model=rmodel,
    )
    assert not any(r.fits for r in tight.rows) and tight.cheapest() is None
    assert all(r.reason for r in tight.rows)


def test_unknown_machine_type_is_named(fiteq: tuple[object, object, object]) -> None:
    cfg, model, _ = fiteq
    with pytest.raises(ValueError, match="machine_types: '9999' is not rated"):
        fitting_models(cfg, capacity=E.table(), machine_types=("9999",), tps=100, model=model)  # type: ignore[arg-type]
