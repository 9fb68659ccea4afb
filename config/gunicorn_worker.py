"""gunicorn's ``gthread`` worker, answering a request line over ``limit_request_line`` in JSON.

gunicorn refuses such a request (``LimitRequestLine``) before any of the application runs, with
an HTML page (``414 URI Too Long``).  The API's errors are JSON, and an API client (a
spreadsheet, a script) reads JSON, so this worker answers that one error with the API's shape:
``{"detail": ..., "code": "request_line_too_long"}``.  gunicorn raises the error while it is
still reading the line, before it has parsed the path, so the answer cannot depend on the path:
every too-long request line gets it (a page's URL that long is never made by the UI).  Every
other error is gunicorn's own.

It also drops gunicorn's ``Server`` header from every response (``NoServerHeaderResponse``).

The bounds on list parameters (``sizing.services.list_inputs``, docs/api-input.md) keep every
legitimate request far under the limit; this is for the rest.
"""

from __future__ import annotations

import json
from typing import Any

from gunicorn import util
from gunicorn.http import wsgi
from gunicorn.http.errors import LimitRequestLine
from gunicorn.workers.gthread import ThreadWorker


class NoServerHeaderResponse(wsgi.Response):  # type: ignore[misc]
    """gunicorn's response without its ``Server: gunicorn`` line: the answer does not advertise
    the server software (nor would its version help anyone but an attacker)."""

    def default_headers(self) -> list[str]:
        return [line for line in super().default_headers() if not line.lower().startswith("server:")]


# gunicorn's wsgi.create() builds each response from this module attribute.
wsgi.Response = NoServerHeaderResponse


def request_line_too_long_response(limit: int) -> bytes:
    """The whole HTTP response (status line, headers, JSON body) for a line over ``limit`` bytes."""
    body = json.dumps(
        {
            "detail": (
                f"The request line (method, URL and query string) is longer than the server's limit of "
                f"{limit:,} bytes. Send fewer or shorter parameters; the limits of list parameters are in "
                "docs/api-input.md."
            ),
            "code": "request_line_too_long",
        }
    ).encode()
    head = (
        "HTTP/1.1 414 URI Too Long\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        "Cache-Control: no-store\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class JsonErrorThreadWorker(ThreadWorker):  # type: ignore[misc]
    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        if not isinstance(exc, LimitRequestLine):
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        try:
            util.write_nonblock(client, request_line_too_long_response(self.cfg.limit_request_line))
        except Exception:  # the client has gone: nothing to answer
            self.log.debug("Failed to send error message.")
