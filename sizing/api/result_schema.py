"""The estimate's answer as the API returns it: every block the engine and the service produce.

``models_lib.sizing.SizingResult.to_dict`` (the engine) and ``sizing.services.estimates``
(warning levels) produce the answer; these serializers only describe it for the OpenAPI schema
(drf-spectacular), field by field with its type and unit, so that a client can rely on every
field it receives.  The schema closes every object (``additionalProperties: false``, see
``sizing.api.schema``) and ``tests/sizing/test_schema_fuzz.py`` checks the answers of every
published configuration against it: a field added to the engine and not here fails that test.

Blocks: the echo of the request (path, configuration, target machine, tps, cps, ziips,
max_utilization), CPU per transaction, busy engines and their breakdown, CP and specialty
counts, utilisations, MIPS and MSU, response time, saturation (its rate, kind and binding
resource), the knee and the closed-network throughput, ``ranges`` (low..high of the headline
numbers), ``capacity`` (the target model's MIPS and MSU per pool), ``warnings`` and ``basis``
(points, fitted model, projection, statements, assumptions, native demand and shares).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from models_lib.answer import SATURATION_KINDS
from models_lib.choice import OBJECTIVES
from sizing.models import PriceBook


class WarningSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="stable code, see docs/models.md")
    message = serializers.CharField(help_text="what the engine found, with its numbers")
    level = serializers.ChoiceField(
        choices=["decision", "caveat", "note"],
        required=False,
        help_text="decision: changes what can be signed; caveat: a limitation to say; note: how it was reached",
    )
    headline = serializers.CharField(
        required=False,
        help_text="the warning in words for the customer, naming the answer's specialty_engine (zAAP or zIIP)",
    )
    inputs = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="the request fields the warning refers to (what to change to act on it)",
    )


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
    component = serializers.CharField(allow_null=True, help_text="CPU component fitted (lpar, cics, tor...)")
    slope_ms = serializers.FloatField(allow_null=True, help_text="CP-ms per transaction (slope)")
    intercept_cps = serializers.FloatField(allow_null=True, help_text="fixed busy CPs (intercept)")
    r2 = serializers.FloatField(allow_null=True)
    n = serializers.IntegerField(allow_null=True, help_text="points fitted")
    etr_min = serializers.FloatField(allow_null=True, help_text="lowest measured rate, TPS")
    etr_max = serializers.FloatField(allow_null=True, help_text="highest measured rate, TPS")
    slope_se_ms = serializers.FloatField(
        required=False, allow_null=True, help_text="standard error of the slope, CP-ms"
    )
    intercept_se_cps = serializers.FloatField(
        required=False, allow_null=True, help_text="standard error of the intercept, CPs"
    )
    residual_std_cps = serializers.FloatField(
        required=False, allow_null=True, help_text="residual standard deviation, busy CPs"
    )
    interval_basis = serializers.CharField(required=False, help_text="how the 95% interval was formed")
    weighting = serializers.CharField(required=False, help_text="how the points were weighted in the fit")


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
    source = serializers.CharField()  # type: ignore[assignment]  # an API field named like a Field attribute
    rating_ids = serializers.ListField(child=serializers.IntegerField(allow_null=True), required=False)


class BindingSerializer(serializers.Serializer[Any]):
    resource = serializers.ChoiceField(
        choices=["cps", "specialty", "software", "clients"],
        help_text="what binds: CPs, CPs with specialty engines, the fitted software station, or the client population",
    )
    label = serializers.CharField(help_text="the resource in words")  # type: ignore[assignment]  # an API field named like a Field attribute
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
    source = serializers.CharField()  # type: ignore[assignment]  # an API field named like a Field attribute
    mp_engines = serializers.IntegerField(help_text="CPs + specialty engines: the total count the factors are rated at")
    mips_per_engine_at_cps = serializers.FloatField(help_text="full-speed MIPS per engine at the CP count alone")
    mips_per_engine_at_total = serializers.FloatField(help_text="full-speed MIPS per engine at mp_engines")
    mp_factor = serializers.FloatField(help_text="mips_per_engine_at_total / mips_per_engine_at_cps (the MP effect)")


class CapacityIcfSerializer(serializers.Serializer[Any]):
    busy = serializers.FloatField(help_text="coupling-facility busy ICF engines at the rate, as measured on the source")
    note = serializers.CharField(help_text="outside the LPAR: not in the CPs sized")


class CapacitySerializer(serializers.Serializer[Any]):
    model = serializers.CharField(allow_blank=True, help_text="model capacity identifier, e.g. 3931-710")
    machine_type = serializers.CharField()
    capacity_setting = serializers.CharField(allow_blank=True)
    cps = serializers.IntegerField()
    specialty_engines = serializers.IntegerField()
    cp = CapacityCpSerializer()
    specialty = CapacitySpecialtySerializer()
    basis = CapacityBasisSerializer()
    icf = CapacityIcfSerializer(
        allow_null=True, help_text="coupling facility on its own ICF engines, where the source publishes it"
    )


class BasisNativeSerializer(serializers.Serializer[Any]):
    component = serializers.CharField(help_text="the CPU component that sizes the LPAR (lpar or cics)")
    intercept_cps = serializers.FloatField(help_text="fixed busy CPs on the measured LPAR (payload-scaled)")
    slope_s = serializers.FloatField(help_text="CP-seconds per transaction on the measured LPAR (payload-scaled)")
    payload_factor = serializers.FloatField(help_text="payload scaling applied to the published cost (1 = none)")
    busy_cps = serializers.FloatField(help_text="busy CPs at the target TPS on the measured LPAR, before projection")
    lpar_factor = serializers.FloatField(
        allow_null=True, required=False, help_text="CICS regions -> LPAR factor applied (1 + overhead); null: none"
    )
    lpar_factor_low = serializers.FloatField(allow_null=True, required=False, help_text="low end of its range")
    lpar_factor_high = serializers.FloatField(allow_null=True, required=False, help_text="high end of its range")


class ShareSerializer(serializers.Serializer[Any]):
    value = serializers.FloatField()
    low = serializers.FloatField()
    high = serializers.FloatField()
    source = serializers.CharField(required=False, help_text="how it was derived or who gave it")  # type: ignore[assignment]  # an API field named like a Field attribute


class BasisCalibrationSerializer(serializers.Serializer[Any]):
    """The owner's calibration the answer was fitted on (data_origin customer)."""

    id = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    current_model = serializers.CharField(allow_blank=True, help_text="the customer's model, e.g. 3931-710")
    current_machine = serializers.CharField(help_text="the customer's machine slug")
    cps = serializers.IntegerField(help_text="general-purpose CPs of the measured LPAR")
    ziips = serializers.IntegerField(help_text="zIIPs of the measured LPAR")
    intervals = serializers.IntegerField(help_text="measured intervals fitted")
    speed_factor = serializers.FloatField(help_text="capacity-setting speed of the measured CPs (1.0: full speed)")


class FeasibilitySerializer(serializers.Serializer[Any]):
    feasible = serializers.BooleanField(
        allow_null=True,
        help_text="false: no configuration of the target carries the rate as asked (every pool at or under its "
        "ceiling, below saturation, within software limits, meeting the response goal when given); null: the path "
        "publishes no CPU figures, so no CPU verdict",
    )
    reason = serializers.ChoiceField(
        choices=["engines", "ceiling", "saturation", "software-limit", "response-goal", "no-cpu-data"],
        allow_null=True,
        help_text="engines: no buildable mix of CPs and specialty engines carries it within the ceiling; "
        "ceiling: the given CPs run above the ceiling; saturation: the given CPs saturate; "
        "software-limit: at or beyond the software station's saturation; response-goal: no configuration meets "
        "the response-time goal; no-cpu-data: no CPU figures are published (feasible is null)",
    )
    message = serializers.CharField(
        allow_null=True, help_text="does not fit: why, and the most the target carries; or why there is no verdict"
    )
    max_tps = serializers.FloatField(
        allow_null=True, help_text="the largest rate that fits (the same test as feasible, goal included)"
    )
    max_tps_cps = serializers.IntegerField(allow_null=True, help_text="CPs that carry max_tps")
    max_tps_ziips = serializers.IntegerField(allow_null=True, help_text="specialty engines beside them")


class AlternativeSerializer(serializers.Serializer[Any]):
    objective = serializers.ChoiceField(choices=list(OBJECTIVES), help_text="the other objective")
    cps = serializers.IntegerField(help_text="installed CPs it picks")
    ziips = serializers.IntegerField(help_text="specialty engines it picks")
    msu = serializers.FloatField(allow_null=True, help_text="MSU consumed by the CP work of that mix")
    msu_installed = serializers.FloatField(
        allow_null=True, help_text="MSU installed: the rating of its CPs at the target's setting"
    )


class CostSerializer(serializers.Serializer[Any]):
    """The configuration's cost from your price book over its term (only with a price book)."""

    currency = serializers.CharField(help_text="ISO 4217 code of your price book")
    term_years = serializers.FloatField(help_text="years the cost covers (your book's term)")
    total = serializers.FloatField(help_text="cps + specialty + software")
    cps = serializers.FloatField(help_text="the CPs: count x price (x term where priced per year)")
    specialty = serializers.FloatField(help_text="the specialty engines: count x price (x term where per year)")
    software = serializers.FloatField(help_text="msu x price per MSU-year x term")
    msu = serializers.FloatField(help_text="MSU priced: the CPs' rating (installed) or the CP work's (consumed)")
    msu_basis = serializers.ChoiceField(choices=PriceBook.MsuBasis.choices, help_text="your book's MSU basis")


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
    data_origin = serializers.ChoiceField(
        choices=["published", "customer"],
        required=False,
        help_text="published: benchmark documents; customer: the owner's own measured intervals",
    )
    calibration = BasisCalibrationSerializer(required=False, help_text="the calibration sized (data_origin customer)")


class EstimateResultSerializer(serializers.Serializer[Any]):
    """The answer (documented for the schema; the engine and the service produce it)."""

    path = serializers.CharField(help_text="workload path slug sized")
    configuration = serializers.CharField(help_text="configuration slug sized")
    target_machine = serializers.CharField(help_text="machine slug sized for")
    target_machine_type = serializers.CharField(help_text="its machine type, e.g. 3931")
    tps = serializers.FloatField(help_text="target rate, transactions per second")
    cps = serializers.IntegerField(
        allow_null=True, help_text="CPs the figures are evaluated at (given or sized); null: does not fit"
    )
    ziips = serializers.IntegerField(
        allow_null=True, help_text="specialty engines (given or sized); null: does not fit"
    )
    max_utilization = serializers.FloatField(help_text="utilisation ceiling applied, in (0, 1]")
    cpu_per_tran_ms = CpuPerTranSerializer()
    busy_cps = BusyCpsSerializer()
    breakdown = serializers.DictField(
        child=serializers.FloatField(),
        help_text="busy CPs per address space; icf: coupling-facility busy ICF engines, outside the LPAR",
    )
    cps_required = serializers.IntegerField(
        allow_null=True,
        help_text="CPs the objective picks within the ceiling; null where no configuration carries the rate",
    )
    ziips_required = serializers.IntegerField(
        allow_null=True, help_text="specialty engines beside them, within the rules"
    )
    gcp_utilization = serializers.FloatField(allow_null=True)
    ziip_utilization = serializers.FloatField(allow_null=True)
    mips = serializers.FloatField(allow_null=True, help_text="MIPS of the CP work at the target rate")
    msu = serializers.FloatField(allow_null=True, help_text="MSU of the CP work at the target rate")
    ziip_mips = serializers.FloatField(allow_null=True, help_text="MIPS of the work on specialty engines")
    response_time_ms = IntervalSerializer()
    saturation_tps = serializers.FloatField(allow_null=True, help_text="rate at which a resource saturates, TPS")
    knee_tps = serializers.FloatField(
        allow_null=True, help_text="rate where the response time starts to climb (the queueing knee), TPS"
    )
    closed_throughput_tps = serializers.FloatField(
        allow_null=True, help_text="throughput of the closed network (clients, think time); null: open arrivals"
    )
    saturation_kind = serializers.ChoiceField(
        choices=list(SATURATION_KINDS),
        help_text="lower-bound: the central cost is the published upper bound (then the low end of its range); "
        "unknown: no saturation rate (saturation_tps null: no CPU figures are published)",
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
    feasible = serializers.BooleanField(
        allow_null=True,
        help_text="false: the answer does not fit the target; null: no CPU figures, no CPU verdict (see feasibility)",
    )
    feasibility = FeasibilitySerializer(help_text="whether it fits, why not, and the most the target carries")
    objective = serializers.ChoiceField(choices=list(OBJECTIVES), help_text="what the choice of the mix minimised")
    alternative = AlternativeSerializer(
        allow_null=True, help_text="what the other objective picks, where it differs (null: the same mix)"
    )
    evaluated_cps = serializers.IntegerField(
        allow_null=True, help_text="CPs the figures are evaluated at (cps where it fits; the largest or given count)"
    )
    evaluated_ziips = serializers.IntegerField(
        allow_null=True, help_text="specialty engines the figures are evaluated at"
    )
    cost = CostSerializer(
        required=False,
        help_text="present only where you have a price book (/api/v1/price-book) and the answer fits: the cost of "
        "these CPs and specialty engines over your book's term; absent otherwise (no price is ever assumed)",
    )


class InputsEchoSerializer(serializers.Serializer[Any]):
    """The request as sized: slugs as stored (case resolved), optional inputs only where given."""

    path = serializers.CharField()
    configuration = serializers.CharField()
    machine = serializers.CharField()
    model = serializers.CharField(required=False, help_text="the target model capacity identifier, e.g. 3931-710")
    capacity_setting = serializers.CharField(
        required=False, help_text="the target's sub-capacity or midrange setting (absent at full speed)"
    )
    tps = serializers.FloatField(help_text="transactions per second")
    cps = serializers.IntegerField(required=False)
    ziips = serializers.IntegerField(required=False)
    max_utilization = serializers.FloatField(required=False)
    payload_bytes = serializers.IntegerField(required=False)
    clients = serializers.IntegerField(required=False)
    think_time_s = serializers.FloatField(required=False)
    response_time_sla_ms = serializers.FloatField(required=False)
    projection_band = serializers.FloatField(required=False)
    lpar_overhead = serializers.FloatField(required=False)
    server_share = serializers.FloatField(required=False)
    smt2_factor = serializers.FloatField(required=False, help_text="SMT-2 zIIP capacity factor given")
    cics_regions = serializers.IntegerField(required=False, help_text="CICS TS: CICS regions given")
    objective = serializers.CharField(required=False)


class EstimateAnswerSerializer(EstimateResultSerializer):
    """GET /api/v1/estimate: the request as sized, the engine's version and the answer (not stored)."""

    inputs = InputsEchoSerializer()
    model_version = serializers.CharField(help_text="version of the sizing engine (models_lib)")


class StoredEstimateSerializer(EstimateResultSerializer):
    """A stored estimate: its own columns (who, what, when), then the answer's fields at top level.

    Where a column and an answer field share a name (``path``, ``configuration``, ``tps``) they
    hold the same value, and the column is what is returned.
    """

    id = serializers.IntegerField()
    url = serializers.URLField()
    name = serializers.CharField(allow_blank=True)
    owner = serializers.CharField(help_text="username of the engineer who made it")
    machine = serializers.CharField(help_text="machine slug (the answer's target_machine)")
    inputs = InputsEchoSerializer()
    model_version = serializers.CharField(help_text="version of the sizing engine (models_lib)")
    created_at = serializers.DateTimeField()
