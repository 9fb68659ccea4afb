"""Target models: a model capacity identifier (``3931-710``, ``9176-D05``) or a machine type with
a capacity setting, resolved against the LSPR capacity table.

IBM names a model by machine type and a three-character model: on the 4xx..7xx machines the
first character is the capacity setting (7 = full speed, 4/5/6 = sub-capacity) and the other two
the CP count (``3931-710``: z16 A01, full speed, 10 CPs; CP counts above 99 continue with letters,
``9175-7K8``); on the midrange machines the letter is the setting (``A00`` .. ``Z00``) and the
digits the CP count (``9176-D05``).  The table holds every rated model, so resolving is a lookup,
never a guess from the characters.

References
----------
.. [1] IBM, zPCR Configuration Summary export (multi-image AVERAGE), the rows of
   ``benchmarks/lspr_zpcr_configuration_summary.csv``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from models_lib.inputs import CapacityTable, Rating

__all__ = ["ModelTarget", "TargetError", "find_model", "model_forms", "normalise_setting", "resolve_target"]

_MODEL_RE = re.compile(r"^\s*(\d{4})\s*[-\s]?\s*([0-9A-Z]{3})\s*$", re.IGNORECASE)
_SETTING_RE = re.compile(r"^\s*(?:([4-7])(?:XX|00)?|([A-Z])(?:00)?)\s*$", re.IGNORECASE)


class TargetError(ValueError):
    """A target that is not rated; ``field`` names the argument at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class ModelTarget:
    """A resolved target: machine type, capacity setting and (where the model fixes it) CPs.

    Parameters
    ----------
    machine_type : str
        IBM machine type, e.g. ``"3931"``.
    capacity_setting : str
        ``"700"``, ``"400"``..``"600"`` or ``"A00"``..``"Z00"``.
    cps : int or None
        CPs of the model (``None``: to be sized).
    model : str
        Model capacity identifier where one was given or fixed, e.g. ``"3931-710"`` (else empty).
    full_speed : bool
        The setting is the machine type's full-speed one.
    """

    machine_type: str
    capacity_setting: str
    cps: int | None
    model: str
    full_speed: bool


def normalise_setting(setting: str) -> str:
    """``"5xx"``, ``"5"``, ``"500"`` -> ``"500"``; ``"d"``, ``"D00"`` -> ``"D00"``.

    Raises
    ------
    ValueError
        Naming ``capacity_setting`` for anything else.
    """
    m = _SETTING_RE.match(setting) if isinstance(setting, str) else None
    if m is None:
        raise TargetError(
            "capacity_setting",
            f"capacity_setting {setting!r} is not a capacity setting: give 400, 500, 600 or 700 (4xx..7xx "
            "machines) or A00..Z00 (midrange machines)",
        )
    return f"{m.group(1)}00" if m.group(1) else f"{m.group(2).upper()}00"


#: Model index of the tables seen last, keyed by ``id(table)`` (the table is kept with its index,
#: so the id is not reused while the entry lives).
_INDEX: dict[int, tuple[CapacityTable, dict[str, Rating]]] = {}


def _model_index(table: CapacityTable) -> dict[str, Rating]:
    hit = _INDEX.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1]
    index = {r.model.upper(): r for r in table.settings.values() if r.model}
    if len(_INDEX) >= 4:
        _INDEX.pop(next(iter(_INDEX)))
    _INDEX[id(table)] = (table, index)
    return index


def model_forms(table: CapacityTable, machine_type: str | None = None) -> str:
    """The identifiers the table rates, in words: for one machine type its settings with their
    model ranges (``400: 3931-401..3931-439``), else every type's first and last model."""
    if machine_type is not None:
        parts, letters = [], []
        for setting in sorted({s for mt, s, _ in table.settings if mt == machine_type}):
            rated = sorted(n for mt, s, n in table.settings if mt == machine_type and s == setting)
            first = table.settings[(machine_type, setting, rated[0])].model
            last = table.settings[(machine_type, setting, rated[-1])].model
            if setting[0].isalpha():
                letters.append((setting, first, last))
            else:
                parts.append(f"{setting}: {first}..{last}")
        if letters:  # midrange: 26 settings, one line
            (s0, f0, _), (s1, _, l1) = letters[0], letters[-1]
            parts.append(f"settings {s0}..{s1}: {f0}..{l1}")
        return "; ".join(parts)
    types = sorted({mt for mt, _, _ in table.settings})
    return ", ".join(types)


def find_model(table: CapacityTable, identifier: str) -> Rating:
    """The rating of a model capacity identifier (``"3931-710"``, ``"9176-d05"``, ``"3931710"``).

    Raises
    ------
    ValueError
        Naming ``model`` and the known forms: the machine types rated, or the rated models of
        the identifier's machine type.
    """
    m = _MODEL_RE.match(identifier) if isinstance(identifier, str) else None
    types = sorted({mt for mt, _, _ in table.settings})
    forms = (
        "a model capacity identifier, machine type-model: e.g. 3931-710 (z16 A01, full speed, 10 CPs), "
        "3931-510 (sub-capacity 5xx, 10 CPs), 9176-D05 (midrange setting D00, 5 CPs)"
    )
    if m is None:
        raise TargetError("model", f"model {identifier!r} is not {forms}; machine types rated: {', '.join(types)}")
    key = f"{m.group(1)}-{m.group(2).upper()}"
    found = _model_index(table).get(key)
    if found is not None:
        return found
    if m.group(1) not in types:
        raise TargetError(
            "model", f"model {identifier!r}: machine type {m.group(1)} is not rated; machine types: {', '.join(types)}"
        )
    raise TargetError(
        "model",
        f"model {identifier!r} is not a rated model of {m.group(1)}; its models: {model_forms(table, m.group(1))}",
    )


def resolve_target(
    table: CapacityTable,
    *,
    machine_type: str | None,
    model: str | None = None,
    capacity_setting: str | None = None,
    cps: int | None = None,
) -> ModelTarget:
    """Resolve a target given as a model, or as a machine type with a setting and CPs.

    Parameters
    ----------
    table : CapacityTable
        LSPR ratings with every capacity setting.
    machine_type : str or None
        The machine type chosen (e.g. from the machine's slug); with ``model`` it must agree.
    model : str, optional
        Model capacity identifier; fixes machine type, setting and CPs.
    capacity_setting : str, optional
        Setting (``"500"``, ``"5xx"``, ``"D00"``); default the type's full-speed setting.
    cps : int, optional
        CPs; with ``model`` it must agree; with a setting it must be rated at that setting.

    Returns
    -------
    ModelTarget

    Raises
    ------
    ValueError
        Naming the argument (``model``, ``capacity_setting``, ``cps``) and what is rated.
    """
    if model:
        r = find_model(table, model)
        setting = r.capacity_setting or table.full_speed_setting.get(r.machine_type, "")
        if machine_type is not None and machine_type != r.machine_type:
            raise TargetError("model", f"model {r.model} is a {r.machine_type}, not the machine given ({machine_type})")
        if capacity_setting and normalise_setting(capacity_setting) != setting:
            raise TargetError(
                "capacity_setting",
                f"capacity_setting {capacity_setting!r} disagrees with model {r.model} (setting {setting})",
            )
        if cps is not None and cps != r.cps:
            raise TargetError("cps", f"cps {cps} disagrees with model {r.model} ({r.cps} CPs)")
        full = setting == table.full_speed_setting.get(r.machine_type)
        return ModelTarget(r.machine_type, setting, r.cps, r.model, full)
    if machine_type is None:
        raise TargetError("machine", "give a machine (or its machine type) or a model capacity identifier")
    full_setting = table.full_speed_setting.get(machine_type)
    if full_setting is None:
        types = sorted({mt for mt, _, _ in table.settings})
        raise TargetError("machine", f"machine type {machine_type!r} is not rated; machine types: {', '.join(types)}")
    setting = full_setting if not capacity_setting else normalise_setting(capacity_setting)
    if not any(mt == machine_type and s == setting for mt, s, _ in table.settings):
        raise TargetError(
            "capacity_setting",
            f"capacity_setting {setting} is not rated for machine type {machine_type}; its models: "
            f"{model_forms(table, machine_type)}",
        )
    rated = table.settings.get((machine_type, setting, cps)) if cps is not None else None
    if cps is not None and rated is None:
        raise TargetError(
            "cps",
            f"cps {cps} is not rated at setting {setting} of machine type {machine_type}; its models: "
            f"{model_forms(table, machine_type)}",
        )
    return ModelTarget(machine_type, setting, cps, rated.model if rated else "", setting == full_setting)
