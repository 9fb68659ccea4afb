"""What the calibration operations answer, for the OpenAPI schema (the views return plain data).

``POST /api/v1/rmf/parse`` returns each :class:`models_lib.rmf.WorkloadSection` as
``dataclasses.asdict`` makes it, so its schema is made from the same classes, field by field (a
value that may be missing is nullable, a nested dataclass a nested object): a field added to the
parser is in the schema without anyone restating it.  A calibration carries its stored intervals
(``models_lib.calibration.Interval.to_dict``) and its fit (``sizing.selectors.calibrations``).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any

from rest_framework import serializers

from models_lib.rmf import WorkloadSection
from sizing.api.model_views import LinearFitSummarySerializer

_SCALARS: dict[type, type[serializers.Field[Any, Any, Any, Any]]] = {
    float: serializers.FloatField,
    int: serializers.IntegerField,
    bool: serializers.BooleanField,
}


def _field(annotation: Any) -> serializers.Field[Any, Any, Any, Any]:
    args = typing.get_args(annotation)
    optional = typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in args
    base = next(a for a in args if a is not type(None)) if optional else annotation
    if isinstance(base, type) and dataclasses.is_dataclass(base):
        return dataclass_serializer(base)(allow_null=optional)
    if base is str:
        return serializers.CharField(allow_blank=True, allow_null=optional)
    if base in _SCALARS:
        return _SCALARS[base](allow_null=optional)
    raise TypeError(f"no schema for {annotation!r}")


@functools.cache  # one class per dataclass: the schema names each once (TransactionAppl is used twice)
def dataclass_serializer(cls: type) -> type[serializers.Serializer[Any]]:
    """A serializer describing ``dataclasses.asdict(instance)`` of ``cls`` (for the schema only)."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: _field(hints[f.name]) for f in dataclasses.fields(cls)}
    return type(f"Rmf{cls.__name__}Serializer", (serializers.Serializer,), {**fields, "__doc__": cls.__doc__})


class RmfParsedSectionSerializer(dataclass_serializer(WorkloadSection)):  # type: ignore[misc]
    """One section as read, with the two figures derived from it."""

    cp_seconds_per_transaction = serializers.FloatField(
        allow_null=True, help_text="APPL% CP / 100 / END/S: general-processor CPU per ended transaction, CP-seconds"
    )
    specialty_eligible_fraction = serializers.FloatField(
        allow_null=True, help_text="(IIP + IIPCP + AAP + AAPCP) / (CP + IIP + AAP), 0..1"
    )


class StoredIntervalSerializer(serializers.Serializer[Any]):
    """One measured interval as stored (``models_lib.calibration.Interval.to_dict``)."""

    etr = serializers.FloatField(help_text="ended transactions per second")
    cpu_pct = serializers.DictField(
        child=serializers.FloatField(), help_text="CPU by component (lpar, cics, ...), percent of one CP"
    )
    response_time_ms = serializers.FloatField(allow_null=True, help_text="mean response time, ms")
    ziip_eligible_pct = serializers.FloatField(allow_null=True, help_text="zIIP-eligible share of the CPU, %")
    cps = serializers.IntegerField(allow_null=True, help_text="CPs online in the interval")
    ziips = serializers.IntegerField(allow_null=True, help_text="zIIPs online in the interval")
    # The metaclass takes declared fields off the class, so this never shadows Field.label; mypy sees the class body.
    label = serializers.CharField(allow_blank=True, help_text="where the interval came from")  # type: ignore[assignment]


class CalibrationEligibilitySerializer(serializers.Serializer[Any]):
    fraction = serializers.FloatField(help_text="mean measured zIIP-eligible share, 0..1")
    low = serializers.FloatField(help_text="lowest interval's share")
    high = serializers.FloatField(help_text="highest interval's share")


class CalibrationFitSerializer(serializers.Serializer[Any]):
    """The calibration's cost model as the engine fits it (``sizing.selectors.calibrations``)."""

    primary = serializers.CharField(allow_null=True, help_text="the component sized (lpar, cics, ...)")
    components = serializers.DictField(child=LinearFitSummarySerializer(), help_text="every fitted component's line")
    eligibility = CalibrationEligibilitySerializer(allow_null=True)
    response_model = serializers.BooleanField(help_text="the intervals carry response times to fit")


class RmfParseOutputSerializer(serializers.Serializer[Any]):
    """Every section read (nothing is stored), and the interval of each that has a rate and CPU."""

    sections = RmfParsedSectionSerializer(many=True)
    intervals = StoredIntervalSerializer(many=True)
