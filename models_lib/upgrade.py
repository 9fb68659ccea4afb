"""The same workload on newer machines: the current machine (a model or a machine with CPs) and
each target side by side, every column the engine's own estimate (:func:`size`) of that target
with the same inputs: its ranges are the estimate's, computed once, in the engine.

The LSPR projection's uncertainty grows with the generation gap between the measured machine
and the target.  A band per generation is an **assumption**, not a published figure: LSPR
ratings are for a workload category, the measured workloads' category is not published, and no
source read gives the spread of a projection across generations.  So it is shown beside each
column (``assumed_band``) and applied only as a ``projection_band`` the user gives, exactly as
the estimate applies one.

References
----------
.. [1] IBM, LSPR multi-image AVERAGE ratings (zPCR Configuration Summary export).
.. [2] IBM Redpaper REDP-5114, chapter 5: CPU timings "can be scaled to other IBM hardware by
   using the Large Systems Performance Report (LSPR)" (no accuracy is stated).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from models_lib.checks import InputError
from models_lib.inputs import CapacityTable, ConfigurationData
from models_lib.sizing import size

__all__ = [
    "ASSUMED_BAND_PER_GENERATION",
    "MAX_ASSUMED_BAND",
    "UpgradeTarget",
    "assumed_band",
    "band_basis",
    "generation_gap",
    "generation_of",
    "upgrade_column",
    "upgrade_comparison",
]

#: Assumed relative error of an LSPR projection per generation step between the measured machine
#: and the target (not published; see the module docstring).
ASSUMED_BAND_PER_GENERATION = 0.05
#: The assumed band never exceeds this.
MAX_ASSUMED_BAND = 0.5

_NUMBER = re.compile(r"\bz(?:EC|BC)?(\d+)", re.IGNORECASE)


def generation_gap(from_generation: str, to_generation: str) -> int:
    """Generation steps between two generations, by their numbers: ``z13`` -> ``z17`` is 4,
    ``zEC12`` -> ``z16`` is 4, ``z10 EC`` -> ``zEC12`` is 2 (the z196 between them).

    Raises
    ------
    ValueError
        Naming the generation without a number.
    """
    numbers = []
    for name, value in (("from_generation", from_generation), ("to_generation", to_generation)):
        m = _NUMBER.search(value or "")
        if m is None:
            raise InputError(name, f"{name} {value!r} has no generation number (e.g. z16, zEC12)")
        numbers.append(int(m.group(1)))
    return abs(numbers[1] - numbers[0])


def assumed_band(gap: int) -> float:
    """The assumed projection band for ``gap`` generation steps: 5 % per step, at most 50 %."""
    return min(round(ASSUMED_BAND_PER_GENERATION * max(gap, 0), 12), MAX_ASSUMED_BAND)


@dataclass(frozen=True)
class UpgradeTarget:
    """One column: a machine type, its capacity setting, and CPs where fixed (else sized)."""

    machine_type: str
    capacity_setting: str | None = None
    cps: int | None = None
    label: str = ""


def generation_of(table: CapacityTable, machine_type: str) -> str:
    """The generation name of ``machine_type`` in the LSPR table (empty when it names none)."""
    return next((r.generation for (t, _), r in table.ratings.items() if t == machine_type and r.generation), "")


def _finite(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and math.isfinite(v) else None


def band_basis(projection_band: float | None) -> str:
    """How the columns' ranges treat the LSPR projection's error (the comparison's note)."""
    if projection_band is not None:
        return f"±{projection_band:.0%} given, in every column (as in the estimate with that band)"
    return (
        "none applied: every column is the estimate of its target, and its ranges carry no error of the LSPR "
        f"projection. The band shown per column is an assumption, not published: ±{ASSUMED_BAND_PER_GENERATION:.0%} "
        f"per generation step between the measured machine and the target (at most ±{MAX_ASSUMED_BAND:.0%}); "
        "give a projection band to widen the ranges"
    )


def upgrade_column(
    answer: Mapping[str, Any],
    label: str,
    machine_type: str,
    gap: int,
    projection_band: float | None,
    measured_generation: str,
    generation: str,
) -> dict[str, Any]:
    """One column of the comparison from the estimate ``answer`` of its target
    (``SizingResult.to_dict()``): its figures and ranges as the estimate gives them, the
    generation ``gap`` from the measured machine, the band applied (``projection_band``, 0 when
    none was given) and the :func:`assumed_band` of the gap (not applied)."""
    cap = answer.get("capacity") or {}
    cp, special = cap.get("cp") or {}, cap.get("specialty") or {}
    ranges = answer.get("ranges") or {}
    steps = f"{gap} step{'s' if gap != 1 else ''}"
    if projection_band is None:
        basis = (
            f"none given; ±{assumed_band(gap):.0%} would be assumed (±{ASSUMED_BAND_PER_GENERATION:.0%} per generation "
            f"step from the measured {measured_generation} to {generation}, {steps}): not published"
        )
    else:
        basis = f"±{projection_band:.0%} given"
    fit = answer.get("feasibility") or {}
    return {
        "label": label,
        "machine_type": machine_type,
        "model": cap.get("model", ""),
        "capacity_setting": cap.get("capacity_setting", ""),
        "cps": cap.get("cps"),
        "cps_required": answer.get("cps_required"),
        "ziips": answer.get("ziips_required"),
        "specialty_engine": answer.get("specialty_engine"),
        "mips_installed": cp.get("mips_installed"),
        "mips_used": cp.get("mips_used"),
        "msu_installed": cp.get("msu_installed"),
        "msu_used": cp.get("msu_used"),
        "specialty_mips_used": special.get("mips_used"),
        "gcp_utilization": _finite(answer.get("gcp_utilization")),
        "saturation_tps": _finite(answer.get("saturation_tps")),
        "saturation_range": ranges.get("saturation_tps"),
        "cps_range": ranges.get("cps"),
        "ziips_range": ranges.get("ziips"),
        "response_time_ms": (answer.get("response_time_ms") or {}).get("value"),
        "projection_factor": ((answer.get("basis") or {}).get("projection") or {}).get("factor"),
        "generation_gap": gap,
        "projection_band": 0.0 if projection_band is None else projection_band,
        "assumed_band": assumed_band(gap),
        "band_basis": basis,
        "warnings": [w["code"] for w in answer.get("warnings", [])],
        "feasible": answer.get("feasible", True),
        "does_not_fit": fit.get("message"),
        "max_tps": _finite(fit.get("max_tps")),
        "max_tps_cps": fit.get("max_tps_cps"),
        "max_tps_ziips": fit.get("max_tps_ziips"),
    }


def upgrade_comparison(
    config: ConfigurationData,
    *,
    capacity: CapacityTable,
    current: UpgradeTarget,
    targets: Sequence[UpgradeTarget],
    tps: float,
    projection_band: float | None = None,
    **engine: Any,
) -> dict[str, Any]:
    """``current`` and each of ``targets`` side by side at ``tps``: CPs, zIIPs, MIPS, MSU, saturation.

    Every column is the estimate (:func:`size`) of its target with the same inputs, so its
    ranges are the estimate's; the band of the generation gap is reported, not applied.

    Parameters
    ----------
    config : ConfigurationData
        Published data of the configuration (measured on ``config.machine_type``).
    capacity : CapacityTable
        LSPR ratings with every setting and the engine rules.
    current : UpgradeTarget
        The machine the workload runs on today, usually with its CPs.
    targets : sequence of UpgradeTarget
        Machines to compare, CPs sized where not given.
    tps : float
        Rate, transactions/s.
    projection_band : float, optional
        Relative error of the LSPR projection in [0, 1) for every column (as the estimate's).
    **engine
        Further :func:`size` options (``model``, ``response_model``, ``max_utilization``, ...).

    Returns
    -------
    dict
        ``columns`` (current first), ``measured`` (machine type and generation of the source)
        and ``band_basis`` (how the bands were set).
    """
    measured_generation = generation_of(capacity, config.machine_type)
    columns = []
    for target in (current, *targets):
        gen = generation_of(capacity, target.machine_type)
        gap = generation_gap(measured_generation, gen) if measured_generation and gen else 0
        result = size(
            config,
            target_machine=target.machine_type,
            target_machine_type=target.machine_type,
            capacity=capacity,
            tps=tps,
            cps=target.cps,
            capacity_setting=target.capacity_setting,
            projection_band=projection_band,
            **engine,
        )
        columns.append(
            upgrade_column(
                result.to_dict(), target.label, target.machine_type, gap, projection_band, measured_generation, gen
            )
        )
    return {
        "tps": tps,
        "measured": {"machine_type": config.machine_type, "generation": measured_generation},
        "columns": columns,
        "band_basis": band_basis(projection_band),
        "source": capacity.source,
    }
