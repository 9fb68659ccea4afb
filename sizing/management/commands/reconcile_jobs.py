"""``manage.py reconcile_jobs``: one pass of the job reconciler (or one every ``--every`` s).

Workers already run it every ``ZSIZER_RECONCILE_INTERVAL_SECONDS``; this is for an operator, or
for the embedded default without a broker, where the jobs it re-sends run in this process (it
waits for them).  See ``sizing.services.job_recovery`` and docs/jobs.md.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connections

from sizing.services.job_recovery import jobs_reconcile


class Command(BaseCommand):
    help = "Re-send queued jobs the broker lost; re-queue or fail running jobs whose worker is gone."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--every", type=float, default=0.0, help="repeat every this many seconds (0: once)")

    def handle(self, *args: Any, **options: Any) -> None:
        every = float(options["every"])
        while True:
            report = jobs_reconcile()
            for thread in report.threads:
                thread.join()
            self.stdout.write(str(report))
            if every <= 0:
                return
            connections.close_all()
            time.sleep(every)
