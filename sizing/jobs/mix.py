"""``mix``: several workloads (path, configuration, TPS) on one LPAR.

The numerics (the shared pools, the Allen-Cunneen wait of the shared CP pool, the CP count, the
headroom) are :func:`models_lib.mix.evaluate_mix`; this module reads the params, loads each
workload's model, calls it and shapes the result table.  See docs/jobs.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from models_lib.capacity import demand_mips, demand_msu
from models_lib.choice import canonical_objective
from models_lib.inputs import CapacityTable
from models_lib.mix import MixAnswer as LparAnswer
from models_lib.mix import MixWarning, Shared, evaluate_mix, lpar_cost
from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.workload import WorkloadModel, load_workload
from sizing.selectors.fitted import current_reference

COLUMNS = (
    "path",
    "configuration",
    "tps",
    "gcp_busy",
    "ziip_busy",
    "cpu_per_tran_ms",
    "response_time_ms",
    "response_time_lower_bound_ms",
    "response_time_sla_ms",
    "meets_sla",
)


@dataclass(frozen=True)
class MixAnswer:
    """The mix job's LPAR (:func:`models_lib.mix.evaluate_mix`) with what it was asked: the
    loaded workloads, their rates and the capacity table, so that a plan reads the same answer
    the job prints, with MIPS and MSU as methods."""

    models: tuple[WorkloadModel, ...]
    rates: tuple[float, ...]
    ziips: int | None  # as given (None: sized)
    capacity: CapacityTable
    answer: LparAnswer

    @property
    def lpar(self) -> Shared:
        return self.answer.lpar

    @property
    def cps_sized(self) -> bool:
        return self.answer.cps_sized

    @property
    def warnings(self) -> tuple[MixWarning, ...]:
        return self.answer.warnings

    @property
    def ceiling(self) -> float:
        return self.models[0].ziip_ceiling

    @property
    def machine_type(self) -> str:
        return self.models[0].machine_type

    @property
    def within_ceiling(self) -> bool:
        """The CPs carry the combined GCP demand within the ceiling."""
        return self.lpar.gcp_utilization <= self.ceiling + 1e-9

    def mips(self) -> float:
        """GCP demand, MIPS (LSPR per-CP capacity at the LPAR's CP count)."""
        return demand_mips(self.lpar.gcp_busy, self.capacity, self.machine_type, self.lpar.cps)

    def msu(self) -> float:
        """MSU consumed: GCP demand in MSU (zIIP work carries no software charge)."""
        return demand_msu(self.lpar.gcp_busy, self.capacity, self.machine_type, self.lpar.cps)

    def headroom(self) -> float:
        """Largest common multiplier of the rates the CPs carry within the ceiling."""
        return self.answer.headroom

    def saturation_scale(self) -> float:
        """Largest common multiplier of the rates the engines still carry."""
        return self.answer.saturation_scale


def mix_lpar(
    models: Sequence[WorkloadModel],
    rates: Sequence[float],
    *,
    cps: int | None,
    ziips: int | None,
    capacity: CapacityTable,
) -> MixAnswer:
    """The mix job's LPAR for loaded workload models at ``rates`` (transactions/s)."""
    answer = evaluate_mix(models, rates, cps=cps, ziips=ziips)
    return MixAnswer(tuple(models), tuple(float(r) for r in rates), ziips, capacity, answer)


def mix_workload(
    *,
    owner: User,
    params: Mapping[str, Any],
    entry: Mapping[str, Any],
    **engine: Any,
) -> WorkloadModel:
    """The model of one of the mix's ``workloads`` on its machine (``ValueError`` if it cannot be
    sized); the submission check calls this too, so an accepted mix can be computed.  The
    capacity table is the scenario's (the current reference-data version's)."""
    return load_workload(
        owner=owner,
        path=entry["path"],
        configuration=entry["configuration"],
        machine=params["machine"],
        payload_bytes=entry.get("payload_bytes"),
        max_utilization=params.get("max_utilization"),
        tps=entry["tps"],
        capacity_setting=params.get("capacity_setting"),
        **engine,
    )


def mix_evaluate(
    *,
    owner: User,
    workloads: Sequence[Mapping[str, Any]],
    machine: str,
    cps: int | None = None,
    ziips: int | None = None,
    max_utilization: float | None = None,
    capacity_setting: str | None = None,
    capacity: CapacityTable | None = None,
    progress: Progress | None = None,
    **engine: Any,
) -> MixAnswer:
    """Several workloads (``path``, ``configuration``, ``tps``, optional ``payload_bytes``) on
    one LPAR of ``machine`` (and ``capacity_setting``): each loaded as the engine does, then
    :func:`models_lib.mix.evaluate_mix`.  ``engine``: the estimate's engine options."""
    capacity = capacity if capacity is not None else current_reference().lspr_table()
    params = {"machine": machine, "max_utilization": max_utilization, "capacity_setting": capacity_setting}
    models: list[WorkloadModel] = []
    for i, entry in enumerate(workloads):
        models.append(mix_workload(owner=owner, params=params, entry=entry, **engine))
        if progress is not None:
            progress(i + 1, len(workloads) + 1)
    return mix_lpar(models, [float(e["tps"]) for e in workloads], cps=cps, ziips=ziips, capacity=capacity)


def run_mix(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    entries = params["workloads"]
    mixed = mix_evaluate(
        owner=owner,
        workloads=entries,
        machine=params["machine"],
        cps=params.get("cps"),
        ziips=params.get("ziips"),
        max_utilization=params.get("max_utilization"),
        progress=progress,
        **({"objective": params["objective"]} if params.get("objective") else {}),
    )
    models, capacity = list(mixed.models), mixed.capacity
    rates = [float(e["tps"]) for e in entries]
    ziips = params.get("ziips")
    answer = mixed.answer
    lpar = answer.lpar
    cps, z = lpar.cps, lpar.ziips
    machine_type = models[0].machine_type
    rows = []
    for wm, entry, w in zip(models, entries, answer.workloads, strict=True):
        sla = entry.get("response_time_sla_ms")
        judged = w.response_time_ms if w.response_time_ms is not None else w.lower_bound_ms
        rows.append(
            {
                "path": wm.path,
                "configuration": wm.configuration,
                "tps": w.tps,
                "gcp_busy": w.gcp_busy,
                "ziip_busy": w.ziip_busy,
                "cpu_per_tran_ms": w.cpu_per_tran_ms,
                "response_time_ms": w.response_time_ms,
                "response_time_lower_bound_ms": w.lower_bound_ms,
                "response_time_sla_ms": sla,
                "meets_sla": None if sla is None else bool(judged <= sla),
                "response_time_data": wm.has_response_data,
                "warnings": warnings_of(wm.reference),
            }
        )
    progress(1, 1)
    return json_result(
        {
            "kind": "mix",
            "machine": models[0].machine,
            "specialty_engine": models[0].policy.name,  # zAAP on z10..zEC12/zBC12, else zIIP
            "cps": cps,
            "cps_sized": answer.cps_sized,
            "ziips": z,
            "ziips_sized": ziips is None,
            "max_utilization": models[0].ziip_ceiling,
            "combined": {
                "tps": sum(rates),
                "gcp_busy": lpar.gcp_busy,
                "gcp_utilization": lpar.gcp_utilization,
                "ziip_busy": lpar.ziip_busy,
                "ziip_utilization": lpar.ziip_busy / z if z else None,
                "mips": demand_mips(lpar.gcp_busy, capacity, machine_type, cps),
                "msu": demand_msu(lpar.gcp_busy, capacity, machine_type, cps),
                "cp_wait_ms": answer.cp_wait_ms,
                "headroom": answer.headroom,
                "saturation_scale": answer.saturation_scale,
                # only with the owner's price book (models_lib.pricing): no invented prices
                "cost": None if (cost := lpar_cost(models, lpar)) is None else dict(cost),
            },
            "objective": canonical_objective(params.get("objective")),
            "approximation": f"shared FCFS CP (and {models[0].policy.name}) pool: Allen-Cunneen M/G/c wait with the mixture of the "
            "workloads' exponential service times; per-workload fixed part and software station",
            "workloads": rows,
            "warnings": [{"code": w.code, "message": w.message} for w in answer.warnings],
            "table": table(COLUMNS, ([row[c] for c in COLUMNS] for row in rows)),
        }
    )
