"""CPU seconds the server side of a bench used: gunicorn's processes and the PostgreSQL backends
serving the bench database (read from /proc; Linux only, else 0).

Throughput on a shared machine moves with everybody else's load; the CPU the server spends per
request moves much less, so the bench reports both.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _cpu_s(pid: int) -> float:
    fields = _stat(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / _TICKS  # utime + stime


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else []:
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid:  # ppid
                out.append(int(entry.name))
    return out


class ServerCpu:
    """A clock of the server side's CPU seconds that never runs backwards: each call adds what
    every process seen at both readings used in between, and the whole of what a process new
    since the last reading used.

    A PostgreSQL backend closes after ``CONN_MAX_AGE`` (60 s) and a new one opens: summing the
    CPU of the processes alive at each end of a phase  lost the whole
    life of the closed one and could come out negative.  What a process used between the last
    reading and its end is not seen (it is gone), so the figure is a little low, never below 0.
    A gunicorn worker that ended is counted by its master as a reaped child (cutime, cstime)."""

    def __init__(self, server_pid: int, backends: Callable[[], list[int]]) -> None:
        self.server_pid, self.backends = server_pid, backends
        self.seen: dict[int, float] = {}
        self.total = 0.0

    def __call__(self) -> float:
        pids = [*_children(self.server_pid), *self.backends()]
        now = {p: _cpu_s(p) for p in pids}
        master = self.server_pid
        fields = _stat(master)
        now[master] = 0.0 if fields is None else sum(int(f) for f in fields[11:15]) / _TICKS
        self.total += sum(max(0.0, cpu - self.seen.get(pid, 0.0)) for pid, cpu in now.items())
        self.seen = now
        return self.total


def backend_pids(database_url: str) -> list[int]:
    """PIDs of the PostgreSQL backends connected to the database of ``database_url``."""
    import psycopg

    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()"
        ).fetchall()
    return [int(r[0]) for r in rows]
