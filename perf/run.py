"""`make bench`: run every speed benchmark; each prints its timings next to a baseline measured in the same run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    status = 0
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"\n== {script.name} (speedup = baseline seconds / our seconds) ==", flush=True)
        status |= subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False).returncode
    return status


if __name__ == "__main__":
    raise SystemExit(main())
