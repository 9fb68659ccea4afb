"""Reads behind the LSPR reference pages: every machine's models with their MIPS and MSU, and the
per-CP capacity against the CP count (the multiprocessor effect the engine's projection uses).

Everything comes from the stored capacity ratings (``benchmarks/lspr_zpcr_configuration_summary.csv``)
and engine rules; nothing is computed here beyond ratios of stored numbers (MIPS / CPs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sizing.models import CapacityRating, EngineRule, Machine, SourceDocument
from sizing.selectors.capacity import machine_generations
from sizing.selectors.targets import generation_order


def setting_kind(setting: str, full_speed: str) -> str:
    """``"full speed"``, ``"sub-capacity"`` (4xx..6xx) or ``"midrange"`` (a lettered setting)."""
    if setting == full_speed:
        return "full speed"
    return "sub-capacity" if setting[:1] in "456" else "midrange"


@dataclass(frozen=True)
class MachineSummary:
    slug: str
    name: str
    machine_type: str
    generation: str
    full_speed: str
    settings: list[str]
    models: int
    cps_max: int
    first_model: str
    last_model: str
    mips_one_cp: float
    mips_max: float
    msu_max: float


def _rows() -> list[tuple[Any, ...]]:
    fields = ("machine__slug", "model", "capacity_setting", "cps", "mips", "msu")
    return list(
        CapacityRating.objects.order_by("-machine__machine_type", "capacity_setting", "cps").values_list(*fields)
    )


def _full_speed(by_setting: dict[str, list[tuple[Any, ...]]]) -> str:
    """``700`` where rated, else the setting with the fastest 1-CP model (as the engine reads it)."""
    if "700" in by_setting:
        return "700"
    one_cp = {s: r[4] for s, rows in by_setting.items() for r in rows if r[3] == 1}
    return max(one_cp, key=lambda s: one_cp[s]) if one_cp else min(by_setting)


def lspr_overview() -> dict[str, Any]:
    """Each rated machine's summary, and one series per (machine, setting): CPs, MIPS/CP, MSU/CP."""
    machines = {m.slug: m for m in Machine.objects.all()}
    grouped: dict[str, dict[str, list[tuple[Any, ...]]]] = {}
    for row in _rows():
        grouped.setdefault(row[0], {}).setdefault(row[2], []).append(row)
    grouped = dict(sorted(grouped.items(), key=lambda kv: generation_order(machines[kv[0]])))
    summaries, series = [], []
    for slug, by_setting in grouped.items():
        m = machines[slug]
        full = _full_speed(by_setting)
        rows = [r for rs in by_setting.values() for r in rs]
        fast = by_setting[full]
        summaries.append(
            MachineSummary(
                slug=slug,
                name=m.name,
                machine_type=m.machine_type,
                generation=m.generation,
                full_speed=full,
                settings=sorted(by_setting),
                models=len(rows),
                cps_max=max(r[3] for r in rows),
                first_model=min(rows, key=lambda r: (r[4], r[3]))[1],
                last_model=max(rows, key=lambda r: (r[4], r[3]))[1],
                mips_one_cp=next((r[4] for r in fast if r[3] == 1), 0.0),
                mips_max=max(r[4] for r in rows),
                msu_max=max(r[5] for r in rows),
            )
        )
        for setting, rs in sorted(by_setting.items()):
            series.append(
                {
                    "machine": slug,
                    "name": m.name,
                    "machine_type": m.machine_type,
                    "generation": m.generation,
                    "setting": setting,
                    "kind": setting_kind(setting, full),
                    "cps": [r[3] for r in rs],
                    "models": [r[1] for r in rs],
                    "mips": [r[4] for r in rs],
                    "msu": [r[5] for r in rs],
                }
            )
    return {"machines": summaries, "series": series, "source": lspr_source()}


def lspr_source() -> dict[str, str] | None:
    """The document the ratings come from (title, notes, files), or ``None`` before any load."""
    rating = CapacityRating.objects.select_related("source").order_by("id").first()
    if rating is None:
        return None
    src: SourceDocument = rating.source
    return {
        "slug": src.slug,
        "title": src.title,
        "publisher": src.publisher,
        "notes": src.notes,
        "seed_file": src.seed_file,
        "data_file": src.data_file,
    }


def lspr_machine(*, slug: str, setting: str | None = None) -> dict[str, Any] | None:
    """One machine's models (all, or one setting's), its series per setting and its engine rules."""
    machine = Machine.objects.filter(slug__iexact=slug).first()
    if machine is None:
        return None
    overview_series = [s for s in lspr_overview()["series"] if s["machine"] == machine.slug]
    if not overview_series:
        return None
    settings = [s["setting"] for s in overview_series]
    chosen = setting.upper() if setting and setting.upper() in settings else None
    models = [
        {"model": model, "setting": s["setting"], "kind": s["kind"], "cps": n, "mips": mips, "msu": msu,
         "mips_per_cp": mips / n, "msu_per_cp": msu / n}
        for s in overview_series
        if chosen is None or s["setting"] == chosen
        for model, n, mips, msu in zip(s["models"], s["cps"], s["mips"], s["msu"], strict=True)
    ]  # fmt: skip
    generation = machine_generations().get(machine.machine_type)
    rule = EngineRule.objects.filter(generation=generation).first() if generation else None
    return {
        "machine": machine,
        "settings": [(s["setting"], s["kind"]) for s in overview_series],
        "setting": chosen,
        "models": models,
        "series": overview_series,
        "rule": rule,
        "source": lspr_source(),
    }
