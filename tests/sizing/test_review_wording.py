"""What a planner and a customer read on an answer, from the review of 2026-11: each case a wording
the pages printed and the words they print now.  Every value compared is the answer's own (the
engine's numbers) or the presentation module's (labels, formats)."""

from __future__ import annotations

from typing import Any

import pytest

from sizing import presentation
from sizing.records import EstimateRecord

pytestmark = pytest.mark.django_db

#: z/OS Connect on given CPs of a z16 (2 zIIPs per CP): does not fit, and the zIIPs are capped.
OVERLOADED = {"path": "zosconnect-cics", "configuration": "channel", "machine": "z16", "cps": 2, "tps": 3000}
#: FiTeq past its software station on a z10: FiTeq publishes response times, but none holds here.
DNF_Z10 = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z10", "tps": 60000}
FITS = {**DNF_Z10, "machine": "z17", "tps": 7000}  # within the software station's ceiling
LOWER_BOUND = {"path": "zosconnect-cics", "configuration": "channel", "machine": "z13", "tps": 800}


def _chart_data(client: Any, user: Any, inputs: dict[str, Any]) -> dict[str, Any]:
    client.force_login(user)
    response = client.get("/ui/chart-data", inputs)
    assert response.status_code == 200, response.content[:300]
    return dict(response.json())


def test_the_workbench_says_the_assumptions_in_the_customers_words(client: Any, user: Any) -> None:
    # The workbench listed the engine's assumptions as they are ("no projection_band given",
    # "Figure 16 (lost)") where the saved page and the PDF say them in words.
    body = _chart_data(client, user, LOWER_BOUND)
    raw = EstimateRecord.from_dict(body["estimate"]).basis.assumptions
    shown = body["display"]["assumptions"]
    from sizing.services.reports import product_names

    assert shown == presentation.assumptions(body["estimate"], product_names(user)) and len(shown) == len(raw)
    assert any("projection_band" in a for a in raw) and any("(lost)" in a for a in raw)  # the engine's words
    label = next(label for label, key, _ in presentation.INPUT_LABELS if key == "projection_band")
    assert any(f"\u201c{label}\u201d" in a for a in shown)
    assert not any("projection_band" in a or "(lost)" in a or "'zosconnect'" in a for a in shown)


def test_the_fit_row_names_the_part_of_the_work_not_its_key(client: Any, user: Any) -> None:
    # "lpar: 0.8513 CP-ms per transaction ..." read "LPAR: ..."
    body = _chart_data(client, user, FITS)
    component = body["estimate"]["basis"]["model"]["component"]
    label, text = body["display"]["basis"][0]
    assert label == "Fit (measured machine)"
    assert text.startswith(f"{presentation.COMPONENT_WORDS[component]}: ") and component != text.split(":")[0]


def test_the_engine_ratio_sentence_counts_the_cps_the_cap_is_for(client: Any, user: Any) -> None:
    # "... allows beside 4 CPs: at most 4." on a z16 (2 zIIPs per CP): the 4 zIIPs are the cap
    # beside the 2 CPs given; 4 CPs are what the rate would need.
    e = _chart_data(client, user, OVERLOADED)["estimate"]
    record = EstimateRecord.from_dict(e)
    assert e["evaluated_cps"] == OVERLOADED["cps"] != e["cps_required"]
    sentence = presentation.warning_sentence("engine-ratio", record)
    assert sentence.endswith(
        f"beside {presentation.plural(e['evaluated_cps'], 'CP')}: at most {presentation.count(e['specialty_engine_max'])}."
    )


def test_the_does_not_fit_sentence_ends_as_a_sentence(client: Any, user: Any) -> None:
    body = _chart_data(client, user, OVERLOADED)
    (w,) = [w for w in body["display"]["warnings"] if w["code"] == "does-not-fit"]
    message = body["estimate"]["feasibility"]["message"]
    assert w["sentence"] == message[0].upper() + message[1:] + "."


def test_no_response_time_past_saturation_is_not_said_to_be_unpublished(client: Any, user: Any) -> None:
    # FiTeq publishes response times (REDP-5114): past the software station there is no bound,
    # which the card said as "not published for this path".
    e = _chart_data(client, user, DNF_Z10)["estimate"]
    assert e["response_time_ms"]["value"] is None and e["tps"] >= e["saturation_tps"]
    assert not any(w["code"] == "no-response-time-data" for w in e["warnings"])
    figure = presentation.response_figure(e)
    assert figure.value == presentation.DASH and "saturation" in figure.note and "published" not in figure.note


def test_the_job_page_says_the_warnings_the_job_pdf_says(api: Any, user: Any) -> None:
    # The jobs panel printed the engine's messages as they are ("Zosconnect-cics/channel publishes
    # ...", "of the 'lpar' demand", "Override with server_share"); it now says the PDF's sentences.
    from django.utils import timezone

    from sizing.api.job_serializers import JobSubmitSerializer
    from sizing.jobs import RUNNERS
    from sizing.models import Job, JobStatus
    from sizing.records import JobResult

    params = {**LOWER_BOUND, "cps_list": [3, 4]}
    checked = JobSubmitSerializer(data={"kind": "curve", "params": params}, context={"user": user})
    checked.is_valid(raise_exception=True)
    clean = checked.validated_data["params"]
    result = RUNNERS["curve"](params=clean, owner=user, progress=lambda done, total: None)
    job = Job.objects.create(
        owner=user, kind="curve", params=clean, status=JobStatus.SUCCEEDED, result=result, finished_at=timezone.now()
    )
    raw = [w["message"] for w in result["warnings"]]
    assert any(f"{LOWER_BOUND['path']}/{LOWER_BOUND['configuration']}" in m for m in raw)  # the engine's words
    shown = api.get(f"/api/v1/jobs/{job.pk}/").json()["display"]["warnings"]
    from sizing.services.reports import product_names

    assert shown == [w.as_dict() for w in presentation.job_warnings(JobResult.from_dict(result), product_names(user))]
    assert {w["code"] for w in shown} == {w["code"] for w in result["warnings"]}
    for w in shown:
        assert w["sentence"] == presentation.warning_sentence(w["code"], None, engine=result["specialty_engine"])
        assert LOWER_BOUND["path"] not in w["sentence"] + w["details"] and "'lpar'" not in w["details"]
    pdf = api.get(f"/api/v1/jobs/{job.pk}/report.pdf")
    assert pdf.status_code == 200
    from tests.sizing.test_reports import pdf_text

    words = " ".join(" ".join(pdf_text(bytes(pdf.content))).split())
    assert all(w["sentence"] in words for w in shown)


def _workload_slugs() -> list[str]:
    from sizing.models import Configuration

    return [f"{c.path.slug}/{c.slug}" for c in Configuration.objects.select_related("path")]


def test_the_reasons_behind_the_warnings_name_workloads_not_slugs(api: Any, client: Any, user: Any) -> None:
    # "Zosconnect-cics/channel publishes no CPU measurements", "... published for
    # fiteq-authenticator/multi-region as measured", "(cicsts-catalog/v5.3 CICS slope ...)": on the
    # workbench's Details, the saved page and the PDF's "Why" section, the workloads by name.
    from sizing.models import Configuration
    from tests.sizing.test_reports import pdf_text

    slugs = _workload_slugs()
    for inputs in (LOWER_BOUND, DNF_Z10):
        config = Configuration.objects.select_related("path").get(
            path__slug=inputs["path"], slug=inputs["configuration"]
        )
        body = _chart_data(client, user, inputs)
        raw = " ".join(w["message"] for w in body["estimate"]["warnings"])
        assert f"{config.path.slug}/{config.slug}" in raw  # the engine's words name it by slug
        shown = " ".join(w["details"] for w in body["display"]["warnings"]) + " ".join(body["display"]["assumptions"])
        assert f"{config.path.name}, {config.name}" in shown
        # a name keeps its own case at the start of a sentence ("z/OS Connect", not "Z/OS Connect")
        assert not any(w["details"].startswith(config.path.name.capitalize()) for w in body["display"]["warnings"]) or (
            config.path.name == config.path.name.capitalize()
        )
        made = api.post("/api/v1/estimates/", inputs, format="json").json()
        page = client.get(f"/estimates/{made['id']}/").content.decode()
        words = " ".join(
            " ".join(pdf_text(bytes(api.get(f"/api/v1/estimates/{made['id']}/report.pdf").content))).split()
        )
        assert f"{config.path.name}, {config.name}" in words
        for slug in slugs:
            assert slug not in shown and slug not in page and slug not in words, slug


def test_an_answer_without_cpu_data_lists_what_is_known_not_a_table_of_dashes(api: Any) -> None:
    # HostBridge (no CPU figures): the PDF's answer table printed "— sized to the ceiling, fewest
    # CPs, — MSU installed, — consumed", "— LSPR table", "— at —", and called the published floor
    # for one request "time on the CPs alone".
    from sizing.reports.estimate import answer_rows

    inputs = {"path": "hostbridge-http", "configuration": "tuned-tcpip", "machine": "z16", "tps": 1000}
    record = EstimateRecord.from_dict(api.get("/api/v1/estimate", inputs).json())
    assert record.feasibility.reason == "no-cpu-data"
    rt = presentation.response_figure(record)
    assert rt.spread == "lower bound" and rt.note == "published floor for one request"
    assert answer_rows(record) == [
        ("CPs required", presentation.DASH, "", "no CPU figures are published for this path"),
        ("Response time", rt.value, rt.spread, rt.note),
        ("Saturation", presentation.DASH, "", presentation.saturation_figure(record).note),
    ]
    # with CPU figures, the bound is the time at the engines (CPs and zIIPs), not the CPs alone
    cicstg = {"path": "cicstg", "configuration": "ipic-commarea-64", "machine": "z17", "tps": 1200}
    bounded = EstimateRecord.from_dict(api.get("/api/v1/estimate", cicstg).json())
    assert bounded.response_time_ms.value is None and (bounded.response_time_ms.low or 0) > 0
    assert presentation.response_figure(bounded).note == "time at the engines alone"
    assert "the time at the engines alone is at least" in presentation.warning_sentence(
        "no-response-time-data", bounded
    )


def test_the_statements_row_counts_in_words(api: Any) -> None:
    # The workbench's basis said "1 published statements" (HostBridge).
    one = EstimateRecord.from_dict(
        api.get(
            "/api/v1/estimate",
            {"path": "hostbridge-http", "configuration": "tuned-tcpip", "machine": "z16", "tps": 1000},
        ).json()
    )
    many = EstimateRecord.from_dict(api.get("/api/v1/estimate", LOWER_BOUND).json())
    assert len(one.basis.statements) == 1 and len(many.basis.statements) > 1
    assert ("Statements", "1 published statement") in presentation.basis_rows(one)
    assert ("Statements", f"{len(many.basis.statements)} published statements") in presentation.basis_rows(many)


def test_the_fitted_part_in_an_assumption_is_named(client: Any, user: Any) -> None:
    # "busy CPs = intercept + slope x TPS fitted ... to 4 published points (lpar)" read "(LPAR)".
    body = _chart_data(client, user, FITS)
    component = body["estimate"]["basis"]["model"]["component"]
    raw = EstimateRecord.from_dict(body["estimate"]).basis.assumptions
    assert any(f"published points ({component})" in a for a in raw)
    assert any(
        f"published points ({presentation.COMPONENT_WORDS[component]})" in a for a in body["display"]["assumptions"]
    )


def test_the_pdf_does_not_say_no_warnings_under_a_decision(api: Any) -> None:
    # HostBridge: "Before you sign this" says there is no CPU verdict, and the Warnings section
    # below said "No warnings.".
    from sizing.reports.document import NONE_BESIDES_DECISIONS
    from tests.sizing.test_reports import pdf_text

    inputs = {"path": "hostbridge-http", "configuration": "tuned-tcpip", "machine": "z16", "tps": 1000}
    made = api.post("/api/v1/estimates/", inputs, format="json").json()
    words = " ".join(" ".join(pdf_text(bytes(api.get(f"/api/v1/estimates/{made['id']}/report.pdf").content))).split())
    assert "Before you sign this" in words and NONE_BESIDES_DECISIONS in words and "No warnings." not in words


def test_a_curve_of_one_cp_is_named_in_the_singular(api: Any, user: Any) -> None:
    # The curve job's PDF legend said "1 CPs".
    from django.utils import timezone

    from sizing.api.job_serializers import JobSubmitSerializer
    from sizing.jobs import RUNNERS
    from sizing.models import Job, JobStatus
    from tests.sizing.test_reports import pdf_text

    checked = JobSubmitSerializer(
        data={"kind": "curve", "params": {**FITS, "cps_list": [1, 2]}}, context={"user": user}
    )
    checked.is_valid(raise_exception=True)
    clean = checked.validated_data["params"]
    result = RUNNERS["curve"](params=clean, owner=user, progress=lambda done, total: None)
    job = Job.objects.create(
        owner=user, kind="curve", params=clean, status=JobStatus.SUCCEEDED, result=result, finished_at=timezone.now()
    )
    words = " ".join(" ".join(pdf_text(bytes(api.get(f"/api/v1/jobs/{job.pk}/report.pdf").content))).split())
    # the legend, in the order of the CP counts (a table's "CPs" column may follow "job #1")
    assert f"{presentation.plural(1, 'CP')} {presentation.plural(2, 'CP')}" in words and "1 CPs 2 CPs" not in words
