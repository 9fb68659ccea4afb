"""A batch's page says what its PDF says, from ``sizing.presentation``: the summary sentence
(``batch_summary``), the chart's caption, axes and labels (``batch_chart``), a table cut short
(``rows_shown``), and each warning's headline naming the specialty engine of the rows that have
it (zAAP on z10..zEC12/zBC12, "zAAPs or zIIPs" where rows of both do)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import pytest

from sizing.api import job_serializers
from sizing.presentation import (
    BATCH_STATUS_WORDS,
    batch_chart,
    batch_label,
    batch_summary,
    batch_table,
    batch_warnings,
    engines_word,
    rows_shown,
)
from sizing.records import JobResult, batch_rows
from sizing.services.reports import product_names, result_with_engine
from sizing.services.warning_levels import headline, level_of
from tests.sizing.test_batch_browser import BATCH
from tests.sizing.test_reports import _pdf, _stored_job, pdf_text

pytestmark = pytest.mark.django_db


def _batch(user: Any) -> tuple[Any, JobResult]:
    job = _stored_job(user, "batch", {"csv": BATCH})
    return job, JobResult.from_dict(result_with_engine(job))


def _pdf_words(api: Any, job: Any) -> str:
    return " ".join(" ".join(pdf_text(_pdf(api, f"/api/v1/jobs/{job.pk}/report.pdf"), raw=True)).split())


def test_a_batchs_page_has_its_pdfs_summary_and_chart_words(api: Any, user: Any) -> None:
    # The page counted the rows in words of its own (jobs.js) and titled the chart's axis with
    # the CSV's column (cps_required): both are now display, the PDF's own words.
    job, result = _batch(user)
    display = api.get(f"/api/v1/jobs/{job.pk}/").json()["display"]
    assert display["summary"] == batch_summary(result.rows, result.counts, result.succeeded, result.failed)
    chart = batch_chart(result)
    assert display["chart"] == asdict(chart)
    rows = batch_rows(result)
    assert chart.values == [r.cps_required for r in rows]
    for r, label in zip(rows, chart.labels, strict=True):
        # each bar by its row's number and name; a row with no CPs says why, in short
        assert label.startswith(batch_label(r)) and str(r.name) in label
        if r.status != "sized":
            assert label.endswith(f"({BATCH_STATUS_WORDS[str(r.status)].split(' (')[0]})"), label
    assert not any("_" in text for text in (chart.x_title, chart.y_title, chart.caption))
    words = _pdf_words(api, job)
    for text in (display["summary"], chart.caption, chart.x_title, chart.y_title):
        assert text in words, text


def test_a_table_cut_short_says_how_many_of_its_rows_it_shows(
    api: Any, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The page showed the first 500 rows of a longer batch without a word; 2 of 4 stand for it here.
    monkeypatch.setattr(job_serializers, "DISPLAY_ROWS", 2)
    job, result = _batch(user)
    table = batch_table(result, product_names(user), limit=2)
    shown = api.get(f"/api/v1/jobs/{job.pk}/").json()["display"]["table"]
    assert (shown["rows"], shown["total_rows"]) == (table.rows, 4) and len(table.rows) == 2
    assert shown["note"] == table.note == rows_shown(2, 4) != ""
    assert rows_shown(4, 4) == ""
    # another kind's table says it in the same words
    curve = _stored_job(user, "curve", {**_FITEQ, "cps_list": [4, 6]})
    total = len(curve.result["table"]["rows"])
    assert total > 2
    shown = api.get(f"/api/v1/jobs/{curve.pk}/").json()["display"]["table"]
    assert shown["note"] == rows_shown(2, total) and len(shown["rows"]) == 2


_FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z16", "tps": 8000}


def test_a_batchs_warnings_name_the_engine_of_the_rows_that_have_them(api: Any, user: Any) -> None:
    # "No CPs or zIIPs are quoted" was said of the z10 row, whose specialty engine is the zAAP.
    job, result = _batch(user)
    rows = batch_rows(result)
    engines = {r.specialty_engine for r in rows if r.specialty_engine}
    assert engines == {"zAAP", "zIIP"}  # the z10 beside the z16 and the z13
    said = {w.code: w for w in batch_warnings(result)}
    for code, w in said.items():
        having = [str(r.specialty_engine) for r in rows if code in r.warning_codes.split()]
        assert w.sentence == headline(code, engines_word(having)), code
        assert w.level == level_of(code)
        if set(having) == {"zAAP"}:
            assert "zIIP" not in w.sentence, w.sentence
    assert "zAAPs" in said["does-not-fit"].sentence  # only the z10 row does not fit
    # the PDF's warnings section and the table's last column say the same headlines
    words = _pdf_words(api, job)
    for w in said.values():
        assert w.sentence in words, w.sentence
    table = batch_table(result, product_names(user))
    for r, cells in zip(rows, table.rows, strict=True):
        for code in r.warning_codes.split():
            if level_of(code) == "decision" and code != r.status:
                assert headline(code, str(r.specialty_engine)) in cells[-1], (code, cells[-1])
        if r.specialty_engine == "zAAP":
            assert "zIIP" not in cells[-1], cells[-1]
