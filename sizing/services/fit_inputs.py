"""What "which model fits" and the upgrade comparison take: the estimate's input fields (same
types, limits and checks) and their own, one form for the API and the batch job."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sizing.services.estimate_inputs import EstimateInputSerializer
from sizing.services.list_inputs import MAX_GENERATIONS, MAX_UPGRADE_TARGETS, CommaListField

REQUIRED = ("path", "configuration")
SHARED = (
    "path",
    "configuration",
    "tps",
    "max_utilization",
    "response_time_sla_ms",
    "payload_bytes",
    "ziips",
    "projection_band",
    "lpar_overhead",
    "server_share",
    "smt2_factor",
)


def _field(name: str, **overrides: Any) -> serializers.Field[Any, Any, Any, Any]:
    """A fresh copy of one of the estimate's fields (same type, limits and help), with overrides."""
    field = EstimateInputSerializer._declared_fields[name]
    # Field.__new__ keeps the constructor's arguments (DRF deep-copies fields with them); the stubs omit them.
    args: tuple[Any, ...] = field._args  # type: ignore[attr-defined]
    kwargs: dict[str, Any] = field._kwargs  # type: ignore[attr-defined]
    return type(field)(*args, **{**kwargs, **overrides})


class FitInputSerializer(serializers.Serializer[Any]):
    """A rate (and goal) to fit: the estimate's fields, and the generations to search."""

    generations = CommaListField(
        max_items=MAX_GENERATIONS,
        noun="generations",
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="Generations to search, comma-separated (z16,z17; a machine slug or type stands for its "
        f"generation), or all, at most {MAX_GENERATIONS}; default the two newest generations rated",
    )

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = {name: _field(name, **({"required": True} if name in REQUIRED else {})) for name in SHARED}
        fields.update(super().get_fields())
        return fields

    validate_tps = EstimateInputSerializer.validate_tps
    validate_max_utilization = EstimateInputSerializer.validate_max_utilization
    validate_response_time_sla_ms = EstimateInputSerializer.validate_response_time_sla_ms
    validate_projection_band = EstimateInputSerializer.validate_projection_band


class UpgradeInputSerializer(EstimateInputSerializer):
    """The estimate's question about today's machine (``machine``/``model`` with ``cps``), and the
    machines to compare it with."""

    targets = CommaListField(
        max_items=MAX_UPGRADE_TARGETS,
        noun="targets",
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="Machines (slug or type) or models to compare, comma-separated, e.g. z16,z17 or 3931-510, "
        f"at most {MAX_UPGRADE_TARGETS}; default the flagship machines of the two newest generations rated",
    )
