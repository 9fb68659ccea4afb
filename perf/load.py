"""A closed-loop HTTP load generator: N client threads, each sending its next request when the last returns.

Every request opens its own connection (gunicorn's sync workers close it after each response).
Latency is measured from before the connect to the end of the body, with time.perf_counter.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
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

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "latencies_ms"}


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
    return _summary(
        parts[0].name, parts[0].clients, sum(p.seconds for p in parts), lat, sum(p.errors for p in parts), first
    )


def _send(host: str, port: int, token: str, req: Request) -> tuple[int, bytes]:
    method, path, body = req
    conn = http.client.HTTPConnection(host, port, timeout=30)
    try:
        headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def run_phase(
    name: str,
    *,
    base_url: str,
    token: str,
    make_request: Callable[[int], Request],
    expect: int,
    clients: int,
    seconds: float,
    warmup_s: float = 2.0,
) -> Phase:
    """Run ``clients`` closed-loop clients for ``warmup_s`` (not counted) then ``seconds``."""
    url = urlparse(base_url)
    host, port = url.hostname or "127.0.0.1", url.port or 80
    counter = iter(range(10**12))
    lock = threading.Lock()
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    first_error: list[str] = []
    start = time.perf_counter()
    measure_from = start + warmup_s
    stop_at = measure_from + seconds

    def client(i: int) -> None:
        while True:
            with lock:
                n = next(counter)
            req = make_request(n)
            t0 = time.perf_counter()
            if t0 >= stop_at:
                return
            try:
                status, body = _send(host, port, token, req)
                ok = status == expect
                detail = f"{status} {body[:200]!r}"
            except OSError as exc:
                ok, detail = False, repr(exc)
            t1 = time.perf_counter()
            if t0 >= measure_from and t1 <= stop_at:
                latencies[i].append((t1 - t0) * 1000.0)
                if not ok:
                    errors[i] += 1
                    if not first_error:
                        first_error.append(f"{req[0]} {req[1]}: {detail}")

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lat = np.array([x for per in latencies for x in per])
    return _summary(name, clients, seconds, lat, sum(errors), first_error[0] if first_error else "")
