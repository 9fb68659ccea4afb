"""Unit conversions for published CPU figures.

The sources print CPU in several units (RMF APPL% of one CP, LPAR busy % of a pool of
engines, microseconds per transaction, shares in percent).  The numerical core works in
*busy CPs* (1.0 = one CP busy for the whole interval), CP-milliseconds per transaction and
fractions; these functions are the only place where the conversion happens, so that the Django
loader and the tests agree on it.

References
----------
.. [1] IBM, "z/OS Resource Measurement Facility Report Analysis", SC34-2665: APPL% is the
   percentage of one processor used by the report class over the interval.
.. [2] IBM Redpaper REDP-5114 (FiTeq Authenticator benchmark), Chapter 7 "Terms used": "LPAR
   CPU%: how busy the LPAR is in terms of its usage of the 10 CPs that are allocated to it".
"""

from __future__ import annotations

import math

from models_lib.checks import InputError

__all__ = ["BUSY_UNITS", "PER_TRAN_UNITS", "SHARE_UNITS", "busy_cps", "cpu_per_tran_ms", "figure_text", "share"]

#: Units accepted by :func:`busy_cps`.
BUSY_UNITS = ("pct_one_cp", "pct_of_pool")
#: Units accepted by :func:`cpu_per_tran_ms`.
PER_TRAN_UNITS = ("us_per_tran", "ms_per_tran")
#: Units accepted by :func:`share`.
SHARE_UNITS = ("pct_share",)


def _finite_non_negative(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(name, f"{name} must be a number, got {value!r}")
    v = float(value)
    if not math.isfinite(v) or v < 0.0:
        raise InputError(name, f"{name} must be finite and >= 0, got {value!r}")
    return v


def busy_cps(value: float, unit: str, engines: int | None = None) -> float:
    """Convert a published CPU utilisation figure to busy CPs.

    Parameters
    ----------
    value : float
        The published figure, percent (``>= 0``).
    unit : {"pct_one_cp", "pct_of_pool"}
        ``pct_one_cp``: percent of one CP (RMF APPL%; 100 = one CP busy), so busy CPs =
        ``value / 100``.  ``pct_of_pool``: percent of a pool of ``engines`` engines (LPAR busy
        %, CF busy %), so busy CPs = ``value / 100 * engines``; ``value`` must be <= 100.
    engines : int, optional
        Engines in the pool; required (>= 1) for ``pct_of_pool``, ignored for
        ``pct_one_cp``.

    Returns
    -------
    float
        Busy engines (CPs, or CF engines for a CF pool).

    Raises
    ------
    ValueError
        For an unknown unit, a negative or non-finite value, a pool percentage above 100, or a
        missing/invalid ``engines``.

    References
    ----------
    .. [1] REDP-5114, Chapter 7 and section 9.3 (APPL% 95.75 = 0.9575 CPs; LPAR 12.22% of 10
       CPs = 1.222 CPs).

    Examples
    --------
    >>> busy_cps(23.70, "pct_one_cp")
    0.237
    >>> round(busy_cps(3.44, "pct_of_pool", engines=10), 6)
    0.344
    """
    v = _finite_non_negative("value", value)
    if unit == "pct_one_cp":
        return v / 100.0
    if unit == "pct_of_pool":
        if engines is None or isinstance(engines, bool) or not isinstance(engines, int):
            raise InputError("engines", f"engines must be an int >= 1 for unit 'pct_of_pool', got {engines!r}")
        if engines < 1:
            raise InputError("engines", f"engines must be >= 1 for unit 'pct_of_pool', got {engines!r}")
        if v > 100.0:
            raise ValueError(f"value must be <= 100 for unit 'pct_of_pool', got {value!r}")
        return v / 100.0 * engines
    raise ValueError(f"unit must be one of {BUSY_UNITS} for a utilisation, got {unit!r}")


def cpu_per_tran_ms(value: float, unit: str) -> float:
    """Convert a published CPU-per-transaction figure to CP-milliseconds per transaction.

    Parameters
    ----------
    value : float
        The published figure (``>= 0``).
    unit : {"us_per_tran", "ms_per_tran"}
        Microseconds or milliseconds of one CP per transaction.

    Returns
    -------
    float
        CP-milliseconds per transaction.

    Raises
    ------
    ValueError
        For an unknown unit or a negative / non-finite value.

    References
    ----------
    .. [1] REDP-5114, Chapter 7: "CICS CPU/Transaction: Microseconds of CPU per transaction".

    Examples
    --------
    >>> cpu_per_tran_ms(476, "us_per_tran")
    0.476
    """
    v = _finite_non_negative("value", value)
    if unit == "us_per_tran":
        return v / 1000.0
    if unit == "ms_per_tran":
        return v
    raise ValueError(f"unit must be one of {PER_TRAN_UNITS} for CPU per transaction, got {unit!r}")


def share(value: float, unit: str) -> float:
    """Convert a published share to a fraction in [0, 1].

    Parameters
    ----------
    value : float
        The published share, percent, in [0, 100].
    unit : {"pct_share"}
        Only percent shares are published.

    Returns
    -------
    float
        The share as a fraction.

    Raises
    ------
    ValueError
        For an unknown unit or a value outside [0, 100].

    References
    ----------
    .. [1] CICS TG V9.0 performance summary, Tables 1 and 2 ("CICS TS+TG CPU load zAAP
       eligible (%)").

    Examples
    --------
    >>> share(68.54, "pct_share")
    0.6854
    """
    v = _finite_non_negative("value", value)
    if unit != "pct_share":
        raise ValueError(f"unit must be one of {SHARE_UNITS} for a share, got {unit!r}")
    if v > 100.0:
        raise ValueError(f"value must be <= 100 for unit 'pct_share', got {value!r}")
    return v / 100.0


def figure_text(value: float) -> str:
    """A rate (transactions/s) or a count of busy engines in a warning's sentence, as a planner
    writes it: whole with thousands separators from 100 up ("8,830", "214,000"), three significant
    digits below ("12.5", "0.415"); never an exponent ("2.14e+05").

    Parameters
    ----------
    value : float
        The figure, in its own unit (transactions/s or busy engines).

    Returns
    -------
    str
        The figure without its unit.
    """
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"
