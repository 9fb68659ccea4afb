"""Figures in the engine's warnings as a planner writes them (review of 2026-11): the Details of
a warning and the PDF's "Why" section printed "214000 TPS", "4.016e+04 TPS", "1.11e+03 busy CPs"
and "needs 7, but z17 allows at most 2 zIIP per CP"."""

from __future__ import annotations

import re
from typing import Any

from models_lib.sizing import SizingResult, size
from models_lib.units import figure_text
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z10, Z13, table


def _size(path: str, configuration: str, machine_type: str, **kw: Any) -> SizingResult:
    return size(
        P.configuration(path, configuration),
        target_machine=machine_type,
        target_machine_type=machine_type,
        capacity=table(),
        **kw,
    )


def _message(r: SizingResult, code: str) -> str:
    return next(w.message for w in r.warnings if w.code == code)


def test_figure_text_has_separators_from_100_and_significant_digits_below() -> None:
    assert figure_text(8829.96) == "8,830" and figure_text(214_000.0) == "214,000" and figure_text(100.0) == "100"
    assert figure_text(12.5) == "12.5" and figure_text(0.4152) == "0.415" and figure_text(99.94) == "99.9"


def test_rates_and_busy_engines_in_warnings_are_written_out() -> None:
    # FiTeq multi-region on every CP of a z10 at 60,000 TPS: past the software station, more
    # busy CPs than the machine has, and far above the measured rates (REDP-5114 Table 11-1).
    r = _size("fiteq-authenticator", "multi-region", Z10, tps=60_000.0)
    assert r.saturation_tps is not None
    beyond = _message(r, "beyond-saturation")
    assert beyond.startswith(f"60,000 TPS is at or beyond the saturation rate {figure_text(r.saturation_tps)} TPS")
    fit = P.configuration("fiteq-authenticator", "multi-region")
    extrapolation = _message(r, "extrapolation")
    assert (
        f"60,000 TPS is outside the measured ETR range {figure_text(min(p.etr for p in fit.points))}-" in extrapolation
    )
    assert re.search(r"carries the GCP demand within 85%: [\d,]+ busy CPs at", _message(r, "capacity-exceeded"))
    for w in r.warnings:
        assert not re.search(r"\d[eE][+-]\d", w.message), w.message


def test_the_engine_ratio_names_the_engines_it_counts() -> None:
    # z/OS Connect on a z10 EC (zAAPs, at most 1 per CP; benchmarks/engine_rules.yaml) and on a
    # z13 (zIIPs, at most 2 per CP): "needs 7 zAAPs", "1 zAAP per CP", "2 zIIPs per CP".
    z10 = _message(_size("zosconnect-cics", "channel", Z10, tps=640.0), "engine-ratio")
    assert re.search(r"the eligible work needs \d+ zAAPs, but z10 EC allows at most 1 zAAP per CP: ", z10)
    z13 = _message(_size("zosconnect-cics", "channel", Z13, tps=800.0, cps=2, ziips=9), "engine-ratio")
    assert "allows at most 2 zIIPs per CP" in z13
