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


def test_compose_redis_keeps_its_data_across_a_restart() -> None:
    compose = _compose()
    redis = compose["services"]["redis"]
    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert command[command.index("--dir") + 1] == "/data"
    assert any(v.split(":")[0] in compose["volumes"] and v.endswith(":/data") for v in redis["volumes"])


def test_compose_scales_workers_and_checks_health_through_healthz() -> None:
    services = _compose()["services"]
    # `docker compose up --scale worker=N`: no fixed container name, no host port to collide on.
    assert "container_name" not in services["worker"] and "ports" not in services["worker"]
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])
    for name in ("migrate", "web", "worker"):
        assert services[name]["environment"]["DJANGO_SETTINGS_MODULE"] == "config.settings.production", name


def test_compose_serves_https_through_a_proxy_the_settings_trust() -> None:
    services = _compose()["services"]
    proxy = services["proxy"]
    assert "web:8000" in proxy["command"] and "ports" not in services["web"]
    settings_text = (REPO / "config" / "settings" / "production.py").read_text(encoding="utf-8")
    assert 'SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")' in settings_text


def test_image_runs_production_settings_and_its_health_check_by_default() -> None:
    dockerfile = (REPO / "Dockerfile").read_text(encoding="utf-8")
    assert "DJANGO_SETTINGS_MODULE=config.settings.production" in dockerfile
    assert "collectstatic --noinput" in dockerfile
    healthcheck = next(line for line in dockerfile.splitlines() if "urlopen" in line)
    assert "/healthz" in healthcheck
