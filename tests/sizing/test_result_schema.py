"""The OpenAPI answer schema (sizing/api/result_schema.py) against the engine's answer classes,
field by field: every block of ``SizingResult`` has a serializer with the same fields, nullable
where the dataclass allows ``None``, nested where the dataclass nests."""

from __future__ import annotations

import sys
import types
import typing
from dataclasses import fields
from typing import Any

import pytest
from rest_framework import serializers

from models_lib import answer_parts as parts
from models_lib.answer import SizingResult, SizingWarning
from models_lib.pricing import ConfigurationCost, PriceBook
from sizing.api import result_schema as schema

#: serializer -> the engine's block it documents, and the keys the service adds to it.
PAIRS: list[tuple[type[serializers.Serializer[Any]], type, set[str]]] = [
    (schema.CpuPerTranSerializer, parts.CpuPerTran, set()),
    (schema.BusyCpsSerializer, parts.BusyEngines, set()),
    (schema.IntervalSerializer, parts.ResponseTime, set()),
    (schema.BasisModelSerializer, parts.FitSummary, set()),
    (schema.BasisProjectionSerializer, parts.ProjectionBasis, set()),
    (schema.BindingSerializer, parts.BindingAtTarget, set()),
    (schema.RangesSerializer, parts.Ranges, set()),
    (schema.CapacityCpSerializer, parts.CpPool, set()),
    (schema.CapacitySpecialtySerializer, parts.SpecialtyPool, set()),
    (schema.CapacityBasisSerializer, parts.CapacityBasis, set()),
    (schema.CapacityIcfSerializer, parts.IcfPool, set()),
    (schema.CapacitySerializer, parts.Capacity, set()),
    (schema.BasisNativeSerializer, parts.NativeDemand, set()),
    (schema.ShareSerializer, parts.ServerShare, set()),
    (schema.BasisSerializer, parts.AnswerBasis, {"data_origin", "calibration"}),
    (schema.WarningSerializer, SizingWarning, {"headline"}),
    (schema.CostSerializer, ConfigurationCost, set()),
]

#: Nested serializers and the block each documents.
NESTED = {serializer: block for serializer, block, _ in PAIRS}


def _allows_none(hint: Any) -> bool:
    return isinstance(hint, types.UnionType | typing._UnionGenericAlias) and type(None) in typing.get_args(hint)  # type: ignore[attr-defined]


def _block_of(hint: Any) -> type | None:
    for arg in (hint, *typing.get_args(hint)):
        if isinstance(arg, type) and issubclass(arg, parts.Record | parts.Range):
            return arg
    return None


@pytest.mark.parametrize(("serializer", "block", "added"), PAIRS, ids=lambda x: getattr(x, "__name__", ""))
def test_serializer_documents_the_block_field_by_field(
    serializer: type[serializers.Serializer[Any]], block: type, added: set[str]
) -> None:
    documented = serializer().fields
    hints = typing.get_type_hints(block, {**vars(parts), **vars(sys.modules[block.__module__])})
    names = [f.name for f in fields(block)]
    assert set(documented) == set(names) | added, (serializer.__name__, block.__name__)
    for name in names:
        field = documented[name]
        if _allows_none(hints[name]):
            # Nullable in the engine: nullable or optional in the schema.  (The reverse need not
            # hold: to_dict serves a non-finite float as null, so float fields may be nullable.)
            assert field.allow_null or not field.required, (serializer.__name__, name)
        nested = _block_of(hints[name])
        if isinstance(field, serializers.Serializer):
            assert nested is not None and NESTED[type(field)] in {nested, parts.ServerShare}, (
                serializer.__name__,
                name,
            )
        elif nested is parts.Range:
            assert isinstance(field, serializers.ListField) and field.min_length == field.max_length == 2


def test_share_serializer_covers_both_shares() -> None:
    # The eligible share is a ServerShare without its source: the schema makes the source optional.
    documented = schema.ShareSerializer().fields
    assert {f.name for f in fields(parts.Share)} <= set(documented)
    assert not documented["source"].required


def test_answer_serializer_lists_every_key_of_to_dict() -> None:
    from models_lib.sizing import size
    from tests.models_lib import published as P
    from tests.models_lib.engine_data import Z13, table

    answer = size(
        P.configuration("fiteq-authenticator", "multi-region"),
        target_machine=Z13,
        target_machine_type=Z13,
        capacity=table(),
        tps=2000.0,
        # ``cost`` is served only with a price book (a user's own prices; these are the test's)
        price_book=PriceBook("EUR", 3, 1.0, "one-off", 1.0, "per-year", 1.0, "consumed"),
    )
    documented = set(schema.EstimateResultSerializer().fields)
    served = set(answer.to_dict())
    assert served == documented
    # Every dataclass field of the answer is served, under its API name, except the prepared workload.
    api_name = {"capacity_detail": "capacity"}
    # ``feasible`` is served beside ``feasibility`` (its first field), for clients that read one flag.
    assert {api_name.get(f.name, f.name) for f in fields(SizingResult) if f.name != "prepared"} | {"feasible"} == served


def test_the_saturation_kinds_documented_are_the_engines() -> None:
    """The schema's enum is the engine's list, which names every kind the engine writes: a central
    value and a lower bound (``saturation_kind`` of the decision) and unknown (no saturation
    rate: the answer of a path without CPU figures)."""
    from models_lib.answer import SATURATION_KINDS
    from models_lib.decision import saturation_kind

    documented = schema.EstimateResultSerializer().fields["saturation_kind"]
    assert list(documented.choices) == list(SATURATION_KINDS) == ["value", "lower-bound", "unknown"]
    written = {saturation_kind(s, bound, band) for s in (None, 1_000.0) for bound in (False, True) for band in (0, 0.1)}
    assert written == set(SATURATION_KINDS)
