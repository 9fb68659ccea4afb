"""Cost of a batch row: distinct scenarios against one repeated (cached) scenario (not a test).

Run ``python perf/bench_batch.py`` (``make bench`` runs it with the others).  It works on the
bench database (``ZSIZER_BENCH_DATABASE_URL``, as ``perf/stack.py``; migrated and loaded here),
in-process, no server, through the batch job's own function (``RUNNERS["batch"]``: each row
validated by the estimate's input form, sized by the estimate service, flattened):

* distinct rows: ``ROWS`` rows, each a scenario never asked before in the process (the four
  sized paths, z/OS Connect included, on z13, z16, zEC12 and z17, every rate new), so each is
  computed (the fitted models and reference data are cached, the answers are not);
* the baseline, the same batch of one scenario repeated ``ROWS`` times: every row but the first
  answered from the answer cache.

The batch sizes the rows that share a prepared workload together (the same configuration,
target and options but the rate: here 16 groups of 25 rates), the prepared workload evaluated at
the array of their rates (``PreparedWorkload.answers``, ``models_lib/group.py``).

Figures: ms per row, best of ``REPEATS`` batches of each, interleaved (every repetition of the
distinct batch with rates of its own), wall clock and this process's CPU time; beside them the
machine's load average (1 minute) before and after, and the garbage collector's CPU time in the
best batch of each kind (a distinct batch keeps new answers, so about every other one pays a
full collection; best of ``REPEATS`` mostly leaves those out).  Goals (issue 28 item 4, "A batch
at the engine's speed"): distinct <= 0.5 ms per row and <= 2x the repeated row in the same run
(issue 21's were 2.5 ms and 3x).
"""

from __future__ import annotations

import gc
import itertools
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from perf.record import record  # noqa: E402
from perf.stack import _ensure_database, _manage  # noqa: E402

ROWS = int(os.environ.get("ZSIZER_BENCH_BATCH_ROWS", "400"))
REPEATS = int(os.environ.get("ZSIZER_BENCH_BATCH_REPEATS", "5"))
GOAL_MS = 0.5
GOAL_RATIO = 2.0
#: The four sized paths at a rate each carries on every machine listed.
SCENARIOS = [
    ("zosconnect-cics", "channel", 2000.0),
    ("cicstg", "ipic-channel-64", 2000.0),
    ("cicsts-catalog", "v5.3", 20000.0),
    ("fiteq-authenticator", "multi-region", 5000.0),
]
MACHINES = ["z13", "z16", "zec12", "z17"]


def batch_csv(rows: int, fresh: itertools.count[int] | None) -> str:
    """``rows`` distinct scenarios (rates numbered by ``fresh``), or one repeated when ``None``."""
    lines = []
    for k in range(rows):
        path, configuration, tps = SCENARIOS[k % len(SCENARIOS)]
        if fresh is None:
            lines.append(f"{SCENARIOS[0][0]},{SCENARIOS[0][1]},z16,{SCENARIOS[0][2]!r}")
            continue
        n = next(fresh)
        machine = MACHINES[(k // len(SCENARIOS)) % len(MACHINES)]
        lines.append(f"{path},{configuration},{machine},{tps * (0.5 + n * 1e-6)!r}")
    return "path,configuration,machine,tps\n" + "\n".join(lines)


def main() -> int:
    db_url = os.environ.get("ZSIZER_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/zsizer_bench")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.base", "DATABASE_URL": db_url}
    env.pop("CELERY_BROKER_URL", None)  # in-process: a batch needs no broker
    _ensure_database(db_url)
    _manage(env, "migrate", "--noinput")
    _manage(env, "load_benchmarks")
    os.environ.update({k: v for k, v in env.items() if k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL")})
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.contrib.auth.models import User

    from sizing.jobs import RUNNERS

    user, _ = User.objects.get_or_create(username="bench-batch")
    fresh = itertools.count()
    collecting = {"cpu": 0.0, "start": 0.0}

    def collected(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting["start"] = time.process_time()
        else:
            collecting["cpu"] += time.process_time() - collecting["start"]

    gc.callbacks.append(collected)

    def run(text: str) -> tuple[float, float, float]:
        collecting["cpu"] = 0.0
        start, cpu = time.perf_counter(), time.process_time()
        result = RUNNERS["batch"](params={"csv": text}, owner=user, progress=lambda done, total: None)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        if result["failed"]:
            raise RuntimeError(f"{result['failed']} rows failed: {result['table']['rows'][:2]!r}")
        return seconds, cpu, collecting["cpu"]

    run(batch_csv(2 * len(SCENARIOS) * len(MACHINES), fresh))  # warm: reference data, fitted models
    # Each distinct batch is built before its clock starts, with rates never asked before.
    # Interleaved, so that both see the same background load of a shared machine.
    load_before = os.getloadavg()[0]
    distinct_s, repeated_s = [], []
    for _ in range(REPEATS):
        distinct_s.append(run(batch_csv(ROWS, fresh)))
        repeated_s.append(run(batch_csv(ROWS, None)))
    load_after = os.getloadavg()[0]
    distinct = min(s for s, _, _ in distinct_s) / ROWS * 1000.0
    repeated = min(s for s, _, _ in repeated_s) / ROWS * 1000.0
    # the CPU time of the batch that took the least, and the collector's part of it
    _, distinct_cpu, distinct_gc = (x / ROWS * 1000.0 for x in min(distinct_s, key=lambda r: r[1]))
    _, repeated_cpu, repeated_gc = (x / ROWS * 1000.0 for x in min(repeated_s, key=lambda r: r[1]))
    ratio = distinct / repeated
    met = {f"distinct <= {GOAL_MS} ms/row": distinct <= GOAL_MS, f"<= {GOAL_RATIO:g}x repeated": ratio <= GOAL_RATIO}
    record(
        "batch", rows=ROWS, distinct_ms_per_row=distinct, repeated_ms_per_row=repeated, ratio=ratio,
        distinct_cpu_ms_per_row=distinct_cpu, repeated_cpu_ms_per_row=repeated_cpu,
        cpu_ratio=distinct_cpu / repeated_cpu, load_average=[load_before, load_after], goals=met,
    )  # fmt: skip
    print(f"load average (1 min) {load_before:.2f} before, {load_after:.2f} after")
    print(
        f"batch of {ROWS} distinct rows   {distinct:8.3f} ms/row   (CPU {distinct_cpu:.3f}, of which GC {distinct_gc:.3f})"
    )
    print(
        f"batch of {ROWS} repeated rows   {repeated:8.3f} ms/row   (CPU {repeated_cpu:.3f}, of which GC {repeated_gc:.3f})"
        f"   (baseline)   ratio {ratio:.2f} (CPU {distinct_cpu / repeated_cpu:.2f})"
    )
    print("goals: " + ", ".join(f"{k}: {'met' if v else 'NOT met'}" for k, v in met.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
