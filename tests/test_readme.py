"""README.md is a user's page: short, its two commands, a current picture, and links that resolve.

The picture is taken by ``make screenshot`` (frontend/screenshot.py) from the running workbench.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")


def test_readme_is_at_most_16000_characters() -> None:
    assert len(README) <= 16_000, len(README)


def test_readme_gives_the_two_commands_and_another_port() -> None:
    assert "make run" in README and "make test" in README
    assert "make run PORT=8301" in README
    # The Makefile serves on $(PORT): `make run PORT=8301` is what it reads.
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert "PORT ?= 8000" in makefile and "runserver $(HOST):$(PORT)" in makefile


def test_the_screenshot_is_a_png_the_screenshot_target_writes() -> None:
    assert "](docs/workbench.png)" in README
    png = (REPO / "docs" / "workbench.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk: width and height, big-endian
    assert (width, height) == (1280, 1000)  # frontend/screenshot.py's WIDTH, HEIGHT
    assert "screenshot:" in (REPO / "Makefile").read_text(encoding="utf-8")


def test_every_file_the_readme_names_exists() -> None:
    named = set(re.findall(r"`((?:docs|config|frontend|sizing|perf|benchmarks)/[\w./-]+)`", README))
    named |= set(re.findall(r"\]\(((?!https?:)[^)#]+)\)", README))
    assert named, "the README names no file"
    missing = sorted(n for n in named if not (REPO / n).exists())
    assert missing == []
