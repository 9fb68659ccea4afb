"""Jobs load a configuration's :class:`models_lib.workload.WorkloadModel` here: the pure model
(the engine's own steps at any rate, CP and specialty-engine count) lives in models_lib; this
module only reads the reference rows the user may see."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from models_lib.inputs import CapacityTable
from models_lib.workload import Evaluation, WorkloadModel, reference_rate, workload_model, ziip_residence_ms
from sizing.selectors.configuration_data import other_component_cost
from sizing.selectors.fitted import current_reference
from sizing.selectors.targets import target_for
from sizing.services.estimates import resolve_configuration

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
    capacity: CapacityTable | None = None,
    capacity_setting: str | None = None,
    **engine: Any,
) -> WorkloadModel:
    """Read the configuration and fit it as the engine does (``ValueError`` if it cannot be sized)."""
    reference = current_reference()
    config_row = resolve_configuration(user=owner, path=path, configuration=configuration, reference=reference)
    target = target_for(machine=machine, capacity_setting=capacity_setting, reference=reference)
    machine_row = target.machine
    fitted = reference.fitted(config_row)
    cfg = fitted.data
    return workload_model(
        cfg,
        fitted=fitted.model,
        machine=machine_row.slug,
        machine_type=machine_row.machine_type,
        capacity=capacity if capacity is not None else reference.lspr_table(),
        payload_bytes=payload_bytes,
        max_utilization=max_utilization,
        tps=tps,
        capacity_setting=target.engine_setting,
        other_cost=other_component_cost(configuration=config_row, data=cfg),
        **engine,
    )


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
