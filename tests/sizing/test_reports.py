"""PDF reports read back the way a customer would: as text (pdftotext), as pixels (pdftoppm)
and as fonts (pdffonts), from poppler-utils.  Every number checked is the stored estimate's or
job's own answer, printed with the digits the report gives it.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from sizing.api.job_serializers import JobSubmitSerializer
from sizing.jobs import RUNNERS
from sizing.models import Estimate, Job, JobStatus

pytestmark = pytest.mark.django_db

FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": 5000}
#: CICS TG on a z13 with zIIPs: the answer has a specialty-engine pool.
CICSTG = {"path": "cicstg", "configuration": "ipic-channel-64", "machine": "z13", "tps": 3000}


def pdf_text(pdf: bytes, *, layout: bool = False, raw: bool = False) -> list[str]:
    """The text of each page (pdftotext; pages are separated by form feeds): ``layout`` as laid
    out on the page (a table row on one line), ``raw`` in the order it is drawn (a table cell by
    cell, each cell's lines together)."""
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        args = ["pdftotext", *(["-layout"] if layout else []), *(["-raw"] if raw else []), f.name, "-"]
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return out.split("\f")[:-1]


def pdf_fonts(pdf: bytes) -> list[list[str]]:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        out = subprocess.run(["pdffonts", f.name], check=True, capture_output=True, text=True).stdout
    return [line.split() for line in out.splitlines()[2:]]


def coloured_pixels(pdf: bytes, page: int) -> int:
    """Pixels of ``page`` (1-based, rendered at 40 dpi) that are clearly coloured: chart lines,
    markers and bars; text and table rules are black or grey and do not count."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "r.pdf"
        src.write_bytes(pdf)
        subprocess.run(
            ["pdftoppm", "-r", "40", "-f", str(page), "-l", str(page), str(src), str(Path(tmp) / "p")], check=True
        )
        (ppm,) = Path(tmp).glob("p*.ppm")
        data = ppm.read_bytes()
    # P6 header: magic, width, height, maxval, each followed by whitespace.
    fields = data.split(maxsplit=4)
    assert fields[0] == b"P6"
    pixels = fields[4]
    count = 0
    for i in range(0, len(pixels) - 2, 3):
        r, g, b = pixels[i], pixels[i + 1], pixels[i + 2]
        if max(r, g, b) - min(r, g, b) > 60:
            count += 1
    return count


def report_words(api: Any, url: str) -> str:
    """The report's text laid out as on the page (a table row on one line), spaces collapsed."""
    return " ".join(" ".join(pdf_text(_pdf(api, url), layout=True)).split())


def _create(api: Any, inputs: dict[str, Any]) -> dict[str, Any]:
    response = api.post("/api/v1/estimates/", inputs, format="json")
    assert response.status_code == 201, response.json()
    return dict(response.json())


def _pdf(api: Any, url: str) -> bytes:
    response = api.get(url)
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    return bytes(response.content)


def test_estimate_report_text_shows_the_estimates_own_numbers(api: Any) -> None:
    body = _create(api, {**FITEQ, "name": "Card authorisation 2027"})
    stored = Estimate.objects.get(pk=body["id"]).outputs
    words = report_words(api, f"/api/v1/estimates/{body['id']}/report.pdf")
    # Title block: the scenario's name and its author.
    assert "Card authorisation 2027" in words and "Prepared by engineer" in words
    # The answer, as stored (the engine's outputs), with the report's digits.
    cap = stored["capacity"]
    assert f"{stored['cps_required']} CPs and {stored['ziips_required']} zIIPs ({cap['model']})" in words
    assert f"{stored['mips']:,.0f} MIPS, {stored['msu']:,.0f} MSU" in words
    assert f"of {cap['cp']['mips_installed']:,.0f} installed" in words
    assert f"{stored['gcp_utilization'] * 100:.0f}%" in words
    rt = stored["response_time_ms"]
    # A fitted cost model: its spread is a 95% prediction interval, printed as one.
    assert f"{rt['value']:.1f} ms 95%: {rt['low']:.1f}\u2013{rt['high']:.1f} ms" in words
    low, high = stored["ranges"]["saturation_tps"]
    # a range only where low and high differ as printed
    spread = f" 95%: {low:,.0f}\u2013{high:,.0f}" if round(low) != round(high) else ""
    assert f"{stored['saturation_tps']:,.0f} TPS{spread} bound by {stored['saturation_binding']['label']}" in words
    cpu = stored["cpu_per_tran_ms"]
    assert f"{cpu['total']:.3f} ms 95%: {cpu['low']:.3f}\u2013{cpu['high']:.3f} ms on the target" in words
    # Basis: the fit, the points with their table and page, the projection and its ratings.
    model = stored["basis"]["model"]
    assert f"R² {model['r2']:.4f}, n = {model['n']}" in words
    assert f"factor {stored['basis']['projection']['factor']:.4f}" in words
    assert "Leave-one-out error median |error|" in words
    assert "REDP-5114" in words  # the source of the FiTeq points (benchmarks/redp5114.yaml)
    # Every warning in a plain sentence with its level; no engine code on the page.
    for w in stored["warnings"]:
        assert "-" not in w["code"] or w["code"] not in words  # ("projection" is also a plain word)
    assert words.count("Caveat ") + words.count("Note ") + words.count("Decision ") >= len(stored["warnings"])
    assert "Results obtained in other operating environments may vary" in words


def test_estimate_report_orders_decision_warnings_first_and_names_zaaps_on_old_machines(api: Any) -> None:
    # 20,000 TPS of FiTeq on 2 CPs: the CPs given run above the ceiling (a decision warning).
    body = _create(api, {**FITEQ, "tps": 9000, "cps": 2})
    stored = Estimate.objects.get(pk=body["id"]).outputs
    levels = [w["level"] for w in stored["warnings"]]
    assert "decision" in levels
    words = report_words(api, f"/api/v1/estimates/{body['id']}/report.pdf")
    assert "Before you sign this" in words and "warning(s)" not in words
    # 2 CPs given at 9,000 TPS: the sentence names them and the ceiling (inputs and stored answer)
    assert f"The 2 CPs given run at {stored['gcp_utilization'] * 100:.0f}%, above the 85% ceiling" in words
    warnings = words[words.index("Warnings") :]
    positions = [warnings.index(f"{label} ") for label in ("Decision", "Caveat", "Note") if f"{label} " in warnings]
    assert positions == sorted(positions)
    # A z10 sizes zAAPs (benchmarks/engine_rules.yaml): the report says zAAP, not zIIP.
    zaap = _create(api, {**CICSTG, "machine": "z10", "tps": 800})
    assert Estimate.objects.get(pk=zaap["id"]).outputs["specialty_engine"] == "zAAP"
    words = report_words(api, f"/api/v1/estimates/{zaap['id']}/report.pdf")
    assert "zAAPs required" in words and "zIIPs required" not in words


def test_estimate_report_embeds_every_font_it_uses(api: Any) -> None:
    body = _create(api, FITEQ)
    fonts = pdf_fonts(_pdf(api, f"/api/v1/estimates/{body['id']}/report.pdf"))
    assert fonts, "no fonts listed"
    for row in fonts:
        # name type encoding emb sub uni object-id generation: "emb" is the 4th from the end.
        assert row[-5] == "yes", row
        assert "BitstreamVera" in row[0], row


def test_estimate_report_chart_pages_are_drawn(api: Any) -> None:
    body = _create(api, FITEQ)
    pdf = _pdf(api, f"/api/v1/estimates/{body['id']}/report.pdf")
    pages = pdf_text(pdf)
    chart_pages = [i + 1 for i, t in enumerate(pages) if "Transactions per second" in t]
    assert chart_pages, "no page has a chart's axis title"
    for page in chart_pages:
        assert coloured_pixels(pdf, page) > 400, page
    # The last page (sources and disclaimer) has no chart: the measure tells the two apart.
    assert coloured_pixels(pdf, len(pages)) < 50


def test_another_user_gets_404_for_every_report(api: Any, other_user: Any, user: Any) -> None:
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    mine = _create(api, FITEQ)["id"]
    second = _create(api, {**FITEQ, "tps": 3000})["id"]
    job = _stored_job(user, "curve", {**FITEQ, "cps_list": [5, 6]})
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=other_user).key}")
    assert other.get(f"/api/v1/estimates/{mine}/report.pdf").status_code == 404
    assert other.get(f"/api/v1/estimates/report.pdf?ids={mine},{second}").status_code == 404
    assert other.get(f"/api/v1/jobs/{job.pk}/report.pdf").status_code == 404
    assert APIClient().get(f"/api/v1/estimates/{mine}/report.pdf").status_code == 401


def test_comparison_report_puts_the_answers_side_by_side(api: Any) -> None:
    a = _create(api, {**FITEQ, "name": "now"})
    b = _create(api, {**FITEQ, "tps": 7000, "name": "peak"})  # within the software station's ceiling
    pdf = _pdf(api, f"/api/v1/estimates/report.pdf?ids={a['id']},{b['id']}")
    first = " ".join(pdf_text(pdf)[0].split())
    assert f"#{a['id']} now" in first and f"#{b['id']} peak" in first
    for e in (a, b):
        stored = Estimate.objects.get(pk=e["id"]).outputs
        assert f"{stored['mips']:,.0f}" in first
    for bad, field in (("1", "ids"), ("1,x", "ids"), (f"{a['id']},{a['id']}", "ids")):
        response = api.get(f"/api/v1/estimates/report.pdf?ids={bad}")
        assert response.status_code == 400 and field in response.json(), bad


# -- jobs --------------------------------------------------------------------------------------


def _stored_job(user: Any, kind: str, params: dict[str, Any]) -> Job:
    """A succeeded job whose result the kind's runner computed here (as a worker would)."""
    checked = JobSubmitSerializer(data={"kind": kind, "params": params}, context={"user": user})
    checked.is_valid(raise_exception=True)
    clean = checked.validated_data["params"]
    result = RUNNERS[kind](params=clean, owner=user, progress=lambda done, total: None)
    return Job.objects.create(
        owner=user, kind=kind, params=clean, status=JobStatus.SUCCEEDED, result=result, finished_at=timezone.now()
    )


JOB_CASES = {
    "curve": ({**FITEQ, "cps_list": [4, 6]}, "Knee, TPS"),
    "closed": (
        {**{k: v for k, v in FITEQ.items() if k != "tps"}, "cps": 6, "clients": [10, 1000, 5000], "think_time_s": 1.0},
        "Bottleneck",
    ),
    "montecarlo": ({**FITEQ, "samples": 500, "seed": 3}, "Within the ceiling"),
    "optimize": ({**CICSTG, "costs": {"gcp": 1.0, "ziip": 0.3}}, "Cheapest mix"),
    "mix": (
        {"machine": "z13", "workloads": [{**{k: FITEQ[k] for k in ("path", "configuration")}, "tps": 3000}]},
        "Combined",
    ),
    "batch": (
        {
            "csv": "path,configuration,machine,tps\n"
            + "".join(f"fiteq-authenticator,multi-region,z13,{t}\n" for t in (2000, 5000, 9000))
        },
        "Scenarios",
    ),
}


@pytest.mark.parametrize("kind", sorted(JOB_CASES))
def test_job_report_of_every_kind_has_its_summary_and_a_drawn_chart(api: Any, user: Any, kind: str) -> None:
    params, heading = JOB_CASES[kind]
    job = _stored_job(user, kind, params)
    pdf = _pdf(api, f"/api/v1/jobs/{job.pk}/report.pdf")
    pages = pdf_text(pdf)
    words = " ".join(" ".join(pages).split())
    assert heading in words and f"job #{job.pk}" in words
    # A drawn series is well over 100 coloured pixels at 40 dpi; a page of text has under 50 (the
    # warning levels are its only colour; see test_estimate_report_chart_pages_are_drawn).
    assert max(coloured_pixels(pdf, page) for page in range(1, len(pages) + 1)) > 100


def test_job_report_numbers_are_the_results(api: Any, user: Any) -> None:
    job = _stored_job(user, "curve", {**FITEQ, "cps_list": [4, 6]})
    words = report_words(api, f"/api/v1/jobs/{job.pk}/report.pdf")
    for s in job.result["series"]:
        assert f"{s['cps']} {s['knee_tps']:,.0f} {s['saturation_tps']:,.0f} {s['ceiling_tps']:,.0f}" in words


def test_job_report_asks_its_question_in_words_and_names(api: Any, user: Any) -> None:
    # The question table: labels in words, product and machine names (the seeds' names), never a
    # parameter's name or a slug.
    from sizing.models import Configuration, Machine, Path

    job = _stored_job(user, "curve", {**FITEQ, "cps_list": [4, 6]})
    words = report_words(api, f"/api/v1/jobs/{job.pk}/report.pdf")
    path = Path.objects.get(slug=FITEQ["path"])
    configuration = Configuration.objects.get(path=path, slug=FITEQ["configuration"])
    machine = Machine.objects.get(slug=FITEQ["machine"])
    assert "CP counts 4, 6" in words and "Target rate 5,000 TPS" in words
    for name in (path.name, configuration.name, machine.name):
        assert " ".join(name.split()) in words, name
    for raw in ("cps_list", "fiteq-authenticator", "multi-region"):
        assert raw not in words, raw


def test_job_report_before_success_is_409(api: Any, user: Any) -> None:
    job = Job.objects.create(owner=user, kind="curve", params={}, status=JobStatus.RUNNING)
    response = api.get(f"/api/v1/jobs/{job.pk}/report.pdf")
    assert response.status_code == 409 and "running" in response.json()["detail"]


def test_pdf_cpu_chart_capacity_line_counts_cps_and_ziips(user: Any) -> None:
    # Issue 21: the PDF drew one "3 CPs" line for z/OS Connect at 2,000 TPS on a z16 with the
    # target at about 5.9 busy engines (CPs + zIIPs). The line is now the answer's: CPs + zIIPs.
    from sizing.reports.estimate import cpu_plot
    from sizing.services.charts import chart_data

    data = chart_data(
        user=user, inputs={"path": "zosconnect-cics", "configuration": "channel", "machine": "z16", "tps": 2000}
    )
    cps, ziips = data["estimate"]["cps"], data["estimate"]["ziips"]
    assert ziips > 0
    guides = {(g.axis, g.label): g.value for g in cpu_plot(data["cpu"], "z16").guides}
    assert guides[("y", f"{cps} CPs + {ziips} zIIPs")] == cps + ziips
    # The target's busy engines (CPs + zIIPs) sit under the line, within the ceilings' level.
    assert data["estimate"]["busy_cps"]["total"] <= guides[("y", "85% ceiling")] + 1e-9


def test_estimate_report_names_the_engine_rules_documents_and_the_mp_effect(api: Any) -> None:
    # Issue 32 items 5 and 6: the rule in force names its documents (with their dates where the
    # document gives one, benchmarks/engine_rules.yaml) in the basis, and the PDF prints the
    # basis; the MP effect's factor is stated beside it.
    body = _create(api, {**CICSTG, "machine": "zec12", "tps": 3000})
    stored = Estimate.objects.get(pk=body["id"]).outputs
    (rule,) = [a for a in stored["basis"]["assumptions"] if a.startswith("zEC12: eligible (Java) work")]
    assert "at most 2 per CP (unconfirmed" in rule and "z/OS V2R1 (2013) MVS Planning" in rule
    (mp,) = [a for a in stored["basis"]["assumptions"] if a.startswith("MP effect:")]
    assert f"(factor {stored['capacity']['basis']['mp_factor']:.3f})" in mp
    words = report_words(api, f"/api/v1/estimates/{body['id']}/report.pdf")
    # the PDF words the unconfirmed rule for a customer (presentation.customer_wording)
    assert "at most 2 per CP (assumed: the IBM technical guides and announcements consulted" in words
    assert "z/OS V2R1 (2013) MVS Planning: Workload Management" in words
    assert "'zAAP on zIIP capability' product page (zEC12/zBC12 edition" in words
    assert f"(factor {stored['capacity']['basis']['mp_factor']:.3f})" in words


#: Every job kind of the report (JOB_CASES) and a curve on a zEC12, whose specialty engine is a zAAP.
COLUMN_CASES = {
    **{kind: params for kind, (params, _) in JOB_CASES.items()},
    "curve-zec12": {**FITEQ, "machine": "zec12", "tps": 2000, "cps_list": [4, 6]},
}


@pytest.mark.parametrize("case", sorted(COLUMN_CASES))
def test_job_report_tables_head_their_columns_in_words(api: Any, user: Any, case: str) -> None:
    # Issue 30: the result table printed its CSV names (cps, gcp_utilization,
    # response_time_lower_bound_ms) broken over lines, and utilisation as fractions.
    from sizing.presentation import BATCH_COLUMNS, JOB_COLUMNS, batch_table, job_column
    from sizing.records import JobResult

    kind = case.split("-")[0]
    job = _stored_job(user, kind, COLUMN_CASES[case])
    pdf = _pdf(api, f"/api/v1/jobs/{job.pk}/report.pdf")
    words = " ".join(" ".join(pdf_text(pdf)).split())
    laid = " ".join(" ".join(pdf_text(pdf, layout=True)).split())
    columns = list(BATCH_COLUMNS) if kind == "batch" else job.result["table"]["columns"]
    # the machine's generation names the specialty engine: zAAP on the zEC12, zIIP on the z13
    engine = "zAAP" if COLUMN_CASES[case].get("machine") == "zec12" else "zIIP"
    other = {"zAAP": "zIIP", "zIIP": "zAAP"}[engine]
    for name in columns:
        if "_" in name:
            assert name not in words, name  # never the CSV's name
        assert name in JOB_COLUMNS, name  # every column has its label (and format) in one registry
        if name == "path" and kind == "batch":
            continue  # "Path / configuration"
        label = job_column(name, engine)
        assert other not in label
        for word in label.split():
            # whole words: a header cell wraps between words, never inside one ("utili sation")
            assert f" {word} " in f" {words} ", (name, word)
    # the job's page shows the same table in the same words (display.table); a batch's its scenarios
    shown = api.get(f"/api/v1/jobs/{job.pk}/").json()["display"]["table"]
    if kind == "batch":
        assert shown["columns"] == batch_table(JobResult.from_dict(job.result)).columns
        assert [job_column(c, engine) for c in columns[2:]] == shown["columns"][2:]
    else:
        assert shown["columns"] == [job_column(c, engine) for c in columns]
        assert shown["total_rows"] == len(job.result["table"]["rows"])
        for cell in shown["rows"][0]:
            assert cell in laid, cell
    if kind == "curve":
        assert f"{engine} utilisation" in laid and f"{other} utilisation" not in laid
        # a row as printed: CPs, rate with separators, CP utilisation as a percentage (one
        # decimal under 10%), the specialty engines, their utilisation (none: a dash)
        cps, tps, util, ziips, ziip_util, *_ = job.result["table"]["rows"][0]
        assert util < 0.1 and ziip_util is None
        assert f"{cps} {tps:,.0f} {util * 100:.1f}% {ziips} \u2014" in laid


def test_a_batchs_page_shows_the_scenarios_table_its_pdf_prints_for_rows_of_every_status(api: Any, user: Any) -> None:
    # A batch's page showed its CSV's columns (slugs, cps_required, unformatted numbers) while its
    # PDF printed the scenarios in words: both are now presentation.batch_table, for a row sized,
    # one that does not fit, one with no CPU data (HostBridge) and one refused (a negative rate).
    from sizing.presentation import (
        BATCH_COLUMNS,
        BATCH_STATUS_WORDS,
        DASH,
        NOT_QUOTED_MARK,
        NOT_QUOTED_NOTE,
        batch_chart,
        batch_label,
        batch_table,
        job_cell,
    )
    from sizing.records import JobResult, batch_rows
    from sizing.services.reports import product_names, result_with_engine
    from tests.sizing.test_batch_browser import BATCH

    job = _stored_job(user, "batch", {"csv": BATCH})
    result = JobResult.from_dict(result_with_engine(job))
    table = batch_table(result, product_names(user))
    shown = api.get(f"/api/v1/jobs/{job.pk}/").json()["display"]["table"]
    assert shown == {
        "columns": table.columns,
        "numeric": table.numeric,
        "rows": table.rows,
        "total_rows": 4,
        "note": table.note,
    }
    # every row is shown; under the table, once, what the marked figures of the row that does
    # not fit are (a word in each narrow cell wrapped the row onto three lines)
    assert table.note == NOT_QUOTED_NOTE
    rows = batch_rows(result)
    assert sorted(str(r.status) for r in rows) == sorted(BATCH_STATUS_WORDS)  # one row of each status
    names = product_names(user)
    at = {c: BATCH_COLUMNS.index(c) for c in ("capacity_model", "mips", "msu")}
    assert table.numeric[0] is False  # the scenario's name is text
    for r, cells in zip(rows, table.rows, strict=True):
        # the name typed in the CSV, after the row's number (two rows may share a name)
        assert r.name and cells[0] == batch_label(r) and cells[0].endswith(r.name) and str(r.row) in cells[0]
        assert cells[1] == f"{names.path(r.path)} / {names.configuration(r.path, r.configuration)}"
        assert cells[2] == names.machine(r.machine) and cells[4] == job_cell("cps_required", r.cps_required)
        # a row with no quote shows no model, MIPS or MSU as if quoted: the evaluated ones are marked
        for col, i in at.items():
            given = job_cell(col, r.cells.get(col))
            quoted = r.status == "sized" or given == DASH
            assert cells[i] == (given if quoted else f"{given}{NOT_QUOTED_MARK}")
        if r.status == "does-not-fit":
            assert all(cells[i].endswith(NOT_QUOTED_MARK) for i in at.values())  # the z10 row's evaluated model
            evaluated = " ".join(cells[i] for i in at.values())
            assert re.fullmatch(r"\d{4}-\d{3}\* [\d,]+\* [\d,]+\*", evaluated), evaluated
        if r.status == "sized":
            assert cells[-1] == DASH  # no decision warning: sized as asked
        else:
            assert cells[-1].startswith(BATCH_STATUS_WORDS[str(r.status)]), cells[-1]
        if r.status == "refused":
            assert str(r.error) in cells[-1]
        # words, never the CSV's slugs or the engine's warning codes
        for slug in (r.path, r.configuration, *r.warning_codes.replace(",", " ").split()):  # (z16 is in "IBM z16")
            assert not any(str(slug) in cell for cell in cells), slug
    # the PDF draws each row cell by cell: the page's row, word for word
    pdf = _pdf(api, f"/api/v1/jobs/{job.pk}/report.pdf")
    drawn = " ".join(" ".join(pdf_text(pdf, raw=True)).split())
    for cells in [table.columns, *table.rows]:
        assert " ".join(" ".join(cells).split()) in drawn, cells
    # each bar's label whole, on up to two lines under its bar ("3. Gateway (no CPU da…" ran into
    # its neighbour's when cut by a count of characters)
    for label in batch_chart(result).labels:
        assert label in drawn, label
    assert "\u2026" not in drawn
    # each marked figure on one line with its row (the "(not quoted)" cells wrapped onto three),
    # the note that says what the mark means once, under the table
    laid = [" ".join(line.split()) for line in "".join(pdf_text(pdf, layout=True)).splitlines()]
    row = next(cells for r, cells in zip(rows, table.rows, strict=True) if r.status == "does-not-fit")
    assert sum(evaluated in line for line in laid) == 1, evaluated
    assert any(line.startswith(row[0].split()[0]) and evaluated in line for line in laid)
    flowing = " ".join(" ".join(pdf_text(pdf)).split())
    assert flowing.count(NOT_QUOTED_NOTE) == 1 and "(not quoted)" not in flowing


def test_batch_table_widths_go_to_the_text_that_wraps(user: Any) -> None:
    # The PDF's workload cell wrapped in five or six lines while number columns had room to spare:
    # the width left over now goes where it saves lines.  Compared with sharing the frame in
    # proportion to each column's longest word (the rule before), no column loses its longest
    # word and the table takes fewer lines.
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase import pdfmetrics

    from sizing.presentation import batch_table
    from sizing.records import JobResult
    from sizing.reports.document import FRAME_WIDTH, fitted_widths, styles
    from sizing.services.reports import product_names, result_with_engine
    from tests.sizing.test_batch_browser import BATCH

    job = _stored_job(user, "batch", {"csv": BATCH})
    table = batch_table(JobResult.from_dict(result_with_engine(job)), product_names(user))
    s = styles()
    rows = [(table.columns, s.compact_head), *((row, s.compact) for row in table.rows)]

    def longest(i: int) -> float:
        return max(pdfmetrics.stringWidth(w, st.fontName, st.fontSize) for r, st in rows for w in r[i].split()) + 6

    def height(widths: list[float]) -> int:
        return sum(
            max(len(simpleSplit(cell, st.fontName, st.fontSize, w - 6)) for cell, w in zip(r, widths, strict=True))
            for r, st in rows
        )

    words = [longest(i) for i in range(len(table.columns))]
    before = [w / sum(words) * FRAME_WIDTH for w in words]
    after = [f * FRAME_WIDTH for f in fitted_widths(table.columns, table.rows, compact=True)]
    assert sum(after) == pytest.approx(FRAME_WIDTH)
    assert all(a >= w - 1e-6 for a, w in zip(after, words, strict=True))
    assert height(after) < height(before), (height(after), height(before))


def test_job_report_stored_before_the_engine_was_written_names_it_from_the_machine(api: Any, user: Any) -> None:
    # A curve stored before the runners wrote ``specialty_engine``: the zEC12's engine is still a zAAP.
    job = _stored_job(user, "curve", COLUMN_CASES["curve-zec12"])
    assert job.result.pop("specialty_engine") == "zAAP"
    job.save()
    laid = " ".join(" ".join(pdf_text(_pdf(api, f"/api/v1/jobs/{job.pk}/report.pdf"), layout=True)).split())
    assert "zAAP utilisation" in laid and "zIIP utilisation" not in laid


def test_estimate_report_names_its_sources_by_title_and_number_never_by_the_seed_slug(api: Any) -> None:
    # Review of 2026-11: the Sources section printed the seed's slug after a title
    # ("... (IBM, 2018-05). zosconnect-ee-v3-cics") where a document has no number. A customer
    # reads the title, and the document's number (REDP-5320) where it has one.
    from sizing.models import SourceDocument
    from sizing.selectors.report_basis import report_basis

    body = _create(api, {"path": "zosconnect-cics", "configuration": "channel", "machine": "z13", "tps": 800})
    estimate = Estimate.objects.get(pk=body["id"])
    basis = report_basis(configuration=estimate.configuration, basis=estimate.outputs["basis"])
    words = report_words(api, f"/api/v1/estimates/{body['id']}/report.pdf")
    sources = words[words.index(" Sources ") : words.index("Why: the reasoning")]
    documents = {d.title: d for d in SourceDocument.objects.all()}
    used = [documents[row.title] for row in basis.sources]
    assert any(not d.identifier for d in used) and any(d.identifier for d in used)  # both kinds are checked
    for doc in used:
        assert doc.title in sources
        assert doc.slug not in words
        if doc.identifier:
            assert doc.identifier in sources


def test_plan_sources_name_documents_by_number_and_title_never_by_the_seed_slug() -> None:
    # The plan's PDF lists each workload's sources: "REDP-5320: <title>", else the title alone.
    from sizing.models import SourceDocument
    from sizing.selectors.plans import plan_sources

    workloads = [
        {"path": "zosconnect-cics", "configuration": "channel"},
        {"path": "cicstg", "configuration": "ipic-channel-64"},
    ]
    names = [n for w in plan_sources(inputs={"workloads": workloads}) for n in w["sources"]]
    docs = [d for d in SourceDocument.objects.all() if any(d.title in n for n in names)]
    assert len(docs) == len(names) and any(not d.identifier for d in docs)
    for doc in docs:
        assert all(doc.slug not in n for n in names)
        assert (f"{doc.identifier}: {doc.title}" if doc.identifier else doc.title) in names
