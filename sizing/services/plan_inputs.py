"""What a plan takes: workloads growing over a horizon, candidate targets, the estimate's options.

Checked in full before anything is stored: each workload's path and configuration (or
calibration) against what the owner may see, each candidate against the LSPR table, so that a
bad plan answers 400 naming the field (``{"workloads": {"1": {"tps": [...]}}}``,
``{"candidates": {"1": [...]}}``) and stores nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from rest_framework import serializers

from sizing.selectors.fitted import current_reference
from sizing.selectors.price_books import NO_BOOK, price_book_for
from sizing.selectors.targets import target_for
from sizing.services.estimate_inputs import EstimateInputSerializer
from sizing.services.estimates import resolve_configuration, with_calibration
from sizing.services.input_fields import (
    BoundedListField,
    FiniteFloatField,
    RejectUnknownFieldsMixin,
    StrictIntegerField,
)

MAX_PLAN_WORKLOADS = 10
MAX_CANDIDATES = 40
MAX_YEARS = 20
MAX_QUARTERS = 80
MAX_PEAK_RATIO = 100.0
MAX_GROWTH_PCT = 1000.0
OPTION_FIELDS = ("max_utilization", "projection_band", "lpar_overhead", "server_share", "objective")


def estimate_field(name: str, **overrides: Any) -> serializers.Field[Any, Any, Any, Any]:
    """A fresh copy of one of the estimate's fields (same type, limits and help)."""
    field = EstimateInputSerializer._declared_fields[name]
    args: tuple[Any, ...] = field._args  # type: ignore[attr-defined]
    kwargs: dict[str, Any] = field._kwargs  # type: ignore[attr-defined]
    return type(field)(*args, **{**kwargs, **overrides})


def check_workload_source(attrs: dict[str, Any]) -> None:
    """A workload names a published path and configuration, or one of your calibrations: a 400
    naming the field otherwise (plans and a CEC's placement)."""
    given = attrs.get("calibration") is not None
    for name in ("path", "configuration"):
        present = bool(attrs.get(name))
        if given and present:
            raise serializers.ValidationError({name: ["Give either calibration or path and configuration."]})
        if not given and not present:
            raise serializers.ValidationError({name: ["This field is required (or give calibration)."]})


class PlanWorkloadSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """One workload: what (path and configuration, or a calibration), today's average TPS, its
    peak-to-average ratio and its growth (``growth_pct`` a year, or ``growth_tps`` a period)."""

    path = estimate_field("path")
    configuration = estimate_field("configuration")
    calibration = estimate_field("calibration")
    tps = estimate_field("tps", help_text="Today's average transactions per second (> 0)")
    peak_ratio = FiniteFloatField(
        required=False, default=1.0, min_value=1.0, max_value=MAX_PEAK_RATIO,
        help_text="Peak-hour TPS over the average, e.g. 1.5 (default 1)",
    )  # fmt: skip
    growth_pct = FiniteFloatField(
        required=False, allow_null=True, min_value=-90.0, max_value=MAX_GROWTH_PCT,
        help_text="Growth of the average in % a year, compounded (e.g. 25); or give growth_tps",
    )  # fmt: skip
    growth_tps = FiniteFloatField(
        required=False, allow_null=True, min_value=-1_000_000.0, max_value=1_000_000.0,
        help_text="Growth of the average in TPS a period (year or quarter); or give growth_pct",
    )  # fmt: skip
    payload_bytes = estimate_field("payload_bytes")

    validate_tps = EstimateInputSerializer.validate_tps

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        check_workload_source(attrs)
        if attrs.get("growth_pct") is not None and attrs.get("growth_tps") is not None:
            raise serializers.ValidationError({"growth_tps": ["Give growth_pct or growth_tps, not both."]})
        return attrs


class CandidateField(serializers.Field[Any, Any, Any, Any]):
    """A candidate: a model capacity identifier or a machine (text), or one of your machines
    (``{"cec", "lpar", "lpar_growth"}``, checked in full by
    :func:`sizing.services.plan_cec_inputs.cec_candidate`)."""

    default_error_messages = {
        "invalid": "Give a model (3931-708), a machine (z17), or one of your machines {{cec, lpar, lpar_growth}}."
    }

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            return data
        if not isinstance(data, str):
            self.fail("invalid")
        return serializers.CharField(max_length=20).run_validation(data)

    def to_representation(self, value: Any) -> Any:
        return value


class PlanInputSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """A capacity plan: workloads, a horizon, candidate targets, the estimate's sizing options."""

    name = serializers.CharField(max_length=200, help_text="Your name for the plan")
    horizon_years = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_YEARS, help_text="Horizon in years (1..20)"
    )
    horizon_quarters = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_QUARTERS,
        help_text="Horizon in quarters (1..80), instead of horizon_years",
    )  # fmt: skip
    # many=True hands min_length/max_length to the ListSerializer; the stubs type only the child's arguments.
    workloads = PlanWorkloadSerializer(many=True, min_length=1, max_length=MAX_PLAN_WORKLOADS, allow_empty=False)  # type: ignore[call-arg]
    candidates = BoundedListField(
        child=CandidateField(), required=False, max_length=MAX_CANDIDATES,
        help_text="Model capacity identifiers (e.g. 3931-708); a machine (z17) means the model that fits on it; "
        "one of your machines as {cec: id, lpar: name or a new LPAR, lpar_growth: {LPAR: % a year}}",
    )  # fmt: skip
    generations = serializers.ListField(
        child=serializers.CharField(max_length=20), required=False, max_length=MAX_CANDIDATES,
        help_text="Machines (e.g. z16, z17) on which to size the model that fits each period",
    )  # fmt: skip
    max_utilization = estimate_field("max_utilization")
    projection_band = estimate_field("projection_band")
    lpar_overhead = estimate_field("lpar_overhead")
    server_share = estimate_field("server_share")
    objective = estimate_field("objective")

    validate_max_utilization = EstimateInputSerializer.validate_max_utilization
    validate_projection_band = EstimateInputSerializer.validate_projection_band

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        years, quarters = attrs.get("horizon_years"), attrs.get("horizon_quarters")
        if (years is None) == (quarters is None):
            raise serializers.ValidationError({"horizon_years": ["Give horizon_years or horizon_quarters (one)."]})
        given = len(attrs.get("candidates") or []) + len(attrs.get("generations") or [])
        if given == 0:
            raise serializers.ValidationError({"candidates": ["Give at least one candidate model or generation."]})
        if given > MAX_CANDIDATES:
            raise serializers.ValidationError({"candidates": [f"At most {MAX_CANDIDATES} candidates and generations."]})
        return attrs


def _candidate(text: str, *, generation: bool) -> dict[str, Any]:
    """A candidate as stored: a model (CPs fixed) or a machine whose model is sized each period."""
    reference = current_reference()
    is_model = not generation and "-" in text
    target = target_for(machine=None if is_model else text, model=text if is_model else None, reference=reference)
    machine = target.machine
    if target.model.cps is not None:
        return {
            "kind": "model",
            "label": target.model.model,
            "model": target.model.model,
            "machine": machine.slug,
            "machine_type": machine.machine_type,
            "cps": target.model.cps,
            "engine_setting": target.engine_setting,
        }
    return {
        "kind": "generation",
        "label": f"{machine.name} (model that fits)",
        "machine": machine.slug,
        "machine_type": machine.machine_type,
        "engine_setting": target.engine_setting,
    }


def plan_inputs(*, user: User, data: Any, machine: Callable[..., dict[str, Any]] | None = None) -> dict[str, Any]:
    """The plan as stored, or DRF's ``ValidationError`` naming the field (nested: a list's
    entries by position).  ``machine(user=, data=)`` checks a candidate that is one of the
    owner's machines (:func:`sizing.services.plan_cec_inputs.cec_candidate`, passed by
    ``sizing.services.plans``: it builds on the machines' service, which builds on this one)."""
    form = PlanInputSerializer(data=data)
    if not form.is_valid():
        raise serializers.ValidationError(form.errors)
    attrs = form.validated_data
    errors: dict[str, Any] = {}
    workloads: list[dict[str, Any]] = []
    workload_errors: dict[str, dict[str, Any]] = {}
    for i, entry in enumerate(attrs["workloads"]):
        try:
            resolved = with_calibration(user=user, inputs=dict(entry))
            row = resolve_configuration(user=user, path=resolved["path"], configuration=resolved["configuration"])
        except ValidationError as exc:
            workload_errors[str(i)] = exc.message_dict
            continue
        stored = {k: v for k, v in resolved.items() if v is not None}
        stored.update(path=row.path.slug, configuration=row.slug)
        if entry.get("calibration") is not None:
            stored["calibration"] = entry["calibration"]
        workloads.append(stored)
    if workload_errors:
        errors["workloads"] = workload_errors
    candidates: list[dict[str, Any]] = []
    candidate_errors: dict[str, Any] = {}
    named = [(t, False) for t in attrs.get("candidates") or []] + [(t, True) for t in attrs.get("generations") or []]
    for i, (text, generation) in enumerate(named):
        try:
            if isinstance(text, dict):
                if machine is None:
                    raise serializers.ValidationError(["Give a model capacity identifier or a machine."])
                found = machine(user=user, data=text)
            else:
                found = _candidate(text, generation=generation)
        except serializers.ValidationError as exc:
            candidate_errors[str(i)] = exc.detail
            continue
        except ValidationError as exc:
            candidate_errors[str(i)] = [m for msgs in exc.message_dict.values() for m in msgs]
            continue
        if any(c["label"] == found["label"] for c in candidates):
            candidate_errors[str(i)] = [f"{found['label']} is named twice."]
            continue
        candidates.append(found)
    if candidate_errors:
        errors["candidates"] = candidate_errors
    if errors:
        raise serializers.ValidationError(errors)
    quarters = attrs.get("horizon_quarters")
    period, horizon = ("quarter", quarters) if quarters is not None else ("year", attrs["horizon_years"])
    for i, w in enumerate(workloads):
        if w.get("growth_tps") is not None and w["tps"] + w["growth_tps"] * (horizon - 1) <= 0:
            message = "The average falls to zero or below within the horizon."
            raise serializers.ValidationError({"workloads": {str(i): {"growth_tps": [message]}}})
    options = {k: attrs[k] for k in OPTION_FIELDS if attrs.get(k) is not None}
    if options.get("objective") == "least-cost" and price_book_for(user=user) is None:
        raise serializers.ValidationError({"objective": [NO_BOOK]})
    return {
        "name": attrs["name"],
        "period": period,
        "horizon": horizon,
        "workloads": workloads,
        "candidates": candidates,
        "options": options,
    }
