"""List parameters given as comma-separated text (``targets``, ``generations``, ``ids``), each with
a bound on its number of entries.

A bound named in the 400 ("At most 6 targets; got 2,000.") instead of a request that runs into
the server's request-line limit (``config/gunicorn.py``: 8,190 bytes) and an HTML 414.  The bounds keep the
longest legitimate request line far under that limit (``tests/sizing/test_list_limits.py``
measures it); docs/api-input.md lists them with the JSON bodies' lists (``cps_list``,
``clients``, ``workloads``).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

#: Machines or models compared with today's by ``GET /api/v1/upgrade`` (``targets``).
MAX_UPGRADE_TARGETS = 6
#: Generations searched by ``GET /api/v1/fit`` (``generations``): z10 to z17 are 8.
MAX_GENERATIONS = 12
#: Estimates named by ``GET /api/v1/estimates/?ids=`` (a page of the list holds 100 by default).
MAX_LISTED_IDS = 100


def comma_items(value: str) -> list[str]:
    """The non-blank, trimmed entries of comma-separated ``value``."""
    return [t.strip() for t in value.split(",") if t.strip()]


class CommaListField(serializers.CharField):
    """Comma-separated entries, at most ``max_items`` of them (counted before any other check)."""

    default_error_messages = {"too_many": "At most {max_items} {noun}; got {count:,}."}

    def __init__(self, *, max_items: int, noun: str, **kwargs: Any) -> None:
        self.max_items = max_items
        self.noun = noun
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        count = len(comma_items(value))
        if count > self.max_items:
            self.fail("too_many", max_items=self.max_items, noun=self.noun, count=count)
        return value
