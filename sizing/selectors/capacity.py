"""Reads of the capacity reference data: LSPR ratings and specialty-engine rules.

These turn stored rows into the plain inputs of ``models_lib`` (:class:`CapacityTable`,
:class:`SpecialtyEngineRules`); every value keeps the id of the row it came from.
"""

from __future__ import annotations

from dataclasses import replace

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
            max_engines=tuple(sorted((str(t), None if n is None else int(n)) for t, n in row.max_engines.items())),
            unconfirmed=tuple(row.unconfirmed),
            alternatives=tuple(sorted((str(k), None if v is None else float(v)) for k, v in row.alternatives.items())),
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


def capacity_table() -> CapacityTable:
    """The capacity table: every stored LSPR rating (see :func:`assemble_capacity_table`).

    ``ratings`` holds each machine type's full-speed models keyed by (machine type, CPs);
    ``settings`` every model keyed by (machine type, capacity setting, CPs); ``engine_rules``
    the specialty-engine rules of each machine type's generation.
    """
    # Plain values, not model instances: 2,487 rows are read for every answer.
    fields = ("id", "machine__machine_type", "machine__generation", "cps", "mips", "msu", "model", "capacity_setting")
    rows = list(CapacityRating.objects.order_by("id").values_list(*fields))
    last = CapacityRating.objects.order_by("-id").select_related("source").first()
    source, source_id = (last.source.title, last.source_id) if last is not None else ("", None)
    ratings = (
        Rating(
            machine_type=mt,
            cps=n,
            mips=mips,
            msu=msu,
            rating_id=i,
            model=model,
            capacity_setting=setting,
            generation=gen,
        )
        for i, mt, gen, n, mips, msu, model, setting in rows
    )
    table = assemble_capacity_table(ratings, source=source, source_id=source_id)
    # The engine reads each machine type's specialty-engine rules from the table.
    by_type = {t: rules for rules in engine_rules().values() for t in rules.machine_types}
    return replace(table, engine_rules=by_type)
