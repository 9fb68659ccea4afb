"""LSPR projection against hand computations from rows of benchmarks/lspr_average_multi_image.csv."""

from __future__ import annotations

import pytest
from numpy.testing import assert_allclose

from models_lib.capacity import demand_mips, demand_msu, per_cp_mips, per_cp_msu, projection_factor
from models_lib.inputs import CapacityTable, Rating
from tests.models_lib import published as P

ZEC12, Z13, Z10 = "2827", "2964", "2097"


@pytest.fixture(scope="module")
def table() -> CapacityTable:
    return P.capacity_table()


def test_projection_factor_zec12_10_to_z13_10_by_hand(table: CapacityTable) -> None:
    # Rows pasted from benchmarks/lspr_average_multi_image.csv:
    #   2827-710,2827,zEC12,10,12179,1473
    #   2964-710,2964,z13,10,13515,1632
    assert P.lspr_rows(ZEC12, [10])[0]["mips"] == "12179"
    assert P.lspr_rows(Z13, [10])[0]["mips"] == "13515"
    # factor = (12179 / 10) / (13515 / 10) = 0.901146874...
    proj = projection_factor(table, ZEC12, 10, Z13, 10)
    assert_allclose(proj.factor, (12179 / 10) / (13515 / 10), rtol=1e-15)
    assert_allclose(proj.factor, 0.9011468738438772, rtol=1e-12)
    assert_allclose([proj.from_mips_per_cp, proj.to_mips_per_cp], [1217.9, 1351.5], rtol=1e-15)
    assert proj.source == table.source
    assert proj.rating_ids == (table.ratings[(ZEC12, 10)].rating_id, table.ratings[(Z13, 10)].rating_id)
    assert not proj.is_identity()


def test_projection_factor_z13_18_way_to_6_way_by_hand(table: CapacityTable) -> None:
    # Rows: 2964-718,2964,z13,18,21579,2584 and 2964-706,2964,z13,6,8700,1062
    # (REDP-5320 measured on 18 CPs; z/OS Connect on 6).  Fewer CPs are faster per CP:
    # factor = (21579/18) / (8700/6) = 1198.83 / 1450.0 = 0.82678...
    proj = projection_factor(table, Z13, 18, Z13, 6)
    assert_allclose(proj.factor, (21579 / 18) / (8700 / 6), rtol=1e-15)
    assert proj.factor < 1.0


def test_identity_projection_is_exactly_one(table: CapacityTable) -> None:
    proj = projection_factor(table, ZEC12, 10, ZEC12, 10)
    assert proj.factor == 1.0 and proj.is_identity()
    assert proj.apply(0.5) == 0.5


@pytest.mark.parametrize("machine_type", [Z10, ZEC12, Z13])
def test_per_cp_capacity_falls_as_cps_grow(table: CapacityTable, machine_type: str) -> None:
    # LSPR multi-processor effect: MIPS(N)/N is non-increasing in N for all 40 rows of each type.
    values = [per_cp_mips(table, machine_type, n) for n in range(1, 41)]
    assert all(b <= a for a, b in zip(values, values[1:], strict=False))
    assert values[-1] < values[0]


def test_z13_cp_faster_than_zec12_cp_at_equal_counts(table: CapacityTable) -> None:
    # Newer generation, more MIPS per CP at every count 1..40 (CSV rows 2827-7nn vs 2964-7nn).
    assert all(per_cp_mips(table, Z13, n) > per_cp_mips(table, ZEC12, n) for n in range(1, 41))


def test_demand_mips_and_msu_by_hand(table: CapacityTable) -> None:
    # 2.33 busy CPs (REDP-5114 Table 9-1 row 4: LPAR 23.30 % of 10 CPs) on a zEC12 10-way:
    # 2.33 * 12179 / 10 = 2837.707 MIPS and 2.33 * 1473 / 10 = 343.209 MSU.
    assert_allclose(demand_mips(2.33, table, ZEC12, 10), 2.33 * 12179 / 10, rtol=1e-15)
    assert_allclose(demand_msu(2.33, table, ZEC12, 10), 2.33 * 1473 / 10, rtol=1e-15)
    assert_allclose(per_cp_msu(table, ZEC12, 10), 147.3, rtol=1e-15)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        # z/OS: 1..256 CPs; lspr_zpcr_configuration_summary.csv rates z13 (2964) 7xx at 1..141 CPs.
        ((ZEC12, 0, Z13, 10), "from_cps must be in 1..256"),
        ((ZEC12, 10, Z13, 142), r"cps=142 is not rated for machine type '2964' .rated CP counts 1..141."),
        (("9999", 10, Z13, 10), "from_type '9999' is not in the LSPR table"),
        ((ZEC12, 10, "2098", 10), "to_type '2098' is not in the LSPR table"),  # z10 BC: not in the export
        ((ZEC12, True, Z13, 10), "from_cps must be an int"),
        ((ZEC12, 2.5, Z13, 10), "from_cps must be an int"),
    ],
)
def test_projection_errors_name_the_argument(table: CapacityTable, args: tuple[object, ...], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        projection_factor(table, *args)  # type: ignore[arg-type]


def test_unrated_cp_count_inside_1_to_40_is_reported() -> None:
    small = CapacityTable({(Z13, 1): Rating(Z13, 1, 1695.0, 210.0), (Z13, 2): Rating(Z13, 2, 3196.0, 394.0)}, "test")
    with pytest.raises(ValueError, match="cps=5 is not rated for machine type '2964' .rated CP counts 1..2."):
        per_cp_mips(small, Z13, 5)
    with pytest.raises(ValueError, match="busy_cps"):
        demand_mips(-1.0, small, Z13, 1)
