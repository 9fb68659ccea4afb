"""Estimate request and response shapes (the API contract that spreadsheets rely on)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.reverse import reverse

from sizing.models import Estimate

# The API's request shape is the estimate's input form (shared with the workbench and the batch job).
from sizing.services.estimate_inputs import EstimateInputSerializer as EstimateInputSerializer


class WarningSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="stable code, see docs/models.md")
    message = serializers.CharField(help_text="what the engine found, with its numbers")
    level = serializers.ChoiceField(
        choices=["decision", "caveat", "note"],
        required=False,
        help_text="decision: changes what can be signed; caveat: a limitation to say; note: how it was reached",
    )
    headline = serializers.CharField(required=False, help_text="the warning in words for the customer")


class CpuPerTranSerializer(serializers.Serializer[Any]):
    total = serializers.FloatField(allow_null=True, help_text="CP-ms per transaction on the target")
    gcp = serializers.FloatField(allow_null=True)
    ziip = serializers.FloatField(allow_null=True)
    low = serializers.FloatField(allow_null=True, help_text="95% interval, low")
    high = serializers.FloatField(allow_null=True, help_text="95% interval, high")


class BusyCpsSerializer(serializers.Serializer[Any]):
    total = serializers.FloatField(allow_null=True, help_text="busy engines (1.0 = one engine busy)")
    gcp = serializers.FloatField(allow_null=True)
    ziip = serializers.FloatField(allow_null=True)
    ziip_on_gcp = serializers.FloatField(allow_null=True, help_text="zIIP-eligible work run on GCPs (IIPCP)")


class IntervalSerializer(serializers.Serializer[Any]):
    value = serializers.FloatField(allow_null=True)
    low = serializers.FloatField(allow_null=True)
    high = serializers.FloatField(allow_null=True)


class BasisModelSerializer(serializers.Serializer[Any]):
    component = serializers.CharField(allow_null=True)
    slope_ms = serializers.FloatField(allow_null=True, help_text="CP-ms per transaction (slope)")
    intercept_cps = serializers.FloatField(allow_null=True, help_text="fixed busy CPs (intercept)")
    r2 = serializers.FloatField(allow_null=True)
    n = serializers.IntegerField(allow_null=True)
    etr_min = serializers.FloatField(allow_null=True)
    etr_max = serializers.FloatField(allow_null=True)


class BasisProjectionSerializer(serializers.Serializer[Any]):
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
    source = serializers.CharField()  # type: ignore[assignment]  # the API's field named source shadows Field.source in the stubs
    rating_ids = serializers.ListField(child=serializers.IntegerField(allow_null=True), required=False)


class BindingSerializer(serializers.Serializer[Any]):
    resource = serializers.ChoiceField(
        choices=["cps", "specialty", "software", "clients"],
        help_text="what binds: CPs, CPs with specialty engines, the fitted software station, or the client population",
    )
    label = serializers.CharField(help_text="the resource in words")  # type: ignore[assignment]  # the API's field named label shadows Field.label in the stubs
    utilization = serializers.FloatField(required=False, allow_null=True, help_text="its utilisation at the target TPS")


class RangesSerializer(serializers.Serializer[Any]):
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


class CapacityCpSerializer(serializers.Serializer[Any]):
    mips_installed = serializers.FloatField(help_text="LSPR MIPS of the target model (its CPs)")
    msu_installed = serializers.FloatField(help_text="MSU of the target model: what software is priced on")
    mips_used = serializers.FloatField(help_text="MIPS of the CP work")
    msu_used = serializers.FloatField(help_text="MSU of the CP work")
    utilization = serializers.FloatField(help_text="mean CP utilisation")


class CapacitySpecialtySerializer(serializers.Serializer[Any]):
    engine = serializers.CharField(help_text="zIIP or zAAP, as specialty_engine")
    mips_installed = serializers.FloatField(help_text="specialty engines rated at the full-speed per-CP MIPS")
    mips_used = serializers.FloatField(help_text="MIPS of the work on the specialty engines")
    utilization = serializers.FloatField(allow_null=True)
    priced = serializers.BooleanField(help_text="always false: specialty capacity carries no MSU charge")


class CapacityBasisSerializer(serializers.Serializer[Any]):
    from_model = serializers.CharField(allow_blank=True)
    from_machine_type = serializers.CharField()
    from_cps = serializers.IntegerField()
    from_mips = serializers.FloatField()
    to_model = serializers.CharField(allow_blank=True)
    to_mips = serializers.FloatField()
    to_full_speed_mips = serializers.FloatField()
    cp_factor = serializers.FloatField()
    specialty_factor = serializers.FloatField()
    source = serializers.CharField()  # type: ignore[assignment]  # the API's field named source shadows Field.source in the stubs


class CapacitySerializer(serializers.Serializer[Any]):
    model = serializers.CharField(allow_blank=True, help_text="model capacity identifier, e.g. 3931-710")
    machine_type = serializers.CharField()
    capacity_setting = serializers.CharField(allow_blank=True)
    cps = serializers.IntegerField()
    specialty_engines = serializers.IntegerField()
    cp = CapacityCpSerializer()
    specialty = CapacitySpecialtySerializer()
    basis = CapacityBasisSerializer()


class BasisNativeSerializer(serializers.Serializer[Any]):
    component = serializers.CharField(help_text="the CPU component that sizes the LPAR (lpar or cics)")
    intercept_cps = serializers.FloatField(help_text="fixed busy CPs on the measured LPAR (payload-scaled)")
    slope_s = serializers.FloatField(help_text="CP-seconds per transaction on the measured LPAR (payload-scaled)")
    payload_factor = serializers.FloatField(help_text="payload scaling applied to the published cost (1 = none)")
    busy_cps = serializers.FloatField(help_text="busy CPs at the target TPS on the measured LPAR, before projection")


class ShareSerializer(serializers.Serializer[Any]):
    value = serializers.FloatField()
    low = serializers.FloatField()
    high = serializers.FloatField()
    source = serializers.CharField(required=False, help_text="how it was derived or who gave it")  # type: ignore[assignment]  # the API's field named source shadows Field.source in the stubs


class BasisSerializer(serializers.Serializer[Any]):
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


class EstimateResultSerializer(serializers.Serializer[Any]):
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
        # Built directly rather than through the declared fields: the same keys and values, but
        # without DRF's per-instance field machinery (about 1 ms per estimate; the fields stay
        # declared above for the schema).  tests/sizing/test_estimates_api.py compares the two.
        data = {
            "id": instance.pk,
            "url": reverse("estimate-detail", kwargs={"pk": instance.pk}, request=self.context.get("request")),
            "name": instance.name,
            "owner": instance.owner.get_username(),
            "path": instance.configuration.path.slug,
            "configuration": instance.configuration.slug,
            "machine": instance.machine.slug,
            "tps": float(instance.tps),
            "inputs": instance.inputs,
            "model_version": instance.model_version,
            "created_at": _CREATED_AT.to_representation(instance.created_at),
        }
        # The answer's fields at top level too, so a client reads estimate["cps_required"].
        data.update(instance.outputs)
        return data


#: Formats ``created_at`` exactly as the declared DateTimeField would (ISO 8601, settings' zone).
_CREATED_AT = serializers.DateTimeField()


class ErrorSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(required=False, help_text="a sentence; field errors are keyed by field name")
