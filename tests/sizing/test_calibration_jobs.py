"""A calibration in jobs, on a real Celery worker over Redis: a curve and a Monte Carlo job on
the private configuration, by its path and slug as any configuration; another user's job on it
is refused at submission (400, nothing stored)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from sizing.models import Job, JobStatus
from tests.celery_worker import Worker, wait_for_job
from tests.sizing.test_calibrations_api import _table_11_1_intervals

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_jobs_run_on_a_calibration_and_only_for_its_owner(jobs_worker: Worker, api: Any, other_user: Any) -> None:
    body = {"name": "Bank A", "path": "fiteq-authenticator", "model": "2827-710", "intervals": _table_11_1_intervals()}
    calibration = api.post("/api/v1/calibrations/", body, format="json").json()
    target = {"path": "fiteq-authenticator", "configuration": calibration["configuration"], "machine": "z13"}
    kinds = {
        "curve": {**target, "cps_list": [4, 6], "tps": 5000},
        "montecarlo": {**target, "tps": 8000, "samples": 5000, "seed": 3},
    }
    ids = {}
    for kind, params in kinds.items():
        response = api.post("/api/v1/jobs/", {"kind": kind, "params": params}, format="json")
        assert response.status_code == 202, response.json()
        ids[kind] = response.json()["id"]
    for kind, job_id in ids.items():
        job = wait_for_job(job_id, timeout=90)
        assert job.status == JobStatus.SUCCEEDED, (kind, job.error, jobs_worker.log_text()[-2000:])
        assert job.result is not None and job.result["kind"] == kind

    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=other_user).key}")
    refused = other.post("/api/v1/jobs/", {"kind": "curve", "params": kinds["curve"]}, format="json")
    assert refused.status_code == 400 and "configuration" in str(refused.json())
    assert Job.objects.filter(owner=other_user).count() == 0
