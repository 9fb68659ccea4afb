"""A prepared workload answered at a rate (its inputs checked: :func:`rate_request`) and at a
whole array of rates (:func:`answers`, the vectorised path of a batch).

:func:`answers` is :meth:`models_lib.prepared.PreparedWorkload.answer` at each rate of an array
with the same options, equal to it answer for answer (the same figures, warnings and JSON):
the options are checked once, the workload under the other recorded engine rule is found once,
and the CP counts are evaluated over the array of the rates' demands
(:func:`models_lib.decision_group.answers_at`: the centre's counts, the ends of the ranges, whether
each rate fits and the ends of the CPU per transaction, with numpy, one count at a time for
the rates still looking); what remains per rate is the choice among the evaluated counts, the
response time and the answer's sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from models_lib.answer import SizingResult
from models_lib.capacity import rating
from models_lib.checks import InputError, opt_int, pos_float
from models_lib.choice import RateRequest, replaced
from models_lib.decision_group import answers_at
from models_lib.prepare_inputs import check_objective
from models_lib.pricing import PriceBook, pricer_for

if TYPE_CHECKING:
    from models_lib.prepared import PreparedWorkload

__all__ = ["answers", "rate_request"]


def answers(
    pw: PreparedWorkload,
    rates: Sequence[float] | npt.NDArray[np.float64],
    *,
    cps: int | None = None,
    ziips: int | None = None,
    clients: int | None = None,
    think_time_s: float | None = None,
    response_time_sla_ms: float | None = None,
    objective: str | None = None,
    price_book: PriceBook | None = None,
) -> list[SizingResult]:
    """``[pw.answer(t, ...) for t in rates]`` with the rate-free work done once (see the module
    docstring).  A bad option or rate raises the :class:`~models_lib.checks.InputError`
    :meth:`~models_lib.prepared.PreparedWorkload.answer` raises."""
    values = [float(t) for t in np.ravel(rates)] if isinstance(rates, np.ndarray) else list(rates)
    options = {
        "cps": cps, "ziips": ziips, "clients": clients, "think_time_s": think_time_s,
        "response_time_sla_ms": response_time_sla_ms, "objective": objective, "price_book": price_book,
    }  # fmt: skip
    if not values:
        return []
    if pw.cost is None:  # no CPU data: nothing to evaluate, each answer says so
        return [pw.answer(t, **options) for t in values]  # type: ignore[arg-type]
    first = rate_request(pw, values[0], **options)  # type: ignore[arg-type]
    return answers_at(pw, pw.cost, [first, *(replaced(first, t=pos_float("tps", t)) for t in values[1:])])


def rate_request(
    pw: PreparedWorkload,
    tps: float,
    *,
    cps: int | None,
    ziips: int | None,
    clients: int | None,
    think_time_s: float | None,
    response_time_sla_ms: float | None,
    objective: str | None = None,
    price_book: PriceBook | None = None,
) -> RateRequest:
    """The rate's inputs to ``pw``'s decision, checked; an :class:`~models_lib.checks.InputError`
    names the argument.  ``objective``: the prepared workload's unless given (``least-cost``
    needs ``price_book``)."""
    t = pos_float("tps", tps)
    objective = check_objective(pw.objective if objective is None else objective)
    pricer = pricer_for(price_book, objective, pw.capacity, pw.target_machine_type, pw.capacity_setting)
    cps_given = opt_int("cps", cps, 1)
    n_clients = opt_int("clients", clients, 1)
    think = None if think_time_s is None else pos_float("think_time_s", think_time_s, allow_zero=True)
    if (n_clients is None) != (think is None):
        raise InputError(
            "clients",
            f"clients and think_time_s must be given together, got clients={clients!r}, think_time_s={think_time_s!r}",
        )
    if cps_given is not None:
        rating(pw.capacity, pw.target_machine_type, cps_given)  # raises for an unrated count
        if cps_given < pw.policy.min_cps:
            raise InputError(
                "cps",
                f"cps must be >= {pw.policy.min_cps} on machine type {pw.target_machine_type}, got {cps!r}",
            )
    sla = None if response_time_sla_ms is None else pos_float("response_time_sla_ms", response_time_sla_ms)
    return RateRequest(
        t, cps_given, opt_int("ziips", ziips, 0), n_clients, think, sla,
        pw.max_utilization, pw.ziip_max_utilization, pw.policy, objective, pricer,
    )  # fmt: skip
