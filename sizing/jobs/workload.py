"""Jobs load a configuration's :class:`models_lib.workload.WorkloadModel` here, through the one
scenario every request goes through (``sizing.selectors.scenario.prepared_scenario``, evaluated
by ``sizing.services.scenario.scenario_workload``): the pure model (the engine's own steps at any
rate, CP and specialty-engine count) lives in models_lib."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from models_lib.workload import Evaluation, WorkloadModel, reference_rate, workload_model, ziip_residence_ms
from sizing.selectors.price_books import price_book_for
from sizing.selectors.scenario import prepared_scenario
from sizing.services.scenario import scenario_workload

#: ``size()`` options a job's params may carry (same names as the estimate's).
ENGINE_OPTIONS = ("projection_band", "lpar_overhead", "server_share", "objective")

__all__ = [
    "Evaluation",
    "WorkloadModel",
    "load_workload",
    "load_workload_for",
    "reference_rate",
    "workload_model",
    "ziip_residence_ms",
]


def load_workload(
    *,
    owner: User,
    path: str,
    configuration: str,
    machine: str,
    payload_bytes: int | None = None,
    max_utilization: float | None = None,
    tps: float | None = None,
    capacity_setting: str | None = None,
    **engine: Any,
) -> WorkloadModel:
    """Read the configuration and fit it as the engine does (``ValueError`` if it cannot be sized)."""
    scenario = prepared_scenario(
        user=owner,
        inputs={
            "path": path,
            "configuration": configuration,
            "machine": machine,
            "capacity_setting": capacity_setting,
        },
    )
    # The owner's prices: the answers' cost and the least-cost objective (none: no cost shown).
    book = price_book_for(user=owner)
    options = {"payload_bytes": payload_bytes, "max_utilization": max_utilization, "price_book": book, **engine}
    return scenario_workload(scenario=scenario, tps=tps, options=options)


def load_workload_for(*, owner: User, params: dict[str, Any], tps: float | None = None) -> WorkloadModel:
    """:func:`load_workload` for a job's validated ``params`` (the estimate's field names)."""
    return load_workload(
        owner=owner,
        path=params["path"],
        configuration=params["configuration"],
        machine=params["machine"],
        payload_bytes=params.get("payload_bytes"),
        max_utilization=params.get("max_utilization"),
        tps=tps,
        capacity_setting=params.get("capacity_setting"),
        **{k: params[k] for k in ENGINE_OPTIONS if params.get(k) is not None},
    )
