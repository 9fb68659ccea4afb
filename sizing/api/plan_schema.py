"""A plan's stored question and answer as the API returns them, described for the OpenAPI schema.

``sizing.services.plan_inputs`` (the question) and ``sizing.jobs.plan`` (the answer) produce
them; these serializers only describe them, field by field with type and unit.  The schema closes
every object (``sizing.api.schema``) and ``tests/sizing/test_plans.py`` validates a real answer
against the generated schema, so a field added to the answer and not here fails that test.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers

from sizing.models import PlanPeriod
from sizing.services.plan_cec_inputs import CecCandidateSerializer

#: Enumerations named in the schema (SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]).
CANDIDATE_KINDS = [
    ("model", "A model: its CPs fixed"),
    ("generation", "The model that fits, sized each period"),
    ("cec", "One of your machines: the work in one of its LPARs, each LPAR growing"),
]
#: What stops the candidates when nothing lasts (``sizing.jobs.plan.binding_resources``); a
#: machine's LPAR: ``share`` (its weight), ``logical`` (its logical engines), ``cec`` (the machine).
PLAN_BINDINGS = ["cps", "engines", "saturation", "software-limit", "share", "logical", "cec"]
RECOMMENDATION_KINDS = [("single", "One model"), ("upgrade", "A model, then an upgrade"), ("none", "Nothing lasts")]
RESULT_KINDS = [("plan", "A plan")]


class StoredWorkloadSerializer(serializers.Serializer[Any]):
    path = serializers.CharField()
    configuration = serializers.CharField()
    calibration = serializers.IntegerField(required=False, help_text="the calibration it came from")
    tps = serializers.FloatField(help_text="today's average, transactions/s")
    peak_ratio = serializers.FloatField(help_text="peak hour over average")
    growth_pct = serializers.FloatField(required=False, allow_null=True, help_text="% a year, compounded")
    growth_tps = serializers.FloatField(required=False, allow_null=True, help_text="transactions/s a period")
    payload_bytes = serializers.IntegerField(required=False, allow_null=True)


class CandidateFieldExtension(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    """A plan's candidate in the request: a model or machine (text), or one of your machines."""

    target_class = "sizing.services.plan_inputs.CandidateField"

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Any:
        machine = auto_schema.resolve_serializer(CecCandidateSerializer, direction).ref
        return {"oneOf": [{"type": "string", "maxLength": 20}, machine]}


class StoredPoolSerializer(serializers.Serializer[Any]):
    logical = serializers.IntegerField()
    weight = serializers.IntegerField(allow_null=True)
    capped = serializers.BooleanField()
    busy_pct = serializers.FloatField(help_text="percent of its logical engines busy today")


class StoredLparSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    dedicated = serializers.BooleanField()
    cp = StoredPoolSerializer()
    ziip = StoredPoolSerializer()


class StoredCecSerializer(serializers.Serializer[Any]):
    """The machine as the plan was asked (a snapshot: later edits do not change the plan)."""

    id = serializers.IntegerField(help_text="the machine's id (/api/v1/cecs/{id}/)")
    name = serializers.CharField()
    as_of = serializers.DateField()
    capacity_setting = serializers.CharField()
    ziips = serializers.IntegerField(help_text="specialty engines installed (zAAPs on z10..zEC12)")
    icfs = serializers.IntegerField()
    ifls = serializers.IntegerField()
    lpars = StoredLparSerializer(many=True)


class StoredCandidateSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=CANDIDATE_KINDS)
    label = serializers.CharField(  # type: ignore[assignment]
        help_text="the model (3931-708), 'IBM z16 A01 (model that fits)' or 'Production z15 (8561-710), LPAR PROD'"
    )
    model = serializers.CharField(required=False, help_text="model capacity identifier (models, machines)")
    machine = serializers.CharField(help_text="machine slug")
    machine_type = serializers.CharField()
    cps = serializers.IntegerField(required=False, help_text="the model's CPs (models, machines)")
    engine_setting = serializers.CharField(allow_null=True, help_text="sub-capacity setting; null at full speed")
    specialty = serializers.CharField(
        required=False, help_text="the candidate's specialty engine: zIIP, or zAAP on z10..zEC12/zBC12"
    )
    machine_name = serializers.CharField(required=False, help_text="your machine's product name (IBM z15 T01)")
    lpar = serializers.CharField(required=False, help_text="your machine: the LPAR that takes the work")
    new_lpar = StoredLparSerializer(required=False, allow_null=True, help_text="your machine: the new LPAR, if any")
    lpar_growth = serializers.DictField(
        child=serializers.FloatField(), required=False, help_text="your machine: LPAR -> % a year"
    )
    cec = StoredCecSerializer(required=False, help_text="your machine as asked")


class PlanOptionsSerializer(serializers.Serializer[Any]):
    max_utilization = serializers.FloatField(required=False)
    projection_band = serializers.FloatField(required=False)
    lpar_overhead = serializers.FloatField(required=False)
    server_share = serializers.FloatField(required=False)
    objective = serializers.CharField(
        required=False,
        help_text="fewest-cps (default), least-msu-consumed (least-msu accepted), fewest-engines or least-cost "
        "(your price book)",
    )


class PlanInputsSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    period = serializers.ChoiceField(choices=PlanPeriod.choices)
    horizon = serializers.IntegerField(help_text="number of periods")
    workloads = StoredWorkloadSerializer(many=True)
    candidates = StoredCandidateSerializer(many=True)
    options = PlanOptionsSerializer()


class PeriodWorkloadSerializer(serializers.Serializer[Any]):
    label = serializers.CharField(help_text="path/configuration")  # type: ignore[assignment]
    tps_peak = serializers.FloatField(help_text="peak transactions/s in the period")
    name = serializers.CharField(
        required=False, help_text="the workload in product names (FiTeq Authenticator, multi-region)"
    )


class PlanPeriodSerializer(serializers.Serializer[Any]):
    period = serializers.IntegerField(help_text="1 = today's volume")
    label = serializers.CharField(help_text="Year 1, Quarter 3, ...")  # type: ignore[assignment]
    workloads = PeriodWorkloadSerializer(many=True)


class ReasonSerializer(serializers.Serializer[Any]):
    code = serializers.ChoiceField(choices=PLAN_BINDINGS)
    message = serializers.CharField()


class RangeEndSerializer(serializers.Serializer[Any]):
    holds = serializers.BooleanField()
    cps = serializers.IntegerField()
    ziips = serializers.IntegerField()


class RangeSerializer(serializers.Serializer[Any]):
    low = RangeEndSerializer(help_text="at the low end of the engine's per-transaction CPU range")
    high = RangeEndSerializer(help_text="at the high end")


class LparWorkloadSerializer(serializers.Serializer[Any]):
    tps = serializers.FloatField(help_text="peak transactions/s")
    gcp_busy = serializers.FloatField(help_text="busy CPs of this workload (spilled eligible work included)")
    ziip_busy = serializers.FloatField(help_text="busy zIIPs of this workload")


class LparLoadSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="LPAR")
    pool = serializers.CharField(help_text="cp or ziip")
    engine = serializers.CharField(help_text="CP, zIIP or zAAP (the generation's name)")
    busy = serializers.FloatField(help_text="busy engines of this CEC: its load grown, plus the work if it takes it")
    busy_low = serializers.FloatField(help_text="at the low end of the cost range")
    busy_high = serializers.FloatField(help_text="at the high end")
    share = serializers.FloatField(help_text="guaranteed share, engines")
    ceiling_of_share = serializers.FloatField(help_text="the ceiling times the share, engines")
    takes_work = serializers.BooleanField(help_text="the LPAR the workloads go to")
    holds = serializers.BooleanField()
    holds_low = serializers.BooleanField()
    holds_high = serializers.BooleanField()


class PoolLoadSerializer(serializers.Serializer[Any]):
    pool = serializers.CharField(help_text="cp or ziip")
    engine = serializers.CharField(help_text="CP, zIIP or zAAP")
    busy = serializers.FloatField(help_text="all LPARs together, engines")
    busy_low = serializers.FloatField()
    busy_high = serializers.FloatField()
    installed = serializers.IntegerField()
    capacity = serializers.FloatField(help_text="the ceiling times the installed engines")
    holds = serializers.BooleanField()
    holds_low = serializers.BooleanField()
    holds_high = serializers.BooleanField()


class LparRunOutSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(allow_null=True, help_text="the LPAR; null: the CEC")
    period = serializers.IntegerField(allow_null=True, help_text="first period it does not hold; null: lasts")
    pool = serializers.CharField(allow_null=True, help_text="cp or ziip: the pool that binds then")
    engine = serializers.CharField(allow_null=True, help_text="CP, zIIP or zAAP")
    earliest = serializers.IntegerField(allow_null=True, help_text="at the high end of the cost range")
    latest = serializers.IntegerField(allow_null=True, help_text="at the low end")


class CandidatePeriodSerializer(serializers.Serializer[Any]):
    period = serializers.IntegerField()
    model = serializers.CharField(help_text="the model evaluated (sized for a generation)")
    cps = serializers.IntegerField()
    ziips = serializers.IntegerField(help_text="sized to the pooled eligible work within the ratio")
    gcp_busy = serializers.FloatField(help_text="busy CPs")
    ziip_busy = serializers.FloatField(help_text="busy zIIPs")
    gcp_utilization = serializers.FloatField()
    ziip_utilization = serializers.FloatField(allow_null=True)
    msu_consumed = serializers.FloatField(help_text="MSU of the GCP demand")
    mips_consumed = serializers.FloatField(help_text="MIPS of the GCP demand")
    ceiling = serializers.FloatField(help_text="utilisation ceiling")
    holds = serializers.BooleanField(help_text="carries the peak within the ceiling")
    reasons = ReasonSerializer(many=True, help_text="why not (empty when it holds)")
    workloads = LparWorkloadSerializer(many=True)
    range = RangeSerializer()
    lpars = LparLoadSerializer(many=True, required=False, help_text="your machine: each LPAR's pools")
    pools = PoolLoadSerializer(many=True, required=False, help_text="your machine: each pool, all LPARs")
    changes = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="your machine, a period that does not hold: the changes that make the LPAR carry it, cheapest first",
    )  # fmt: skip


class OptionModelSerializer(serializers.Serializer[Any]):
    model = serializers.CharField()
    cps = serializers.IntegerField()
    msu_installed = serializers.FloatField(help_text="the model's LSPR MSU rating")
    holds = serializers.ListField(child=serializers.BooleanField(), help_text="per period")
    ziips = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="specialty engines the LPAR takes, per period"
    )
    msu_consumed = serializers.ListField(
        child=serializers.FloatField(), required=False, help_text="MSU the CP work consumes, per period"
    )
    cec = serializers.CharField(required=False, help_text="your machine's name (a machine candidate)")
    lpar = serializers.CharField(required=False, help_text="the LPAR that takes the work (a machine candidate)")


class PlanPriceBookSerializer(serializers.Serializer[Any]):
    """The owner's price book as the plan ran (its costs come from it)."""

    currency = serializers.CharField()
    term_years = serializers.IntegerField()
    cp_price = serializers.FloatField()
    cp_basis = serializers.CharField()
    specialty_price = serializers.FloatField()
    specialty_basis = serializers.CharField()
    msu_price = serializers.FloatField()
    msu_basis = serializers.CharField()


class RunOutRangeSerializer(serializers.Serializer[Any]):
    earliest = serializers.IntegerField(allow_null=True, help_text="null: beyond the horizon")
    latest = serializers.IntegerField(allow_null=True, help_text="null: beyond the horizon")


class BasisNoteSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="the engine's warning code (docs/models.md)")
    message = serializers.CharField()
    level = serializers.ChoiceField(
        choices=["decision", "caveat", "note"], required=False, help_text="the level the engine gave the warning"
    )
    inputs = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="the request fields the warning refers to"
    )


class PlanCandidateSerializer(StoredCandidateSerializer):
    index = serializers.IntegerField()
    periods = CandidatePeriodSerializer(many=True)
    models = OptionModelSerializer(many=True, help_text="models this candidate offers the recommendation")
    runs_out = serializers.IntegerField(allow_null=True, help_text="first period that does not hold; null: lasts")
    runs_out_range = RunOutRangeSerializer()
    basis = serializers.ListField(
        child=BasisNoteSerializer(many=True),
        help_text="per workload: the engine's notes on its basis (bounds only, CICS regions only, ...), first period",
    )
    price_book = PlanPriceBookSerializer(
        allow_null=True, required=False, help_text="the owner's price book as the plan ran (null: none, no cost)"
    )
    lpar_runs_out = LparRunOutSerializer(
        many=True, required=False, help_text="your machine: each LPAR's run-out, then the CEC's (name null)"
    )


class SingleSerializer(serializers.Serializer[Any]):
    model = serializers.CharField()
    machine = serializers.CharField()
    cps = serializers.IntegerField()
    msu_installed = serializers.FloatField()
    msu_years = serializers.FloatField()
    cost = serializers.FloatField(required=False, help_text="least-cost: total over the horizon from your price book")
    cec = serializers.CharField(required=False, help_text="your machine's name, when it is the one")
    lpar = serializers.CharField(required=False, help_text="its LPAR that takes the work")


class RecommendationSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=RECOMMENDATION_KINDS)
    model = serializers.CharField(required=False)
    machine = serializers.CharField(required=False)
    cps = serializers.IntegerField(required=False)
    msu_installed = serializers.FloatField(required=False)
    upgrade_to = serializers.CharField(required=False)
    upgrade_machine = serializers.CharField(required=False)
    upgrade_cps = serializers.IntegerField(required=False)
    upgrade_msu_installed = serializers.FloatField(required=False)
    upgrade_period = serializers.IntegerField(required=False)
    msu_years = serializers.FloatField(required=False, help_text="installed MSU x years")
    cost = serializers.FloatField(
        required=False, help_text="least-cost only: the plan's total over the horizon from your price book"
    )
    currency = serializers.CharField(required=False, help_text="least-cost only: your price book's currency")
    cec = serializers.CharField(required=False, help_text="your machine's name, when the plan keeps it (now)")
    lpar = serializers.CharField(required=False, help_text="its LPAR that takes the work")
    single = SingleSerializer(allow_null=True, help_text="the cheapest single model that lasts, if any")
    binding = serializers.ListField(
        child=serializers.ChoiceField(choices=PLAN_BINDINGS),
        required=False,
        help_text="kind none: what stops the candidates; software-limit is raised by more instances or regions, "
        "not by a larger machine",
    )
    sentence = serializers.CharField()


class TableSerializer(serializers.Serializer[Any]):
    columns = serializers.ListField(child=serializers.CharField())
    rows = serializers.ListField(child=serializers.ListField(child=serializers.JSONField()))


class PlanResultSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=RESULT_KINDS)
    period = serializers.ChoiceField(choices=PlanPeriod.choices)
    horizon = serializers.IntegerField()
    periods = PlanPeriodSerializer(many=True)
    candidates = PlanCandidateSerializer(many=True)
    recommendation = RecommendationSerializer()
    table = TableSerializer()
    lpar_table = TableSerializer(
        required=False, help_text="with a machine candidate: one row per period, LPAR and pool, then the CEC's pools"
    )
