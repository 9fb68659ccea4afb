"""What a customer read on the pages and PDFs in the review of 2026-11-27, and reads now: a
saturation range said without a 95% it is not, the zAAP cap when every engine is a CP, a
bounds-only curve's knees and saturations as bounds, the PDF's points by their source's row,
HostBridge's charts, "CICS" in the assumptions and the published measures' units.  Every
expected value is the answer's own or the presentation module's (sizing/presentation.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from sizing import presentation
from sizing.models import BenchmarkPoint, Configuration, MetricName, PointMetric
from sizing.records import EstimateRecord, JobResult
from sizing.reports.estimate import NO_CPU_CHARTS
from sizing.selectors.report_basis import point_row, report_basis
from tests.sizing.test_reports import _create, _pdf, _stored_job, pdf_text
from tests.sizing.test_review_wording import _chart_data as _answer

pytestmark = pytest.mark.django_db

#: FiTeq's software station binds its saturation (REDP-5114: the points do not bound it above).
SOFTWARE_BOUND = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z16", "tps": 8000}
#: The same workload where the CPs bind: its range is the fitted cost model's 95% interval.
CP_BOUND = {**SOFTWARE_BOUND, "tps": 2000}
#: Every engine of a z10 given as a CP: no zAAP can be added beside them.
ALL_CPS = {"path": "cicstg", "configuration": "ipic-channel-64", "machine": "z10", "tps": 2000, "cps": 64}
#: The published upper cost (a large payload on a zEC12): knee and saturation are lower bounds.
BOUNDS_ONLY = {"path": "zosconnect-cics", "configuration": "channel", "machine": "zec12", "payload_bytes": 262144}
NO_CPU = {"path": "hostbridge-http", "configuration": "default-tcpip", "machine": "z16", "tps": 100}


def _words(pdf: bytes) -> str:
    return " ".join(" ".join(pdf_text(pdf, layout=True)).split())


def test_a_software_bound_saturation_range_claims_no_95_percent(client: Any, user: Any) -> None:
    # "95%: 8,728–280,021": the high end is where the CPs saturate (the points do not bound the
    # software station above), so the spread is a range, never a 95% interval.
    body = _answer(client, user, SOFTWARE_BOUND)
    rec = EstimateRecord.from_dict(body["estimate"])
    assert rec.saturation_binding is not None and rec.saturation_binding.resource == "software"
    low, high = rec.ranges.saturation_tps.low, rec.ranges.saturation_tps.high
    shown = body["display"]["figures"]["saturation_tps"]
    assert shown["spread"] == f"range {presentation.span(low, high)}" and "95%" not in shown["spread"]
    # where the CPs bind, the fitted cost model's 95% prediction interval is the range
    cp = EstimateRecord.from_dict(_answer(client, user, CP_BOUND)["estimate"])
    assert cp.saturation_binding is not None and cp.saturation_binding.resource == "cps"
    c_low, c_high = cp.ranges.saturation_tps.low, cp.ranges.saturation_tps.high
    assert presentation.saturation_figure(cp).spread == f"95%: {presentation.span(c_low, c_high)}"


def test_the_zaap_card_says_why_no_zaap_can_be_added_when_every_engine_is_a_cp(client: Any, user: Any) -> None:
    body = _answer(client, user, ALL_CPS)
    rec = EstimateRecord.from_dict(body["estimate"])
    assert rec.specialty_engine == "zAAP" and rec.specialty_engine_max == 0 and rec.evaluated_cps == ALL_CPS["cps"]
    note = body["display"]["figures"]["ziips_required"]["note"]
    assert note == presentation.ziips_figure(rec).note == presentation.specialty_cap_text(rec)
    assert note == f"no zAAP can be added: the {presentation.count(ALL_CPS['cps'])} engines of this model are all CPs"
    # beside fewer CPs the cap is a number of engines (the rules' ratio, then the engines left)
    fewer = EstimateRecord.from_dict(_answer(client, user, {**ALL_CPS, "cps": 4})["estimate"])
    most = fewer.specialty_engine_max
    assert most and presentation.specialty_cap_text(fewer) == f"at most {most} beside these 4 CPs"


def test_a_bounds_only_curve_says_its_knees_and_saturations_as_lower_bounds(api: Any, client: Any, user: Any) -> None:
    job = _stored_job(user, "curve", {**BOUNDS_ONLY, "cps_list": [2, 4], "tps": 200})
    result = JobResult.from_dict(job.result)
    reference = EstimateRecord.from_dict(_answer(client, user, {**BOUNDS_ONLY, "tps": 200})["estimate"])
    assert result.saturation_kind == reference.saturation_kind == "lower-bound"
    words = _words(_pdf(api, f"/api/v1/jobs/{job.pk}/report.pdf"))
    for s in result.series:
        knee, sat = (presentation.bound_rate(v, result.saturation_kind, "") for v in (s.knee_tps, s.saturation_tps))
        assert knee.startswith("\u2265 ") and sat.startswith("\u2265 ")
        assert f"{s.cps} {knee} {sat}" in words
    assert " ".join(presentation.LOWER_BOUND_RATES.split()) in words
    # the job's page reads the same field (frontend/static/zsizer/jobs.js: renderCurve)
    assert api.get(f"/api/v1/jobs/{job.pk}/").json()["result"]["saturation_kind"] == "lower-bound"
    # a fitted workload's curve: plain values, no sentence
    fitted = _stored_job(user, "curve", {**SOFTWARE_BOUND, "cps_list": [4]})
    plain = _words(_pdf(api, f"/api/v1/jobs/{fitted.pk}/report.pdf"))
    assert JobResult.from_dict(fitted.result).saturation_kind == "value" and "\u2265" not in plain.split("Charts")[0]


def test_the_pdf_names_a_point_by_its_sources_row_and_no_unknown_page(api: Any) -> None:
    body = _create(api, {**SOFTWARE_BOUND, "name": "FiTeq"})
    rec = EstimateRecord.from_dict(body)
    cfg = Configuration.objects.get(path__slug=SOFTWARE_BOUND["path"], slug=SOFTWARE_BOUND["configuration"])
    basis = report_basis(configuration=cfg, basis=rec.basis)
    keys = dict(BenchmarkPoint.objects.filter(id__in=[p.id for p in basis.points]).values_list("id", "key"))
    assert basis.points and all(p.row == point_row(keys[p.id]) != "" for p in basis.points)
    words = _words(_pdf(api, f"/api/v1/estimates/{body['id']}/report.pdf"))
    points = words[words.index("Published points used") :]
    assert "p. \u2013" not in words and "p. \u2014" not in words
    for p in basis.points:
        page = f", p. {p.page}" if p.page else ""
        assert f"{p.row} {p.source} {presentation.plain_reference(p.table)}{page}" in points, p
        # the database's id is not the first cell (it used to be)
        assert not re.search(rf"(?<![\d,.]){p.id} {re.escape(p.source)}", points) or str(p.id) == p.row


def test_an_answer_without_cpu_data_draws_no_empty_charts(api: Any) -> None:
    body = _create(api, {**NO_CPU, "name": "HostBridge"})
    assert EstimateRecord.from_dict(body).has_cpu_data is False
    words = _words(_pdf(api, f"/api/v1/estimates/{body['id']}/report.pdf"))
    charts = words[words.index("Charts") : words.index("Model basis")]
    assert " ".join(NO_CPU_CHARTS.split()) in charts
    assert "against transaction rate" not in charts and "Busy engines on CPs" not in charts


@pytest.mark.parametrize("path,configuration", [("cicsts-catalog", "v5.3"), ("zosconnect-cics", "channel")])
def test_the_assumptions_say_cics_in_capitals(client: Any, user: Any, path: str, configuration: str) -> None:
    body = _answer(client, user, {"path": path, "configuration": configuration, "machine": "z16", "tps": 100})
    raw = EstimateRecord.from_dict(body["estimate"]).basis.assumptions
    part = re.compile(r"(?<![-_/+\w])cics(?![-_+\w])")
    assert any(part.search(a) for a in raw)  # the engine's words name the part by its key
    shown = body["display"]["assumptions"]
    assert not any(part.search(a) for a in shown), shown
    assert any(f"the {presentation.COMPONENT_WORDS['cics']} " in a for a in shown)


def test_a_published_measure_says_its_unit_once_and_joins_a_percent_to_its_number() -> None:
    # "8.56 % of a pool of engines", "µs of one CP per transaction per transaction"
    labels = dict(MetricName.choices)
    metrics = list(PointMetric.objects.all())
    assert metrics
    for m in metrics:
        label = labels[m.name]
        text = presentation.measure_text(label, m.value, m.unit, m.engines)
        assert text.startswith(f"{label}: {presentation.published_value(m.value)}")
        assert float(presentation.published_value(m.value).replace(",", "")) == pytest.approx(m.value, abs=0.005)
        assert " %" not in text and text.count("per transaction") <= 1, text
        if m.unit == "pct_of_pool" and m.engines:
            assert text.endswith(f"% of {m.engines} engines")
        if m.unit.endswith("_per_tran"):
            assert text.count("per transaction") == 1, text
