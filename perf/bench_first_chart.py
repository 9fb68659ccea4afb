"""Time to the first chart: the workbench opened in headless Chromium, as a user sees it (not a test).

Run ``python perf/bench_first_chart.py`` (``make bench`` runs it with the others).  It serves the
app the way the Docker image does: ``collectstatic`` (hashed, compressed) into a temporary
folder, gunicorn with ``config.settings.production`` on the bench database
(``ZSIZER_BENCH_DATABASE_URL``, as ``perf/stack.py``) and a ``redis-server`` of its own on a
spare port.  The HTTPS redirect is turned off (no TLS proxy here); the browser carries a session
made for the bench user, so the figure is the page, not the login.

Each figure is the median of ``RUNS`` (default 5) loads of ``/size/`` (the worked example, which
sizes itself on load), from navigation start to the first Plotly SVG in the page:

* cold: a fresh browser profile (no cache), the pages' plotly.js, the vendored *basic* bundle
  (``frontend/static/vendor/plotly``, 1.2 MB), sent compressed (gzip or brotli);
* warm: the same profile loading the page again (immutable static files from its cache);
* baseline, measured in the same run: cold with the plotly package's *full* bundle
  (``plotly/package_data/plotly.min.js``, 4.8 MB, the same plotly.js version) in its place, as
  the pages loaded it before issue 23.  The bench copies it, with gzip and brotli copies made as
  collectstatic makes them, into its own static folder (the app never serves it), and both
  variants' pages pass through the same Playwright route, which for the baseline points the
  page's ``<script>`` at that copy (without the basic bundle's Subresource Integrity hash).

The goal is cold < 1.2 s on this machine.  Any Content-Security-Policy violation is reported.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from perf.record import record  # noqa: E402
from perf.stack import VENV_BIN, _ensure_database, _manage, _start, _stop, _wait_port  # noqa: E402

RUNS = int(os.environ.get("ZSIZER_BENCH_CHART_RUNS", "5"))
GOAL_MS = 1200.0
FULL_BUNDLE = "vendor/plotly/bench-full-plotly.min.js"  # under STATIC_ROOT, for the baseline only
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

# Runs before the page's own scripts: note when the first Plotly SVG is attached, and any policy refusal.
WATCH = """
window.__firstChart = null; window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', e => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
new MutationObserver((_, obs) => {
  if (document.querySelector('.js-plotly-plot .main-svg')) { window.__firstChart = performance.now(); obs.disconnect(); }
}).observe(document, {childList: true, subtree: true});
"""

SESSION = (
    "from django.contrib.auth import get_user_model, SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY;"
    "from django.contrib.sessions.backends.db import SessionStore;"
    "u, _ = get_user_model().objects.get_or_create(username='bench');"
    "s = SessionStore(); s[SESSION_KEY] = str(u.pk);"
    "s[BACKEND_SESSION_KEY] = 'django.contrib.auth.backends.ModelBackend';"
    "s[HASH_SESSION_KEY] = u.get_session_auth_hash(); s.create(); print(s.session_key)"
)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


_BASIC_TAG = re.compile(r'<script src="[^"]*/vendor/plotly/plotly-basic\.min\.[^"]*" integrity="[^"]*"')


def _page_route(*, full: bool) -> Any:
    """Pass ``/size/`` through Playwright; for the baseline, point its plotly.js at the full bundle."""

    def handle(route: Any) -> None:
        response = route.fetch()
        body = response.text()
        if full:
            body, n = _BASIC_TAG.subn(f'<script src="/static/{FULL_BUNDLE}"', body)
            assert n == 1, "the page's plotly.js <script> was not found"
        # The body is sent decoded: drop the headers that described the encoded one.
        headers = {k: v for k, v in response.headers.items() if k not in ("content-encoding", "content-length")}
        route.fulfill(status=response.status, headers=headers, body=body)

    return handle


def _load(browser: Any, base: str, session: str, *, full: bool, reuse: Any = None) -> tuple[Any, dict[str, Any]]:
    """One page load; returns the context (to reload warm) and its figures."""
    context = reuse or browser.new_context(viewport={"width": 1280, "height": 800})
    if reuse is None:
        context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
        context.add_init_script(WATCH)
        context.route(f"{base}/size/", _page_route(full=full))
    page = context.new_page()
    sizes: dict[str, int] = {}
    page.on("response", lambda r: sizes.__setitem__(r.url, int(r.headers.get("content-length") or 0)))
    encodings: dict[str, str] = {}
    page.on("response", lambda r: encodings.__setitem__(r.url, r.headers.get("content-encoding", "identity")))
    page.goto(f"{base}/size/", wait_until="commit", timeout=120_000)
    page.wait_for_function("() => window.__firstChart !== null", timeout=60_000)
    ms = float(page.evaluate("window.__firstChart"))
    violations = list(page.evaluate("window.__cspViolations"))
    plotly = next((u for u in sizes if "/vendor/plotly" in u), "")
    page.close()
    return context, {
        "first_chart_ms": ms,
        "plotly_bytes": sizes.get(plotly, 0),
        "plotly_encoding": encodings.get(plotly, "not loaded (cached)"),
        "csp_violations": violations,
    }


def _add_full_bundle(static_root: Path) -> None:
    """The baseline's plotly.js: the plotly package's full bundle, compressed as collectstatic would."""
    import plotly

    from config.staticfiles import BROTLI_QUALITY

    data = (Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js").read_bytes()
    target = static_root / FULL_BUNDLE
    target.write_bytes(data)
    Path(f"{target}.gz").write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    try:
        import brotli
    except ImportError:  # the app's own files have no brotli copies either, then
        return
    Path(f"{target}.br").write_bytes(brotli.compress(data, quality=BROTLI_QUALITY))


def _measure(base: str, session: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    cold, warm, full = [], [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # One unmeasured load: gunicorn's workers import and warm the fitted models first.
        context, _ = _load(browser, base, session, full=False)
        context.close()
        for _ in range(RUNS):  # interleaved, so that a busy moment of the machine hits all three alike
            context, figures = _load(browser, base, session, full=False)
            cold.append(figures)
            _, figures = _load(browser, base, session, full=False, reuse=context)
            warm.append(figures)
            context.close()
            context, figures = _load(browser, base, session, full=True)
            full.append(figures)
            context.close()
        browser.close()

    def median(rows: list[dict[str, Any]]) -> float:
        return round(statistics.median(r["first_chart_ms"] for r in rows), 1)

    return {
        "runs": RUNS,
        "cold_ms": median(cold),
        "warm_ms": median(warm),
        "baseline_full_bundle_cold_ms": median(full),
        "cold_all_ms": [round(r["first_chart_ms"], 1) for r in cold],
        "baseline_full_bundle_cold_all_ms": [round(r["first_chart_ms"], 1) for r in full],
        "plotly_bytes_compressed": cold[0]["plotly_bytes"],
        "plotly_encoding": cold[0]["plotly_encoding"],
        "full_bundle_bytes_compressed": full[0]["plotly_bytes"],
        "full_bundle_encoding": full[0]["plotly_encoding"],
        "warm_plotly": warm[0]["plotly_encoding"],
        "csp_violations": sorted({v for r in cold + warm for v in r["csp_violations"]}),
        "baseline_csp_violations": sorted({v for r in full for v in r["csp_violations"]}),
        "goal_cold_ms": GOAL_MS,
    }


def main() -> int:
    db_url = os.environ.get("ZSIZER_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/zsizer_bench")
    redis_server = shutil.which("redis-server")
    if redis_server is None:
        raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
    tmp = Path(tempfile.mkdtemp(prefix="zsizer-first-chart-"))
    redis_port, web_port = _free_port(), _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_", "ZSIZER_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY="zsizer-bench-first-chart-" + "k" * 30 + "-not-for-production",
        DJANGO_SECURE_SSL_REDIRECT="0",  # no TLS proxy in front of the bench
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=db_url,
        CELERY_BROKER_URL=f"redis://127.0.0.1:{redis_port}/0",
        ZSIZER_STATIC_ROOT=str(tmp / "static"),
        ZSIZER_LOG_LEVEL="WARNING",
        PYTHONPATH=str(REPO),
    )
    processes: list[subprocess.Popen[bytes]] = []
    try:
        processes.append(
            _start(
                [redis_server, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--dir", str(tmp)],
                env,
                tmp / "redis.log",
            )  # fmt: skip
        )
        _wait_port("127.0.0.1", redis_port, 15)
        _ensure_database(db_url)
        _manage(env, "migrate", "--noinput", "-v0")
        _manage(env, "load_benchmarks", "-v0")
        started = time.monotonic()
        _manage(env, "collectstatic", "--noinput", "-v0")
        collect_s = time.monotonic() - started
        _add_full_bundle(tmp / "static")
        session = _manage(env, "shell", "-c", SESSION).split()[-1]
        processes.append(
            _start(
                [
                    str(VENV_BIN / "gunicorn"),
                    "config.wsgi:application",
                    "--bind",
                    f"127.0.0.1:{web_port}",
                    "--workers",
                    "2",
                    "--timeout",
                    "60",
                ],
                env,
                tmp / "gunicorn.log",
            )  # fmt: skip
        )
        _wait_port("127.0.0.1", web_port, 30)
        figures = _measure(f"http://127.0.0.1:{web_port}", session)
    except Exception:
        log = tmp / "gunicorn.log"
        print(log.read_text(errors="replace")[-3000:] if log.exists() else "no gunicorn log", file=sys.stderr)
        raise
    finally:
        for proc in reversed(processes):
            _stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)
    figures["collectstatic_s"] = round(collect_s, 1)
    met = figures["cold_ms"] < GOAL_MS
    print(
        f"first chart, cold (fresh profile, plotly.js {figures['plotly_encoding']} "
        f"{figures['plotly_bytes_compressed'] / 1e6:.2f} MB): {figures['cold_ms']:.0f} ms "
        f"(goal < {GOAL_MS:.0f} ms: {'met' if met else 'NOT met'}); runs {figures['cold_all_ms']}"
    )
    print(f"first chart, warm (same profile, cached): {figures['warm_ms']:.0f} ms")
    print(
        f"baseline, same run: cold with the full plotly.js bundle ({figures['full_bundle_encoding']} "
        f"{figures['full_bundle_bytes_compressed'] / 1e6:.2f} MB): {figures['baseline_full_bundle_cold_ms']:.0f} ms "
        f"(cold/baseline {figures['cold_ms'] / figures['baseline_full_bundle_cold_ms']:.2f}x); "
        f"runs {figures['baseline_full_bundle_cold_all_ms']}"
    )
    if figures["baseline_csp_violations"]:
        print(f"Content-Security-Policy violations with the full bundle: {figures['baseline_csp_violations']}")
    print(f"collectstatic (hash + gzip + brotli): {figures['collectstatic_s']:.1f} s")
    if figures["csp_violations"]:
        print(f"Content-Security-Policy violations: {figures['csp_violations']}")
    record("first_chart", **figures)
    return 0 if not figures["csp_violations"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
