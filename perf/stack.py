"""The services a server benchmark runs against, started and stopped by the bench itself.

* Redis: its own ``redis-server`` on ``ZSIZER_BENCH_REDIS_PORT`` (default 6410), no persistence,
  broker (db 0) and shared answer cache (db 1).
* PostgreSQL: the machine's server (``ZSIZER_BENCH_DATABASE_URL``, default
  ``postgres://postgres@127.0.0.1:5432/zsizer_bench``); the database is created if missing,
  migrated and loaded with benchmarks/.
* gunicorn with ``config/gunicorn.py`` and ``config.settings.bench`` on ``ZSIZER_BENCH_PORT``
  (default 8110): ``ZSIZER_BENCH_WORKERS`` processes (default 3) of ``ZSIZER_BENCH_THREADS``
  threads (default 4), gthread workers with keep-alive (``ZSIZER_BENCH_GUNICORN_ARGS`` adds
  arguments, e.g. ``--worker-class sync`` to compare); optionally a Celery worker.

Every process is started in its own process group and stopped by its pid at the end.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

REPO = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
#: Accounts of the bench's room (``ZSIZER_BENCH_ACCOUNTS``, default 16: one per client of
#: ``bench_server.py``); the scripts that send as one user use the first.
ACCOUNTS = int(os.environ.get("ZSIZER_BENCH_ACCOUNTS", "16"))


@dataclass
class Stack:
    base_url: str
    env: dict[str, str]
    token: str
    user: str
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    gunicorn_workers: int = 3
    gunicorn_threads: int = 4
    celery_concurrency: int = 0
    shared_cache: bool = True
    server_pid: int = 0
    #: The room's accounts' tokens (``user``'s first, then ``user-2``...): a closed-loop client
    #: of a bench is one engineer, with an account, throttles and quotas of their own.
    tokens: list[str] = field(default_factory=list)


def _wait_port(host: str, port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            s.settimeout(0.2)
            if s.connect_ex((host, port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing answers on {host}:{port} after {timeout:g} s")


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def _start(cmd: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    out = log.open("ab")
    return subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)  # the group of this process only (start_new_session)
        proc.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=5)


def _ensure_database(url: str) -> None:
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone() is None:
            conn.execute(f'create database "{name}"')


def _manage(env: dict[str, str], *args: str) -> str:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, check=True, capture_output=True, text=True
    ).stdout


@contextmanager
def running_stack(*, celery_concurrency: int = 0, log_dir: Path | None = None) -> Iterator[Stack]:
    """Start Redis, prepare the database, start gunicorn (and a Celery worker); stop them after."""
    redis_port = int(os.environ.get("ZSIZER_BENCH_REDIS_PORT", "6410"))
    web_port = int(os.environ.get("ZSIZER_BENCH_PORT", "8110"))
    workers = int(os.environ.get("ZSIZER_BENCH_WORKERS", "3"))
    threads = int(os.environ.get("ZSIZER_BENCH_THREADS", "4"))
    db_url = os.environ.get("ZSIZER_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/zsizer_bench")
    shared_cache = os.environ.get("ZSIZER_BENCH_SHARED_CACHE", "1") != "0"
    for port in (redis_port, web_port):
        if not _port_free(port):
            raise RuntimeError(f"port {port} is in use: set ZSIZER_BENCH_REDIS_PORT / ZSIZER_BENCH_PORT")
    logs = log_dir or Path(tempfile.mkdtemp(prefix="zsizer-bench-"))
    logs.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.bench",
        "DATABASE_URL": db_url,
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{redis_port}/0",
        # Answers shared between the web processes through Redis (ZSIZER_CACHE_URL) unless
        # ZSIZER_BENCH_SHARED_CACHE=0: then each process keeps its own, the default of the app.
        "ZSIZER_CACHE_URL": f"redis://127.0.0.1:{redis_port}/1" if shared_cache else "",
        "PYTHONPATH": str(REPO),
    }
    processes: list[subprocess.Popen[bytes]] = []
    try:
        redis_dir = logs / "redis"
        redis_dir.mkdir(exist_ok=True)
        redis_server = shutil.which("redis-server")
        if redis_server is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        processes.append(
            _start(
                [
                    redis_server,
                    "--port",
                    str(redis_port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(redis_dir),
                ],  # fmt: skip
                env,
                logs / "redis.log",
            )
        )
        _wait_port("127.0.0.1", redis_port, 15)
        _ensure_database(db_url)
        _manage(env, "migrate", "--noinput", "-v0")
        _manage(env, "load_benchmarks", "-v0")
        user = "bench"
        accounts = [user, *(f"{user}-{k}" for k in range(2, ACCOUNTS + 1))]
        tokens = _manage(
            env,
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model;"
            "from rest_framework.authtoken.models import Token;"
            "from sizing.models import Estimate;"
            f"users = [get_user_model().objects.get_or_create(username=n)[0] for n in {accounts!r}];"
            # each run from no saved estimates: a run stores tens of thousands, and the create's
            # quota count would grow from one run to the next
            "Estimate.objects.filter(owner__in=users).delete();"
            "print(' '.join(Token.objects.get_or_create(user=u)[0].key for u in users))",
        ).split()[-len(accounts) :]  # the last words: the shell may print a banner first
        token = tokens[0]
        server = len(processes)
        processes.append(
            _start(
                [
                    str(VENV_BIN / "gunicorn"),
                    "--config",
                    str(REPO / "config" / "gunicorn.py"),
                    "config.wsgi:application",
                    "--bind",
                    f"127.0.0.1:{web_port}",
                    "--workers",
                    str(workers),
                    "--threads",
                    str(threads),
                    *os.environ.get("ZSIZER_BENCH_GUNICORN_ARGS", "").split(),
                ],  # fmt: skip
                env,
                logs / "gunicorn.log",
            )
        )
        if celery_concurrency:
            queue = env.get("ZSIZER_TASK_QUEUE", "zsizer-bench")
            processes.append(
                _start(
                    [
                        str(VENV_BIN / "celery"),
                        "-A",
                        "config",
                        "worker",
                        "--loglevel=WARNING",
                        "--pool=prefork",
                        f"--concurrency={celery_concurrency}",
                        "-Q",  # both queues (sizing.services.jobs.job_queue): a curve is interactive
                        f"{queue},{queue}-interactive",
                    ],  # fmt: skip
                    env,
                    logs / "celery.log",
                )
            )
        _wait_port("127.0.0.1", web_port, 30)
        base = f"http://127.0.0.1:{web_port}"
        for _ in range(100):
            req = urllib.request.Request(f"{base}/api/v1/machines/", headers={"Authorization": f"Token {token}"})
            try:
                with urllib.request.urlopen(req, timeout=5) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                time.sleep(0.2)
        else:
            raise RuntimeError(f"gunicorn did not answer; see {logs / 'gunicorn.log'}")
        yield Stack(
            base, env, token, user, processes, workers, threads, celery_concurrency, shared_cache, processes[server].pid,
            tokens,
        )  # fmt: skip
    finally:
        for proc in reversed(processes):
            _stop(proc)
