"""docker-compose.yml is for users (no Docker engine here): check it is well formed and coherent."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
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
    # Liveness: a broker or cache outage (readiness: degraded) must not restart the web container.
    assert "/healthz/live'" in " ".join(services["web"]["healthcheck"]["test"])
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
    assert "/healthz/live'" in healthcheck


# -- the compose file as Compose reads it ----------------------------------------------------------


def _compose_command() -> list[str]:
    """Compose v2 (the docker CLI plugin) where installed, else the ``docker-compose`` command
    (Debian 12 packages v1.29; .ci/system-packages.sh installs it). ``config`` needs no engine."""
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    standalone = shutil.which("docker-compose")
    assert standalone, "no Compose here: apt-get install docker-compose (.ci/system-packages.sh does)"
    return [standalone]


def _compose_config(**variables: str) -> subprocess.CompletedProcess[str]:
    # Only the variables given (and PATH): the file's own defaults, not this machine's settings.
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), **variables}
    return subprocess.run(
        [*_compose_command(), "-f", str(REPO / "docker-compose.yml"), "config"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_compose_config_accepts_the_file_and_the_site_address_reaches_the_settings() -> None:
    result = _compose_config(DJANGO_SECRET_KEY=secrets.token_urlsafe(50), ZSIZER_SITE_ADDRESS="sizing.example.com")
    assert result.returncode == 0, result.stderr
    config = yaml.safe_load(result.stdout)
    services = config["services"]
    assert "sizing.example.com" in services["proxy"]["command"]  # Caddy serves that name ...
    web = {k: str(v) for k, v in services["web"]["environment"].items()}
    assert web["ZSIZER_SITE_ADDRESS"] == "sizing.example.com"  # ... and the app is told it
    assert {services[name]["image"] for name in ("migrate", "web", "worker")} == {"zsizer-web"}
    assert {v["name"] for v in config["volumes"].values()} == {"zsizer_pgdata", "zsizer_redisdata", "zsizer_caddydata"}
    # The web container's environment, as Compose resolved it, loads the production settings
    # with that name allowed and trusted (no database or broker is reached to read settings).
    shown = "from django.conf import settings; print(settings.ALLOWED_HOSTS); print(settings.CSRF_TRUSTED_ORIGINS)"
    loaded = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", shown],
        cwd=REPO,
        env={"PATH": os.environ["PATH"], "PYTHONPATH": str(REPO), **web, "ZSIZER_STATIC_ROOT": "/tmp/zsizer-static"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert loaded.returncode == 0, loaded.stderr
    hosts, origins = loaded.stdout.strip().splitlines()[-2:]
    assert hosts == "['localhost', '127.0.0.1', 'sizing.example.com']"
    assert origins == "['https://sizing.example.com']"


def test_compose_config_refuses_to_run_without_a_secret_key() -> None:
    result = _compose_config()
    assert result.returncode != 0 and "set DJANGO_SECRET_KEY" in result.stderr


def test_compose_keeps_a_worker_process_for_interactive_jobs() -> None:
    # Issue 31 item 4: batches and plans on one queue, curve/closed/Monte Carlo/optimise on their own,
    # with one process that takes nothing else.
    services = _compose()["services"]
    both = services["worker"]["command"]
    interactive = services["worker-interactive"]["command"]
    assert both[both.index("-Q") + 1] == "zsizer,zsizer-interactive"
    assert interactive[interactive.index("-Q") + 1] == "zsizer-interactive"
    assert "--concurrency=1" in interactive and "healthcheck" in services["worker-interactive"]
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert "-Q $$Q-interactive" in makefile and "-Q $$Q,$$Q-interactive" in makefile
