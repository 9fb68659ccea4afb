"""Instructions per batch row, distinct and repeated, under callgrind (not a test; not in ``make bench``).

``perf/bench_batch.py`` times the batch of distinct rows against the repeated one; on a shared
virtual machine its wall and CPU times move by 2x from one minute to the next, and its ratio by
0.3.  This counts the instructions instead (Valgrind's callgrind, deterministic to a few parts in
ten thousand): the same 400-row batches through the batch job's own function, on the same bench
database (``ZSIZER_BENCH_DATABASE_URL``), each in its own process under callgrind with the count
switched on only around the measured batch (after Django, the reference data, a warm batch and
a garbage collection).  It needs ``valgrind`` (``apt-get install valgrind``) and takes about a
minute (the two batches side by side).

    python perf/callgrind_batch.py          # both kinds and their ratio
    ZSIZER_CALLGRIND_NOGC=1 python perf/callgrind_batch.py   # without the garbage collector

Instructions are not time: a distinct row also misses the processor's caches more (its answers
are new objects), so the time ratio of ``bench_batch.py`` on a quiet machine has been about 1.2-1.3
times this one (docs/speed.md).
"""

from __future__ import annotations

import gc
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROWS = 400


def _child(kind: str) -> None:
    """One measured batch of ``kind`` (``distinct`` or ``repeated``), counted by the parent's callgrind."""
    sys.path.insert(0, str(REPO))
    import django

    django.setup()
    from django.contrib.auth.models import User

    from perf.bench_batch import batch_csv
    from sizing.jobs import RUNNERS

    user, _ = User.objects.get_or_create(username="bench-batch")
    fresh = itertools.count()

    def run(text: str) -> None:
        RUNNERS["batch"](params={"csv": text}, owner=user, progress=lambda done, total: None)

    run(batch_csv(32, fresh))  # reference data, fitted models
    run(batch_csv(ROWS, fresh if kind == "distinct" else None))  # the answer cache as in bench_batch.py
    text = batch_csv(ROWS, fresh if kind == "distinct" else None)
    gc.collect()
    if os.environ.get("ZSIZER_CALLGRIND_NOGC"):
        gc.disable()
    pid = str(os.getpid())
    subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
    run(text)
    subprocess.run(["callgrind_control", "-i", "off", pid], check=True, capture_output=True)


def _count(kind: str, env: dict[str, str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
             sys.executable, __file__, "--child", kind],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"the {kind} batch failed under callgrind:\n{done.stderr[-2000:]}")
        totals = [line for line in out.read_text().splitlines() if line.startswith("totals:")]
        return int(totals[0].split()[1])


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        _child(sys.argv[2])
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: apt-get install valgrind", file=sys.stderr)
        return 2
    from perf.stack import _ensure_database, _manage

    db_url = os.environ.get("ZSIZER_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/zsizer_bench")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.base", "DATABASE_URL": db_url}
    env.pop("CELERY_BROKER_URL", None)
    env["PYTHONHASHSEED"] = "0"
    _ensure_database(db_url)
    _manage(env, "migrate", "--noinput")
    _manage(env, "load_benchmarks")
    with ThreadPoolExecutor(2) as pool:  # one process each, side by side
        distinct, repeated = (n / ROWS for n in pool.map(lambda kind: _count(kind, env), ("distinct", "repeated")))
    print(
        f"instructions per row: distinct {distinct:,.0f}, repeated {repeated:,.0f} (baseline), ratio {distinct / repeated:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main())
