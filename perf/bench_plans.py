"""A plan of 3 workloads x 20 candidates x 20 periods on 4 worker processes, against the engine's
own time for the same evaluations, measured in the same run (goal: at most 2x).

Starts the bench stack (``perf/stack.py``: its own Redis, gunicorn, a Celery worker with
``--concurrency=4``) with ``ZSIZER_PLAN_INLINE_EVALUATIONS=0``, so the plan goes to the workers
as one task per candidate.  Two figures:

* **plan**: ``POST /api/v1/plans/`` to the plan's ``succeeded``, polled every 0.2 s, after a
  small plan (4 candidates, 1 period) has warmed the 4 worker processes.
* **engine**: in this process, on the same database, the mix job's function
  (``sizing.jobs.mix.mix_evaluate``) for every (candidate, period) of the plan, one after the
  other: the 400 LPAR answers themselves, without queues, rows, ranges or assembly; after one
  candidate's periods have warmed the caches.

``ratio = plan / engine``.  Four processes may finish in less than the engine's serial time; on
a 2-core machine shared with other work they rarely do.  The figures go to ``make bench``'s
results (section ``plans``).
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

from perf.record import record  # noqa: E402
from perf.stack import Stack, running_stack  # noqa: E402

WORKLOADS = [
    {"path": "zosconnect-cics", "configuration": "channel", "tps": 2000, "peak_ratio": 1.5, "growth_pct": 25},
    {"path": "cicsts-catalog", "configuration": "v5.3", "tps": 60000, "peak_ratio": 1.3, "growth_pct": 10},
    {"path": "fiteq-authenticator", "configuration": "multi-region", "tps": 1000, "peak_ratio": 1.4, "growth_pct": 15},
]
#: 20 candidates: z16 and z17 full-speed models of 4..13 CPs.
CANDIDATES = [f"{t}-7{n:02d}" for t in ("3931", "9175") for n in range(4, 14)]
PLAN = {"name": "bench", "horizon_quarters": 20, "workloads": WORKLOADS, "candidates": CANDIDATES}
WORKER_PROCESSES = 4


def _call(stack: Stack, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(stack.base_url + path, data=data, method=method)
    request.add_header("Authorization", f"Token {stack.token}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def plan_seconds(stack: Stack, body: dict[str, Any] = PLAN) -> tuple[float, dict[str, Any]]:
    started = time.monotonic()
    plan = _call(stack, "POST", "/api/v1/plans/", body)
    while plan["status"] in ("queued", "running"):
        time.sleep(0.2)
        plan = _call(stack, "GET", f"/api/v1/plans/{plan['id']}/")
    return time.monotonic() - started, plan


def engine_seconds(stack: Stack) -> tuple[float, int]:
    """The mix job's function for every (candidate, period) of the plan, serially, warm."""
    os.environ.update({k: v for k, v in stack.env.items() if k in ("DATABASE_URL", "CELERY_BROKER_URL")})
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.bench"
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from sizing.jobs.mix import mix_evaluate
    from sizing.jobs.plan import period_rates
    from sizing.services.plan_inputs import plan_inputs

    user = get_user_model().objects.get(username=stack.user)
    inputs = plan_inputs(user=user, data=PLAN)
    rates = period_rates(inputs)

    def once(candidates: list[dict[str, Any]]) -> int:
        count = 0
        for c in candidates:
            for period in rates:
                workloads = [{**w, "tps": t} for w, t in zip(inputs["workloads"], period, strict=True)]
                mix_evaluate(
                    owner=user,
                    workloads=workloads,
                    machine=c["machine"],
                    cps=c.get("cps"),
                    capacity_setting=c.get("engine_setting"),
                )
                count += 1
        return count

    once(inputs["candidates"][:1])  # cold caches: the reference data, the fits
    started = time.perf_counter()
    count = once(inputs["candidates"])
    return time.perf_counter() - started, count


def main() -> int:
    os.environ["ZSIZER_PLAN_INLINE_EVALUATIONS"] = "0"
    os.environ.setdefault("ZSIZER_TASK_QUEUE", "zsizer-bench-plans")
    with running_stack(celery_concurrency=WORKER_PROCESSES) as stack:
        time.sleep(5)  # let the worker's pool come up
        warm_up = {**PLAN, "horizon_quarters": 1, "candidates": CANDIDATES[:WORKER_PROCESSES]}
        cold, _ = plan_seconds(stack, warm_up)
        warm, plan = plan_seconds(stack)
        engine, evaluations = engine_seconds(stack)
    figures = {
        "workloads": len(WORKLOADS),
        "candidates": len(CANDIDATES),
        "periods": PLAN["horizon_quarters"],
        "evaluations": evaluations,
        "worker_processes": WORKER_PROCESSES,
        "cpus": os.cpu_count(),
        "status": plan["status"],
        "error": plan.get("error", ""),
        "warm_up_plan_seconds": round(cold, 2),
        "plan_seconds": round(warm, 2),
        "engine_seconds": round(engine, 2),
        "ratio": round(warm / engine, 2),
        "goal_ratio": 2.0,
        "load_average": list(os.getloadavg()),
    }
    print(json.dumps(figures, indent=2))
    record("plans", **figures)
    return 0 if plan["status"] == "succeeded" else 1


if __name__ == "__main__":
    raise SystemExit(main())
