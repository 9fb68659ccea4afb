"""OpenAPI post-processing: what every operation can answer, one media type per answer, and
objects that are closed.  It works on every operation the generator finds (none is named here),
so an endpoint added later gets the same treatment; tests/sizing/test_openapi_clients.py walks
every operation to hold the schema to it.

drf-spectacular documents what each view declares.  Some answers come from the layers around
every view, and are added here to every ``/api/v1/`` operation that lacks them:

* 400: a NUL byte in the URL or a query parameter, a bad filter or page (sizing.middleware,
  the filters, the paginator);
* 401: no or a bad token; 403: a session request without its CSRF token (beside a view's own
  403, such as a create's ``quota_exceeded``, as ``anyOf`` the two);
* 404: a URL no route matches, an id that is not yours, a page past the end;
* 429 (operations of a view with a throttle): too many requests, with ``Retry-After``;
* 503: the database is unreachable (sizing.middleware), with ``Retry-After``;
* 413 and 415 (operations with a body): a body over ``ZSIZER_MAX_BODY_BYTES``, a media type
  the API does not parse.

One media type per answer, so that a generated client never decodes CSV or PDF as JSON:

* a CSV is an operation of its own, at a path ending ``.csv`` (``/api/v1/estimate.csv``), whose
  200 is ``text/csv`` only; an XLSX likewise at ``.xlsx`` (binary, its media type named); the
  JSON operation at the same path without the suffix declares JSON only.  ``?format=csv`` and
  ``?format=xlsx`` are still served (the pages' "Download" links; sizing.api.formats) but not
  documented, nor is the ``format`` parameter DRF's renderers add;
* a PDF's 200 is ``application/pdf``, binary (3.1: a schema with no type); a 202 (the report is being built) JSON.

Error answers are JSON (``{"detail": ...}`` or ``{field: [reasons]}``), also where the
operation serves CSV or PDF: sizing.api.errors renders them so.

Every object with declared properties gets ``additionalProperties: false``: a request object
because the API refuses unknown fields (a misspelt ``cpz`` is a 400 naming it), a response object
because every field a response carries is documented.  ``Error`` stays open: field errors are
keyed by the field's name.
"""

from __future__ import annotations

import json
import re
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.openapi import AutoSchema

from sizing.api.renderers import XLSX_MEDIA_TYPE

METHODS = ("get", "post", "put", "patch", "delete")
ERROR = {"$ref": "#/components/schemas/Error"}
RETRY_AFTER = {
    "Retry-After": {"description": "Seconds to wait before trying again", "schema": {"type": "integer", "minimum": 0}}
}
COMMON = {
    "400": "Invalid input: a NUL byte, a bad filter or page value ({field: [reasons]} or {detail})",
    "401": "Not authenticated",
    "403": "Forbidden: a signed-in session's request without its CSRF token",
    "404": "Not found (or not yours)",
    "503": "The database is unavailable; try again after Retry-After seconds",
}
WITH_BODY = {
    "413": "The body is larger than the limit (ZSIZER_MAX_BODY_BYTES)",
    "415": "Unsupported media type: send application/json",
}
THROTTLED = "Too many requests for this user: try again after Retry-After seconds"
CSV = {"text/csv": {"schema": {"type": "string"}}}
#: OpenAPI 3.1's binary body: no JSON type (the bytes are not a string), the media type named.
PDF = {"application/pdf": {"schema": {"contentMediaType": "application/pdf", "description": "a PDF document"}}}
#: An XLSX table: binary, as a PDF is.
XLSX = {XLSX_MEDIA_TYPE: {"schema": {"contentMediaType": XLSX_MEDIA_TYPE, "description": "an Excel workbook"}}}
#: A table's path suffix -> its one media type (the output formats of sizing.api.formats that write a table).
TABLE_SUFFIXES = {".csv": CSV, ".xlsx": XLSX}


class ThrottledAutoSchema(AutoSchema):
    """drf-spectacular's inspector, marking each operation of a view with a throttle: it may
    answer 429 (``x-throttled``, read and removed by :func:`add_error_responses`)."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(*args, **kwargs)
        if operation is not None and self.view.get_throttles():
            operation["x-throttled"] = True
        return operation


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    for path, item in result.get("paths", {}).items():
        if not path.startswith("/api/v1/"):
            continue
        for method, operation in item.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            extra = {**COMMON, **(WITH_BODY if "requestBody" in operation else {})}
            if operation.pop("x-throttled", False):
                extra["429"] = THROTTLED
            for code, description in extra.items():
                responses.setdefault(code, {"description": description})
            _one_media_type(path, operation)
            for code, response in responses.items():
                if code.startswith(("4", "5")):
                    # Errors are JSON, also where the operation serves CSV or PDF (sizing.api.errors).
                    content = response.get("content", {})
                    schema = content.get("application/json", {}).get("schema", ERROR)
                    if code in COMMON and schema != ERROR:
                        # The view's own answer (a create's 403 quota_exceeded: sizing.api.quotas)
                        # or the layers' around it (a 403 for a missing CSRF token): either.  anyOf,
                        # not oneOf: Error is open, so the view's answer matches both.
                        schema = {"anyOf": [schema, ERROR]}
                        if COMMON[code] not in response.get("description", ""):
                            response["description"] = f"{response.get('description') or ''}; or {COMMON[code]}".lstrip(
                                "; "
                            )
                    response["content"] = {"application/json": {"schema": schema}}
                if code in ("429", "503"):
                    response.setdefault("headers", {}).update(RETRY_AFTER)
            if "operationId" in operation:
                operation["operationId"] = re.sub(r"\W", "_", operation["operationId"])
    _apply_bounds(result)
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name != "Error" and component.get("type") == "object" and "properties" in component:
            component["additionalProperties"] = False
    return result


def _one_media_type(path: str, operation: dict[str, Any]) -> None:
    """Each success answer in one media type: JSON, or CSV at a ``.csv`` path, XLSX at a
    ``.xlsx`` path, or PDF."""
    table = next((media for suffix, media in TABLE_SUFFIXES.items() if path.endswith(suffix)), None)
    operation["parameters"] = [
        p for p in operation.get("parameters", []) if not (p.get("in") == "query" and p.get("name") == "format")
    ]
    if table is not None:
        # A table is the whole table, not a page of it.
        operation["parameters"] = [p for p in operation["parameters"] if p.get("name") not in ("page", "page_size")]
    if not operation["parameters"]:
        del operation["parameters"]
    for code, response in operation.get("responses", {}).items():
        if not code.startswith("2") or "content" not in response:
            continue
        content = response["content"]
        if table is not None:
            response["content"] = dict(table)
        elif (
            code == "200"
            and "application/pdf" in content
            and (path.endswith(".pdf") or "application/json" not in content)
        ):
            # a PDF operation; a JSON operation that also renders ?format=pdf (a CEC's placement) stays JSON
            response["content"] = dict(PDF)
        elif "application/json" in content:
            response["content"] = {"application/json": content["application/json"]}


class FiniteFloatFieldExtension(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    """A ``FiniteFloatField``'s ``schema_bounds`` replace the bounds its ``min_value`` and
    ``max_value`` give: ``tps`` is ``exclusiveMinimum: 0``, as the server checks (> 0).  They are
    carried as ``x-bounds`` (drf-spectacular writes the validators' bounds after an extension) and
    applied by :func:`_apply_bounds`."""

    target_class = "sizing.services.input_fields.FiniteFloatField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Any:
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        bounds = getattr(self.target, "schema_bounds", {})
        if bounds:
            schema["x-bounds"] = dict(bounds)
        return schema


def _apply_bounds(node: Any) -> None:
    """Walk the document: ``x-bounds`` replace the bounds beside them; OpenAPI 3.0's ``nullable``
    becomes 3.1's type with ``null``; a type list and a ``oneOf`` name each choice once."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
            continue
        if not isinstance(item, dict):
            continue
        bounds = item.pop("x-bounds", None)
        if isinstance(bounds, dict):
            for key in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
                if key.lower().endswith("minimum") and any(k.lower().endswith("minimum") for k in bounds):
                    item.pop(key, None)
                if key.lower().endswith("maximum") and any(k.lower().endswith("maximum") for k in bounds):
                    item.pop(key, None)
            item.update(bounds)
        if item.pop("nullable", None) is True:
            # OpenAPI 3.0's form (DRF's paginator writes it): in 3.1 a type list with null.
            kind = item.get("type")
            if isinstance(kind, str):
                item["type"] = [kind, "null"]
            elif isinstance(kind, list):
                item["type"] = [*kind, "null"]
        if isinstance(item.get("type"), list):
            item["type"] = list(dict.fromkeys(item["type"]))
        if isinstance(item.get("oneOf"), list):
            # A nullable field whose type already allows null gets {"type": "null"} twice; under
            # oneOf a null would then match two and be refused.
            unique = {json.dumps(choice, sort_keys=True): choice for choice in item["oneOf"]}
            item["oneOf"] = list(unique.values())
        stack.extend(item.values())
