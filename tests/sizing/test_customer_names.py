"""Issue 30, customer-ready: what a person reads names products and machines (never slugs), the
generation's specialty engine (zAAP on z10..zEC12/zBC12, zIIP later), and a fractional rate as
itself ("0.5 TPS", never "0 TPS").  Each test reads the rendered output: the PDF through
pdftotext, the page's HTML, the plan's answer the page draws its chart from.  The expected names
are the seeds' (``Machine.name``, ``Path.name``, ``Configuration.name``), the engine the engine
rules' (``specialty_name``), the rates the questions' own."""

from __future__ import annotations

from typing import Any

import pytest

from sizing import presentation
from sizing.models import Configuration, Machine, Path
from sizing.services.cecs import specialty_name
from sizing.services.reports import product_names
from tests.sizing.test_reports import _create, _stored_job, report_words

pytestmark = pytest.mark.django_db

ZCEE = {"path": "zosconnect-cics", "configuration": "channel"}
CICSTG = {"path": "cicstg", "configuration": "ipic-channel-64"}


def _names(path: str, configuration: str) -> tuple[str, str]:
    p = Path.objects.get(slug=path)
    return p.name, Configuration.objects.get(path=p, slug=configuration).name


def test_an_estimate_at_half_a_transaction_a_second_reads_0_5_tps(api: Any, client: Any, user: Any) -> None:
    tps = 0.5
    made = _create(api, {**ZCEE, "machine": "z16", "tps": tps})
    machine = Machine.objects.get(slug="z16").name
    words = report_words(api, f"/api/v1/estimates/{made['id']}/report.pdf")
    assert f"At {presentation.rate(tps)} on {machine}" in words and presentation.rate(tps) == "0.5 TPS"
    assert " 0 TPS" not in words
    client.force_login(user)
    html = client.get(f"/estimates/{made['id']}/").content.decode()
    assert "0.5 TPS" in html and " 0 TPS" not in html


def test_a_mix_on_a_zec12_names_the_machine_and_its_zaaps(api: Any, user: Any) -> None:
    rates = (12.5, 0.5)
    job = _stored_job(
        user,
        "mix",
        {"machine": "zec12", "workloads": [{**CICSTG, "tps": rates[0]}, {**ZCEE, "tps": rates[1]}]},
    )
    engine = specialty_name(Machine.objects.get(slug="zec12").machine_type)
    assert job.result["specialty_engine"] == engine == "zAAP"
    words = report_words(api, f"/api/v1/jobs/{job.pk}/report.pdf")
    summary = words.split("Result table", 1)[0]  # the result table is the CSV's, slugs and all
    machine = Machine.objects.get(slug="zec12").name
    assert f"{presentation.plural(job.result['ziips'], 'zAAP')}" in summary and f"on {machine}" in summary
    assert "zIIP" not in summary and " on zec12" not in summary
    combined = presentation.mix_combined(
        job.result["combined"]["tps"], job.result["combined"]["gcp_utilization"], job.result["ziips"],
        job.result["combined"]["ziip_utilization"], engine,
    )  # fmt: skip
    assert combined in summary and combined.startswith("13 TPS")
    for (path, configuration), tps in zip(((CICSTG["path"], CICSTG["configuration"]), (ZCEE["path"], ZCEE["configuration"])), rates, strict=True):  # fmt: skip
        product, config = _names(path, configuration)
        assert f"{product}, {config} at {presentation.rate(tps)}" in summary
        assert path not in summary  # "channel", a slug, is also a word of the names
    assert "ipic-channel-64" not in summary
    assert "12.5 TPS" in summary and "0.5 TPS" in summary


def test_a_plan_names_its_workloads_and_machines(api: Any, user: Any, settings: Any) -> None:
    settings.ZSIZER_PLAN_INLINE_EVALUATIONS = 100
    body = {
        "name": "Names",
        "horizon_years": 2,
        "workloads": [{**ZCEE, "tps": 2000, "growth_tps": 0.5, "peak_ratio": 1.5}],
        "candidates": ["3931-708"],
        "generations": ["z16"],
    }
    response = api.post("/api/v1/plans/", body, format="json")
    assert response.status_code == 201, response.content
    plan = response.json()
    result = plan["result"]
    product, config = _names(ZCEE["path"], ZCEE["configuration"])
    names = product_names(user)
    machine = Machine.objects.get(slug="z16").name
    # what the page's chart legend and table read: the workloads in words (the label keeps the slugs)
    for period in result["periods"]:
        assert [w["name"] for w in period["workloads"]] == [f"{product}, {config}"]
        assert [w["label"] for w in period["workloads"]] == ["zosconnect-cics/channel"]
    assert [c["label"] for c in result["candidates"]] == ["3931-708", f"{machine} (model that fits)"]
    sentence = result["recommendation"]["sentence"]
    assert f"({names.machine('z16')}, " in sentence and "(z16," not in sentence
    words = report_words(api, f"/api/v1/plans/{plan['id']}/report.pdf")
    assert sentence in words and f"{machine} (model that fits)" in words
    assert f"W1: {product}, {config}" in words and "zosconnect-cics" not in words
    # the growth, half a transaction a second a year, as itself
    assert "0.5 TPS a year" in words


@pytest.mark.parametrize(
    ("kind", "params", "said"),
    [
        ("montecarlo", {**CICSTG, "machine": "zec12", "tps": 3000, "samples": 200, "seed": 3}, "zAAPs required"),
        (
            "closed",
            {**CICSTG, "machine": "zec12", "cps": 3, "clients": [10, 500], "think_time_s": 1.0},
            " zAAPs, think",
        ),
    ],
)
def test_job_pdfs_name_the_zaaps_of_a_zec12(api: Any, user: Any, kind: str, params: dict[str, Any], said: str) -> None:
    job = _stored_job(user, kind, params)
    assert job.result["specialty_engine"] == specialty_name(Machine.objects.get(slug="zec12").machine_type) == "zAAP"
    words = report_words(api, f"/api/v1/jobs/{job.pk}/report.pdf")
    assert said in words and said.replace("zAAP", "zIIP") not in words
