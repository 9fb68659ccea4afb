"""``/api/docs/`` (Swagger UI from drf-spectacular-sidecar) runs under the Content-Security-Policy.

drf-spectacular's page carries an inline ``<style>``, which ``style-src 'self'`` refuses (Chromium
logs it as a console error); frontend/templates/drf_spectacular/swagger_ui.html moves it to a
static file.  The page is opened in Debian's Chromium and must list every operation of the
schema, open one operation and one schema, log no console error and report no policy violation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from django.test import Client

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', e => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
"""


def test_api_docs_draw_every_operation_with_no_console_error(live_server: Any) -> None:
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)"
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    operations = sum(1 for item in schema.json()["paths"].values() for method in item if method in METHODS)
    assert operations >= 12  # as tests/sizing/test_openapi.py counts them
    connections.close_all()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.add_init_script(WATCH)
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            response = page.goto(f"{live_server.url}/api/docs/", wait_until="networkidle")
            assert response is not None and "style-src 'self'" in response.headers["content-security-policy"]
            page.wait_for_selector(".opblock")
            assert page.locator(".opblock").count() == operations
            page.locator(".opblock-summary").first.click()
            page.wait_for_selector(".opblock-body")
            # The schema is OpenAPI 3.1: Swagger UI draws its schemas as JSON Schema 2020-12.
            first_schema = page.locator(".models .json-schema-2020-12").first
            first_schema.scroll_into_view_if_needed()
            first_schema.locator(".json-schema-2020-12-accordion").first.click()
            page.wait_for_selector(".models .json-schema-2020-12-property")
            assert page.evaluate("window.__cspViolations") == []
            assert errors == []
        finally:
            browser.close()
