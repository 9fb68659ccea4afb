"""Estimate request and response shapes (the API contract that spreadsheets rely on)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sizing.api.fields import FiniteFloatField, StrictIntegerField
from sizing.models import Estimate

MAX_TPS = 10_000_000
MAX_PAYLOAD_BYTES = 64 * 1024 * 1024
MAX_CPS = 200
MAX_ZIIPS = 200
MAX_CLIENTS = 1_000_000
MAX_THINK_TIME_S = 3600.0
MAX_SLA_MS = 3_600_000.0


class EstimateInputSerializer(serializers.Serializer):
    """What to size: a path, a configuration, a machine and a target TPS, plus optional inputs."""

    path = serializers.CharField(max_length=60, help_text="Workload path slug, e.g. fiteq-authenticator")
    configuration = serializers.CharField(max_length=60, help_text="Configuration slug of that path")
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
    name = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")

    def validate_tps(self, value: float) -> float:
        if value <= 0:
            raise serializers.ValidationError("Must be greater than zero.")
        return value

    def validate_max_utilization(self, value: float | None) -> float | None:
        if value is not None and not 0 < value <= 1:
            raise serializers.ValidationError("Must be in (0, 1]: a share of capacity, e.g. 0.85.")
        return value

    def validate_response_time_sla_ms(self, value: float | None) -> float | None:
        if value is not None and value <= 0:
            raise serializers.ValidationError("Must be greater than zero.")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("clients") is not None and attrs.get("think_time_s") is None:
            raise serializers.ValidationError({"think_time_s": "Give the think time with the number of clients."})
        return attrs


class WarningSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="stable code, see docs/models.md")
    message = serializers.CharField(help_text="what the engine found, with its numbers")
    level = serializers.ChoiceField(
        choices=["decision", "caveat", "note"],
        required=False,
        help_text="decision: changes what can be signed; caveat: a limitation to say; note: how it was reached",
    )
    headline = serializers.CharField(required=False, help_text="the warning in words for the customer")


class CpuPerTranSerializer(serializers.Serializer):
    total = serializers.FloatField(allow_null=True, help_text="CP-ms per transaction on the target")
    gcp = serializers.FloatField(allow_null=True)
    ziip = serializers.FloatField(allow_null=True)
    low = serializers.FloatField(allow_null=True, help_text="95% interval, low")
    high = serializers.FloatField(allow_null=True, help_text="95% interval, high")


class BusyCpsSerializer(serializers.Serializer):
    total = serializers.FloatField(allow_null=True, help_text="busy engines (1.0 = one engine busy)")
    gcp = serializers.FloatField(allow_null=True)
    ziip = serializers.FloatField(allow_null=True)
    ziip_on_gcp = serializers.FloatField(allow_null=True, help_text="zIIP-eligible work run on GCPs (IIPCP)")


class IntervalSerializer(serializers.Serializer):
    value = serializers.FloatField(allow_null=True)
    low = serializers.FloatField(allow_null=True)
    high = serializers.FloatField(allow_null=True)


class BasisModelSerializer(serializers.Serializer):
    component = serializers.CharField(allow_null=True)
    slope_ms = serializers.FloatField(allow_null=True, help_text="CP-ms per transaction (slope)")
    intercept_cps = serializers.FloatField(allow_null=True, help_text="fixed busy CPs (intercept)")
    r2 = serializers.FloatField(allow_null=True)
    n = serializers.IntegerField(allow_null=True)
    etr_min = serializers.FloatField(allow_null=True)
    etr_max = serializers.FloatField(allow_null=True)


class BasisProjectionSerializer(serializers.Serializer):
    from_machine_type = serializers.CharField()
    from_cps = serializers.IntegerField(allow_null=True)
    to_machine_type = serializers.CharField()
    to_cps = serializers.IntegerField(allow_null=True)
    factor = serializers.FloatField(allow_null=True)
    source = serializers.CharField()


class BasisNativeSerializer(serializers.Serializer):
    component = serializers.CharField(help_text="the CPU component that sizes the LPAR (lpar or cics)")
    intercept_cps = serializers.FloatField(help_text="fixed busy CPs on the measured LPAR (payload-scaled)")
    slope_s = serializers.FloatField(help_text="CP-seconds per transaction on the measured LPAR (payload-scaled)")
    payload_factor = serializers.FloatField(help_text="payload scaling applied to the published cost (1 = none)")
    busy_cps = serializers.FloatField(help_text="busy CPs at the target TPS on the measured LPAR, before projection")


class BasisSerializer(serializers.Serializer):
    points = serializers.ListField(child=serializers.IntegerField(), help_text="ids of the benchmark points used")
    model = BasisModelSerializer(allow_null=True)
    projection = BasisProjectionSerializer(allow_null=True)
    statements = serializers.ListField(child=serializers.IntegerField(), help_text="ids of the statements used")
    assumptions = serializers.ListField(child=serializers.CharField())
    native = BasisNativeSerializer(required=False, help_text="demand on the measured LPAR before projection")


class EstimateResultSerializer(serializers.Serializer):
    """The answer (documented for the schema; the service produces it)."""

    cpu_per_tran_ms = CpuPerTranSerializer()
    busy_cps = BusyCpsSerializer()
    breakdown = serializers.DictField(child=serializers.FloatField(), help_text="busy CPs per address space")
    cps_required = serializers.IntegerField(allow_null=True)
    ziips_required = serializers.IntegerField(allow_null=True)
    gcp_utilization = serializers.FloatField(allow_null=True)
    ziip_utilization = serializers.FloatField(allow_null=True)
    mips = serializers.FloatField(allow_null=True)
    msu = serializers.FloatField(allow_null=True)
    response_time_ms = IntervalSerializer()
    saturation_tps = serializers.FloatField(allow_null=True)
    warnings = WarningSerializer(many=True)
    basis = BasisSerializer()


class EstimateOutputSerializer(serializers.ModelSerializer):
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
        # The answer's fields at top level too, so a client reads estimate["cps_required"].
        data.update(instance.outputs)
        return data


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(required=False, help_text="a sentence; field errors are keyed by field name")
