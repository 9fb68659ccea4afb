"""Build time of the PDF reports against baselines measured in the same run (not a test).

Run ``python perf/bench_reports.py`` (``make bench`` runs it with the others).  It works on the
bench database (``ZSIZER_BENCH_DATABASE_URL``, as ``perf/stack.py``; migrated and loaded here),
in-process, no server.  Rows (best of ``REPEATS`` builds, time.perf_counter):

* estimate report: ``estimate_report_pdf`` of a saved FiTeq multi-region estimate on a z13 (the
  answer, its three charts, basis, sources) against the same report laid out without charts,
  so the figure shows what the charts cost.  Goal: under 2 s.
* 300-row batch report (the report a worker builds): ``job_report_pdf`` of a 300-row batch
  result, against the 2-row batch of the same scenarios (the fixed cost of a job report).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from perf.record import record  # noqa: E402
from perf.stack import _ensure_database, _manage  # noqa: E402
from perf.timing import best_of  # noqa: E402

REPEATS = int(os.environ.get("ZSIZER_BENCH_REPORT_REPEATS", "5"))
GOAL_S = 2.0


def row(name: str, seconds: float, baseline: float, baseline_name: str, **extra: Any) -> None:
    record("reports", name=name, seconds=seconds, baseline=baseline_name, baseline_seconds=baseline, **extra)
    print(f"{name:44s} {seconds:10.3f} s {baseline:10.3f} s   ({baseline_name})")


def main() -> int:
    db_url = os.environ.get("ZSIZER_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/zsizer_bench")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.base", "DATABASE_URL": db_url}
    env.pop("CELERY_BROKER_URL", None)  # in-process: reports need no broker
    _ensure_database(db_url)
    _manage(env, "migrate", "--noinput")
    _manage(env, "load_benchmarks")
    os.environ.update({k: v for k, v in env.items() if k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL")})
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.utils import timezone

    from sizing.jobs import RUNNERS
    from sizing.models import Job, JobStatus
    from sizing.reports import document
    from sizing.reports.estimate import estimate_story
    from sizing.selectors.report_basis import report_basis
    from sizing.services import reports
    from sizing.services.estimates import estimate_create

    user, _ = User.objects.get_or_create(username="bench-reports")
    inputs = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": 5000.0}
    estimate = estimate_create(user=user, inputs=inputs)
    estimate = type(estimate).objects.select_related("configuration__path", "machine").get(pk=estimate.pk)
    reports.estimate_report_pdf(user=user, estimate=estimate)  # warm: fonts, fitted models

    def without_charts() -> bytes:
        subject = reports.estimate_subject(estimate)
        basis = report_basis(configuration=estimate.configuration, basis=estimate.outputs["basis"])
        story = estimate_story(subject, basis, None, "charts left out (baseline)")
        return document.render(story, document.Meta("bench", "bench", timezone.now()))

    full = best_of(lambda: reports.estimate_report_pdf(user=user, estimate=estimate), REPEATS)
    plain = best_of(without_charts, REPEATS)
    row("estimate report (3 charts)", full, plain, "same report without charts", goal_s=GOAL_S, met=full < GOAL_S)

    scenarios = [f"fiteq-authenticator,multi-region,z13,{200 + 10 * i}" for i in range(300)]

    def batch_job(n: int) -> Job:
        params = {"csv": "path,configuration,machine,tps\n" + "\n".join(scenarios[:n])}
        result = RUNNERS["batch"](params=params, owner=user, progress=lambda done, total: None)
        return Job.objects.create(
            owner=user,
            kind="batch",
            params=params,
            status=JobStatus.SUCCEEDED,
            result=result,
            finished_at=timezone.now(),
        )

    big, small = batch_job(300), batch_job(2)
    heavy = best_of(lambda: reports.job_report_pdf(user=user, job=big), repeats=max(1, REPEATS // 2))
    light = best_of(lambda: reports.job_report_pdf(user=user, job=small), REPEATS)
    row("300-row batch report (worker)", heavy, light, "2-row batch report")
    return 0


if __name__ == "__main__":
    sys.exit(main())
