"""Pictures of the app (``make screenshot``): ``docs/workbench.png``, the README's picture of the
sizing page, and ``docs/pictures/<page>-<width>.png``, every main page at a desktop's 1440 and a
phone's 390 pixels, with the content of ``frontend/page_corpus.py`` (each kind of answer, a plan,
a calibration, a machine, a price book, a job's result).

It runs the app as ``make run`` does, on the embedded default in a temporary folder (a fresh
SQLite file, the published reference data loaded, jobs run in the web process), stores the
corpus through the API, signs a user in and opens each page in Debian's Chromium
(``/usr/bin/chromium``); once every chart is drawn it saves the whole page (at most MAX_HEIGHT
pixels of it), reduced to 256 colours so that the pictures stay small.  Run it after a change to
a page, look at every picture as a customer would, and commit them (docs/ui.md lists them).
On the same app, ``frontend/pdf_pictures.py`` then draws a page of every PDF report
(``docs/pictures/*-pdf-*.png``).

``python frontend/screenshot.py size-fits plans job-batch-pdf-page2`` redraws only the pictures named.
"""

from __future__ import annotations

import io
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from frontend.page_corpus import DRAWN, pages, visit  # noqa: E402 (the repository on the path first)

README_PICTURE = REPO / "docs" / "workbench.png"
PICTURES = REPO / "docs" / "pictures"
CHROMIUM = "/usr/bin/chromium"
WIDTHS = {1440: 900, 390: 844}  # width: the window's height
MAX_HEIGHT = {1440: 4000, 390: 8000}  # px of a long page (the LSPR lists, the API docs): its top is kept

SESSION = (
    "from django.contrib.auth import get_user_model, SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY;"
    "from django.contrib.sessions.backends.db import SessionStore;"
    "u, _ = get_user_model().objects.get_or_create(username='presales');"
    "s = SessionStore(); s[SESSION_KEY] = str(u.pk);"
    "s[BACKEND_SESSION_KEY] = 'django.contrib.auth.backends.ModelBackend';"
    "s[HASH_SESSION_KEY] = u.get_session_auth_hash(); s.create(); print(s.session_key)"
)
CORPUS = (
    "import json; from django.contrib.auth import get_user_model; from frontend.page_corpus import build;"
    "print(json.dumps(build(get_user_model().objects.get(username='presales'))))"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {args[0]} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def _wait_port(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"the server did not listen on port {port} within {timeout:.0f} s")


def save_png(png: bytes, target: Path, max_height: int) -> None:
    """At most ``max_height`` pixels, in 256 colours (a page is flat colour and text)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    if image.height > max_height:
        image = image.crop((0, 0, image.width, max_height))
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(target, optimize=True)


@dataclass(frozen=True)
class App:
    """The app as ``running_app`` started it: its environment (for ``manage``), the address it
    serves, a signed-in session's key and the ids of ``page_corpus.build``'s content."""

    env: dict[str, str]
    tmp: Path
    base: str
    session: str
    ids: dict[str, int]

    def manage(self, *args: str) -> str:
        return _manage(self.env, *args)


@contextmanager
def running_app() -> Iterator[App]:
    """``make run``'s app on the embedded default in a temporary folder (a fresh SQLite file, the
    published reference data loaded, jobs run in-process), the page corpus stored and served."""
    import json

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
        ids = json.loads(
            [line for line in _manage(env, "shell", "-c", CORPUS).splitlines() if line.startswith("{")][-1]
        )
        with (tmp / "server.log").open("wb") as log:
            server = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                cwd=REPO,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        _wait_port(port, 60)
        yield App(env, tmp, f"http://127.0.0.1:{port}", session, ids)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=20)
        shutil.rmtree(tmp, ignore_errors=True)


def draw_pages(app: App, only: list[str]) -> list[Path]:
    """The README's picture (unless ``only``) and every page named in ``only`` (all by default)."""
    from playwright.sync_api import sync_playwright

    names = {entry.name for entry in pages(app.ids) if entry.picture}
    if only and not names.intersection(only):
        return []
    base, written = app.base, []
    PICTURES.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        if not only:  # the README's picture: the top of the sizing page on its worked example
            context = browser.new_context(viewport={"width": 1280, "height": 1000})
            context.add_cookies([{"name": "sessionid", "value": app.session, "url": base}])
            page = context.new_page()
            page.goto(f"{base}/size/", wait_until="networkidle", timeout=120_000)
            page.wait_for_function(DRAWN, timeout=60_000)
            page.wait_for_timeout(500)  # Plotly's transitions
            page.screenshot(path=str(README_PICTURE))
            written.append(README_PICTURE)
            context.close()
        for width, height in WIDTHS.items():
            for signed_in in (True, False):
                context = browser.new_context(viewport={"width": width, "height": height})
                context.set_default_timeout(120_000)
                if signed_in:
                    context.add_cookies([{"name": "sessionid", "value": app.session, "url": base}])
                for entry in pages(app.ids):
                    if entry.signed_in != signed_in or not entry.picture or (only and entry.name not in only):
                        continue
                    page = context.new_page()
                    visit(page, base, entry, timeout_ms=120_000)
                    page.evaluate("() => window.scrollTo(0, 0)")  # a click scrolled: the sticky form back on top
                    page.mouse.move(0, 0)  # no chart toolbar shown by the pointer of the last click
                    page.wait_for_timeout(200)
                    target = PICTURES / f"{entry.name}-{width}.png"
                    save_png(page.screenshot(full_page=True), target, MAX_HEIGHT[width])
                    written.append(target)
                    page.close()
                context.close()
        browser.close()
    return written


def main(only: list[str]) -> int:
    from frontend import pdf_pictures

    with running_app() as app:
        written = draw_pages(app, only) + pdf_pictures.draw(app, only)
    for path in written:
        print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
