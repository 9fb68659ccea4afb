"""Estimate request and response shapes (the API contract that spreadsheets rely on)."""

from __future__ import annotations

from collections.abc import Mapping
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
NO_TARGET = "Give a machine (e.g. z16) or a model capacity identifier as model (e.g. 3931-710)."


class EstimateInputSerializer(serializers.Serializer):
    """What to size: a path, a configuration, a machine and a target TPS, plus optional inputs."""

    path = serializers.CharField(max_length=60, help_text="Workload path slug, e.g. fiteq-authenticator")
    configuration = serializers.CharField(max_length=60, help_text="Configuration slug of that path")
    machine = serializers.CharField(
        max_length=20,
        required=False,
        help_text="Target machine: slug (z17, z16, z16-a02, z15, ..., z10) or machine type (3931); "
        "or give model instead",
    )
    model = serializers.CharField(
        max_length=12,
        required=False,
        allow_blank=True,
        help_text="Target model capacity identifier, e.g. 3931-710 (z16, full speed, 10 CPs), 3931-510 "
        "(sub-capacity), 9176-D05 (midrange): fixes machine, capacity setting and CPs",
    )
    capacity_setting = serializers.CharField(
        max_length=3,
        required=False,
        allow_blank=True,
        help_text="Capacity setting of the machine's CPs: 700 (full speed, default), 400/500/600 (sub-capacity, "
        "also 4xx..6xx) or A00..Z00 (midrange); with cps or sized",
    )
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

    def to_internal_value(self, data: Any) -> Any:
        # The target is required as machine or model: named with the other missing fields.
        no_target = isinstance(data, Mapping) and not data.get("machine") and not data.get("model")
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if no_target and isinstance(exc.detail, dict):
                exc.detail.setdefault("machine", [serializers.ErrorDetail(NO_TARGET, code="required")])
            raise

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

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("clients") is not None and attrs.get("think_time_s") is None:
            raise serializers.ValidationError({"think_time_s": "Give the think time with the number of clients."})
        if not attrs.get("machine") and not attrs.get("model"):
            raise serializers.ValidationError({"machine": NO_TARGET})
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
    factor = serializers.FloatField(allow_null=True, help_text="CP-seconds on the target per CP-second measured")
    specialty_factor = serializers.FloatField(
        required=False, help_text="the same for specialty-engine work (full-speed rating of the target)"
    )
    capacity_setting = serializers.CharField(
        required=False, allow_blank=True, help_text="capacity setting of the target's CPs (empty: full speed)"
    )
    source = serializers.CharField()
    rating_ids = serializers.ListField(child=serializers.IntegerField(allow_null=True), required=False)


class BindingSerializer(serializers.Serializer):
    resource = serializers.ChoiceField(
        choices=["cps", "specialty", "software", "clients"],
        help_text="what binds: CPs, CPs with specialty engines, the fitted software station, or the client population",
    )
    label = serializers.CharField(help_text="the resource in words")
    utilization = serializers.FloatField(required=False, allow_null=True, help_text="its utilisation at the target TPS")


class RangesSerializer(serializers.Serializer):
    cps = serializers.ListField(
        child=serializers.FloatField(allow_null=True), min_length=2, max_length=2, help_text="CPs required [low, high]"
    )
    ziips = serializers.ListField(
        child=serializers.FloatField(allow_null=True),
        min_length=2,
        max_length=2,
        help_text="specialty engines [low, high]",
    )
    saturation_tps = serializers.ListField(
        child=serializers.FloatField(allow_null=True),
        min_length=2,
        max_length=2,
        help_text="[low, high]; null: unbounded",
    )
    response_time_ms = serializers.ListField(
        child=serializers.FloatField(allow_null=True), min_length=2, max_length=2, help_text="[low, high], ms"
    )


class CapacityCpSerializer(serializers.Serializer):
    mips_installed = serializers.FloatField(help_text="LSPR MIPS of the target model (its CPs)")
    msu_installed = serializers.FloatField(help_text="MSU of the target model: what software is priced on")
    mips_used = serializers.FloatField(help_text="MIPS of the CP work")
    msu_used = serializers.FloatField(help_text="MSU of the CP work")
    utilization = serializers.FloatField(help_text="mean CP utilisation")


class CapacitySpecialtySerializer(serializers.Serializer):
    engine = serializers.CharField(help_text="zIIP or zAAP, as specialty_engine")
    mips_installed = serializers.FloatField(help_text="specialty engines rated at the full-speed per-CP MIPS")
    mips_used = serializers.FloatField(help_text="MIPS of the work on the specialty engines")
    utilization = serializers.FloatField(allow_null=True)
    priced = serializers.BooleanField(help_text="always false: specialty capacity carries no MSU charge")


class CapacityBasisSerializer(serializers.Serializer):
    from_model = serializers.CharField(allow_blank=True)
    from_machine_type = serializers.CharField()
    from_cps = serializers.IntegerField()
    from_mips = serializers.FloatField()
    to_model = serializers.CharField(allow_blank=True)
    to_mips = serializers.FloatField()
    to_full_speed_mips = serializers.FloatField()
    cp_factor = serializers.FloatField()
    specialty_factor = serializers.FloatField()
    source = serializers.CharField()


class CapacitySerializer(serializers.Serializer):
    model = serializers.CharField(allow_blank=True, help_text="model capacity identifier, e.g. 3931-710")
    machine_type = serializers.CharField()
    capacity_setting = serializers.CharField(allow_blank=True)
    cps = serializers.IntegerField()
    specialty_engines = serializers.IntegerField()
    cp = CapacityCpSerializer()
    specialty = CapacitySpecialtySerializer()
    basis = CapacityBasisSerializer()


class BasisNativeSerializer(serializers.Serializer):
    component = serializers.CharField(help_text="the CPU component that sizes the LPAR (lpar or cics)")
    intercept_cps = serializers.FloatField(help_text="fixed busy CPs on the measured LPAR (payload-scaled)")
    slope_s = serializers.FloatField(help_text="CP-seconds per transaction on the measured LPAR (payload-scaled)")
    payload_factor = serializers.FloatField(help_text="payload scaling applied to the published cost (1 = none)")
    busy_cps = serializers.FloatField(help_text="busy CPs at the target TPS on the measured LPAR, before projection")


class ShareSerializer(serializers.Serializer):
    value = serializers.FloatField()
    low = serializers.FloatField()
    high = serializers.FloatField()
    source = serializers.CharField(required=False, help_text="how it was derived or who gave it")


class BasisSerializer(serializers.Serializer):
    points = serializers.ListField(child=serializers.IntegerField(), help_text="ids of the benchmark points used")
    model = BasisModelSerializer(allow_null=True)
    projection = BasisProjectionSerializer(allow_null=True)
    statements = serializers.ListField(child=serializers.IntegerField(), help_text="ids of the statements used")
    assumptions = serializers.ListField(child=serializers.CharField())
    native = BasisNativeSerializer(required=False, help_text="demand on the measured LPAR before projection")
    server_share = ShareSerializer(
        required=False, allow_null=True, help_text="share of the demand the eligible share applies to, where scoped"
    )
    eligible_share = ShareSerializer(required=False, help_text="eligible share of the sized demand, with its range")


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
    saturation_kind = serializers.ChoiceField(
        choices=["value", "lower-bound"], help_text="lower-bound: the cost is an upper bound (bounds-only path)"
    )
    saturation_binding = BindingSerializer(allow_null=True, help_text="the resource that saturates first")
    binding_resource = BindingSerializer(allow_null=True, help_text="the busiest resource at the target TPS")
    specialty_engine = serializers.ChoiceField(
        choices=["zIIP", "zAAP"], help_text="the offload engine of the target generation (ziips_* count these)"
    )
    specialty_engine_max = serializers.IntegerField(
        allow_null=True, help_text="most specialty engines allowed beside these CPs (null: no rule stored)"
    )
    ranges = RangesSerializer(help_text="low..high of the headline numbers")
    capacity = CapacitySerializer(allow_null=True, help_text="MIPS and MSU of the target model, per pool")
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
