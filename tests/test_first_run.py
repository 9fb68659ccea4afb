"""First run: the README's quick start alone gets a newcomer signed in and sizing (issue 16.7).

``make run`` on a fresh embedded default (no environment at all, an empty ``var/`` folder) with
the install step taken as done (the suite runs in that venv): it migrates, loads benchmarks/,
prints a user name and password, and serves.  The test reads what it printed, signs in through
the login form as a browser would, and stores an estimate.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SIGN_IN = re.compile(r"Sign in with\s+user: (\S+)\s+password: (\S+)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _embedded_env(var_dir: Path) -> dict[str, str]:
    """No DATABASE_URL, no broker, no settings module: what a newcomer's shell has."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_", "ZSIZER_"))}
    env["ZSIZER_VAR_DIR"] = str(var_dir)
    return env


def _make_run(var_dir: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    venv = Path(sys.executable).parent.parent
    # -o: the venv's install stamp counts as done (this suite runs inside that venv).
    cmd = ["make", "--no-print-directory", "-o", f"{venv}/.installed", "run"]
    cmd += [f"VENV={venv}", f"PY={sys.executable}", "HOST=127.0.0.1", f"PORT={port}"]
    with log.open("wb") as out:
        return subprocess.Popen(
            cmd, cwd=REPO, env=_embedded_env(var_dir), stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def _wait_for_server(proc: subprocess.Popen[bytes], log: Path, port: int, timeout: float = 600) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return log.read_text(errors="replace")
        time.sleep(0.5)
    raise AssertionError(f"make run did not serve within {timeout:g} s:\n{log.read_text(errors='replace')[-3000:]}")


def _sign_in_and_size(base: str, username: str, password: str) -> dict[str, object]:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    login_page = opener.open(f"{base}/login/", timeout=30).read().decode()
    assert 'id="local-account-hint"' in login_page  # the login page says where the password is
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page)
    assert csrf is not None
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": csrf.group(1), "username": username, "password": password})
    landed = opener.open(
        urllib.request.Request(f"{base}/login/", data=form.encode(), headers={"Referer": f"{base}/login/"})
    )
    assert landed.url == f"{base}/size/", landed.url  # signed in: straight to the sizing page, not the login form
    token = next(c.value for c in jar if c.name == "csrftoken")
    inputs = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "zec12", "tps": 7000}
    request = urllib.request.Request(
        f"{base}/api/v1/estimates/",
        data=json.dumps({**inputs, "name": "first run"}).encode(),
        headers={"Content-Type": "application/json", "X-CSRFToken": token, "Referer": f"{base}/size/"},
    )
    with opener.open(request, timeout=120) as response:
        assert response.status == 201
        return dict(json.loads(response.read()))


def test_make_run_prints_a_local_account_that_signs_in_and_sizes(tmp_path: Path) -> None:
    port = _free_port()
    log = tmp_path / "make-run.log"
    proc = _make_run(tmp_path / "var", port, log)
    try:
        printed = _wait_for_server(proc, log, port)
        found = SIGN_IN.search(printed)
        assert found, printed[-3000:]
        username, password = found.groups()
        assert username == "local" and len(password) >= 16
        estimate = _sign_in_and_size(f"http://127.0.0.1:{port}", username, password)
        assert estimate["name"] == "first run" and int(str(estimate["cps_required"])) >= 1
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # make, manage.py runserver and its reloader child
            proc.wait(timeout=30)
    # Kept in var/ for its owner only, and printed again, unchanged, on the next start.
    stored = tmp_path / "var" / "local-account.json"
    assert json.loads(stored.read_text()) == {"username": username, "password": password}
    assert stored.stat().st_mode & 0o777 == 0o600
    again = subprocess.run(
        [sys.executable, "manage.py", "local_account", "--url", f"http://127.0.0.1:{port}/"],
        cwd=REPO,
        env=_embedded_env(tmp_path / "var"),
        capture_output=True,
        text=True,
        check=True,
    )
    assert SIGN_IN.search(again.stdout).groups() == (username, password)  # type: ignore[union-attr]


def test_production_settings_never_make_a_local_account(tmp_path: Path) -> None:
    env = _embedded_env(tmp_path)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY="x" * 20 + "production-key-for-this-check-only" + "y" * 10,
        DATABASE_URL="postgres://nobody@127.0.0.1:9/none",  # never reached: the command stops first
        CELERY_BROKER_URL="redis://127.0.0.1:9/0",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "local_account"], cwd=REPO, env=env, capture_output=True, text=True, check=True
    )
    assert "no local account" in result.stdout and "password" not in result.stdout
    assert not (tmp_path / "local-account.json").exists()
