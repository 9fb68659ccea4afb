"""Settings read from the environment.

With no environment at all the app runs on the embedded default: a SQLite file under
``var/`` and Celery tasks executed in-process.  ``DATABASE_URL`` selects PostgreSQL
(psycopg 3) and ``CELERY_BROKER_URL`` selects Redis and real workers.  A bad value raises
ImproperlyConfigured naming the variable.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from config.env import (
    check_broker_url,
    database_from_url,
    env_bool,
    env_int,
    env_list,
    env_str,
    site_address,
)
from config.security import DEFAULT_POLICY as DEFAULT_CSP

# Generic Django classes (ModelAdmin[Model], ...) are subscriptable at run time, as the stubs type them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(env_str("ZSIZER_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")
    SECRET_KEY = "zsizer-insecure-development-key-do-not-use-in-production"
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# The name the TLS proxy serves (the compose file's ZSIZER_SITE_ADDRESS, Caddy's --from) is a
# host the app answers and an origin its forms trust, whatever DJANGO_ALLOWED_HOSTS lists.
_site = site_address("ZSIZER_SITE_ADDRESS", env_str("ZSIZER_SITE_ADDRESS"))
if _site is not None:
    ALLOWED_HOSTS = [*ALLOWED_HOSTS, _site[0]] if _site[0] not in ALLOWED_HOSTS else ALLOWED_HOSTS
    CSRF_TRUSTED_ORIGINS = (
        [*CSRF_TRUSTED_ORIGINS, _site[1]] if _site[1] not in CSRF_TRUSTED_ORIGINS else CSRF_TRUSTED_ORIGINS
    )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "config.staticfiles.StaticFilesConfig",  # django.contrib.staticfiles, ReDoc's bundle left out
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "sizing",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # GET /healthz answered here, before anything reads the Host header: a container's health
    # check on 127.0.0.1 passes whatever DJANGO_ALLOWED_HOSTS lists (sizing.health_middleware).
    "sizing.health_middleware.HealthCheckMiddleware",
    # Oversized bodies (413), NUL bytes in the URL, unknown charsets (400): JSON, before anything reads them.
    "sizing.request_guard.RequestGuardMiddleware",
    # Database unreachable -> 503 JSON with Retry-After instead of a 500 (sizing.middleware).
    "sizing.middleware.DatabaseUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    # Last, as django-axes requires: turns a locked-out sign-in into sizing.login_throttle's answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "frontend" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

_database_url = env_str("DATABASE_URL")
if _database_url:
    DATABASES = {"default": database_from_url("DATABASE_URL", _database_url, base_dir=BASE_DIR)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "zsizer.sqlite3"),
            "OPTIONS": {"timeout": 20},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "frontend" / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
]
STATIC_ROOT = Path(env_str("ZSIZER_STATIC_ROOT", str(BASE_DIR / "staticfiles")))
# Static files are served by the app itself (WhiteNoise): straight from the finders here; the
# production settings serve the compressed, hashed copies collectstatic writes to STATIC_ROOT.
WHITENOISE_USE_FINDERS = True
STATIC_ROOT.mkdir(parents=True, exist_ok=True)

# Content-Security-Policy on every response (config.security): the UI runs no inline script or style.
ZSIZER_CSP = DEFAULT_CSP

# First run (`make run`): on the embedded default only, `manage.py local_account` creates a
# local account if there is none and prints how to sign in.  Production settings turn it off.
ZSIZER_LOCAL_ACCOUNT = DEBUG and not _database_url
ZSIZER_LOCAL_ACCOUNT_FILE = VAR_DIR / "local-account.json"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "workbench"  # the sizing page, as the README promises
LOGOUT_REDIRECT_URL = "login"

# Sign-in throttling (django-axes, sizing.login_throttle): ZSIZER_LOGIN_FAILURE_LIMIT failed
# sign-ins for one user name *from one address* lock that pair out for ZSIZER_LOGIN_COOLOFF_MINUTES
# after the last failure (nobody can lock another person out, nor one person's typos everyone
# behind a proxy); past that many failures of one account from any addresses, a sign-in from an
# address it never signed in from waits 2^(failures - limit - 1) s, at most
# ZSIZER_LOGIN_MAX_DELAY_SECONDS.  A successful sign-in forgets its failures; an admin lifts
# lockouts in /admin/axes/accessattempt/.  The pages say so, as a 429 with Retry-After.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "sizing.login_throttle.AccountSlowdownBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("ZSIZER_LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("ZSIZER_LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# An attempt refused during the wait is not counted: it neither restarts nor lengthens the wait.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "sizing.login_throttle.lockout_response"
AXES_CLIENT_IP_CALLABLE = "sizing.login_throttle.client_ip"
ZSIZER_LOGIN_MAX_DELAY_SECONDS = env_int("ZSIZER_LOGIN_MAX_DELAY_SECONDS", 60, minimum=1)
AXES_VERBOSE = False
# Proxies in front of the app that append the client's address to X-Forwarded-For (the compose
# file's Caddy: 1).  0 (default): the peer's address is the client's.
ZSIZER_TRUSTED_PROXIES = env_int("ZSIZER_TRUSTED_PROXIES", 0, minimum=0)

BENCHMARKS_DIR = BASE_DIR / "benchmarks"

# The largest request body accepted (a batch job's CSV is at most 2 MiB, as a JSON string a little
# more); larger bodies are answered 413 before they are read.
ZSIZER_MAX_BODY_BYTES = env_int("ZSIZER_MAX_BODY_BYTES", 4 * 1024 * 1024, minimum=1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = ZSIZER_MAX_BODY_BYTES

# Throttle scope -> (environment variable, default per-user rate).
THROTTLE_SETTINGS = {
    "estimates": ("ZSIZER_ESTIMATE_THROTTLE", "600/min"),
    "writes": ("ZSIZER_WRITE_THROTTLE", "120/min"),
    "jobs": ("ZSIZER_JOB_THROTTLE", "60/min"),
    "cancel": ("ZSIZER_CANCEL_THROTTLE", "120/min"),
    "calibrations": ("ZSIZER_CALIBRATION_THROTTLE", "30/min"),
    "reports": ("ZSIZER_REPORT_THROTTLE", "30/min"),
    "fit": ("ZSIZER_FIT_THROTTLE", "60/min"),
    # The public schema (/api/schema/), per address: it is generated on each request.
    "schema": ("ZSIZER_SCHEMA_THROTTLE", "30/min"),
}

REST_FRAMEWORK = {
    # JSON that is refused with a sentence: NUL characters, deep nesting, NaN/Infinity, bad encodings.
    # JSON only: the pages post JSON (frontend/static/zsizer/api.js) or to their own views, and
    # a generated client sends the one media type the schema declares (a form is a 415).
    "DEFAULT_PARSER_CLASSES": ["sizing.api.parsers.StrictJSONParser"],
    # Token first so that anonymous API calls get 401 with a WWW-Authenticate header.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "sizing.api.pagination.Pagination",
    "PAGE_SIZE": 100,
    "DEFAULT_SCHEMA_CLASS": "sizing.api.schema.ThrottledAutoSchema",
    # Per-user rates, one budget per scope in the shared cache (sizing.api.throttles; docs/api.md,
    # "Limits"): cheap reads sized for a spreadsheet refreshing 500 rows a minute, jobs and
    # expensive reads kept low to protect the workers and the web processes.
    "DEFAULT_THROTTLE_RATES": {scope: env_str(name, rate) for scope, (name, rate) in THROTTLE_SETTINGS.items()},
    "EXCEPTION_HANDLER": "sizing.api.errors.exception_handler",
    # An anonymous client is throttled by its address: the one the outermost trusted proxy saw.
    "NUM_PROXIES": ZSIZER_TRUSTED_PROXIES,
    "NON_FIELD_ERRORS_KEY": "non_field_errors",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "zsizer API",
    "DESCRIPTION": "Capacity sizing for IBM Z transaction middleware, from published benchmarks.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI served from the drf-spectacular-sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No deep links: Swagger UI draws each operation's path as a link inside the button that opens
    # it (a control inside a control, axe-core's nested-interactive); the button alone opens it.
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    "REDOC_DIST": "SIDECAR",
    # OpenAPI 3.1: a nullable object is oneOf [$ref, null], which validators read (3.0's
    # `nullable` beside `allOf` is ignored by them).
    "OAS_VERSION": "3.1.0",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "sizing.api.schema.add_error_responses",
    ],
    "ENUM_NAME_OVERRIDES": {
        "JobKindEnum": "sizing.models.JobKind",
        "StatementKindEnum": "sizing.models.StatementKind",
        "JobStatusEnum": "sizing.models.JobStatus",
        "ReportStatusEnum": "sizing.models.ReportStatus",
        "PlanPeriodEnum": "sizing.models.PlanPeriod",
        "PlanCandidateKindEnum": "sizing.api.plan_schema.CANDIDATE_KINDS",
        "RecommendationKindEnum": "sizing.api.plan_schema.RECOMMENDATION_KINDS",
        "PlanResultKindEnum": "sizing.api.plan_schema.RESULT_KINDS",
        "ObjectiveEnum": "models_lib.choice.OBJECTIVES",
        "PlanBindingEnum": "sizing.api.plan_schema.PLAN_BINDINGS",
        "ObjectiveInputEnum": "sizing.services.estimate_inputs.OBJECTIVE_CHOICES",
        "PriceEngineBasisEnum": "sizing.models.PriceBook.EngineBasis",
        "PriceMsuBasisEnum": "sizing.models.PriceBook.MsuBasis",
    },
}

# Celery: namespace CELERY_, JSON only.  No broker configured -> tasks run in-process.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
if CELERY_BROKER_URL:
    check_broker_url("CELERY_BROKER_URL", CELERY_BROKER_URL)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("ZSIZER_TASK_SOFT_TIME_LIMIT", 300, minimum=1)
CELERY_TASK_TIME_LIMIT = env_int("ZSIZER_TASK_TIME_LIMIT", 360, minimum=1)
if CELERY_TASK_TIME_LIMIT <= CELERY_TASK_SOFT_TIME_LIMIT:
    raise ImproperlyConfigured("ZSIZER_TASK_TIME_LIMIT must be greater than ZSIZER_TASK_SOFT_TIME_LIMIT.")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A job redelivered after a worker died must wait no longer than this to run again.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_int("ZSIZER_BROKER_VISIBILITY_TIMEOUT", 3600, minimum=1)}
# Jobs (sizing.tasks): the queue they are sent to, which is also the queue a worker started
# without -Q consumes; the tests give each session its own.
ZSIZER_TASK_QUEUE = env_str("ZSIZER_TASK_QUEUE", "zsizer").strip() or "zsizer"
CELERY_TASK_DEFAULT_QUEUE = ZSIZER_TASK_QUEUE
# Fair scheduling (sizing.services.jobs.job_queue, docs/jobs.md): short interactive jobs (curve,
# closed, Monte Carlo, optimise) go to "<ZSIZER_TASK_QUEUE>-interactive", batches, mixes, plans and
# reports to ZSIZER_TASK_QUEUE.  A worker started without -Q consumes both; the compose file and
# `make worker` also run one process on the interactive queue alone, so a flood of batches never
# holds a curve back.  Each kind has its own time limits.
CELERY_TASK_QUEUES = [Queue(ZSIZER_TASK_QUEUE), Queue(f"{ZSIZER_TASK_QUEUE}-interactive")]
ZSIZER_INTERACTIVE_SOFT_TIME_LIMIT = env_int("ZSIZER_INTERACTIVE_SOFT_TIME_LIMIT", 60, minimum=1)
ZSIZER_INTERACTIVE_TIME_LIMIT = env_int("ZSIZER_INTERACTIVE_TIME_LIMIT", 90, minimum=1)
if ZSIZER_INTERACTIVE_TIME_LIMIT <= ZSIZER_INTERACTIVE_SOFT_TIME_LIMIT:
    raise ImproperlyConfigured("ZSIZER_INTERACTIVE_TIME_LIMIT must be greater than ZSIZER_INTERACTIVE_SOFT_TIME_LIMIT.")
# A running job renews its lease (Job.heartbeat_at) every quarter of this; a redelivered task
# takes a running job over only once the lease has run out, i.e. its worker died.  Waiting for
# a lease is a countdown retry, so it must stay below the visibility timeout.
_visibility_timeout = CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
ZSIZER_JOB_LEASE_SECONDS = env_int("ZSIZER_JOB_LEASE_SECONDS", min(20, max(2, _visibility_timeout // 2)), minimum=2)
if ZSIZER_JOB_LEASE_SECONDS >= _visibility_timeout:
    raise ImproperlyConfigured("ZSIZER_JOB_LEASE_SECONDS must be less than ZSIZER_BROKER_VISIBILITY_TIMEOUT.")
# The database is the truth for jobs (sizing.services.job_recovery): every worker runs a
# reconciler every ZSIZER_RECONCILE_INTERVAL_SECONDS (0: none) that re-sends a queued job the
# broker no longer holds once it has waited ZSIZER_JOB_RESEND_SECONDS since it was last sent,
# and re-queues (or, after 3 lost workers, fails) a running job whose lease ran out.
ZSIZER_RECONCILE_INTERVAL_SECONDS = env_int("ZSIZER_RECONCILE_INTERVAL_SECONDS", 10, minimum=0)
ZSIZER_JOB_RESEND_SECONDS = env_int("ZSIZER_JOB_RESEND_SECONDS", 30, minimum=1)
# Per-user limits: a submission beyond ZSIZER_MAX_QUEUED_JOBS_PER_USER queued jobs answers 429;
# workers run at most ZSIZER_MAX_RUNNING_JOBS_PER_USER of one user's jobs at once (the others wait
# queued), below the pool's size (the compose file's: 2 + 1 interactive), so one engineer cannot
# occupy every worker.
ZSIZER_MAX_QUEUED_JOBS_PER_USER = env_int("ZSIZER_MAX_QUEUED_JOBS_PER_USER", 20, minimum=1)
ZSIZER_MAX_RUNNING_JOBS_PER_USER = env_int("ZSIZER_MAX_RUNNING_JOBS_PER_USER", 2, minimum=1)
# What one user may keep (sizing.services.quotas): one more is a 403 naming the quota; each list
# shows used / allowed.  Kept jobs: a submission first deletes the oldest finished jobs beyond it.
ZSIZER_MAX_ESTIMATES_PER_USER = env_int("ZSIZER_MAX_ESTIMATES_PER_USER", 5000, minimum=1)
ZSIZER_MAX_CALIBRATIONS_PER_USER = env_int("ZSIZER_MAX_CALIBRATIONS_PER_USER", 100, minimum=1)
ZSIZER_MAX_PLANS_PER_USER = env_int("ZSIZER_MAX_PLANS_PER_USER", 200, minimum=1)
ZSIZER_MAX_CECS_PER_USER = env_int("ZSIZER_MAX_CECS_PER_USER", 200, minimum=1)
ZSIZER_MAX_KEPT_JOBS_PER_USER = env_int("ZSIZER_MAX_KEPT_JOBS_PER_USER", 500, minimum=2)
# A batch of more rows than this is split into chunks that workers run in parallel.
ZSIZER_BATCH_CHUNK_ROWS = env_int("ZSIZER_BATCH_CHUNK_ROWS", 250, minimum=1)
# A plan of at most this many workload evaluations (candidates x periods x workloads) is answered
# in the request (201); a larger one is evaluated by workers, one task per candidate (202).
ZSIZER_PLAN_INLINE_EVALUATIONS = env_int("ZSIZER_PLAN_INLINE_EVALUATIONS", 80, minimum=0)
# A request that finds the database unreachable answers 503 with this Retry-After (seconds).
ZSIZER_DB_RETRY_AFTER_SECONDS = env_int("ZSIZER_DB_RETRY_AFTER_SECONDS", 5, minimum=1)

# Reference data and answers are cached per reference-data version (sizing.selectors.fitted).
# A process looks at the version row at most every ZSIZER_REFERENCE_CHECK_MS, so a change made
# by another process is seen within that time.
ZSIZER_REFERENCE_CHECK_MS = env_int("ZSIZER_REFERENCE_CHECK_MS", 1000, minimum=0)
# Computed answers are shared between processes through the "answers" cache: Redis when
# ZSIZER_CACHE_URL names one (redis://host:6379/1), else this process's memory.
ZSIZER_CACHE_URL = env_str("ZSIZER_CACHE_URL")
if ZSIZER_CACHE_URL:
    check_broker_url("ZSIZER_CACHE_URL", ZSIZER_CACHE_URL)
ZSIZER_ANSWER_CACHE = "answers"
# A shared cache that fails (down, slow, read-only) is bypassed: requests and jobs compute without
# it.  Each cache operation waits at most ZSIZER_CACHE_TIMEOUT_MS; after a failure the cache is
# left alone for ZSIZER_CACHE_RETRY_SECONDS (and /healthz says "degraded"), then tried again.
ZSIZER_CACHE_TIMEOUT_MS = env_int("ZSIZER_CACHE_TIMEOUT_MS", 500, minimum=1)
ZSIZER_CACHE_RETRY_SECONDS = env_int("ZSIZER_CACHE_RETRY_SECONDS", 5, minimum=1)
ZSIZER_ANSWER_CACHE_SECONDS = env_int("ZSIZER_ANSWER_CACHE_SECONDS", 24 * 3600, minimum=1)
# Throttle histories live in the "throttles" cache: with ZSIZER_CACHE_URL every web process
# counts against one budget per user and scope; without it each process counts its own.
ZSIZER_THROTTLE_CACHE = "throttles"


def _shared_cache(location: str) -> dict[str, Any]:
    if ZSIZER_CACHE_URL:
        return {
            # Django's Redis cache, one client object per pool (config/redis_cache.py).
            "BACKEND": "config.redis_cache.RedisCache",
            "LOCATION": ZSIZER_CACHE_URL,
            "KEY_PREFIX": f"zsizer-{location}" if location != "answers" else "zsizer",
            "OPTIONS": {
                "socket_connect_timeout": ZSIZER_CACHE_TIMEOUT_MS / 1000,
                "socket_timeout": ZSIZER_CACHE_TIMEOUT_MS / 1000,
                "outage_retry_s": ZSIZER_CACHE_RETRY_SECONDS,
            },
        }
    return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": location}


CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "answers": _shared_cache("answers"),
    ZSIZER_THROTTLE_CACHE: _shared_cache(ZSIZER_THROTTLE_CACHE),
}

# ZSIZER_LOG_FORMAT=json writes one JSON object per line (config.logs); production's default.
ZSIZER_LOG_FORMAT = env_str("ZSIZER_LOG_FORMAT", "text").strip().lower()
if ZSIZER_LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured(f"ZSIZER_LOG_FORMAT={ZSIZER_LOG_FORMAT!r} must be 'text' or 'json'.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "config.logs.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            **({"formatter": "json"} if ZSIZER_LOG_FORMAT == "json" else {}),
        }
    },
    "root": {"handlers": ["console"], "level": env_str("ZSIZER_LOG_LEVEL", "INFO")},
}
