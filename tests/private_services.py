"""A PostgreSQL cluster, a Redis server and a gunicorn web app of a test's own, on spare ports.

Fault tests stop and restart services; they must never touch the machine's own PostgreSQL
(5432) or Redis (6379).  So they start their own here, in a temporary directory, and stop only
the processes they started (by pid, each in its own process group):

* :class:`PrivatePostgres`: ``initdb`` / ``pg_ctl`` from ``/usr/lib/postgresql/<version>/bin``
  (as the ``postgres`` user when the tests run as root, which PostgreSQL refuses to run as),
  trust authentication on 127.0.0.1, durability off (a test cluster).
* :class:`PrivateRedis`: ``redis-server`` without persistence, so a restart loses its queues,
  as a Redis restarted without AOF or after a crash does.
* :func:`start_web`: gunicorn serving ``config.wsgi`` with the given environment.
"""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A port nothing listens on now (the kernel's choice of an ephemeral one)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, *, timeout: float = 30.0, up: bool = True) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            s.settimeout(0.2)
            if (s.connect_ex(("127.0.0.1", port)) == 0) == up:
                return
        time.sleep(0.05)
    raise TimeoutError(f"port {port} still {'closed' if up else 'open'} after {timeout} s")


def stop_process(process: subprocess.Popen[bytes], *, timeout: float = 15.0) -> None:
    """SIGTERM the process group this test started, then SIGKILL if it lingers."""
    if process.poll() is not None:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=timeout)
            return
        except subprocess.TimeoutExpired:
            continue


def postgres_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(f"{name} not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)")
    return found[-1]


def _as_postgres() -> Callable[[], None] | None:
    """PostgreSQL will not run as root: drop to the ``postgres`` user when we are root."""
    if os.geteuid() != 0:
        return None
    entry = pwd.getpwnam("postgres")

    def demote() -> None:
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)

    return demote


class PrivatePostgres:
    """A throw-away cluster in ``root`` on ``port``: :meth:`start`, :meth:`stop`, :meth:`url`."""

    def __init__(self, root: Path, port: int) -> None:
        self.root = root
        self.port = port
        self.data = root / "pgdata"
        self.log = root / "postgres.log"
        if os.geteuid() == 0:
            entry = pwd.getpwnam("postgres")
            os.chown(root, entry.pw_uid, entry.pw_gid)
        self._run([postgres_bin("initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync"])

    def _run(self, command: list[str]) -> None:
        subprocess.run(command, check=True, capture_output=True, preexec_fn=_as_postgres(), cwd=self.root, timeout=120)

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        pg_ctl = postgres_bin("pg_ctl")
        self._run([pg_ctl, "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start"])

    def stop(self, mode: str = "fast") -> None:
        """``fast``: connections are cut, as when an operator restarts the server."""
        if (self.data / "postmaster.pid").exists():
            self._run([postgres_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop"])

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"


class PrivateRedis:
    """``redis-server`` on ``port`` without persistence: :meth:`start`, :meth:`stop`."""

    def __init__(self, root: Path, port: int) -> None:
        self.root = root
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        server = shutil.which("redis-server")
        if server is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        command = [
            server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", str(self.root),
        ]  # fmt: skip
        with (self.root / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_port(self.port)

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)
            self.process = None
        wait_port(self.port, up=False)

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"


def manage(env: dict[str, str], *args: str) -> str:
    """``manage.py`` in a subprocess with ``env``; its standard output."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, check=True, capture_output=True, text=True, timeout=300
    )
    return done.stdout


#: gunicorn's worker timeout (s): a request still running after it has its worker killed and
#: restarted (gunicorn logs ``WORKER TIMEOUT``), and the client sees its connection dropped.
WEB_WORKER_TIMEOUT_S = 60
#: The test client's timeout (s).  It only guards against a hang, never measures speed: a loaded
#: 2-core machine (load 5-8, the suite's other workers) can take tens of seconds for one
#: request, so it is longer than the web's own limit, which answers first for a stuck request.
#: A test that asserts a time limit measures it itself.
HTTP_TIMEOUT_S = WEB_WORKER_TIMEOUT_S + 30.0


def start_web(env: dict[str, str], port: int, log: Path, *, workers: int = 2) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
        "--workers", str(workers), "--timeout", str(WEB_WORKER_TIMEOUT_S),
    ]  # fmt: skip
    with log.open("ab") as out:
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    wait_port(port, timeout=60)
    return process


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: Any


def http(
    base_url: str, token: str, method: str, path: str, body: Any = None, timeout: float = HTTP_TIMEOUT_S
) -> Answer:
    """One JSON request with the token; any status is an answer (no exception for 4xx/5xx);
    ``timeout``: a guard against a hang (:data:`HTTP_TIMEOUT_S`)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base_url + path, data=data, method=method)
    request.add_header("Authorization", f"Token {token}")
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, headers, raw = response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        status, headers, raw = error.code, dict(error.headers), error.read()
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = raw.decode(errors="replace")
    return Answer(status, headers, parsed)
