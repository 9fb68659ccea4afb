"""Locust users of `make loadtest` (perf/loadtest.py): engineers sizing, listing, exporting, running jobs.

Every user signs in with the token in ``ZSIZER_LOADTEST_TOKEN``, thinks 0.5-2 s between actions
and mixes: single estimates (JSON and CSV), stored estimates, their list, reference lists, and
now and then a curve job that it follows to the end and whose CSV it downloads.  Any status
other than the expected one, and a job that fails or does not finish within 60 s, is an error.
"""

from __future__ import annotations

import os
import random
import time

from locust import HttpUser, between, task

SCENARIOS = [
    ("zosconnect-cics", "channel", 2000),
    ("cicstg", "ipic-channel-64", 2000),
    ("cicstg", "exci-commarea-31", 2000),
    ("cicsts-catalog", "v5.3", 20000),
    ("fiteq-authenticator", "multi-region", 5000),
    ("fiteq-authenticator", "multi-region-log", 5000),
    ("fiteq-authenticator", "single-region", 5000),
    ("hostbridge-http", "tuned-tcpip", 1000),
]
MACHINES = ("z13", "zec12", "z10")
#: Curve jobs need CPU figures: HostBridge publishes only a response-time floor (its jobs fail
#: with a 'cannot be sized' message, rightly).
SIZEABLE = [s for s in SCENARIOS if s[0] != "hostbridge-http"]


def _scenario(choices: list[tuple[str, str, int]] = SCENARIOS) -> dict[str, object]:
    path, configuration, tps = random.choice(choices)
    # A few rates per scenario: some answers repeat (as in a room of engineers), some are new.
    return {
        "path": path,
        "configuration": configuration,
        "machine": random.choice(MACHINES),
        "tps": tps * random.choice((0.25, 0.5, 1.0, random.uniform(0.1, 1.0))),
    }


class Engineer(HttpUser):
    wait_time = between(0.5, 2.0)

    def on_start(self) -> None:
        self.client.headers["Authorization"] = f"Token {os.environ['ZSIZER_LOADTEST_TOKEN']}"

    @task(6)
    def estimate(self) -> None:
        self.client.get("/api/v1/estimate", params=_scenario(), name="GET /api/v1/estimate")

    @task(2)
    def estimate_csv(self) -> None:
        with self.client.get(
            "/api/v1/estimate", params={**_scenario(), "format": "csv"}, name="GET /api/v1/estimate?format=csv",
            catch_response=True,
        ) as resp:  # fmt: skip
            if resp.status_code != 200:
                resp.failure(f"{resp.status_code}: {resp.text[:200]}")
            elif len(resp.text.splitlines()) != 2 or "cps_required" not in resp.text.splitlines()[0]:
                resp.failure("not one CSV header and one row")

    @task(3)
    def store_estimate(self) -> None:
        with self.client.post(
            "/api/v1/estimates/", json={**_scenario(), "name": "load test"}, name="POST /api/v1/estimates/",
            catch_response=True,
        ) as resp:  # fmt: skip
            if resp.status_code != 201:
                resp.failure(f"{resp.status_code}: {resp.text[:200]}")

    @task(3)
    def list_estimates(self) -> None:
        self.client.get("/api/v1/estimates/", params={"page_size": 20}, name="GET /api/v1/estimates/")

    @task(1)
    def reference_lists(self) -> None:
        self.client.get("/api/v1/paths/", name="GET /api/v1/paths/")
        self.client.get("/api/v1/points/", params={"format": "csv"}, name="GET /api/v1/points/?format=csv")

    @task(1)
    def curve_job(self) -> None:
        params = {**_scenario(SIZEABLE), "cps_list": [4, 8]}
        params.pop("tps")
        with self.client.post(
            "/api/v1/jobs/", json={"kind": "curve", "params": params}, name="POST /api/v1/jobs/", catch_response=True
        ) as resp:
            if resp.status_code != 202:
                resp.failure(f"{resp.status_code}: {resp.text[:200]}")
                return
            job_id = resp.json()["id"]
        deadline = time.monotonic() + 60.0
        while True:
            with self.client.get(f"/api/v1/jobs/{job_id}/", name="GET /api/v1/jobs/[id]/", catch_response=True) as resp:
                status = resp.json().get("status") if resp.status_code == 200 else None
                if status in ("failed", "cancelled"):
                    resp.failure(f"job {job_id} {status}: {resp.json().get('error')}")
                    return
                if status == "succeeded":
                    break
                if time.monotonic() > deadline:
                    resp.failure(f"job {job_id} not finished after 60 s ({status})")
                    return
            time.sleep(0.5)
        self.client.get(f"/api/v1/jobs/{job_id}/result.csv", name="GET /api/v1/jobs/[id]/result.csv")
