"""The target of a sizing question: a machine row with a capacity setting and (where a model fixes
them) CPs, from what the request gave: a model capacity identifier (``3931-710``), or a machine
(slug such as ``z16``, or machine type such as ``3931``) with an optional ``capacity_setting``
and ``cps``.

The parsing and the rated-model checks are pure (:mod:`models_lib.targets`); this module only
finds the machine row and turns their errors into field errors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError

from models_lib.inputs import Rating
from models_lib.targets import ModelTarget, TargetError, resolve_target
from sizing.models import Machine
from sizing.selectors.fitted import Reference, current_reference

#: Request fields that name the target (besides ``cps``).
TARGET_FIELDS = ("machine", "model", "capacity_setting")


@dataclass(frozen=True)
class Target:
    """A resolved target: the machine row and the rated model (setting, CPs where fixed)."""

    machine: Machine
    model: ModelTarget

    @property
    def engine_setting(self) -> str | None:
        """The ``capacity_setting`` argument of the engine: ``None`` at full speed."""
        return None if self.model.full_speed else self.model.capacity_setting

    def inputs(self) -> dict[str, Any]:
        """The target as stored with an answer's inputs (the machine slug, and the model and
        setting when not the full-speed default)."""
        out: dict[str, Any] = {"machine": self.machine.slug}
        if self.model.model:
            out["model"] = self.model.model
        if not self.model.full_speed:
            out["capacity_setting"] = self.model.capacity_setting
        return out


def machine_row(machine: str, reference: Reference | None = None) -> Machine | None:
    """The machine named by slug (``z16``) or machine type (``3931``), case-insensitive."""
    machines = (reference or current_reference()).catalogue().machines
    found = machines.get(machine.strip().lower())
    if found is None:
        found = next((m for m in machines.values() if m.machine_type == machine.strip()), None)
    return found


def target_for(
    *,
    machine: str | None,
    model: str | None = None,
    capacity_setting: str | None = None,
    cps: int | None = None,
    reference: Reference | None = None,
) -> Target:
    """Resolve the request's target or raise a ``ValidationError`` naming the field.

    An unknown machine names the known machines; an unknown model names the known forms (the
    machine types rated, or the models of its type).
    """
    reference = reference or current_reference()
    row: Machine | None = None
    if machine:
        row = machine_row(machine, reference)
        if row is None:
            known = ", ".join(sorted(m.slug for m in reference.catalogue().machines.values()))
            raise ValidationError(
                {
                    "machine": [
                        f"Unknown machine {machine!r}. Known machines: {known} (or their machine types); "
                        "or give a model capacity identifier as model, e.g. 3931-710."
                    ]
                }
            )
    try:
        resolved = resolve_target(
            reference.lspr_table(),
            machine_type=None if row is None else row.machine_type,
            model=model or None,
            capacity_setting=capacity_setting or None,
            cps=cps,
        )
    except TargetError as exc:
        raise ValidationError({exc.field: [str(exc)]}) from None
    if row is None:
        row = machine_row(resolved.machine_type, reference)
        if row is None:  # a rated type without a machine row: the loader forbids it
            raise ValidationError(
                {"model": [f"model {resolved.model}: machine type {resolved.machine_type} has no machine"]}
            )
    return Target(machine=row, model=resolved)


def generation_order(machine: Machine) -> tuple[int, str]:
    """Newest generation first ("z17" before "zEC12" before "z10 EC"), its flagship type first."""
    digits = "".join(ch for ch in machine.generation if ch.isdigit())
    return (-int(digits or 0), machine.machine_type)


def machine_settings(reference: Reference | None = None) -> dict[str, dict[str, Any]]:
    """Each rated machine (by slug, newest generation first): name, machine type, generation,
    its capacity settings and its full-speed setting."""
    reference = reference or current_reference()
    table = reference.lspr_table()
    machines: dict[str, dict[str, Any]] = {}
    for m in sorted(reference.catalogue().machines.values(), key=generation_order):
        settings = sorted({s for t, s, _ in table.settings if t == m.machine_type})
        if settings:
            machines[m.slug] = {
                "name": m.name,
                "machine_type": m.machine_type,
                "generation": m.generation,
                "settings": settings,
                "full_speed": table.full_speed_setting.get(m.machine_type, ""),
            }
    return machines


def model_choices(reference: Reference | None = None) -> dict[str, Any]:
    """Every rated model for the workbench's model picker, newest generation first.

    ``models`` rows are ``[model, machine slug, capacity setting, CPs, MIPS, MSU]``, full-speed
    models of a type first; ``machines`` as :func:`machine_settings`.  Read from the cached
    capacity table (no query when warm).
    """
    reference = reference or current_reference()
    table = reference.lspr_table()
    by_type = {m.machine_type: m for m in reference.catalogue().machines.values()}

    def order(r: Rating) -> tuple[tuple[int, str], bool, str, int]:
        full = table.full_speed_setting.get(r.machine_type)
        return (generation_order(by_type[r.machine_type]), r.capacity_setting != full, r.capacity_setting, r.cps)

    rows = sorted((r for r in table.settings.values() if r.machine_type in by_type and r.model), key=order)
    return {
        "models": [[r.model, by_type[r.machine_type].slug, r.capacity_setting, r.cps, r.mips, r.msu] for r in rows],
        "machines": machine_settings(reference),
        "source": table.source,
    }
