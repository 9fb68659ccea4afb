"""Argument checks shared by the queueing solvers.

Every check raises ``ValueError`` naming the argument and the bad value, so a caller (a Django
service, a notebook) can report it without knowing the solver.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

from models_lib.checks import InputError


def as_count(name: str, value: object, *, minimum: int) -> int:
    """Return ``value`` as an ``int`` >= ``minimum``; integral floats such as ``6.0`` are accepted."""
    # A plain int is the common case (the engine asks once per CP count): skip the ABC checks.
    if type(value) is int and value >= minimum:
        return value
    if isinstance(value, bool):
        raise InputError(name, f"{name} must be an integer >= {minimum}, got {value!r}")
    if isinstance(value, Integral):
        count = int(value)
    elif isinstance(value, Real) and math.isfinite(float(value)) and float(value).is_integer():
        count = int(float(value))
    else:
        raise InputError(name, f"{name} must be an integer >= {minimum}, got {value!r}")
    if count < minimum:
        raise InputError(name, f"{name} must be an integer >= {minimum}, got {value!r}")
    return count


def as_time(name: str, value: object, *, positive: bool = False) -> float:
    """Return ``value`` as a finite ``float`` >= 0 (> 0 if ``positive``); seconds or s/job."""
    # A plain float in range is the common case: skip the ABC checks.
    if type(value) is float and 0.0 <= value < math.inf and not (positive and value == 0.0):
        return value
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InputError(name, f"{name} must be a finite number, got {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < 0.0 or (positive and number == 0.0):
        bound = "> 0" if positive else ">= 0"
        raise InputError(name, f"{name} must be finite and {bound}, got {value!r}")
    return number
