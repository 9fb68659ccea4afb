"""Sign-in throttling (issue 24, item 8): real requests through the whole middleware stack.

The limits are the settings' defaults (config/settings/base.py): 5 failures per user name or per
address, a 15-minute wait after the last one, failures forgotten on a successful sign-in.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import F
from django.test import Client
from django.utils import timezone

pytestmark = pytest.mark.django_db

LOGIN = "/login/"
PASSWORD = "sizing-pass-1"  # the ``user`` fixture's (tests/conftest.py)
LIMIT = 5
WAIT = "try again in 15 minutes"


def _sign_in(client: Client, username: str, password: str, address: str = "10.0.0.1", **headers: Any) -> Any:
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address, **headers)


def _signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_the_settings_are_the_documented_limits() -> None:
    assert settings.AXES_FAILURE_LIMIT == LIMIT
    assert settings.AXES_COOLOFF_TIME == timedelta(minutes=15)
    assert settings.AXES_LOCKOUT_PARAMETERS == ["username", "ip_address"]  # either one locks out
    assert settings.AXES_RESET_ON_SUCCESS is True


def test_five_wrong_passwords_lock_the_user_out_with_the_wait_even_for_the_right_one(user: Any) -> None:
    client = Client()
    for _ in range(LIMIT - 1):
        refused = _sign_in(client, "engineer", "wrong")
        assert refused.status_code == 200 and "Please enter a correct username and password" in refused.text
    locked = _sign_in(client, "engineer", "wrong")  # the fifth failure locks out at once
    assert locked.status_code == 429
    assert WAIT in locked.text and locked["Retry-After"] == "900"
    right = _sign_in(client, "engineer", PASSWORD)
    assert right.status_code == 429 and WAIT in right.text and not _signed_in(client)
    # The page keeps the name typed and the form, and says nothing about whether the name exists.
    assert 'value="engineer"' in right.text and 'name="password"' in right.text
    # From another address the same user name is locked too (per user name).
    assert _sign_in(Client(), "engineer", PASSWORD, address="10.0.0.2").status_code == 429


def test_failures_from_one_address_lock_that_address_out_for_every_user_name(user: Any) -> None:
    client = Client()
    for n in range(LIMIT):
        _sign_in(client, f"guess-{n}", "wrong", address="192.0.2.7")
    assert _sign_in(client, "engineer", PASSWORD, address="192.0.2.7").status_code == 429
    elsewhere = Client()
    assert _sign_in(elsewhere, "engineer", PASSWORD, address="192.0.2.8").status_code == 302
    assert _signed_in(elsewhere)


def test_a_successful_sign_in_forgets_the_failures(user: Any) -> None:
    client = Client()
    for _ in range(LIMIT - 1):
        assert _sign_in(client, "engineer", "wrong").status_code == 200
    assert _sign_in(client, "engineer", PASSWORD).status_code == 302
    client.post("/logout/")
    # Four more failures would have been the ninth: with the count reset, they are four.
    for _ in range(LIMIT - 1):
        assert _sign_in(client, "engineer", "wrong").status_code == 200
    assert _sign_in(client, "engineer", PASSWORD).status_code == 302 and _signed_in(client)


def test_after_the_wait_the_right_password_signs_in(user: Any) -> None:
    client = Client()
    for _ in range(LIMIT):
        _sign_in(client, "engineer", "wrong")
    assert _sign_in(client, "engineer", PASSWORD).status_code == 429
    # The wait runs from the last failure: move the recorded failures 15 minutes and a second back.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    assert _sign_in(client, "engineer", PASSWORD).status_code == 302 and _signed_in(client)


def test_the_admin_sign_in_is_throttled_too(user: Any) -> None:
    client = Client()
    for _ in range(LIMIT):
        client.post("/admin/login/", {"username": "engineer", "password": "wrong"}, REMOTE_ADDR="10.0.0.3")
    locked = client.post("/admin/login/", {"username": "engineer", "password": PASSWORD}, REMOTE_ADDR="10.0.0.3")
    assert locked.status_code == 429 and WAIT in locked.text


def test_behind_the_proxy_the_client_address_is_the_one_the_proxy_saw(user: Any, settings: Any) -> None:
    settings.ZSIZER_TRUSTED_PROXIES = 1  # the compose file's Caddy appends the client's address
    proxy = "172.18.0.5"
    client = Client()
    for n in range(LIMIT):
        # Each try forges a different first entry; the one Caddy appended (the last) is the truth.
        _sign_in(client, f"guess-{n}", "wrong", address=proxy, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}, 198.51.100.9")
    forged = _sign_in(client, "engineer", PASSWORD, address=proxy, HTTP_X_FORWARDED_FOR="1.1.1.1, 198.51.100.9")
    assert forged.status_code == 429
    # Another client behind the same proxy is not locked out by the first one's failures.
    other = Client()
    assert _sign_in(other, "engineer", PASSWORD, address=proxy, HTTP_X_FORWARDED_FOR="198.51.100.10").status_code == 302


def test_the_api_takes_tokens_and_exposes_no_password_endpoint_to_throttle(api: Any) -> None:
    # Token creation is not exposed over HTTP (sizing/api/urls.py: no obtain_auth_token route),
    # so the only password checks are the two sign-in pages above.
    from django.urls import get_resolver

    views = {getattr(p.callback, "__name__", "") for p in get_resolver().url_patterns if hasattr(p, "callback")}
    assert "obtain_auth_token" not in views
    assert api.post("/api/v1/auth-token/", {"username": "engineer", "password": PASSWORD}).status_code == 404


def test_an_attempt_during_the_wait_starts_it_again(user: Any) -> None:
    client = Client()
    for _ in range(LIMIT):
        _sign_in(client, "engineer", "wrong")
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=14))
    assert _sign_in(client, "engineer", PASSWORD).status_code == 429  # one minute early: the wait restarts
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=2))
    # 16 minutes after the fifth failure, but 2 after the last attempt: still paused, as the page says.
    assert _sign_in(client, "engineer", PASSWORD).status_code == 429 and not _signed_in(client)
