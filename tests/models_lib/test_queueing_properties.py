"""Property tests for models_lib.queueing: monotonicity, bounds, and exactness on random networks.

The exact solver is compared with the product-form solution evaluated in rational arithmetic
(fractions.Fraction: no rounding at all), so a failure there is the solver's error, not the
reference's.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from models_lib.queueing import Station, mmc, mva

# Exact results are monotone; the solver's relative rounding is ~1e-13, so comparisons allow 1e-12.
SLACK = 1e-12

FAST = settings(max_examples=60, deadline=None)

demands = st.integers(min_value=0, max_value=400).map(lambda i: i / 4000)  # 0..0.1 s
think_times = st.sampled_from([0.0, 0.01, 0.5, 1.0, 5.0])


@st.composite
def stations(draw: st.DrawFn, max_stations: int = 4, max_servers: int = 24) -> list[Station]:
    count = draw(st.integers(min_value=1, max_value=max_stations))
    result = []
    for i in range(count):
        kind: Literal["queue", "delay"] = draw(st.sampled_from(["queue", "queue", "queue", "delay"]))
        servers = draw(st.integers(min_value=1, max_value=max_servers)) if kind == "queue" else 1
        result.append(Station(f"S{i}", draw(demands), servers, kind))
    return result


def _solvable(network: list[Station], think: float) -> bool:
    return think + sum(s.demand for s in network) > 0.0


@FAST
@given(
    service=st.floats(min_value=1e-4, max_value=2.0),
    servers=st.integers(min_value=1, max_value=80),
    rho=st.floats(min_value=0.0, max_value=0.999),
)
def test_mmc_more_servers_never_raise_response_time(service: float, servers: int, rho: float) -> None:
    arrival = rho * servers / service
    fewer = mmc(arrival, service, servers)
    more = mmc(arrival, service, servers + 1)
    assert more.response_time <= fewer.response_time * (1 + SLACK)
    assert more.p_wait <= fewer.p_wait * (1 + SLACK) + 1e-300
    assert 0.0 <= fewer.utilization < 1.0 and 0.0 <= fewer.p_wait <= 1.0


@FAST
@given(network=stations(), think=think_times, clients=st.integers(min_value=1, max_value=300), data=st.data())
def test_mva_more_servers_never_raise_response_time(
    network: list[Station], think: float, clients: int, data: st.DataObject
) -> None:
    queues = [i for i, s in enumerate(network) if s.kind == "queue"]
    if not queues or not _solvable(network, think):
        return
    k = data.draw(st.sampled_from(queues))
    bigger = list(network)
    bigger[k] = Station(network[k].name, network[k].demand, network[k].servers + 1)
    before = mva(network, clients, think)
    after = mva(bigger, clients, think)
    assert after.response_time <= before.response_time * (1 + SLACK)
    assert after.throughput >= before.throughput * (1 - SLACK)


@FAST
@given(network=stations(), think=think_times, clients=st.integers(min_value=1, max_value=400))
def test_mva_more_clients_never_lower_throughput(network: list[Station], think: float, clients: int) -> None:
    if not _solvable(network, think):
        return
    result = mva(network, clients, think)
    curve = result.throughput_curve
    assert curve is not None
    assert np.all(curve[1:] >= curve[:-1] * (1 - SLACK))
    assert np.all(np.isfinite(curve)) and np.all(curve > 0.0)


@FAST
@given(
    network=stations(),
    think=think_times,
    clients=st.integers(min_value=0, max_value=400),
    method=st.sampled_from(["exact", "schweitzer"]),
)
def test_mva_utilization_never_exceeds_one_and_bounds_hold(
    network: list[Station], think: float, clients: int, method: str
) -> None:
    if not _solvable(network, think):
        return
    result = mva(network, clients, think, method=method)  # type: ignore[arg-type]
    for s in network:
        assert 0.0 <= result.utilization[s.name] <= 1.0
        # The unclipped busy fraction X D / c, too (the result clips one-ulp overshoots).
        assert result.throughput * s.demand / s.servers <= 1.0 + SLACK or s.kind == "delay"
    bounds = result.bounds()
    assert result.throughput <= bounds.throughput_upper * (1 + SLACK)
    if method == "exact":
        assert result.throughput >= bounds.throughput_lower * (1 - SLACK)
        assert bounds.response_time_lower * (1 - SLACK) <= result.response_time
        assert result.response_time <= bounds.response_time_upper * (1 + SLACK)


def _exact_rational(network: list[Station], think: float, clients: int) -> tuple[Fraction, dict[str, Fraction]]:
    """X(N) and Q_k(N) of the product form, in exact rational arithmetic.

    G = g_delay * f_1 * ... * f_K with g_delay(j) = Z^j / j! and f_k(j) = D^j / prod min(i, c);
    X = G(N-1) / G(N) and Q_k = sum_j j f_k(j) G_{-k}(N-j) / G(N) (Buzen 1973; Lavenberg 1983).
    """
    n = clients

    def convolve(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
        return [sum((a[m] * b[i - m] for m in range(i + 1)), Fraction(0)) for i in range(n + 1)]

    delay = Fraction(think) + sum((Fraction(s.demand) for s in network if s.kind == "delay"), Fraction(0))
    base = [Fraction(1)]
    for j in range(1, n + 1):
        base.append(base[-1] * delay / j)
    terms: dict[str, list[Fraction]] = {}
    for s in network:
        if s.kind == "queue":
            f = [Fraction(1)]
            for j in range(1, n + 1):
                f.append(f[-1] * Fraction(s.demand) / min(j, s.servers))
            terms[s.name] = f
    total = base
    for f in terms.values():
        total = convolve(total, f)
    queue: dict[str, Fraction] = {}
    for name, f in terms.items():
        others = base
        for other, g in terms.items():
            if other != name:
                others = convolve(others, g)
        queue[name] = sum((j * f[j] * others[n - j] for j in range(n + 1)), Fraction(0)) / total[n]
    return total[n - 1] / total[n], queue


@settings(max_examples=40, deadline=None)
@given(
    network=stations(max_stations=3, max_servers=5),
    think=think_times,
    clients=st.integers(min_value=1, max_value=14),
)
def test_mva_exact_equals_rational_product_form(network: list[Station], think: float, clients: int) -> None:
    if not _solvable(network, think):
        return
    throughput, queue = _exact_rational(network, think, clients)
    result = mva(network, clients, think)
    assert_allclose(result.throughput, float(throughput), rtol=1e-13)
    for name, expected in queue.items():
        assert_allclose(result.queue_length[name], float(expected), rtol=1e-12, atol=1e-300)
