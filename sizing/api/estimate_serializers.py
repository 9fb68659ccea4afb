"""Estimate request and response shapes (the API contract that spreadsheets rely on)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sizing.api.fields import FiniteFloatField, RejectUnknownFieldsMixin, StrictIntegerField
from sizing.models import Estimate

MAX_TPS = 10_000_000
MAX_PAYLOAD_BYTES = 64 * 1024 * 1024
MAX_CPS = 200
MAX_ZIIPS = 200
MAX_CLIENTS = 1_000_000
MAX_THINK_TIME_S = 3600.0
MAX_SLA_MS = 3_600_000.0


class EstimateInputSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """What to size: a path, a configuration, a machine and a target TPS, plus optional inputs.

    Unknown fields are refused (400 naming them)."""

    path = serializers.CharField(
        max_length=60, required=False, help_text="Workload path slug, e.g. fiteq-authenticator (or give calibration)"
    )
    configuration = serializers.CharField(
        max_length=60, required=False, help_text="Configuration slug of that path (or give calibration)"
    )
    calibration = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        help_text="Id of one of your calibrations (your own measured intervals), instead of path and configuration",
    )
    machine = serializers.CharField(max_length=20, help_text="Target machine: z13, zec12 or z10")
    tps = FiniteFloatField(
        min_value=0, max_value=MAX_TPS, help_text="Target transactions per second (> 0, at most 10,000,000)"
    )
    cps = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_CPS, help_text="GCPs in the LPAR (default: sized)"
    )
    ziips = StrictIntegerField(
        required=False, allow_null=True, min_value=0, max_value=MAX_ZIIPS, help_text="zIIPs (default: sized)"
    )
    max_utilization = FiniteFloatField(
        required=False, allow_null=True, help_text="Utilisation ceiling in (0, 1] for CPs and zIIPs"
    )
    payload_bytes = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_PAYLOAD_BYTES, help_text="Payload bytes (<= 64 MiB)"
    )
    clients = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_CLIENTS, help_text="Concurrent clients"
    )
    think_time_s = FiniteFloatField(
        required=False, allow_null=True, min_value=0, max_value=MAX_THINK_TIME_S, help_text="Client think time, s"
    )
    response_time_sla_ms = FiniteFloatField(
        required=False, allow_null=True, min_value=0, max_value=MAX_SLA_MS, help_text="Response-time goal, ms"
    )
    projection_band = FiniteFloatField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="Relative error band of the LSPR projection in [0, 1), e.g. 0.1 for ±10 %, widens every range "
        "when the target is not the measured machine and CP count (default: none, and the basis says so)",
    )
    lpar_overhead = FiniteFloatField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=10,
        help_text="Where only the CICS regions' CPU is published (CICS TS): the rest of the LPAR as a share of "
        "the CICS CPU, e.g. 0.2; the LPAR is sized as CICS x (1 + lpar_overhead) (default: CICS regions only, "
        "with a cics-only warning)",
    )
    server_share = FiniteFloatField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=1,
        help_text="Where an eligible share was published for part of the demand (the z/OS Connect server, not "
        "CICS): that part's share of the LPAR cost in [0, 1] (default: derived from a published CICS cost on the "
        "same machine where there is one; the basis says how)",
    )
    name = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")

    def validate_tps(self, value: float) -> float:
        if value <= 0:
            raise serializers.ValidationError("Must be greater than zero.")
        return value

    def validate_max_utilization(self, value: float | None) -> float | None:
        if value is not None and not 0 < value <= 1:
            raise serializers.ValidationError("Must be in (0, 1]: a share of capacity, e.g. 0.85.")
        return value

    def validate_projection_band(self, value: float | None) -> float | None:
        if value is not None and not 0 <= value < 1:
            raise serializers.ValidationError("Must be in [0, 1): a relative band, e.g. 0.1 for ±10 %.")
        return value

    def validate_response_time_sla_ms(self, value: float | None) -> float | None:
        if value is not None and value <= 0:
            raise serializers.ValidationError("Must be greater than zero.")
        return value

    def to_internal_value(self, data: Any) -> Any:
        # path and configuration are required unless a calibration is given: named together with
        # any other field's error, as required fields are.
        errors: dict[str, Any] = {}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            errors = dict(exc.detail) if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
            value = {}
        given = hasattr(data, "get") and data.get("calibration") not in (None, "")
        for name in ("path", "configuration"):
            present = hasattr(data, "get") and data.get(name) not in (None, "")
            if given and present:
                errors.setdefault(name, ["Give either calibration or path and configuration."])
            elif not given and not present:
                errors.setdefault(name, ["This field is required (or give calibration)."])
        if errors:
            raise serializers.ValidationError(errors)
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("clients") is not None and attrs.get("think_time_s") is None:
            raise serializers.ValidationError({"think_time_s": "Give the think time with the number of clients."})
        return attrs


class EstimateOutputSerializer(serializers.ModelSerializer[Estimate]):
    path = serializers.CharField(source="configuration.path.slug")
    configuration = serializers.CharField(source="configuration.slug")
    machine = serializers.CharField(source="machine.slug")
    owner = serializers.CharField(source="owner.username")
    url = serializers.HyperlinkedIdentityField(view_name="estimate-detail")

    class Meta:
        model = Estimate
        fields = [
            "id",
            "url",
            "name",
            "owner",
            "path",
            "configuration",
            "machine",
            "tps",
            "inputs",
            "model_version",
            "created_at",
        ]

    def to_representation(self, instance: Estimate) -> dict[str, Any]:
        data = super().to_representation(instance)
        # The answer's fields at top level too, so a client reads estimate["cps_required"]; a
        # column keeps its value where the answer has a field of the same name (path, tps...).
        data.update({k: v for k, v in instance.outputs.items() if k not in data})
        return data


class ErrorSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(required=False, help_text="a sentence; field errors are keyed by field name")
