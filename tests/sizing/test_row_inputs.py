"""A batch row's cells are checked by a fast path (``row_estimate_inputs``) that must answer as the
estimate's form does (``estimate_inputs``, DRF's run_validation): the same typed inputs for a
good row, the same errors, word for word, for a bad one; and the fast path must take the plain
rows a batch is made of (else it is no faster)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework import serializers

from sizing.services.estimate_inputs import (
    EstimateInputSerializer,
    _RowCheck,
    _Unsure,
    estimate_inputs,
    row_estimate_inputs,
)

BASE = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": "5000"}

#: Cells for each field, good and bad: bounds and just past them, other spellings of a number,
#: non-finite numbers, blanks, signs, non-ASCII text, null characters, lengths.
CELLS: dict[str, list[str]] = {
    "path": ["cicstg", "x" * 60, "x" * 61, "café", "a\x00b", " padded ", "   "],
    "configuration": ["ipic-channel-64", "y" * 61, "\ud800"],
    "calibration": ["1", "0", "7", "-1", "1.0", "1.5", "abc"],
    "machine": ["z16", "3931", "z" * 21, "ü"],
    "model": ["3931-710", "3931-7100000", "3931-71000000"],
    "capacity_setting": ["700", "5xx", "7000"],
    "tps": [
        "1",
        "0",
        "-5",
        "1e-300",
        "10000000",
        "10000000.5",
        "1e99",
        "nan",
        "NaN",
        "inf",
        "-Infinity",
        "abc",
        "1_000",
        "+3",
        " 2000 ",
        "0x10",
        "1" * 1001,
        "١٢٣",
    ],  # fmt: skip
    "cps": ["1", "200", "201", "0", "4.0", "4.5", "+4", "-4", "007", "1_0", "true", "9" * 19, "٣"],
    "ziips": ["0", "200", "201", "-1", "2.00"],
    "max_utilization": ["0.85", "1", "1.0000001", "0", "-0.1", "nan"],
    "payload_bytes": ["1", "67108864", "67108865", "0"],
    "clients": ["1", "1000000", "1000001", "0"],
    "think_time_s": ["0", "3600", "3600.5", "-1"],
    "response_time_sla_ms": ["0", "0.001", "3600000", "3600001", "-1"],
    "projection_band": ["0", "0.1", "0.999", "1", "-0.1"],
    "lpar_overhead": ["0", "10", "10.5", "-1"],
    "server_share": ["0", "1", "1.5"],
    "smt2_factor": ["1", "2", "0.99", "2.01"],
    "cics_regions": ["1", "17", "0", "1000000000"],
    "objective": [
        "fewest-cps",
        "least-msu",
        "least-msu-consumed",
        "fewest-engines",
        "least-cost",
        "cheapest",
        "Fewest-CPS",
    ],  # fmt: skip
    "name": ["a label", "x" * 200, "x" * 201, "naïve", "a\x00b"],
    "cpz": ["4"],
    "csrfmiddlewaretoken": ["abc"],
}


def _rows() -> list[dict[str, str]]:
    rows: list[dict[str, str]] = [dict(BASE)]
    for field, cells in CELLS.items():
        for cell in cells:
            rows.append({**BASE, field: cell})
    # the target, calibration against path and configuration, clients without think time
    rows += [
        {k: v for k, v in BASE.items() if k != "machine"},
        {**{k: v for k, v in BASE.items() if k != "machine"}, "model": "3931-710"},
        {k: v for k, v in BASE.items() if k != "tps"},
        {k: v for k, v in BASE.items() if k != "path"},
        {k: v for k, v in BASE.items() if k not in ("path", "configuration")},
        {**{k: v for k, v in BASE.items() if k not in ("path", "configuration")}, "calibration": "3"},
        {**BASE, "calibration": "3"},
        {**BASE, "clients": "50"},
        {**BASE, "clients": "50", "think_time_s": "1.5"},
        {
            **BASE,
            "cps": "4",
            "ziips": "2",
            "objective": "least-msu",
            "name": "all of them",
            "payload_bytes": "2048",
            "max_utilization": "0.7",
            "smt2_factor": "1.25",
            "cics_regions": "5",
            "projection_band": "0.1",
        },  # fmt: skip
        {**BASE, "tps": "-1", "cps": "0", "cpz": "1"},
    ]
    return rows


def _outcome(check: Any, row: dict[str, str]) -> Any:
    try:
        return check(row)
    except serializers.ValidationError as exc:
        return ("error", exc.detail)


@pytest.mark.parametrize("row", _rows(), ids=lambda row: ",".join(f"{k}={v[:12]!r}" for k, v in row.items()))
def test_a_row_is_checked_as_the_form_checks_it(row: dict[str, str]) -> None:
    assert _outcome(row_estimate_inputs, row) == _outcome(estimate_inputs, row)


def test_the_fast_path_takes_plain_rows_and_leaves_the_others_to_the_form() -> None:
    check = _RowCheck(EstimateInputSerializer())
    taken = [
        dict(BASE),
        {**BASE, "name": "a label", "cps": "4", "ziips": "0", "objective": "least-msu"},
        {**{k: v for k, v in BASE.items() if k != "machine"}, "model": "3931-710", "capacity_setting": "700"},
        {**BASE, "tps": "2000.5", "max_utilization": "0.85", "clients": "10", "think_time_s": "2"},
    ]
    for row in taken:
        assert check(row) == dict(EstimateInputSerializer().run_validation(row))
    for row in ({**BASE, "tps": "0"}, {**BASE, "cps": "4.0"}, {**BASE, "name": "naïve"}, {**BASE, "cpz": "1"}):
        with pytest.raises(_Unsure):
            check(row)
