"""The engine alone on a batch's groups: a prepared workload's answers at an array of rates
(``PreparedWorkload.answers``) against its scalar answer at each rate (not a test).

Run ``python perf/bench_group.py`` (``make bench`` runs it with the others; no database).  The
workloads are ``perf/bench_batch.py``'s: its four sized paths on z13, z16, zEC12 and z17, 25
rates each (``RATES``), the rates close together as that bench's (``tps x (0.5 + n x 1e-6)``).
Each prepared workload is made and warmed once (the fitted models and what it fills on first
use), so the figures are the per-rate cost of the answers: the typed answers, and the typed
answers with their JSON (``to_dict``, as the batch stores them).

Figures: CPU time (``time.process_time``, which the load of a shared machine moves less than
the wall clock) per answer, best of ``REPEATS`` passes over the 16 workloads, the scalar and
the group's passes interleaved in one process; the load average is printed beside them.
``python perf/bench_group.py --profile`` prints a cProfile of the group's answers instead.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from models_lib.prepared import PreparedWorkload, prepare  # noqa: E402
from perf.record import record  # noqa: E402
from tests.models_lib import published  # noqa: E402  (reads benchmarks/*.yaml)
from tests.models_lib.engine_data import table  # noqa: E402

RATES = int(os.environ.get("ZSIZER_BENCH_GROUP_RATES", "25"))
REPEATS = int(os.environ.get("ZSIZER_BENCH_GROUP_REPEATS", "5"))
#: perf/bench_batch.py's paths and rates.
SCENARIOS = [
    ("zosconnect-cics", "channel", 2000.0),
    ("cicstg", "ipic-channel-64", 2000.0),
    ("cicsts-catalog", "v5.3", 20000.0),
    ("fiteq-authenticator", "multi-region", 5000.0),
]
#: perf/bench_batch.py's machines by type (benchmarks/machines.yaml): z13, z16 A01, zEC12, z17 ME1.
MACHINES = {"z13": "2964", "z16": "3931", "zec12": "2827", "z17": "9175"}


def workloads() -> list[tuple[PreparedWorkload, list[float]]]:
    """The 16 prepared workloads, each with its rates, warmed by one answer."""
    out = []
    for slug, machine_type in MACHINES.items():
        for path, configuration, tps in SCENARIOS:
            cfg = published.configuration(path, configuration)
            pw = prepare(cfg, target_machine=slug, target_machine_type=machine_type, capacity=table())
            pw.answer(tps)
            out.append((pw, [tps * (0.5 + n * 1e-6) for n in range(RATES)]))
    return out


def cpu_of(func: Callable[[], object]) -> float:
    start = time.process_time()
    func()
    return time.process_time() - start


def main() -> int:
    groups = workloads()
    n = sum(len(rates) for _, rates in groups)

    def scalar(json: bool) -> Callable[[], object]:
        def run() -> None:
            for pw, rates in groups:
                for t in rates:
                    a = pw.answer(t)
                    if json:
                        a.to_dict()

        return run

    def grouped(json: bool) -> Callable[[], object]:
        def run() -> None:
            for pw, rates in groups:
                for a in pw.answers(rates):
                    if json:
                        a.to_dict()

        return run

    if "--profile" in sys.argv:
        prof = cProfile.Profile()
        prof.runcall(grouped("--json" in sys.argv))
        pstats.Stats(prof).sort_stats("tottime").print_stats(40)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(60)
        return 0
    runs = {"scalar": scalar(False), "grouped": grouped(False), "scalar+json": scalar(True), "grouped+json": grouped(True)}  # fmt: skip
    best = dict.fromkeys(runs, float("inf"))
    load_before = os.getloadavg()
    for _ in range(REPEATS):
        for name, func in runs.items():
            best[name] = min(best[name], cpu_of(func))
    load_after = os.getloadavg()
    ms = {name: seconds / n * 1000.0 for name, seconds in best.items()}
    load = f"load average {load_before[0]:.1f} -> {load_after[0]:.1f}"
    print(f"{len(groups)} workloads x {RATES} rates, CPU ms per answer, best of {REPEATS}, {load}")
    print(f"answers          scalar {ms['scalar']:7.3f}   grouped {ms['grouped']:7.3f}   ratio {ms['scalar'] / ms['grouped']:5.2f}")  # fmt: skip
    print(f"answers + JSON   scalar {ms['scalar+json']:7.3f}   grouped {ms['grouped+json']:7.3f}   ratio {ms['scalar+json'] / ms['grouped+json']:5.2f}")  # fmt: skip
    record(
        "group", answers=n, scalar_cpu_ms=ms["scalar"], grouped_cpu_ms=ms["grouped"],
        scalar_json_cpu_ms=ms["scalar+json"], grouped_json_cpu_ms=ms["grouped+json"],
        load_average=[load_before[0], load_after[0]],
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
