"""Stored records: published reference data with provenance, and users' estimates and jobs.

Reference data are loaded from ``benchmarks/`` by ``manage.py load_benchmarks`` and matched on
their stable keys; nothing here computes anything (that lives in ``sizing.services`` and
``models_lib``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower


class Visibility(models.TextChoices):
    PUBLISHED = "published", "Published"
    PRIVATE = "private", "Private"


class SourceDocument(models.Model):
    """A published document that reference data were transcribed from."""

    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=300)
    publisher = models.CharField(max_length=120)
    identifier = models.CharField(max_length=60, blank=True, help_text="e.g. REDP-5114")
    published = models.CharField(max_length=10, blank=True, help_text="YYYY, YYYY-MM or YYYY-MM-DD")
    authors = models.JSONField(default=list, blank=True)
    seed_file = models.CharField(max_length=200, help_text="File name in shared/seeds/")
    data_file = models.CharField(max_length=200, help_text="File in benchmarks/ it was loaded from")
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return f"{self.identifier or self.slug}: {self.title}"


class Machine(models.Model):
    slug = models.SlugField(max_length=20, unique=True)
    name = models.CharField(max_length=100)
    machine_type = models.CharField(max_length=4, unique=True, help_text="IBM machine type, e.g. 2964")
    generation = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["-machine_type"]

    def __str__(self) -> str:
        return f"{self.name} ({self.machine_type})"


class CapacityRating(models.Model):
    """LSPR rating of one model: ``machine`` at ``capacity_setting`` with ``cps`` general-purpose CPs."""

    machine = models.ForeignKey(Machine, on_delete=models.CASCADE, related_name="ratings")
    model = models.CharField(max_length=20, help_text="Model capacity identifier, e.g. 3931-710 or 9176-D05")
    capacity_setting = models.CharField(
        max_length=3, help_text="700 (full speed), 400/500/600 (sub-capacity) or A00..Z00 (midrange)"
    )
    cps = models.PositiveSmallIntegerField()
    mips = models.FloatField(help_text="MIPS")
    msu = models.FloatField(help_text="MSU per hour")
    source = models.ForeignKey(SourceDocument, on_delete=models.PROTECT, related_name="ratings")

    class Meta:
        ordering = ["machine__slug", "capacity_setting", "cps"]
        constraints = [
            models.UniqueConstraint(
                fields=["machine", "capacity_setting", "cps"], name="rating_unique_machine_setting_cps"
            ),
            models.CheckConstraint(condition=Q(cps__gte=1), name="rating_cps_positive"),
            models.CheckConstraint(condition=Q(mips__gt=0) & Q(msu__gt=0), name="rating_positive"),
        ]
        indexes = [models.Index(fields=["model"], name="rating_model_idx")]

    def __str__(self) -> str:
        return f"{self.model}: {self.mips:g} MIPS"


class JavaEngine(models.TextChoices):
    ZAAP = "zaap", "zAAP"
    ZIIP = "ziip", "zIIP"


class EngineRule(models.Model):
    """Specialty-engine rules of one machine generation, with the documents they come from.

    ``unconfirmed`` names the fields no cited document supports (stored, but not IBM's word).
    """

    generation = models.CharField(max_length=40, unique=True, help_text="e.g. z16 (as in the LSPR export)")
    machine_types = models.JSONField(default=list, help_text="IBM machine types of the generation")
    java_engine = models.CharField(max_length=4, choices=JavaEngine.choices)
    ziips_per_cp = models.FloatField(help_text="Most zIIPs per CP")
    zaaps_per_cp = models.FloatField(null=True, blank=True, help_text="Most zAAPs per CP; null: no zAAPs")
    min_cps_per_lpar = models.PositiveSmallIntegerField(default=1)
    specialty_full_speed = models.BooleanField(default=True)
    smt2_ziip = models.BooleanField(default=False)
    smt2_throughput_factor = models.FloatField(null=True, blank=True, help_text="null where not published")
    references = models.JSONField(default=list, help_text="[{title, url, text, supports}]")
    reference_text = models.CharField(max_length=400)
    unconfirmed = models.JSONField(default=list, blank=True)
    max_engines = models.JSONField(
        default=dict,
        blank=True,
        help_text="Machine type -> most engines (CPs + specialty engines) of its largest model; null: not stated",
    )
    alternatives = models.JSONField(
        default=dict, blank=True, help_text="Unconfirmed field -> the other rule a planner may expect"
    )
    notes = models.TextField(blank=True)
    source = models.ForeignKey(SourceDocument, on_delete=models.PROTECT, related_name="engine_rules")

    class Meta:
        ordering = ["generation"]
        constraints = [
            models.CheckConstraint(condition=Q(ziips_per_cp__gt=0), name="engine_rule_ziips_per_cp_positive"),
            models.CheckConstraint(
                condition=Q(java_engine="ziip") | Q(zaaps_per_cp__gt=0), name="engine_rule_zaap_needs_ratio"
            ),
            models.CheckConstraint(condition=Q(min_cps_per_lpar__gte=1), name="engine_rule_min_one_cp"),
        ]

    def __str__(self) -> str:
        return f"{self.generation}: {self.java_engine}, {self.ziips_per_cp:g} zIIP/CP"


class Path(models.Model):
    """A workload path (e.g. z/OS Connect EE into CICS)."""

    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    native_machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="native_paths")
    source = models.ForeignKey(SourceDocument, on_delete=models.PROTECT, related_name="paths")

    class Meta:
        ordering = ["slug"]
        constraints = [models.UniqueConstraint(Lower("slug"), name="path_slug_ci_unique")]

    def __str__(self) -> str:
        return self.slug


class Configuration(models.Model):
    """One measured configuration of a path.

    Published configurations come from ``benchmarks/``; private ones (an owner's own
    calibration) have an owner and are visible to that owner only.
    """

    path = models.ForeignKey(Path, on_delete=models.CASCADE, related_name="configurations")
    slug = models.SlugField(max_length=60)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    attributes = models.JSONField(default=dict, blank=True)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PUBLISHED)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="configurations"
    )

    class Meta:
        ordering = ["path__slug", "slug"]
        constraints = [
            models.UniqueConstraint("path", Lower("slug"), name="configuration_slug_ci_unique"),
            models.CheckConstraint(
                condition=Q(visibility="published", owner__isnull=True) | Q(visibility="private", owner__isnull=False),
                name="configuration_private_has_owner",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.path.slug}/{self.slug}"


class MetricName(models.TextChoices):
    CICS_CPU = "cics_cpu", "CICS address spaces CPU"
    LPAR_CPU = "lpar_cpu", "LPAR busy"
    SMSVSAM_CPU = "smsvsam_cpu", "SMSVSAM CPU"
    CF_CPU = "cf_cpu", "Coupling facility busy"
    TOR_CPU = "tor_cpu", "TOR CPU"
    AOR_CPU = "aor_cpu", "AOR CPU"
    FOR_CPU = "for_cpu", "FOR CPU"
    CICS_CPU_PER_TRAN = "cics_cpu_per_tran", "CICS CPU per transaction"
    LPAR_CPU_PER_TRAN = "lpar_cpu_per_tran", "LPAR CPU per transaction"
    CTG_ZAAP_ELIGIBLE = "ctg_zaap_eligible", "CICS TG CPU zAAP-eligible share"
    TSTG_ZAAP_ELIGIBLE = "tstg_zaap_eligible", "CICS TS + TG CPU zAAP-eligible share"
    GCP_LOAD = "gcp_load", "Share of CICS TS + TG CPU on GCPs"
    GCP_SAVING_VS_EXCI = "gcp_saving_vs_exci", "GCP saving against EXCI"


class MetricUnit(models.TextChoices):
    PCT_ONE_CP = "pct_one_cp", "% of one CP (APPL%)"
    PCT_OF_POOL = "pct_of_pool", "% of a pool of engines"
    PCT_SHARE = "pct_share", "share in %"
    US_PER_TRAN = "us_per_tran", "µs of one CP per transaction"
    MS_PER_TRAN = "ms_per_tran", "ms of one CP per transaction"


class BenchmarkPoint(models.Model):
    """One published measurement (a table row) with every CPU figure the source gives."""

    source = models.ForeignKey(SourceDocument, on_delete=models.PROTECT, related_name="points")
    key = models.CharField(max_length=80, help_text="Stable key within the source file")
    configuration = models.ForeignKey(Configuration, on_delete=models.PROTECT, related_name="points")
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="points")
    reference = models.JSONField(default=dict, help_text="table / figure / section / page")
    reference_text = models.CharField(max_length=200)
    lpar_cps = models.PositiveSmallIntegerField(null=True, blank=True)
    ziips = models.PositiveSmallIntegerField(default=0)
    zaaps = models.PositiveSmallIntegerField(default=0)
    clients = models.PositiveIntegerField(null=True, blank=True)
    think_time_s = models.FloatField(null=True, blank=True, help_text="seconds")
    request_bytes = models.BigIntegerField(null=True, blank=True)
    response_bytes = models.BigIntegerField(null=True, blank=True)
    etr = models.FloatField(help_text="transactions per second")
    etr_approximate = models.BooleanField(default=False)
    response_time_ms = models.FloatField(null=True, blank=True, help_text="milliseconds")
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["configuration__path__slug", "configuration__slug", "etr"]
        constraints = [
            models.UniqueConstraint(fields=["source", "key"], name="point_unique_source_key"),
            models.CheckConstraint(condition=Q(etr__gt=0), name="point_etr_positive"),
            models.CheckConstraint(
                condition=Q(response_time_ms__isnull=True) | Q(response_time_ms__gte=0),
                name="point_response_time_nonnegative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.configuration} @ {self.etr:g} TPS ({self.reference_text})"


class PointMetric(models.Model):
    point = models.ForeignKey(BenchmarkPoint, on_delete=models.CASCADE, related_name="metrics")
    name = models.CharField(max_length=40, choices=MetricName.choices)
    value = models.FloatField()
    unit = models.CharField(max_length=20, choices=MetricUnit.choices)
    engines = models.PositiveSmallIntegerField(null=True, blank=True, help_text="pool size for pct_of_pool")

    class Meta:
        ordering = ["point", "name"]
        constraints = [
            models.UniqueConstraint(fields=["point", "name"], name="metric_unique_point_name"),
            models.CheckConstraint(condition=Q(value__gte=0), name="metric_value_nonnegative"),
        ]

    def __str__(self) -> str:
        return f"{self.name}={self.value:g} {self.unit}"


class StatementKind(models.TextChoices):
    RATIO = "ratio", "Ratio"
    PROPORTIONALITY = "proportionality", "Proportionality"
    BOUND = "bound", "Bound"
    ELIGIBILITY = "eligibility", "Eligibility"
    THROUGHPUT = "throughput", "Throughput against clients"
    PACKET_TRACE = "packet_trace", "Packet trace"
    MEASUREMENTS = "measurements", "Measurements"
    CONFIGURATION = "configuration", "Configuration table"
    OBSERVATION = "observation", "Observation"
    LIMIT = "limit", "Published software limit"


class Statement(models.Model):
    """A published statement that is not a point but constrains a model (typed by ``kind``)."""

    source = models.ForeignKey(SourceDocument, on_delete=models.PROTECT, related_name="statements")
    key = models.CharField(max_length=80)
    kind = models.CharField(max_length=20, choices=StatementKind.choices)
    path = models.ForeignKey(Path, null=True, blank=True, on_delete=models.PROTECT, related_name="statements")
    configuration = models.ForeignKey(
        Configuration, null=True, blank=True, on_delete=models.PROTECT, related_name="statements"
    )
    reference = models.JSONField(default=dict)
    reference_text = models.CharField(max_length=200)
    text = models.TextField(help_text="the source's words (quoted or closely paraphrased)")
    data = models.JSONField(default=dict, help_text="the typed payload of this kind")
    notes = models.TextField(blank=True, help_text="transcriber's notes: interpretations, inconsistencies")

    class Meta:
        ordering = ["source__slug", "key"]
        constraints = [models.UniqueConstraint(fields=["source", "key"], name="statement_unique_source_key")]

    def __str__(self) -> str:
        return f"{self.kind}: {self.key}"


class Estimate(models.Model):
    """A stored sizing answer, owned by the engineer who asked for it.

    ``inputs`` are the validated request, ``outputs`` the full answer with its basis (point ids,
    model parameters, projection factor and source), ``model_version`` the version of the
    numerical core that produced it, so a stored estimate can always be explained later.
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="estimates")
    name = models.CharField(max_length=200, blank=True)
    configuration = models.ForeignKey(Configuration, on_delete=models.PROTECT, related_name="estimates")
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="estimates")
    tps = models.FloatField(help_text="target transactions per second")
    inputs = models.JSONField()
    outputs = models.JSONField()
    model_version = models.CharField(max_length=40)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "-created_at"], name="estimate_owner_created")]
        constraints = [models.CheckConstraint(condition=Q(tps__gt=0), name="estimate_tps_positive")]

    def __str__(self) -> str:
        return self.name or f"{self.configuration} on {self.machine.slug} at {self.tps:g} TPS"


class Calibration(models.Model):
    """A customer's own measured intervals on their current machine: a private configuration.

    It owns one private :class:`Configuration` (visible to ``owner`` only) of the path the
    workload runs on, so estimates, jobs, the UI and reports use it exactly as they use a
    published configuration; the intervals are fitted by the same engine steps
    (``models_lib.calibration.calibration_data``). It never changes published reference data.
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calibrations")
    name = models.CharField(max_length=200)
    configuration = models.OneToOneField(Configuration, on_delete=models.PROTECT, related_name="calibration")
    machine = models.ForeignKey(
        Machine, on_delete=models.PROTECT, related_name="calibrations", help_text="the customer's current machine"
    )
    model = models.CharField(max_length=20, help_text="current model capacity identifier, e.g. 3931-710")
    capacity_setting = models.CharField(
        max_length=3, help_text="capacity setting of the current model, e.g. 710 -> 700"
    )
    cps = models.PositiveSmallIntegerField(help_text="general-purpose CPs of the measured LPAR")
    ziips = models.PositiveSmallIntegerField(default=0, help_text="zIIPs of the measured LPAR")
    speed_factor = models.FloatField(
        default=1.0, help_text="LSPR MIPS per CP of the current setting over full speed (1.0 at full speed)"
    )
    component = models.CharField(max_length=10, default="lpar", help_text="what the measured CPU covers")
    intervals = models.JSONField(help_text="measured intervals: etr, cpu_pct, response_time_ms, ziip_eligible_pct")
    source_kind = models.CharField(max_length=10, help_text="rmf, csv or json")
    source_text = models.TextField(blank=True, help_text="the pasted RMF report or CSV, as received")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "-created_at"], name="calibration_owner_created")]
        constraints = [models.CheckConstraint(condition=Q(cps__gte=1), name="calibration_cps_positive")]

    def __str__(self) -> str:
        return f"{self.name} ({self.model})"


class JobKind(models.TextChoices):
    CURVE = "curve", "Utilisation and response-time curve"
    CLOSED = "closed", "Closed network (clients and think time)"
    MONTECARLO = "montecarlo", "Monte Carlo uncertainty"
    OPTIMIZE = "optimize", "Cheapest CP and zIIP mix"
    MIX = "mix", "Several workloads on one LPAR"
    BATCH = "batch", "Batch of scenarios from CSV"
    PLAN = "plan", "Capacity plan over time"


class JobStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"


class Job(models.Model):
    """A heavy solve run by a Celery worker (or in-process without a broker)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(max_length=20, choices=JobKind.choices)
    params = models.JSONField()
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    worker_host = models.CharField(max_length=200, blank=True)
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="how many times a worker started it (a re-run after a lost worker or a retry adds one)"
    )
    model_version = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True, help_text="when a worker first started it")
    last_started_at = models.DateTimeField(
        null=True, blank=True, help_text="when a worker last started it (its latest attempt)"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="last sign of life of the worker running it (its lease)"
    )
    sent_at = models.DateTimeField(
        null=True, blank=True, help_text="when its task was last handed to the broker (a queued job's sign of life)"
    )
    parent = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="chunks",
        help_text="the batch job this job is a chunk of (chunks are not listed to their owner)",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "-created_at"], name="job_owner_created")]
        constraints = [models.CheckConstraint(condition=Q(progress__lte=100), name="job_progress_max_100")]

    def __str__(self) -> str:
        return f"{self.kind} job {self.pk} ({self.status})"


class PlanPeriod(models.TextChoices):
    YEAR = "year", "Years"
    QUARTER = "quarter", "Quarters"


class Plan(models.Model):
    """A capacity plan its owner names and reopens: workloads growing over a horizon, candidate
    targets, and the answer per period.  The answer is computed by its job (``kind=plan``),
    whose status, progress and result are the plan's (one source of truth, the job's states,
    lease and recovery); a small plan's job is stored already succeeded."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="plans")
    name = models.CharField(max_length=200)
    period = models.CharField(max_length=10, choices=PlanPeriod.choices, default=PlanPeriod.YEAR)
    horizon = models.PositiveSmallIntegerField(help_text="number of periods (years or quarters)")
    inputs = models.JSONField(help_text="the validated question: workloads, candidates, sizing options")
    job = models.OneToOneField(Job, on_delete=models.CASCADE, related_name="plan")
    model_version = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "-created_at"], name="plan_owner_created")]
        constraints = [models.CheckConstraint(condition=Q(horizon__gte=1), name="plan_horizon_positive")]

    def __str__(self) -> str:
        return f"plan {self.pk}: {self.name}"


class ReferenceVersion(models.Model):
    """One row: which version of the reference data (published or private calibration) is current.

    Fitted models and computed answers are cached under ``token``; every write to reference
    data goes through ``sizing.services.reference_version.bump_reference_version`` so caches
    in every process see the change.  A random token rather than a counter: after the table is
    emptied (a flush) a counter would restart and could meet a stale cache entry.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    token = models.CharField(max_length=32)
    number = models.PositiveIntegerField(default=0, help_text="how many times the reference data changed")
    changed_at = models.DateTimeField()

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(id=1), name="reference_version_single_row")]

    def __str__(self) -> str:
        return f"reference data v{self.number} ({self.token[:8]})"


class ReportStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"


class Report(models.Model):
    """A PDF report too heavy to build within a request (a large batch job's), built by a worker.

    Light reports are built on request and never stored; a heavy one is built once per job and
    kept, so asking again answers at once.
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports")
    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="reports")
    status = models.CharField(max_length=10, choices=ReportStatus.choices, default=ReportStatus.QUEUED)
    pdf = models.BinaryField(null=True, blank=True, editable=False)
    error = models.TextField(blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    model_version = models.CharField(max_length=40, blank=True)
    #: Who the report is prepared for (the customer the engineer named); one report per job and customer.
    customer = models.CharField(max_length=120, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["job", "-created_at"], name="report_job_created")]

    def __str__(self) -> str:
        return f"report {self.pk} of job {self.job_id} ({self.status})"


class PriceBook(models.Model):
    """A user's own prices, one book per user: what ``least-cost`` minimises and every cost shown
    is computed from (``models_lib.pricing``).  Nothing is priced without one: the app holds no
    price of its own."""

    class EngineBasis(models.TextChoices):
        ONE_OFF = "one-off", "One-off"
        PER_YEAR = "per-year", "Per year"

    class MsuBasis(models.TextChoices):
        INSTALLED = "installed", "Installed"
        CONSUMED = "consumed", "Consumed (sub-capacity)"

    owner = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="price_book")
    currency = models.CharField(max_length=3, help_text="ISO 4217 code the prices are in, e.g. EUR")
    term_years = models.PositiveSmallIntegerField(help_text="years a configuration is costed over")
    cp_price = models.FloatField(help_text="price of one CP")
    cp_basis = models.CharField(max_length=10, choices=EngineBasis.choices)
    specialty_price = models.FloatField(help_text="price of one specialty engine (zIIP or zAAP)")
    specialty_basis = models.CharField(max_length=10, choices=EngineBasis.choices)
    msu_price = models.FloatField(help_text="software price per MSU per year")
    msu_basis = models.CharField(max_length=10, choices=MsuBasis.choices)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(cp_price__gte=0) & Q(specialty_price__gte=0) & Q(msu_price__gte=0),
                name="price_book_prices_not_negative",
            ),
            models.CheckConstraint(condition=Q(term_years__gte=1), name="price_book_term_positive"),
        ]

    def __str__(self) -> str:
        return f"price book of user {self.owner_id} ({self.currency}, {self.term_years} years)"


class CecConfiguration(models.Model):
    """A customer's machine (issue 29): the model capacity identifier, the engines installed and
    the LPARs with their weights, logical engines and busy today, as of a date.  Its owner's
    only; the PR/SM rules that read it are ``models_lib.cec``."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cecs")
    name = models.CharField(max_length=200)
    model = models.CharField(max_length=20, help_text="model capacity identifier, e.g. 8561-710")
    machine_type = models.CharField(max_length=8)
    machine = models.CharField(max_length=40, help_text="the machine's slug, e.g. z15")
    capacity_setting = models.CharField(max_length=4)
    cps = models.PositiveSmallIntegerField(help_text="CPs installed (the model's)")
    ziips = models.PositiveSmallIntegerField(default=0, help_text="zIIPs (zAAPs on z10..zEC12) installed")
    icfs = models.PositiveSmallIntegerField(default=0)
    ifls = models.PositiveSmallIntegerField(default=0)
    as_of = models.DateField(help_text="the date of the configuration and its busy")
    lpars = models.JSONField(help_text="LPARs: name, dedicated, cp and ziip {logical, weight, capped, busy_pct}")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "-created_at"], name="cec_owner_created")]
        constraints = [models.CheckConstraint(condition=Q(cps__gte=1), name="cec_cps_positive")]

    def __str__(self) -> str:
        return f"CEC {self.pk}: {self.name} ({self.model})"
