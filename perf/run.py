"""`make bench`: run every speed benchmark; each prints its timings next to a baseline measured in the same run."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    sys.path.insert(0, str(HERE.parent))
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"\n== {script.name} ==", flush=True)
        runpy.run_path(str(script), run_name="__main__")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
