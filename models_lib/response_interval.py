"""Prediction interval of a fitted response time and its leave-one-out coverage.

The response model (:mod:`models_lib.response`) is ``R(tps) = D + q(tps)``: ``D`` the
load-independent part, fitted as a mean, and ``q`` the queueing part (CP residence and, where
fitted, the software station).  Given ``n`` published response times ``R_i`` and the fitted
values ``R^_i``, the prediction interval of a new observation at a rate is

    R^(tps) +- t_{nu, (1 + level) / 2} * sigma * sqrt(1 + 1 / n)

with ``nu = n - p`` degrees of freedom (``p`` = 1 for ``D``, + 1 for a software station: its
server count is picked from a grid and, with the service time, it is identified by one feature
of the data, the rise at the top published rate), ``sigma^2 = max(SSE / nu, 1/12)`` ms^2 (the
published response times are whole milliseconds: rounding alone is uniform on +-0.5 ms, variance
1/12) and ``1 / n`` the leverage of a mean.

Leave-one-out coverage: for each published point ``i`` the model is refitted without it (``D``
as the mean of the other points; the queueing part, CP residence and software station, is held
at the full fit, because without the top published rate the software station cannot be
identified) and the interval built from the ``n - 1`` other points (``nu - 1`` degrees of
freedom) must contain ``R_i``.  The share of points it contains is the coverage reported
beside the stated level.

References
----------
.. [1] N. R. Draper and H. Smith, "Applied Regression Analysis", 3rd ed., Wiley, 1998, sec.
   3.3 (prediction interval of a new observation) and sec. 8.3 (PRESS, leave-one-out).
.. [2] IBM Redpaper REDP-5114, Tables 9-1, 9-2, 11-1 and 11-2 (response times in whole ms).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from models_lib.checks import InputError
from models_lib.costmodel import normal_quantile, student_t_quantile

__all__ = ["ROUNDING_VARIANCE_MS2", "WEAK_T_RATIO", "ResponseInterval", "response_interval"]

#: Variance of rounding to whole milliseconds, ms^2 (uniform on +-0.5 ms).
ROUNDING_VARIANCE_MS2 = 1.0 / 12.0

#: A fit is weak when its t quantile is more than this many times the normal quantile at the
#: same level (fewer than 3 degrees of freedom at 95 %): the range is then more than twice as
#: wide as the same scatter would give from many points.
WEAK_T_RATIO = 2.0


def _check_level(level: float) -> float:
    lv = float(level)
    if not 0.0 < lv < 1.0:
        raise InputError("level", f"level must be in (0, 1), got {level!r}")
    return lv


def _half_width(sse: float, n: int, params: int, level: float) -> float:
    """t-interval half-width of a new observation, ms (``inf`` without degrees of freedom)."""
    nu = n - params
    if nu < 1:
        return math.inf
    sigma = math.sqrt(max(sse / nu, ROUNDING_VARIANCE_MS2))
    return student_t_quantile(0.5 * (1.0 + level), nu) * sigma * math.sqrt(1.0 + 1.0 / n)


@dataclass(frozen=True)
class ResponseInterval:
    """What the prediction interval of a response-time fit needs, and its LOO predictions.

    Parameters
    ----------
    n : int
        Published response times fitted.
    params : int
        Fitted parameters (``D``, + 1 with a software station).
    sse_ms2 : float
        Sum of squared residuals of the full fit, ms^2.
    loo_error_ms : tuple of float
        ``R_i - R^_(-i)(tps_i)`` per published point, ms (refit without point ``i``).
    loo_sse_ms2 : tuple of float
        SSE of each refit over its ``n - 1`` points, ms^2.
    """

    n: int
    params: int
    sse_ms2: float
    loo_error_ms: tuple[float, ...]
    loo_sse_ms2: tuple[float, ...]

    @property
    def dof(self) -> int:
        """Residual degrees of freedom ``n - p``."""
        return self.n - self.params

    def sigma_ms(self) -> float:
        """Residual standard deviation, ms, not below the rounding of whole milliseconds."""
        return math.sqrt(max(self.sse_ms2 / self.dof, ROUNDING_VARIANCE_MS2)) if self.dof > 0 else math.inf

    def half_width_ms(self, level: float) -> float:
        """Half-width of the prediction interval at ``level`` (e.g. 0.95), ms."""
        return _half_width(self.sse_ms2, self.n, self.params, _check_level(level))

    def loo_covered(self, level: float) -> tuple[bool, ...]:
        """Per published point: is it inside the interval of the fit without it?"""
        lv = _check_level(level)
        return tuple(
            abs(e) <= _half_width(s, self.n - 1, self.params, lv)
            for e, s in zip(self.loo_error_ms, self.loo_sse_ms2, strict=True)
        )

    def loo_coverage(self, level: float) -> float:
        """Share of the published points inside their leave-one-out interval (0..1)."""
        covered = self.loo_covered(level)
        return sum(covered) / len(covered) if covered else math.nan

    def weak(self, level: float) -> bool:
        """True when the t quantile passes :data:`WEAK_T_RATIO` times the normal's, or the
        leave-one-out coverage falls below ``level``."""
        lv = _check_level(level)
        if self.dof < 1:
            return True
        ratio = student_t_quantile(0.5 * (1.0 + lv), self.dof) / normal_quantile(0.5 * (1.0 + lv))
        return ratio > WEAK_T_RATIO or self.loo_coverage(lv) < lv

    def describe(self, level: float) -> str:
        """The basis sentence: interval, degrees of freedom and LOO coverage."""
        lv = _check_level(level)
        hw = self.half_width_ms(lv)
        width = f"±{hw:.3g} ms" if math.isfinite(hw) else "unbounded"
        return (
            f"response-time range: {lv:.0%} prediction interval of the fit, {width} "
            f"(t with {self.dof} degrees of freedom over {self.n} published response times); "
            f"leave-one-out coverage of the published response times {sum(self.loo_covered(lv))} of {self.n} "
            f"({self.loo_coverage(lv):.0%})"
        )


def response_interval(published_ms: npt.ArrayLike, queued_ms: npt.ArrayLike, *, params: int) -> ResponseInterval:
    """The interval's ingredients from the published response times and the fit's queueing part.

    Parameters
    ----------
    published_ms : array_like
        Published response times ``R_i``, ms.
    queued_ms : array_like
        The fit's queueing part ``q(tps_i)`` at the same rates, ms (CP residence + software wait).
    params : int
        Fitted parameters (>= 1).

    Returns
    -------
    ResponseInterval
        ``D`` refitted as ``max(mean(R - q), 0)`` on all points and without each point.
    """
    y = np.asarray(published_ms, dtype=np.float64)
    q = np.asarray(queued_ms, dtype=np.float64)
    if y.ndim != 1 or y.shape != q.shape or y.size < 1:
        raise InputError("published_ms", "published_ms and queued_ms must be 1-D arrays of equal, non-zero length")
    if params < 1:
        raise InputError("params", f"params must be >= 1, got {params!r}")
    d = max(float(np.mean(y - q)), 0.0)
    sse = float(np.sum((y - d - q) ** 2))
    errors, sses = [], []
    for i in range(y.size):
        keep = np.arange(y.size) != i
        if not keep.any():
            errors.append(math.inf)
            sses.append(0.0)
            continue
        d_i = max(float(np.mean(y[keep] - q[keep])), 0.0)
        errors.append(float(y[i] - d_i - q[i]))
        sses.append(float(np.sum((y[keep] - d_i - q[keep]) ** 2)))
    return ResponseInterval(int(y.size), int(params), sse, tuple(errors), tuple(sses))
