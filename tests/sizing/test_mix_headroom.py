"""A workload mix's headroom (issue 30): the jobs panel said ×1.04 and the job's PDF ×1.23 for the
same job, the first the headroom within the CP ceiling, the second the saturation scale under the
headroom's name.  Both now print ``presentation.mix_headroom``: each multiplier by its own name,
checked here against its definition on the engine's shared LPAR (``models_lib.mix.share_lpar``).
"""

from __future__ import annotations

from typing import Any

import pytest

from models_lib.mix import share_lpar
from sizing import presentation
from sizing.jobs.mix import mix_workload, run_mix
from sizing.models import Job, JobKind, JobStatus
from sizing.records import MixHeadroomRecord
from tests.sizing.test_reports import pdf_text

pytestmark = pytest.mark.django_db

#: The issue's mix: FiTeq single region at the 40,000 TPS typed, with CICS TG beside it on a z16.
PARAMS = {
    "machine": "z16",
    "workloads": [
        {"path": "fiteq-authenticator", "configuration": "single-region", "tps": 40000},
        {"path": "cicstg", "configuration": "ipic-commarea-64", "tps": 1200},
    ],
}


def _mix(user: Any) -> dict[str, Any]:
    return run_mix(params=PARAMS, owner=user, progress=lambda done, total: None)


def test_the_headroom_is_the_largest_common_multiplier_within_the_ceiling(user: Any) -> None:
    result = _mix(user)
    record = MixHeadroomRecord.from_result(result)
    assert record.headroom is not None and record.saturation_scale is not None and record.ceiling is not None
    models = [mix_workload(owner=user, params=PARAMS, entry=e) for e in PARAMS["workloads"]]
    rates = [float(e["tps"]) for e in PARAMS["workloads"]]

    def utilisation(scale: float) -> float:
        lpar = share_lpar(models, [r * scale for r in rates], cps=result["cps"], ziips=None, ceiling=record.ceiling)
        return lpar.gcp_utilization

    # Within the ceiling at the headroom, past it just beyond: the definition, on the engine's LPAR.
    assert utilisation(record.headroom) <= record.ceiling + 1e-9
    assert utilisation(record.headroom * 1.001) > record.ceiling
    # At today's rates the utilisation is the job's, and the headroom is where it meets the ceiling.
    assert utilisation(1.0) == pytest.approx(result["combined"]["gcp_utilization"], rel=1e-12)
    assert utilisation(record.headroom) == pytest.approx(record.ceiling, rel=1e-3)
    # Saturation comes later than the ceiling: two quantities, never one under the other's name.
    assert record.saturation_scale > record.headroom


def test_the_sentence_names_each_multiplier(user: Any) -> None:
    record = MixHeadroomRecord.from_result(_mix(user))
    assert presentation.mix_headroom(record) == (
        f"Headroom ×{record.headroom:.2f}: every rate can grow by this factor before the CPs pass the "
        f"{record.ceiling * 100:.0f}% ceiling; a pool saturates at ×{record.saturation_scale:.2f}."
    )
    over = MixHeadroomRecord(headroom=0.9, saturation_scale=1.1, ceiling=0.85)
    assert presentation.mix_headroom(over) == (
        "Headroom ×0.90: the CPs are above the 85% ceiling at these rates; a pool saturates at ×1.10."
    )
    unbounded = MixHeadroomRecord(headroom=None, saturation_scale=None, ceiling=0.85)
    assert presentation.mix_headroom(unbounded) == (
        "No headroom limit: every rate can grow without the CPs passing the 85% ceiling."
    )


def test_the_page_and_the_pdf_say_the_same_headroom(api: Any, user: Any) -> None:
    result = _mix(user)
    job = Job.objects.create(
        owner=user, kind=JobKind.MIX, params=PARAMS, status=JobStatus.SUCCEEDED, progress=100, result=result
    )
    sentence = presentation.mix_headroom(MixHeadroomRecord.from_result(result))
    body = api.get(f"/api/v1/jobs/{job.pk}/").json()
    assert body["display"]["headroom"] == sentence  # what the jobs panel prints
    assert body["result_xlsx_url"].endswith(f"/api/v1/jobs/{job.pk}/result.xlsx")
    response = api.get(f"/api/v1/jobs/{job.pk}/report.pdf")
    assert response.status_code == 200, response.content[:300]
    words = " ".join(" ".join(pdf_text(response.content)).split())
    assert sentence in words


def test_the_combined_line_prints_no_zIIP_busy_without_zIIPs(api: Any, user: Any) -> None:
    # FiTeq alone has no zIIP-eligible work: the mix sizes no zIIPs, and the PDF's combined line
    # says the CPs' busy only (it printed "zIIPs — busy"); with CICS TG beside it, one zIIP is
    # sized and its busy is the pool's busy engines over the zIIPs.
    alone = {"machine": "z16", "workloads": PARAMS["workloads"][:1]}
    for params in (alone, PARAMS):
        result = run_mix(params=params, owner=user, progress=lambda done, total: None)
        c = result["combined"]
        cpus = f"{c['tps']:,.0f} TPS, CPs {c['gcp_utilization'] * 100:.0f}% busy"
        if params is alone:
            assert result["ziips"] == 0 and c["ziip_utilization"] is None
            expected = cpus
        else:
            assert result["ziips"] > 0
            expected = f"{cpus}, zIIPs {c['ziip_busy'] / result['ziips'] * 100:.0f}% busy"
        job = Job.objects.create(
            owner=user, kind=JobKind.MIX, params=params, status=JobStatus.SUCCEEDED, progress=100, result=result
        )
        words = " ".join(" ".join(pdf_text(api.get(f"/api/v1/jobs/{job.pk}/report.pdf").content)).split())
        assert f"Combined {expected} MIPS and MSU" in words, words
        assert "— busy" not in words
