"""Speed of the RMF Workload Activity parser against a plain baseline in the same run (not a test).

Run ``python perf/bench_rmf.py``.  Rows (best of several repeats, time.perf_counter):

* the five seed extracts (tests/data/rmf/) repeated to about 1,000,000 characters (the largest
  report accepted): ``parse_workload_activity`` against the bare work of any line reader,
  ``str.splitlines`` plus ``str.split`` of every line;
* the same size of junk: the five extracts followed by prose lines to 1,000,000 characters
  (read, the prose skipped), one 1,000,000-character line (refused), binary (refused at once).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from models_lib.rmf import MAX_REPORT_CHARS, parse_workload_activity  # noqa: E402
from perf.record import record  # noqa: E402
from perf.timing import best_of  # noqa: E402


def _refused(text: str) -> Callable[[], None]:
    def run() -> None:
        try:
            parse_workload_activity(text)
        except ValueError:
            return
        raise AssertionError("expected a refusal")

    return run


def main() -> int:
    extracts = "".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "tests/data/rmf").glob("*.txt")))
    big = extracts * (MAX_REPORT_CHARS // len(extracts))
    sections = len(parse_workload_activity(big).sections)
    baseline = best_of(lambda: [line.split() for line in big.splitlines()], 3)
    cases = {
        f"parse {len(big):,} chars ({sections} sections)": lambda: parse_workload_activity(big),
        "5 extracts + prose to 1,000,000 chars": lambda: parse_workload_activity(
            extracts + "prose line\n" * ((MAX_REPORT_CHARS - len(extracts)) // 11)
        ),
        "one 999,999-char line (refused)": _refused("A" * (MAX_REPORT_CHARS - 1)),
        "binary, 1,000,000 chars (refused)": _refused("\x00\x01" * (MAX_REPORT_CHARS // 2)),
    }
    print(f"{'name':44s} {'seconds':>10s} {'baseline':>10s} {'ratio':>7s}   (baseline: splitlines + split)")
    for name, func in cases.items():
        seconds = best_of(func, 3)
        record("rmf", name=name, seconds=seconds, baseline="splitlines+split", baseline_seconds=baseline)
        print(f"{name:44s} {seconds:10.4f} {baseline:10.4f} {seconds / baseline:7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
