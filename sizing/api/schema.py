"""OpenAPI post-processing: the answers every operation can give, and request objects that are closed.

drf-spectacular documents what each view declares.  Some answers come from the layers around
every view, and are added here to every ``/api/v1/`` operation that lacks them:

* 400: a NUL byte in the URL or a query parameter, a bad filter or page (sizing.middleware,
  the filters, the paginator);
* 401: no or a bad token;
* 404: a URL no route matches, an id that is not yours, a page past the end;
* 413 and 415 (operations with a body): a body over ``ZSIZER_MAX_BODY_BYTES``, a media type
  the API does not parse.

An operation that takes ``format=csv`` documents ``text/csv`` for its 200.

Error answers are JSON (``{"detail": ...}`` or ``{field: [reasons]}``), also where the
operation serves CSV: sizing.api.errors renders them so.

Every object with declared properties gets ``additionalProperties: false``: a request object
because the API refuses unknown fields (a misspelt ``cpz`` is a 400 naming it), a response object
because every field a response carries is documented (tests/sizing/test_schema_fuzz.py holds the
answers to that).  ``Error`` stays open: field errors are keyed by the field's name.
"""

from __future__ import annotations

from typing import Any

METHODS = ("get", "post", "put", "patch", "delete")
ERROR = {"$ref": "#/components/schemas/Error"}
COMMON = {
    "400": "Invalid input: a NUL byte, a bad filter or page value ({field: [reasons]} or {detail})",
    "401": "Not authenticated",
    "404": "Not found (or not yours)",
}
WITH_BODY = {
    "413": "The body is larger than the limit (ZSIZER_MAX_BODY_BYTES)",
    "415": "Unsupported media type: send application/json",
}


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    for path, item in result.get("paths", {}).items():
        if not path.startswith("/api/v1/"):
            continue
        for method, operation in item.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            extra = {**COMMON, **(WITH_BODY if "requestBody" in operation else {})}
            for code, description in extra.items():
                responses.setdefault(code, {"description": description})
            if _serves_csv(operation) and "200" in responses:
                content = responses["200"].setdefault("content", {})
                content.setdefault("text/csv", {"schema": {"type": "string"}})
                content.setdefault(XLSX, {"schema": {"type": "string", "format": "binary"}})
            for code, response in responses.items():
                if code.startswith(("4", "5")):
                    # Errors are JSON, also where the operation serves CSV (sizing.api.errors).
                    content = response.get("content", {})
                    schema = content.get("application/json", {}).get("schema", ERROR)
                    response["content"] = {"application/json": {"schema": schema}}
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name != "Error" and component.get("type") == "object" and "properties" in component:
            component["additionalProperties"] = False
    return result


#: The media type of an XLSX table (sizing.api.renderers.XLSX_MEDIA_TYPE).
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _serves_csv(operation: dict[str, Any]) -> bool:
    """The operation takes ``format=csv`` or another table format (its 200 is then a file)."""
    from sizing.api.formats import TABLE_FORMATS

    for parameter in operation.get("parameters", []):
        enum = parameter.get("schema", {}).get("enum", [])
        if parameter.get("name") == "format" and any(name in enum for name in TABLE_FORMATS):
            return True
    return False
