"""Content Security Policy: one header on every response, the same in development and production.

The policy allows only this server's own scripts, styles, images and connections: the pages load
their JavaScript as modules from ``static/`` and plotly.js's basic bundle vendored there
(``frontend/static/vendor/plotly``), so no inline script, inline style attribute or third-party origin is
needed.  ``data:`` images are allowed for Plotly's mode bar icons and the favicon placeholder.

One exception, for plotly.js: it writes its own CSS into ``<style>`` elements (an empty one it
fills through the CSSOM, which a policy does not restrict, and one with MapLibre's CSS).  The
policy allows exactly those texts by their hashes, read from the vendored bundle
(``sizing.plotly_static.inline_style_hashes``), and nothing else inline.  (plotly.js issue #2355:
Chromium's refusal quotes the empty string's hash.)
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

DEFAULT_POLICY: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def policy_header(policy: dict[str, str]) -> str:
    """``{"default-src": "'self'", ...}`` -> ``default-src 'self'; ...`` (directives in the given order)."""
    return "; ".join(f"{name} {value}".strip() for name, value in policy.items())


#: Browser features no page of the app uses, turned off for every page (and anything it embeds).
PERMISSIONS_POLICY = (
    "accelerometer=(), autoplay=(), camera=(), display-capture=(), encrypted-media=(), fullscreen=(self), "
    "geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), "
    "picture-in-picture=(), publickey-credentials-get=(), screen-wake-lock=(), usb=(), xr-spatial-tracking=()"
)


class ContentSecurityPolicyMiddleware:
    """Add ``Content-Security-Policy`` (settings.ZSIZER_CSP) unless a view set its own, and
    ``Permissions-Policy``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        from sizing.plotly_static import inline_style_hashes

        policy = dict(getattr(settings, "ZSIZER_CSP", DEFAULT_POLICY))
        policy["style-src"] = " ".join([policy.get("style-src", "'self'"), *inline_style_hashes()])
        self.header = policy_header(policy)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.header
        if "Permissions-Policy" not in response:
            response["Permissions-Policy"] = PERMISSIONS_POLICY
        return response
