"""Sizing estimates: prepare the scenario (``sizing.selectors.scenario``), evaluate it
(``sizing.services.scenario``), store it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

import models_lib
from sizing.models import Configuration, Estimate, Machine
from sizing.selectors.price_books import price_book_for
from sizing.selectors.scenario import Scenario, prepared_scenario, resolve_configuration, with_calibration
from sizing.selectors.targets import Target, target_for
from sizing.services.scenario import ENGINE_ARGS, data_origin, engine_error, estimate_answer

__all__ = [
    "ENGINE_ARGS",
    "data_origin",
    "engine_error",
    "estimate_compute",
    "estimate_create",
    "estimate_delete",
    "normalised_inputs",
    "estimate_scenario",
    "resolve_configuration",
    "with_calibration",
]


def estimate_scenario(*, user: User, inputs: dict[str, Any]) -> tuple[Scenario, Target]:
    """The prepared scenario of an estimate's validated inputs and its target (400 without one),
    with the user's price book (an estimate shows its cost only from the user's own prices)."""
    scenario = prepared_scenario(user=user, inputs=inputs)
    if scenario.target is None:  # the input forms require a machine or a model
        raise ValidationError({"machine": ["Give a machine or a model."]})
    return replace(scenario, price_book=price_book_for(user=user)), scenario.target


def estimate_compute(*, user: User, inputs: dict[str, Any]) -> tuple[Configuration, Machine, dict[str, Any]]:
    """Size one scenario without storing it; ``inputs`` are validated request fields."""
    scenario, target = estimate_scenario(user=user, inputs=inputs)
    outputs = estimate_answer(scenario=scenario, target=target, inputs=scenario.inputs)
    return scenario.configuration, target.machine, outputs


def normalised_inputs(inputs: dict[str, Any], config_row: Configuration, machine_row: Machine) -> dict[str, Any]:
    """The inputs as stored with the answer: slugs resolved, the model capacity identifier and a
    sub-capacity setting as resolved (upper case, ``500`` for ``5xx``), the model's CPs."""
    data = {k: v for k, v in inputs.items() if v is not None and v != "" and k not in ("name", "calibration")}
    data.update(path=config_row.path.slug, configuration=config_row.slug, machine=machine_row.slug)
    if data.get("model") or data.get("capacity_setting"):
        target = target_for(
            machine=machine_row.slug,
            model=data.get("model"),
            capacity_setting=data.get("capacity_setting"),
            cps=data.get("cps"),
        )
        data.update(target.inputs())
        if target.model.cps is not None:
            data["cps"] = target.model.cps
    return data


def estimate_create(*, user: User, inputs: dict[str, Any]) -> Estimate:
    """Size and store an estimate owned by ``user`` (nothing is stored if sizing fails)."""
    config_row, machine_row, outputs = estimate_compute(user=user, inputs=inputs)
    # One INSERT: atomic on its own.
    return Estimate.objects.create(
        owner=user,
        name=inputs.get("name") or "",
        configuration=config_row,
        machine=machine_row,
        tps=float(inputs["tps"]),
        inputs=normalised_inputs(inputs, config_row, machine_row),
        outputs=outputs,
        model_version=models_lib.__version__,
    )


def estimate_delete(*, user: User, estimate: Estimate) -> None:
    if estimate.owner_id != user.pk:
        raise PermissionError("Only the owner can delete an estimate.")
    estimate.delete()
