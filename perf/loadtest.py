"""`make loadtest`: locust headless against gunicorn with a Celery worker; p50/p99 into the results file.

50 users (``ZSIZER_LOADTEST_USERS``) for 60 s (``ZSIZER_LOADTEST_SECONDS``), spawned at 10/s,
doing what ``perf/locustfile.py`` says, against the stack of ``perf/stack.py`` (its own Redis,
gunicorn with ``config/gunicorn.py`` and ``config.settings.bench``, one Celery worker of
concurrency 2).  The figures (requests, failures,
throughput, p50/p90/p99 per request kind and in aggregate) are added under ``loadtest`` to
perf/results/<date>-<commit>.json (the file ``make bench`` writes for the same commit and day).
Exits 1 if any request failed.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from perf.run import RESULTS, _git, machine, results_path  # noqa: E402
from perf.stack import running_stack  # noqa: E402

USERS = int(os.environ.get("ZSIZER_LOADTEST_USERS", "50"))
SECONDS = int(os.environ.get("ZSIZER_LOADTEST_SECONDS", "60"))


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def _stats(path: Path) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            rows.append(
                {
                    "name": row["Name"] if row["Name"] != "Aggregated" else "all requests",
                    "method": row["Type"],
                    "requests": int(row["Request Count"]),
                    "failures": int(row["Failure Count"]),
                    "throughput": _number(row["Requests/s"]),
                    "p50_ms": _number(row["50%"]),
                    "p90_ms": _number(row["90%"]),
                    "p99_ms": _number(row["99%"]),
                    "max_ms": _number(row["Max Response Time"]),
                }
            )
    return rows


def main() -> int:
    when = datetime.now(UTC)
    commit = _git("rev-parse", "--short=12", "HEAD") or "unknown"
    info = machine()
    with tempfile.TemporaryDirectory(prefix="zsizer-loadtest-") as tmp, running_stack(celery_concurrency=2) as stack:
        prefix = Path(tmp) / "locust"
        cmd = [
            str(Path(sys.executable).parent / "locust"), "-f", str(REPO / "perf" / "locustfile.py"), "--headless",
            "--users", str(USERS), "--spawn-rate", "10", "--run-time", f"{SECONDS}s", "--host", stack.base_url,
            "--csv", str(prefix), "--only-summary", "--stop-timeout", "70", "--exit-code-on-error", "0",
        ]  # fmt: skip
        print(f"locust: {USERS} users for {SECONDS} s against {stack.base_url} (gunicorn + a worker)", flush=True)
        proc = subprocess.run(cmd, cwd=REPO, env={**stack.env, "ZSIZER_LOADTEST_TOKEN": stack.token}, check=False)
        rows = _stats(Path(f"{prefix}_stats.csv"))
        failures_file = Path(f"{prefix}_failures.csv")
        failures = list(csv.DictReader(failures_file.open(encoding="utf-8"))) if failures_file.exists() else []
    total = next(r for r in rows if r["name"] == "all requests")
    info["load_average_at_end"] = list(os.getloadavg())
    loadtest = {
        "command": "make loadtest",
        "date": when.isoformat(timespec="seconds"),
        "users": USERS,
        "seconds": SECONDS,
        "gunicorn_workers": stack.gunicorn_workers,
        "gunicorn_threads": stack.gunicorn_threads,
        "gunicorn_config": "config/gunicorn.py",
        "worker_concurrency": stack.celery_concurrency,
        "requests": total["requests"],
        "failures": total["failures"],
        "throughput": total["throughput"],
        "p50_ms": total["p50_ms"],
        "p99_ms": total["p99_ms"],
        "by_request": [r for r in rows if r["name"] != "all requests"],
        "failure_kinds": failures[:20],
        "machine": info,
        "locust_exit_status": proc.returncode,
    }
    RESULTS.mkdir(exist_ok=True)
    path = results_path(commit, when)
    doc = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"commit": commit}
    doc["loadtest"] = loadtest
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    print(
        f"{total['requests']} requests, {total['failures']} failures, {total['throughput']:.1f}/s, "
        f"p50 {total['p50_ms']:.0f} ms, p99 {total['p99_ms']:.0f} ms -> {path.relative_to(REPO)}"
    )
    return 0 if total["failures"] == 0 and proc.returncode == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
