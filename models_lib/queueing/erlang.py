"""The open M/M/c queue: Erlang C waiting probability, mean times and their distributions.

References
----------
.. [1] A. K. Erlang, "Solution of some problems in the theory of probabilities of significance
   in automatic telephone exchanges", Elektroteknikeren 13, 1917 (the Erlang C formula).
.. [2] L. Kleinrock, *Queueing Systems, Volume 1: Theory*, Wiley, 1975, section 3.5 (M/M/m:
   mean wait and the exponential conditional waiting time).
.. [3] D. Gross, J. F. Shortle, J. M. Thompson, C. M. Harris, *Fundamentals of Queueing
   Theory*, 4th ed., Wiley, 2008, section 2.3 (M/M/c: the Erlang B recursion and the waiting-
   and response-time distributions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import brentq

from models_lib.checks import InputError

from ._checks import as_count, as_time

__all__ = ["MMcResult", "erlang_c", "mmc", "mmc_response_times"]


def _erlang_c_scalar(servers: int, offered_load: float) -> float:
    # Erlang B by its recursion B(k) = a B(k-1) / (k + a B(k-1)): every step adds and divides
    # positive numbers, so it neither overflows (a**c / c! would for c ~ 200) nor cancels.
    blocking = 1.0
    for k in range(1, servers + 1):
        blocking = offered_load * blocking / (k + offered_load * blocking)
    return servers * blocking / (servers - offered_load * (1.0 - blocking))


def _erlang_c_array(servers: int, offered_load: NDArray[np.float64]) -> NDArray[np.float64]:
    blocking = np.ones_like(offered_load)
    for k in range(1, servers + 1):
        carried = offered_load * blocking
        blocking = carried / (k + carried)
    result: NDArray[np.float64] = servers * blocking / (servers - offered_load * (1.0 - blocking))
    return result


def _check_stable(servers: int, offered_load: float, argument: str, shown: object) -> None:
    if offered_load >= servers:
        raise InputError(
            argument,
            f"{argument} gives an offered load of {offered_load!r} Erlangs, which must be < servers "
            f"({servers}) for a stable queue (got {argument}={shown!r})",
        )


def erlang_c(servers: int, offered_load: float) -> float:
    """Probability that an arriving job waits in an M/M/c queue (Erlang C).

    Parameters
    ----------
    servers : int
        Number of identical servers c (e.g. CPs), >= 1.
    offered_load : float
        Offered load a = lambda * S in Erlangs (busy servers), 0 <= a < c.

    Returns
    -------
    float
        C(c, a), the probability of waiting, in [0, 1).

    Raises
    ------
    ValueError
        If ``servers`` is not an integer >= 1, or ``offered_load`` is negative, not finite or
        >= ``servers`` (no steady state).

    Notes
    -----
    Computed from the Erlang B recursion, C = c B / (c - a (1 - B)) [3]_, which is stable for
    hundreds of servers.

    References
    ----------
    .. [1] A. K. Erlang, Elektroteknikeren 13, 1917.
    .. [3] Gross, Shortle, Thompson and Harris, *Fundamentals of Queueing Theory*, 4th ed.,
       2008, section 2.3.

    Examples
    --------
    >>> round(erlang_c(2, 1.0), 12)
    0.333333333333
    """
    c = as_count("servers", servers, minimum=1)
    a = as_time("offered_load", offered_load)
    _check_stable(c, a, "offered_load", offered_load)
    return _erlang_c_scalar(c, a)


@dataclass(frozen=True)
class MMcResult:
    """Steady state of an M/M/c queue (FCFS, identical exponential servers).

    Attributes
    ----------
    arrival_rate : float
        Arrival rate lambda, jobs/s.
    service_time : float
        Mean service time S per job, s.
    servers : int
        Number of servers c.
    utilization : float
        Per-server busy fraction rho = lambda S / c, in [0, 1).
    p_wait : float
        Probability that a job waits (Erlang C).
    wait_time : float
        Mean time in queue before service W, s.
    response_time : float
        Mean time in the system R = W + S, s.
    queue_length : float
        Mean number of jobs waiting (not in service) Lq = lambda W.
    number_in_system : float
        Mean number of jobs present, waiting or in service, L = lambda R.
    """

    arrival_rate: float
    service_time: float
    servers: int
    utilization: float
    p_wait: float
    wait_time: float
    response_time: float
    queue_length: float
    number_in_system: float

    @property
    def _drain_rate(self) -> float:
        # theta = c mu - lambda: given that a job waits, its wait is exponential with this rate.
        return (self.servers - self.arrival_rate * self.service_time) / self.service_time

    def wait_time_sf(self, t: float) -> float:
        """P(W > t), the probability of waiting longer than ``t`` seconds: C exp(-(c mu - lambda) t)."""
        time = as_time("t", t)
        return self.p_wait * math.exp(-self._drain_rate * time)

    def wait_time_percentile(self, q: float) -> float:
        """The ``q``-quantile of the waiting time in queue, s (0 when ``q`` <= 1 - C).

        Parameters
        ----------
        q : float
            Probability in [0, 1), e.g. 0.9 for the 90th percentile.
        """
        prob = _check_probability(q)
        if 1.0 - prob >= self.p_wait:
            return 0.0
        return math.log(self.p_wait / (1.0 - prob)) / self._drain_rate

    def response_time_sf(self, t: float) -> float:
        """P(R > t) for the response time R = W + S of a FCFS M/M/c queue, ``t`` in s.

        Notes
        -----
        With mu = 1/S, theta = c mu - lambda, lo = min(mu, theta), d = |mu - theta|:
        P(R > t) = (1 - C) exp(-mu t) + C exp(-lo t) (1 + lo (1 - exp(-d t)) / d), the
        hypoexponential tail written so that it stays exact as d -> 0 (then the factor is
        1 + lo t) [3]_.

        References
        ----------
        .. [3] Gross, Shortle, Thompson and Harris, *Fundamentals of Queueing Theory*, 4th ed.,
           2008, section 2.3.
        """
        time = as_time("t", t)
        return self._response_sf(time)

    def _response_sf(self, time: float) -> float:
        mu = 1.0 / self.service_time
        theta = self._drain_rate
        lo = min(mu, theta)
        gap = abs(mu - theta)
        spread = time if gap == 0.0 else -math.expm1(-gap * time) / gap
        waited = math.exp(-lo * time) * (1.0 + lo * spread)
        return (1.0 - self.p_wait) * math.exp(-mu * time) + self.p_wait * waited

    def response_time_percentile(self, q: float) -> float:
        """The ``q``-quantile of the response time W + S, s, solved from :meth:`response_time_sf`.

        Parameters
        ----------
        q : float
            Probability in [0, 1), e.g. 0.95 for the 95th percentile.
        """
        prob = _check_probability(q)
        if prob == 0.0:
            return 0.0
        mu = 1.0 / self.service_time
        lo = min(mu, self._drain_rate)
        # P(W + S > t) <= P(W > t/2) + P(S > t/2) <= (1 + C) exp(-lo t / 2) brackets the root.
        upper = 2.0 * math.log((1.0 + self.p_wait) / (1.0 - prob)) / lo
        root = brentq(
            lambda t: self._response_sf(t) - (1.0 - prob), 0.0, upper, xtol=upper * 1e-15, rtol=1e-14, maxiter=200
        )
        return float(root)


def _check_probability(q: float) -> float:
    if isinstance(q, bool) or not isinstance(q, (int, float)) or not 0.0 <= float(q) < 1.0:
        raise InputError("q", f"q must be a probability in [0, 1), got {q!r}")
    return float(q)


def mmc(arrival_rate: float, service_time: float, servers: int) -> MMcResult:
    """Solve the M/M/c queue: Poisson arrivals, exponential service, ``servers`` servers.

    Parameters
    ----------
    arrival_rate : float
        Arrival rate lambda, jobs/s (transactions/s), >= 0.
    service_time : float
        Mean service time S per job on one server, s (> 0), e.g. CP-seconds per transaction.
    servers : int
        Number of identical servers c, >= 1.

    Returns
    -------
    MMcResult
        Utilization, Erlang C probability of waiting, mean wait and response time (s), mean
        queue length and number in system; percentiles via its methods.

    Raises
    ------
    ValueError
        If an argument is out of range, or lambda S >= c (no steady state).

    Notes
    -----
    W = C(c, a) S / (c - a) with a = lambda S [2]_, R = W + S, Lq = lambda W, L = lambda R.

    References
    ----------
    .. [1] A. K. Erlang, Elektroteknikeren 13, 1917.
    .. [2] L. Kleinrock, *Queueing Systems, Volume 1: Theory*, Wiley, 1975, section 3.5.

    Examples
    --------
    >>> r = mmc(arrival_rate=25.0, service_time=0.02, servers=1)
    >>> round(r.response_time, 12)  # M/M/1: S / (1 - rho)
    0.04
    """
    lam = as_time("arrival_rate", arrival_rate)
    svc = as_time("service_time", service_time, positive=True)
    c = as_count("servers", servers, minimum=1)
    load = lam * svc
    _check_stable(c, load, "arrival_rate * service_time", (arrival_rate, service_time))
    p_wait = _erlang_c_scalar(c, load)
    wait = p_wait * svc / (c - load)
    response = wait + svc
    return MMcResult(
        arrival_rate=lam,
        service_time=svc,
        servers=c,
        utilization=load / c,
        p_wait=p_wait,
        wait_time=wait,
        response_time=response,
        queue_length=lam * wait,
        number_in_system=lam * response,
    )


def mmc_response_times(arrival_rates: ArrayLike, service_time: float, servers: int) -> NDArray[np.float64]:
    """Mean M/M/c response time for many arrival rates at once (a response-time curve).

    Parameters
    ----------
    arrival_rates : array_like of float
        Arrival rates lambda, jobs/s, each >= 0 with lambda S < c.
    service_time : float
        Mean service time S per job, s (> 0).
    servers : int
        Number of servers c, >= 1.

    Returns
    -------
    numpy.ndarray
        Mean response time R(lambda) = S + C(c, lambda S) S / (c - lambda S), s, with the
        shape of ``arrival_rates``; equal to ``mmc(lam, S, c).response_time`` element-wise.

    References
    ----------
    .. [2] L. Kleinrock, *Queueing Systems, Volume 1: Theory*, Wiley, 1975, section 3.5.
    """
    svc = as_time("service_time", service_time, positive=True)
    c = as_count("servers", servers, minimum=1)
    lam = np.asarray(arrival_rates, dtype=np.float64)
    if not np.all(np.isfinite(lam)) or np.any(lam < 0.0):
        bad = lam[~(np.isfinite(lam) & (lam >= 0.0))]
        raise InputError("arrival_rates", f"arrival_rates must be finite and >= 0, got {bad.flat[0]!r}")
    load = lam * svc
    if np.any(load >= c):
        _check_stable(c, float(load.max()), "arrival_rates * service_time", float(lam.max()))
    p_wait = _erlang_c_array(c, load)
    result: NDArray[np.float64] = svc + p_wait * svc / (c - load)
    return result
