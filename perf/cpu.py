"""CPU seconds the server side of a bench used: gunicorn's processes and the PostgreSQL backends
serving the bench database (read from /proc; Linux only, else 0).

Throughput on a shared machine moves with everybody else's load; the CPU the server spends per
request moves much less, so the bench reports both.
"""

from __future__ import annotations

import os
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


def server_cpu_s(server_pid: int, backend_pids: list[int]) -> float:
    """CPU seconds of ``server_pid``, its children (gunicorn's workers) and ``backend_pids``."""
    return sum(_cpu_s(p) for p in [server_pid, *_children(server_pid), *backend_pids])


def backend_pids(database_url: str) -> list[int]:
    """PIDs of the PostgreSQL backends connected to the database of ``database_url``."""
    import psycopg

    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()"
        ).fetchall()
    return [int(r[0]) for r in rows]
