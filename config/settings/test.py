"""Test settings: real PostgreSQL and a real Redis broker, never SQLite.

``DATABASE_URL`` and ``CELERY_BROKER_URL`` default to the local services that ``.ci/run``
starts; set them to point the suite elsewhere.
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/zsizer")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
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
