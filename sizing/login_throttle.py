"""Sign-in throttling: a lockout nobody can turn against someone else, and what they are told.

django-axes counts failed sign-ins per (user name, client address) pair: ``AXES_FAILURE_LIMIT``
failures lock that pair out for ``AXES_COOLOFF_TIME`` after the last failure, and a successful
sign-in forgets them.  Locking by user name alone let anyone lock anyone out (the admin
included) from any address; locking by address alone let one person's typos behind a company's
proxy lock out every engineer behind it.  The pair does neither.

The pair alone would let an attacker guess one account's password from many addresses, so each
account is also *slowed down*, never locked, from addresses it has not signed in from:
:class:`AccountSlowdownBackend`.  Once an account has ``ZSIZER_LOGIN_FAILURE_LIMIT`` recent
failures (from any addresses), a sign-in from a new address must wait ``2 ** (failures -
limit - 1)`` seconds after the last counted failure (at most ``ZSIZER_LOGIN_MAX_DELAY_SECONDS``);
a locked pair adds no more than the limit, so it takes failures from two addresses;
one that comes sooner is answered 429 with ``Retry-After`` and is not counted, so trying again
and again does not lengthen the wait.  An address the account has signed in from before (axes'
access log) is never slowed down.  The count lives in the shared throttle cache and is
forgotten on a successful sign-in, after ``AXES_COOLOFF_TIME``, or when an admin lifts the
lockouts (deleting the account's access attempts in /admin/axes/accessattempt/).

This module also gives axes the two things that depend on how zsizer is deployed: the client's
address behind the TLS proxy, and the page a locked-out user sees.
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from axes.models import AccessAttempt, AccessLog
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone


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
        f"Too many failed sign-ins for this user name from this address. Signing in is paused: "
        f"try again in {wait_text(cooloff)}."
    )


def slowdown_message(seconds: int) -> str:
    return (
        f"Too many failed sign-ins for this user name. From an address it has not signed in from, "
        f"signing in is slowed down: try again in {seconds} second{'s' if seconds != 1 else ''}."
    )


def lockout_response(request: HttpRequest, original_response: Any = None, credentials: Any = None) -> HttpResponse:
    """429 with ``Retry-After``: JSON under ``/api/``, else the sign-in page with the message and the wait."""
    delay = getattr(request, "zsizer_login_delay", None)
    if delay is not None:
        return _refusal(request, credentials, slowdown_message(delay), delay)
    return _refusal(request, credentials, lockout_message(), math.ceil(settings.AXES_COOLOFF_TIME.total_seconds()))


def _refusal(request: HttpRequest, credentials: Any, message: str, retry_after_s: int) -> HttpResponse:
    retry_after = str(max(1, retry_after_s))
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message}, status=429)
    else:
        username = (credentials or {}).get("username") or request.POST.get("username", "")
        form = AuthenticationForm(request, initial={"username": username})
        context = {"form": form, "lockout_message": message, "next": request.POST.get("next", "")}
        response = render(request, "registration/login.html", context, status=429)
    response["Retry-After"] = retry_after
    return response


# -- the per-account slowdown from new addresses ---------------------------------------------


def _account_key(username: str) -> str:
    return f"login-account:{username.strip().lower()[:150]}"


def _cache() -> Any:
    return caches[settings.ZSIZER_THROTTLE_CACHE]


def _state(username: str) -> dict[str, float]:
    try:
        state = _cache().get(_account_key(username))
    except Exception:  # a shared cache that is down slows nobody down (the pair lockout still holds)
        return {}
    return state if isinstance(state, dict) else {}


def _known_address(username: str, address: str) -> bool:
    """The account has signed in from this address before (axes' access log of sign-ins)."""
    return bool(AccessLog.objects.filter(username=username, ip_address=address).exists())


def account_delay(username: str, address: str) -> int:
    """Seconds a sign-in of ``username`` from ``address`` must still wait (0: none)."""
    state = _state(username)
    failures = int(state.get("failures", 0))
    excess = failures - settings.AXES_FAILURE_LIMIT
    if excess <= 0 or _known_address(username, address):
        return 0
    delay = min(float(settings.ZSIZER_LOGIN_MAX_DELAY_SECONDS), 2.0 ** (excess - 1))
    remaining = float(state.get("last", 0.0)) + delay - timezone.now().timestamp()
    return math.ceil(remaining) if remaining > 0 else 0


class AccountSlowdownBackend:
    """After axes' backend in ``AUTHENTICATION_BACKENDS``: refuses (429 through axes' lockout answer) a sign-in
    that comes before the account's delay from a new address has passed; authenticates nobody."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, **kwargs: Any) -> None:
        if request is None or not username:
            return None
        delay = account_delay(username, client_ip(request))
        if delay > 0:
            request.zsizer_login_delay = delay  # type: ignore[attr-defined]
            request.axes_locked_out = True  # type: ignore[attr-defined]  # axes' middleware answers
            raise PermissionDenied("signing in is slowed down for this account")
        return None


@receiver(user_login_failed)
def _count_failure(sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any) -> None:
    username = str((credentials or {}).get("username") or "")
    if not username or request is None or getattr(request, "axes_locked_out", False):
        return  # a refused attempt (locked pair, early try) is not counted: it does not lengthen the wait
    state = _state(username)
    now = timezone.now().timestamp()
    cooloff = settings.AXES_COOLOFF_TIME.total_seconds()
    failures = int(state.get("failures", 0)) if now - float(state.get("last", 0.0)) < cooloff else 0
    try:
        _cache().set(_account_key(username), {"failures": failures + 1, "last": now}, timeout=int(cooloff))
    except Exception:  # the cache is down: nothing counted, the pair lockout still holds
        pass


def forget_account(username: str) -> None:
    try:
        _cache().delete(_account_key(username))
    except Exception:
        pass


@receiver(user_logged_in)
def _forget_on_success(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    forget_account(user.get_username())


@receiver(post_delete, sender=AccessAttempt)
def _forget_on_lift(sender: Any, instance: AccessAttempt, **kwargs: Any) -> None:
    """An admin lifting an account's lockout (deleting its access attempts) lifts its slowdown too."""
    if instance.username:
        forget_account(instance.username)
