"""`make bench`: run every speed benchmark and write perf/results/<date>-<commit>.json.

Each ``perf/bench_*.py`` runs in its own process and prints its figures next to a baseline
measured in the same run; it also hands them to this runner (``perf/record.py``), which writes
them with the machine they were measured on.  ``bench_server.py`` starts its own Redis,
gunicorn and Celery worker (``perf/stack.py``).  The whole run takes about 4 minutes here and
must stay under 10 (``MAX_SECONDS``; the runner fails past it).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS = HERE / "results"
MAX_SECONDS = 600


def _git(*args: str) -> str:
    out = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=False)
    return out.stdout.strip()


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def _memory_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return None


def _versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in ("django", "djangorestframework", "numpy", "scipy", "gunicorn", "celery", "psycopg"):
        try:
            from importlib.metadata import version

            out[name] = version(name)
        except Exception:  # noqa: BLE001 - a missing package is reported as such
            out[name] = "not installed"
    redis = subprocess.run(["redis-server", "--version"], capture_output=True, text=True, check=False).stdout
    out["redis-server"] = redis.split("v=")[1].split()[0] if "v=" in redis else "unknown"
    pg = subprocess.run(["psql", "--version"], capture_output=True, text=True, check=False).stdout.strip()
    out["postgresql-client"] = pg.split()[-1] if pg else "unknown"
    return out


def machine() -> dict[str, Any]:
    return {
        "hostname": platform.node(),
        "platform": platform.platform(),
        "cpu": _cpu_model(),
        "cpus": os.cpu_count(),
        "memory_gib": _memory_gib(),
        "load_average_at_start": list(os.getloadavg()),
        "versions": _versions(),
    }


def results_path(commit: str, when: datetime) -> Path:
    return RESULTS / f"{when:%Y-%m-%d}-{commit}.json"


def main() -> int:
    start = time.monotonic()
    when = datetime.now(UTC)
    commit = _git("rev-parse", "--short=12", "HEAD") or "unknown"
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    info = machine()
    sections: dict[str, list[dict[str, Any]]] = {}
    status = 0
    with tempfile.TemporaryDirectory(prefix="zsizer-bench-") as tmp:
        record_file = Path(tmp) / "figures.jsonl"
        for script in sorted(HERE.glob("bench_*.py")):
            print(f"\n== {script.name} (each figure against a baseline measured in the same run) ==", flush=True)
            env = {**os.environ, "ZSIZER_BENCH_RECORD": str(record_file), "PYTHONPATH": str(REPO)}
            status |= subprocess.run([sys.executable, str(script)], cwd=REPO, env=env, check=False).returncode
        if record_file.exists():
            for line in record_file.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                sections.setdefault(row.pop("section"), []).append(row)
    elapsed = time.monotonic() - start
    info["load_average_at_end"] = list(os.getloadavg())
    doc = {
        "command": "make bench",
        "date": when.isoformat(timespec="seconds"),
        "commit": commit,
        "dirty_worktree": dirty,
        "duration_s": round(elapsed, 1),
        "machine": info,
        "models_lib": sections.get("models", []),
        "queueing": sections.get("queueing", []),
        "api": _api_summary(sections.get("api", []), sections.get("api_summary", [])),
        "jobs": (sections.get("jobs") or [None])[0],
        # perf/bench_first_chart.py: the workbench in a fresh Chromium profile to its first Plotly chart.
        "first_chart": (sections.get("first_chart") or [None])[0],
        "reports": sections.get("reports", []),
        # perf/bench_plans.py: a 3 x 20 x 20 plan on 4 worker processes against the engine's own time.
        "plans": (sections.get("plans") or [None])[0],
        "exit_status": status,
    }
    RESULTS.mkdir(exist_ok=True)
    path = results_path(commit, when)
    previous = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    if "loadtest" in previous:  # `make loadtest` of the same commit and day: keep it
        doc["loadtest"] = previous["loadtest"]
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {path.relative_to(REPO)} ({elapsed:.0f} s)")
    if elapsed > MAX_SECONDS:
        print(f"make bench took {elapsed:.0f} s, more than {MAX_SECONDS} s", file=sys.stderr)
        return 1
    return status


def _api_summary(phases: list[dict[str, Any]], summary: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"phases": phases}
    if summary:
        out.update(summary[0])
    return out


if __name__ == "__main__":
    raise SystemExit(main())
