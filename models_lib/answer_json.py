"""The answer's serialised form made JSON-safe (non-finite floats become ``None``, numpy numbers
Python's): :func:`served_json` for :meth:`~models_lib.answer.SizingResult.to_dict`.

Each value is converted by what it is declared to be (a key of the answer, a field of a block)
rather than by :func:`json_safe`, the generic walk that asks every value its type; a value of
another type than declared falls back to the walk, so both give the same output byte for byte
(``tests/models_lib/test_answer_json.py`` compares them).  The answer and each block class is one
generated function; the form of a block that the answers of a group of rates share (the fit,
the projection, the capacity basis: :data:`_KEPT`) is made once per block, each answer given a
copy of its own.
"""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from numbers import Integral, Real
from typing import Any

from models_lib.answer_parts import CapacityBasis, FitSummary, ProjectionBasis, Range, Record

__all__ = ["block_json", "json_safe", "served_json", "warning_json"]


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

#: The types :func:`json_safe` returns as they are (a float is checked for being finite).
_PLAIN = frozenset((str, int, bool, type(None)))


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
    if kind is tuple or kind is list:
        # strings, ints, bools and None as they are: the list at once
        return list(value) if _PLAIN.issuperset(map(type, value)) else [_scalar(v) for v in value]
    if kind is Range:
        return [_scalar(value.low), _scalar(value.high)]
    return json_safe(value)


def warning_json(code: Any, message: Any, level: Any, inputs: Any) -> dict[str, Any]:
    """A warning's object (``code``, ``message``, ``level``, ``inputs``) made JSON-safe, as
    :func:`json_safe` makes ``{"code": code, "message": message, "level": level, "inputs":
    list(inputs or ())}``."""
    listed = list(inputs or ())
    return {
        "code": code if type(code) is str else _scalar(code),
        "message": message if type(message) is str else _scalar(message),
        "level": level if type(level) is str else _scalar(level),
        "inputs": listed if _PLAIN.issuperset(map(type, listed)) else [_scalar(x) for x in listed],
    }


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
        block = _block_of(type(value))
    return block(value)


def _block_of(cls: type) -> Callable[[Any], dict[str, Any]]:
    block = _BLOCKS.get(cls)
    if block is None:
        block = _BLOCKS[cls] = _compile_block(cls)
    return block


_SCALAR_TYPES = frozenset((float, int, str, bool, type(None)))
_UNIONS = (types.UnionType, typing.Union)


def _is_scalar(hint: Any) -> bool:
    return hint in _SCALAR_TYPES or (typing.get_origin(hint) in _UNIONS and set(typing.get_args(hint)) <= _SCALAR_TYPES)


def _float_expression(source: str, var: str = "v") -> str:
    """A finite float or ``None`` as it is (``x - x`` is 0.0 for a finite ``x`` only), anything
    else checked."""
    return (
        f"({var} if (type({var} := {source}) is float and {var} - {var} == 0.0) or {var} is None else _scalar({var}))"
    )


def _field_expression(source: str, hint: Any, namespace: dict[str, Any]) -> str:
    """The expression that makes ``source`` (a field declared as ``hint`` of block ``r``)
    JSON-safe; what it calls is put in ``namespace``."""
    if hint is float or (typing.get_origin(hint) in _UNIONS and float in typing.get_args(hint)):
        if _is_scalar(hint):
            return _float_expression(source)
    if _is_scalar(hint):
        return f"(v if type(v := {source}) in _PLAIN else _scalar(v))"
    args = typing.get_args(hint)
    members = [a for a in args if a is not type(None)] if typing.get_origin(hint) in _UNIONS else [hint]
    if len(members) == 1 and isinstance(members[0], type) and issubclass(members[0], Record):
        cls = members[0]
        name = f"_block_{cls.__name__}"
        namespace[name] = _block_of(cls)
        namespace[cls.__name__] = cls
        return f"({name}(v) if type(v := {source}) is {cls.__name__} else block_json(v))"
    if hint is Range:
        low, high = _float_expression("v.low", "a"), _float_expression("v.high", "b")
        return f"([{low}, {high}] if type(v := {source}) is Range else _scalar_list(v))"
    if typing.get_origin(hint) is tuple and all(a is Ellipsis or _is_scalar(a) for a in args):
        return f"_scalar_list({source})"
    if typing.get_origin(hint) in (dict, Mapping) and len(args) == 2 and _is_scalar(args[1]):
        return f"_scalar_dict({source})"
    return f"json_safe({source})"


def _namespace() -> dict[str, Any]:
    return {
        "_PLAIN": _PLAIN,
        "Range": Range,
        "_scalar": _scalar,
        "_scalar_list": _scalar_list,
        "_scalar_dict": _scalar_dict,
        "block_json": block_json,
        "json_safe": json_safe,
        "warning_json": warning_json,
    }


def _compile_block(cls: type) -> Callable[[Any], dict[str, Any]]:
    """``{field: JSON-safe value}`` of a block class, in the order of its keys, as one generated
    function (as :mod:`dataclasses` generates ``__init__``): no value asks its type twice."""
    hints = typing.get_type_hints(cls)
    names = [f.name for f in fields(cls)]
    namespace = _namespace()
    items = ", ".join(f"{name!r}: {_field_expression(f'r.{name}', hints[name], namespace)}" for name in names)
    exec(f"def block(r):\n    return {{{items}}}\n", namespace)  # the source is our own field names
    full: Callable[[Any], dict[str, Any]] = namespace["block"]
    if cls._keys is Record._keys:  # type: ignore[attr-defined]
        return _kept(cls, full) if cls in _KEPT else full

    def trimmed(r: Any) -> dict[str, Any]:  # a block that serves some of its fields only
        out = full(r)
        keys = r._keys()
        return out if len(keys) == len(out) else {k: out[k] for k in keys}

    return trimmed


#: The block classes whose instances the answers of a group of rates share (found once per
#: group, or per CPs and specialty engines: :mod:`models_lib.group_memo`): the JSON-safe form of
#: an instance is kept (by identity; blocks are frozen) and each answer given its own copy.
#: Blocks of scalars and tuples of scalars only.
_KEPT: frozenset[type] = frozenset((CapacityBasis, FitSummary, ProjectionBasis))

#: The JSON-safe forms kept: ``id(block) -> (block, form)`` (the block held, so that its id is
#: not reused while kept).
_MADE: dict[int, tuple[Any, dict[str, Any]]] = {}
_MADE_MAX = 4096


_IMMUTABLE = frozenset((str, int, bool, float, type(None)))


def _flat(form: dict[str, Any]) -> bool:
    """Whether ``form`` holds scalars and lists of scalars only (its copy is then the dict and its lists copied)."""
    return all(
        type(v) in _IMMUTABLE or (type(v) is list and _IMMUTABLE.issuperset(map(type, v))) for v in form.values()
    )


def _kept(cls: type, full: Callable[[Any], dict[str, Any]]) -> Callable[[Any], dict[str, Any]]:
    hints = typing.get_type_hints(cls)
    listed = []
    for f in fields(cls):
        hint = hints[f.name]
        if typing.get_origin(hint) is tuple:
            listed.append(f.name)
        elif not _is_scalar(hint):
            raise TypeError(f"{cls.__name__}.{f.name}: a kept block holds scalars and tuples of scalars only")
    # a kept form is flat (:func:`_flat`): its lists are copied, its scalars shared
    copies = "".join(f", {name!r}: (x[:] if type(x := d[{name!r}]) is list else x)" for name in listed)
    namespace: dict[str, Any] = {}
    exec(f"def copy(d):\n    return {{**d{copies}}}\n", namespace)  # the source is our own field names
    copy: Callable[[dict[str, Any]], dict[str, Any]] = namespace["copy"]
    made = _MADE

    def kept(r: Any) -> dict[str, Any]:
        hit = made.get(id(r))
        if hit is not None and hit[0] is r:
            return copy(hit[1])
        out = full(r)
        if _flat(out):  # else (a value not of its declared type) made afresh each time
            if len(made) >= _MADE_MAX:
                made.clear()
            made[id(r)] = (r, out)
            return copy(out)
        return out

    return kept


#: The compiled JSON-safe form of each answer class (:func:`served_json`).
_ANSWERS: dict[type, Callable[[Any], dict[str, Any]]] = {}


def served_json(
    answer: Any, keys: Sequence[tuple[str, str, bool]], localns: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``answer`` (a :class:`~models_lib.answer.SizingResult`) in its serialised form made
    JSON-safe, as :func:`json_safe` makes its plain form (:meth:`~models_lib.answer.SizingResult._plain`): ``keys`` the (key, attribute or
    ``block.field`` it is read from, whether the key is left out where the value is ``None``)
    in order; ``warnings`` as :meth:`~models_lib.answer.SizingResult._plain` writes them.  One
    generated function per class, from the fields' declared types (``localns``: names the
    annotations use that the class's module imports for type checking only)."""
    made = _ANSWERS.get(type(answer))
    if made is None:
        made = _ANSWERS[type(answer)] = _compile_answer(type(answer), keys, localns)
    return made(answer)


def _compile_answer(
    cls: type, keys: Sequence[tuple[str, str, bool]], localns: Mapping[str, Any] | None
) -> Callable[[Any], dict[str, Any]]:
    hints = typing.get_type_hints(cls, localns=dict(localns or {}))
    namespace = _namespace()
    items, optional = [], []
    for key, attribute in ((k, a) for k, a, left_out in keys if not left_out):
        if key == "warnings":
            expression = "[warning_json(w.code, w.message, w.level, w.inputs) for w in r.warnings]"
        else:
            expression = _field_expression(f"r.{attribute}", _hint(hints, attribute), namespace)
        items.append(f"{key!r}: {expression}")
    for key, attribute in ((k, a) for k, a, left_out in keys if left_out):
        expression = _field_expression(f"r.{attribute}", _hint(hints, attribute), namespace)
        optional.append(f"    if r.{attribute} is not None:\n        out[{key!r}] = {expression}\n")
    source = f"def answer(r):\n    out = {{{', '.join(items)}}}\n{''.join(optional)}    return out\n"
    exec(source, namespace)  # the source is our own keys and field names
    answer: Callable[[Any], dict[str, Any]] = namespace["answer"]
    return answer


def _hint(hints: Mapping[str, Any], attribute: str) -> Any:
    """The declared type of ``attribute`` (``block.field``: of the field of the block's class)."""
    first, _, rest = attribute.partition(".")
    hint = hints[first]
    return _hint(typing.get_type_hints(hint), rest) if rest else hint
