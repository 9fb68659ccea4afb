"""Refresh the vendored plotly.js basic bundle from the npm registry (``make plotly-bundle``).

The pages draw scatter and bar traces only, which is what plotly.js's *basic* bundle holds
(npm package ``plotly.js-basic-dist-min``, MIT): 1.2 MB of JavaScript instead of the full
bundle's 4.8 MB, and the browser's time to the first chart is mostly the time to run it.

The version is the one the installed Python ``plotly`` package bundles (requirements.txt pins
it), so the charts the pages draw and the figures the Python side builds speak the same
plotly.js.  ``npm pack`` fetches the tarball and checks it against the registry's
``dist.integrity`` (sha512); this script checks that hash again, takes ``plotly-basic.min.js``
and ``LICENSE`` out of it, and records in ``bundle.json`` the package, version, license, the
tarball's integrity and the sha512 of the file itself, which the tests compare with the
served file and the page gives the browser as Subresource Integrity.

Run it after upgrading plotly in requirements.txt; commit the three files it writes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "plotly.js-basic-dist-min"
FILE = "plotly-basic.min.js"
TARGET = Path(__file__).resolve().parent / "static" / "vendor" / "plotly"


def sha512_integrity(data: bytes) -> str:
    """Subresource-Integrity form, as npm writes ``dist.integrity``: ``sha512-<base64>``."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _npm(*args: str, cwd: Path | None = None) -> object:
    done = subprocess.run(["npm", *args, "--json"], cwd=cwd, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def main() -> int:
    from importlib.metadata import version as dist_version

    from plotly.offline import get_plotlyjs_version

    version = get_plotlyjs_version()
    spec = f"{PACKAGE}@{version}"
    meta = _npm("view", spec, "version", "license", "dist")
    assert isinstance(meta, dict), meta
    if meta.get("version") != version:
        raise SystemExit(f"npm has no {spec} (answered {meta.get('version')!r})")
    with tempfile.TemporaryDirectory(prefix="plotly-bundle-") as tmp:
        packed = _npm("pack", spec, "--pack-destination", tmp, cwd=Path(tmp))
        assert isinstance(packed, list) and packed, packed
        tarball = Path(tmp) / packed[0]["filename"]
        integrity = sha512_integrity(tarball.read_bytes())
        if integrity != meta["dist"]["integrity"]:
            raise SystemExit(f"{tarball.name}: sha512 {integrity} is not the registry's {meta['dist']['integrity']}")
        members = {}
        with tarfile.open(tarball, "r:gz") as archive:
            for name in (FILE, "LICENSE"):
                member = archive.extractfile(f"package/{name}")
                if member is None:
                    raise SystemExit(f"{tarball.name} has no package/{name}")
                members[name] = member.read()
    header = members[FILE][:200].decode("utf-8", errors="replace")
    if f"v{version}" not in header:
        raise SystemExit(f"{FILE} does not say v{version} in its header: {header!r}")
    TARGET.mkdir(parents=True, exist_ok=True)
    for name, data in members.items():
        (TARGET / name).write_bytes(data)
    record = {
        "package": PACKAGE,
        "version": version,
        "license": meta["license"],
        "tarball": meta["dist"]["tarball"],
        "tarball_integrity": integrity,
        "file": FILE,
        "file_integrity": sha512_integrity(members[FILE]),
        "file_bytes": len(members[FILE]),
        "python_plotly": dist_version("plotly"),
    }
    (TARGET / "bundle.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(f"{PACKAGE} {version} ({record['license']}): {len(members[FILE]):,} bytes -> {TARGET / FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
