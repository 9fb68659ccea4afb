"""Pages keep their question (issue 30): what the workbench is handed when it reopens a saved
estimate (``Open in the workbench``) or a job (``/size/?job=<id>``), server side; the browser
tests (``test_reopen_browser.py``) check that the form shows it."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from sizing.api.job_serializers import JobSubmitSerializer
from sizing.models import Job
from sizing.services.estimates import estimate_create

pytestmark = pytest.mark.django_db

TARGET = {"path": "cicstg", "configuration": "ipic-channel-64", "machine": "z15"}


@pytest.fixture
def browser(client: Any, user: Any) -> Any:
    client.force_login(user)
    return client


def _job(user: Any, kind: str, params: dict[str, Any]) -> Job:
    """A job stored as the API stores it: its params validated by the kind's serializer."""
    form = JobSubmitSerializer(data={"kind": kind, "params": params}, context={"user": user})
    assert form.is_valid(), form.errors
    return Job.objects.create(owner=user, kind=kind, params=form.validated_data["params"])


def test_open_in_the_workbench_carries_every_stored_input_and_the_name(browser: Any, user: Any) -> None:
    inputs = {
        "path": "cicsts-catalog", "configuration": "v5.3", "model": "3931-506", "tps": 9000.0, "ziips": 2,
        "max_utilization": 0.8, "payload_bytes": 1000, "response_time_sla_ms": 40.0, "projection_band": 0.1,
        "lpar_overhead": 0.2, "smt2_factor": 1.2, "cics_regions": 9, "objective": "least-msu-consumed",
    }  # fmt: skip
    estimate = estimate_create(user=user, inputs={**inputs, "name": "Catalog on a 506"})
    page = browser.get(f"/estimates/{estimate.pk}/").content.decode()
    href = html.unescape(re.search(r'href="([^"]+)">Open in the workbench', page).group(1))
    assert urlsplit(href).path == "/size/"
    query = dict(parse_qsl(urlsplit(href).query))
    # every stored input (the model's machine, setting and CPs included), whole numbers as typed
    expected = {k: str(int(v) if isinstance(v, float) and v.is_integer() else v) for k, v in estimate.inputs.items()}
    assert query == {**expected, "name": "Catalog on a 506"}
    assert query["tps"] == "9000" and query["cics_regions"] == "9" and query["objective"] == "least-msu-consumed"
    opened = browser.get(href)
    assert opened.context["example"] is False
    assert opened.context["initial"] == query


@pytest.mark.parametrize(
    ("kind", "params", "question"),
    [
        ("curve", {**TARGET, "tps": 2500, "cps_list": [2, 3], "max_utilization": 0.7},
         {**TARGET, "tps": 2500.0, "max_utilization": 0.7}),
        ("closed", {**TARGET, "cps": 3, "clients": [10, 100], "think_time_s": 2},
         {**TARGET, "cps": 3, "model": "8561-703"}),
        ("montecarlo", {**TARGET, "tps": 2500, "cps": 3, "samples": 700, "seed": 41},
         {**TARGET, "tps": 2500.0, "cps": 3, "model": "8561-703"}),
        ("optimize", {**TARGET, "tps": 2500, "costs": {"gcp": 1, "ziip": 0.3}, "response_time_sla_ms": 50},
         {**TARGET, "tps": 2500.0, "response_time_sla_ms": 50.0}),
        ("mix", {"machine": "z16", "max_utilization": 0.75, "workloads": [
            {"path": "fiteq-authenticator", "configuration": "single-region", "tps": 40000},
            {"path": "cicstg", "configuration": "ipic-commarea-64", "tps": 1200}]},
         {"machine": "z16", "max_utilization": 0.75, "path": "fiteq-authenticator",
          "configuration": "single-region", "tps": 40000.0}),
        ("batch", {"csv": "path,configuration,machine,tps,cics_regions\ncicsts-catalog,v5.2,z14,4567,6\n"
                          "cicstg,ipic-channel-64,z15,100,\n"},
         {"path": "cicsts-catalog", "configuration": "v5.2", "machine": "z14", "tps": "4567", "cics_regions": "6"}),
    ],
)  # fmt: skip
def test_a_reopened_job_hands_the_workbench_its_own_question(
    browser: Any, user: Any, kind: str, params: dict[str, Any], question: dict[str, Any]
) -> None:
    job = _job(user, kind, params)
    response = browser.get("/size/", {"job": str(job.pk)})
    assert response.status_code == 200
    assert response.context["example"] is False  # never the example's FiTeq at 8,000 TPS
    assert response.context["initial"] == question
    reopened = response.context["reopened_job"]
    assert reopened == {"id": job.pk, "kind": kind, "params": job.params, "url": f"/api/v1/jobs/{job.pk}/"}
    page = response.content.decode()
    assert 'id="example-note"' not in page
    assert f'href="/size/?job={job.pk}"' in page  # listed among the recent jobs


def test_another_engineers_job_is_not_found(browser: Any, other_user: Any) -> None:
    theirs = _job(other_user, "curve", {**TARGET, "cps_list": [2]})
    assert browser.get("/size/", {"job": str(theirs.pk)}).status_code == 404
    assert f"?job={theirs.pk}" not in browser.get("/size/").content.decode()
