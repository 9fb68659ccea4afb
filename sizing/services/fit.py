"""Which model fits, and the same workload on newer generations: the engine's answers for many
targets at once, through the one scenario (``sizing.selectors.scenario``) and its evaluation
(``sizing.services.scenario``): a fit is cached per version like an estimate, and an upgrade
column *is* the estimate of its target (the same function, the same cached answer)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from models_lib.fit import fitting_models
from models_lib.upgrade import band_basis, generation_gap, generation_of, upgrade_column
from sizing.records import EstimateInputs
from sizing.selectors.fitted import Reference, current_reference
from sizing.selectors.scenario import prepared_scenario
from sizing.selectors.targets import Target, generation_order, machine_row, target_for
from sizing.services.list_inputs import MAX_UPGRADE_TARGETS, comma_items
from sizing.services.scenario import estimate_answer, scenario_answer

#: Engine options the fit and comparison take from the request, as the estimate names them.
FIT_ENGINE_ARGS = ("payload_bytes", "projection_band", "lpar_overhead", "server_share", "ziips", "smt2_factor")


def generations_of(*, names: str | None, reference: Reference) -> list[str]:
    """Machine types of the generations named (``"z16,z17"``; a machine slug or type stands for
    its generation; ``"all"``: every rated type); default the two newest generations rated.

    Raises a ``ValidationError`` on ``generations`` naming the known generations.
    """
    machines = sorted(reference.catalogue().machines.values(), key=generation_order)
    rated = set(reference.lspr_table().full_speed_setting)
    machines = [m for m in machines if m.machine_type in rated]
    by_generation: dict[str, list[str]] = {}
    for m in machines:
        by_generation.setdefault(m.generation.lower(), []).append(m.machine_type)
    if not names:
        newest = list(by_generation)[:2]
        return [t for g in newest for t in by_generation[g]]
    if names.strip().lower() == "all":
        return [m.machine_type for m in machines]
    types: list[str] = []
    for token in comma_items(names):
        found = by_generation.get(token.lower())
        if found is None:
            row = machine_row(token, reference)
            found = by_generation.get(row.generation.lower()) if row is not None else None
        if found is None:
            known = ", ".join(dict.fromkeys(m.generation for m in machines))
            raise ValidationError(
                {"generations": [f"Unknown generation {token!r}. Known: {known} (or a machine), or all."]}
            )
        types.extend(t for t in found if t not in types)
    return types


def fit_compute(*, user: User, inputs: dict[str, Any]) -> dict[str, Any]:
    """Per generation asked, the smallest model of each capacity setting that carries ``tps``
    (and meets the response-time goal), cheapest in MSU marked; each row is the estimate of
    that machine and setting (``GET /api/v1/estimate`` with ``capacity_setting``)."""
    reference = current_reference()
    scenario = prepared_scenario(
        user=user, inputs={k: v for k, v in inputs.items() if k not in ("machine", "model")}, reference=reference
    )
    config_row = scenario.configuration
    types = generations_of(names=inputs.get("generations"), reference=reference)
    kwargs = {k: inputs[k] for k in FIT_ENGINE_ARGS if inputs.get(k) is not None}
    asked = EstimateInputs.from_dict(inputs)
    tps = asked.tps
    umax, sla = asked.max_utilization, asked.response_time_sla_ms

    def compute() -> dict[str, Any]:
        result = fitting_models(
            scenario.fitted.data,
            capacity=scenario.capacity,
            machine_types=types,
            tps=tps,
            max_utilization=umax,
            response_time_sla_ms=sla,
            **scenario.engine(),
            **kwargs,
        )
        return result.to_dict()

    key = {"kind": "fit", "types": types, "tps": tps, "umax": umax, "sla": sla, **kwargs}
    answer = scenario_answer(scenario=scenario, key=key, compute=compute)
    machines = {m.machine_type: m for m in reference.catalogue().machines.values()}
    rows = [  # copies: the cached answer stays as computed
        {**row, "machine": machines[row["machine_type"]].slug, "machine_name": machines[row["machine_type"]].name}
        for row in answer["rows"]
    ]
    return {"path": config_row.path.slug, "configuration": config_row.slug, **answer, "rows": rows}


def _upgrade_target(token: str, reference: Reference) -> Target:
    """A comparison column from a machine (slug or type) or a model capacity identifier."""
    is_model = "-" in token or (len(token.strip()) == 7 and token.strip()[:4].isdigit())
    try:
        return target_for(machine=None if is_model else token, model=token if is_model else None, reference=reference)
    except ValidationError as exc:
        raise ValidationError({"targets": [m for ms in exc.message_dict.values() for m in ms]}) from None


def newest_machines(reference: Reference, count: int = 2) -> list[str]:
    """Slugs of the flagship machine of each of the ``count`` newest generations rated."""
    rated = set(reference.lspr_table().full_speed_setting)
    out: dict[str, str] = {}
    for m in sorted(reference.catalogue().machines.values(), key=generation_order):
        if m.machine_type in rated and m.generation not in out:
            out[m.generation] = m.slug
    return list(out.values())[:count]


def upgrade_compute(*, user: User, inputs: dict[str, Any]) -> dict[str, Any]:
    """The workload on its current machine (``machine``/``model`` with ``cps``) and on each of
    ``targets`` (default: the two newest generations' flagship machines), side by side; every
    column is the estimate of that target with the same inputs (:func:`estimate_answer`), with
    the generation gap from the measured machine and the projection band it would suggest."""
    reference = current_reference()
    scenario = prepared_scenario(user=user, inputs=inputs, reference=reference)
    current = scenario.target
    if current is None:  # the input form requires a machine or a model
        raise ValidationError({"machine": ["Give the machine or model the workload runs on today."]})
    tokens = comma_items(inputs.get("targets") or "")
    targets = [_upgrade_target(t, reference) for t in (tokens or newest_machines(reference))]
    if len(targets) > MAX_UPGRADE_TARGETS:
        raise ValidationError({"targets": [f"At most {MAX_UPGRADE_TARGETS} targets, got {len(targets)}."]})
    capacity = scenario.capacity
    measured_type = scenario.fitted.data.machine_type
    measured = generation_of(capacity, measured_type)
    band = inputs.get("projection_band")
    names = ("cps", "max_utilization", "response_time_sla_ms", *FIT_ENGINE_ARGS)
    today = {k: scenario.inputs[k] for k in names if scenario.inputs.get(k) is not None}
    elsewhere = {k: v for k, v in today.items() if k != "cps"}  # the newer machines' CPs are sized
    rate = EstimateInputs.from_dict(inputs).tps
    columns = []
    for label, target, asked in (("today", current, today), *((t.machine.name, t, elsewhere) for t in targets)):
        answer = estimate_answer(scenario=scenario, target=target, inputs={**asked, "tps": rate})
        gen = generation_of(capacity, target.machine.machine_type)
        gap = generation_gap(measured, gen) if measured and gen else 0
        columns.append(upgrade_column(answer, label, target.machine.machine_type, gap, band, measured, gen))
    return {
        "path": scenario.configuration.path.slug,
        "configuration": scenario.configuration.slug,
        "tps": rate,
        "measured": {"machine_type": measured_type, "generation": measured},
        "columns": columns,
        "band_basis": band_basis(band),
        "source": capacity.source,
    }
