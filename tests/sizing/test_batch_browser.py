"""The batch on the sizing page says what each row is (issue 30 item 4): a HostBridge row (no CPU
data) and a row that does not fit are not counted as sized, and the chart's bars carry each
row's label and, where it has no CPs, why; the summary and the chart's words are its PDF's
(``display.summary``, ``display.chart``), and on a phone the bars lie down, no label cut off.  Its result table is the one its PDF prints
(``presentation.batch_table``), and on a phone it scrolls inside its box.  Screenshots at 1440
and 390 px go to ``test-artifacts/`` (git-ignored)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from sizing.presentation import NOT_QUOTED_NOTE
from tests.celery_worker import Worker
from tests.sizing.test_ui_browser import ARTIFACTS, at_width, page  # noqa: F401 (the logged-in page fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
]

BATCH = (
    "name,path,configuration,machine,tps\n"
    "Branch A,fiteq-authenticator,multi-region,z16,7000\n"  # sized: the software station within the ceiling
    "Gateway,hostbridge-http,default-tcpip,z13,100\n"
    "Peak,fiteq-authenticator,multi-region,z10,60000\n"
    "Typo,fiteq-authenticator,multi-region,z16,-5\n"
)


def test_the_batch_summary_bars_and_table_say_each_rows_status(
    jobs_worker: Worker,
    live_server: Any,
    page: Any,  # noqa: F811
) -> None:
    jobs = page.locator("#jobs")
    jobs.get_by_label("Batch (CSV)").check()
    jobs.get_by_label("Scenarios").fill(BATCH)
    jobs.get_by_role("button", name="Start").click()
    page.wait_for_function("() => document.getElementById('job-state').dataset.status === 'succeeded'", timeout=90_000)
    job = page.request.get(page.evaluate("document.getElementById('job-state').dataset.jobUrl")).json()
    assert job["result"]["counts"] == {"sized": 1, "does-not-fit": 1, "no-cpu-data": 1, "refused": 1}
    expected, summary, chart = _batch_words(job["id"])
    # The summary was jobs.js's own copy of the status words: it is the PDF's sentence, the job's counts.
    assert page.locator("#job-summary").inner_text() == summary == job["display"]["summary"]
    # The chart's axis said cps_required (the CSV's column): it says the PDF's words, each bar by
    # its row's number, its name from the CSV and, where it has no CPs, why.
    page.wait_for_selector("#job-chart-a .main-svg")
    labels = page.eval_on_selector_all("#job-chart-a .xtick text", "els => els.map((e) => e.textContent)")
    assert labels == chart.labels and "Peak" in chart.labels[2]
    titles = page.eval_on_selector_all(
        "#job-chart-a .g-xtitle, #job-chart-a .g-ytitle", "els => els.map((e) => e.textContent)"
    )
    assert titles == [chart.x_title, chart.y_title]
    assert page.locator("#job-chart-a").get_attribute("aria-label") == chart.caption

    # The result table showed the batch's CSV (slugs, cps_required, 0.8234...): it is the table
    # the PDF prints (presentation.batch_table), each row's name and status.
    page.locator("#job-result summary", has_text="Result table").click()
    shown = page.evaluate(TABLE_TEXT)
    assert shown == {"columns": expected.columns, "numeric": expected.numeric, "rows": expected.rows}
    # every row is shown; the note under the table says once what the z10 row's marked model,
    # MIPS and MSU are (evaluated, not quoted), in the PDF's words
    assert expected.note == NOT_QUOTED_NOTE
    assert page.locator(".job-table-note").all_inner_texts() == [expected.note]
    ARTIFACTS.mkdir(exist_ok=True)
    at_width(page, 1440, 900)
    page.locator("#job-result").scroll_into_view_if_needed()
    page.locator("#job-result").screenshot(path=str(ARTIFACTS / "batch-table-1440.png"))
    page.screenshot(path=str(ARTIFACTS / "batch-page-1440.png"), full_page=True)

    # A phone: the page is never wider than the screen; the table scrolls inside its box.
    at_width(page, 390, 844)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    box = page.locator("#job-table")
    assert box.evaluate(SCROLLS_SIDEWAYS), "the table neither fits nor scrolls inside its box"
    assert box.evaluate("(el) => el.getBoundingClientRect().right") <= 390
    # The rotated labels were cut off at the chart's foot: on a phone the bars lie down, drawn
    # again as the screen narrows, every label whole inside the chart.
    page.wait_for_function("() => document.querySelectorAll('#job-chart-a .ytick text').length === 4", timeout=10_000)
    lying = page.eval_on_selector_all(
        "#job-chart-a .ytick text",
        "els => els.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top).map((e) => e.textContent)",
    )
    assert lying == chart.labels  # read from the top down, in the CSV's order
    assert page.evaluate(LABELS_INSIDE) == [], "a bar's label is cut off"
    assert page.eval_on_selector_all("#job-chart-a .g-xtitle, #job-chart-a .g-ytitle", "els => els.map((e) => e.textContent)") == [chart.y_title, chart.x_title]  # fmt: skip
    page.locator("#job-chart-a").screenshot(path=str(ARTIFACTS / "batch-chart-390.png"))
    page.locator("#job-result").scroll_into_view_if_needed()
    page.locator("#job-result").screenshot(path=str(ARTIFACTS / "batch-table-390.png"))
    page.screenshot(path=str(ARTIFACTS / "batch-page-390.png"), full_page=True)
    assert [e for e in page.errors if "status of 400" not in e] == []


def _batch_words(job_id: int) -> Any:
    """The job's scenarios, summary and chart as its PDF prints them (``sizing.presentation``),
    read in a thread of its own (Playwright's loop runs in the test's thread, where Django
    refuses the ORM)."""
    from django.db import connections

    from sizing.models import Job
    from sizing.presentation import batch_chart, batch_summary, batch_table
    from sizing.records import JobResult
    from sizing.services.reports import product_names, result_with_engine

    def read() -> Any:
        try:
            job = Job.objects.select_related("owner").get(pk=job_id)
            result = JobResult.from_dict(result_with_engine(job))
            summary = batch_summary(result.rows, result.counts, result.succeeded, result.failed)
            return batch_table(result, product_names(job.owner)), summary, batch_chart(result)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(read).result()


#: The page's result table: headers, whether each is set as a number, and the cells.
TABLE_TEXT = """() => {
  const t = document.querySelector('#job-table table');
  return {
    columns: [...t.tHead.rows[0].cells].map((c) => c.textContent),
    numeric: [...t.tHead.rows[0].cells].map((c) => c.classList.contains('num')),
    rows: [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent)),
  };
}"""

#: The chart's tick labels that reach outside the chart's box (cut off), by their text.
LABELS_INSIDE = """() => {
  const box = document.querySelector('#job-chart-a').getBoundingClientRect();
  return [...document.querySelectorAll('#job-chart-a .xtick text, #job-chart-a .ytick text')]
    .filter((t) => {
      const r = t.getBoundingClientRect();
      return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
    })
    .map((t) => t.textContent);
}"""

#: The box or its table (a phone's tables are blocks that scroll, app.css) scrolls sideways.
SCROLLS_SIDEWAYS = """(box) => [box, box.querySelector('table')].some((el) =>
  el.scrollWidth > el.clientWidth && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))"""
