"""Jobs API without a worker: validation at submission (400 naming the field, nothing stored),
ownership (404), the list's queries, cancelling, the CSV of a result and the OpenAPI document.

Submissions here run inside the test's transaction, which is rolled back, so the on-commit
dispatch to the broker never happens; the worker tests are in test_jobs_worker.py.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
import yaml
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from models_lib.capacity import MAX_CPS
from sizing.api.job_serializers import MAX_BATCH_ROWS, MAX_CURVE_CPS
from sizing.models import Configuration, Job, JobStatus, Path, Visibility

pytestmark = pytest.mark.django_db

URL = "/api/v1/jobs/"
CURVE = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "cps_list": [4, 6]}
CLOSED = {
    "path": "zosconnect-cics",
    "configuration": "channel",
    "machine": "z13",
    "cps": 6,
    "clients": [100, 500],
    "think_time_s": 0.5,
}


def _submit(api: Any, kind: str, params: Any) -> Any:
    return api.post(URL, {"kind": kind, "params": params}, format="json")


def _job(owner: Any, *, status: str = JobStatus.QUEUED, result: Any = None, kind: str = "curve") -> Job:
    return Job.objects.create(owner=owner, kind=kind, params=CURVE, status=status, result=result, task_id="t-1")


# -- submission ------------------------------------------------------------------------------


def test_submit_answers_202_with_the_queued_job_and_its_url(
    api: Any, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    params = {**CURVE, "path": "FITEQ-Authenticator", "machine": "Z13", "cps_list": [8, 4, 6, 4]}
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = _submit(api, "curve", params)
    assert response.status_code == 202, response.json()
    body = response.json()
    job = Job.objects.get(pk=body["id"])
    assert job.owner == user and job.status == "queued" and job.progress == 0 and job.task_id
    assert response["Location"] == body["url"] and body["url"].endswith(f"/api/v1/jobs/{job.pk}/")
    assert body["status"] == "queued" and body["result"] is None and body["result_csv_url"] is None
    # Stored normalised: slugs as published, CP counts sorted and unique.
    assert job.params == {**CURVE, "cps_list": [4, 6, 8]}
    assert len(callbacks) == 1  # the dispatch waits for the commit


@pytest.mark.parametrize(
    ("kind", "params", "where"),
    [
        ("curve", {**CURVE, "cps_list": [0, 41]}, "cps_list"),
        ("curve", {**CURVE, "cps_list": list(range(1, MAX_CURVE_CPS + 2))}, "cps_list"),
        ("curve", {k: v for k, v in CURVE.items() if k != "cps_list"}, "cps_list"),
        ("curve", {**CURVE, "cps_lst": [4]}, "cps_lst"),
        ("curve", {**CURVE, "path": "no-such-path"}, "path"),
        ("curve", {**CURVE, "configuration": "channel"}, "configuration"),
        ("curve", {**CURVE, "machine": "z99"}, "machine"),
        ("curve", {**CURVE, "max_utilization": 1.5}, "max_utilization"),
        ("closed", {**CLOSED, "clients": [100, 50_001]}, "clients"),
        ("closed", {**CLOSED, "clients": list(range(1, 202))}, "clients"),
        ("closed", {**CLOSED, "clients": []}, "clients"),
        ("closed", {k: v for k, v in CLOSED.items() if k != "think_time_s"}, "think_time_s"),
        ("closed", {k: v for k, v in CLOSED.items() if k != "cps"}, "cps"),
        ("closed", {**CLOSED, "cps": MAX_CPS + 1}, "cps"),
        ("closed", {**CLOSED, "think_time_s": "NaN"}, "think_time_s"),
        ("montecarlo", {**CLOSED, "tps": 100}, "clients"),
        (
            "montecarlo",
            {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": 0},
            "tps",
        ),
        (
            "montecarlo",
            {
                "path": "fiteq-authenticator",
                "configuration": "multi-region",
                "machine": "z13",
                "tps": 10,
                "samples": 100_001,
            },
            "samples",
        ),
        ("optimize", {"path": "cicstg", "configuration": "ipic-channel-64", "machine": "z13", "tps": 100}, "costs"),
        (
            "optimize",
            {
                "path": "cicstg",
                "configuration": "ipic-channel-64",
                "machine": "z13",
                "tps": 100,
                "costs": {"gcp": 1.0, "ziip": -1},
            },  # fmt: skip
            "costs",
        ),
        ("mix", {"machine": "z13", "workloads": []}, "workloads"),
        (
            "mix",
            {"machine": "z13", "workloads": [{"path": "cicstg", "configuration": "ipic-channel-64", "tps": 5}] * 21},
            "workloads",
        ),
        ("batch", {"csv": "path,configuration,machine\nfiteq-authenticator,multi-region,z13\n"}, "csv"),
        ("batch", {"csv": "path,configuration,machine,tps,colour\n"}, "csv"),
        ("batch", {"csv": "path,configuration,machine,tps\n"}, "csv"),
    ],
)
def test_bad_params_answer_400_naming_the_field_and_store_nothing(api: Any, kind: str, params: Any, where: str) -> None:
    response = _submit(api, kind, params)
    assert response.status_code == 400, response.json()
    assert where in response.json()["params"], response.json()
    assert not Job.objects.exists()


def test_too_many_clients_is_explained(api: Any) -> None:
    body = _submit(api, "closed", {**CLOSED, "clients": [100, 50_001]}).json()
    assert body == {"params": {"clients": {"1": ["Ensure this value is less than or equal to 50000."]}}}


def test_bad_kind_and_missing_params_answer_400(api: Any) -> None:
    response = api.post(URL, {"kind": "weather", "params": {}}, format="json")
    assert response.status_code == 400
    assert "kind" in response.json()
    response = api.post(URL, {"kind": "curve"}, format="json")
    assert response.status_code == 400 and "params" in response.json()
    response = api.post(URL, {"kind": "curve", "params": [1, 2]}, format="json")
    assert response.status_code == 400 and "params" in response.json()
    assert not Job.objects.exists()


def test_a_mix_names_the_bad_workload_by_position(api: Any) -> None:
    good = {"path": "cicstg", "configuration": "ipic-channel-64", "tps": 100}
    response = _submit(api, "mix", {"machine": "z13", "workloads": [good, {**good, "path": "nope"}]})
    assert response.status_code == 400
    errors = response.json()["params"]["workloads"]
    assert errors[0] == {} and "path" in errors[1]


def test_a_batch_over_the_row_limit_is_refused(api: Any) -> None:
    rows = "\n".join("cicstg,ipic-channel-64,z13,100" for _ in range(MAX_BATCH_ROWS + 1))
    response = _submit(api, "batch", {"csv": "path,configuration,machine,tps\n" + rows})
    assert response.status_code == 400
    assert "5000" in response.json()["params"]["csv"][0]


def test_another_engineers_private_configuration_is_unknown(api: Any, other_user: Any) -> None:
    path = Path.objects.get(slug="fiteq-authenticator")
    Configuration.objects.create(path=path, slug="their-own", name="x", visibility=Visibility.PRIVATE, owner=other_user)
    response = _submit(api, "curve", {**CURVE, "configuration": "their-own"})
    assert response.status_code == 400 and "configuration" in response.json()["params"]


def test_anonymous_requests_get_401(client: Any) -> None:
    assert APIClient().post(URL, {"kind": "curve", "params": CURVE}, format="json").status_code == 401
    assert APIClient().get(URL).status_code == 401


def test_submissions_are_throttled_with_the_jobs_scope(api: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"jobs": "2/min", "estimates": "1000/min"})
    cache.clear()
    codes = [_submit(api, "curve", CURVE).status_code for _ in range(3)]
    cache.clear()
    assert codes == [202, 202, 429]


# -- reading, ownership, cancelling --------------------------------------------------------------


def test_another_engineers_job_is_404_everywhere(api: Any, other_user: Any) -> None:
    theirs = _job(other_user, status=JobStatus.SUCCEEDED, result={"table": {"columns": ["a"], "rows": [[1]]}})
    for url in (f"{URL}{theirs.pk}/", f"{URL}{theirs.pk}/result.csv", f"{URL}{theirs.pk}/?format=csv"):
        assert api.get(url).status_code == 404, url
    assert api.delete(f"{URL}{theirs.pk}/").status_code == 404
    assert api.get(URL).json()["count"] == 0
    theirs.refresh_from_db()
    assert theirs.status == JobStatus.SUCCEEDED


def test_list_shows_own_jobs_newest_first_without_results_in_constant_queries(
    api: Any, user: Any, other_user: Any, django_assert_max_num_queries: Any
) -> None:
    for _ in range(3):
        _job(user, status=JobStatus.SUCCEEDED, result={"big": list(range(1000))})
    _job(other_user)
    # Token lookup (with its user), count, page, the kept-jobs quota: the number of jobs does not matter.
    with django_assert_max_num_queries(4):
        few = api.get(URL).json()
    for _ in range(27):
        _job(user)
    with django_assert_max_num_queries(4):
        many = api.get(URL).json()
    assert few["count"] == 3 and many["count"] == 30
    ids = [row["id"] for row in many["results"]]
    assert ids == sorted(ids, reverse=True)
    assert all("result" not in row for row in many["results"])
    assert {"status", "progress", "kind", "url", "result_csv_url", "worker_host", "attempts"} <= set(many["results"][0])


def test_list_is_paginated(api: Any, user: Any) -> None:
    for _ in range(5):
        _job(user)
    body = api.get(URL, {"page_size": 2}).json()
    assert body["count"] == 5 and len(body["results"]) == 2 and body["next"]


def test_cancel_a_queued_job_then_again_then_a_finished_one(
    api: Any, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    job = _job(user)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert api.delete(f"{URL}{job.pk}/").status_code == 204
    job.refresh_from_db()
    assert job.status == JobStatus.CANCELLED and job.finished_at is not None
    assert len(callbacks) == 1  # the revocation, after the commit
    assert api.delete(f"{URL}{job.pk}/").status_code == 204  # idempotent
    done = _job(user, status=JobStatus.SUCCEEDED)
    response = api.delete(f"{URL}{done.pk}/")
    assert response.status_code == 409 and "succeeded" in response.json()["detail"]
    done.refresh_from_db()
    assert done.status == JobStatus.SUCCEEDED


def test_result_csv_of_a_succeeded_job(api: Any, user: Any) -> None:
    # A batch's result as its runner writes it (the schema describes each kind's: tests/openapi_check.py).
    result = {
        "kind": "batch",
        "rows": 3,
        "succeeded": 3,
        "failed": 0,
        "counts": {"sized": 3, "does-not-fit": 0, "no-cpu-data": 0, "refused": 0},
        "table": {
            "columns": ["cps", "tps", "note"],
            "rows": [[4, 10.5, None], [6, 20.0, "a,b"], [8, 0.023859041092830654, True]],
        },
    }
    job = _job(user, kind="batch", status=JobStatus.SUCCEEDED, result=result)
    for url in (f"{URL}{job.pk}/result.csv", f"{URL}{job.pk}/?format=csv"):
        response = api.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("text/csv")
        assert f"zsizer-job-{job.pk}-batch.csv" in response["Content-Disposition"]
        rows = list(csv.reader(io.StringIO(response.content.decode())))
        # docs/csv.md: 6 significant digits, a whole number without decimals, TRUE (never Python's True)
        assert rows == [["cps", "tps", "note"], ["4", "10.5", ""], ["6", "20", "a,b"], ["8", "0.023859", "TRUE"]]
    detail = api.get(f"{URL}{job.pk}/").json()
    assert detail["result"] == result and detail["result_csv_url"].endswith(f"/api/v1/jobs/{job.pk}/result.csv")


def test_result_csv_before_success_is_409(api: Any, user: Any) -> None:
    job = _job(user, status=JobStatus.RUNNING)
    response = api.get(f"{URL}{job.pk}/result.csv")
    assert response.status_code == 409
    assert "running" in response.content.decode()


# -- the OpenAPI document -------------------------------------------------------------------------


def test_schema_documents_every_job_response(api: Any) -> None:
    schema = yaml.safe_load(api.get("/api/schema/").content)
    jobs = schema["paths"]["/api/v1/jobs/"]
    assert {"202", "400", "401", "429"} <= set(jobs["post"]["responses"])
    assert {"200", "401"} <= set(jobs["get"]["responses"])
    detail = schema["paths"]["/api/v1/jobs/{id}/"]
    assert {"200", "401", "404"} <= set(detail["get"]["responses"])
    assert {"204", "401", "404", "409", "429"} <= set(detail["delete"]["responses"])
    csv_op = schema["paths"]["/api/v1/jobs/{id}/result.csv"]["get"]
    assert {"200", "401", "404", "409"} <= set(csv_op["responses"])
    # The request is typed per kind: each kind's parameters, with their limits.
    components = schema["components"]["schemas"]
    ref = jobs["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    request = components[ref.rsplit("/", 1)[1]]
    assert request["discriminator"]["propertyName"] == "kind"
    assert set(request["discriminator"]["mapping"]) == {"curve", "closed", "montecarlo", "optimize", "mix", "batch"}
    closed = components["ClosedParamsRequest"]["properties"]
    assert closed["clients"]["maxItems"] == 200 and closed["clients"]["items"]["maximum"] == 50_000
