"""Speed of the API under gunicorn on PostgreSQL and of a job through Redis and a worker (not a test).

Run ``python perf/bench_server.py`` (``make bench`` runs it with the others).  It starts its own
Redis, gunicorn (``config.settings.bench``) and a Celery worker (``perf/stack.py``), then:

* API phases, each ``CLIENTS`` closed-loop clients (default 32) for ``SECONDS`` (default 24 s,
  in ``ROUNDS`` = 4 slices interleaved with the other phases of its group, each after 1 s of
  warm-up): throughput (requests/s) and latency percentiles, each set against the baseline
  measured in the same run and the same rounds (a ratio of throughputs):

  - GET baseline: ``GET /api/v1/machines/``, the app's trivial authenticated list;
  - GET /api/v1/estimate warm: a cycle of valid scenarios whose answers are cached;
  - GET /api/v1/estimate cold: every request a rate never asked before (computed; fitted
    models cached);
  - POST baseline: ``POST /bench/baseline-rows/`` (``perf/urls.py``): same authentication, a
    small serializer, one INSERT into the estimates table, no sizing;
  - POST /api/v1/estimates/ warm and cold, as above, each storing a row.
* job round trip: a ``curve`` job submitted through the API, run by the worker, polled until it
  succeeded (median of ``JOBS`` jobs, sequential) against the same job function called
  directly in this process.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from perf.load import Phase, combine, run_phase  # noqa: E402
from perf.record import record  # noqa: E402
from perf.stack import Stack, running_stack  # noqa: E402

CLIENTS = int(os.environ.get("ZSIZER_BENCH_CLIENTS", "32"))
SECONDS = float(os.environ.get("ZSIZER_BENCH_SECONDS", "24"))
ROUNDS = int(os.environ.get("ZSIZER_BENCH_ROUNDS", "4"))
WARMUP_S = 1.0
JOBS = int(os.environ.get("ZSIZER_BENCH_JOBS", "10"))

#: Scenarios of the warm phases: every configuration on z13 at a rate it can carry.
SCENARIOS = [
    ("zosconnect-cics", "channel", 2000),
    ("cicstg", "exci-commarea-31", 2000),
    ("cicstg", "ipic-commarea-31", 2000),
    ("cicstg", "ipic-channel-31", 2000),
    ("cicstg", "exci-commarea-64", 2000),
    ("cicstg", "ipic-commarea-64", 2000),
    ("cicstg", "ipic-channel-64", 2000),
    ("cicsts-catalog", "v5.3", 20000),
    ("cicsts-catalog", "v5.2", 20000),
    ("fiteq-authenticator", "single-region", 5000),
    ("fiteq-authenticator", "single-region-log", 5000),
    ("fiteq-authenticator", "multi-region", 5000),
    ("fiteq-authenticator", "multi-region-log", 5000),
    ("hostbridge-http", "default-tcpip", 1000),
    ("hostbridge-http", "tuned-tcpip", 1000),
]
CURVE = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "cps_list": [4, 6, 8]}


def _api(stack: Stack, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        stack.base_url + path,
        data=data,
        method=method,
        headers={"Authorization": f"Token {stack.token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _query(path: str, configuration: str, tps: float) -> str:
    return f"/api/v1/estimate?path={path}&configuration={configuration}&machine=z13&tps={tps!r}"


def api_phases(stack: Stack) -> dict[str, Any]:
    # Every scenario answers 200 before the bench starts (and its answer is then cached).
    for path, config, tps in SCENARIOS:
        status, body = _api(stack, "GET", _query(path, config, tps))
        if status != 200:
            raise RuntimeError(f"{path}/{config}: {status} {body!r}")
    status, created = _api(stack, "POST", "/api/v1/estimates/", {**_scenario_body(0), "tps": 1.0})
    if status != 201:
        raise RuntimeError(f"POST estimate: {status} {created!r}")
    from_estimate = _row_ids(stack, created["id"])

    def get_baseline(n: int) -> tuple[str, str, Any]:
        return ("GET", "/api/v1/machines/", None)

    def get_warm(n: int) -> tuple[str, str, Any]:
        path, config, tps = SCENARIOS[n % len(SCENARIOS)]
        return ("GET", _query(path, config, tps), None)

    def get_cold(n: int) -> tuple[str, str, Any]:
        path, config, tps = SCENARIOS[n % len(SCENARIOS)]
        return ("GET", _query(path, config, tps * (0.5 + (n // len(SCENARIOS)) * 1e-6)), None)

    def post_baseline(n: int) -> tuple[str, str, Any]:
        return ("POST", "/bench/baseline-rows/", {**from_estimate, "tps": 1000.0, "name": "baseline"})

    def post_warm(n: int) -> tuple[str, str, Any]:
        return ("POST", "/api/v1/estimates/", _scenario_body(n))

    def post_cold(n: int) -> tuple[str, str, Any]:
        body = _scenario_body(n)
        return ("POST", "/api/v1/estimates/", {**body, "tps": body["tps"] * (0.4 + (n // len(SCENARIOS)) * 1e-6)})

    # Each endpoint is measured in ROUNDS slices interleaved with its baseline's, so that both
    # see the same background load of a shared machine; the slices of one endpoint add up.
    groups = [
        [
            ("GET baseline /api/v1/machines/", get_baseline, 200),
            ("GET /api/v1/estimate warm (cached answers)", get_warm, 200),
            ("GET /api/v1/estimate cold (distinct inputs)", get_cold, 200),
        ],
        [
            ("POST baseline /bench/baseline-rows/", post_baseline, 201),
            ("POST /api/v1/estimates/ warm (cached answers)", post_warm, 201),
            ("POST /api/v1/estimates/ cold (distinct inputs)", post_cold, 201),
        ],
    ]
    phases: dict[str, Phase] = {}
    for group in groups:
        slices: dict[str, list[Phase]] = {name: [] for name, _, _ in group}
        for _ in range(ROUNDS):
            for name, make, expect in group:
                slices[name].append(
                    run_phase(
                        name,
                        base_url=stack.base_url,
                        token=stack.token,
                        make_request=make,
                        expect=expect,
                        clients=CLIENTS,
                        seconds=SECONDS / ROUNDS,
                        warmup_s=WARMUP_S,
                    )  # fmt: skip
                )
        for name, parts in slices.items():
            phase = phases[name] = combine(parts)
            print(
                f"{name:48s} {phase.throughput:8.1f}/s  p50 {phase.p50_ms:6.1f} ms  p99 {phase.p99_ms:6.1f} ms"
                f"  errors {phase.errors}" + (f"  ({phase.first_error})" if phase.first_error else ""),
                flush=True,
            )
            record("api", **phase.to_dict())
    get_base = phases["GET baseline /api/v1/machines/"].throughput
    post_base = phases["POST baseline /bench/baseline-rows/"].throughput
    ratios = {}
    for name, phase in phases.items():
        if "baseline" in name:
            continue
        base = get_base if name.startswith("GET") else post_base
        ratios[name] = phase.throughput / base
    goals = {
        "GET estimate >= 0.7x GET baseline (warm)": ratios["GET /api/v1/estimate warm (cached answers)"] >= 0.7,
        "GET estimate >= 0.7x GET baseline (cold)": ratios["GET /api/v1/estimate cold (distinct inputs)"] >= 0.7,
        "POST estimates >= 0.6x POST baseline (warm)": ratios["POST /api/v1/estimates/ warm (cached answers)"] >= 0.6,
        "POST estimates >= 0.6x POST baseline (cold)": ratios["POST /api/v1/estimates/ cold (distinct inputs)"] >= 0.6,
        f"p99 < 100 ms at {CLIENTS} clients (every estimate phase)": all(
            p.p99_ms < 100.0 for n, p in phases.items() if "baseline" not in n
        ),
    }
    print(f"baselines: GET {get_base:.1f}/s, POST {post_base:.1f}/s")
    for name, ratio in ratios.items():
        print(f"  {name:48s} {ratio:5.2f}x its baseline")
    for goal, met in goals.items():
        print(f"  goal {goal}: {'met' if met else 'NOT met'}")
    summary = {
        "clients": CLIENTS,
        "seconds_per_phase": SECONDS,
        "rounds": ROUNDS,
        "gunicorn_workers": stack.gunicorn_workers,
        "shared_answer_cache": stack.shared_cache,
        "baselines": {
            "GET": "GET /api/v1/machines/ (authenticated list of 3 rows)",
            "POST": "POST /bench/baseline-rows/ (authenticated, stores one estimates row, no sizing)",
        },
        "baseline_throughput": {"GET": get_base, "POST": post_base},
        "ratios": ratios,
        "goals": goals,
    }
    record("api_summary", **summary)
    return summary


def _scenario_body(n: int) -> dict[str, Any]:
    path, config, tps = SCENARIOS[n % len(SCENARIOS)]
    return {"path": path, "configuration": config, "machine": "z13", "tps": tps}


def _row_ids(stack: Stack, estimate_id: int) -> dict[str, int]:
    """Configuration and machine ids of a stored estimate (read in the bench database)."""
    import psycopg

    with psycopg.connect(stack.env["DATABASE_URL"]) as conn:
        row = conn.execute(
            "select configuration_id, machine_id from sizing_estimate where id = %s", (estimate_id,)
        ).fetchone()
    assert row is not None
    return {"configuration_id": row[0], "machine_id": row[1]}


def job_round_trip(stack: Stack) -> dict[str, Any]:
    """A curve job through the API, Redis and the worker, against the job function called directly."""
    trips = []
    for _ in range(JOBS):
        start = time.perf_counter()
        status, job = _api(stack, "POST", "/api/v1/jobs/", {"kind": "curve", "params": CURVE})
        if status != 202:
            raise RuntimeError(f"job submit: {status} {job!r}")
        while True:
            status, body = _api(stack, "GET", f"/api/v1/jobs/{job['id']}/")
            if body["status"] in ("succeeded", "failed", "cancelled"):
                break
            time.sleep(0.005)
        if body["status"] != "succeeded":
            raise RuntimeError(f"job {job['id']}: {body['status']} {body.get('error')}")
        trips.append(time.perf_counter() - start)

    # The same job function in this process, on the same database (settings of the bench).
    os.environ.update(stack.env)
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from sizing.jobs import RUNNERS

    owner = get_user_model().objects.get(username=stack.user)
    RUNNERS["curve"](params=CURVE, owner=owner, progress=lambda done, total: None)  # warm, as the worker is
    direct = []
    for _ in range(JOBS):
        start = time.perf_counter()
        RUNNERS["curve"](params=CURVE, owner=owner, progress=lambda done, total: None)
        direct.append(time.perf_counter() - start)
    out = {
        "job": {"kind": "curve", "params": CURVE},
        "jobs": JOBS,
        "round_trip_median_s": statistics.median(trips),
        "round_trip_max_s": max(trips),
        "direct_median_s": statistics.median(direct),
        "overhead_median_s": statistics.median(trips) - statistics.median(direct),
        "worker_concurrency": stack.celery_concurrency,
    }
    print(
        f"job round trip (curve, submit -> worker -> succeeded, polled): median {out['round_trip_median_s'] * 1000:.1f} ms"
        f" vs direct call {out['direct_median_s'] * 1000:.1f} ms"
    )
    record("jobs", **out)
    return out


def main() -> int:
    with running_stack(celery_concurrency=1) as stack:
        api_phases(stack)
        job_round_trip(stack)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
