"""Speed of models_lib.queueing against plain baselines measured in the same run (not a test).

Run ``python perf/bench_queueing.py``.  Every row times one workload (best of several repeats,
time.perf_counter) next to a baseline doing the same job the plain way:

* exact MVA, N = 10,000 clients, 4 stations (an 18-CP LPAR, two single-server
  devices, a network delay), think time 0.5 s: against the textbook exact load-dependent MVA
  recursion (Reiser and Lavenberg 1980, marginal probabilities of the 18-server station),
  written in numpy and measured directly at the same N (one run: it is O(N^2)); and for scale
  a single ``np.convolve`` of two N-length arrays.
* a 1,000-point M/M/c response-time curve: ``mmc_response_times`` against a Python loop of
  ``mmc`` calls.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models_lib.queueing import Station, mmc, mmc_response_times, mva  # noqa: E402
from perf.record import record  # noqa: E402
from perf.timing import best_of  # noqa: E402

THINK_TIME = 0.5  # s
STATIONS = (
    Station("CP", 0.005, servers=18),  # 5 ms of CP per transaction on 18 CPs: saturates at 3600/s
    Station("DASD", 0.00025),
    Station("CF", 0.0001),
    Station("NET", 0.002, kind="delay"),
)


def textbook_ld_mva(stations: tuple[Station, ...], clients: int, think_time: float) -> NDArray[np.float64]:
    """Exact MVA with the load-dependent marginal recursion; returns X(n) for n = 1..N, jobs/s.

    R_k(n) = D_k sum_{j=1..n} j / min(j, c_k) p_k(j-1 | n-1);  p_k(j | n) = X(n) D_k / min(j, c_k)
    p_k(j-1 | n-1) for j >= 1 and p_k(0 | n) = 1 - sum_{j>=1} p_k(j | n), the subtraction that
    cancels past saturation.
    """
    delay = think_time + sum(s.demand for s in stations if s.kind == "delay")
    queues = [s for s in stations if s.kind == "queue"]
    single = [s for s in queues if s.servers == 1]
    multi = [s for s in queues if s.servers > 1]
    q_single = np.zeros(len(single))
    d_single = np.array([s.demand for s in single])
    probs = [np.zeros(clients + 1) for _ in multi]
    for p in probs:
        p[0] = 1.0
    rates = [np.minimum(np.arange(1, clients + 1), s.servers).astype(np.float64) for s in multi]
    weights = [np.arange(1, clients + 1) / r for r in rates]
    throughput = np.empty(clients)
    for n in range(1, clients + 1):
        r_single = d_single * (1.0 + q_single)
        r_multi = [s.demand * float(np.dot(w[:n], p[:n])) for s, w, p in zip(multi, weights, probs, strict=True)]
        x = n / (delay + r_single.sum() + sum(r_multi))
        throughput[n - 1] = x
        q_single = x * r_single
        for s, r, p in zip(multi, rates, probs, strict=True):
            p[1 : n + 1] = x * s.demand / r[:n] * p[:n]
            p[0] = 1.0 - p[1 : n + 1].sum()
    return throughput


def _row(name: str, seconds: float, baseline: str, baseline_seconds: float) -> str:
    record("queueing", name=name, seconds=seconds, baseline=baseline, baseline_seconds=baseline_seconds)
    return f"{name:<34} {seconds:>11.6f} {baseline:<40} {baseline_seconds:>11.6f} {baseline_seconds / seconds:>9.1f}"


def main() -> None:
    print(f"{'workload':<34} {'seconds':>11} {'baseline':<40} {'baseline s':>11} {'speedup':>9}")
    rng = np.random.default_rng(0)
    for clients in (10_000,):
        a, b = rng.random(clients), rng.random(clients)
        ours = best_of(lambda: mva(STATIONS, clients, THINK_TIME), repeats=7)  # noqa: B023 (called at once)
        # N = 10,000 only: np.convolve is O(N^2) (N = 50,000 took 30-90 s and N = 20,000 32 s on
        # this loaded 2-core machine, too much of the 10 minutes make bench may take).
        conv = best_of(lambda: np.convolve(a, b), repeats=3)  # noqa: B023
        print(_row(f"exact MVA N={clients:,} (4 stations)", ours, f"np.convolve two {clients:,}-arrays", conv))
        if clients == 10_000:
            start = time.perf_counter()
            textbook = textbook_ld_mva(STATIONS, clients, THINK_TIME)
            plain = time.perf_counter() - start
            print(_row(f"exact MVA N={clients:,} (4 stations)", ours, "textbook LD-MVA recursion, same N", plain))
            exact = mva(STATIONS, clients, THINK_TIME)
            assert exact.throughput_curve is not None
            drift = np.abs(textbook / exact.throughput_curve - 1.0)
            print(
                f"{'':<34} textbook LD-MVA vs exact: max |rel. diff| in X(n) = {drift.max():.2e} "
                f"(at n = {int(drift.argmax()) + 1}); X(N) = {textbook[-1]:.6g} vs {exact.throughput:.6g}/s"
            )

    service, servers = 0.005, 18
    rates = np.linspace(0.0, 0.99 * servers / service, 1_000)
    vectorised = best_of(lambda: mmc_response_times(rates, service, servers), repeats=20)
    loop = best_of(lambda: [mmc(float(lam), service, servers).response_time for lam in rates], repeats=5)
    print(_row("M/M/18 R(lambda), 1,000 points", vectorised, "Python loop of mmc()", loop))


if __name__ == "__main__":
    main()
