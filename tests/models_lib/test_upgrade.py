"""Upgrade comparison: every column is the engine's estimate of its target with the same inputs
(issue 21: its ranges are the estimate's); the assumed projection band grows with the generation
gap from the measured machine, is shown beside the column and says it is an assumption."""

from __future__ import annotations

import pytest

from models_lib.costmodel import fit_configuration
from models_lib.sizing import size
from models_lib.upgrade import UpgradeTarget, assumed_band, generation_gap, upgrade_comparison
from tests.models_lib import engine_data as E
from tests.models_lib import published as P


@pytest.mark.parametrize(
    ("a", "b", "gap"),
    [("z13", "z17", 4), ("zEC12", "z16", 4), ("z10 EC", "zEC12", 2), ("z16", "z16", 0), ("z13s", "z13", 0)],
)
def test_generation_gap_counts_generation_numbers(a: str, b: str, gap: int) -> None:
    assert generation_gap(a, b) == gap


def test_assumed_band_is_five_percent_per_step_capped() -> None:
    assert [assumed_band(g) for g in (0, 1, 4, 20)] == [0.0, 0.05, 0.2, 0.5]
    with pytest.raises(ValueError, match="to_generation 'ME1'"):
        generation_gap("z13", "ME1")


def test_columns_are_the_estimates_and_show_the_band_of_their_gap() -> None:
    # z/OS Connect EE V3.0 was measured on a z13 (2964): today = a z13 with 6 CPs.
    cfg = P.configuration("zosconnect-cics", "channel")
    model = fit_configuration(cfg)
    table = E.table()
    current = UpgradeTarget("2964", None, 6, "today")
    targets = [UpgradeTarget("3931", label="z16"), UpgradeTarget("9175", label="z17")]
    out = upgrade_comparison(cfg, capacity=table, current=current, targets=targets, tps=800, model=model)
    today, z16, z17 = out["columns"]
    assert (today["generation_gap"], z16["generation_gap"], z17["generation_gap"]) == (0, 3, 4)
    # Assumed (5 % per step, not applied): z16 3 steps, z17 4 from the measured z13.
    assert (today["assumed_band"], z16["assumed_band"], z17["assumed_band"]) == (0.0, 0.15, 0.2)
    assert {c["projection_band"] for c in out["columns"]} == {0.0}
    assert "not published" in z17["band_basis"] and "assumption" in out["band_basis"]
    assert today["model"] == "2964-706" and today["cps"] == 6
    for col, t in zip(out["columns"], (current, *targets), strict=True):
        est = size(
            cfg,
            target_machine=t.machine_type,
            target_machine_type=t.machine_type,
            capacity=table,
            tps=800,
            cps=t.cps,
            model=model,
        ).to_dict()
        assert col["cps"] == est["capacity"]["cps"] and col["msu_used"] == est["capacity"]["cp"]["msu_used"]
        assert (
            col["saturation_tps"] == est["saturation_tps"]
            and col["saturation_range"] == est["ranges"]["saturation_tps"]
        )
    # A given band replaces the assumption in every column.
    given = upgrade_comparison(cfg, capacity=table, current=current, targets=targets, tps=800, model=model,
                               projection_band=0.1)  # fmt: skip
    assert {c["projection_band"] for c in given["columns"]} == {0.1} and "given" in given["band_basis"]
