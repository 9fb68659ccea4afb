"""Every page of the app with real content on it, for the browser tests and ``make screenshot``.

``build(user)`` stores, through the app's own API (as the signed-in engineer would), what the
pages show: five saved estimates (one of each kind of answer), a capacity plan, a private
calibration, a machine of "Your machines" and a price book.  ``pages(ids)`` lists every page of
``sizing/urls.py`` and ``config/urls.py`` that a person reads, each with what to wait for before
the page is complete and what to click to draw a panel's answer.

The five kinds of answer (issue 30):

* fits: FiTeq multi-region on a z17 at 7,000 TPS;
* overloaded on given CPs: z/OS Connect on a z16 with 2 CPs at 3,000 TPS (4 needed);
* does not fit: FiTeq multi-region on a z10 at 60,000 TPS (the software station saturates first);
* a lower-bound saturation: z/OS Connect 256 KB payloads on a z13 at 800 TPS (the central cost
  is the published upper bound: tests/models_lib/test_engine.py);
* no CPU data: HostBridge (tuned TCP/IP) on a z16 at 1,000 TPS.

It needs the published reference data loaded (``manage.py load_benchmarks``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

SCENARIOS: dict[str, dict[str, Any]] = {
    "fits": {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z17", "tps": 7000},
    "overloaded": {"path": "zosconnect-cics", "configuration": "channel", "machine": "z16", "cps": 2, "tps": 3000},
    "does-not-fit": {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z10", "tps": 60000},
    "lower-bound": {
        "path": "zosconnect-cics",
        "configuration": "channel",
        "machine": "z13",
        "payload_bytes": 262144,
        "tps": 800,
    },
    "no-cpu": {"path": "hostbridge-http", "configuration": "tuned-tcpip", "machine": "z16", "tps": 1000},
}
NAMES = {
    "fits": "Bank A payments, z17",
    "overloaded": "API layer on 2 CPs",
    "does-not-fit": "Bank A 2030 peak on the z10",
    "lower-bound": "Large payloads, z13",
    "no-cpu": "HostBridge front end",
}
#: A plan of two workloads over three years on z16 and z17 models (tests/sizing/test_plans.py's
#: workloads, fewer years).
PLAN = {
    "name": "API layer and CICS",
    "horizon_years": 3,
    "workloads": [
        {"path": "zosconnect-cics", "configuration": "channel", "tps": 2000, "peak_ratio": 1.5, "growth_pct": 25},
        {"path": "cicsts-catalog", "configuration": "v5.3", "tps": 60000, "peak_ratio": 1.3, "growth_pct": 10},
    ],
    "candidates": ["3931-708", "9175-708"],
    "generations": ["z17"],
}
#: tests/sizing/test_price_book.py's book.
PRICE_BOOK = {
    "currency": "EUR", "term_years": 5, "cp_price": 100_000.0, "cp_basis": "one-off",
    "specialty_price": 20_000.0, "specialty_basis": "per-year", "msu_price": 1_200.0, "msu_basis": "installed",
}  # fmt: skip

#: Every visible chart drawn (a Plotly SVG) or saying why it is empty.
DRAWN = """() => [...document.querySelectorAll('div.chart')].filter(c => c.offsetParent !== null)
  .every(c => c.querySelector('.main-svg') || c.querySelector('.chart-empty') || c.textContent.trim())"""
#: No CSS transition or animation under way (a job's progress bar slides, app.css): what the
#: page shows is at rest.  An endless animation (a spinner) is left out: it never ends.
SETTLED = """() => document.getAnimations().every((a) => a.playState !== 'running'
  || a.effect === null || a.effect.getComputedTiming().iterations === Infinity)"""
#: The workbench answered the question in its address.
ANSWERED = """() => !document.getElementById('results').hidden
  && document.getElementById('result-title').textContent.length > 0
  && document.getElementById('size-status').textContent.startsWith('Updated')"""

#: A form posted to a URL with no CSRF token.
SEND = """url => { const f = Object.assign(document.createElement('form'), {method: 'post', action: url});
  document.body.append(f); f.submit(); }"""


def _table_11_1_intervals() -> list[dict[str, Any]]:
    """REDP-5114 Table 11-1 (FiTeq, multiple regions) as the product loads it, posted as a
    customer's own RMF intervals on the 2827-710 it was measured on (as
    tests/sizing/test_calibrations_api.py does)."""
    from sizing.models import BenchmarkPoint

    rows = BenchmarkPoint.objects.filter(configuration__slug="multi-region", reference__table="Table 11-1")
    out = []
    for row in rows.prefetch_related("metrics").order_by("etr"):
        metrics = {m.name: m for m in row.metrics.all()}
        lpar = metrics["lpar_cpu"]
        cpu = {"lpar": lpar.value * lpar.engines, "cics": metrics["cics_cpu"].value}
        cpu["smsvsam"] = metrics["smsvsam_cpu"].value
        out.append({"etr": row.etr, "cpu_pct": cpu, "response_time_ms": row.response_time_ms, "cps": 10})
    return out


def build(user: Any) -> dict[str, int]:
    """Store the pages' content for ``user`` through the API; the ids of what was stored."""
    from django.test import override_settings
    from rest_framework.test import APIClient

    from sizing.api.cec_views import EXAMPLE as CEC  # the API's example machine: three LPARs on a z15 T01

    client = APIClient()
    client.force_authenticate(user)

    def made(response: Any) -> int:
        assert response.status_code in (200, 201), (response.status_code, response.content[:500])
        return int(response.json()["id"])

    ids: dict[str, int] = {}
    with override_settings(ALLOWED_HOSTS=["testserver"], ZSIZER_PLAN_INLINE_EVALUATIONS=1000):
        for kind, inputs in SCENARIOS.items():
            if kind == "no-cpu":
                continue  # an answer without CPU data is not saved (nothing to keep)
            ids[kind] = made(client.post("/api/v1/estimates/", {**inputs, "name": NAMES[kind]}, format="json"))
        ids["plan"] = made(client.post("/api/v1/plans/", PLAN, format="json"))
        ids["cec"] = made(client.post("/api/v1/cecs/", CEC, format="json"))
        calibration = {"name": "Bank A, March peak", "path": "fiteq-authenticator", "model": "2827-710"}
        body = {**calibration, "intervals": _table_11_1_intervals()}
        ids["calibration"] = made(client.post("/api/v1/calibrations/", body, format="json"))
        response = client.put("/api/v1/price-book", PRICE_BOOK, format="json")
        assert response.status_code in (200, 201), response.content[:500]
    return ids


@dataclass(frozen=True)
class Click:
    """Press a button (by its accessible name) and wait for what it draws."""

    button: str
    ready: str  # a CSS selector of the answer
    choose: str | None = None  # a radio (by its label) to pick first


@dataclass(frozen=True)
class Page:
    name: str  # a file name: docs/pictures/<name>-<width>.png
    url: str
    ready: str | None = None  # a JS predicate beside DRAWN
    signed_in: bool = True
    status: int = 200
    clicks: tuple[Click, ...] = field(default=())
    picture: bool = True  # kept in docs/pictures/ by `make screenshot`
    post: bool = False  # a form sent to the URL without its CSRF token (from the paths page)


def size_url(inputs: dict[str, Any]) -> str:
    return "/size/?" + urlencode(inputs)


def pages(ids: dict[str, int]) -> list[Page]:
    """Every page a person reads, with ``build``'s content."""
    out = [
        Page("login", "/login/", signed_in=False),
        Page("paths", "/"),
        Page(
            "size-fits",
            size_url(SCENARIOS["fits"]),
            ANSWERED,
            clicks=(
                Click("Which model fits?", "#fit-result table"),
                Click("Compare with the newest machines", "#upgrade-result table"),
                Click("Start", "#job-result:not([hidden]) .chart .main-svg", choose="Curve"),
            ),
        ),
        Page(
            "size-overloaded",
            size_url(SCENARIOS["overloaded"]),
            ANSWERED,
            clicks=(Click("Start", "#job-result:not([hidden]) #job-table table", choose="Batch (CSV)"),),
        ),
        Page("size-does-not-fit", size_url(SCENARIOS["does-not-fit"]), ANSWERED),
        Page("size-lower-bound", size_url(SCENARIOS["lower-bound"]), ANSWERED),
        Page("size-no-cpu", size_url(SCENARIOS["no-cpu"]), ANSWERED),
        Page("estimates", "/estimates/"),
        *(Page(f"estimate-{kind}", f"/estimates/{ids[kind]}/") for kind in SCENARIOS if kind in ids),
        Page("compare", f"/estimates/compare/?id={ids['fits']}&id={ids['overloaded']}&id={ids['lower-bound']}"),
        Page("compare-refused", f"/estimates/compare/?id={ids['fits']}", status=400, picture=False),
        Page("plans", f"/plans/?plan={ids['plan']}", "() => !!document.querySelector('#plan-chart .main-svg')"),
        Page("cecs", f"/cecs/?cec={ids['cec']}"),
        Page("calibrations", "/calibrations/"),
        Page("calibration-new", "/calibrations/new/"),
        Page("calibration", f"/calibrations/{ids['calibration']}/"),
        Page("prices", "/prices/"),
        Page("reference", "/reference/"),
        Page("reference-fiteq", "/reference/fiteq-redp5114/"),
        Page("lspr", "/reference/lspr/"),
        # one sub-capacity setting's 39 models (the full list of 300 rows reads the same, and takes
        # axe-core a minute or more on a shared machine)
        Page("lspr-z16", "/reference/lspr/z16/?setting=400"),
        Page("api-docs", "/api/docs/", "() => document.querySelectorAll('.opblock').length > 0", signed_in=False),
        Page("not-found", "/no-such-page/", status=404, picture=False),
        # a form sent without its token (an old tab): refused, nothing stored
        Page("form-expired", "/prices/", status=403, picture=False, post=True),
    ]
    return out


def visit(pg: Any, base: str, page: Page, timeout_ms: int = 60_000) -> None:
    """Open ``page`` in a Playwright page, wait until it is complete and press its buttons.

    A page that does not complete fails with its name, the step it was at and what the browser's
    console said (errors and uncaught exceptions), so that the cause can be read from the test's
    output."""
    said: list[str] = []

    def console(message: Any) -> None:
        if message.type in ("error", "warning"):
            said.append(f"console {message.type}: {message.text}")

    def uncaught(error: Any) -> None:
        said.append(f"uncaught: {getattr(error, 'stack', None) or error}")

    pg.on("console", console)
    pg.on("pageerror", uncaught)
    step = "open"
    try:
        if page.post:
            pg.goto(f"{base}/", wait_until="networkidle", timeout=timeout_ms)
            with pg.expect_navigation(wait_until="networkidle", timeout=timeout_ms) as sent:
                pg.evaluate(SEND, f"{base}{page.url}")
            response = sent.value
        else:
            response = pg.goto(f"{base}{page.url}", wait_until="networkidle", timeout=timeout_ms)
        assert response is not None and response.status == page.status, (page.name, response and response.status)
        if page.ready:
            step = "ready"
            pg.wait_for_function(page.ready, timeout=timeout_ms)
        step = "charts drawn"
        pg.wait_for_function(DRAWN, timeout=timeout_ms)
        for click in page.clicks:
            step = f"click {click.button!r}"
            if click.choose:
                pg.get_by_label(click.choose, exact=True).check()
            pg.get_by_role("button", name=click.button, exact=True).click()
            pg.wait_for_selector(click.ready, state="attached", timeout=timeout_ms)
            pg.wait_for_function(DRAWN, timeout=timeout_ms)
        step = "at rest"
        pg.wait_for_function(SETTLED, timeout=timeout_ms)
    except Exception as error:
        console_said = "\n".join(dict.fromkeys(said)) or "(nothing in the console)"  # each line once
        raise AssertionError(f"page {page.name!r} ({page.url}) at {step}: {error}\n{console_said}") from error
    finally:
        pg.remove_listener("console", console)
        pg.remove_listener("pageerror", uncaught)
