"""Strict numeric fields: NaN, infinities and booleans are errors, not numbers."""

from __future__ import annotations

import math
from typing import Any

from rest_framework import serializers


class FiniteFloatField(serializers.FloatField):
    default_error_messages = {
        "not_finite": "Must be a finite number (NaN and infinity are not allowed).",
        "invalid": "Must be a number.",
    }

    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, str) and data.strip().lower() in {"nan", "inf", "-inf", "+inf", "infinity", "-infinity"}:
            self.fail("not_finite")
        value = super().to_internal_value(data)
        if not math.isfinite(value):
            self.fail("not_finite")
        return value


class StrictIntegerField(serializers.IntegerField):
    default_error_messages = {"invalid": "Must be a whole number."}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, float):
            if not math.isfinite(data) or not data.is_integer():
                self.fail("invalid")
            data = int(data)
        return super().to_internal_value(data)
