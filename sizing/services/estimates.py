"""Sizing estimates: resolve the request against reference data, run the engine, store it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

import models_lib
from models_lib.checks import InputError
from models_lib.sizing import size
from sizing.models import Calibration, Configuration, Estimate, Machine, Visibility
from sizing.selectors.configuration_data import other_component_cost
from sizing.selectors.fitted import Reference, current_reference
from sizing.selectors.targets import Target, target_for
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
    "projection_band",
    "lpar_overhead",
    "server_share",
    "objective",
)


def resolve_configuration(
    *, user: User, path: str, configuration: str, reference: Reference | None = None
) -> Configuration:
    """The configuration ``path``/``configuration`` names, visible to ``user``, or a 400 naming the field.

    Reads the cached catalogue of the current reference-data version (no query when warm); a
    private configuration is found only by its owner.
    """
    cat = (reference or current_reference()).catalogue()
    path_row = cat.paths.get(path.lower())
    if path_row is None:
        known = ", ".join(sorted(p.slug for p in cat.paths.values()))
        raise ValidationError({"path": [f"Unknown path {path!r}. Known paths: {known}."]})

    def visible(c: Configuration) -> bool:
        return c.visibility == Visibility.PUBLISHED or (c.visibility == Visibility.PRIVATE and c.owner_id == user.pk)

    config_row = cat.configurations.get((path_row.pk, configuration.lower()))
    if config_row is None or not visible(config_row):
        known = ", ".join(
            sorted(c.slug for (path_id, _), c in cat.configurations.items() if path_id == path_row.pk and visible(c))
        )
        raise ValidationError(
            {
                "configuration": [
                    f"Configuration {configuration!r} does not belong to path {path_row.slug!r}. Known: {known}."
                ]
            }
        )
    return config_row


def resolve_scenario(
    *, user: User, inputs: dict[str, Any], reference: Reference | None = None
) -> tuple[Configuration, Target]:
    """The configuration and the target (machine, capacity setting, CPs) of validated inputs."""
    reference = reference or current_reference()
    config_row = resolve_configuration(
        user=user, path=inputs["path"], configuration=inputs["configuration"], reference=reference
    )
    target = target_for(
        machine=inputs.get("machine"),
        model=inputs.get("model"),
        capacity_setting=inputs.get("capacity_setting"),
        cps=inputs.get("cps"),
        reference=reference,
    )
    return config_row, target


#: The engine's arguments that are fields of the request, by the same name.
_FIELDS = frozenset((*ENGINE_ARGS, "tps", "capacity_setting"))


def engine_error(exc: ValueError, *, default_field: str = "non_field_errors") -> ValidationError:
    """The engine's error as a 400: on the field its ``argument`` names (``InputError``), else on
    ``default_field``."""
    argument = exc.argument if isinstance(exc, InputError) else ""
    return ValidationError({argument if argument in _FIELDS else default_field: [str(exc)]})


def with_calibration(*, user: User, inputs: dict[str, Any]) -> dict[str, Any]:
    """``inputs`` with ``calibration=<id>`` replaced by its path and private configuration (400 when
    it is not one of ``user``'s calibrations)."""
    if inputs.get("calibration") is None:
        return inputs
    row = (
        Calibration.objects.filter(id=inputs["calibration"], owner_id=user.pk)
        .values_list("configuration__path__slug", "configuration__slug")
        .first()
    )
    if row is None:
        raise ValidationError({"calibration": [f"You have no calibration {inputs['calibration']}."]})
    rest = {k: v for k, v in inputs.items() if k != "calibration"}
    return {**rest, "path": row[0], "configuration": row[1]}


def data_origin(config_row: Configuration) -> dict[str, Any]:
    """Whose data the answer rests on: published documents, or the owner's own measurements."""
    if config_row.visibility != Visibility.PRIVATE:
        return {"data_origin": "published"}
    calibration = Calibration.objects.filter(configuration=config_row).select_related("machine").first()
    if calibration is None:
        return {"data_origin": "customer"}
    return {
        "data_origin": "customer",
        "calibration": {
            "id": calibration.pk,
            "name": calibration.name,
            "current_model": calibration.model,
            "current_machine": calibration.machine.slug,
            "cps": calibration.cps,
            "ziips": calibration.ziips,
            "intervals": len(calibration.intervals),
            "speed_factor": calibration.speed_factor,
        },
    }


def estimate_compute(*, user: User, inputs: dict[str, Any]) -> tuple[Configuration, Machine, dict[str, Any]]:
    """Size one scenario without storing it; ``inputs`` are validated request fields."""
    reference = current_reference()
    inputs = with_calibration(user=user, inputs=inputs)
    config_row, target = resolve_scenario(user=user, inputs=inputs, reference=reference)
    machine_row = target.machine
    kwargs = {name: inputs[name] for name in ENGINE_ARGS if inputs.get(name) is not None}
    if target.model.cps is not None:
        kwargs["cps"] = target.model.cps  # a model fixes its CPs
    if target.engine_setting is not None:
        kwargs["capacity_setting"] = target.engine_setting
    tps = float(inputs["tps"])

    def compute() -> dict[str, Any]:
        fitted = reference.fitted(config_row)
        try:
            result = size(
                fitted.data,
                other_cost=other_component_cost(configuration=config_row, data=fitted.data),
                target_machine=machine_row.slug,
                target_machine_type=machine_row.machine_type,
                capacity=reference.lspr_table(),
                tps=tps,
                model=fitted.model,
                response_model=fitted.response,
                **kwargs,
            )
        except ValueError as exc:
            raise engine_error(exc) from None
        outputs = result.to_dict()  # JSON-safe: non-finite numbers are None
        outputs["warnings"] = with_levels(outputs["warnings"])
        outputs["basis"] = {**outputs["basis"], **data_origin(config_row)}
        return outputs

    # One answer per (reference-data version, configuration, machine, inputs): computed once.
    key = {"configuration": config_row.pk, "machine": machine_row.pk, "tps": tps, **kwargs}
    return config_row, machine_row, reference.answer(key, compute)


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
