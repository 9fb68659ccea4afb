"""docker-compose.yml is for users (no Docker engine here): check it is well formed and coherent."""

from __future__ import annotations

from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent


def _compose() -> dict:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text(encoding="utf-8"))


def test_compose_has_database_broker_web_and_worker_with_health_checks() -> None:
    services = _compose()["services"]
    assert {"db", "redis", "migrate", "web", "worker"} <= set(services)
    for name in ("db", "redis", "web", "worker"):
        assert "healthcheck" in services[name], name
    assert services["web"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_compose_environment_selects_postgres_and_redis_through_the_settings_variables() -> None:
    env = _compose()["services"]["web"]["environment"]
    assert env["DATABASE_URL"].startswith("postgres://")
    assert env["CELERY_BROKER_URL"].startswith("redis://")
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    # The variables the compose file sets are the ones the settings read.
    settings_text = (REPO / "config" / "settings" / "base.py").read_text(encoding="utf-8")
    for variable in env:
        if variable != "DJANGO_SETTINGS_MODULE":
            assert f'"{variable}"' in settings_text, variable


def test_compose_commands_name_modules_that_exist() -> None:
    services = _compose()["services"]
    assert "config.wsgi:application" in services["web"]["command"]
    assert (REPO / "config" / "wsgi.py").exists()
    assert services["worker"]["command"][:3] == ["celery", "-A", "config"]
    assert (REPO / "Dockerfile").exists()
