"""Targets as model capacity identifiers or machine type + capacity setting, against the rows of
benchmarks/lspr_zpcr_configuration_summary.csv."""

from __future__ import annotations

import csv

import pytest
from numpy.testing import assert_allclose

from models_lib.capacity import projection_factor
from models_lib.inputs import CapacityTable
from models_lib.targets import TargetError, find_model, model_forms, normalise_setting, resolve_target
from tests.models_lib import engine_data as E
from tests.models_lib import published as P


@pytest.fixture(scope="module")
def table() -> CapacityTable:
    return E.table()


def test_every_csv_row_resolves_to_its_own_model(table: CapacityTable) -> None:
    with (P.BENCHMARKS / "lspr_zpcr_configuration_summary.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 2487  # the file's data rows (2,488 lines with the header)
    for row in rows:
        target = resolve_target(table, machine_type=None, model=row["model"].lower())
        assert (target.machine_type, target.capacity_setting, target.cps, target.model) == (
            row["machine_type"],
            row["capacity_setting"],
            int(row["cps"]),
            row["model"],
        )
        rated = find_model(table, row["model"])
        assert (rated.mips, rated.msu) == (float(row["mips"]), float(row["msu"]))


def test_model_forms_are_read_case_and_separator_free(table: CapacityTable) -> None:
    # CSV: 3931-710,3931,z16,IBM Z z16/700,700,10,18788,2253 and 9176-D05,...,D00,5,693,86
    assert find_model(table, "3931710").mips == 18788
    assert find_model(table, " 9176 d05 ").msu == 86
    t = resolve_target(table, machine_type=None, model="9176-D05")
    assert (t.capacity_setting, t.cps, t.full_speed) == ("D00", 5, False)
    assert resolve_target(table, machine_type=None, model="3931-710").full_speed


@pytest.mark.parametrize(
    ("given", "expected"), [("5xx", "500"), ("5", "500"), ("500", "500"), ("d", "D00"), ("D00", "D00"), ("7XX", "700")]
)
def test_capacity_settings_are_normalised(given: str, expected: str) -> None:
    assert normalise_setting(given) == expected


@pytest.mark.parametrize(
    ("model", "names"),
    [
        ("hello", ["3931-710", "9176-D05", "2097, 2827, 2964"]),
        ("1234-567", ["machine type 1234 is not rated", "9175"]),
        # z16 models: 401..439 (4xx), ..., 701..7K0 per the CSV (3931-7K0 = 200 CPs).
        ("3931-7Z9", ["3931-401..3931-439", "3931-701..3931-7K0"]),
        ("9176-Z07", ["settings A00..Z00: 9176-A01..9176-Z06"]),
    ],
)
def test_unknown_model_names_the_known_forms(table: CapacityTable, model: str, names: list[str]) -> None:
    with pytest.raises(TargetError) as err:
        find_model(table, model)
    assert err.value.field == "model"
    for name in names:
        assert name in str(err.value)


def test_model_disagreeing_with_machine_setting_or_cps_is_refused(table: CapacityTable) -> None:
    for kwargs, field in (
        ({"machine_type": "9175"}, "model"),
        ({"machine_type": None, "capacity_setting": "600"}, "capacity_setting"),
        ({"machine_type": None, "cps": 9}, "cps"),
    ):
        with pytest.raises(TargetError) as err:
            resolve_target(table, model="3931-510", **kwargs)  # type: ignore[arg-type]
        assert err.value.field == field


def test_setting_and_cps_must_be_rated_together(table: CapacityTable) -> None:
    # z16 sub-capacity settings rate 1..39 CPs (3931-401..439); 3932 has no 5xx setting.
    assert resolve_target(table, machine_type="3931", capacity_setting="5xx", cps=39).model == "3931-539"
    with pytest.raises(TargetError) as err:
        resolve_target(table, machine_type="3931", capacity_setting="500", cps=40)
    assert err.value.field == "cps" and "3931-501..3931-539" in str(err.value)
    with pytest.raises(TargetError) as err:
        resolve_target(table, machine_type="3932", capacity_setting="500")
    assert err.value.field == "capacity_setting"
    assert "A00..Z00" in model_forms(table, "3932")


def test_projection_to_the_same_model_is_the_identity(table: CapacityTable) -> None:
    # MIPS(N)/N over itself: exactly 1 for every rated full-speed model.
    for machine_type, cps in table.ratings:
        proj = projection_factor(table, machine_type, cps, machine_type, cps)
        assert proj.factor == 1.0 and proj.is_identity()
        assert_allclose(proj.apply(0.0123), 0.0123, rtol=0)
