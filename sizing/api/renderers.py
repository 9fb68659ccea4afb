"""CSV output for spreadsheets: a header row, then one row per record."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BaseRenderer


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Mapping[str, Any] | None = None
    ) -> bytes:
        if data is None:
            return b""
        if isinstance(data, dict) and "results" in data:
            data = data["results"]
        rows = data if isinstance(data, list) else [data]
        if not rows:
            return b""
        # Error bodies and other non-tabular payloads are rendered as key/value rows.
        rows = [row if isinstance(row, dict) else {"value": row} for row in rows]
        header: list[str] = []
        for row in rows:
            for key in row:
                if key not in header:
                    header.append(key)
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=header, extrasaction="ignore", lineterminator="\r\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(v) for k, v in row.items()})
        return buffer.getvalue().encode(self.charset)


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        import json

        return json.dumps(value, separators=(",", ":"))
    return value
