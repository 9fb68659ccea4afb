"""A placement as CSV (docs/csv.md rules): one row per pool of the LPAR, numbers to 6
significant digits, ranges as ``_low``/``_high`` columns, the changes separated by `` | ``; a
workload past its own software limit makes every row not fit, ``binding`` ``software-limit``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sizing.presentation import rate
from sizing.services.estimate_csv import spreadsheet_number

#: The columns, in order (``docs/cec.md`` lists them).
HEADER = (
    "cec_id", "model", "as_of", "lpar", "new_lpar", "pool", "engine", "today", "added", "added_low", "added_high",
    "total", "total_low", "total_high", "share", "ceiling", "ceiling_of_share", "logical", "installed", "cec_busy",
    "utilization", "fits", "fits_low", "fits_high", "binding", "workloads", "changes",
)  # fmt: skip


def workloads_text(answer: Mapping[str, Any]) -> str:
    """The ``workloads`` cell: each workload's name (its product's, given by the placement's
    inputs) at its rate, with separators and its significant decimals as the page and the PDF print it
    ("... at 9,000 TPS"), separated by ``; `` (docs/csv.md: not a number's separator)."""
    return "; ".join(f"{w.get('name') or w['path']} at {rate(w['tps'])}" for w in answer["workloads"])


def placement_rows(answer: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rows of a placement answer (``/api/v1/cecs/{id}/place/``'s JSON)."""
    workloads = workloads_text(answer)
    # A workload past its own software limit: no pool carries the work, whatever its busy; the
    # sentence (pool "": no pool's change raises it) on every row.
    software = bool(answer["software_limits"])
    rows = []
    for p in answer["pools"]:
        changes = " | ".join(c["sentence"] for c in answer["changes"] if c["pool"] in (p["pool"], ""))
        row = {
            "cec_id": answer["cec"], "model": answer["model"], "as_of": str(answer["as_of"]), "lpar": answer["lpar"],
            "new_lpar": answer["new_lpar"], "workloads": workloads, "changes": changes or None,
            "ceiling_of_share": p["ceiling"] * p["share"],
            **{k: p[k] for k in HEADER if k in p},
        }  # fmt: skip
        if software:
            row.update(fits=False, fits_low=False, fits_high=False, binding="software-limit")
        rows.append({k: spreadsheet_number(row.get(k)) for k in HEADER})
    return rows
