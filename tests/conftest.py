"""Shared fixtures: the published reference data loaded once per test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, settings

# The real Celery worker's fixtures (tests/celery_worker.py), defined here once for every module:
# a session fixture that each test module imported would be a fixture of that module, and so
# start (and keep until the session ends) one worker process per module.
from tests.celery_worker import (  # noqa: F401 (pytest finds fixtures by name here)
    fixture_jobs_worker,
    fixture_reload_benchmarks,
    fixture_session_worker,
)

# Property tests judge answers, not time: no per-example deadline and no "input generation is
# slow" health check, which failed a run on a loaded 2-core machine (one float drawn in 3 s while
# the other tests' browsers and workers ran). A test's own @settings still sets what it names.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: pytest.FixtureRequest) -> Iterator[None]:
    """Load benchmarks/ into the test database once; each test then runs in a rolled-back transaction."""
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        call_command("load_benchmarks", verbosity=0)
    yield


@pytest.fixture
def user(django_user_model: object) -> object:
    return django_user_model.objects.create_user(username="engineer", password="sizing-pass-1")  # type: ignore[attr-defined]


@pytest.fixture
def other_user(django_user_model: object) -> object:
    return django_user_model.objects.create_user(username="other", password="sizing-pass-2")  # type: ignore[attr-defined]


@pytest.fixture
def api(user: object) -> object:
    """An API client authenticated with a DRF token, as a spreadsheet would be; every answer it
    gets is validated against the served OpenAPI schema (tests/openapi_check.py)."""
    from rest_framework.authtoken.models import Token

    from tests.openapi_check import ValidatingAPIClient

    client = ValidatingAPIClient()
    token = Token.objects.create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client
