"""The vendored plotly.js basic bundle is the npm package of the plotly package's own plotly.js version.

``make plotly-bundle`` (frontend/plotly_bundle.py) fetched it with ``npm pack``, which checks the
tarball against the registry's ``dist.integrity``; ``bundle.json`` records that and the sha512
of the file.  These checks need no network: the file served must be the file recorded.
"""

from __future__ import annotations

import base64
import hashlib
import json
from importlib.metadata import version as dist_version

import pytest

from sizing.plotly_static import plotly_bundle


def _sha512(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def test_the_bundle_is_the_basic_build_of_the_plotly_packages_plotly_js() -> None:
    from plotly.offline import get_plotlyjs_version

    bundle = plotly_bundle()
    record = json.loads((bundle.file.parent / "bundle.json").read_text())
    assert bundle.package == "plotly.js-basic-dist-min"
    # plotly 7.1.0 (requirements.txt) bundles plotly.js 4.1.1: plotly.offline.get_plotlyjs_version().
    assert bundle.version == get_plotlyjs_version()
    assert record["python_plotly"] == dist_version("plotly")
    # The file's own header names the build and the version.
    header = bundle.file.read_bytes()[:200].decode()
    assert f"plotly.js (basic - minified) v{bundle.version}" in header
    assert "Licensed under the MIT license" in header
    # npm's dist.integrity of plotly.js-basic-dist-min@4.1.1, as `npm view ... dist.integrity` printed it.
    assert bundle.tarball_integrity == (
        "sha512-1oNF8PeQx2hv/y7tqEVWKD3JGwn/MGEMQ8mL9HUwsaqG9FGy/OU5FHUHvzqbqxN4mnwZGI9abTiE775C4kkjMQ=="
    )
    assert record["file_bytes"] == bundle.file.stat().st_size


def test_the_license_travels_with_the_bundle() -> None:
    bundle = plotly_bundle()
    assert bundle.license == "MIT"
    text = (bundle.file.parent / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Plotly" in text


@pytest.mark.django_db
def test_the_served_file_matches_the_recorded_sha512(client: object) -> None:
    bundle = plotly_bundle()
    response = client.get(f"/static/{bundle.static_path}")  # type: ignore[attr-defined]
    assert response.status_code == 200
    served = b"".join(response.streaming_content)
    assert _sha512(served) == bundle.file_integrity
