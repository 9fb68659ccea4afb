"""Job request and response shapes.

A job is ``{"kind": ..., "params": {...}}``.  The parameters reuse the estimate's field names,
fields and limits (``EstimateInputSerializer``) plus each kind's own, and are checked in full at
submission, path, configuration and machine included, so a bad job answers 400 and stores
nothing.  Errors of the parameters are nested under ``params``:
``{"params": {"cps_list": ["..."]}}``; a list's entries by position:
``{"params": {"workloads": [{}, {"path": ["..."]}]}}``.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from models_lib.capacity import MAX_CPS
from sizing import presentation
from sizing.api.job_result_schema import JobResultField
from sizing.jobs.batch import OPTIONAL_COLUMNS, REQUIRED_COLUMNS, TARGET_COLUMNS, csv_reader
from sizing.jobs.mix import mix_workload
from sizing.jobs.workload import WorkloadModel, load_workload_for
from sizing.models import Job, JobKind, Machine
from sizing.records import JobResult, MixHeadroomRecord
from sizing.selectors.price_books import NO_BOOK, price_book_for
from sizing.selectors.targets import target_for
from sizing.services.estimate_inputs import EstimateInputSerializer
from sizing.services.estimates import engine_error, resolve_configuration
from sizing.services.input_fields import (
    ERROR_NAMES_SHOWN,
    BoundedListField,
    FiniteFloatField,
    RejectUnknownFieldsMixin,
    StrictIntegerField,
)

#: Limits sized for a 2-core worker (see docs/jobs.md).
MAX_CLIENTS = 50_000
MAX_CLIENT_COUNTS = 200
MAX_SAMPLES = 100_000
MIN_SAMPLES = 100
MAX_CURVE_CPS = MAX_CPS  # the largest CP count rated (zPCR export: up to 256 CPs on the newest)
MAX_CURVE_SERIES = 40  # CP counts per curve job: one series each
MAX_BATCH_ROWS = 5_000
MAX_BATCH_BYTES = 2 * 1024 * 1024
#: Columns read from a batch's header (the named columns are far fewer): a wider header is
#: refused before anything else looks at it.
MAX_BATCH_COLUMNS = 100
MAX_WORKLOADS = 20
MAX_ZIIPS = 2 * MAX_CPS
#: Largest cost weight of one engine: any currency's price, and a sum over 600 engines stays finite.
MAX_COST = 1e12


def estimate_field(name: str, **overrides: Any) -> serializers.Field[Any, Any, Any, Any]:
    """A fresh copy of one of the estimate's fields (same type, limits and help), with overrides."""
    field = EstimateInputSerializer._declared_fields[name]
    # Field.__new__ keeps the constructor's arguments (DRF deep-copies fields with them); the stubs omit them.
    args: tuple[Any, ...] = field._args  # type: ignore[attr-defined]
    kwargs: dict[str, Any] = field._kwargs  # type: ignore[attr-defined]
    return type(field)(*args, **{**kwargs, **overrides})


class ParamsSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """Parameters of one kind: unknown keys are errors (a typo must not be silently ignored),
    and optional parameters left out or null are not stored."""

    ignored_keys: frozenset[str] = frozenset()
    unknown_message = "Unknown parameter for this job kind. Allowed: {allowed}."

    # The estimate's own checks, for the fields that are shared.
    validate_tps = EstimateInputSerializer.validate_tps
    validate_max_utilization = EstimateInputSerializer.validate_max_utilization
    validate_response_time_sla_ms = EstimateInputSerializer.validate_response_time_sla_ms
    validate_projection_band = EstimateInputSerializer.validate_projection_band

    def resolve(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Check path, configuration and target against what the owner may see; store their slugs.

        A ``model`` (``3931-510``) stands for its machine and capacity setting, and for its CPs
        where the kind takes one CP count and none was given; the stored params name the machine
        slug, the model and a sub-capacity setting as resolved.
        """
        if not attrs.get("machine") and not attrs.get("model"):
            raise serializers.ValidationError(
                {"machine": ["Give a machine (e.g. z16) or a model capacity identifier as model (e.g. 3931-710)."]}
            )
        cps = attrs.get("cps") if "cps" in self.fields else None
        try:
            config_row = resolve_configuration(
                user=self.context["user"], path=attrs["path"], configuration=attrs["configuration"]
            )
            target = target_for(
                machine=attrs.get("machine"),
                model=attrs.get("model"),
                capacity_setting=attrs.get("capacity_setting"),
                cps=cps,
            )
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.message_dict) from None
        attrs.pop("model", None)
        attrs.pop("capacity_setting", None)
        attrs.update(path=config_row.path.slug, configuration=config_row.slug, **target.inputs())
        fixed = target.model.cps is not None and "cps" in self.fields
        if fixed and attrs.get("cps") is None and not attrs.get("cps_list"):
            attrs["cps"] = target.model.cps
        return attrs

    def check_rated(self, attrs: dict[str, Any], *, field: str, counts: list[int]) -> None:
        """Each CP count the job will size must be one the estimate takes on this target (rated
        at its setting, the model's own with a model), or a 400 on ``field`` naming the bad ones."""
        problems: list[str] = []
        for cps in counts:
            try:
                target_for(
                    machine=attrs.get("machine"),
                    model=attrs.get("model"),
                    capacity_setting=attrs.get("capacity_setting"),
                    cps=cps,
                )
            except DjangoValidationError as exc:
                problems.extend(m for messages in exc.message_dict.values() for m in messages)
        if problems:
            raise serializers.ValidationError({field: problems})

    def check_computable(self, attrs: dict[str, Any]) -> WorkloadModel:
        """Load and fit the workload as the job will (the engine's own checks of the payload, the
        engine options and the configuration's data), or a 400 naming the field at fault."""
        try:
            return load_workload_for(owner=self.context["user"], params=attrs, tps=attrs.get("tps"))
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.message_dict) from None
        except ValueError as exc:
            raise serializers.ValidationError(engine_error(exc, default_field="configuration").message_dict) from None


class TargetParams(ParamsSerializer):
    path = estimate_field("path", required=True)
    configuration = estimate_field("configuration", required=True)
    machine = estimate_field("machine")
    model = estimate_field("model")
    capacity_setting = estimate_field("capacity_setting")
    max_utilization = estimate_field("max_utilization")
    payload_bytes = estimate_field("payload_bytes")
    response_time_sla_ms = estimate_field("response_time_sla_ms")
    # The engine's options, as the estimate takes them (sizing.jobs.workload.ENGINE_OPTIONS).
    projection_band = estimate_field("projection_band")
    lpar_overhead = estimate_field("lpar_overhead")
    server_share = estimate_field("server_share")
    objective = estimate_field("objective")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Resolved as the estimate resolves it, and checked computable: an accepted job can run."""
        attrs = self.resolve(attrs)
        self.check_rated(attrs, field="cps_list", counts=attrs.get("cps_list") or [])
        self.check_workload(self.check_computable(attrs), attrs)
        return attrs

    def check_workload(self, workload: WorkloadModel, attrs: dict[str, Any]) -> None:
        """A kind's own check of the loaded workload (none by default)."""


class CurveParams(TargetParams):
    """Utilisation and response time against TPS for each CP count of ``cps_list``."""

    cps_list = BoundedListField(
        child=StrictIntegerField(min_value=1, max_value=MAX_CURVE_CPS),
        min_length=1,
        max_length=MAX_CURVE_SERIES,
        required=False,
        help_text=f"CP counts to draw (each rated on the target), at most {MAX_CURVE_SERIES} of them",
    )
    cps = estimate_field("cps", max_value=MAX_CURVE_CPS, help_text="One CP count (instead of cps_list)")
    ziips = estimate_field("ziips", max_value=MAX_ZIIPS, help_text="zIIPs (default: sized to the load at each rate)")
    tps = estimate_field("tps", required=False, help_text="A rate to mark on each curve, TPS")
    points = StrictIntegerField(required=False, min_value=10, max_value=200, help_text="Rates per curve (default 50)")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = self.resolve(attrs)  # a model gives its CP count
        if not attrs.get("cps_list"):
            if attrs.get("cps") is None:
                raise serializers.ValidationError(
                    {"cps_list": [f"Give cps_list (at most {MAX_CURVE_SERIES} CP counts) or cps."]}
                )
            attrs["cps_list"] = [attrs.pop("cps")]
        elif attrs.get("cps") is not None:
            raise serializers.ValidationError({"cps": ["Give either cps or cps_list, not both."]})
        attrs["cps_list"] = sorted(set(attrs["cps_list"]))
        return super().validate(attrs)


class ClosedParams(TargetParams):
    """A closed network: ``clients`` with ``think_time_s`` on ``cps`` CPs (and ``ziips`` zIIPs)."""

    cps = estimate_field("cps", required=True, allow_null=False, max_value=MAX_CPS, help_text="GCPs in the LPAR")
    ziips = estimate_field(
        "ziips",
        max_value=MAX_ZIIPS,
        help_text="zIIPs in the LPAR (default: what the estimate sizes for N / Z, within the ratio)",
    )
    clients = BoundedListField(
        child=StrictIntegerField(min_value=1, max_value=MAX_CLIENTS),
        min_length=1,
        max_length=MAX_CLIENT_COUNTS,
        help_text="Client counts, each 1..50,000, at most 200 of them",
    )
    think_time_s = estimate_field("think_time_s", required=True, allow_null=False)

    def check_workload(self, workload: WorkloadModel, attrs: dict[str, Any]) -> None:
        if workload.response is None:
            raise serializers.ValidationError(
                {
                    "configuration": [
                        f"{workload.path}/{workload.configuration} has no response model (no published "
                        "response times), so it cannot be run as a closed network."
                    ]
                }
            )

    tps = estimate_field(
        "tps",
        required=False,
        help_text="Rate the network is taken at, as the estimate's tps: the fixed load is spread over it and the "
        "zIIPs' share of the eligible work is split at it (default: the rate the largest population drives)",
    )


class MonteCarloParams(TargetParams):
    """Uncertainty of the sizing at ``tps``."""

    tps = estimate_field("tps")
    cps = estimate_field("cps", max_value=MAX_CPS, help_text="CPs to judge (default: the central sizing's)")
    ziips = estimate_field("ziips", max_value=MAX_ZIIPS)
    samples = StrictIntegerField(
        required=False, min_value=MIN_SAMPLES, max_value=MAX_SAMPLES, help_text="Samples, 100..100,000 (default 10,000)"
    )
    seed = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=2**32 - 1,
        help_text="Random seed (default: drawn, and reported)",
    )


class CostsSerializer(ParamsSerializer):
    gcp = FiniteFloatField(min_value=0, max_value=MAX_COST, help_text="Cost of one general-purpose CP")
    ziip = FiniteFloatField(min_value=0, max_value=MAX_COST, help_text="Cost of one zIIP")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["gcp"] <= 0:
            raise serializers.ValidationError({"gcp": ["Must be greater than zero: a CP is never free."]})
        return attrs


class OptimizeParams(TargetParams):
    """The cheapest CP and zIIP counts for ``tps``."""

    tps = estimate_field("tps")
    costs = CostsSerializer(
        required=False,
        help_text='Cost weights, e.g. {"gcp": 1.0, "ziip": 0.3}; or leave out and give objective least-cost: each '
        "mix's total over the term from your price book (/api/v1/price-book)",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        least_cost = attrs.get("objective") == "least-cost"
        if attrs.get("costs") is None and not least_cost:
            raise serializers.ValidationError(
                {"costs": ['Give cost weights, e.g. {"gcp": 1.0, "ziip": 0.3}, or objective least-cost.']}
            )
        if attrs.get("costs") is not None and least_cost:
            raise serializers.ValidationError(
                {"costs": ["least-cost prices mixes from your price book: leave costs out."]}
            )
        return super().validate(attrs)

    max_cps = StrictIntegerField(
        required=False, min_value=1, max_value=MAX_CPS, help_text="Largest CP count to consider"
    )
    max_ziips = StrictIntegerField(required=False, min_value=0, max_value=MAX_ZIIPS, help_text="Most zIIPs to consider")


class WorkloadParams(ParamsSerializer):
    path = estimate_field("path", required=True)
    configuration = estimate_field("configuration", required=True)
    tps = estimate_field("tps")
    payload_bytes = estimate_field("payload_bytes")
    response_time_sla_ms = estimate_field("response_time_sla_ms")


class MixParams(ParamsSerializer):
    """Several workloads on one LPAR of ``machine``."""

    machine = estimate_field("machine", required=True)
    cps = estimate_field("cps", max_value=MAX_CPS, help_text="GCPs in the LPAR (default: sized)")
    ziips = estimate_field("ziips", max_value=MAX_ZIIPS, help_text="zIIPs (default: sized)")
    max_utilization = estimate_field("max_utilization")
    objective = estimate_field("objective")
    # many=True hands min_length/max_length to the ListSerializer; the stubs type only the child's arguments.
    workloads = WorkloadParams(many=True, min_length=1, max_length=MAX_WORKLOADS, allow_empty=False)  # type: ignore[call-arg]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("objective") == "least-cost" and price_book_for(user=self.context["user"]) is None:
            raise serializers.ValidationError({"objective": [NO_BOOK]})
        errors: list[dict[str, Any]] = []
        for entry in attrs["workloads"]:
            try:
                resolved = self.resolve({**entry, "machine": attrs["machine"]})
            except serializers.ValidationError as exc:
                errors.append(exc.detail)  # type: ignore[arg-type]
                continue
            errors.append({})
            entry.update(path=resolved["path"], configuration=resolved["configuration"])
        if any(errors):
            raise serializers.ValidationError({"workloads": errors})
        if attrs.get("cps") is not None:
            self.check_rated(attrs, field="cps", counts=[attrs["cps"]])
        attrs["workloads"] = [{k: v for k, v in e.items() if v is not None} for e in attrs["workloads"]]
        # Each workload loaded as the job will load it (the engine's own checks).
        loaded: list[dict[str, Any]] = []
        for entry in attrs["workloads"]:
            try:
                mix_workload(owner=self.context["user"], params=attrs, entry=entry)
            except DjangoValidationError as exc:
                loaded.append(exc.message_dict)
            except ValueError as exc:
                loaded.append(engine_error(exc, default_field="configuration").message_dict)
            else:
                loaded.append({})
        if any(loaded):
            raise serializers.ValidationError({"workloads": loaded})
        return attrs

    def validate_machine(self, value: str) -> str:
        row = Machine.objects.filter(slug__iexact=value).first()
        if row is None:
            known = ", ".join(Machine.objects.order_by("slug").values_list("slug", flat=True))
            raise serializers.ValidationError(f"Unknown machine {value!r}. Known machines: {known}.")
        return row.slug


class BatchParams(ParamsSerializer):
    """Scenarios as CSV text: a header row of estimate field names, one scenario per row."""

    csv = serializers.CharField(
        trim_whitespace=False,
        max_length=MAX_BATCH_BYTES,
        help_text="CSV with a header row: path, configuration, machine, tps and any optional estimate field",
    )

    def validate_csv(self, value: str) -> str:
        header, rows = _count_csv(value)
        if not any(header):
            raise serializers.ValidationError("The first row must be a header naming estimate fields.")
        allowed = REQUIRED_COLUMNS + OPTIONAL_COLUMNS
        known = set(allowed)
        present = set(header)
        missing = [c for c in REQUIRED_COLUMNS if c not in present]
        if not present.intersection(TARGET_COLUMNS):
            missing.append(" or ".join(TARGET_COLUMNS))
        unknown = [c for c in header if c not in known]
        seen: set[str] = set()
        repeated: list[str] = []
        for column in header:  # one pass: linear in the header's width
            if column in seen and column not in repeated:
                repeated.append(column)
            seen.add(column)
        problems = []
        if missing:
            problems.append(f"the header lacks {', '.join(missing)}")
        if unknown:
            problems.append(f"unknown column(s) {first_few(unknown)} (allowed: {', '.join(allowed)})")
        if repeated:
            problems.append(f"repeated column(s) {first_few(sorted(repeated))}")
        if problems:
            raise serializers.ValidationError("; ".join(problems).capitalize() + ".")
        if rows == 0:
            raise serializers.ValidationError("There are no scenario rows after the header.")
        if rows > MAX_BATCH_ROWS:
            raise serializers.ValidationError(f"At most {MAX_BATCH_ROWS} rows per batch; this one has more.")
        return value


def first_few(names: list[str], shown: int = ERROR_NAMES_SHOWN) -> str:
    """The first ``shown`` names (quoted, each cut to 40 characters) and how many more: an error
    body stays short whatever the input's size."""
    quoted = ", ".join(repr(n if len(n) <= 40 else n[:40] + "...") for n in names[:shown])
    rest = len(names) - shown
    return f"{quoted} and {rest:,} more" if rest > 0 else quoted


def _count_csv(value: str) -> tuple[list[str], int]:
    """The header and the number of non-blank rows, read once; broken quoting is refused with its
    line.  The header's width, a cell's length and the row count are capped as they are read (the
    reading stops at the first row over ``MAX_BATCH_ROWS``), so the work is linear in the body."""
    reader = csv_reader(value)
    header: list[str] | None = None
    rows = 0
    start = 1  # the line the next record starts on (a quoted cell may span lines)
    try:
        for record in reader:
            if header is None:
                if len(record) > MAX_BATCH_COLUMNS:
                    raise serializers.ValidationError(
                        f"The header has {len(record):,} columns; at most {MAX_BATCH_COLUMNS} are read "
                        f"(a batch takes {len(REQUIRED_COLUMNS + OPTIONAL_COLUMNS)} named columns)."
                    )
                header = [h.strip().lower() for h in record]
            elif any(cell.strip() for cell in record):
                if len(record) > MAX_BATCH_COLUMNS:
                    raise serializers.ValidationError(
                        f"Line {start} has {len(record):,} cells; at most {MAX_BATCH_COLUMNS} are read."
                    )
                rows += 1
                if rows > MAX_BATCH_ROWS:
                    break
            start = reader.line_num + 1
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise serializers.ValidationError(
                f"A cell of the record that starts on line {start} is longer than {csv.field_size_limit():,} "
                "characters."
            ) from None
        raise serializers.ValidationError(
            f"Broken CSV quoting in the record that starts on line {start} (read to line {reader.line_num}): {exc}."
        ) from None
    return header or [], rows


PARAMS_SERIALIZERS: dict[str, type[ParamsSerializer]] = {
    JobKind.CURVE: CurveParams,
    JobKind.CLOSED: ClosedParams,
    JobKind.MONTECARLO: MonteCarloParams,
    JobKind.OPTIMIZE: OptimizeParams,
    JobKind.MIX: MixParams,
    JobKind.BATCH: BatchParams,
}


class JobSubmitSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """``{"kind": ..., "params": {...}}``; ``params`` are checked by the kind's serializer."""

    kind = serializers.ChoiceField(choices=JobKind.choices)
    params = serializers.DictField(help_text="Parameters of the kind (see the kind's schema)")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["kind"] not in PARAMS_SERIALIZERS:  # a plan is submitted as a plan, not as a job
            raise serializers.ValidationError({"kind": ["Submit a plan to /api/v1/plans/."]})
        params = PARAMS_SERIALIZERS[attrs["kind"]](data=attrs["params"], context=self.context)
        if not params.is_valid():
            raise serializers.ValidationError({"params": params.errors})
        attrs["params"] = _stored(params.validated_data)
        return attrs


def _stored(value: Any) -> Any:
    """Validated parameters as stored: plain JSON, optional parameters left out when null."""
    if isinstance(value, Mapping):
        return {k: _stored(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_stored(v) for v in value]
    return value


class JobSerializer(serializers.ModelSerializer[Job]):
    """A job as the API shows it (without its result: see :class:`JobDetailSerializer`)."""

    url = serializers.HyperlinkedIdentityField(view_name="job-detail")
    result_csv_url = serializers.SerializerMethodField(help_text="CSV of the result table, once succeeded")
    result_xlsx_url = serializers.SerializerMethodField(
        help_text="The result table as an Excel workbook, once succeeded"
    )

    class Meta:
        model = Job
        fields = [
            "id", "url", "kind", "status", "progress", "params", "error", "worker_host", "attempts",
            "model_version", "created_at", "started_at", "last_started_at", "finished_at", "result_csv_url",
            "result_xlsx_url",
        ]  # fmt: skip
        read_only_fields = fields

    def _table_link(self, job: Job, name: str) -> str | None:
        if job.status != "succeeded":
            return None
        request = self.context.get("request")
        path = reverse(name, kwargs={"pk": job.pk})
        return request.build_absolute_uri(path) if request is not None else path

    def get_result_csv_url(self, job: Job) -> str | None:
        return self._table_link(job, "job-result-csv")

    def get_result_xlsx_url(self, job: Job) -> str | None:
        return self._table_link(job, "job-result-xlsx")


#: Rows of the result table a job's page shows (the CSV has them all).
DISPLAY_ROWS = 500

#: Kinds whose result table the page shows in words (``presentation.JOB_COLUMNS``), as it is; a
#: batch's is its scenarios as the PDF prints them (``presentation.batch_table``).
DISPLAY_TABLE_KINDS = frozenset({"curve", "closed", "montecarlo", "optimize", "mix"})


class JobDisplayTableSerializer(serializers.Serializer[Any]):
    """A job's result table in words: headers with units, cells formatted (``presentation.job_table``)."""

    columns = serializers.ListField(child=serializers.CharField(), help_text="Headers, e.g. 'zAAP utilisation'")
    numeric = serializers.ListField(child=serializers.BooleanField(), help_text="Which columns are numbers")
    rows = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text=f"Cells as printed ('82%', '7,095'), at most {DISPLAY_ROWS} rows",
    )
    total_rows = serializers.IntegerField(help_text="Rows of the whole table (result.csv)")
    note = serializers.CharField(
        allow_blank=True,
        help_text="Under the table where it is cut short: 'The first 500 of 1,234 rows; all are in the CSV.' "
        "(empty where every row is shown)",
    )


class JobDisplayChartSerializer(serializers.Serializer[Any]):
    """A job's chart in words (``presentation.batch_chart``): the PDF's caption and axis titles."""

    caption = serializers.CharField(help_text="'CPs required by each scenario.'")
    x_title = serializers.CharField(help_text="The horizontal axis, e.g. 'Scenario (row)'")
    y_title = serializers.CharField(help_text="The vertical axis, e.g. 'CPs required'")
    labels = serializers.ListField(
        child=serializers.CharField(), help_text="Each bar's label: '3. Peak (does not fit)'"
    )
    values = serializers.ListField(
        child=serializers.FloatField(allow_null=True), help_text="Each bar's value (null: no bar)"
    )


class JobWarningSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="The warning's code, as in the result's warnings")
    level = serializers.ChoiceField(choices=["decision", "caveat", "note"])
    sentence = serializers.CharField(help_text="The warning in a sentence, as the page and the PDF say it")
    details = serializers.CharField(allow_blank=True, help_text="The engine's reasoning, in the customer's words")


class JobDisplaySerializer(serializers.Serializer[Any]):
    """Sentences of the answer as a person reads them (``sizing.presentation``), the same words
    as the job's PDF."""

    warnings = JobWarningSerializer(
        many=True,
        help_text="The job's warnings in sentences, decisions first, as the job's PDF says them (empty before success)",
    )

    headroom = serializers.CharField(
        allow_null=True, help_text="A mix: how far every rate can grow within the CP ceiling (null otherwise)"
    )
    table = JobDisplayTableSerializer(
        allow_null=True,
        help_text="The result table as the page and the PDF print it (null before success); a batch's "
        "scenarios as its PDF prints them, not its CSV's columns",
    )
    summary = serializers.CharField(
        allow_null=True,
        help_text="A batch: its rows by status in one sentence, the PDF's summary (null otherwise)",
    )
    chart = JobDisplayChartSerializer(
        allow_null=True, help_text="A batch: the CPs of each scenario as its PDF draws them (null otherwise)"
    )


class JobDetailSerializer(JobSerializer):
    result = JobResultField(
        read_only=True,
        allow_null=True,
        help_text="The kind's answer once succeeded (one shape per kind, told by its kind; docs/jobs.md); "
        "always has a table {columns, rows} that result.csv serves",
    )

    display = serializers.SerializerMethodField(help_text="The answer's sentences as the page and the PDF say them")

    class Meta(JobSerializer.Meta):
        fields = [*JobSerializer.Meta.fields, "result", "display"]
        read_only_fields = fields

    @extend_schema_field(JobDisplaySerializer)
    def get_display(self, job: Job) -> dict[str, Any]:
        from sizing.services.reports import product_names, result_with_engine

        result = result_with_engine(job) if job.status == "succeeded" and isinstance(job.result, Mapping) else None
        if result is None:
            return {"warnings": [], "headroom": None, "table": None, "summary": None, "chart": None}
        headroom = presentation.mix_headroom(MixHeadroomRecord.from_result(result)) if job.kind == JobKind.MIX else None
        request = self.context.get("request")
        names = product_names(request.user) if request is not None else None
        typed = JobResult.from_dict(result)
        warnings = [w.as_dict() for w in presentation.job_warnings(typed, names or presentation.NO_NAMES)]
        if job.kind == JobKind.BATCH:
            shown = presentation.batch_table(typed, names, limit=DISPLAY_ROWS)
            return {
                "warnings": warnings,
                "headroom": headroom,
                "table": {
                    "columns": shown.columns,
                    "numeric": shown.numeric,
                    "rows": shown.rows,
                    "total_rows": len(typed.table_rows),
                    "note": shown.note,
                },
                "summary": presentation.batch_summary(typed.rows, typed.counts, typed.succeeded, typed.failed),
                "chart": asdict(presentation.batch_chart(typed)),
            }
        none = {"warnings": warnings, "headroom": headroom, "summary": None, "chart": None}
        table = result.get("table") if job.kind in DISPLAY_TABLE_KINDS else None
        if not isinstance(table, Mapping) or not table.get("columns"):
            return {**none, "table": None}
        columns, rows = list(table["columns"]), list(table.get("rows") or [])
        header, body = presentation.job_table(
            columns, rows[:DISPLAY_ROWS], str(result.get("specialty_engine") or "zIIP"), names
        )
        return {
            **none,
            "table": {
                "columns": header,
                "numeric": presentation.job_numeric(columns),
                "rows": body,
                "total_rows": len(rows),
                "note": presentation.rows_shown(len(body), len(rows)),
            },
        }


def submit_doc_serializers() -> dict[str, serializers.Serializer[Any] | type[serializers.Serializer[Any]]]:
    """One request schema per kind (for the OpenAPI document): ``kind`` fixed, ``params`` typed."""
    out: dict[str, serializers.Serializer[Any] | type[serializers.Serializer[Any]]] = {}
    for kind, params in PARAMS_SERIALIZERS.items():
        name = f"{kind.capitalize()}JobRequest"
        out[str(kind)] = type(
            name,
            (serializers.Serializer,),
            {
                "kind": serializers.CharField(help_text=f'"{kind}"'),
                "params": params(),
                "__doc__": f"Submit a {kind} job: {(params.__doc__ or '').strip()}",
            },
        )
    return out
