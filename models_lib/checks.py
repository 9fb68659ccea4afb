"""Input checks of the numerical core: a typed error that names the argument it is about.

A service maps :class:`InputError` to the 400's field through :attr:`InputError.argument`; it
never reads the message's text.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

__all__ = ["InputError", "opt_int", "pos_float"]


class InputError(ValueError):
    """A bad input, with the name of the argument it is about.

    Parameters
    ----------
    argument : str
        The input's name as the caller passed it (``"tps"``, ``"cps"``, ``"max_utilization"``);
        ``""`` where the error is about no single input (the configuration as a whole).
    message : str
        The reason, in a sentence that names the argument and the bad value.
    """

    def __init__(self, argument: str, message: str) -> None:
        super().__init__(message)
        self.argument = argument


def opt_int(name: str, value: int | None, minimum: int) -> int | None:
    """``value`` as an int >= ``minimum``, or ``None``; :class:`InputError` naming ``name`` otherwise."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral) or int(value) < minimum:
        raise InputError(name, f"{name} must be an int >= {minimum}, got {value!r}")
    return int(value)


def pos_float(name: str, value: float, *, allow_zero: bool = False) -> float:
    """``value`` as a finite float > 0 (>= 0 with ``allow_zero``); :class:`InputError` naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InputError(name, f"{name} must be a number, got {value!r}")
    v = float(value)
    ok = (v >= 0.0) if allow_zero else (v > 0.0)
    if not (ok and math.isfinite(v)):
        raise InputError(name, f"{name} must be finite and {'>=' if allow_zero else '>'} 0, got {value!r}")
    return v
