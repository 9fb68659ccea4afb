"""Settings of `make bench` and `make loadtest`: the production shape on the bench's own services.

PostgreSQL (its own database, ``zsizer_bench``), the Redis that the bench starts on its own port
(broker, and the shared answer cache when the bench asks for it), DEBUG off, INFO logs off.  The URLconf adds the bench's
baseline endpoints (``perf.urls``) to the app's.  The bench runner sets the variables below; the
defaults let ``manage.py`` run against the same services by hand.
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/zsizer_bench")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6410/0")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "zsizer-bench-secret-key-not-for-production")
os.environ.setdefault("ZSIZER_LOG_LEVEL", "WARNING")
os.environ.setdefault("ZSIZER_TASK_QUEUE", "zsizer-bench")
# One bench account stands for the whole room: its job quota is the room's, as its throttles are.
os.environ.setdefault("ZSIZER_MAX_QUEUED_JOBS_PER_USER", "10000")
# ... and so is its quota of saved estimates: the POST phases store tens of thousands of rows a
# run (the baseline's INSERTs count too), past the 5,000 one engineer keeps.
os.environ.setdefault("ZSIZER_MAX_ESTIMATES_PER_USER", "100000000")

from .base import *  # noqa: E402,F403

ROOT_URLCONF = "perf.urls"
# The clients of a bench are a few accounts sending thousands of requests a minute.  The window
# is a second: a throttle keeps every request of its window in its history, which is read and
# written back on each request, so a minute of a bench's rate (thousands of entries) would cost
# far more than production's 120 a minute does.
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": dict.fromkeys(THROTTLE_SETTINGS, "1000000/s")}  # noqa: F405
