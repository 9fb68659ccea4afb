"""plotly.js for the pages: the basic bundle vendored in ``frontend/static/vendor/plotly/``.

The pages draw scatter and bar traces only, so they load plotly.js's *basic* bundle (npm
``plotly.js-basic-dist-min``, MIT, 1.2 MB) of the version the installed plotly package bundles,
not the package's full 4.8 MB ``plotly.min.js``: the browser's time to the first chart is mostly
the time to run the bundle (docs/speed.md).  ``make plotly-bundle`` (``frontend/plotly_bundle.py``)
refreshes it from the npm registry and records its version, license and sha512 in
``bundle.json``; the page gives that hash to the browser as Subresource Integrity.

It is an ordinary static file of ``frontend/static`` (WhiteNoise serves it; production stores a
hashed, compressed copy).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings

VENDOR_DIR = "vendor/plotly"


@dataclass(frozen=True)
class PlotlyBundle:
    """The vendored bundle, as ``bundle.json`` records it.

    Attributes
    ----------
    package, version, license : str
        npm package name, plotly.js version, SPDX license.
    static_path : str
        Path under ``STATIC_URL`` (``vendor/plotly/plotly-basic.min.js``).
    file : pathlib.Path
        The file on disk.
    file_integrity : str
        ``sha512-<base64>`` of the file (Subresource Integrity).
    tarball_integrity : str
        npm's ``dist.integrity`` of the package tarball it came from.
    """

    package: str
    version: str
    license: str
    static_path: str
    file: Path
    file_integrity: str
    tarball_integrity: str


@cache
def plotly_bundle() -> PlotlyBundle:
    folder = Path(settings.BASE_DIR) / "frontend" / "static" / VENDOR_DIR
    record = json.loads((folder / "bundle.json").read_text(encoding="utf-8"))
    return PlotlyBundle(
        package=record["package"],
        version=record["version"],
        license=record["license"],
        static_path=f"{VENDOR_DIR}/{record['file']}",
        file=folder / record["file"],
        file_integrity=record["file_integrity"],
        tarball_integrity=record["tarball_integrity"],
    )


def inline_style_hashes() -> list[str]:
    """CSP hash sources (``'sha256-...'``) of the ``<style>`` elements plotly.js writes itself.

    plotly.js appends an empty ``<style>`` for its own rules (filled through the CSSOM, which a
    policy does not restrict) and one with MapLibre's CSS (the basic bundle writes it too, though
    it draws no maps).  A strict ``style-src`` allows exactly these texts and nothing else inline.  Read from
    the vendored bundle, so a refreshed bundle brings its own hashes (a literal with escapes is
    skipped: its value would need a JS parser).
    """
    source = plotly_bundle().file.read_text(encoding="utf-8")
    texts = {""}
    assignment = re.compile(r"\.textContent=")
    literal = re.compile(r"'[^'\\]*'|\"[^\"\\]*\"")
    for created in re.finditer(r"createElement\(\"style\"\)", source):
        found = assignment.search(source, created.end(), created.end() + 400)
        text = literal.match(source, found.end()) if found else None
        if text:
            texts.add(text.group(0)[1:-1])
    return sorted(f"'sha256-{base64.b64encode(hashlib.sha256(t.encode()).digest()).decode()}'" for t in texts)
