"""Flatten a nested answer into one CSV row: ``cpu_per_tran_ms.total`` -> ``cpu_per_tran_ms_total``."""

from __future__ import annotations

from typing import Any


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    row: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            row.update(flatten(value, f"{name}_"))
        elif key == "warnings" and isinstance(value, list):
            row["warning_codes"] = " ".join(w["code"] for w in value)
            row["warnings"] = " | ".join(w["message"] for w in value)
        elif isinstance(value, list):
            row[name] = " ".join(str(v) for v in value)
        else:
            row[name] = value
    return row
