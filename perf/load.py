"""A closed-loop HTTP load generator: N client threads, each sending its next request when the last returns.

Each client keeps its HTTP/1.1 connection open between requests, as a browser does (it opens a
new one when the server closes it).  Latency is measured from sending the request to the end of
the body (including a connect where one is made), with time.perf_counter.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlparse

import numpy as np

#: A request: method, path (with query), JSON body or None.
Request = tuple[str, str, Any]


@dataclass(frozen=True)
class Phase:
    """What one phase measured (latencies in ms, throughput in requests/s)."""

    name: str
    clients: int
    seconds: float
    requests: int
    errors: int
    throughput: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    first_error: str
    latencies_ms: tuple[float, ...] = ()
    server_cpu_s: float | None = None  # CPU of gunicorn and its PostgreSQL backends in the window
    think_s: float = 0.0

    @property
    def server_cpu_ms_per_request(self) -> float | None:
        if self.server_cpu_s is None or not self.requests:
            return None
        return self.server_cpu_s * 1000.0 / self.requests

    @property
    def littles_law_ms(self) -> float:
        """Mean response time a closed loop of ``clients`` must see at this throughput
        (Little's law: R = N / X - Z); no server can make it shorter at this throughput."""
        return (self.clients / self.throughput - self.think_s) * 1000.0 if self.throughput else float("nan")

    def to_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k != "latencies_ms"}
        out["server_cpu_ms_per_request"] = self.server_cpu_ms_per_request
        out["littles_law_mean_ms"] = self.littles_law_ms
        return out


def _summary(name: str, clients: int, seconds: float, lat: np.ndarray, errors: int, first_error: str) -> Phase:
    n = int(lat.size)
    return Phase(
        name=name,
        clients=clients,
        seconds=seconds,
        requests=n,
        errors=errors,
        throughput=n / seconds,
        p50_ms=float(np.percentile(lat, 50)) if n else float("nan"),
        p90_ms=float(np.percentile(lat, 90)) if n else float("nan"),
        p99_ms=float(np.percentile(lat, 99)) if n else float("nan"),
        max_ms=float(lat.max()) if n else float("nan"),
        first_error=first_error,
        latencies_ms=tuple(lat.tolist()),
    )


def combine(parts: list[Phase]) -> Phase:
    """One phase from several slices of it (interleaved rounds): requests and time add up."""
    lat = np.array([x for p in parts for x in p.latencies_ms])
    first = next((p.first_error for p in parts if p.first_error), "")
    phase = _summary(
        parts[0].name, parts[0].clients, sum(p.seconds for p in parts), lat, sum(p.errors for p in parts), first
    )
    cpu = [p.server_cpu_s for p in parts]
    return replace(phase, server_cpu_s=None if None in cpu else sum(c or 0.0 for c in cpu), think_s=parts[0].think_s)


class _Client:
    """One client's HTTP/1.1 connection, kept open between requests (as a browser keeps it)."""

    def __init__(self, host: str, port: int, token: str, keep_alive: bool) -> None:
        self.host, self.port, self.keep_alive = host, port, keep_alive
        self.headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        self.conn: http.client.HTTPConnection | None = None

    def send(self, req: Request) -> tuple[int, bytes]:
        method, path, body = req
        headers = dict(self.headers)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if not self.keep_alive:
            headers["Connection"] = "close"
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            self.conn.request(method, path, body=data, headers=headers)
            resp = self.conn.getresponse()
            out = resp.status, resp.read()
            if resp.will_close:
                self.close()
            return out
        except (OSError, http.client.HTTPException):
            self.close()
            raise

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def run_phase(
    name: str,
    *,
    base_url: str,
    token: str | Sequence[str],
    make_request: Callable[[int], Request],
    expect: int,
    clients: int,
    seconds: float,
    warmup_s: float = 2.0,
    keep_alive: bool = True,
    think_s: float = 0.0,
    server_cpu: Callable[[], float] | None = None,
) -> Phase:
    """Run ``clients`` closed-loop clients for ``warmup_s`` (not counted) then ``seconds``.

    Counted: the requests that complete inside the measured window (throughput = completions /
    ``seconds``; a request in flight across an edge of the window is not counted, whichever its
    latency).  Each client waits ``think_s`` x U(0.5, 1.5) between requests (0: none).
    ``server_cpu`` (CPU seconds of the server side) is read at both edges of the window.
    ``token``: one account's, or a sequence of accounts' (client ``i`` signs in with the
    ``i``-th, round the sequence): a room of engineers, each with their own throttles and quotas.
    """
    tokens = [token] if isinstance(token, str) else list(token)
    url = urlparse(base_url)
    host, port = url.hostname or "127.0.0.1", url.port or 80
    counter = iter(range(10**12))
    lock = threading.Lock()
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    first_error: list[str] = []
    cpu: list[float] = []
    start = time.perf_counter()
    measure_from = start + warmup_s
    stop_at = measure_from + seconds

    def client(i: int) -> None:
        conn = _Client(host, port, tokens[i % len(tokens)], keep_alive)
        try:
            _loop(i, conn, random.Random(i))
        finally:
            conn.close()

    def _loop(i: int, conn: _Client, rng: random.Random) -> None:
        while True:
            with lock:
                n = next(counter)
            req = make_request(n)
            t0 = time.perf_counter()
            if t0 >= stop_at:
                return
            try:
                status, body = conn.send(req)
                ok = status == expect
                detail = f"{status} {body[:200]!r}"
            except (OSError, http.client.HTTPException) as exc:
                ok, detail = False, repr(exc)
            t1 = time.perf_counter()
            if measure_from <= t1 <= stop_at:
                latencies[i].append((t1 - t0) * 1000.0)
                if not ok:
                    errors[i] += 1
                    if not first_error:
                        first_error.append(f"{req[0]} {req[1]}: {detail}")
            if think_s > 0:
                time.sleep(min(think_s * rng.uniform(0.5, 1.5), max(0.0, stop_at - time.perf_counter())))

    def sample() -> None:
        for edge in (measure_from, stop_at):
            time.sleep(max(0.0, edge - time.perf_counter()))
            cpu.append(server_cpu() if server_cpu is not None else 0.0)

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    threads.append(threading.Thread(target=sample, daemon=True))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lat = np.array([x for per in latencies for x in per])
    phase = _summary(name, clients, seconds, lat, sum(errors), first_error[0] if first_error else "")
    return replace(phase, server_cpu_s=cpu[1] - cpu[0] if server_cpu is not None else None, think_s=think_s)
