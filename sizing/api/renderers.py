"""CSV output for spreadsheets: a header row, then one row per record.

Every CSV the API writes (an estimate's row, the points table, a job's result.csv, a batch's
answers) goes through this renderer, which neutralises cells a spreadsheet would run as a
formula (CWE-1236, OWASP "CSV injection"): a *string* cell that starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return gets a leading ``'``, which spreadsheets show as text and do not
run.  Numbers are never touched (``-0.5`` stays the number -0.5), nor is a string that is a
plain decimal number (``-12``, ``+3.5e2``: a spreadsheet reads those as numbers, not formulas).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BaseRenderer

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def escape_cell(value: Any) -> Any:
    """The cell as written: None empty, lists and objects as JSON, formula-like strings quoted."""
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        value = json.dumps(value, separators=(",", ":"))
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


class CsvRows(list[dict[str, Any]]):
    """Rows with a fixed header (written even when there are no rows), e.g. ``estimate_csv.HEADER``."""

    def __init__(self, header: tuple[str, ...], rows: list[dict[str, Any]]) -> None:
        super().__init__(rows)
        self.header = header


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Mapping[str, Any] | None = None
    ) -> bytes:
        if isinstance(data, CsvRows):
            return self._write(list(data.header), data)
        if isinstance(data, dict) and "results" in data:
            data = data["results"]
        rows = [] if data is None else data if isinstance(data, list) else [data]
        if not rows:
            # No rows, no columns: one empty line, so the answer is still a (text/csv) file.
            return b"\r\n"
        # Non-tabular payloads are rendered as key/value rows.
        rows = [row if isinstance(row, dict) else {"value": row} for row in rows]
        header: list[str] = []
        for row in rows:
            for key in row:
                if key not in header:
                    header.append(key)
        return self._write(header, rows)

    def _write(self, header: list[str], rows: list[dict[str, Any]]) -> bytes:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow([escape_cell(name) for name in header])
        for row in rows:
            writer.writerow([escape_cell(row.get(name)) for name in header])
        return buffer.getvalue().encode(self.charset)
