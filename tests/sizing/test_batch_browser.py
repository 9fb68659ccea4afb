"""The batch on the sizing page says what each row is (issue 30 item 4): a HostBridge row (no CPU
data) and a row that does not fit are not counted as sized, and the chart's bars carry each
row's label and, where it has no CPs, why."""

from __future__ import annotations

from typing import Any

import pytest

from tests.celery_worker import Worker
from tests.sizing.test_ui_browser import page  # noqa: F401 (the logged-in page fixture)

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


def test_the_batch_summary_and_bars_say_each_rows_status(jobs_worker: Worker, live_server: Any, page: Any) -> None:  # noqa: F811
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
    assert [e for e in page.errors if "status of 400" not in e] == []
