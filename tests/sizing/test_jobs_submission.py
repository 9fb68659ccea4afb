"""A job is checked at submission exactly as its estimates would be (issue 24, item 4): a CP count
the estimate refuses on that target, a configuration the engine cannot size, a mix's unrated LPAR
are a 400 naming the field, with the estimate's own message, and nothing is stored; a job that is
accepted computes.
"""

from __future__ import annotations

from typing import Any

import pytest

from sizing.api.job_serializers import JobSubmitSerializer
from sizing.jobs import RUNNERS
from sizing.models import Job

pytestmark = pytest.mark.django_db

URL = "/api/v1/jobs/"
FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region"}
#: HostBridge publishes a response-time floor and no CPU figures (benchmarks/hostbridge_we_do_performance.yaml).
HOSTBRIDGE = {"path": "hostbridge-http", "configuration": "tuned-tcpip"}


def _submit(api: Any, kind: str, params: dict[str, Any]) -> Any:
    return api.post(URL, {"kind": kind, "params": params}, format="json")


def _estimate_error(api: Any, field: str, **params: Any) -> str:
    response = api.get("/api/v1/estimate", {"tps": 100, **params})
    assert response.status_code == 400, response.json()
    return str(response.json()[field][0])


def test_a_curve_on_cp_counts_the_target_does_not_rate_is_refused_as_the_estimate_refuses_them(api: Any) -> None:
    # The case: the z17 9176 (midrange) is rated 1..6 CPs at each setting (zPCR export,
    # benchmarks/lspr_zpcr_configuration_summary.csv), so 7 and 8 are not.
    response = _submit(api, "curve", {**FITEQ, "machine": "z17-9176", "cps_list": [7, 8]})
    assert response.status_code == 400, response.json()
    errors = response.json()["params"]["cps_list"]
    assert errors == [
        _estimate_error(api, "cps", **FITEQ, machine="z17-9176", cps=7),
        _estimate_error(api, "cps", **FITEQ, machine="z17-9176", cps=8),
    ]
    # One bad count among good ones is named alone.
    mixed = _submit(api, "curve", {**FITEQ, "machine": "z17-9176", "cps_list": [2, 7]})
    assert mixed.json()["params"]["cps_list"] == [errors[0]]
    assert not Job.objects.exists()


def test_a_curve_on_a_model_takes_only_the_models_cp_count_as_the_estimate_does(api: Any) -> None:
    # 3931-705: a z16 with 5 full-speed CPs; the estimate refuses cps=4 with that model.
    response = _submit(api, "curve", {**FITEQ, "model": "3931-705", "cps_list": [4]})
    assert response.status_code == 400
    assert response.json()["params"]["cps_list"] == [_estimate_error(api, "cps", **FITEQ, model="3931-705", cps=4)]
    accepted = _submit(api, "curve", {**FITEQ, "model": "3931-705", "cps_list": [5]})
    assert accepted.status_code == 202, accepted.json()


def test_a_mix_on_an_unrated_lpar_is_refused_as_the_estimate_refuses_it(api: Any) -> None:
    params = {"machine": "z17-9176", "cps": 7, "workloads": [{**FITEQ, "tps": 100}]}
    response = _submit(api, "mix", params)
    assert response.status_code == 400, response.json()
    assert response.json()["params"]["cps"] == [_estimate_error(api, "cps", **FITEQ, machine="z17-9176", cps=7)]
    assert not Job.objects.exists()


@pytest.mark.parametrize(
    ("kind", "extra"),
    [
        ("curve", {"cps_list": [4]}),
        ("closed", {"cps": 4, "clients": [10], "think_time_s": 1.0}),
        ("montecarlo", {"tps": 100, "samples": 100}),
        ("optimize", {"tps": 100, "costs": {"gcp": 1.0, "ziip": 0.3}}),
    ],
)
def test_a_job_on_a_configuration_without_cpu_data_is_refused_with_the_estimates_reason(
    api: Any, kind: str, extra: dict[str, Any]
) -> None:
    # The estimate answers (no CPs sized) with a no-cpu-data warning; a job, which needs CPU
    # figures for everything it computes, is refused with the same sentence on configuration.
    estimate = api.get("/api/v1/estimate", {**HOSTBRIDGE, "machine": "z16", "tps": 100}).json()
    reason = next(w["message"] for w in estimate["warnings"] if w["code"] == "no-cpu-data")
    response = _submit(api, kind, {**HOSTBRIDGE, "machine": "z16", **extra})
    assert response.status_code == 400, response.json()
    assert response.json()["params"] == {"configuration": [reason]}
    mix = _submit(api, "mix", {"machine": "z16", "workloads": [{**FITEQ, "tps": 100}, {**HOSTBRIDGE, "tps": 100}]})
    assert mix.status_code == 400
    assert mix.json()["params"] == {"workloads": [{}, {"configuration": [reason]}]}
    assert not Job.objects.exists()


ACCEPTED = [
    ("curve", {**FITEQ, "machine": "z17-9176", "cps_list": [1, 6], "points": 10}),
    ("curve", {**FITEQ, "model": "3931-510", "points": 10}),
    ("closed", {"path": "zosconnect-cics", "configuration": "channel", "machine": "z13", "cps": 6, "clients": [100]}),
    ("montecarlo", {**FITEQ, "machine": "z17-9176", "cps": 6, "tps": 100, "samples": 100, "seed": 1}),
    ("optimize", {**FITEQ, "machine": "z17-9176", "tps": 100, "costs": {"gcp": 1.0, "ziip": 0.3}}),
    ("mix", {"machine": "z17-9176", "cps": 6, "workloads": [{**FITEQ, "tps": 100}]}),
]


@pytest.mark.parametrize(("kind", "params"), ACCEPTED)
def test_an_accepted_job_computes(user: Any, kind: str, params: dict[str, Any]) -> None:
    if kind == "closed":
        params = {**params, "think_time_s": 0.5}
    submitted = JobSubmitSerializer(data={"kind": kind, "params": params}, context={"user": user})
    assert submitted.is_valid(), submitted.errors
    result = RUNNERS[kind](params=submitted.validated_data["params"], owner=user, progress=lambda done, total: None)
    assert result["kind"] == kind
