"""A placement's answer (``POST /api/v1/cecs/{id}/place/``) as the API returns it, described for
the OpenAPI schema.

``sizing.jobs.cec.placement_json`` produces it; these serializers only describe it, field by
field with type and unit.  The schema closes every object (``sizing.api.schema``) and
``tests/sizing/test_cecs.py`` validates real answers against the generated schema, so a field
added to the answer and not here fails that test.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class PlacedPoolSerializer(serializers.Serializer[Any]):
    pool = serializers.CharField(help_text="cp or ziip")
    engine = serializers.CharField(help_text="CP, zIIP or zAAP (the generation's name)")
    today = serializers.FloatField(help_text="the LPAR's busy today, engines of this CEC")
    added = serializers.FloatField(help_text="the added work, engines of this CEC")
    added_low = serializers.FloatField(help_text="at the low end of the engine's cost range")
    added_high = serializers.FloatField(help_text="at the high end")
    total = serializers.FloatField(help_text="today plus added, engines")
    total_low = serializers.FloatField()
    total_high = serializers.FloatField()
    share = serializers.FloatField(help_text="guaranteed share, engines")
    logical = serializers.IntegerField(help_text="the LPAR's logical engines")
    limit = serializers.FloatField(help_text="the most the LPAR can use, engines")
    installed = serializers.IntegerField(help_text="the pool's installed engines")
    cec_busy = serializers.FloatField(help_text="all LPARs with the added work, engines")
    ceiling = serializers.FloatField(help_text="utilisation ceiling (max_utilization)")
    utilization = serializers.FloatField(help_text="total over share")
    headroom = serializers.FloatField(help_text="engines left within the ceiling of the share (negative: short)")
    fits = serializers.BooleanField(help_text="the pool's total within the ceiling of its share")
    fits_low = serializers.BooleanField()
    fits_high = serializers.BooleanField()
    binding = serializers.CharField(allow_null=True, help_text="cec, logical or share; null: the pool fits")
    engine_mips = serializers.FloatField(help_text="MIPS of one engine of this CEC at its total engine count")
    added_mips = serializers.FloatField(help_text="the added work, MIPS")
    vh = serializers.IntegerField(help_text="vertical high engines")
    vm = serializers.IntegerField(help_text="vertical medium engines")
    vl = serializers.IntegerField(help_text="vertical low engines")


class SoftwareLimitSerializer(serializers.Serializer[Any]):
    workload = serializers.CharField(help_text="the workload, by its product name")
    tps = serializers.FloatField(help_text="the rate placed, transactions/s")
    limit = serializers.FloatField(
        help_text="transactions/s its own software station carries within the ceiling (the ceiling x its "
        "saturation), whatever the engines: more instances or regions raise it, no machine does"
    )
    saturation = serializers.FloatField(help_text="transactions/s its own software station saturates at")
    ceiling = serializers.FloatField(help_text="the utilisation ceiling the station is held to, as a fraction")


class PlacementChangeSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField(
        help_text="weight, logical, engines, model; software-limit: the sentence only (nothing on the machine raises it)"
    )
    pool = serializers.CharField(help_text='cp or ziip; "" for a software limit (no pool)')
    sentence = serializers.CharField()
    weight = serializers.IntegerField(allow_null=True)
    logical = serializers.IntegerField(allow_null=True)
    model = serializers.CharField(allow_null=True)
    engines = serializers.IntegerField(allow_null=True, help_text="engines added, or the other model's engines")
    others_short = serializers.ListField(child=serializers.CharField(), help_text="LPARs short after a weight change")


class FitsRangeSerializer(serializers.Serializer[Any]):
    low = serializers.BooleanField(help_text="fits at the low end of the engine's cost range")
    high = serializers.BooleanField(help_text="at the high end")


class MixWarningSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    message = serializers.CharField()


class PlacementMixSerializer(serializers.Serializer[Any]):
    cps = serializers.IntegerField(help_text="the LPAR's logical CPs")
    ziips = serializers.IntegerField(help_text="the LPAR's logical zIIPs")
    gcp_busy = serializers.FloatField(help_text="busy CPs of the added work on the LPAR")
    ziip_busy = serializers.FloatField(help_text="busy zIIPs of the added work on the LPAR")
    headroom = serializers.FloatField(
        help_text="largest common multiplier of the rates the CPs carry within the ceiling"
    )
    saturation_scale = serializers.FloatField(help_text="largest common multiplier of the rates the engines carry")
    warnings = MixWarningSerializer(many=True)


class PlacedWorkloadSerializer(serializers.Serializer[Any]):
    path = serializers.CharField()
    configuration = serializers.CharField()
    name = serializers.CharField(help_text="product (configuration)")
    tps = serializers.FloatField(help_text="transactions/s")
    gcp_busy = serializers.FloatField(help_text="busy CPs of this workload on the LPAR")
    ziip_busy = serializers.FloatField(help_text="busy zIIPs of this workload on the LPAR")


class PlacementBodySerializer(serializers.Serializer[Any]):
    lpar = serializers.CharField()
    new_lpar = serializers.BooleanField(help_text="the work goes into a new LPAR")
    fits = serializers.BooleanField(
        help_text="every pool within the ceiling of its share and no workload at or beyond its own software limit"
    )
    fits_range = FitsRangeSerializer()
    binding = serializers.CharField(
        allow_null=True, help_text="software-limit, or pool:binding (cp:share, ziip:logical, cp:cec ...); null: fits"
    )
    pools = PlacedPoolSerializer(many=True)
    software_limits = SoftwareLimitSerializer(many=True, help_text="workloads at or beyond their own software limit")
    changes = PlacementChangeSerializer(many=True, help_text="cheapest first")
    mix = PlacementMixSerializer()
    workloads = PlacedWorkloadSerializer(many=True)
    ceiling = serializers.FloatField(help_text="utilisation ceiling (max_utilization)")


class SpecialtyChangeSerializer(PlacementBodySerializer):
    change = serializers.CharField(help_text="the zIIP change placed first")


class PlacementSerializer(PlacementBodySerializer):
    cec = serializers.IntegerField(help_text="the machine's id")
    model = serializers.CharField()
    as_of = serializers.DateField()
    with_specialty_change = SpecialtyChangeSerializer(
        required=False, help_text="the placement again after the zIIP change (when one is proposed)"
    )
