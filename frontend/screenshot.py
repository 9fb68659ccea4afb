"""The README's picture of the workbench (``make screenshot`` -> ``docs/workbench.png``).

It runs the app as ``make run`` does, on the embedded default in a temporary folder (a fresh
SQLite file, the published reference data loaded), signs a user in, opens the sizing page on
its worked example in Debian's Chromium (``/usr/bin/chromium``, 1280 pixels wide) and, once
every chart is drawn, saves the top of the page.  Run it after a change to the workbench and
commit the picture, so that the README shows the page as it is.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET = REPO / "docs" / "workbench.png"
CHROMIUM = "/usr/bin/chromium"
WIDTH, HEIGHT = 1280, 1000

SESSION = (
    "from django.contrib.auth import get_user_model, SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY;"
    "from django.contrib.sessions.backends.db import SessionStore;"
    "u, _ = get_user_model().objects.get_or_create(username='presales');"
    "s = SessionStore(); s[SESSION_KEY] = str(u.pk);"
    "s[BACKEND_SESSION_KEY] = 'django.contrib.auth.backends.ModelBackend';"
    "s[HASH_SESSION_KEY] = u.get_session_auth_hash(); s.create(); print(s.session_key)"
)
DRAWN = """() => {
  const charts = [...document.querySelectorAll('div.chart')].filter(c => c.offsetParent !== null);
  return charts.length > 0 && charts.every(c => c.querySelector('.main-svg'));
}"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, check=True, capture_output=True, text=True
    )
    return done.stdout


def _wait_port(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"the server did not listen on port {port} within {timeout:.0f} s")


def main() -> int:
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="zsizer-screenshot-"))
    # The embedded default, as `make run`: no database or broker from the environment.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_", "ZSIZER_"))}
    env.update(ZSIZER_VAR_DIR=str(tmp / "var"), ZSIZER_STATIC_ROOT=str(tmp / "static"))
    port = _free_port()
    server = None
    try:
        _manage(env, "migrate", "--noinput", "-v0")
        _manage(env, "load_benchmarks", "-v0")
        session = _manage(env, "shell", "-c", SESSION).split()[-1]
        with (tmp / "server.log").open("wb") as log:
            server = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                cwd=REPO,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        _wait_port(port, 60)
        base = f"http://127.0.0.1:{port}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
            context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
            context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
            page = context.new_page()
            page.goto(f"{base}/size/", wait_until="networkidle", timeout=120_000)
            page.wait_for_function(DRAWN, timeout=60_000)
            page.wait_for_timeout(500)  # Plotly's transitions
            page.screenshot(path=str(TARGET))
            browser.close()
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=20)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"wrote {TARGET.relative_to(REPO)} ({TARGET.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
