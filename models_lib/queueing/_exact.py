"""Exact single-class closed-network solution by a scaled convolution of normalising constants.

The product-form normalising constant of a closed network of queue stations and one delay
(think time plus infinite-server stations) is G(n) = (g_0 * f_1 * ... * f_K)(n) with

* delay: g_0(j) = Z**j / j!
* c-server queue with demand D: f(j) = D**j / prod_{i<=j} min(i, c).

The generating function of a c-server term is rational, F(z) = B(z) / (1 - (D/c) z) with
B(z) = sum_{j<c} b_j z**j and b_j = D**j / j! * (1 - j/c) >= 0 (the z**c coefficient cancels).
Convolving with it is therefore an FIR filter with c non-negative taps followed by a one-pole
IIR filter: O(N c) with no subtraction anywhere, which is what keeps it exact where the
marginal-probability recursion of load-dependent MVA cancels catastrophically.

Mean queue lengths follow from Q_k(n) G(n) = sum_j j f_k(j) G_{-k}(n-j), whose generating
function z F'(z) G_{-k}(z) = [z B'(z) G_{-k}(z) + (D/c) z G(z)] / (1 - (D/c) z) is again a
non-negative FIR + one-pole filter; it needs the complement G_{-k} (the network without
station k) only for multi-server stations.  Putting the multi-server stations last in the
chain, the last one's complement is the chain prefix; the others cost m(m-1)/2 extra filters.

G(n) spans thousands of orders of magnitude, so populations are processed in blocks.  Inside a
block every sequence is stored as s(n) G(n) with a geometric scale s(n) = s(n0 - 1) x**(n-n0+1),
x = X(n0 - 1); a filter then just uses taps b_j x**j and pole (D/c) x.  Because X(n) never
decreases, the scaled G of the whole network only decreases within a block (no overflow), and
every sub-network is bounded by it.  Blocks are cut before the scaled G can fall below
exp(-budget), using the asymptotic upper bound on X(n); history is rescaled between blocks.
The budget shrinks with the servers of the multi-server stations (see the constants below).

References
----------
.. [1] J. P. Buzen, "Computational algorithms for closed queueing networks with exponential
   servers", Comm. ACM 16(9), 1973, pp. 527-531.
.. [2] S. S. Lavenberg (ed.), *Computer Performance Modeling Handbook*, Academic Press, 1983
   (convolution for load-dependent stations).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from scipy.signal import lfilter

# Scaled values stay in [exp(-budget), 1], budget <= _BUDGET.  A c-server FIR tap b_j x**j
# reaches T ~ exp(c) / sqrt(2 pi c) near saturation and multiplies a history value that is
# correspondingly small; along a chain of multi-server stations these gains multiply, so a value
# that still matters to the whole network can be as small as eps exp(-budget) / prod_k T_k.
# Keeping that above the smallest normal double (exp(-708)) with room for the eps (39) and the
# factor j of the queue-length taps (log 600 ~ 6.4) gives budget <= _FLOOR - sum_k log T_k, and
# MAX_TOTAL_SERVERS keeps the budget positive.
_BUDGET = 460.0
_FLOOR = 660.0
MAX_TOTAL_SERVERS = 600
_FIRST_WINDOW = 256
_TINY = float(np.finfo(np.float64).tiny)  # smallest normal double; anything below is flushed

FloatArray = NDArray[np.float64]


@dataclass
class _Chain:
    """One network in the chain: its parent network plus one queue station (or the delay root)."""

    parent: int  # index of the parent network, -1 for the delay root
    demand: float
    servers: int
    history: FloatArray  # last `depth` scaled values G(n0-depth..n0-1), oldest first
    block: FloatArray = field(default_factory=lambda: np.empty(0))


def budget_for(servers: list[int]) -> float:
    """Log-range a block may use, given the servers of the multi-server stations that can queue."""
    gains = sum(c - 0.5 * np.log(2.0 * np.pi * c) for c in servers if c > 1)
    return float(min(_BUDGET, _FLOOR - gains))


def _taps(demand: float, servers: int, x: float) -> FloatArray:
    """b_j x**j = (D x)**j / j! (1 - j/c) for j < c, by a running product, trailing zeros dropped.

    Finite for c <= MAX_TOTAL_SERVERS; taps below the smallest normal double are set to zero
    (subnormal operands make every multiplication ~30 times slower) and trimmed.
    """
    ratio = demand * x / np.arange(1, servers, dtype=np.float64)
    power = np.concatenate(([1.0], np.cumprod(ratio)))
    taps: FloatArray = power * (1.0 - np.arange(servers, dtype=np.float64) / servers)
    taps[taps < _TINY] = 0.0
    return taps[: int(np.flatnonzero(taps)[-1]) + 1]


def _fir(history: FloatArray, block: FloatArray, taps: FloatArray) -> FloatArray:
    """sum_j taps[j] u(n-j) over one block, with the last taps.size - 1 values of u before it."""
    if taps.size == 1:
        drive: FloatArray = taps[0] * block
        return drive
    extended = np.concatenate((history[history.size - (taps.size - 1) :], block))
    drive = np.convolve(extended, taps, mode="valid")
    drive[drive < _TINY] = 0.0
    return drive


def _one_pole(drive: FloatArray, pole: float, last: float) -> FloatArray:
    """y(n) = pole y(n-1) + drive(n), y before the block = ``last``; subnormal results flushed to 0.

    A sub-network negligible against the whole network decays geometrically into the subnormal
    range, where pole * y can round back to y (one ulp) forever and every operation is ~30 times
    slower.  Past the last non-zero drive the output is the pure decay last * pole**k, so it is
    evaluated in closed form instead of through lfilter.
    """
    nonzero = np.flatnonzero(drive)
    end = int(nonzero[-1]) + 1 if nonzero.size else 0
    out = np.zeros_like(drive)
    if end:
        out[:end], _ = lfilter([1.0], [1.0, -pole], drive[:end], zi=[pole * last])
        last = float(out[end - 1])
    if end < drive.size and last >= _TINY and pole > 0.0:
        steps = np.arange(1, drive.size - end + 1, dtype=np.float64)
        out[end:] = np.exp(np.log(last) + steps * np.log(pole))
    out[out < _TINY] = 0.0
    return out


def _build_chains(
    demands: FloatArray, servers: NDArray[np.int64], single: list[int], multi: list[int], root_delay: float, depth: int
) -> tuple[list[_Chain], int, dict[int, int]]:
    """The convolution chains of :func:`exact_curves`: the main chain (delay, then every queue
    station, single-server first) and, for each multi-server station, the chain of the network
    without it.  Returns the chains, the index of the main chain's last node and, per
    multi-server station, the index of its complement's last node."""

    def fresh_history() -> FloatArray:
        # G(n) = 0 for n < 0 and G(0) = 1 for every network; scale s(0) = 1.
        history = np.zeros(depth)
        history[-1] = 1.0
        return history

    chains: list[_Chain] = [_Chain(parent=-1, demand=root_delay, servers=0, history=fresh_history())]
    prefix_before: dict[int, int] = {}  # station -> chain node just before it
    for k in single + multi:
        prefix_before[k] = len(chains) - 1
        chains.append(_Chain(len(chains) - 1, float(demands[k]), int(servers[k]), fresh_history()))
    main = len(chains) - 1
    complement: dict[int, int] = {}
    for i, k in enumerate(multi):
        parent = prefix_before[k]
        for other in multi[i + 1 :]:
            chains.append(_Chain(parent, float(demands[other]), int(servers[other]), fresh_history()))
            parent = len(chains) - 1
        complement[k] = parent
    return chains, main, complement


def exact_curves(
    demands: FloatArray, servers: NDArray[np.int64], delay: float, clients: int
) -> tuple[FloatArray, FloatArray]:
    """Throughput X(n) and station queue lengths Q_k(n) for n = 1..clients, exactly.

    Parameters
    ----------
    demands : ndarray of float
        Service demand of each queue station, s per job (>= 0).
    servers : ndarray of int
        Servers of each queue station (>= 1).
    delay : float
        Total delay per cycle, s: think time plus the demands of infinite-server stations.
    clients : int
        Population N >= 1.  ``delay + demands.sum()`` must be > 0.

    Returns
    -------
    throughput : ndarray, shape (N,)
        X(n), jobs/s, for n = 1..N.
    queue_length : ndarray, shape (K, N)
        Mean number of jobs at each queue station (waiting or in service) for n = 1..N.
    """
    n_total = clients
    throughput = np.empty(n_total)
    queue = np.zeros((demands.size, n_total))

    active = [k for k in range(demands.size) if demands[k] > 0.0 and servers[k] < n_total]
    # A station with c >= N servers never queues at populations <= N: it is a delay there.
    as_delay = [k for k in range(demands.size) if demands[k] > 0.0 and servers[k] >= n_total]
    root_delay = delay + float(sum(demands[k] for k in as_delay))
    single = [k for k in active if servers[k] == 1]
    multi = [k for k in active if servers[k] > 1]
    x_first = 1.0 / (root_delay + float(sum(demands[k] for k in active)))  # X(1), exactly
    x_max = min((servers[k] / demands[k] for k in active), default=np.inf)
    depth = max([int(servers[k]) - 1 for k in active] + [1])
    budget = budget_for([int(servers[k]) for k in active])

    chains, main, complement = _build_chains(demands, servers, single, multi, root_delay, depth)
    # y_k = Q_k G at the last population of the previous block (Q_k(0) = 0).
    queue_last = {k: 0.0 for k in active}

    start = 1  # first population of the current block
    x_prev = x_first
    window = _FIRST_WINDOW
    while start <= n_total:
        x = x_first if start == 1 else float(throughput[start - 2])
        # Move all history to the new block's scale: normalise G(start-1) of the whole network to 1
        # and re-base the geometric factor from x_prev to x (lag l gets (x_prev / x)**l).
        inverse = 1.0 / float(chains[main].history[-1])
        lags = np.arange(depth - 1, -1, -1, dtype=np.float64)
        factor = inverse * np.exp(-lags * np.log(x / x_prev))
        for chain in chains:
            chain.history = chain.history * factor
        for k in queue_last:
            queue_last[k] *= inverse

        length = _block_length(start, n_total, x, x_first, x_max, window, budget)
        pops = np.arange(start, start + length, dtype=np.float64)
        root = chains[0]
        root.block = _delay_block(float(root.history[-1]), root_delay * x, pops)
        for chain in chains[1:]:
            source = chains[chain.parent]
            pole = chain.demand / chain.servers * x
            drive = _fir(source.history, source.block, _taps(chain.demand, chain.servers, x))
            chain.block = _one_pole(drive, pole, float(chain.history[-1]))
        whole = chains[main].block
        # Safety net (never expected to fire): the bound guarantees exp(-budget) <= whole <= 1.
        valid = (whole >= np.exp(-budget - 1.0)) & (whole <= np.exp(1.0))
        if not valid.all():
            length = max(1, int(np.argmin(valid)))
            whole = whole[:length]
            for chain in chains:
                chain.block = chain.block[:length]
        previous = np.concatenate(([float(chains[main].history[-1])], whole[:-1]))
        throughput[start - 1 : start - 1 + length] = x * previous / whole

        for k in active:
            scaled = _scaled_queue(
                chains, complement, float(demands[k]), int(servers[k]), k, x, previous, queue_last[k]
            )
            queue[k, start - 1 : start - 1 + length] = scaled / whole
            queue_last[k] = float(scaled[-1])

        for chain in chains:
            chain.history = np.concatenate((chain.history, chain.block))[-depth:]
        x_prev = x
        window = max(window, 2 * length)
        start += length

    for k in as_delay:
        queue[k] = throughput * demands[k]
    return throughput, queue


def _scaled_queue(
    chains: list[_Chain],
    complement: dict[int, int],
    demand: float,
    c: int,
    k: int,
    x: float,
    previous: FloatArray,
    last: float,
) -> FloatArray:
    """Q_k G over a block for station ``k`` (``demand`` s, ``c`` servers) from the block's
    normalisation ``previous`` and the scaled queue length ``last`` before the block."""
    pole = demand / c * x
    drive = pole * previous
    if c > 1:
        comp = chains[complement[k]]
        taps = _taps(demand, c, x)
        drive = drive + _fir(comp.history, comp.block, taps * np.arange(taps.size, dtype=np.float64))
    scaled, _ = lfilter([1.0], [1.0, -pole], drive, zi=[pole * last])
    return np.asarray(scaled, dtype=np.float64)


def _delay_block(last: float, rate: float, pops: FloatArray) -> FloatArray:
    """Scaled Z**n / n! over a block: last * prod_{i<=n} (Z x / i), stopped before it turns subnormal."""
    block = np.zeros_like(pops)
    if last < _TINY or rate == 0.0:
        return block
    factors = rate / pops  # <= 1: Z X(n0-1) <= n0 - 1 since n0 - 1 = X(n0-1) (Z + R(n0-1))
    logs = np.log(last) + np.cumsum(np.log(factors))
    below = logs < np.log(_TINY) + 1.0
    stop = int(np.argmax(below)) if below.any() else pops.size
    block[:stop] = last * np.cumprod(factors[:stop])
    block[block < _TINY] = 0.0
    return block


def _block_length(start: int, n_total: int, x: float, x_first: float, x_max: float, window: int, budget: float) -> int:
    """Longest block from ``start`` over which the scaled G cannot fall below exp(-budget).

    Scaled G(n) = prod_{i=start..n} x / X(i) >= prod x / X_up(i) with the asymptotic bound
    X_up(i) = min(i X(1), X_max) (Lazowska et al., QSP, ch. 5).
    """
    remaining = n_total - start + 1
    span = min(remaining, window)
    pops = np.arange(start, start + span, dtype=np.float64)
    cost = np.cumsum(np.log(np.minimum(pops * x_first, x_max) / x))
    over = cost > budget
    if over.any():
        return max(1, int(np.argmax(over)))
    length = span
    if span < remaining and np.isfinite(x_max):
        # Beyond the window each step costs at most log(X_max / x).
        step = float(np.log(x_max / x))
        spare = budget - float(cost[-1])
        extra = remaining - span if step <= 0.0 else min(remaining - span, int(spare / step))
        length += max(extra, 0)
    return length
