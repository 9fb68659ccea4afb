"""The answer's serialised form made JSON-safe (non-finite floats become ``None``, numpy numbers
Python's): :func:`answer_json` for :meth:`~models_lib.answer.SizingResult.to_dict`.

Each value is converted by what it is declared to be (a key of the answer, a field of a block)
rather than by :func:`json_safe`, the generic walk that asks every value its type; a value of
another type than declared falls back to the walk, so both give the same output byte for byte
(``tests/models_lib/test_answer_json.py`` compares them).
"""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from numbers import Integral, Real
from typing import Any

from models_lib.answer_parts import Range, Record

__all__ = ["answer_json", "block_json", "json_safe"]


def json_safe(value: Any) -> Any:
    """Any value of the answer made JSON-safe by asking it its type, recursively (the reference)."""
    kind = type(value)
    if kind is float:
        return value if math.isfinite(value) else None
    if value is None or kind is str or kind is bool or kind is int:
        return value
    if kind is dict:
        return {str(k): json_safe(v) for k, v in value.items()}
    if kind is list or kind is tuple or kind is Range:
        return [json_safe(v) for v in value]
    if isinstance(value, Record):
        return {k: json_safe(getattr(value, k)) for k in value._keys()}
    return _json_safe_other(value)


def _json_safe_other(value: Any) -> Any:
    """:func:`json_safe` for the types it does not check first (subclasses, numpy scalars)."""
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, Integral):
        return int(value)
    if isinstance(value, Real):
        v = float(value)
        return v if math.isfinite(v) else None
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, Sequence)):
        return [json_safe(v) for v in value]
    raise TypeError(f"cannot serialise {type(value).__name__}")


# -- JSON-safe values by their declared type ----------------------------------------------------
#
# Byte for byte what :func:`json_safe` gives (tests/models_lib/test_answer_json.py compares the two
# on many answers and on blocks holding numpy numbers and non-finite floats); a value of another
# type than declared falls back to it.


def _scalar(value: Any) -> Any:
    """A number, string, bool or ``None`` made JSON-safe (non-finite floats become ``None``)."""
    kind = type(value)
    if kind is float:
        return value if math.isfinite(value) else None
    if value is None or kind is str or kind is int or kind is bool:
        return value
    return _json_safe_other(value)


def _scalar_dict(value: Any) -> Any:
    """A mapping of names to scalars (``breakdown``, a warning), else a block."""
    if type(value) is not dict:
        return block_json(value)
    return {str(k): _scalar(v) for k, v in value.items()}


def _scalar_list(value: Any) -> Any:
    """A sequence of scalars (a tuple of ids or sentences, a :class:`Range`)."""
    kind = type(value)
    if kind is Range:
        return [_scalar(value.low), _scalar(value.high)]
    if kind is tuple or kind is list:
        return [_scalar(v) for v in value]
    return json_safe(value)


def _warnings(value: Any) -> Any:
    """``warnings``: a list of objects of scalars."""
    if type(value) is not list:
        return json_safe(value)
    return [
        {str(k): [_scalar(x) for x in v] if type(v) is list else _scalar(v) for k, v in w.items()}
        if type(w) is dict
        else block_json(w)
        for w in value
    ]


#: The JSON-safe form of each block class, compiled from its fields' declared types.
_BLOCKS: dict[type, Callable[[Any], dict[str, Any]]] = {}


def block_json(value: Any) -> Any:
    """A block of the answer (a :class:`~models_lib.answer_parts.Record`) or ``None``."""
    if value is None:
        return None
    block = _BLOCKS.get(type(value))
    if block is None:
        if not isinstance(value, Record):
            return json_safe(value)
        block = _BLOCKS[type(value)] = _compile_block(type(value))
    return block(value)


_SCALAR_TYPES = frozenset((float, int, str, bool, type(None)))
_UNIONS = (types.UnionType, typing.Union)


def _is_scalar(hint: Any) -> bool:
    return hint in _SCALAR_TYPES or (typing.get_origin(hint) in _UNIONS and set(typing.get_args(hint)) <= _SCALAR_TYPES)


def _field_expression(name: str, hint: Any) -> str:
    """The expression that makes field ``name`` (declared as ``hint``) of block ``r`` JSON-safe."""
    if hint is float or (typing.get_origin(hint) in _UNIONS and float in typing.get_args(hint)):
        if _is_scalar(hint):
            # A finite float as it is (x - x is 0.0 for a finite x only), anything else checked.
            return f"(v if type(v := r.{name}) is float and v - v == 0.0 else _scalar(v))"
    if _is_scalar(hint):
        return f"_scalar(r.{name})"
    args = typing.get_args(hint)
    members = [a for a in args if a is not type(None)] if typing.get_origin(hint) in _UNIONS else [hint]
    if len(members) == 1 and isinstance(members[0], type) and issubclass(members[0], Record):
        return f"block_json(r.{name})"
    if hint is Range or (typing.get_origin(hint) is tuple and all(a is Ellipsis or _is_scalar(a) for a in args)):
        return f"_scalar_list(r.{name})"
    if typing.get_origin(hint) in (dict, Mapping) and len(args) == 2 and _is_scalar(args[1]):
        return f"_scalar_dict(r.{name})"
    return f"json_safe(r.{name})"


def _compile_block(cls: type) -> Callable[[Any], dict[str, Any]]:
    """``{field: JSON-safe value}`` of a block class, in the order of its keys, as one generated
    function (as :mod:`dataclasses` generates ``__init__``): no value asks its type twice."""
    hints = typing.get_type_hints(cls)
    names = [f.name for f in fields(cls)]
    items = ", ".join(f"{name!r}: {_field_expression(name, hints[name])}" for name in names)
    namespace: dict[str, Any] = {
        "_scalar": _scalar,
        "_scalar_list": _scalar_list,
        "_scalar_dict": _scalar_dict,
        "block_json": block_json,
        "json_safe": json_safe,
    }
    exec(f"def block(r):\n    return {{{items}}}\n", namespace)  # the source is our own field names
    full: Callable[[Any], dict[str, Any]] = namespace["block"]
    if cls._keys is Record._keys:  # type: ignore[attr-defined]
        return full

    def trimmed(r: Any) -> dict[str, Any]:  # a block that serves some of its fields only
        out = full(r)
        keys = r._keys()
        return out if len(keys) == len(out) else {k: out[k] for k in keys}

    return trimmed


#: The converter of each key of :meth:`~models_lib.answer.SizingResult.to_dict` (a key not listed is walked).
ANSWER_KEYS: dict[str, Callable[[Any], Any]] = {
    **{
        name: _scalar
        for name in (
            "path",
            "configuration",
            "target_machine",
            "target_machine_type",
            "tps",
            "cps",
            "cps_required",
            "ziips",
            "ziips_required",
            "gcp_utilization",
            "ziip_utilization",
            "mips",
            "msu",
            "ziip_mips",
            "saturation_tps",
            "knee_tps",
            "closed_throughput_tps",
            "max_utilization",
            "specialty_engine",
            "specialty_engine_max",
            "saturation_kind",
        )
    },
    "cpu_per_tran_ms": block_json,
    "busy_cps": block_json,
    "breakdown": _scalar_dict,
    "response_time_ms": block_json,
    "warnings": _warnings,
    "basis": block_json,
    "binding_resource": block_json,
    "saturation_binding": block_json,
    "ranges": block_json,
    "capacity": block_json,
    "cost": block_json,
}


def answer_json(plain: Mapping[str, Any]) -> dict[str, Any]:
    """``plain`` (the answer's keys and values, blocks as they are) made JSON-safe."""
    keys = ANSWER_KEYS
    return {k: keys.get(k, json_safe)(v) for k, v in plain.items()}
