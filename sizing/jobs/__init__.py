"""Job kinds: each a function ``run_<kind>(*, params, owner, progress) -> dict``.

``params`` are the validated parameters (``sizing.api.job_serializers``), ``owner`` the user
whose private configurations are visible, ``progress(done, total)`` the callback that reports
progress and raises :class:`JobStopped` when the job was cancelled.  The result is plain JSON
with a ``table`` (``columns``, ``rows``) offered as CSV.  See docs/jobs.md.
"""

from collections.abc import Callable
from typing import Any

from sizing.jobs.base import JobStopped, Progress
from sizing.jobs.batch import run_batch
from sizing.jobs.closed import run_closed
from sizing.jobs.curve import run_curve
from sizing.jobs.mix import run_mix
from sizing.jobs.montecarlo import run_montecarlo
from sizing.jobs.optimize import run_optimize
from sizing.jobs.plan import run_plan
from sizing.jobs.plan_cec import register as _register_machine_candidates

_register_machine_candidates()

RUNNERS: dict[str, Callable[..., dict[str, Any]]] = {
    "curve": run_curve,
    "closed": run_closed,
    "montecarlo": run_montecarlo,
    "optimize": run_optimize,
    "mix": run_mix,
    "batch": run_batch,
    "plan": run_plan,
}

__all__ = ["RUNNERS", "JobStopped", "Progress"]
