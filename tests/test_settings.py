"""Settings come from the environment; bad values fail at start-up naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import check_broker_url, database_from_url, env_bool, env_int

REPO = Path(__file__).resolve().parent.parent


def test_postgres_url_selects_psycopg_backend() -> None:
    db = database_from_url("DATABASE_URL", "postgres://alice:s%40cret@db.example:6543/zs", base_dir=REPO)
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["USER"], db["PASSWORD"], db["HOST"], db["PORT"], db["NAME"]) == (
        "alice",
        "s@cret",
        "db.example",
        "6543",
        "zs",
    )


def test_sqlite_url_is_relative_to_the_project() -> None:
    db = database_from_url("DATABASE_URL", "sqlite:///var/x.sqlite3", base_dir=REPO)
    assert db == {"ENGINE": "django.db.backends.sqlite3", "NAME": str(REPO / "var" / "x.sqlite3")}


@pytest.mark.parametrize("url", ["mysql://u@h/db", "postgres://u@h:5432/", "postgres://u@h:notaport/db", "nonsense"])
def test_bad_database_url_names_the_variable(url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        database_from_url("DATABASE_URL", url, base_dir=REPO)


def test_bad_broker_url_names_the_variable() -> None:
    with pytest.raises(ImproperlyConfigured, match="CELERY_BROKER_URL"):
        check_broker_url("CELERY_BROKER_URL", "amqp://guest@localhost//")


def test_bad_bool_and_int_name_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZS_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="ZS_FLAG"):
        env_bool("ZS_FLAG")
    monkeypatch.setenv("ZS_N", "ten")
    with pytest.raises(ImproperlyConfigured, match="ZS_N"):
        env_int("ZS_N", 1)


def _django_check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "CELERY_", "DJANGO_"))}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=REPO, env=clean, capture_output=True, text=True, timeout=120
    )


def test_start_up_with_no_environment_uses_embedded_default(tmp_path: Path) -> None:
    # No DATABASE_URL and no broker: SQLite under ZSIZER_VAR_DIR and in-process tasks.
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.base'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "CELERY_", "DJANGO_"))}
    env["ZSIZER_VAR_DIR"] = str(tmp_path)
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["django.db.backends.sqlite3", "True"]


@pytest.mark.parametrize(
    ("variable", "value"),
    [("DATABASE_URL", "mysql://x@y/z"), ("CELERY_BROKER_URL", "amqp://x"), ("DJANGO_DEBUG", "perhaps")],
)
def test_bad_environment_fails_start_up_naming_the_variable(variable: str, value: str, tmp_path: Path) -> None:
    result = _django_check({variable: value, "ZSIZER_VAR_DIR": str(tmp_path)})
    assert result.returncode != 0
    assert variable in result.stderr


def _test_settings_redis(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The broker and answer-cache URLs config.settings.test gives a process with ``env``."""
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.test'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.CELERY_BROKER_URL, s.CACHES['answers'].get('LOCATION'))"
    )
    ours = ("DATABASE_URL", "CELERY_", "DJANGO_", "ZSIZER_", "PYTEST_XDIST_", "XDIST_REDIS_DERIVED_FOR")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(ours)}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=clean, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("env", "broker", "cache"),
    [
        ({}, "redis://127.0.0.1:6379/15", "answers"),  # one process: the default database
        ({"PYTEST_XDIST_WORKER": "gw0"}, "redis://127.0.0.1:6379/15", "answers"),
        ({"PYTEST_XDIST_WORKER": "gw1"}, "redis://127.0.0.1:6379/14", "answers"),
        (
            {
                "PYTEST_XDIST_WORKER": "gw1",
                "CELERY_BROKER_URL": "redis://127.0.0.1:6379/8",
                "ZSIZER_CACHE_URL": "redis://127.0.0.1:6379/12",
            },
            "redis://127.0.0.1:6379/7",
            "redis://127.0.0.1:6379/11",
        ),
        # a process a test of worker gw1 starts with the worker's environment: taken as it is
        (
            {"PYTEST_XDIST_WORKER": "gw1", "XDIST_REDIS_DERIVED_FOR": "gw1", "CELERY_BROKER_URL": "redis://h:6380/7"},
            "redis://h:6380/7",
            "answers",
        ),
    ],
)
def test_each_xdist_worker_has_a_redis_database_of_its_own(env: dict[str, str], broker: str, cache: str) -> None:
    result = _test_settings_redis(env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [broker, cache]


def test_an_xdist_worker_without_a_redis_database_left_fails_naming_it() -> None:
    result = _test_settings_redis({"PYTEST_XDIST_WORKER": "gw3", "CELERY_BROKER_URL": "redis://127.0.0.1:6379/2"})
    assert result.returncode != 0
    assert "gw3" in result.stderr and "redis://127.0.0.1:6379/2" in result.stderr
