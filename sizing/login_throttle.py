"""Sign-in throttling (django-axes): who is locked out, and what they are told.

django-axes counts failed sign-ins per user name and per client address (either one reaching
``AXES_FAILURE_LIMIT`` locks out, for ``AXES_COOLOFF_TIME`` after the last failure) and forgets
them on a successful sign-in.  This module gives it the two things that depend on how zsizer is
deployed: the client's address behind the TLS proxy, and the page a locked-out user sees.
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def client_ip(request: HttpRequest) -> str:
    """The address that sent the request: behind ``ZSIZER_TRUSTED_PROXIES`` proxies (the compose
    file's Caddy is one), the one the outermost trusted proxy saw, as it appended it to
    ``X-Forwarded-For``; else the peer's address.  Entries a client put there itself are never
    read, so nobody escapes the lockout by sending a forged header."""
    peer = str(request.META.get("REMOTE_ADDR") or "")
    proxies = int(getattr(settings, "ZSIZER_TRUSTED_PROXIES", 0))
    if proxies <= 0:
        return peer
    forwarded = [part.strip() for part in str(request.META.get("HTTP_X_FORWARDED_FOR") or "").split(",")]
    forwarded = [part for part in forwarded if part]
    return forwarded[-proxies] if len(forwarded) >= proxies else peer


def wait_text(cooloff: timedelta) -> str:
    """The wait in words: ``15 minutes``, ``1 minute``, ``2 hours``."""
    minutes = max(1, math.ceil(cooloff.total_seconds() / 60))
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def lockout_message() -> str:
    cooloff: timedelta = settings.AXES_COOLOFF_TIME
    return (
        f"Too many failed sign-ins for this user name or from this address. Signing in is paused: "
        f"try again in {wait_text(cooloff)}. Each further attempt before then starts the wait again."
    )


def lockout_response(request: HttpRequest, original_response: Any = None, credentials: Any = None) -> HttpResponse:
    """429 with ``Retry-After``: JSON under ``/api/``, else the sign-in page with the message and the wait."""
    retry_after = str(math.ceil(settings.AXES_COOLOFF_TIME.total_seconds()))
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": lockout_message()}, status=429)
    else:
        username = (credentials or {}).get("username") or request.POST.get("username", "")
        form = AuthenticationForm(request, initial={"username": username})
        context = {"form": form, "lockout_message": lockout_message(), "next": request.POST.get("next", "")}
        response = render(request, "registration/login.html", context, status=429)
    response["Retry-After"] = retry_after
    return response
