"""Response-time model of one configuration.

The mean response time at ``tps`` transactions/s is modelled as

    R(tps) = D + R_cp(tps) + W_sw(tps)

* ``R_cp``: residence at the LPAR's CP pool, an M/M/c station with ``c`` = LPAR CPs and
  service time ``b`` = CP-seconds per transaction (the slope of the CPU cost model).  The fixed
  busy CPs of the cost model (its intercept ``a``) load the same servers, so the offered load is
  ``A = a + b * tps`` busy CPs (utilisation ``A / c`` equals the predicted busy CPs / CPs) and
  ``R_cp = b + C(c, A) * b / (c - A)`` (Erlang C).
* ``W_sw``: waiting (not service) at one software station with ``m`` servers and service time
  ``s``, an M/M/m queue: ``C(m, tps*s) * s / (m - tps*s)``.  It stands for a resource that
  makes the published response times rise before the CPs are busy: the HSM Channels guarded
  by EXEC CICS ENQ in FiTeq multi-region (REDP-5114 sec. 11.3, "Local Enqueue wait ... waiting
  for a free channel to access the HSM") and the Validation Log file I/O (secs. 9.5, 11.4).
* ``D``: the load-independent rest (network, HSM round trip, I/O service), ms.

Fitting (:func:`fit_response`), given published response times ``R_i`` at rates ``tps_i``:

1. ``D`` is the least-squares constant: the mean over the published points of
   ``R_i - R_cp(tps_i) - W_sw(tps_i)`` (floored at 0).  The low-load response time is
   ``R0 = D + b``, the model's limit as tps -> 0.  At the lowest published rates the queueing
   terms are negligible, so those points pin ``R0``; the higher points contribute once their
   modelled queueing is removed.
2. A software station is fitted only when there are at least three published response times
   and, without a station, the one at the highest published rate exceeds the model by more
   than 2 ms (twice the 1-ms rounding of the published integer milliseconds) and by more than
   25 %.  Then for each ``m`` in
   ``1..max_servers`` (default 64: "each HSM supports ... up to 64 connections", REDP-5114 sec.
   3.3) the service time ``s`` is fitted by bounded least squares (``0 < s < m / tps_max``, so
   that every published rate was stable): a log-spaced grid of ``s`` for all ``m`` at once,
   then :func:`scipy.optimize.minimize_scalar` (bounded) around the best grid cells of the
   best ``m`` values.  The ``(m, s)`` with the smallest sum of squared errors is kept; its RMSE
   and maximum relative error are reported.

Configurations without published response times (CICS TS, z/OS Connect, CICS TG, HostBridge)
have ``D`` unknown: the model returns ``None`` for the response time and offers the CP
residence (service + queueing), which is a lower bound only, and the saturation rate.

References
----------
.. [1] A. K. Erlang (1917); L. Kleinrock, "Queueing Systems, Vol. 1", Wiley, 1975, sec. 3.5
   (M/M/c).
.. [2] D. A. Menasce, V. A. F. Almeida, L. W. Dowdy, "Performance by Design", Prentice Hall,
   2004, ch. 10-12 (open networks, software contention as a queue).
.. [3] IBM Redpaper REDP-5114 (FiTeq Authenticator benchmark), Tables 9-1 to 11-2 and
   sections 9.4, 9.5, 11.3, 11.4.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt
from scipy import optimize, special, stats

from models_lib.checks import InputError
from models_lib.costmodel import ConfigurationModel
from models_lib.fastinit import fast_init
from models_lib.inputs import ConfigurationData
from models_lib.queueing import erlang_c
from models_lib.response_interval import ResponseInterval, response_interval

__all__ = [
    "DEFAULT_MAX_SERVERS",
    "ResponseBreakdown",
    "ResponseCurve",
    "ResponseFit",
    "ResponseModel",
    "SoftwareStation",
    "erlang_c_array",
    "fit_response",
]

FloatArray = npt.NDArray[np.float64]

#: Largest server count tried for the software station.
DEFAULT_MAX_SERVERS = 64

# Rule for adding a software station (see module docstring).
_RISE_MS = 2.0
_RISE_REL = 0.25
# Grid of s per m, as fractions of the stability limit m / tps_max.
_S_GRID = np.geomspace(1e-4, 1.0 - 1e-9, 241)
_REFINE_TOP = 6


def erlang_c_array(servers: npt.ArrayLike, offered_load: npt.ArrayLike) -> FloatArray:
    """Erlang C probability of waiting, vectorised over servers and load.

    Parameters
    ----------
    servers : array_like of int
        Servers ``c`` (>= 1), broadcast against ``offered_load``.
    offered_load : array_like of float
        Offered load ``A`` in Erlangs, ``0 <= A < c``.

    Returns
    -------
    ndarray
        ``C(c, A) = c B / (c - A (1 - B))`` with Erlang B written as the Poisson ratio
        ``B = pmf(c; A) / cdf(c; A)`` (``scipy.special.pdtr``), 0 where ``A == 0``.  Agrees with
        :func:`models_lib.queueing.erlang_c` to rounding; callers must mask ``A >= c``.

    References
    ----------
    .. [1] D. Gross et al., "Fundamentals of Queueing Theory", 4th ed., Wiley, 2008, sec. 2.3.
    """
    c = np.asarray(servers, dtype=np.float64)
    a = np.asarray(offered_load, dtype=np.float64)
    pos = a > 0.0
    a_safe = np.where(pos, a, 1.0)
    log_pmf = c * np.log(a_safe) - a_safe - special.gammaln(c + 1.0)
    b = np.where(pos, np.exp(log_pmf) / special.pdtr(c, a_safe), 0.0)
    return np.asarray(c * b / (c - a * (1.0 - b)), dtype=np.float64)


def _mmc_wait(servers: npt.ArrayLike, load: FloatArray, service_s: npt.ArrayLike) -> FloatArray:
    """Mean M/M/c wait in queue, s, for stable entries (caller masks ``load >= servers``)."""
    c = np.asarray(servers, dtype=np.float64)
    return np.asarray(erlang_c_array(c, load) * np.asarray(service_s) / (c - load), dtype=np.float64)


@dataclass(frozen=True)
class SoftwareStation:
    """A fitted software resource: ``servers`` (m) servers of ``service_s`` (s) seconds.

    ``saturation_tps()`` = m / s, transactions/s.  ``saturation_low``, ``saturation_high``: the
    95 % profile-likelihood interval of m / s from the fit (:func:`station_saturation_interval`;
    ``saturation_high`` ``None`` where the points do not bound it above; both ``None`` where
    the station was not fitted to points).
    """

    servers: int
    service_s: float
    saturation_low: float | None = None
    saturation_high: float | None = None

    def saturation_tps(self) -> float:
        """Throughput at which the station is 100 % busy, transactions/s."""
        return self.servers / self.service_s

    def utilization(self, tps: float) -> float:
        """Utilisation of the station at ``tps`` transactions/s, ``tps * service_s / servers``."""
        return tps * self.service_s / self.servers

    def wait_ms(self, tps: FloatArray) -> FloatArray:
        """Mean wait at the station, ms (``inf`` at or beyond saturation)."""
        load = tps * self.service_s
        out = np.full(tps.shape, np.inf)
        ok = (tps < self.saturation_tps()) & (load < self.servers)
        out[ok] = _mmc_wait(self.servers, load[ok], self.service_s) * 1000.0
        return out


@dataclass(frozen=True)
class ResponseFit:
    """Quality of a response-time fit against the published response times.

    ``etr`` in transactions/s, ``published_ms``/``fitted_ms``/``rmse_ms`` in ms,
    ``max_rel_error`` = max |fitted - published| / published; ``point_ids`` the provenance;
    ``servers_tried`` the m range searched (empty when no station was fitted); ``interval``
    the prediction interval's ingredients and leave-one-out predictions
    (:mod:`models_lib.response_interval`).
    """

    point_ids: tuple[int, ...]
    etr: tuple[float, ...]
    published_ms: tuple[float, ...]
    fitted_ms: tuple[float, ...]
    rmse_ms: float
    max_rel_error: float
    servers_tried: tuple[int, ...] = ()
    interval: ResponseInterval | None = None


@fast_init
@dataclass(frozen=True)
class ResponseBreakdown:
    """Response time at one rate, ms.

    ``total_ms`` is ``None`` when the configuration has no published response times (then
    ``cp_residence_ms`` is a lower bound only), and ``inf`` at or beyond saturation.
    """

    tps: float
    total_ms: float | None
    fixed_ms: float | None
    cp_service_ms: float
    cp_wait_ms: float
    software_wait_ms: float
    cp_utilization: float
    software_utilization: float | None

    @property
    def cp_residence_ms(self) -> float:
        """CP service + CP queueing, ms."""
        return self.cp_service_ms + self.cp_wait_ms

    @property
    def lower_bound_ms(self) -> float:
        """A lower bound on the response time, ms: CP residence + software wait."""
        return self.cp_residence_ms + self.software_wait_ms


@dataclass(frozen=True)
class ResponseCurve:
    """Response time against rate (arrays of equal length).

    ``response_ms`` is ``None`` without published response times; entries at or beyond
    saturation (``stable == False``) are NaN in every array.
    """

    tps: FloatArray
    response_ms: FloatArray | None
    cp_residence_ms: FloatArray
    software_wait_ms: FloatArray
    stable: npt.NDArray[np.bool_]


@dataclass(frozen=True)
class ResponseModel:
    """Response-time model of a configuration (see the module docstring).

    Parameters
    ----------
    path, configuration : str
        Slugs.
    cps : int
        LPAR CPs the model is evaluated at by default (the measured LPAR's).
    cp_seconds : float
        CPU service time per transaction, CP-seconds (slope of the cost model).
    intercept_cps : float
        Fixed busy CPs that load the same CPs (intercept of the cost model).  The offered load
        is the predicted busy CPs ``max(a + b * tps, 0)``, so a slightly negative intercept
        (within the fit's error) is kept as fitted.
    fixed_ms : float or None
        ``D``, load-independent part of the response time, ms; ``None`` without published
        response times.
    software : SoftwareStation or None
        Fitted software station.
    fit : ResponseFit or None
        Fit quality against the published response times.
    floor_ms : float or None
        A published lower bound on the response time (packet trace), ms.
    cost_basis : str
        Where ``cp_seconds`` came from (e.g. ``"lpar fit"``, ``"bound"``).
    """

    path: str
    configuration: str
    cps: int
    cp_seconds: float
    intercept_cps: float = 0.0
    fixed_ms: float | None = None
    software: SoftwareStation | None = None
    fit: ResponseFit | None = None
    floor_ms: float | None = None
    cost_basis: str = ""

    # -- construction helpers -----------------------------------------------------------
    @property
    def has_response_data(self) -> bool:
        """True when the absolute response time is modelled (published response times)."""
        return self.fixed_ms is not None

    @property
    def r0_ms(self) -> float | None:
        """Low-load response time ``D + b``, ms (``None`` without data)."""
        return None if self.fixed_ms is None else self.fixed_ms + self.cp_seconds * 1000.0

    def projected(self, *, cps: int | None = None, cost_factor: float = 1.0) -> ResponseModel:
        """The model on another LPAR: ``cps`` CPs and CPU costs multiplied by ``cost_factor``
        (the LSPR projection factor); ``D`` and the software station are kept."""
        c = self.cps if cps is None else _check_cps(cps)
        f = float(cost_factor)
        if not (f > 0.0 and math.isfinite(f)):
            raise InputError("cost_factor", f"cost_factor must be finite and > 0, got {cost_factor!r}")
        return replace(self, cps=c, cp_seconds=self.cp_seconds * f, intercept_cps=self.intercept_cps * f)

    # -- evaluation ---------------------------------------------------------------------
    def _arrays(self, tps: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, npt.NDArray[np.bool_]]:
        load = np.maximum(self.intercept_cps + self.cp_seconds * tps, 0.0)
        cp_stable = (tps < self._cp_saturation()) & (load < self.cps)
        cp_res = np.full(tps.shape, np.nan)
        cp_res[cp_stable] = (self.cp_seconds + _mmc_wait(self.cps, load[cp_stable], self.cp_seconds)) * 1000.0
        if self.software is None:
            sw = np.zeros(tps.shape)
            sw_stable = np.ones(tps.shape, dtype=bool)
        else:
            sw = self.software.wait_ms(tps)
            sw_stable = np.isfinite(sw)
        stable = cp_stable & sw_stable
        return cp_res, np.where(sw_stable, sw, np.nan), load, stable

    def _cp_saturation(self) -> float:
        return (self.cps - self.intercept_cps) / self.cp_seconds

    def saturation_tps(self, cps: int | None = None, cost_factor: float = 1.0) -> float:
        """Rate at which the CPs or the software station saturate, transactions/s.

        ``min((c - a) / b, m / s)``: the predicted busy CPs ``a + b * tps`` reach the ``c`` CPs,
        or the software station is 100 % busy.
        """
        # projected()'s CPs and costs without building the projected model (the same operations)
        c = self.cps if cps is None else _check_cps(cps)
        f = float(cost_factor)
        if not (f > 0.0 and math.isfinite(f)):
            raise InputError("cost_factor", f"cost_factor must be finite and > 0, got {cost_factor!r}")
        cp_sat = (c - self.intercept_cps * f) / (self.cp_seconds * f)
        if self.software is not None:
            return min(cp_sat, self.software.saturation_tps())
        return cp_sat

    def breakdown(self, tps: float, cps: int | None = None, cost_factor: float = 1.0) -> ResponseBreakdown:
        """Response time and its parts at ``tps`` transactions/s (see :class:`ResponseBreakdown`).

        The same quantities as :meth:`curve` at one rate, computed with scalar arithmetic and
        the scalar Erlang C (``models_lib.queueing.erlang_c``): the engine asks this once per
        CP count of the target machine, where numpy's per-call overhead on one-element arrays
        was most of the cost of an estimate.  ``tests/models_lib/test_response.py`` checks it
        against :meth:`curve` and the M/M/c closed form.
        """
        t = _check_tps(tps)
        c = self.cps if cps is None else _check_cps(cps)
        f = float(cost_factor)
        if not (f > 0.0 and math.isfinite(f)):
            raise InputError("cost_factor", f"cost_factor must be finite and > 0, got {cost_factor!r}")
        b = self.cp_seconds * f  # as projected(): CP-seconds and fixed busy CPs scaled by f
        a = self.intercept_cps * f
        load = max(a + b * t, 0.0)
        util = load / c
        service = b * 1000.0
        cp_stable = t < (c - a) / b and load < c
        cp_res = (b + erlang_c(c, load) * b / (c - load)) * 1000.0 if cp_stable else math.inf
        sw_util = None
        sw, sw_stable = 0.0, True
        if self.software is not None:
            m, s = self.software.servers, self.software.service_s
            sw_load = t * s
            sw_util = sw_load / m
            sw_stable = t < m / s and sw_load < m
            sw = erlang_c(m, sw_load) * s / (m - sw_load) * 1000.0 if sw_stable else math.inf
        queue = cp_res - service if cp_stable else math.inf
        if not (cp_stable and sw_stable):
            total = None if self.fixed_ms is None else math.inf
            return ResponseBreakdown(t, total, self.fixed_ms, service, queue, sw, util, sw_util)
        total = None if self.fixed_ms is None else self.fixed_ms + cp_res + sw
        return ResponseBreakdown(t, total, self.fixed_ms, service, queue, sw, util, sw_util)

    def response_time_ms(self, tps: float, cps: int | None = None, cost_factor: float = 1.0) -> float | None:
        """Mean response time at ``tps`` transactions/s, ms.

        ``None`` when the configuration has no published response times (use
        :meth:`cp_residence_ms` for a lower bound); ``inf`` at or beyond saturation.
        """
        return self.breakdown(tps, cps=cps, cost_factor=cost_factor).total_ms

    def cp_residence_ms(self, tps: float, cps: int | None = None, cost_factor: float = 1.0) -> float:
        """CP service + CP queueing at ``tps`` transactions/s, ms (``inf`` when saturated)."""
        return self.breakdown(tps, cps=cps, cost_factor=cost_factor).cp_residence_ms

    def curve(self, tps: npt.ArrayLike, cps: int | None = None, cost_factor: float = 1.0) -> ResponseCurve:
        """Vectorised response-time curve over an array of rates (transactions/s, >= 0)."""
        x = np.asarray(tps, dtype=np.float64)
        if x.ndim != 1 or not np.all(np.isfinite(x)) or np.any(x < 0.0):
            raise InputError("tps", "tps must be a 1-D array of finite rates >= 0")
        m = self.projected(cps=cps, cost_factor=cost_factor)
        cp_res, sw, _, stable = m._arrays(x)
        cp_res = np.where(stable, cp_res, np.nan)
        sw = np.where(stable, sw, np.nan)
        total = None if m.fixed_ms is None else m.fixed_ms + cp_res + sw
        return ResponseCurve(x, total, cp_res, sw, stable)

    def knee_tps(self, cps: int | None = None, cost_factor: float = 1.0) -> float | None:
        """Rate at which the response time doubles its low-load value ``R0``, transactions/s.

        ``None`` without published response times.
        """
        m = self.projected(cps=cps, cost_factor=cost_factor)
        r0 = m.r0_ms
        if r0 is None or r0 <= 0.0:
            return None
        sat = m.saturation_tps()
        hi = sat * (1.0 - 1e-12)

        def excess(t: float) -> float:
            total = m.breakdown(t).total_ms
            assert total is not None
            return total - 2.0 * r0

        if excess(hi) <= 0.0:  # pragma: no cover - R grows without bound near saturation
            return hi
        return float(optimize.brentq(excess, 0.0, hi, xtol=1e-9 * sat, rtol=1e-12))


def _check_tps(tps: float) -> float:
    t = float(tps)
    if not (t >= 0.0 and math.isfinite(t)):
        raise InputError("tps", f"tps must be finite and >= 0, got {tps!r}")
    return t


def _check_cps(cps: int) -> int:
    if isinstance(cps, bool) or not isinstance(cps, (int, np.integer)) or cps < 1:
        raise InputError("cps", f"cps must be an int >= 1, got {cps!r}")
    return int(cps)


def _profile_fixed(published: FloatArray, queued: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Least-squares D (floored at 0) and SSE for each row of ``queued`` (ms)."""
    d = np.maximum(np.mean(published - queued, axis=-1), 0.0)
    resid = published - (d[..., None] + queued)
    return d, np.sum(resid**2, axis=-1)


def _fit_station(
    tps: FloatArray, published: FloatArray, cp_res: FloatArray, max_servers: int
) -> tuple[SoftwareStation, float]:
    """Best (m, s) by grid + bounded refinement; returns the station and D (ms)."""
    t_max = float(tps.max())
    ms = np.arange(1, max_servers + 1, dtype=np.float64)
    s_hi = ms / t_max  # stability at the highest published rate
    s_grid = s_hi[:, None] * _S_GRID[None, :]  # (M, G)
    load = s_grid[..., None] * tps[None, None, :]  # (M, G, n)
    wait = _mmc_wait(ms[:, None, None], load, s_grid[..., None]) * 1000.0
    _, sse = _profile_fixed(published, cp_res[None, None, :] + wait)  # (M, G)

    def objective(s: float, m: float) -> float:
        w = _mmc_wait(m, s * tps, s) * 1000.0
        return float(_profile_fixed(published, cp_res + w)[1])

    best: tuple[float, int, float] | None = None
    order = np.argsort(sse.min(axis=1))[:_REFINE_TOP]
    for i in order:
        j = int(np.argmin(sse[i]))
        lo = s_grid[i, max(j - 1, 0)]
        hi = s_grid[i, min(j + 1, _S_GRID.size - 1)]
        m = float(ms[i])
        res = optimize.minimize_scalar(
            objective,
            bounds=(lo, hi),
            args=(m,),
            method="bounded",
            options={"xatol": hi * 1e-10},
        )
        cand = (float(res.fun), int(m), float(res.x))
        if float(sse[i, j]) < cand[0]:
            cand = (float(sse[i, j]), int(m), float(s_grid[i, j]))
        if best is None or cand[0] < best[0]:
            best = cand
    assert best is not None
    _, m_best, s_best = best
    w = _mmc_wait(m_best, s_best * tps, s_best) * 1000.0
    d, _ = _profile_fixed(published, cp_res + w)
    return SoftwareStation(m_best, s_best), float(d)


#: Confidence level of the software station's saturation interval.
STATION_LEVEL = 0.95


def station_saturation_interval(
    tps: FloatArray, published: FloatArray, cp_res: FloatArray, station: SoftwareStation, level: float = STATION_LEVEL
) -> tuple[float, float | None]:
    """The ``level`` interval of a fitted station's saturation m / s, transactions/s.

    Profile likelihood (Bates and Watts 1988, sec. 6.1; Seber and Wild 2003, sec. 5.9.1): with
    the server count m held at its fitted value (a discrete choice) and the fixed time D
    profiled out at each s, the service times s kept are those whose residual sum of squares
    is within ``SSE(s) <= SSE_min x (1 + F(level; 1, n - 2) / (n - 2))`` (n points, 2 fitted
    parameters: D and s).  Stability bounds s below m / (the highest published rate), so the low
    end of m / s is above that rate; where even s -> 0 (no software wait at all) is within the
    bound, the points do not bound the saturation above (``None``).
    """
    n, m = int(tps.size), station.servers
    central = station.saturation_tps()
    if n <= 2:
        return central, None

    def sse(s: float) -> float:
        return float(_profile_fixed(published, cp_res + _mmc_wait(m, s * tps, s) * 1000.0)[1])

    s0 = station.service_s
    bound = sse(s0) * (1.0 + float(stats.f.ppf(level, 1, n - 2)) / (n - 2))
    top = m / float(tps.max()) * (1.0 - 1e-12)  # the largest stable service time
    tiny = s0 * 1e-9
    s_hi = top if sse(top) <= bound else float(optimize.brentq(lambda s: sse(s) - bound, s0, top, rtol=1e-12))
    s_lo = None if sse(tiny) <= bound else float(optimize.brentq(lambda s: sse(s) - bound, tiny, s0, rtol=1e-12))
    return min(m / s_hi, central), None if s_lo is None else max(m / s_lo, central)


def fit_response(
    cfg: ConfigurationData,
    model: ConfigurationModel | None = None,
    *,
    cp_seconds: float | None = None,
    intercept_cps: float = 0.0,
    software_station: bool | None = None,
    max_servers: int = DEFAULT_MAX_SERVERS,
) -> ResponseModel:
    """Fit the response-time model of a configuration.

    Parameters
    ----------
    cfg : ConfigurationData
        The configuration; its points with ``response_time_ms`` are fitted.  ``cfg.lpar_cps``
        (CPs of the measured LPAR) is required.
    model : ConfigurationModel, optional
        Fitted CPU model; its primary component gives the CP service time (slope, CP-seconds
        per transaction) and the fixed busy CPs (intercept).
    cp_seconds : float, optional
        CP-seconds per transaction when there is no CPU model (bounds-only paths).
    intercept_cps : float
        Fixed busy CPs with ``cp_seconds``.
    software_station : bool, optional
        Force (True) or forbid (False) the software station; by default the rule of the
        module docstring decides.
    max_servers : int
        Largest ``m`` tried for the software station (default 64).

    Returns
    -------
    ResponseModel

    Raises
    ------
    ValueError
        If there is neither a CPU model nor ``cp_seconds``, ``cfg.lpar_cps`` is missing, or a
        published rate is already beyond the CP saturation of the cost model.

    References
    ----------
    .. [1] Kleinrock (1975), sec. 3.5; Menasce, Almeida and Dowdy (2004), ch. 12.
    """
    if cfg.lpar_cps is None:
        raise InputError("cfg.lpar_cps", f"cfg.lpar_cps is required for {cfg.path}/{cfg.configuration}")
    cps = _check_cps(cfg.lpar_cps)
    if model is not None and model.has_cpu_model:
        f = model.primary_fit()
        b, a, basis = f.slope, f.intercept, f"{model.primary} fit"
    elif cp_seconds is not None:
        b, a, basis = float(cp_seconds), float(intercept_cps), "given"
    else:
        raise InputError("cp_seconds", f"cp_seconds is required: {cfg.path}/{cfg.configuration} has no CPU model")
    if not (b > 0.0 and math.isfinite(b)):
        raise InputError("CP", f"CP-seconds per transaction must be > 0, got {b!r}")
    ms_ = int(max_servers)
    if ms_ < 1:
        raise InputError("max_servers", f"max_servers must be >= 1, got {max_servers!r}")
    floor = None if cfg.response_floor is None else cfg.response_floor.value_ms
    base = ResponseModel(
        path=cfg.path,
        configuration=cfg.configuration,
        cps=cps,
        cp_seconds=b,
        intercept_cps=a,
        floor_ms=floor,
        cost_basis=basis,
    )
    pts = sorted((p for p in cfg.points if p.response_time_ms is not None), key=lambda p: p.etr)
    if not pts:
        return base
    tps = np.array([p.etr for p in pts])
    published = np.array([p.response_time_ms for p in pts], dtype=np.float64)
    if np.any(published <= 0.0):
        raise ValueError(f"published response times must be > 0 ms, got {published.tolist()}")
    cp_res, _, _, stable = base._arrays(tps)
    if not np.all(stable):
        raise InputError(
            "config",
            f"cfg {cfg.path}/{cfg.configuration}: published rate(s) {tps[~stable].tolist()} "
            "exceed the CP capacity implied by the cost model",
        )
    d0, _ = _profile_fixed(published, cp_res)
    fitted0 = float(d0) + cp_res
    rise = published[-1] - fitted0[-1]
    want = (
        software_station
        if software_station is not None
        else bool(len(pts) >= 3 and rise > _RISE_MS and rise > _RISE_REL * fitted0[-1])
    )
    station: SoftwareStation | None = None
    tried: tuple[int, ...] = ()
    if want:
        station, d = _fit_station(tps, published, cp_res, ms_)
        low, high = station_saturation_interval(tps, published, cp_res, station)
        station = replace(station, saturation_low=low, saturation_high=high)
        fitted = d + cp_res + station.wait_ms(tps)
        tried = tuple(range(1, ms_ + 1))
    else:
        d, fitted = float(d0), fitted0
    resid = fitted - published
    fit = ResponseFit(
        point_ids=tuple(p.id for p in pts),
        etr=tuple(float(v) for v in tps),
        published_ms=tuple(float(v) for v in published),
        fitted_ms=tuple(float(v) for v in fitted),
        rmse_ms=float(np.sqrt(np.mean(resid**2))),
        max_rel_error=float(np.max(np.abs(resid) / published)),
        servers_tried=tried,
        interval=response_interval(published, fitted - d, params=1 if station is None else 2),
    )
    return replace(base, fixed_ms=float(d), software=station, fit=fit)
