"""Figures a benchmark script hands to perf/run.py: appended as JSON lines to $ZSIZER_BENCH_RECORD."""

from __future__ import annotations

import json
import os
from typing import Any


def record(section: str, **figures: Any) -> None:
    """Append one row of ``section`` (no-op when the script runs on its own)."""
    path = os.environ.get("ZSIZER_BENCH_RECORD")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"section": section, **figures}) + "\n")
