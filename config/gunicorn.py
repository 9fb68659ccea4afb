"""gunicorn settings: ``gunicorn -c config/gunicorn.py config.wsgi:application --bind HOST:PORT``.

``make bench`` and ``make loadtest`` serve with these (perf/stack.py); the image can use the
same file.  Why these values, measured in docs/speed.md:

* ``gthread`` workers with keep-alive (30 s): a client's connection stays open between requests (as a
  browser keeps it), and a thread waiting on PostgreSQL or on a slow client does not hold the
  whole process.  A ``sync`` worker closes every connection and (gunicorn 27,
  ``util.close_graceful``) lingers on each close until the client has closed its end (RFC 9112
  section 9.6), one request at a time.
* ``WEB_CONCURRENCY`` processes (default 3 on 2 cores: the GIL lets one process use one core)
  of ``ZSIZER_GUNICORN_THREADS`` threads (default 4), each thread with its own database
  connection (``CONN_MAX_AGE``), so at most workers x threads connections.
* A deep listen backlog so a burst of clients queues rather than being refused; no control
  socket (several servers on one host would share its default path).
* ``limit_request_line`` 8,190 bytes, the most gunicorn takes (its default is 4,094): the
  longest legitimate API request line (every list at its bound, a 200-character name in
  4-byte characters, percent-encoded) is 3,318 bytes (GET /api/v1/upgrade), under half the limit
  (``tests/sizing/test_list_limits.py``).  A longer line is answered by
  ``config.gunicorn_worker`` (the ``gthread`` worker) with a JSON 414, not gunicorn's HTML page.
"""

from __future__ import annotations

import os


def _positive_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise SystemExit(f"{name} must be a positive integer, got {raw!r}")
    return value


workers = _positive_int("WEB_CONCURRENCY", 3)
worker_class = "config.gunicorn_worker.JsonErrorThreadWorker"  # gthread, with a JSON 414
threads = _positive_int("ZSIZER_GUNICORN_THREADS", 4)
# Longer than a client's pause between requests: a server that closes an idle connection just as
# the client reuses it makes a reset (3 of 934 requests in a load test with keepalive = 5 s).
keepalive = 30
backlog = 2048
timeout = 60
graceful_timeout = 30
control_socket_disable = True
limit_request_line = 8190
