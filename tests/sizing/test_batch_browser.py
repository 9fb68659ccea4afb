"""The batch on the sizing page says what each row is (issue 30 item 4): a HostBridge row (no CPU
data) and a row that does not fit are not counted as sized, and the chart's bars carry each
row's label and, where it has no CPs, why.  Its result table is the one its PDF prints
(``presentation.batch_table``), and on a phone it scrolls inside its box.  Screenshots at 1440
and 390 px go to ``test-artifacts/`` (git-ignored)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.celery_worker import Worker
from tests.sizing.test_ui_browser import ARTIFACTS, page  # noqa: F401 (the logged-in page fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
]

BATCH = (
    "name,path,configuration,machine,tps\n"
    "Branch A,fiteq-authenticator,multi-region,z16,8000\n"
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
    summary = page.locator("#job-summary").inner_text()
    assert summary == "4 rows: 1 sized, 1 does not fit, 1 no CPU data (nothing can be sized), 1 refused (see the table)"
    page.wait_for_selector("#job-chart-a .main-svg")
    labels = page.eval_on_selector_all("#job-chart-a .xtick text", "els => els.map((e) => e.textContent)")
    assert labels == ["1. Branch A", "2. Gateway (no CPU data (nothing can be sized))", "3. Peak (does not fit)",
                      "4. Typo (refused)"]  # fmt: skip
    # the summary is the job's own counts
    job = page.request.get(page.evaluate("document.getElementById('job-state').dataset.jobUrl")).json()
    assert job["result"]["counts"] == {"sized": 1, "does-not-fit": 1, "no-cpu-data": 1, "refused": 1}

    # The result table showed the batch's CSV (slugs, cps_required, 0.8234...): it is the table
    # the PDF prints (presentation.batch_table), each row's status in its last column.
    expected = _batch_table(job["id"])
    page.locator("#job-result summary", has_text="Result table").click()
    shown = page.evaluate(TABLE_TEXT)
    assert shown == {"columns": expected.columns, "numeric": expected.numeric, "rows": expected.rows}
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1440, "height": 900})
    page.locator("#job-result").scroll_into_view_if_needed()
    page.wait_for_timeout(300)  # Plotly's resize
    page.locator("#job-result").screenshot(path=str(ARTIFACTS / "batch-table-1440.png"))
    page.screenshot(path=str(ARTIFACTS / "batch-page-1440.png"), full_page=True)

    # A phone: the page is never wider than the screen; the table scrolls inside its box.
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    box = page.locator("#job-table")
    assert box.evaluate(SCROLLS_SIDEWAYS), "the table neither fits nor scrolls inside its box"
    assert box.evaluate("(el) => el.getBoundingClientRect().right") <= 390
    page.locator("#job-result").scroll_into_view_if_needed()
    page.locator("#job-result").screenshot(path=str(ARTIFACTS / "batch-table-390.png"))
    page.screenshot(path=str(ARTIFACTS / "batch-page-390.png"), full_page=True)
    assert [e for e in page.errors if "status of 400" not in e] == []


def _batch_table(job_id: int) -> Any:
    """The job's scenarios as its PDF prints them, read in a thread of its own (Playwright's loop
    runs in the test's thread, where Django refuses the ORM)."""
    from django.db import connections

    from sizing.models import Job
    from sizing.presentation import batch_table
    from sizing.records import JobResult
    from sizing.services.reports import product_names, result_with_engine

    def read() -> Any:
        try:
            job = Job.objects.select_related("owner").get(pk=job_id)
            return batch_table(JobResult.from_dict(result_with_engine(job)), product_names(job.owner))
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

#: The box or its table (a phone's tables are blocks that scroll, app.css) scrolls sideways.
SCROLLS_SIDEWAYS = """(box) => [box, box.querySelector('table')].some((el) =>
  el.scrollWidth > el.clientWidth && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))"""
