"""The repository tests alone: a plain clone has everything the tests read (ISSUE 13 item 6)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# tests/data/README.md records the digest of each copied file.
README = REPO / "tests" / "data" / "README.md"

# A path that leaves the repository: a "shared" folder beside it, or a climb above the repo root.
OUTSIDE = re.compile(r"""\.\./shared|["']shared["']|parents\[[2-9]\]\.parent|parent\.parent\.parent\.parent""")


def test_no_test_or_benchmark_reads_the_sibling_shared_folder() -> None:
    offenders = []
    for folder in ("tests", "perf", "config", "sizing", "models_lib"):
        for path in (REPO / folder).rglob("*.py"):
            if path == Path(__file__).resolve():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if OUTSIDE.search(line):
                    offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert offenders == []


def test_copied_reference_files_match_the_digests_in_their_provenance_readme() -> None:
    rows = re.findall(r"^\| `([^`]+)` \|[^|]*\| `([0-9a-f]{64})` \|", README.read_text(encoding="utf-8"), re.MULTILINE)
    assert rows, "tests/data/README.md lists no file with a sha256"
    for name, digest in rows:
        assert hashlib.sha256((README.parent / name).read_bytes()).hexdigest() == digest, name
    listed = {name for name, _ in rows}
    present = {
        p.relative_to(README.parent).as_posix()
        for p in README.parent.rglob("*")
        if p.is_file() and p.name != "README.md"
    }
    assert present == listed, "every file in tests/data needs a provenance row"
