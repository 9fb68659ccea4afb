"""A heavy report (a 300-row batch) is built by a real Celery worker while the API answers 202
with a progress URL; the PDF it builds stays readable: its scenario table is split across pages
with the header repeated on each.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from sizing.models import JobStatus, Path
from sizing.services.reports import HEAVY_BATCH_ROWS
from tests.celery_worker import Worker, wait_for_job
from tests.sizing.test_reports import pdf_text

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SCENARIOS = (
    "fiteq-authenticator,multi-region,z13,{tps}",
    "cicstg,ipic-channel-64,z10,{tps}",
    "zosconnect-cics,channel,z13,{tps}",
)


def test_a_300_row_batch_report_is_built_by_a_worker_and_splits_its_table(jobs_worker: Worker, api: Any) -> None:
    lines = [SCENARIOS[i % 3].format(tps=200 + 10 * i) for i in range(300)]
    assert len(lines) > HEAVY_BATCH_ROWS
    submitted = api.post(
        "/api/v1/jobs/",
        {"kind": "batch", "params": {"csv": "path,configuration,machine,tps\n" + "\n".join(lines)}},
        format="json",
    )
    assert submitted.status_code == 202, submitted.json()
    job = wait_for_job(submitted.json()["id"], timeout=180)
    assert job.status == JobStatus.SUCCEEDED, job.error

    first = api.get(f"/api/v1/jobs/{job.pk}/report.pdf")
    assert first.status_code == 202, first.content[:300]
    progress = first.json()
    assert first["Location"] == progress["url"] and progress["status"] in ("queued", "running", "succeeded")
    # Asking again while it is built does not queue a second one.
    again = api.get(f"/api/v1/jobs/{job.pk}/report.pdf")
    assert again.status_code in (200, 202)
    if again.status_code == 202:
        assert again.json()["id"] == progress["id"]

    deadline = time.monotonic() + 120
    while True:
        state = api.get(progress["url"]).json()
        if state["status"] in ("succeeded", "failed") or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    assert state["status"] == "succeeded", (state, jobs_worker.log_text()[-3000:])
    pdf = api.get(state["pdf_url"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    # The job's own URL now answers the stored PDF at once.
    direct = api.get(f"/api/v1/jobs/{job.pk}/report.pdf")
    assert direct.status_code == 200 and direct.content == pdf.content

    pages = pdf_text(pdf.content, layout=True)
    # Each scenario's row starts with its number and its path's product name (first word: the
    # name wraps in its cell), never the path's slug.
    first_words = sorted({Path.objects.get(slug=s.split(",")[0]).name.split()[0] for s in SCENARIOS})
    row_line = re.compile(rf"^\s*(\d+)\s+({'|'.join(map(re.escape, first_words))})\s")
    with_rows = [p for p in pages if any(row_line.match(line) for line in p.splitlines())]
    assert not any(s.split(",")[0] in p for s in SCENARIOS for p in pages)
    assert len(with_rows) >= 5, len(with_rows)
    for page in with_rows:  # the header row repeated on every page of the table
        # (the header cells wrap between words: "Path /" over "configuration")
        assert "Path /" in page and "configuration" in page and "Saturation," in page, page[:3000]
    rows_seen = {int(m.group(1)) for page in with_rows for line in page.splitlines() if (m := row_line.match(line))}
    assert rows_seen == set(range(1, 301))
    # Another user sees nothing of it.
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=User.objects.create_user('x')).key}")
    assert other.get(progress["url"]).status_code == 404
    assert other.get(state["pdf_url"]).status_code == 404
