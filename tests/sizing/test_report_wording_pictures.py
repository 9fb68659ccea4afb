"""What the PDF pictures (docs/pictures/*-pdf-*.png, ``frontend/pdf_pictures.py``) showed a
customer reading them, read back with pdftotext: the engine's reasoning naming "zIIP/zAAP" on a
z17 and ratings without separators, "with 0 zIIPs", "1 CPs", "P = 99.8%" and a "0\u20130" range.
Each expected string is built from the stored answer or result."""

from __future__ import annotations

import re
from typing import Any

import pytest

from sizing.models import Estimate
from sizing.presentation import percent, plural
from tests.sizing.test_reports import CICSTG, FITEQ, _create, _pdf, _stored_job, pdf_text

pytestmark = pytest.mark.django_db


def _flowing(pdf: bytes) -> str:
    return " ".join(" ".join(pdf_text(pdf)).split())


def _warning(outputs: dict[str, Any], code: str) -> str:
    return str(next(w["message"] for w in outputs["warnings"] if w["code"] == code))


@pytest.mark.parametrize(("machine", "engine", "other"), [("z17", "zIIP", "zAAP"), ("zec12", "zAAP", "zIIP")])
def test_an_answer_without_eligibility_names_its_generations_engine_and_says_none(
    api: Any, machine: str, engine: str, other: str
) -> None:
    # FiTeq publishes no specialty-engine eligibility: the engine's reasoning says "zIIP/zAAP"
    # whatever the machine; the report names the generation's engine (zAAP up to the zEC12).
    body = _create(api, {**FITEQ, "machine": machine, "tps": 3000})
    o = Estimate.objects.get(pk=body["id"]).outputs
    assert o["ziips_required"] == 0 and "zIIP/zAAP" in _warning(o, "no-eligibility-data")
    text = _flowing(_pdf(api, f"/api/v1/estimates/{body['id']}/report.pdf"))
    assert "zIIP/zAAP" not in text and "0 % eligible" not in text
    assert f"No {engine} eligibility is published for this configuration: none of the work is assumed eligible" in text
    assert f"No {other} eligibility" not in text
    # the configuration to order says there are none, not "with 0 zIIPs"
    cap = o["capacity"]
    assert f"{cap['model']} (capacity setting {cap['capacity_setting']}) with no {engine}s." in text
    # the projection's ratings with separators, as every other figure of the report
    ratings = re.findall(r"\((\d+\.\d) MIPS per CP\)", _warning(o, "projection"))
    assert ratings and any(float(r) >= 1000 for r in ratings)
    for r in ratings:
        assert f"({float(r):,.1f} MIPS per CP)" in text


def test_a_monte_carlo_report_says_shares_of_samples_and_one_figure_for_an_equal_range(api: Any, user: Any) -> None:
    job = _stored_job(user, "montecarlo", {**FITEQ, "samples": 500, "seed": 3, "response_time_sla_ms": 10})
    r = job.result
    text = _flowing(_pdf(api, f"/api/v1/jobs/{job.pk}/report.pdf"))
    assert "P = " not in text
    assert f"Within the ceiling {percent(r['p_within_ceiling'], 1)} of the samples at " in text
    assert f"{plural(r['evaluated_at_cps'], 'CP')}" in text
    # the goal by its figure, the job's own (it said "Meets the goal" without saying which)
    assert r["response_time_sla_ms"] == 10
    assert f"Meets the 10 ms goal {percent(r['p_meets_sla'], 1)} of the samples" in text
    # FiTeq has no zIIP-eligible work: every sample needs 0 zIIPs, said once, not "0\u20130"
    ziips = r["ziips_required"]
    assert ziips["p5"] == ziips["p95"] == 0
    assert "zIIPs required median 0, 5th to 95th percentile 0 " in f"{text} " and "0\u20130" not in text


def test_an_optimisers_report_counts_one_cp_in_the_singular(api: Any, user: Any) -> None:
    job = _stored_job(user, "optimize", {**CICSTG, "costs": {"gcp": 1.0, "ziip": 0.3}})
    best = job.result["best"]
    assert best["cps"] == 1  # CICS TG at 3,000 TPS on a z13: one CP beside its zIIPs is cheapest
    text = _flowing(_pdf(api, f"/api/v1/jobs/{job.pk}/report.pdf"))
    assert f"Cheapest mix 1 CP + {plural(best['ziips'], 'zIIP')}, cost" in text
    # nor in the basis: the projection's row and the engine's MP-effect note ("the 1 CPs and ...")
    assert "1 CPs" not in text and f"with {plural(best['cps'], 'CP')}: factor" in text


def test_a_monte_carlo_chart_has_a_bar_for_every_cp_count_between_the_fewest_and_the_most(api: Any, user: Any) -> None:
    # FiTeq at 7,000 TPS on a z16 (the PDF picture's job): a few samples need 7 CPs, none 6; the
    # chart drew 3, 4, 5 and 7 side by side, as if 7 came after 5.
    job = _stored_job(user, "montecarlo", {**FITEQ, "machine": "z16", "tps": 7000, "samples": 500, "seed": 3})
    sampled = sorted(h["cps"] for h in job.result["cps_required"]["histogram"])
    every = list(range(sampled[0], sampled[-1] + 1))
    assert len(every) > len(sampled)  # a count between that no sample needed
    drawn = " ".join(" ".join(pdf_text(_pdf(api, f"/api/v1/jobs/{job.pk}/report.pdf"), raw=True)).split())
    assert f" {' '.join(map(str, every))} CPs required" in drawn


def test_a_placements_chart_gives_the_guaranteed_share_in_engines(api: Any) -> None:
    # the line of the LPAR's guaranteed share read "guaranteed share 7.00", a number without its unit
    from sizing.api.cec_views import EXAMPLE

    cec = api.post("/api/v1/cecs/", EXAMPLE, format="json").json()
    body = {"lpar": "PROD", "workloads": [{"path": "zosconnect-cics", "configuration": "channel", "tps": 2000}]}
    placed = api.post(f"{cec['url']}place/", body, format="json").json()
    response = api.post(f"{cec['url'].rstrip('/')}/place.pdf", body, format="json")
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    text = _flowing(bytes(response.content))
    for pool in placed["pools"]:
        assert f"guaranteed share {pool['share']:,.2f} {pool['engine']}s" in text


def test_a_report_without_cpu_data_says_why_once_on_its_first_page(api: Any) -> None:
    # HostBridge publishes no CPU figures: the answer said "No CPs can be quoted: no CPU figures
    # are published for this path." and the decision under it said the same again.
    body = _create(api, {"path": "hostbridge-http", "configuration": "tuned-tcpip", "machine": "z16", "tps": 1000})
    o = Estimate.objects.get(pk=body["id"]).outputs
    assert o["feasibility"]["feasible"] is None and o["feasibility"]["reason"] == "no-cpu-data"
    first = " ".join(pdf_text(_pdf(api, f"/api/v1/estimates/{body['id']}/report.pdf"))[0].split())
    assert "The answer. No CPs can be quoted. Before you sign this" in first
    assert first.count("o CPU figures are published for this path") == 1


def test_a_closed_network_report_names_its_goal(api: Any, user: Any) -> None:
    params = {**{k: v for k, v in FITEQ.items() if k != "tps"}, "cps": 6, "clients": [10, 1000], "think_time_s": 1.0}
    job = _stored_job(user, "closed", {**params, "response_time_sla_ms": 25})
    r = job.result
    assert r["response_time_sla_ms"] == 25 and r["max_clients_within_sla"] is not None
    text = _flowing(_pdf(api, f"/api/v1/jobs/{job.pk}/report.pdf"))
    assert f"Most clients within the 25 ms goal {r['max_clients_within_sla']:,}" in text
    # without a goal the result says none was given, and the row no figure
    plain = _stored_job(user, "closed", params).result
    assert plain["response_time_sla_ms"] is None and plain["max_clients_within_sla"] is None
