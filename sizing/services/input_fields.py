"""Strict fields: NaN, infinities and booleans are errors, not numbers; unknown keys are errors."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

#: Names an error answer quotes before it counts the rest (issue 31: short error bodies).
ERROR_NAMES_SHOWN = 5


class FiniteFloatField(serializers.FloatField):
    """A finite float.  ``schema_bounds`` (JSON Schema keywords: ``exclusiveMinimum``, ``maximum``...)
    state in the OpenAPI schema the bounds a ``validate_<field>`` method of the serializer checks
    beyond ``min_value``/``max_value`` (``tps > 0``), so that the schema allows what the server
    accepts (``sizing.api.schema.FiniteFloatFieldExtension``)."""

    default_error_messages = {
        "not_finite": "Must be a finite number (NaN and infinity are not allowed).",
        "invalid": "Must be a number.",
    }

    def __init__(self, *, schema_bounds: dict[str, float] | None = None, **kwargs: Any) -> None:
        self.schema_bounds = dict(schema_bounds or {})
        super().__init__(**kwargs)

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


class RejectUnknownFieldsMixin:
    """A serializer that refuses keys it does not declare: a misspelt ``cpz`` is a 400 naming it,
    never silently ignored.  ``csrfmiddlewaretoken`` (the browsable API's HTML form) is let by."""

    ignored_keys: frozenset[str] = frozenset({"csrfmiddlewaretoken"})
    unknown_message = "Unknown field. Allowed: {allowed}."

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            fields = self.fields  # type: ignore[attr-defined]
            unknown = sorted(set(data) - set(fields) - self.ignored_keys)
            if unknown:
                message = self.unknown_message.format(allowed=", ".join(fields))
                # The first few named, the rest counted: the answer stays short whatever was sent.
                errors: dict[str, list[str]] = {key[:100]: [message] for key in unknown[:ERROR_NAMES_SHOWN]}
                if len(unknown) > ERROR_NAMES_SHOWN:
                    errors["non_field_errors"] = [f"{len(unknown) - ERROR_NAMES_SHOWN:,} more unknown fields."]
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)  # type: ignore[misc]


class BoundedListField(serializers.ListField):
    """A list whose length is checked before any entry is read (DRF checks ``max_length`` only
    after validating every entry): a list of a million entries is refused at once."""

    def to_internal_value(self, data: Any) -> Any:
        if self.max_length is not None and isinstance(data, list) and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)
