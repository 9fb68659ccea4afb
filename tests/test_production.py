"""The production settings as the Docker image runs them: gunicorn, PostgreSQL, a Redis of our own.

One server for the module: ``collectstatic`` into a temporary ``STATIC_ROOT``, gunicorn with
``config.settings.production`` on the pytest test database (the reference data the session
loaded) and a ``redis-server`` this module starts on a spare port with its own directory.
Requests carry ``X-Forwarded-Proto: https`` as the TLS proxy in front of gunicorn would.  The
machine's own PostgreSQL and Redis are never stopped: only the Redis started here is.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import brotli
import pytest

REPO = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
HTTPS = {"X-Forwarded-Proto": "https"}

# the session's test database, with benchmarks/ loaded; the module's one server on one xdist worker
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("production-server")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing answers on 127.0.0.1:{port} after {timeout:g} s")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the process group this module started (start_new_session), then SIGKILL."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def production_env(database_url: str, broker_url: str, static_root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_", "ZSIZER_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=broker_url,
        ZSIZER_STATIC_ROOT=str(static_root),
        PYTHONPATH=str(REPO),
    )
    return env


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )


@dataclass
class Server:
    port: int
    env: dict[str, str]
    static_root: Path
    redis: subprocess.Popen[bytes]
    gunicorn: subprocess.Popen[bytes]
    log: Path
    username: str
    token: str
    cookies: dict[str, str] = field(default_factory=dict)

    def request(
        self, method: str, path: str, *, headers: dict[str, str] | None = None, body: bytes | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers={"Host": f"127.0.0.1:{self.port}", **(headers or {})})
            response = conn.getresponse()
            # Header names are case-insensitive; Set-Cookie may repeat.
            got: dict[str, str] = {}
            for name, value in response.getheaders():
                key = name.lower()
                got[key] = f"{got[key]}\n{value}" if key in got else value
            return response.status, got, response.read()
        finally:
            conn.close()

    def api(self, method: str, path: str, payload: dict[str, Any] | None = None) -> tuple[int, dict[str, str], Any]:
        headers = {**HTTPS, "Authorization": f"Token {self.token}", "Accept": "application/json"}
        body = None
        if payload is not None:
            body = json.dumps(payload).encode()
            headers["Content-Type"] = "application/json"
        status, got, raw = self.request(method, path, headers=headers, body=body)
        return status, got, json.loads(raw) if raw else None

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


@pytest.fixture(scope="module")
def server(django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    from django.db import connection

    tmp = tmp_path_factory.mktemp("production")
    db = connection.settings_dict
    database_url = (  # the test database pytest-django created (settings_dict now names it)
        f"postgres://{quote(db['USER'] or '')}:{quote(db['PASSWORD'] or '')}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )
    redis_port, web_port = _free_port(), _free_port()
    env = production_env(database_url, f"redis://127.0.0.1:{redis_port}/0", tmp / "static")
    redis_server = shutil.which("redis-server")
    assert redis_server, "redis-server is not installed (apt-get install redis-server)"
    (tmp / "redis").mkdir()
    redis = subprocess.Popen(
        [redis_server, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=tmp / "redis",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    gunicorn: subprocess.Popen[bytes] | None = None
    username = f"prod-{secrets.token_hex(4)}"
    try:
        _wait_port(redis_port)
        collected = _manage(env, "collectstatic", "--noinput", "-v0")
        assert collected.returncode == 0, collected.stderr
        # The account is committed by another process: gunicorn must see it.
        made = _manage(
            env,
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model; from rest_framework.authtoken.models import Token;"
            f"u = get_user_model().objects.create_user('{username}', password='sizing-pass-7');"
            "print(Token.objects.create(user=u).key)",
        )
        assert made.returncode == 0, made.stderr
        log = tmp / "gunicorn.log"
        with log.open("wb") as out:
            gunicorn = subprocess.Popen(
                # The image's command (Dockerfile, docker-compose.yml): the config file and its worker.
                [str(VENV_BIN / "gunicorn"), "-c", "config/gunicorn.py", "config.wsgi:application"]
                + ["--bind", f"127.0.0.1:{web_port}"],
                cwd=REPO,
                env={**env, "WEB_CONCURRENCY": "2", "ZSIZER_GUNICORN_THREADS": "2"},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        _wait_port(web_port)
        yield Server(web_port, env, tmp / "static", redis, gunicorn, log, username, made.stdout.split()[-1])
    finally:
        if gunicorn is not None:
            _stop(gunicorn)
        _stop(redis)
        _manage(
            env,
            "shell",
            "-c",
            f"from django.contrib.auth import get_user_model; get_user_model().objects.filter(username='{username}').delete()",
        )


def test_check_deploy_prints_nothing_under_production_settings(server: Server) -> None:
    result = _manage(server.env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    # Django's summary line is all there is: no warning, no error.
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."


def test_production_settings_refuse_to_start_without_a_real_secret_key(server: Server) -> None:
    for key in ("", "short"):
        result = _manage({**server.env, "DJANGO_SECRET_KEY": key}, "check")
        assert result.returncode != 0
        assert "DJANGO_SECRET_KEY" in result.stderr
    result = _manage({**server.env, "DJANGO_DEBUG": "1"}, "check")
    assert result.returncode != 0 and "DJANGO_DEBUG" in result.stderr


def test_healthz_answers_200_without_login_and_shows_no_configuration(server: Server) -> None:
    # Plain HTTP (a container health check): /healthz is exempt from the HTTPS redirect.
    status, headers, body = server.request("GET", "/healthz")
    assert status == 200, body
    assert json.loads(body) == {"status": "ok", "database": "ok", "broker": "ok", "cache": "not configured"}
    assert headers["content-type"] == "application/json"
    assert "no-cache" in headers["cache-control"]
    text = body.decode()
    for secret in ("127.0.0.1", str(server.port), "redis", "postgres", server.env["DJANGO_SECRET_KEY"]):
        assert secret not in text


def test_api_is_served_over_https_with_security_headers(server: Server) -> None:
    status, headers, doc = server.api("GET", "/api/v1/machines/")
    assert status == 200, doc
    assert doc["count"] >= 1
    assert headers["strict-transport-security"] == "max-age=31536000; includeSubDomains; preload"
    assert "default-src 'self'" in headers["content-security-policy"]
    assert "script-src 'self';" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    # An estimate, stored: the API works end to end under production settings.
    inputs = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "zec12", "tps": 7000}
    status, _, created = server.api("POST", "/api/v1/estimates/", inputs)
    assert status == 201, created
    assert created["cps_required"] >= 1 and created["id"]


def test_plain_http_is_redirected_to_https(server: Server) -> None:
    status, headers, _ = server.request("GET", "/api/v1/machines/")
    assert status == 301
    assert headers["location"] == f"https://127.0.0.1:{server.port}/api/v1/machines/"


def test_plotly_is_served_compressed_hashed_and_cached_for_a_year(server: Server) -> None:
    from sizing.plotly_static import plotly_bundle

    manifest = json.loads((server.static_root / "staticfiles.json").read_text())["paths"]
    hashed = manifest["vendor/plotly/plotly-basic.min.js"]
    assert re.fullmatch(r"vendor/plotly/plotly-basic\.min\.[0-9a-f]{12}\.js", hashed)
    assert "vendor/plotly.min.js" not in manifest  # the plotly package's full bundle is not collected
    status, headers, body = server.request("GET", f"/static/{hashed}", headers={**HTTPS, "Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert headers["content-type"].startswith("text/javascript")
    # WhiteNoise: hashed names are immutable, max-age ten years (whitenoise.base.FOREVER).
    assert headers["cache-control"] == "max-age=315360000, public, immutable"
    original = plotly_bundle().file.read_bytes()
    assert gzip.decompress(body) == original
    assert len(body) < len(original) / 2.5  # 1.19 MB of JavaScript: 3.0:1 with gzip -9 (measured here)
    # brotli (requirements.txt) is installed wherever the image is built: collectstatic wrote a
    # .br copy and a browser that accepts br gets it.
    assert (server.static_root / f"{hashed}.br").is_file()
    status, headers, body = server.request("GET", f"/static/{hashed}", headers={**HTTPS, "Accept-Encoding": "br, gzip"})
    assert status == 200 and headers["content-encoding"] == "br"
    assert brotli.decompress(body) == original
    # Quality 9 (config/staticfiles.py) compresses smaller than gzip -9 (measured in docs/ui.md).
    assert len(body) < len(gzip.compress(original, compresslevel=9))


def test_healthz_answers_on_any_host_while_other_pages_keep_the_allowed_hosts(server: Server) -> None:
    # A deployment that allows only its public name: the container's health check still asks
    # 127.0.0.1 (Dockerfile, docker-compose.yml), here with a Host the settings do not allow.
    assert "sizing.example.com" not in server.env["DJANGO_ALLOWED_HOSTS"]
    status, _, body = server.request("GET", "/healthz", headers={"Host": "sizing.example.com"})
    assert status == 200 and json.loads(body)["status"] == "ok"
    # Every other path still refuses a host that is not allowed (Django's host validation).
    status, _, _ = server.request("GET", "/login/", headers={**HTTPS, "Host": "sizing.example.com"})
    assert status == 400
    status, _, _ = server.request("POST", "/healthz", headers={"Host": "sizing.example.com"})
    assert status == 405


def test_the_site_address_is_an_allowed_host_and_a_trusted_origin(server: Server) -> None:
    shown = "from django.conf import settings; print(settings.ALLOWED_HOSTS, settings.CSRF_TRUSTED_ORIGINS)"
    for address, host, origin in (
        ("sizing.example.com", "sizing.example.com", "https://sizing.example.com"),
        ("https://sizing.example.com:8443", "sizing.example.com", "https://sizing.example.com:8443"),
        ("http://intranet.local", "intranet.local", "http://intranet.local"),
    ):
        env = {**server.env, "ZSIZER_SITE_ADDRESS": address, "DJANGO_ALLOWED_HOSTS": "127.0.0.1"}
        result = _manage(env, "shell", "-c", shown)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip().splitlines()[-1] == f"['127.0.0.1', '{host}'] ['{origin}']", result.stdout
    bad = _manage({**server.env, "ZSIZER_SITE_ADDRESS": "https://sizing.example.com/zsizer"}, "check")
    assert bad.returncode != 0 and "ZSIZER_SITE_ADDRESS" in bad.stderr


def _cookies(headers: dict[str, str]) -> dict[str, str]:
    found = {}
    for line in headers.get("set-cookie", "").split("\n"):
        if "=" in line:
            name, value = line.split(";", 1)[0].split("=", 1)
            found[name.strip()] = value
    return found


def test_a_signed_in_page_loads_hashed_static_files_under_the_policy(server: Server) -> None:
    status, headers, body = server.request("GET", "/login/", headers=HTTPS)
    assert status == 200
    assert "secure" in headers["set-cookie"].lower()
    cookies = _cookies(headers)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body.decode())
    assert token is not None
    origin = f"https://127.0.0.1:{server.port}"
    form = urlencode({"csrfmiddlewaretoken": token.group(1), "username": server.username, "password": "sizing-pass-7"})
    status, headers, body = server.request(
        "POST",
        "/login/",
        headers={
            **HTTPS,
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={cookies['csrftoken']}",
            "Origin": origin,
            "Referer": f"{origin}/login/",
        },
        body=form.encode(),
    )
    assert status == 302, body[:2000]
    session = _cookies(headers)["sessionid"]
    status, headers, body = server.request("GET", "/size/", headers={**HTTPS, "Cookie": f"sessionid={session}"})
    assert status == 200
    html = body.decode()
    assert re.search(r'src="/static/vendor/plotly/plotly-basic\.min\.[0-9a-f]{12}\.js" integrity="sha512-', html)
    assert re.search(r'src="/static/zsizer/workbench\.[0-9a-f]{12}\.js"', html)
    assert "<script>" not in html and " style=" not in html  # nothing the policy would block


def test_liveness_and_readiness_are_apart(server: Server) -> None:
    status, headers, body = server.request("GET", "/healthz/live")
    assert status == 200 and json.loads(body) == {"status": "ok"} and "no-cache" in headers["cache-control"]
    status, _, body = server.request("GET", "/healthz/ready", headers={"Host": "sizing.example.com"})
    assert status == 200
    assert json.loads(body) == {"status": "ok", "database": "ok", "broker": "ok", "cache": "not configured"}


def test_no_server_header_and_a_permissions_policy(server: Server) -> None:
    for path, headers in (("/healthz/live", {}), ("/api/v1/machines/", HTTPS), ("/login/", HTTPS)):
        status, got, _ = server.request("GET", path, headers=headers)
        assert status in (200, 401), (path, status)
        assert "server" not in got, (path, got.get("server"))
    _, page, _ = server.request("GET", "/login/", headers=HTTPS)
    assert "camera=()" in page["permissions-policy"] and "geolocation=()" in page["permissions-policy"]


def test_logs_are_json_lines_and_readiness_is_degraded_not_down_once_the_broker_stops(server: Server) -> None:
    _stop(server.redis)  # the Redis this module started, never the machine's
    for path in ("/healthz/ready", "/healthz"):
        status, _, body = server.request("GET", path)
        # Jobs are still accepted and sent once the broker is back: degraded, not a reason to restart.
        assert status == 200, path
        assert json.loads(body) == {
            "status": "degraded",
            "database": "ok",
            "broker": "unavailable",
            "cache": "not configured",
        }
    status, _, body = server.request("GET", "/healthz/live")
    assert status == 200 and json.loads(body) == {"status": "ok"}
    deadline = time.monotonic() + 10
    while "the broker does not answer" not in server.log_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    lines = [json.loads(line) for line in server.log_text().splitlines() if "the broker does not answer" in line]
    assert lines, server.log_text()[-2000:]
    assert lines[0]["level"] == "WARNING"
    assert lines[0]["logger"] == "sizing.selectors.health"
