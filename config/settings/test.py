"""Test settings: real PostgreSQL and a real Redis broker, never SQLite.

``DATABASE_URL`` and ``CELERY_BROKER_URL`` default to the local services that ``.ci/run``
starts; set them to point the suite elsewhere.  Under pytest-xdist each worker takes a Redis
database of its own, counted down from the one named (below; docs/development.md).
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/zsizer")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")


def _worker_redis_url(url: str, worker: int) -> str:
    """``url`` with its database number lowered by ``worker`` (redis://h:6379/15 -> /14 for gw1)."""
    from urllib.parse import urlsplit, urlunsplit

    from django.core.exceptions import ImproperlyConfigured

    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    if base - worker < 0:
        raise ImproperlyConfigured(
            f"{url} leaves pytest-xdist worker gw{worker} no Redis database of its own "
            f"(each worker gwN takes database {base}-N): name a higher database or run fewer workers."
        )
    return urlunsplit(parts._replace(path=f"/{base - worker}"))


# pytest-xdist: each worker (gw0, gw1, ...) has its own test database (pytest-django adds the
# suffix) and its own Redis database for the broker and the shared caches: gwN takes the
# configured database minus N (15, 14, ... by default), so one worker's queues, throttle
# counts and cached answers are never another's.  The worker's URLs are written back to the
# environment, with the worker that derived them, so that the processes a test starts with this
# environment (Celery workers, gunicorn) use them as they are instead of deriving them again.
_xdist_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _xdist_worker.startswith("gw") and os.environ.get("XDIST_REDIS_DERIVED_FOR") != _xdist_worker:
    for _name in ("CELERY_BROKER_URL", "ZSIZER_CACHE_URL"):
        if os.environ.get(_name):
            os.environ[_name] = _worker_redis_url(os.environ[_name], int(_xdist_worker[2:]))
    os.environ["XDIST_REDIS_DERIVED_FOR"] = _xdist_worker
os.environ.setdefault("DJANGO_DEBUG", "0")
# Every read looks at the reference-data version, so a test sees its own writes at once.
os.environ.setdefault("ZSIZER_REFERENCE_CHECK_MS", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "zsizer-test-secret-key-not-for-production")

from .base import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Rates high enough for the suite; a test that runs the app in its own processes sets them low.
REST_FRAMEWORK = {  # noqa: F405
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {
        scope: os.environ.get(name, "10000/min")
        for scope, (name, _) in THROTTLE_SETTINGS.items()  # noqa: F405
    },
}
