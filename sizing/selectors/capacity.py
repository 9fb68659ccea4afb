"""Reads of the capacity reference data: LSPR ratings and specialty-engine rules.

These turn stored rows into the plain inputs of ``models_lib`` (:class:`CapacityTable`,
:class:`SpecialtyEngineRules`); every value keeps the id of the row it came from.
"""

from __future__ import annotations

from models_lib.assemble import assemble_capacity_table
from models_lib.inputs import CapacityTable, Rating, SpecialtyEngineRules
from sizing.models import CapacityRating, EngineRule


def engine_rules() -> dict[str, SpecialtyEngineRules]:
    """Specialty-engine rules by generation (``"z16"`` -> rules), from ``benchmarks/engine_rules.yaml``."""
    return {
        row.generation: SpecialtyEngineRules(
            generation=row.generation,
            machine_types=tuple(row.machine_types),
            java_engine="zaap" if row.java_engine == "zaap" else "ziip",
            ziips_per_cp=row.ziips_per_cp,
            zaaps_per_cp=row.zaaps_per_cp,
            min_cps_per_lpar=row.min_cps_per_lpar,
            specialty_full_speed=row.specialty_full_speed,
            smt2_ziip=row.smt2_ziip,
            smt2_throughput_factor=row.smt2_throughput_factor,
            statement_id=row.id,
            reference=row.reference_text,
        )
        for row in EngineRule.objects.all()
    }


def machine_generations() -> dict[str, str]:
    """Machine type -> generation (``"3931"`` -> ``"z16"``), as the engine rules list them."""
    return {t: row.generation for row in EngineRule.objects.all() for t in row.machine_types}


def engine_rules_for(machine_type: str) -> SpecialtyEngineRules | None:
    """The rules of ``machine_type``'s generation (``None`` where no rule lists the type)."""
    generation = machine_generations().get(machine_type)
    return engine_rules().get(generation) if generation else None


def _rating(row: CapacityRating, generation: str) -> Rating:
    return Rating(
        machine_type=row.machine.machine_type,
        cps=row.cps,
        mips=row.mips,
        msu=row.msu,
        rating_id=row.id,
        model=row.model,
        capacity_setting=row.capacity_setting,
        generation=generation,
    )


def capacity_table() -> CapacityTable:
    """The capacity table: every stored LSPR rating (see :func:`assemble_capacity_table`).

    ``ratings`` holds each machine type's full-speed models keyed by (machine type, CPs);
    ``settings`` every model keyed by (machine type, capacity setting, CPs).
    """
    rows = list(CapacityRating.objects.select_related("machine", "source").order_by("id"))
    source, source_id = (rows[-1].source.title, rows[-1].source_id) if rows else ("", None)
    return assemble_capacity_table(
        (_rating(row, row.machine.generation) for row in rows), source=source, source_id=source_id
    )
