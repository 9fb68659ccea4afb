"""Tables for spreadsheets, CSV and XLSX: a header row, then one row per record.

Every CSV the API writes (an estimate's row, the points table, a job's result.csv, a batch's
answers) goes through this renderer, which neutralises cells a spreadsheet would run as a
formula (CWE-1236, OWASP "CSV injection"): a *string* cell that starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return gets a leading ``'``, which spreadsheets show as text and do not
run.  Numbers are never touched (``-0.5`` stays the number -0.5), nor is a string that is a
plain decimal number (``-12``, ``+3.5e2``: a spreadsheet reads those as numbers, not formulas).

Both write every cell by the same rules (:func:`table_value`, docs/csv.md): a number to 6
significant digits (a whole number without decimals), a true/false as ``TRUE``/``FALSE`` (which
spreadsheets read as their booleans; never Python's ``True``), nothing for None.  XLSX keeps numbers
as numbers and puts each column's unit in its header (``tps (transactions/s)``); its text cells are
text, never formulas.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from rest_framework.renderers import BaseRenderer

from sizing.services.estimate_csv import spreadsheet_number

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def table_value(value: Any) -> Any:
    """A cell's value by the rules every table follows (CSV and XLSX): None stays None, a float
    to 6 significant digits (``spreadsheet_number``), lists and objects as JSON text."""
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, float):
        return spreadsheet_number(value)
    return value


def escape_cell(value: Any) -> Any:
    """The cell as written to CSV: None empty, true/false as TRUE/FALSE, numbers to 6
    significant digits, lists and objects as JSON, formula-like strings quoted."""
    value = table_value(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


class CsvRows(list[dict[str, Any]]):
    """Rows with a fixed header (written even when there are no rows), e.g. ``estimate_csv.HEADER``;
    ``units`` (one per column, "" for text) go in an XLSX header."""

    def __init__(self, header: Sequence[str], rows: list[dict[str, Any]], units: Sequence[str] | None = None) -> None:
        super().__init__(rows)
        self.header = tuple(header)
        self.units = tuple(units) if units is not None else ("",) * len(self.header)


@dataclass(frozen=True)
class _Table:
    header: list[str]
    units: list[str]
    rows: list[dict[str, Any]]


def _table_of(data: Any) -> _Table:
    """The rows and header of what a view answers: ``CsvRows``, a page of results, rows or one row."""
    if isinstance(data, CsvRows):
        return _Table(list(data.header), list(data.units), list(data))
    if isinstance(data, dict) and "results" in data:
        data = data["results"]
    rows = [] if data is None else data if isinstance(data, list) else [data]
    # Non-tabular payloads are rendered as key/value rows.
    rows = [row if isinstance(row, dict) else {"value": row} for row in rows]
    header: list[str] = []
    for row in rows:
        for key in row:
            if key not in header:
                header.append(key)
    return _Table(header, [""] * len(header), rows)


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Mapping[str, Any] | None = None
    ) -> bytes:
        t = _table_of(data)
        if not t.header:
            # No rows, no columns: one empty line, so the answer is still a (text/csv) file.
            return b"\r\n"
        return self._write(t.header, t.rows)

    def _write(self, header: list[str], rows: list[dict[str, Any]]) -> bytes:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow([escape_cell(name) for name in header])
        for row in rows:
            writer.writerow([escape_cell(row.get(name)) for name in header])
        return buffer.getvalue().encode(self.charset)


XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class XLSXRenderer(BaseRenderer):
    """The same table as :class:`CSVRenderer`, as one worksheet: numbers as numbers, the unit of
    each column in its header cell, text as text (never a formula)."""

    media_type = XLSX_MEDIA_TYPE
    format = "xlsx"
    charset = None
    render_style = "binary"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Mapping[str, Any] | None = None
    ) -> bytes:
        response = (renderer_context or {}).get("response")
        if response is not None and response.status_code >= 400:
            # An error (a 400, a 409) is read as JSON, whatever format was asked for.
            response["Content-Type"] = "application/json"
            return json.dumps(data).encode()
        t = _table_of(data)
        book = Workbook(write_only=True)
        sheet = book.create_sheet("zsizer")
        sheet.append([f"{name} ({unit})" if unit else name for name, unit in zip(t.header, t.units, strict=True)])
        for row in t.rows:
            sheet.append([self._cell(sheet, row.get(name)) for name in t.header])
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()

    @staticmethod
    def _cell(sheet: Any, value: Any) -> Any:
        value = table_value(value)
        if isinstance(value, str):
            cell = WriteOnlyCell(sheet, value=value)
            cell.data_type = "s"  # text, even where it starts with "=": never a formula
            return cell
        return value
