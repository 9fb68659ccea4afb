"""plotly.js as a static file: ``static/vendor/plotly.min.js``, taken from the installed plotly package.

A staticfiles finder, so that WhiteNoise serves it like the app's own files: collected, hashed
and gzip-compressed by ``collectstatic`` in production (immutable, cached for a year), found
in place in development.  Only the one file is exposed, not the rest of the package's data.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from django.contrib.staticfiles.finders import BaseFinder
from django.core.exceptions import ImproperlyConfigured
from django.core.files.storage import FileSystemStorage

STATIC_PATH = "vendor/plotly.min.js"
_PREFIX, _NAME = STATIC_PATH.rsplit("/", 1)


@cache
def _storage() -> FileSystemStorage:
    spec = importlib.util.find_spec("plotly")  # where the package is, without importing it
    if spec is None or not spec.submodule_search_locations:
        raise ImproperlyConfigured("The plotly package is not installed (requirements.txt).")
    package = Path(next(iter(spec.submodule_search_locations))).resolve()
    storage = FileSystemStorage(location=package / "package_data")
    storage.prefix = _PREFIX  # type: ignore[attr-defined]  # read by collectstatic and WhiteNoise
    return storage


class PlotlyFinder(BaseFinder):
    """Finds ``vendor/plotly.min.js`` in the plotly package and nothing else."""

    def check(self, **kwargs: Any) -> list[Any]:
        return []

    # django-stubs say str | None for one match; Django's own finders answer [] for none.
    def find(self, path: str, find_all: bool = False) -> str | list[str]:  # type: ignore[override]
        if path != STATIC_PATH:
            return []
        found = _storage().path(_NAME)
        return [found] if find_all else found

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        yield _NAME, _storage()


def inline_style_hashes() -> list[str]:
    """CSP hash sources (``'sha256-...'``) of the ``<style>`` elements plotly.js writes itself.

    plotly.js appends an empty ``<style>`` for its own rules (filled through the CSSOM, which a
    policy does not restrict) and one with MapLibre's CSS; a strict ``style-src`` allows exactly
    these texts and nothing else inline.  Read from the installed bundle, so an upgrade of plotly
    brings its own hashes (a literal with escapes is skipped: its value would need a JS parser).
    """
    source = Path(_storage().path(_NAME)).read_text(encoding="utf-8")
    texts = {""}
    assignment = re.compile(r"\.textContent=")
    literal = re.compile(r"'[^'\\]*'|\"[^\"\\]*\"")
    for created in re.finditer(r"createElement\(\"style\"\)", source):
        found = assignment.search(source, created.end(), created.end() + 400)
        text = literal.match(source, found.end()) if found else None
        if text:
            texts.add(text.group(0)[1:-1])
    return sorted(f"'sha256-{base64.b64encode(hashlib.sha256(t.encode()).digest()).decode()}'" for t in texts)
