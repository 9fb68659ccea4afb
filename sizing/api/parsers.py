"""A JSON body parser that refuses what the API can never mean, with a sentence saying which.

DRF's ``JSONParser`` lets through NUL characters (``"\\u0000"``: PostgreSQL cannot store them),
nesting as deep as the interpreter's stack, and answers ``NaN``/``Infinity`` with "Out of range
float values are not JSON compliant".  Every refusal here is a ``ParseError`` (400,
``{"detail": ...}``) that names the problem and, where there is one, the place in the document
(``$.params.csv``).
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

#: Deepest nesting any request of the API needs is 4 (a mix job's workloads); 32 is generous.
MAX_JSON_DEPTH = 32


def _reject_constant(name: str) -> Any:
    raise ParseError(f"JSON parse error: {name} is not a number JSON allows; send a finite number or null.")


class StrictJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise ParseError(f"Unknown charset {encoding!r} in the Content-Type header; send UTF-8.") from None
        raw = stream.read() if stream is not None else b""
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError(f"The body is not valid {encoding}: bad byte at offset {exc.start}.") from None
        try:
            data = json.loads(text, parse_constant=_reject_constant)
        except RecursionError:
            raise ParseError(f"JSON nested too deeply: at most {MAX_JSON_DEPTH} levels.") from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error: {exc}.") from None
        check_json(data)
        return data


def check_json(data: Any) -> None:
    """Raise ``ParseError`` for nesting deeper than MAX_JSON_DEPTH or a NUL in any key or string."""
    stack: list[tuple[Any, str, int]] = [(data, "$", 1)]
    while stack:
        value, where, depth = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise ParseError(f"{where} contains a NUL character (\\u0000), which no field accepts.")
            continue
        if not isinstance(value, (dict, list)):
            continue
        if depth > MAX_JSON_DEPTH:
            raise ParseError(f"JSON nested too deeply at {where}: at most {MAX_JSON_DEPTH} levels.")
        if isinstance(value, dict):
            for key, item in value.items():
                if "\x00" in key:
                    raise ParseError(f"A key in {where} contains a NUL character (\\u0000).")
                stack.append((item, f"{where}.{key}", depth + 1))
        else:
            stack.extend((item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value))
