"""``mix``: several workloads (path, configuration, TPS) on one LPAR.

The numerics (the shared pools, the Allen-Cunneen wait of the shared CP pool, the CP count, the
headroom) are :func:`models_lib.mix.evaluate_mix`; this module reads the params, loads each
workload's model, calls it and shapes the result table.  See docs/jobs.md.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from models_lib.capacity import demand_mips, demand_msu
from models_lib.mix import evaluate_mix
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


def run_mix(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    entries = params["workloads"]
    capacity = current_reference().lspr_table()
    models: list[WorkloadModel] = []
    for i, entry in enumerate(entries):
        models.append(
            load_workload(
                owner=owner,
                path=entry["path"],
                configuration=entry["configuration"],
                machine=params["machine"],
                payload_bytes=entry.get("payload_bytes"),
                max_utilization=params.get("max_utilization"),
                tps=entry["tps"],
            )
        )
        progress(i + 1, len(entries) + 1)
    rates = [float(e["tps"]) for e in entries]
    ziips = params.get("ziips")
    answer = evaluate_mix(models, rates, cps=params.get("cps"), ziips=ziips)
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
            },
            "approximation": "shared FCFS CP (and zIIP) pool: Allen-Cunneen M/G/c wait with the mixture of the "
            "workloads' exponential service times; per-workload fixed part and software station",
            "workloads": rows,
            "warnings": [{"code": w.code, "message": w.message} for w in answer.warnings],
            "table": table(COLUMNS, ([row[c] for c in COLUMNS] for row in rows)),
        }
    )
