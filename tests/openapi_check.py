"""Every answer the API tests receive, held to the served OpenAPI schema (issue 28 item 2).

``ValidatingAPIClient`` (the ``api`` fixture of tests/conftest.py) is DRF's ``APIClient`` that
validates each response with openapi-core against the schema the app serves: its status must be
documented for the operation, its media type declared, its body valid (types, required fields,
nullability, closed objects).  A mismatch fails the test that made the request, naming the
operation and openapi-core's reason.

Which operation answered: the request's method and path.  A ``?format=csv`` (or ``?format=xlsx``)
request is served as the operation of its own at the path with ``.csv`` (``.xlsx``)
(``/api/v1/estimates/3/`` -> ``/api/v1/estimates/3.csv``; a job's ``/api/v1/jobs/3/`` ->
``/api/v1/jobs/3/result.csv``), which the schema documents.  A
request to a path the schema does not have (an unrouted URL under /api/, the schema itself) has
no operation to hold it to and is not validated; ``validated_operations`` counts those that were.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from typing import Any
from urllib.parse import parse_qs, urlsplit

from openapi_core import OpenAPI
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_core.testing import MockRequest, MockResponse
from rest_framework.test import APIClient

#: (method, path template) -> responses validated, for a test to check that it covered what it meant to.
validated_operations: Counter[tuple[str, str]] = Counter()


class SchemaMismatch(AssertionError):
    pass


@functools.cache
def served_schema() -> dict[str, Any]:
    """The schema as ``GET /api/schema/`` serves it (generated once per test session)."""
    from drf_spectacular.generators import SchemaGenerator

    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))


@functools.cache
def _openapi() -> OpenAPI:
    return OpenAPI.from_dict(served_schema())


#: The table formats served at a path of their own (sizing.api.formats.TABLE_FORMATS; the schema's ``.csv`` and ``.xlsx`` operations).
TABLE_SUFFIXES = ("csv", "xlsx")


def _operation_path(path: str, query: dict[str, list[str]]) -> str:
    fmt = (query.get("format") or [""])[-1]
    if fmt not in TABLE_SUFFIXES:
        return path
    paths = served_schema()["paths"]
    base = path.rstrip("/")
    for candidate in (f"{base}.{fmt}", f"{base}/result.{fmt}"):
        if _template_of(candidate, paths) is not None:
            return candidate
    return path


def _template_of(path: str, paths: dict[str, Any]) -> str | None:
    for template in paths:
        parts, given = template.strip("/").split("/"), path.strip("/").split("/")
        if len(parts) == len(given) and all(
            p == g or (p.startswith("{") and p.endswith("}")) or ("{" in p and _same_shape(p, g))
            for p, g in zip(parts, given, strict=True)
        ):
            return template
    return None


def _same_shape(template_part: str, given: str) -> bool:
    """``{id}.csv`` against ``3.csv``."""
    prefix, _, rest = template_part.partition("{")
    _, _, suffix = rest.partition("}")
    return given.startswith(prefix) and given.endswith(suffix) and len(given) > len(prefix) + len(suffix)


def validate(response: Any) -> None:
    """Raise :class:`SchemaMismatch` if the response is not as the schema documents it."""
    request = response.wsgi_request
    split = urlsplit(request.get_full_path())
    query = parse_qs(split.query, keep_blank_values=True)
    path = _operation_path(split.path, query)
    if not path.startswith("/api/v1/"):
        return
    content_type = response.headers.get("Content-Type", "")
    body = b"" if response.status_code == 204 else bytes(getattr(response, "content", b"") or b"")
    if getattr(response, "streaming", False):
        body = b"".join(response.streaming_content)
    mock_request = MockRequest("http://testserver", request.method, path, args={k: v[-1] for k, v in query.items()})
    media_type = content_type.split(";")[0].strip()
    # openapi-core reads a text body (CSV) as the string it is; other bodies as their bytes.
    data: Any = body.decode("utf-8") if media_type.startswith("text/") else body
    mock_response = MockResponse(data, status_code=response.status_code, content_type=media_type)
    try:
        _openapi().validate_response(mock_request, mock_response)
    except (PathNotFound, OperationNotFound):
        return  # a URL or method no operation documents (a 404, a 405): the schema says nothing about it
    except Exception as exc:  # openapi-core's errors: the answer is not as documented
        detail = _reasons(exc)
        raise SchemaMismatch(
            f"{request.method} {request.get_full_path()} answered {response.status_code} {content_type}, "
            f"not as the schema documents it: {type(exc).__name__}: {detail}\nbody: {body[:500]!r}"
        ) from None
    template = _template_of(path, served_schema()["paths"]) or path
    validated_operations[(request.method.lower(), template)] += 1


def _reasons(exc: BaseException) -> str:
    """openapi-core's reasons: the JSON Schema errors under its exception, each with where it is."""
    reasons = []
    seen: BaseException | None = exc
    while seen is not None:
        for error in getattr(seen, "schema_errors", ()) or ():
            where = "/".join(str(p) for p in getattr(error, "absolute_path", ()))
            reasons.append(f"at {where or '(top)'}: {getattr(error, 'message', error)}"[:600])
        seen = seen.__cause__ or seen.__context__
    return "; ".join(reasons[:8]) or str(exc)[:800]


class ValidatingAPIClient(APIClient):
    """An ``APIClient`` whose every response is validated against the served schema."""

    def request(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        response = super().request(*args, **kwargs)
        if response.status_code == 500 and not self.raise_request_exception:
            return response  # a test that provokes a server error on purpose (and asserts it) sees it as is
        validate(response)
        return response
