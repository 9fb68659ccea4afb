"""A 5,000-row batch on 4 workers, split into chunks, against the same batch unsplit.

``python perf/batch_workers.py [baseline|chunked]`` (not part of ``make bench``: it takes a few
minutes; an argument runs only one of the two).  Starts the
bench stack (``perf/stack.py``: its own Redis, gunicorn, a Celery worker with
``--concurrency=4``) twice on the same machine in the same run:

* **baseline**: ``ZSIZER_BATCH_CHUNK_ROWS=100000``, so one worker process sizes all 5,000 rows
  while the three others sit idle (the behaviour before chunking);
* **chunked**: the default ``ZSIZER_BATCH_CHUNK_ROWS=250``, 20 chunks over the 4 processes.

Each submits one 5,000-row batch (``MAX_BATCH_ROWS``) over HTTP and times it from the 202 to the
job's ``succeeded``; the result tables must be equal.  Prints the figures as JSON.  The ports and
database are taken from the ``ZSIZER_BENCH_*`` variables of ``perf/stack.py``.
"""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from perf.stack import Stack, running_stack  # noqa: E402

ROWS = 5000
GOOD = [
    "fiteq-authenticator,multi-region,z13,{tps},",
    "fiteq-authenticator,single-region-log,zec12,{tps},6",
    "cicstg,ipic-channel-64,z10,{tps},",
    "zosconnect-cics,channel,z13,{tps},",
]


def batch_csv() -> str:
    # Every row a different scenario, so that no row is a cached answer of another.
    lines = [GOOD[i % len(GOOD)].format(tps=200 + i) for i in range(ROWS)]
    return "path,configuration,machine,tps,cps\n" + "\n".join(lines) + "\n"


def _call(stack: Stack, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(stack.base_url + path, data=data, method=method)
    request.add_header("Authorization", f"Token {stack.token}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def run_once(chunk_rows: int, concurrency: int) -> dict[str, Any]:
    os.environ["ZSIZER_BATCH_CHUNK_ROWS"] = str(chunk_rows)
    os.environ.setdefault("ZSIZER_TASK_QUEUE", "zsizer-bench-batch")
    with running_stack(celery_concurrency=concurrency) as stack:
        time.sleep(5)  # let the worker's pool come up
        started = time.monotonic()
        job = _call(stack, "POST", "/api/v1/jobs/", {"kind": "batch", "params": {"csv": batch_csv()}})
        while job["status"] in ("queued", "running"):
            time.sleep(0.5)
            job = _call(stack, "GET", f"/api/v1/jobs/{job['id']}/")
        elapsed = time.monotonic() - started
    return {
        "chunk_rows": chunk_rows,
        "worker_processes": concurrency,
        "seconds": round(elapsed, 1),
        "status": job["status"],
        "error": job.get("error", ""),
        "job": job,
    }


def main() -> int:
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    baseline = run_once(100_000, 4) if only != "chunked" else None
    chunked = run_once(250, 4) if only != "baseline" else None
    figures: dict[str, Any] = {"rows": ROWS, "cpus": os.cpu_count(), "soft_time_limit_s": 300}
    for name, run in (("baseline_unsplit", baseline), ("chunked", chunked)):
        if run is not None:
            figures[name] = {k: run[k] for k in ("seconds", "status", "error")}
    if baseline is not None and chunked is not None and "succeeded" == baseline["status"] == chunked["status"]:
        figures["speedup"] = round(baseline["seconds"] / chunked["seconds"], 2)
        figures["same_result"] = baseline["job"]["result"] == chunked["job"]["result"]
    print(json.dumps(figures, indent=2))
    return 0 if chunked is None or chunked["status"] == "succeeded" else 1


if __name__ == "__main__":
    raise SystemExit(main())
