"""Sizing estimates: resolve the request against reference data, run the engine, store it."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

import models_lib
from models_lib.sizing import size
from sizing.models import Configuration, Estimate, Machine, Path
from sizing.selectors.configuration_data import capacity_table, configuration_data
from sizing.selectors.reference import visible_configurations
from sizing.services.warning_levels import with_levels

#: Engine keyword arguments that come straight from the request.
ENGINE_ARGS = (
    "cps",
    "ziips",
    "max_utilization",
    "payload_bytes",
    "clients",
    "think_time_s",
    "response_time_sla_ms",
)


def resolve_target(
    *, user: AbstractBaseUser, path: str, configuration: str, machine: str
) -> tuple[Configuration, Machine]:
    """Look up the path, configuration and machine (case-insensitive) or raise a 400 naming the field."""
    path_row = Path.objects.filter(slug__iexact=path).first()
    if path_row is None:
        known = ", ".join(Path.objects.order_by("slug").values_list("slug", flat=True))
        raise ValidationError({"path": [f"Unknown path {path!r}. Known paths: {known}."]})
    configs = visible_configurations(user=user).filter(path=path_row)
    config_row = configs.filter(slug__iexact=configuration).select_related("path__native_machine").first()
    if config_row is None:
        known = ", ".join(configs.order_by("slug").values_list("slug", flat=True))
        raise ValidationError(
            {
                "configuration": [
                    f"Configuration {configuration!r} does not belong to path {path_row.slug!r}. Known: {known}."
                ]
            }
        )
    machine_row = Machine.objects.filter(slug__iexact=machine).first()
    if machine_row is None:
        known = ", ".join(Machine.objects.order_by("slug").values_list("slug", flat=True))
        raise ValidationError({"machine": [f"Unknown machine {machine!r}. Known machines: {known}."]})
    return config_row, machine_row


_ARG_IN_MESSAGE = re.compile(r"\b(" + "|".join(ENGINE_ARGS + ("tps",)) + r")\b")


def _engine_error(exc: ValueError) -> ValidationError:
    """The engine's ValueError names its argument; turn it into a field error where it does."""
    message = str(exc)
    match = _ARG_IN_MESSAGE.search(message)
    return ValidationError({match.group(1) if match else "non_field_errors": [message]})


def estimate_compute(
    *, user: AbstractBaseUser, inputs: dict[str, Any]
) -> tuple[Configuration, Machine, dict[str, Any]]:
    """Size one scenario without storing it; ``inputs`` are validated request fields."""
    config_row, machine_row = resolve_target(
        user=user, path=inputs["path"], configuration=inputs["configuration"], machine=inputs["machine"]
    )
    kwargs = {name: inputs[name] for name in ENGINE_ARGS if inputs.get(name) is not None}
    try:
        result = size(
            configuration_data(configuration=config_row),
            target_machine=machine_row.slug,
            target_machine_type=machine_row.machine_type,
            capacity=capacity_table(),
            tps=float(inputs["tps"]),
            **kwargs,
        )
    except ValueError as exc:
        raise _engine_error(exc) from None
    outputs = result.to_dict()  # JSON-safe: non-finite numbers are None
    outputs["warnings"] = with_levels(outputs["warnings"])
    return config_row, machine_row, outputs


def normalised_inputs(inputs: dict[str, Any], config_row: Configuration, machine_row: Machine) -> dict[str, Any]:
    data = {k: v for k, v in inputs.items() if v is not None and k != "name"}
    data.update(path=config_row.path.slug, configuration=config_row.slug, machine=machine_row.slug)
    return data


def estimate_create(*, user: AbstractBaseUser, inputs: dict[str, Any]) -> Estimate:
    """Size and store an estimate owned by ``user`` (nothing is stored if sizing fails)."""
    config_row, machine_row, outputs = estimate_compute(user=user, inputs=inputs)
    with transaction.atomic():
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


def estimate_delete(*, user: AbstractBaseUser, estimate: Estimate) -> None:
    if estimate.owner_id != user.pk:
        raise PermissionError("Only the owner can delete an estimate.")
    estimate.delete()
