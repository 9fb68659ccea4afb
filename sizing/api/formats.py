"""The output formats, in one registry: what a view may answer besides JSON, and how.

A view lists the formats it offers (``renderers("json", "csv", "xlsx")``) and answers a table in
the one asked for (``?format=`` or the Accept header) with :func:`table_response`; nothing else
compares format names.  Adding a format is one entry here and its renderer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from sizing.api.renderers import XLSX_MEDIA_TYPE, CSVRenderer, CsvRows, XLSXRenderer
from sizing.api.report_views import PDFRenderer


@dataclass(frozen=True)
class OutputFormat:
    """One output format: its ``?format=`` name, media type, file extension, renderer, and whether
    it writes a table (CSV, XLSX) rather than the JSON answer or a document."""

    name: str
    media_type: str
    extension: str
    renderer: type[BaseRenderer]
    table: bool

    def filename(self, stem: str) -> str:
        return f"{stem}.{self.extension}"


FORMATS: dict[str, OutputFormat] = {
    f.name: f
    for f in (
        OutputFormat("json", "application/json", "json", JSONRenderer, table=False),
        OutputFormat("csv", "text/csv", "csv", CSVRenderer, table=True),
        OutputFormat("xlsx", XLSX_MEDIA_TYPE, "xlsx", XLSXRenderer, table=True),
        OutputFormat("pdf", "application/pdf", "pdf", PDFRenderer, table=False),
    )
}
#: The formats a table can be downloaded in.
TABLE_FORMATS = tuple(name for name, f in FORMATS.items() if f.table)


def renderers(*names: str, browsable: bool = False) -> list[BaseRenderer]:
    """The renderers of the named formats, in order (the first is the default); the browsable
    API after JSON where asked."""
    out: list[BaseRenderer] = []
    for name in names:
        out.append(FORMATS[name].renderer())
        if name == "json" and browsable:
            out.append(BrowsableAPIRenderer())
    return out


def asked_format(request: Request) -> OutputFormat:
    """The format DRF negotiated for ``request`` (JSON for the browsable API)."""
    name = getattr(getattr(request, "accepted_renderer", None), "format", None)
    return FORMATS.get(str(name), FORMATS["json"])


def table_asked(request: Request) -> OutputFormat | None:
    """The table format asked for (CSV, XLSX), or ``None`` for JSON."""
    fmt = asked_format(request)
    return fmt if fmt.table else None


def table_response(
    fmt: OutputFormat,
    *,
    header: Sequence[str],
    rows: list[dict[str, Any]],
    stem: str,
    units: Sequence[str] | None = None,
) -> Response:
    """A table (``header``, one dict per row, ``units`` per column) as a download in ``fmt``."""
    return Response(
        CsvRows(header, rows, units),
        headers={"Content-Disposition": f'attachment; filename="{fmt.filename(stem)}"'},
    )


def rows_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """A job's stored table (``{"columns", "rows"}``) as one dict per row."""
    return [dict(zip(columns, row, strict=True)) for row in rows]
