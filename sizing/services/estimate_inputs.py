"""What an estimate takes: the checked inputs of one sizing question.

One form for every way in (the estimate API, the workbench's chart data and the batch job's
rows), so that the same question is refused, or answered, the same way everywhere.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import (
    MaxLengthValidator,
    MaxValueValidator,
    MinLengthValidator,
    MinValueValidator,
    ProhibitNullCharactersValidator,
)
from rest_framework import serializers
from rest_framework.fields import empty
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from models_lib.capacity import MAX_CPS as CAPACITY_MAX_CPS
from models_lib.choice import OBJECTIVE_ALIASES, OBJECTIVES
from models_lib.regions import MAX_REGIONS
from sizing.records import EstimateInputs
from sizing.services.input_fields import FiniteFloatField, RejectUnknownFieldsMixin, StrictIntegerField

MAX_TPS = 10_000_000
MAX_PAYLOAD_BYTES = 64 * 1024 * 1024
#: The most CPs a request may give: z/OS's LPAR limit (``models_lib.capacity.MAX_CPS``, 256); which
#: counts a machine rates is the zPCR table's (9175-7K8: 208), checked with the target.
MAX_CPS = CAPACITY_MAX_CPS
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


# -- a batch row's cells: the form's answer without its machinery ------------------------------
#
# A batch checks every row with the form above; DRF's run_validation (a field object, its
# validators and error handling per cell) was a sixth of a batch row's time.  A row of plain cells
# (non-empty text, as a batch reads them) is checked here field by field with the form's own
# bounds, lengths, choices and ``validate_*`` methods; anything this does not accept outright
# (any error, any unusual spelling: a sign, non-ASCII text, a field of another kind) goes to the
# form, so a bad row gets the form's own errors, word for word.


class _Unsure(Exception):
    """The fast check does not accept a cell: the form decides (and words the error)."""


_CHAR_VALIDATORS = (MaxLengthValidator, MinLengthValidator, ProhibitNullCharactersValidator,
                    ProhibitSurrogateCharactersValidator)  # fmt: skip
_NUMBER_VALIDATORS = (MaxValueValidator, MinValueValidator)
#: Digits of a count read without the form: more goes to the form (its 1,000-character limit).
_INT_DIGITS = 18


def _bounds(field: Any) -> tuple[Any, Any]:
    return field.min_value, field.max_value


def _char(field: serializers.CharField) -> Callable[[str], str]:
    low, high = field.min_length, field.max_length

    def check(text: str) -> str:
        value = text.strip()
        # ASCII: no surrogates; a null character, a blank or a length out of bounds: the form says so
        if not value or not value.isascii() or "\x00" in value:
            raise _Unsure
        if (high is not None and len(value) > high) or (low is not None and len(value) < low):
            raise _Unsure
        return value

    return check


def _float(field: serializers.FloatField) -> Callable[[str], float]:
    low, high = _bounds(field)

    def check(text: str) -> float:
        if len(text) > field.MAX_STRING_LENGTH:
            raise _Unsure
        try:
            value = float(text)  # what FloatField reads (non-finite: the form's own sentence)
        except ValueError:
            raise _Unsure from None
        if not math.isfinite(value) or (low is not None and value < low) or (high is not None and value > high):
            raise _Unsure
        return value

    return check


def _integer(field: serializers.IntegerField) -> Callable[[str], int]:
    low, high = _bounds(field)

    def check(text: str) -> int:
        # plain ASCII digits only ("+3", "3.0", "1_000" are the form's to read)
        if not (text.isascii() and text.isdigit()) or len(text) > _INT_DIGITS:
            raise _Unsure
        value = int(text)
        if (low is not None and value < low) or (high is not None and value > high):
            raise _Unsure
        return value

    return check


def _choice(field: serializers.ChoiceField) -> Callable[[str], Any]:
    choices = dict(field.choice_strings_to_values)

    def check(text: str) -> Any:
        try:
            return choices[text]
        except KeyError:
            raise _Unsure from None

    return check


def _reader(field: serializers.Field[Any, Any, Any, Any]) -> Callable[[str], Any] | None:
    """How the fast check reads a cell of ``field`` (``None``: a field it leaves to the form)."""
    kinds = {type(v) for v in field.validators}
    if field.source != field.field_name or field.read_only:
        return None
    if type(field) is serializers.CharField and field.trim_whitespace and kinds <= set(_CHAR_VALIDATORS):
        return _char(field)
    if type(field) is FiniteFloatField and kinds <= set(_NUMBER_VALIDATORS):
        return _float(field)
    if type(field) is StrictIntegerField and kinds <= set(_NUMBER_VALIDATORS):
        return _integer(field)
    if type(field) is serializers.ChoiceField and not field.allow_blank and not field.validators:
        return _choice(field)
    return None


class _RowCheck:
    """:class:`EstimateInputSerializer` on a row of plain cells, as a table read from the form's fields."""

    def __init__(self, form: EstimateInputSerializer) -> None:
        self.form = form
        fields: dict[str, Any] = {str(name): field for name, field in form.fields.items()}
        self.readers = {name: _reader(field) for name, field in fields.items()}
        self.methods: dict[str, Callable[[Any], Any] | None] = {
            name: getattr(form, f"validate_{name}", None) for name in fields
        }
        self.required = tuple(name for name, field in fields.items() if field.required)
        # the defaults of the fields a row leaves out (``name``: ""), in the form's order
        self.defaults = {name: field.default for name, field in fields.items() if field.default is not empty}
        self.order = {name: n for n, name in enumerate(fields)}
        self.usable = not form.validators  # the form's own validators: none (validate() is run)

    def __call__(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The validated inputs, as ``run_validation`` returns them; :class:`_Unsure` where the
        form must decide."""
        if not self.usable:
            raise _Unsure
        for name in self.required:
            if name not in data:
                raise _Unsure
        # the target, and calibration or path and configuration (the form's to_internal_value)
        if "machine" not in data and "model" not in data:
            raise _Unsure
        given = "calibration" in data
        if given == ("path" in data) or given == ("configuration" in data):
            raise _Unsure
        values: dict[str, Any] = {}
        for name, text in data.items():
            reader = self.readers.get(name)  # an unknown field, or one of another kind: the form's
            if reader is None or type(text) is not str:
                raise _Unsure
            value = reader(text)
            method = self.methods[name]
            if method is not None:
                try:
                    value = method(value)
                except (serializers.ValidationError, DjangoValidationError):
                    raise _Unsure from None
            values[name] = value
        for name, default in self.defaults.items():
            if name not in values:
                if callable(default) or self.methods[name] is not None:
                    raise _Unsure  # a default computed or checked: the form's
                values[name] = default
        ordered = dict(sorted(values.items(), key=lambda item: self.order[item[0]]))
        try:
            return dict(self.form.validate(ordered))
        except (serializers.ValidationError, DjangoValidationError):
            raise _Unsure from None


def row_estimate_inputs(data: Mapping[str, str]) -> EstimateInputs:
    """A batch row's cells (non-empty text by column) checked as :func:`estimate_inputs` checks
    them: the same inputs, or the same ``serializers.ValidationError``.

    A row the fast check accepts outright is typed without DRF's machinery; any other row (an
    error, a spelling the check does not read itself) is checked by the form, which words the
    errors (``tests/sizing/test_row_inputs.py`` compares the two on good and bad rows)."""
    check = getattr(_forms, "row_check", None)
    if check is None:
        form = getattr(_forms, "estimate", None)
        if form is None:
            form = _forms.estimate = EstimateInputSerializer()
        check = _forms.row_check = _RowCheck(form)
    try:
        return EstimateInputs.from_dict(check(data))
    except _Unsure:
        return estimate_inputs(data)
