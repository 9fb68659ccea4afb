"""``GET /healthz/live``, ``/healthz/ready`` and ``/healthz`` answered before anything reads the Host header.

A container's health check asks ``http://127.0.0.1:8000/healthz``; a deployment lists only its
public name in ``DJANGO_ALLOWED_HOSTS``, so Django's host validation (``CommonMiddleware`` reads
``request.get_host()`` on every request) refused the check with a 400 and the container never
became healthy.  The answer says only whether the database and the broker respond: it builds no
URL from the Host header and names no host, which is what host validation protects, so it is
served for any Host.  Every other path is validated as before.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from sizing.views import healthz, healthz_live

HEALTH_PATHS = {"/healthz": healthz, "/healthz/ready": healthz, "/healthz/live": healthz_live}


class HealthCheckMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        view = HEALTH_PATHS.get(request.path)
        if view is not None:
            return view(request)  # GET only (require_GET): another method gets its 405 here too
        return self.get_response(request)
