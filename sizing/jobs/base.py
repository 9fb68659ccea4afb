"""What every job kind shares: the progress callback, the stop signal, JSON-safe results."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np


class JobStopped(Exception):
    """Raised by the progress callback: the job was cancelled or another worker took it over."""


class Progress(Protocol):
    def __call__(self, done: float, total: float) -> None:
        """Report ``done`` of ``total`` steps; raises :class:`JobStopped` to stop the job."""


def json_safe(value: Any) -> Any:
    """Plain JSON: numpy scalars and arrays to Python, NaN and infinities to ``None``."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.ndarray):
        return json_safe(value.tolist())
    if isinstance(value, (np.integer, int)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        v = float(value)
        return v if math.isfinite(v) else None
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    raise TypeError(f"cannot store {type(value).__name__} in a job result")


def json_result(value: Mapping[str, Any]) -> dict[str, Any]:
    """A job's result as plain JSON (see :func:`json_safe`)."""
    return {str(k): json_safe(v) for k, v in value.items()}


def table(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> dict[str, Any]:
    """The result table a job offers as CSV: column names and rows of values."""
    return {"columns": list(columns), "rows": [list(r) for r in rows]}


#: Engine warnings about the model itself (not about one rate or CP count), which a job over
#: many rates and CP counts passes on.
MODEL_WARNINGS = frozenset(
    {
        "bounds-only",
        "interval-assumed",
        "no-response-time-data",
        "no-eligibility-data",
        "eligibility-scope",
        "payload-scaled",
        "payload-outside-range",
        "ratio-only",
    }
)


def warnings_of(reference: Mapping[str, Any]) -> list[dict[str, str]]:
    """The engine's warnings about the model (``size()`` at the reference rate), as the estimate
    API words them."""
    return [dict(w) for w in reference.get("warnings", []) if w["code"] in MODEL_WARNINGS]
