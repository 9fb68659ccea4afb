"""Form and multipart bodies checked as strictly as JSON ones: text that is not valid in its
charset, or holds a NUL, is refused with a sentence naming the field, never stored as
replacement characters.

Django decodes form fields (``QueryDict``) and multipart fields (``MultiPartParser``) with
``errors="replace"``: ``name=%ff%fe`` became ``"\\ufffd\\ufffd"`` and was stored.  JSON bodies are
refused instead (``sizing.api.parsers.StrictJSONParser``); these checks give forms the same
answer.  Files in a multipart body are bytes and are not decoded; their file names are.
"""

from __future__ import annotations

import base64
import binascii
import io
from urllib.parse import unquote_to_bytes

from django.http.multipartparser import FIELD, FILE, ChunkIter, LazyStream, MultiPartParserError, Parser

NUL = "\x00"


def _decoded(raw: bytes, encoding: str, what: str) -> tuple[str | None, str | None]:
    """``(text, None)``, or ``(None, a sentence naming what is not valid)``."""
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        return None, f"{what} is not valid {encoding}: bad byte at offset {exc.start}."
    if NUL in text:
        return None, f"{what} contains a NUL character, which no field accepts."
    return text, None


def _as_bytes(value: bytes | str, encoding: str) -> bytes:
    return value if isinstance(value, bytes) else value.encode(encoding, "surrogateescape")


def form_problem(body: bytes, encoding: str) -> str | None:
    """What is wrong with an ``application/x-www-form-urlencoded`` body, or ``None``."""
    text, problem = _decoded(body, encoding, "The body")
    if text is None:
        return problem
    for pair in text.split("&"):
        if not pair:
            continue
        raw_name, _, raw_value = pair.partition("=")
        name, problem = _decoded(unquote_to_bytes(raw_name.replace("+", " ")), encoding, "A form field name")
        if name is None:
            return problem
        _, problem = _decoded(unquote_to_bytes(raw_value.replace("+", " ")), encoding, f"The form field {name!r}")
        if problem is not None:
            return problem
    return None


def multipart_problem(body: bytes, boundary: str, encoding: str) -> str | None:
    """What is wrong with a ``multipart/form-data`` body's field names, fields and file names, or
    ``None`` (a body Django cannot parse at all is left to Django's own error)."""
    stream = LazyStream(ChunkIter(io.BytesIO(body), 64 * 1024))
    try:
        for item_type, meta, part in Parser(stream, boundary.encode("ascii")):
            # Django's parser keeps header parameters as bytes: {"name": b"csv_text", ...}.
            disposition = meta["content-disposition"][1] if "content-disposition" in meta else {}
            raw_name = _as_bytes(disposition.get("name", b""), encoding)
            name, problem = _decoded(raw_name, encoding, "A multipart field name")
            if name is None:
                return problem
            if item_type == FIELD:
                data = part.read()
                encoding_header = meta.get("content-transfer-encoding")
                if encoding_header is not None and encoding_header[0].strip() == "base64":
                    try:
                        data = base64.b64decode(data)
                    except binascii.Error:
                        pass  # Django keeps the undecoded bytes: check those
                _, problem = _decoded(data, encoding, f"The multipart field {name!r}")
            elif item_type == FILE:
                _, problem = _decoded(
                    _as_bytes(disposition.get("filename", b""), encoding), encoding, f"The file name of {name!r}"
                )
                part.read()  # to the next part
            else:
                part.read()
            if problem is not None:
                return problem
    except (MultiPartParserError, ValueError, UnicodeError):
        return None
    return None
