"""What an estimate takes: the checked inputs of one sizing question.

One form for every way in (the estimate API, the workbench's chart data and the batch job's
rows), so that the same question is refused, or answered, the same way everywhere.
"""

from __future__ import annotations

import threading
from typing import Any

from rest_framework import serializers

from models_lib.choice import OBJECTIVE_ALIASES, OBJECTIVES
from models_lib.regions import MAX_REGIONS
from sizing.records import EstimateInputs
from sizing.services.input_fields import FiniteFloatField, RejectUnknownFieldsMixin, StrictIntegerField

MAX_TPS = 10_000_000
MAX_PAYLOAD_BYTES = 64 * 1024 * 1024
MAX_CPS = 200
MAX_ZIIPS = 200
MAX_CLIENTS = 1_000_000
MAX_THINK_TIME_S = 3600.0
MAX_SLA_MS = 3_600_000.0
NO_TARGET = "Give a machine (e.g. z16) or a model capacity identifier as model (e.g. 3931-710)."


#: The objectives an input may name: the current names and their aliases (stored inputs load).
OBJECTIVE_CHOICES = [*OBJECTIVES, *OBJECTIVE_ALIASES]


class EstimateInputSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """What to size: a path, a configuration, a machine and a target TPS, plus optional inputs."""

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
        schema_bounds={"exclusiveMinimum": 0},
        min_value=0,
        max_value=MAX_TPS,
        help_text="Target transactions per second (> 0, at most 10,000,000)",
        # one sentence for every rate that is not positive (0 or negative), and a plain maximum
        error_messages={
            "min_value": "Must be greater than zero.",
            "max_value": f"Must be at most {MAX_TPS:,} transactions per second.",
        },
    )
    cps = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_CPS, help_text="GCPs in the LPAR (default: sized)"
    )
    ziips = StrictIntegerField(
        required=False, allow_null=True, min_value=0, max_value=MAX_ZIIPS, help_text="zIIPs (default: sized)"
    )
    max_utilization = FiniteFloatField(
        required=False,
        allow_null=True,
        schema_bounds={"exclusiveMinimum": 0, "maximum": 1},
        help_text="Utilisation ceiling in (0, 1] for CPs and zIIPs",
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
        required=False,
        allow_null=True,
        min_value=0,
        max_value=MAX_SLA_MS,
        schema_bounds={"exclusiveMinimum": 0},
        help_text="Response-time goal, ms",
    )
    projection_band = FiniteFloatField(
        schema_bounds={"minimum": 0, "exclusiveMaximum": 1},
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
        "the CICS CPU, e.g. 0.2; the LPAR is sized as CICS x (1 + lpar_overhead) (default: the overhead the "
        "source states, CICS TS 0.1645 from REDP-5320; a cics-only warning where none is stated)",
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
    smt2_factor = FiniteFloatField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2,
        help_text="SMT-2 on zIIPs: throughput of one zIIP core with two threads relative to one without, in "
        "[1, 2], e.g. 1.25 (IBM publishes no single factor; gains vary by workload). Applied only where the "
        "target runs SMT-2 on zIIPs (z13 and later); every answer says whether it was applied (default: not "
        "applied)",
    )
    cics_regions = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_REGIONS,
        help_text="CICS TS only: the CICS regions of the sized LPAR; the benchmark's fixed CPU (the intercept of its "
        "line, for its own 17 regions) is scaled to this count (default: the benchmark's, stated in the basis); a 400 "
        "for a path whose source publishes no region count",
    )
    objective = serializers.ChoiceField(
        choices=OBJECTIVE_CHOICES,
        required=False,
        allow_null=True,
        help_text="What the mix of CPs and zIIPs minimises: fewest-cps (default: the fewest CPs that carry the CP "
        "work within the ceiling, then the fewest zIIPs within the ratio), least-msu-consumed (least-msu is "
        "accepted for it: the MSU consumed, keeping eligible work on zIIPs, then the fewest engines), fewest-engines, "
        "or least-cost (the least total cost over the term from your price book, /api/v1/price-book; refused "
        "without one); the answer shows the other choice where it differs",
    )
    name = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")

    def to_internal_value(self, data: Any) -> Any:
        # path and configuration are required unless a calibration is given: named together with
        # any other field's error, as required fields are.
        errors: dict[str, Any] = {}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            errors = dict(exc.detail) if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
            value = {}
        if hasattr(data, "get") and data.get("machine") in (None, "") and data.get("model") in (None, ""):
            errors.setdefault("machine", [NO_TARGET])  # the target: a machine or a model
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

    def validate_objective(self, value: str | None) -> str | None:
        """An objective by its current name (``least-msu``, the name of issue 22, is ``least-msu-consumed``)."""
        return None if value is None else OBJECTIVE_ALIASES.get(value, value)

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
        return attrs


_forms = threading.local()


def validated_estimate_inputs(data: Any) -> dict[str, Any]:
    """``data`` checked by :class:`EstimateInputSerializer`: the validated inputs, or the
    ``serializers.ValidationError`` that ``is_valid(raise_exception=True)`` raises (the same
    details).

    One serializer per thread validates every request (``run_validation``, what ``is_valid()``
    runs): building one deep-copies its declared fields, a tenth of a cached estimate's time.
    """
    form = getattr(_forms, "estimate", None)
    if form is None:
        form = _forms.estimate = EstimateInputSerializer()
    return dict(form.run_validation(data))


def estimate_inputs(data: Any) -> EstimateInputs:
    """``data`` checked by :class:`EstimateInputSerializer` and typed: the question every way in
    (a request, a batch row) sizes, built once here (``serializers.ValidationError`` as
    :func:`validated_estimate_inputs` raises it)."""
    return EstimateInputs.from_dict(validated_estimate_inputs(data))
