"""``batch``: a CSV of scenarios in (one estimate per row), a CSV of answers out.

The header names estimate fields (``path``, ``configuration``, ``machine``, ``tps`` and any of
the optional ones); each row is validated by the estimate API's own serializer and sized by
``estimate_compute``, exactly as ``GET /api/v1/estimate`` would, and flattened as its CSV is.  A
bad row does not fail the batch: its ``error`` column says what is wrong (field: reason) and its
answer columns are empty.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from sizing.api.estimate_serializers import EstimateInputSerializer
from sizing.api.flatten import flatten
from sizing.jobs.base import Progress, json_result, table
from sizing.services.estimates import estimate_compute

#: Columns a batch must have; the others of EstimateInputSerializer are optional.
REQUIRED_COLUMNS = ("path", "configuration", "machine", "tps")
OPTIONAL_COLUMNS = tuple(name for name in EstimateInputSerializer().fields.keys() if name not in REQUIRED_COLUMNS)


def csv_reader(text: str) -> Any:
    """A strict reader of ``text`` (BOM removed): broken quoting raises ``csv.Error``, never guessed."""
    return csv.reader(io.StringIO(text.lstrip("\ufeff")), strict=True)


def read_rows(text: str) -> tuple[list[str], Iterator[list[str]]]:
    """The header (lower-cased, trimmed, BOM removed) and the non-blank data rows of ``text``."""
    reader = csv_reader(text)
    header = [h.strip().lower() for h in next(reader, [])]
    rows = (row for row in reader if any(cell.strip() for cell in row))
    return header, rows


def _errors_text(detail: Any, prefix: str = "") -> str:
    if isinstance(detail, dict):
        return "; ".join(_errors_text(v, f"{k}: " if k != "non_field_errors" else "") for k, v in detail.items())
    if isinstance(detail, (list, tuple)):
        return prefix + " ".join(str(m) for m in detail)
    return prefix + str(detail)


def size_row(*, owner: User, values: dict[str, str]) -> tuple[dict[str, Any], str]:
    """(flattened answer, "") for a good row, ({}, reason) for a bad one."""
    data = {k: v.strip() for k, v in values.items() if v is not None and v.strip() != ""}
    serializer = EstimateInputSerializer(data=data)
    if not serializer.is_valid():
        return {}, _errors_text(serializer.errors)
    try:
        _, _, outputs = estimate_compute(user=owner, inputs=serializer.validated_data)
    except ValidationError as exc:
        return {}, _errors_text(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    except ValueError as exc:
        return {}, str(exc)
    return flatten(outputs), ""


def run_batch(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    header, rows = read_rows(params["csv"])
    data = list(rows)
    answers: list[tuple[list[str], dict[str, Any], str]] = []
    out_columns: dict[str, None] = {}
    failed = 0
    for i, row in enumerate(data):
        answer: dict[str, Any]
        values = dict(zip(header, row + [""] * (len(header) - len(row)), strict=False))
        if len(row) > len(header):
            answer, error = {}, f"the row has {len(row)} cells but the header has {len(header)} columns"
        else:
            answer, error = size_row(owner=owner, values=values)
        failed += bool(error)
        out_columns.update(dict.fromkeys(answer))
        answers.append((row[: len(header)] + [""] * (len(header) - len(row)), answer, error))
        progress(i + 1, len(data))
    # The scenario's own columns come back as given; an answer column with the same name (the
    # resolved path, the CPs evaluated...) is prefixed so that every header is unique.
    named = {c: (f"result_{c}" if c in header or c in ("row", "error") else c) for c in out_columns}
    columns = ["row", *header, "error", *named.values()]
    table_rows = [
        [n, *given, error, *(answer.get(c) for c in out_columns)] for n, (given, answer, error) in enumerate(answers, 1)
    ]
    return json_result(
        {
            "kind": "batch",
            "rows": len(data),
            "succeeded": len(data) - failed,
            "failed": failed,
            "table": table(columns, table_rows),
        }
    )
