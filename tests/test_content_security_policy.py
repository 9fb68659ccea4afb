"""The UI runs under a strict Content-Security-Policy (config.security): nothing inline to block.

The browser tests (tests/sizing/test_ui_browser.py) fail on any console error, which is where
Chromium reports a blocked script or style; this check names the template that would cause it.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest

from config.security import DEFAULT_POLICY, policy_header
from sizing.plotly_static import inline_style_hashes

TEMPLATES = sorted((Path(__file__).resolve().parent.parent / "frontend" / "templates").rglob("*.html"))
INLINE = {
    "inline <script> (move it to frontend/static)": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "<style> block (move it to app.css)": re.compile(r"<style\b", re.I),
    "style= attribute (use a class)": re.compile(r"\sstyle\s*=", re.I),
    "on...= event handler (use addEventListener)": re.compile(r"\son[a-z]+\s*=\s*[\"']", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
}


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.name)
def test_templates_have_nothing_the_policy_would_block(template: Path) -> None:
    html = template.read_text(encoding="utf-8")
    found = [what for what, pattern in INLINE.items() if pattern.search(html)]
    assert found == [], f"{template.name}: {found}"


def test_policy_allows_only_this_origin() -> None:
    header = policy_header(DEFAULT_POLICY)
    assert header.startswith("default-src 'self'; script-src 'self'; style-src 'self';")
    assert "unsafe-inline" not in header and "unsafe-eval" not in header and "http" not in header
    assert "object-src 'none'" in header and "frame-ancestors 'none'" in header


def test_plotly_inline_styles_are_allowed_by_hash_only() -> None:
    hashes = inline_style_hashes()
    # The empty <style> plotly fills through the CSSOM: sha256 of b"" (hashlib), the hash
    # Chromium quotes in plotly.js issue #2355.
    assert "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='" in hashes
    assert "'sha256-" + base64.b64encode(hashlib.sha256(b"").digest()).decode() + "'" in hashes
    # plotly.js 4.1.1 (plotly 7.1.0), basic bundle as the full one, also writes MapLibre's CSS: the hash Chromium printed when
    # the policy refused it.
    assert "'sha256-ji27qzEtxXZW+7dun6UwjHXJ18e6WAin1VvNtkzIE/o='" in hashes
    assert len(hashes) == 2


@pytest.mark.django_db
def test_every_page_carries_the_policy(client: object) -> None:
    header = client.get("/login/")["Content-Security-Policy"]  # type: ignore[attr-defined]
    expected = DEFAULT_POLICY | {"style-src": " ".join(["'self'", *inline_style_hashes()])}
    assert header == policy_header(expected)
