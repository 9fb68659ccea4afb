"""Sign-in throttling (issue 24, item 8; issue 31, item 3): real requests through the whole
middleware stack.

The limits are the settings' defaults (config/settings/base.py): 5 failures per (user name,
address) pair, a 15-minute wait after the last one, failures forgotten on a successful sign-in;
past 5 failures of one account, new addresses are slowed down (2^(failures - 6) s, at most 60 s),
never locked out.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import caches
from django.db.models import F
from django.test import Client
from django.utils import timezone

pytestmark = pytest.mark.django_db

LOGIN = "/login/"
PASSWORD = "sizing-pass-1"  # the ``user`` fixture's (tests/conftest.py)
LIMIT = 5
WAIT = "try again in 15 minutes"


@pytest.fixture(autouse=True)
def _no_account_history() -> Iterator[None]:
    """The per-account counts live in the throttle cache, which no transaction rolls back."""
    caches[settings.ZSIZER_THROTTLE_CACHE].clear()
    yield
    caches[settings.ZSIZER_THROTTLE_CACHE].clear()


def _sign_in(client: Client, username: str, password: str, address: str = "10.0.0.1", **headers: Any) -> Any:
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address, **headers)


def _signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_the_settings_are_the_documented_limits() -> None:
    assert settings.AXES_FAILURE_LIMIT == LIMIT
    assert settings.AXES_COOLOFF_TIME == timedelta(minutes=15)
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]  # only the pair locks out
    assert settings.AXES_RESET_ON_SUCCESS is True
    assert settings.ZSIZER_LOGIN_MAX_DELAY_SECONDS == 60


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


def test_five_wrong_passwords_from_one_address_leave_the_user_able_to_sign_in_from_another(user: Any) -> None:
    # Issue 31: anyone could lock anyone out (the admin included) with 5 wrong passwords.
    attacker = Client()
    for _ in range(LIMIT):
        _sign_in(attacker, "engineer", "wrong", address="203.0.113.66")
    assert _sign_in(attacker, "engineer", PASSWORD, address="203.0.113.66").status_code == 429
    owner = Client()
    assert _sign_in(owner, "engineer", PASSWORD, address="10.0.0.2").status_code == 302
    assert _signed_in(owner)


def test_typos_of_one_account_behind_a_proxy_do_not_lock_a_second_account(
    user: Any, other_user: Any, settings: Any
) -> None:
    # Issue 31: 30 wrong passwords for one account locked a second account at the same address.
    settings.ZSIZER_TRUSTED_PROXIES = 1
    proxy, office = "172.18.0.5", "198.51.100.9"
    for _ in range(30):
        _sign_in(Client(), "engineer", "wrong", address=proxy, HTTP_X_FORWARDED_FOR=office)
    colleague = Client()
    signed = _sign_in(colleague, "other", "sizing-pass-2", address=proxy, HTTP_X_FORWARDED_FOR=office)
    assert signed.status_code == 302 and _signed_in(colleague)


def test_failures_from_one_address_for_many_names_lock_none_of_them(user: Any) -> None:
    client = Client()
    for n in range(LIMIT):
        _sign_in(client, f"guess-{n}", "wrong", address="192.0.2.7")
    assert _sign_in(client, "engineer", PASSWORD, address="192.0.2.7").status_code == 302


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
        _sign_in(client, "engineer", "wrong", address=proxy, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}, 198.51.100.9")
    forged = _sign_in(client, "engineer", PASSWORD, address=proxy, HTTP_X_FORWARDED_FOR="1.1.1.1, 198.51.100.9")
    assert forged.status_code == 429
    assert AccessAttempt.objects.get().ip_address == "198.51.100.9"


def test_the_api_takes_tokens_and_exposes_no_password_endpoint_to_throttle(api: Any) -> None:
    # Token creation is not exposed over HTTP (sizing/api/urls.py: no obtain_auth_token route),
    # so the only password checks are the two sign-in pages above.
    from django.urls import get_resolver

    views = {getattr(p.callback, "__name__", "") for p in get_resolver().url_patterns if hasattr(p, "callback")}
    assert "obtain_auth_token" not in views
    assert api.post("/api/v1/auth-token/", {"username": "engineer", "password": PASSWORD}).status_code == 404


def test_an_attempt_during_the_wait_does_not_start_it_again(user: Any) -> None:
    client = Client()
    for _ in range(LIMIT):
        _sign_in(client, "engineer", "wrong")
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=14))
    assert _sign_in(client, "engineer", PASSWORD).status_code == 429  # one minute early
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=2))
    # 16 minutes after the fifth failure: the early attempt did not restart the wait.
    assert _sign_in(client, "engineer", PASSWORD).status_code == 302 and _signed_in(client)


# -- one account from many addresses: slowed down, never locked out --------------------------


def _fail_from_new_addresses(count: int) -> None:
    """``count`` counted failures, each from a new address after the wait the previous ones set."""
    for n in range(count):
        assert _sign_in(Client(), "engineer", "wrong", address=f"203.0.113.{n + 1}").status_code == 200
        _age_account_failures(settings.ZSIZER_LOGIN_MAX_DELAY_SECONDS)
    _age_account_failures(-settings.ZSIZER_LOGIN_MAX_DELAY_SECONDS)  # the last failure: now


def _age_account_failures(seconds: float) -> None:
    cache = caches[settings.ZSIZER_THROTTLE_CACHE]
    state = cache.get("login-account:engineer")
    cache.set("login-account:engineer", {**state, "last": state["last"] - seconds})


def test_an_account_guessed_from_many_addresses_is_slowed_down_from_new_ones(user: Any) -> None:
    _fail_from_new_addresses(LIMIT + 3)  # 8 failures, one per address: no pair is locked
    assert not AccessAttempt.objects.filter(failures_since_start__gte=LIMIT).exists()
    # The 9th try from a new address must wait 2^(8 - 5 - 1) = 4 s after the last failure.
    early = _sign_in(Client(), "engineer", PASSWORD, address="198.51.100.1")
    assert early.status_code == 429
    assert 3 <= int(early["Retry-After"]) <= 4
    assert "signing in is slowed down: try again in" in early.text
    # Trying again at once is refused without lengthening the wait...
    assert int(_sign_in(Client(), "engineer", PASSWORD, address="198.51.100.1")["Retry-After"]) <= 4
    # ...and once the wait has passed, the right password signs in from the new address.
    _age_account_failures(4)
    owner = Client()
    assert _sign_in(owner, "engineer", PASSWORD, address="198.51.100.1").status_code == 302 and _signed_in(owner)


def test_the_delay_grows_to_its_cap_and_a_known_address_is_never_slowed(user: Any) -> None:
    assert _sign_in(Client(), "engineer", PASSWORD, address="10.9.9.9").status_code == 302  # a known address
    _fail_from_new_addresses(LIMIT + 20)  # 2^20 s, capped
    early = _sign_in(Client(), "engineer", PASSWORD, address="198.51.100.2")
    assert early.status_code == 429 and 59 <= int(early["Retry-After"]) <= 60
    home = Client()
    assert _sign_in(home, "engineer", PASSWORD, address="10.9.9.9").status_code == 302 and _signed_in(home)


def test_an_admin_sees_the_lockouts_and_lifts_them(user: Any, django_user_model: Any) -> None:
    for _ in range(LIMIT):
        _sign_in(Client(), "engineer", "wrong", address="203.0.113.9")
    _fail_from_new_addresses(3)
    assert _sign_in(Client(), "engineer", PASSWORD, address="203.0.113.9").status_code == 429
    admin = django_user_model.objects.create_superuser("root", password="admin-pass-1")
    staff = Client()
    staff.force_login(admin)
    page = staff.get("/admin/axes/accessattempt/")
    assert page.status_code == 200 and "203.0.113.9" in page.text and "engineer" in page.text
    attempts = list(AccessAttempt.objects.filter(username="engineer").values_list("pk", flat=True))
    lifted = staff.post(
        "/admin/axes/accessattempt/",
        {"action": "delete_selected", "_selected_action": attempts, "post": "yes"},
    )
    assert lifted.status_code == 302 and not AccessAttempt.objects.filter(username="engineer").exists()
    owner = Client()
    assert _sign_in(owner, "engineer", PASSWORD, address="203.0.113.9").status_code == 302 and _signed_in(owner)
