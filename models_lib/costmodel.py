"""Linear CPU cost models fitted to published measurements.

The sources report, at several transaction rates, how busy the CPs were.  A well-behaved
transaction workload has a CPU demand that is linear in the rate,

    busy_cps(etr) = intercept + slope * etr,

with ``slope`` the marginal cost (CP-seconds per transaction) and ``intercept`` the busy CPs
that do not scale with the rate (monitors, TCP/IP housekeeping).  :func:`fit_linear` fits it
by ordinary least squares, with the usual standard errors and t-based intervals, and checks it
by leave-one-out cross-validation; :func:`fit_configuration` fits every published CPU
component of one configuration.

Payload: the sources publish no measurements that vary payload *and* report CPU; they state
proportionality ("as the payload doubles in size the CPU cost per transaction also doubles").
:class:`PayloadModel` applies such a statement (with the range it implies) or, given
calibration points, fits ``cost = a + b * bytes``.

References
----------
.. [1] N. R. Draper and H. Smith, "Applied Regression Analysis", 3rd ed., Wiley, 1998,
   ch. 1 and 3 (simple linear regression, confidence and prediction intervals).
.. [2] D. A. Menasce, V. A. F. Almeida, L. W. Dowdy, "Performance by Design", Prentice Hall,
   2004, ch. 12 (service demand law: U = X * D, estimating demands by regression).
.. [3] IBM Redpaper REDP-5114 (FiTeq Authenticator benchmark), Appendix A: "linear scaling of
   CPU usage as the transaction rate increases".
.. [4] CICS TG V9.0 performance summary (2014), Scenarios 5 and 6 (payload proportionality).
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt
from scipy import stats

from models_lib.checks import InputError
from models_lib.fastinit import fast_init
from models_lib.inputs import CPU_COMPONENTS, ConfigurationData, PayloadScaling

__all__ = [
    "DEFAULT_LEVEL",
    "FALLBACK_RELATIVE_SD",
    "MAX_FIT_X",
    "MAX_FIT_Y",
    "MIN_FIT_X",
    "ConfigurationModel",
    "Interval",
    "LinearFit",
    "LooPoint",
    "LooReportRow",
    "PayloadModel",
    "PayloadScale",
    "Weighting",
    "fit_configuration",
    "fit_linear",
    "fit_payload",
    "loo_report",
    "median_abs_loo_error",
    "normal_quantile",
    "payload_model",
    "student_t_quantile",
]


@functools.lru_cache(maxsize=1024)
def student_t_quantile(q: float, dof: float) -> float:
    """``scipy.stats.t.ppf(q, dof)``, remembered: a fit has a few (q, dof) pairs and scipy's
    distribution machinery costs about 100 us a call, several times per answer."""
    return float(stats.t.ppf(q, dof))


@functools.lru_cache(maxsize=64)
def normal_quantile(q: float) -> float:
    """``scipy.stats.norm.ppf(q)``, remembered (as :func:`student_t_quantile`)."""
    return float(stats.norm.ppf(q))


FloatArray = npt.NDArray[np.float64]

#: Default coverage of confidence and prediction intervals.
DEFAULT_LEVEL = 0.95

#: Relative standard deviation of a measured busy-CP value assumed when a fit has no usable
#: residuals (n == 2, or an exact fit): 5 %.  It is the largest relative spread of the
#: published CPU-per-transaction figures within one table of the sources (REDP-5114 Table 9-1,
#: CICS CPU/Tran 476, 492, 493, 533 us: sample SD / mean = 4.8 %), rounded up; the sample
#: spread of the two points is used instead when it is larger.
FALLBACK_RELATIVE_SD = 0.05
#: Range of x (rates, transactions/s, or payload bytes) and largest y (busy CPs, CP-ms) a line
#: is fitted to. Far beyond any measurement, and chosen so that the relative weights 1/x**2 and
#: the squares of the sums stay normal doubles: a rate of 1e155 would make every weight 0.
MIN_FIT_X = 1e-6
MAX_FIT_X = 1e12
MAX_FIT_Y = 1e12

IntervalBasis = Literal["residuals", "assumed-relative-sd"]
Weighting = Literal["none", "relative"]
IntervalKind = Literal["prediction", "confidence"]

# 1 - leverage below this means the remaining points cannot determine a line.
_LEVERAGE_EPS = 1e-9


@fast_init
@dataclass(frozen=True)
class Interval:
    """A two-sided interval.

    ``low``/``high`` in the unit of the quantity; ``level`` the coverage (e.g. 0.95);
    ``basis`` says where the spread comes from: ``"residuals"`` (t-distribution on the fit's
    residual degrees of freedom) or ``"assumed-relative-sd"`` (normal, with an assumed
    measurement spread; see :data:`FALLBACK_RELATIVE_SD`).
    """

    low: float
    high: float
    level: float
    basis: IntervalBasis


@dataclass(frozen=True)
class LooPoint:
    """Leave-one-out check of one point.

    Parameters
    ----------
    point_id : int or None
        Id of the published point.
    etr : float
        Transactions/s.
    busy : float
        Published busy CPs.
    fitted : float
        In-sample prediction, busy CPs.
    loo_predicted : float or None
        Prediction from the line fitted without this point, busy CPs; ``None`` when the other
        points cannot determine a line (n == 2, or all other points at one rate).
    relative_error : float or None
        ``(loo_predicted - busy) / busy``.
    """

    point_id: int | None
    etr: float
    busy: float
    fitted: float
    loo_predicted: float | None
    relative_error: float | None


def _as_1d(name: str, values: npt.ArrayLike) -> FloatArray:
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(name, f"{name} must be a 1-D sequence of numbers, got {values!r}") from None
    if arr.ndim != 1:
        raise InputError(name, f"{name} must be 1-D, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise InputError(name, f"{name} must be finite, got {values!r}")
    return arr


def _check_level(level: float) -> float:
    lv = float(level)
    if not 0.0 < lv < 1.0:
        raise InputError("level", f"level must be in (0, 1), got {level!r}")
    return lv


@dataclass(frozen=True)
class LinearFit:
    """Ordinary least-squares line ``busy = intercept + slope * etr``.

    Parameters
    ----------
    slope : float
        Marginal CPU cost, CP-seconds per transaction.
    intercept : float
        Busy CPs at zero rate (fixed load; may be slightly negative within its error).
    r2 : float
        Coefficient of determination (1.0 for an exact fit).
    n : int
        Number of points.
    dof : int
        Residual degrees of freedom, ``n - 2``.
    slope_se, intercept_se : float
        Standard errors, CP-seconds per transaction and busy CPs.
    residual_std : float
        Residual standard deviation of a unit-weight observation, ``sqrt(SSE_w / (n - 2))``:
        busy CPs for ``weighting == "none"``; for ``"relative"`` the SD of ``busy / etr``
        (CP-seconds per transaction).  For ``interval_basis == "assumed-relative-sd"`` the
        assumed SD instead.  :meth:`measurement_sd` gives it in busy CPs at any rate.
    cov : tuple of tuple of float
        Covariance matrix of ``(intercept, slope)``.
    etr_min, etr_max : float
        Range of the fitted rates, transactions/s.
    etr, busy : tuple of float
        The data, transactions/s and busy CPs.
    point_ids : tuple of (int or None)
        Ids of the points, in data order.
    interval_basis : {"residuals", "assumed-relative-sd"}
        ``"residuals"`` when ``dof >= 1`` and the residuals are not all zero; otherwise each
        measurement is assumed to have a standard deviation of ``assumed_relative_sd`` times
        its typical value, and intervals use normal quantiles.  Never a zero-width interval.
    assumed_relative_sd : float or None
        The relative SD used for ``"assumed-relative-sd"``.
    weighting : {"none", "relative"}
        ``"none"``: ordinary least squares (constant error variance).  ``"relative"``:
        weighted least squares with weights ``1 / etr**2``, i.e. the error SD of a busy value
        is proportional to the rate (a constant relative error of the per-transaction cost);
        identical to OLS of the per-transaction cost ``busy / etr`` on ``1 / etr``.  The
        standard errors, ``residual_std`` (of a unit-weight observation), intervals and
        leverages are the weighted ones.
    """

    slope: float
    intercept: float
    r2: float
    n: int
    dof: int
    slope_se: float
    intercept_se: float
    residual_std: float
    cov: tuple[tuple[float, float], tuple[float, float]]
    etr_min: float
    etr_max: float
    etr: tuple[float, ...]
    busy: tuple[float, ...]
    point_ids: tuple[int | None, ...]
    interval_basis: IntervalBasis
    assumed_relative_sd: float | None = None
    weighting: Weighting = "none"

    # -- derived quantities -------------------------------------------------------------
    @property
    def slope_ms(self) -> float:
        """Marginal cost, CP-milliseconds per transaction."""
        return self.slope * 1000.0

    def weights(self, etr: npt.ArrayLike | None = None) -> FloatArray:
        """Least-squares weights at ``etr`` (default: the fitted rates)."""
        x = np.asarray(self.etr if etr is None else etr, dtype=np.float64)
        return _weights(x, self.weighting)

    @property
    def etr_mean(self) -> float:
        """(Weighted) mean fitted rate, transactions/s."""
        w = self.weights()
        return float(np.dot(w, self.etr) / w.sum())

    @property
    def sxx(self) -> float:
        """(Weighted) sum of squared deviations of the rates from their mean."""
        x = np.asarray(self.etr)
        return float(np.dot(self.weights(), (x - self.etr_mean) ** 2))

    def in_range(self, etr: float) -> bool:
        """True when ``etr`` lies within the fitted rate range."""
        return self.etr_min <= etr <= self.etr_max

    @overload
    def predict(self, etr: float) -> float: ...
    @overload
    def predict(self, etr: FloatArray) -> FloatArray: ...
    def predict(self, etr: float | FloatArray) -> float | FloatArray:
        """Predicted busy CPs at ``etr`` transactions/s (scalar or array)."""
        if isinstance(etr, np.ndarray):
            return self.intercept + self.slope * etr.astype(np.float64)
        return self.intercept + self.slope * float(etr)

    def _se_mean(self, x0: FloatArray) -> FloatArray:
        sw = float(self.weights().sum())
        return np.asarray(
            self.residual_std * np.sqrt(1.0 / sw + (x0 - self.etr_mean) ** 2 / self.sxx),
            dtype=np.float64,
        )

    def _quantile(self, level: float) -> float:
        lv = _check_level(level)
        q = 0.5 + lv / 2.0
        if self.interval_basis == "residuals":
            return student_t_quantile(q, self.dof)
        return normal_quantile(q)

    def _interval(self, etr: float, level: float, kind: IntervalKind) -> Interval:
        if kind not in ("prediction", "confidence"):
            raise InputError("kind", f"kind must be 'prediction' or 'confidence', got {kind!r}")
        x0 = np.array([float(etr)])
        se_mean = float(self._se_mean(x0)[0])
        if kind == "prediction":
            # a new measurement at x0 has variance sigma^2 / w(x0)
            se = math.hypot(se_mean, self.residual_std / math.sqrt(float(self.weights(x0)[0])))
        else:
            se = se_mean
        q = self._quantile(level)
        centre = self.predict(float(etr))
        return Interval(centre - q * se, centre + q * se, float(level), self.interval_basis)

    def prediction_interval(self, etr: float, level: float = DEFAULT_LEVEL) -> Interval:
        """Interval for a new measurement of busy CPs at ``etr`` transactions/s.

        ``t_{dof, (1+level)/2} * s * sqrt(1/w(etr) + 1/sum(w) + (etr - mean)^2 / Sxx)`` around
        the prediction (Draper and Smith, 1998, secs. 1.4 and 9.2; ``w = 1`` for OLS); normal
        quantile and the assumed SD when ``interval_basis == "assumed-relative-sd"``.
        """
        return self._interval(etr, level, "prediction")

    def prediction_intervals(self, etr: Sequence[float], level: float = DEFAULT_LEVEL) -> list[Interval]:
        """:meth:`prediction_interval` at each of ``etr``, equal to it interval for interval: the
        standard errors over the array (the same elementwise operations), the quantile once."""
        basis = self.interval_basis
        return [Interval(low, high, float(level), basis) for low, high in self.prediction_bounds(etr, level)]

    def prediction_bounds(self, etr: Sequence[float], level: float = DEFAULT_LEVEL) -> list[tuple[float, float]]:
        """The (low, high) of :meth:`prediction_intervals` at each of ``etr``, the same numbers
        without an :class:`Interval` built for each (the centre: :meth:`predict`'s operations)."""
        x0 = np.array([float(e) for e in etr], dtype=np.float64)
        se_mean, weights = self._se_mean(x0).tolist(), self.weights(x0).tolist()
        q = self._quantile(level)
        a, b, sd, hypot, sqrt = self.intercept, self.slope, self.residual_std, math.hypot, math.sqrt
        out = []
        for e, sm, w in zip(etr, se_mean, weights, strict=True):
            se = hypot(sm, sd / sqrt(w))
            centre = a + b * float(e)
            out.append((centre - q * se, centre + q * se))
        return out

    def confidence_interval(self, etr: float, level: float = DEFAULT_LEVEL) -> Interval:
        """Interval for the mean busy CPs at ``etr`` transactions/s (the fitted line)."""
        return self._interval(etr, level, "confidence")

    def cpu_per_tran_ms(self, etr: float) -> float:
        """Predicted CPU per transaction at ``etr`` transactions/s, CP-ms.

        ``predict(etr) / etr * 1000``: the fixed intercept is shared by the transactions.
        """
        e = float(etr)
        if not e > 0.0:
            raise InputError("etr", f"etr must be > 0, got {etr!r}")
        return self.predict(e) / e * 1000.0

    def cpu_per_tran_ms_interval(
        self, etr: float, level: float = DEFAULT_LEVEL, kind: IntervalKind = "prediction"
    ) -> Interval:
        """Interval of CPU per transaction at ``etr`` transactions/s, CP-ms.

        The busy-CP interval of ``kind`` divided by ``etr`` (exact, as ``etr`` is a given).
        """
        e = float(etr)
        if not e > 0.0:
            raise InputError("etr", f"etr must be > 0, got {etr!r}")
        iv = self._interval(e, level, kind)
        return Interval(iv.low / e * 1000.0, iv.high / e * 1000.0, iv.level, iv.basis)

    def measurement_sd(self, etr: float) -> float:
        """Standard deviation of one busy-CP measurement at ``etr`` transactions/s, busy CPs
        (``residual_std / sqrt(w(etr))``: constant for OLS, proportional to ``etr`` for relative
        weights)."""
        return self.residual_std / math.sqrt(float(self.weights(np.array([float(etr)]))[0]))

    def residuals(self) -> FloatArray:
        """Published minus fitted busy CPs, in data order."""
        x = np.asarray(self.etr)
        y = np.asarray(self.busy)
        return np.asarray(y - (self.intercept + self.slope * x), dtype=np.float64)

    def leave_one_out(self) -> tuple[LooPoint, ...]:
        """Leave-one-out predictions of every point.

        Uses the closed form for (weighted) least squares, ``y_i - e_i / (1 - h_ii)`` with
        leverage ``h_ii = w_i (1/sum(w) + (x_i - mean)^2 / Sxx)`` (identical to refitting
        without the point).
        Points whose removal leaves no line (n == 2; or every other point at one rate) get
        ``None``.

        References
        ----------
        .. [1] Draper and Smith (1998), sec. 8.3 (PRESS residuals).
        """
        x = np.asarray(self.etr)
        y = np.asarray(self.busy)
        fitted = self.intercept + self.slope * x
        w = self.weights()
        h = w * (1.0 / float(w.sum()) + (x - self.etr_mean) ** 2 / self.sxx)
        out: list[LooPoint] = []
        for i in range(self.n):
            one_minus_h = 1.0 - float(h[i])
            if one_minus_h < _LEVERAGE_EPS or self.n < 3:
                loo: float | None = None
                rel: float | None = None
            else:
                loo = float(y[i] - (y[i] - fitted[i]) / one_minus_h)
                rel = (loo - float(y[i])) / float(y[i]) if y[i] != 0.0 else None
            out.append(
                LooPoint(
                    point_id=self.point_ids[i],
                    etr=float(x[i]),
                    busy=float(y[i]),
                    fitted=float(fitted[i]),
                    loo_predicted=loo,
                    relative_error=rel,
                )
            )
        return tuple(out)

    def summary(self) -> dict[str, Any]:
        """JSON-safe summary (slope in CP-ms per transaction, intercept in busy CPs;
        ``residual_std_cps`` is :meth:`measurement_sd` at the (weighted) mean rate)."""
        return {
            "slope_ms": self.slope_ms,
            "intercept_cps": self.intercept,
            "r2": self.r2,
            "n": self.n,
            "etr_min": self.etr_min,
            "etr_max": self.etr_max,
            "slope_se_ms": self.slope_se * 1000.0,
            "intercept_se_cps": self.intercept_se,
            "residual_std_cps": self.measurement_sd(self.etr_mean),
            "interval_basis": self.interval_basis,
            "weighting": self.weighting,
        }


def _weights(x: FloatArray, weighting: Weighting) -> FloatArray:
    if weighting == "none":
        return np.ones_like(x)
    if weighting == "relative":
        return np.asarray(1.0 / x**2, dtype=np.float64)
    raise InputError("weighting", f"weighting must be 'none' or 'relative', got {weighting!r}")


def fit_linear(
    etr: npt.ArrayLike,
    busy: npt.ArrayLike,
    *,
    point_ids: Sequence[int | None] | None = None,
    weighting: Weighting = "none",
    fallback_relative_sd: float = FALLBACK_RELATIVE_SD,
) -> LinearFit:
    """Fit ``busy = intercept + slope * etr`` by least squares.

    Parameters
    ----------
    etr : array_like of float
        External transaction rates, transactions/s (> 0).
    busy : array_like of float
        Busy CPs at those rates (>= 0), e.g. RMF APPL% / 100.
    point_ids : sequence of int, optional
        Ids of the points (provenance), same length as ``etr``.
    weighting : {"none", "relative"}
        ``"none"`` (default): ordinary least squares.  ``"relative"``: weights ``1/etr**2``,
        for errors proportional to the rate (see :class:`LinearFit`).
    fallback_relative_sd : float
        Relative SD of a busy-CP measurement assumed when the residuals cannot estimate the
        spread (n == 2 or an exact fit); the sample relative SD of ``busy / etr`` is used when
        larger.  Default :data:`FALLBACK_RELATIVE_SD` (5 %).

    Returns
    -------
    LinearFit

    Raises
    ------
    ValueError
        If fewer than two points, lengths differ, values are not finite, a rate is outside
        :data:`MIN_FIT_X`..:data:`MAX_FIT_X`, a busy value is negative or above
        :data:`MAX_FIT_Y`, or all rates are equal (no slope).

    Notes
    -----
    With ``n == 2`` the line passes through both points and there is no residual degree of
    freedom.  Instead of a zero-width interval the fit assumes each measurement has a standard
    deviation of ``r`` times its typical size (``r * mean(busy)`` for OLS, ``r * etr *
    mean(busy / etr)`` for relative weights) with ``r = max(fallback_relative_sd, relative SD
    of the per-transaction costs busy/etr)``, and uses normal quantiles; ``interval_basis`` is
    then ``"assumed-relative-sd"`` so that callers can flag it.

    References
    ----------
    .. [1] Draper and Smith (1998), ch. 1 and sec. 9.2 (weighted least squares).
    .. [2] Menasce, Almeida and Dowdy (2004), ch. 12.

    Examples
    --------
    >>> f = fit_linear([500.0, 1000.0, 2000.0], [0.25, 0.5, 1.0])
    >>> round(f.slope_ms, 6), abs(round(f.intercept, 9))
    (0.5, 0.0)
    """
    x = _as_1d("etr", etr)
    y = _as_1d("busy", busy)
    n = int(x.size)
    if n < 2:
        raise ValueError(f"need at least 2 points to fit a line, got n={n}")
    if y.size != n:
        raise InputError("busy", f"busy must have the same length as etr ({n}), got {y.size}")
    if np.any(x <= 0.0):
        raise InputError("etr", f"etr must be > 0, got {x.tolist()}")
    if np.any(x < MIN_FIT_X) or np.any(x > MAX_FIT_X):
        raise InputError("etr", f"etr must be within {MIN_FIT_X:g}..{MAX_FIT_X:g}, got {x.tolist()}")
    if np.any(y < 0.0):
        raise InputError("busy", f"busy must be >= 0, got {y.tolist()}")
    if np.any(y > MAX_FIT_Y):
        raise InputError("busy", f"busy must be at most {MAX_FIT_Y:g}, got {y.tolist()}")
    ids: tuple[int | None, ...]
    if point_ids is None:
        ids = tuple([None] * n)
    else:
        ids = tuple(point_ids)
        if len(ids) != n:
            raise InputError("point_ids", f"point_ids must have length {n}, got {len(ids)}")
    r_fb = float(fallback_relative_sd)
    if not 0.0 < r_fb < 1.0:
        raise InputError(
            "fallback_relative_sd", f"fallback_relative_sd must be in (0, 1), got {fallback_relative_sd!r}"
        )
    w = _weights(x, weighting)

    sw = float(w.sum())
    x_mean = float(np.dot(w, x)) / sw
    y_mean = float(np.dot(w, y)) / sw
    dx = x - x_mean
    sxx = float(np.dot(w, dx * dx))
    # Relative test: rates equal to rounding are as good as equal.
    if sxx <= (1e-12 * max(abs(x_mean), 1.0)) ** 2 * sw:
        raise InputError("etr", f"etr must contain at least two distinct rates, got {x.tolist()}")
    slope = float(np.dot(w, dx * (y - y_mean))) / sxx
    intercept = y_mean - slope * x_mean
    resid = y - (intercept + slope * x)
    sse = float(np.dot(w, resid * resid))
    sst = float(np.dot(w, (y - y_mean) ** 2))
    r2 = 1.0 - sse / sst if sst > 0.0 else 1.0
    dof = n - 2
    # An exact fit (sse == 0 to rounding) carries no information about the spread either.
    scale = float(np.dot(w, y * y))
    exact = sse <= 1e-24 * max(scale, 1e-300)
    basis: IntervalBasis
    assumed: float | None
    if dof >= 1 and not exact:
        sigma = math.sqrt(sse / dof)
        basis = "residuals"
        assumed = None
    else:
        cost = y / x
        mean_cost = float(np.mean(cost))
        sample_rel = float(np.std(cost, ddof=1) / mean_cost) if mean_cost > 0 else 0.0
        assumed = max(r_fb, sample_rel)
        typical = float(np.mean(y)) if weighting == "none" else mean_cost
        sigma = assumed * max(typical, 1e-12)
        basis = "assumed-relative-sd"
    var_slope = sigma**2 / sxx
    var_intercept = sigma**2 * (1.0 / sw + x_mean**2 / sxx)
    cov_is = -x_mean * sigma**2 / sxx
    return LinearFit(
        slope=slope,
        intercept=intercept,
        r2=r2,
        n=n,
        dof=dof,
        slope_se=math.sqrt(var_slope),
        intercept_se=math.sqrt(var_intercept),
        residual_std=sigma,
        cov=((var_intercept, cov_is), (cov_is, var_slope)),
        etr_min=float(x.min()),
        etr_max=float(x.max()),
        etr=tuple(float(v) for v in x),
        busy=tuple(float(v) for v in y),
        point_ids=ids,
        interval_basis=basis,
        assumed_relative_sd=assumed,
        weighting=weighting,
    )


# ---------------------------------------------------------------------------------------
# One configuration
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LooReportRow:
    """One row of the leave-one-out report (see :func:`loo_report`).

    ``published_busy`` and ``loo_predicted`` in busy CPs, ``etr`` in transactions/s,
    ``relative_error`` = (LOO predicted - published) / published, or ``None`` where no
    leave-one-out line exists.
    """

    path: str
    configuration: str
    component: str
    point_id: int | None
    etr: float
    published_busy: float
    loo_predicted: float | None
    relative_error: float | None

    def to_dict(self) -> dict[str, Any]:
        """Plain-dict form (JSON-safe)."""
        return {
            "path": self.path,
            "configuration": self.configuration,
            "component": self.component,
            "point_id": self.point_id,
            "etr": self.etr,
            "published_busy": self.published_busy,
            "loo_predicted": self.loo_predicted,
            "relative_error": self.relative_error,
        }


@dataclass(frozen=True)
class ConfigurationModel:
    """CPU models of one configuration: a :class:`LinearFit` per published component.

    Parameters
    ----------
    path, configuration : str
        Slugs.
    machine_type : str
        Machine type the points were measured on.
    lpar_cps : int or None
        CPs of the measured LPAR.
    fits : Mapping[str, LinearFit]
        Component (``"lpar"``, ``"cics"``, ``"tor"``...) -> fit of busy CPs against ETR, for
        every component present in at least two points.
    primary : str or None
        The component that sizes the LPAR: ``"lpar"`` where published (it includes TCP/IP,
        SMSVSAM and the rest of the workload), else ``"cics"``; ``None`` when there are no CPU
        points (bounds-only paths).
    point_ids : tuple of int
        Ids of all points of the configuration.
    """

    path: str
    configuration: str
    machine_type: str
    lpar_cps: int | None
    fits: Mapping[str, LinearFit]
    primary: str | None
    point_ids: tuple[int, ...] = ()

    @property
    def has_cpu_model(self) -> bool:
        """True when at least one component could be fitted."""
        return self.primary is not None

    def primary_fit(self) -> LinearFit:
        """The fit of :attr:`primary`; ``ValueError`` when there is none."""
        if self.primary is None:
            raise ValueError(f"configuration {self.path}/{self.configuration} has no CPU points to fit")
        return self.fits[self.primary]

    def predict_busy(self, etr: float) -> dict[str, float]:
        """Predicted busy CPs per component at ``etr`` transactions/s (clipped at 0)."""
        return {c: max(0.0, f.predict(float(etr))) for c, f in self.fits.items()}

    def loo_table(self) -> tuple[LooReportRow, ...]:
        """Leave-one-out rows of every fitted component, components in :data:`CPU_COMPONENTS`
        order."""
        rows: list[LooReportRow] = []
        for comp, fit in self.fits.items():
            for p in fit.leave_one_out():
                rows.append(
                    LooReportRow(
                        path=self.path,
                        configuration=self.configuration,
                        component=comp,
                        point_id=p.point_id,
                        etr=p.etr,
                        published_busy=p.busy,
                        loo_predicted=p.loo_predicted,
                        relative_error=p.relative_error,
                    )
                )
        return tuple(rows)


def fit_configuration(
    cfg: ConfigurationData,
    *,
    weighting: Weighting = "relative",
    fallback_relative_sd: float = FALLBACK_RELATIVE_SD,
) -> ConfigurationModel:
    """Fit every CPU component of a configuration that appears in >= 2 points.

    Parameters
    ----------
    cfg : ConfigurationData
        The published data of one configuration; ``cfg.points[i].busy_cps`` holds busy CPs per
        component.
    weighting : {"relative", "none"}
        Passed to :func:`fit_linear`.  Default ``"relative"`` (weights ``1/etr**2``): the
        published busy values scatter in proportion to the rate, not by a constant amount
        (their per-transaction costs spread by a similar percentage at every rate), so ordinary
        least squares lets the high-rate points dominate and misses the low-rate points by up
        to 8 % (REDP-5114 Table 9-1, CICS, 497.6 TPS), while relative weights keep every point
        of the four FiTeq tables within 3.6 %.  ``"none"`` gives ordinary least squares.
    fallback_relative_sd : float
        Passed to :func:`fit_linear`.

    Returns
    -------
    ConfigurationModel
        With ``primary`` ``"lpar"`` where fitted, else ``"cics"``, else the first fitted
        component in :data:`CPU_COMPONENTS` order, else ``None`` (no CPU points: the sizing
        then uses published bounds, see :mod:`models_lib.sizing`).

    Raises
    ------
    ValueError
        If a point carries an unknown component name, or a component's data cannot be fitted
        (e.g. all its points at one rate).

    References
    ----------
    .. [1] REDP-5114, Chapter 7 (LPAR CPU% includes "all the other address spaces, such as
       TCP/IP, included in the workload").
    """
    if not isinstance(cfg, ConfigurationData):
        raise InputError("config", f"cfg must be a ConfigurationData, got {type(cfg).__name__}")
    series: dict[str, tuple[list[float], list[float], list[int | None]]] = {}
    for p in cfg.points:
        for comp, value in p.busy_cps.items():
            if comp not in CPU_COMPONENTS:
                raise InputError(
                    "config",
                    f"cfg.points: point {p.id} has unknown component {comp!r} (expected one of {CPU_COMPONENTS})",
                )
            xs, ys, ids = series.setdefault(comp, ([], [], []))
            xs.append(p.etr)
            ys.append(value)
            ids.append(p.id)
    fits: dict[str, LinearFit] = {}
    for comp in CPU_COMPONENTS:
        if comp in series and len(series[comp][0]) >= 2:
            xs, ys, ids = series[comp]
            try:
                fits[comp] = fit_linear(
                    xs,
                    ys,
                    point_ids=ids,
                    weighting=weighting,
                    fallback_relative_sd=fallback_relative_sd,
                )
            except ValueError as exc:
                raise InputError("config", f"cfg {cfg.path}/{cfg.configuration}, component {comp!r}: {exc}") from None
    primary: str | None = None
    for candidate in ("lpar", "cics", *CPU_COMPONENTS):
        if candidate in fits:
            primary = candidate
            break
    return ConfigurationModel(
        path=cfg.path,
        configuration=cfg.configuration,
        machine_type=cfg.machine_type,
        lpar_cps=cfg.lpar_cps,
        fits=MappingProxyType(fits),
        primary=primary,
        point_ids=tuple(p.id for p in cfg.points),
    )


def loo_report(models: Iterable[ConfigurationModel]) -> list[LooReportRow]:
    """Leave-one-out rows of every component of every model.

    This is how the product reports the out-of-sample error of its cost models: each
    published busy-CP value is predicted from the line fitted to the other points of the same
    configuration and component.

    Parameters
    ----------
    models : iterable of ConfigurationModel

    Returns
    -------
    list of LooReportRow
        Path, configuration, component, point id, ETR (transactions/s), published busy CPs,
        LOO prediction (busy CPs) and relative error.
    """
    rows: list[LooReportRow] = []
    for m in models:
        rows.extend(m.loo_table())
    return rows


def median_abs_loo_error(rows: Iterable[LooReportRow], components: Iterable[str] | None = None) -> float | None:
    """Median absolute relative LOO error of ``rows`` (optionally only some components).

    Returns ``None`` when no row has an error.
    """
    keep = None if components is None else set(components)
    errs = [
        abs(r.relative_error) for r in rows if r.relative_error is not None and (keep is None or r.component in keep)
    ]
    return float(statistics.median(errs)) if errs else None


# ---------------------------------------------------------------------------------------
# Payload
# ---------------------------------------------------------------------------------------

PayloadForm = Literal["proportional", "linear", "fitted"]


@dataclass(frozen=True)
class PayloadScale:
    """Factor by which CPU per transaction changes from one payload size to another.

    ``factor`` is the central value, ``low``/``high`` the range the published statement
    allows (all dimensionless, cost(to) / cost(from)); ``in_range`` whether the target size
    lies in the published range of the statement; ``assumption`` says in words what fills the
    gap.
    """

    factor: float
    low: float
    high: float
    in_range: bool
    assumption: str


@dataclass(frozen=True)
class PayloadModel:
    """How CPU per transaction depends on the payload size.

    Parameters
    ----------
    form : {"proportional", "linear", "fitted"}
        ``"proportional"``: cost is proportional to bytes (published "doubles as the payload
        doubles").  ``"linear"``: cost = a + b * bytes with ``a`` unknown (published "increases
        linearly"); only the range between "a = 0" and "b = 0" is known.  ``"fitted"``: a and b
        fitted to calibration points (:func:`fit_payload`).
    range_bytes : (int or None, int or None) or None
        Payload range the statement or the points cover, bytes; ``None`` for an end the
        source leaves open.
    statement_id : int or None
        Id of the published statement.
    reference : str
        Provenance.
    intercept_ms, slope_ms_per_byte : float or None
        ``a`` (CP-ms per transaction) and ``b`` (CP-ms per transaction per byte) for
        ``"fitted"``.
    regression : LinearFit or None
        For ``"fitted"``: the regression of CP-ms per transaction on bytes (its ``etr``
        fields hold bytes and ``busy`` holds CP-ms per transaction).
    """

    form: PayloadForm
    range_bytes: tuple[int | None, int | None] | None = None
    statement_id: int | None = None
    reference: str = ""
    intercept_ms: float | None = None
    slope_ms_per_byte: float | None = None
    regression: LinearFit | None = field(default=None, repr=False)

    def _range_text(self) -> str:
        if self.range_bytes is None:
            return "an unpublished range"
        lo, hi = self.range_bytes
        return f"{'?' if lo is None else lo} to {'open' if hi is None else hi} bytes"

    def covers(self, payload_bytes: int) -> bool:
        """True when ``payload_bytes`` lies in :attr:`range_bytes` (open ends included)."""
        if self.range_bytes is None:
            return False
        lo, hi = self.range_bytes
        return (lo is None or lo <= payload_bytes) and (hi is None or payload_bytes <= hi)

    def scale(self, from_bytes: int, to_bytes: int) -> PayloadScale:
        """Factor cost(to_bytes) / cost(from_bytes).

        Parameters
        ----------
        from_bytes : int
            Payload the cost was measured at, bytes (> 0).
        to_bytes : int
            Payload to size for, bytes (> 0).

        Returns
        -------
        PayloadScale
            ``"proportional"``: ``to/from`` (below the published range, where the statement
            does not apply, the envelope ``[to/from, 1]`` with central 1).  ``"linear"`` with
            unknown ``a``: any value between 1 (all cost fixed) and ``to/from`` (no fixed
            cost); the central value is the higher-cost end (conservative), ``max(1, to/from)``.  ``"fitted"``:
            ``(a + b*to) / (a + b*from)`` with the 95 % confidence range of ``a + b*to``.
        """
        for name, v in (("from_bytes", from_bytes), ("to_bytes", to_bytes)):
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise InputError(name, f"{name} must be an int > 0, got {v!r}")
        ratio = to_bytes / from_bytes
        in_range = self.covers(to_bytes)
        if self.form == "proportional" and ratio < 1.0 and not in_range:
            # Below the published range the cost need not fall in proportion: keep the
            # envelope [ratio, 1] and its higher-cost end.
            return PayloadScale(
                1.0,
                ratio,
                1.0,
                in_range,
                f"published: cost proportional to payload from {self._range_text()}; "
                f"{to_bytes} bytes is below that range, so the cost is held at the "
                f"{from_bytes}-byte value (it may fall to x{ratio:.3g})",
            )
        if self.form == "proportional":
            return PayloadScale(
                ratio,
                ratio,
                ratio,
                in_range,
                f"CPU per transaction scaled in proportion to payload ({from_bytes} -> "
                f"{to_bytes} bytes, x{ratio:.3g}), as published",
            )
        if self.form == "linear":
            lo, hi = min(1.0, ratio), max(1.0, ratio)
            return PayloadScale(
                hi,
                lo,
                hi,
                in_range,
                "published: cost increases linearly with payload, fixed part unknown; the "
                f"factor lies between {lo:.3g} and {hi:.3g}, the higher-cost end is used",
            )
        if self.intercept_ms is None or self.slope_ms_per_byte is None or self.regression is None:
            raise ValueError("a fitted PayloadModel needs intercept_ms, slope and regression")
        base = self.intercept_ms + self.slope_ms_per_byte * from_bytes
        if not base > 0.0:
            raise ValueError(f"fitted cost at from_bytes={from_bytes} is not positive")
        ci = self.regression.confidence_interval(float(to_bytes))
        central = self.regression.predict(float(to_bytes)) / base
        return PayloadScale(
            central,
            max(ci.low, 0.0) / base,
            ci.high / base,
            in_range,
            f"cost = {self.intercept_ms:.4g} ms + {self.slope_ms_per_byte * 1024:.4g} ms/KiB "
            "fitted to calibration points",
        )


def fit_payload(
    payload_bytes: npt.ArrayLike,
    cpu_per_tran_ms: npt.ArrayLike,
    *,
    point_ids: Sequence[int | None] | None = None,
    statement_id: int | None = None,
    reference: str = "",
) -> PayloadModel:
    """Fit ``cost = a + b * bytes`` to calibration points.

    Parameters
    ----------
    payload_bytes : array_like of int
        Payload sizes, bytes (> 0, at least two distinct).
    cpu_per_tran_ms : array_like of float
        CPU per transaction at those sizes, CP-ms (>= 0).
    point_ids : sequence of int, optional
        Provenance of the points.
    statement_id : int, optional
        Provenance of a statement the points came with.
    reference : str
        Provenance text.

    Returns
    -------
    PayloadModel
        ``form == "fitted"``.

    Raises
    ------
    ValueError
        As :func:`fit_linear`.
    """
    b = _as_1d("payload_bytes", payload_bytes)
    reg = fit_linear(b, cpu_per_tran_ms, point_ids=point_ids)
    return PayloadModel(
        form="fitted",
        range_bytes=(int(b.min()), int(b.max())),
        statement_id=statement_id,
        reference=reference,
        intercept_ms=reg.intercept,
        slope_ms_per_byte=reg.slope,
        regression=reg,
    )


def payload_model(cfg: ConfigurationData) -> PayloadModel | None:
    """The payload model of a configuration.

    Calibration points (CPU points with at least two distinct ``response_bytes``, all at one
    per-transaction basis) are fitted with :func:`fit_payload`; otherwise the published
    :class:`~models_lib.inputs.PayloadScaling` is applied; ``None`` when neither exists.
    """
    with_bytes = [p for p in cfg.points if p.response_bytes is not None and p.busy_cps]
    sizes = {p.response_bytes for p in with_bytes}
    if len(sizes) >= 2:
        comp = "lpar" if all("lpar" in p.busy_cps for p in with_bytes) else "cics"
        usable = [p for p in with_bytes if comp in p.busy_cps]
        if len({p.response_bytes for p in usable}) >= 2:
            return fit_payload(
                [float(p.response_bytes or 0) for p in usable],
                [p.busy_cps[comp] / p.etr * 1000.0 for p in usable],
                point_ids=[p.id for p in usable],
                reference=f"calibration points ({comp} CPU per transaction)",
            )
    ps: PayloadScaling | None = cfg.payload_scaling
    if ps is None:
        return None
    return PayloadModel(
        form=ps.form,
        range_bytes=ps.range_bytes,
        statement_id=ps.statement_id,
        reference=ps.reference,
    )
