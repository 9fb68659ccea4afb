"""A frozen dataclass's ``__init__`` that stores its fields in one pass (:func:`fast_init`).

``@dataclass(frozen=True)`` generates an ``__init__`` that sets each field with
``object.__setattr__(self, name, value)`` (its ``__setattr__`` refuses assignment): a global
lookup, an attribute lookup and a call per field.  The engine builds about 30 such objects per
answer (the basis at the rate, the choice, saturations, ranges, the answer's blocks and
warnings).  :func:`fast_init` replaces that ``__init__`` with one that sets the new instance's
``__dict__`` to one dictionary of the fields built at once (a dict display: sized once, no
insertion a field), with the same signature, defaults, default factories and ``__post_init__``
call; the class stays frozen (assignment still raises ``FrozenInstanceError``),
and equality, hashing, ``repr``, ``dataclasses.replace``, copying and pickling are the
dataclass's own.

It is applied to the objects built once or more per answer and read a few times, not to the
long-lived ones (a prepared workload, its targets and policies, a rate's request): asking for
an instance's ``__dict__`` gives it a dictionary of its own, and CPython 3.11 reads attributes
of such an instance more slowly than of one that keeps its values inline.  On the batch bench's
400 answers (``perf/bench_batch.py``'s 16 workloads, callgrind) the engine went from 1.024 to
0.840 million instructions an answer; with every frozen dataclass of ``models_lib`` decorated it
was 0.899.  Setting the dictionary built at once, rather than filling the one ``self.__dict__``
makes (an insertion a field), took the engine and its JSON from 0.677 to 0.666 million.
``tests/models_lib/test_fastinit.py`` compares every decorated class's instances with those of
the dataclass's own ``__init__``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["fast_init"]

T = TypeVar("T")

#: Stands for "not given" where a field has a default factory (as the dataclass's own sentinel).
_FACTORY = object()


def fast_init(cls: type[T]) -> type[T]:
    """Give the frozen dataclass ``cls`` an ``__init__`` setting its ``__dict__`` at once (see the
    module docstring); apply above ``@dataclass(frozen=True)``.  The dataclass's own ``__init__``
    stays reachable as ``cls.__init__.__wrapped__``."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or not params.init:
        raise TypeError(f"fast_init applies to frozen dataclasses with a generated __init__, not {cls.__qualname__}")
    if "__slots__" in cls.__dict__:
        raise TypeError(f"fast_init needs instances with a __dict__; {cls.__qualname__} has __slots__")
    every = list(cls.__dataclass_fields__.values())  # type: ignore[attr-defined]
    if any(f._field_type is not dataclasses._FIELD for f in every if f._field_type is not dataclasses._FIELD_CLASSVAR):  # type: ignore[attr-defined]
        raise TypeError(f"fast_init does not handle InitVar fields ({cls.__qualname__})")
    fields = [f for f in every if f._field_type is dataclasses._FIELD]  # type: ignore[attr-defined]
    if any(f.kw_only for f in fields):
        raise TypeError(f"fast_init does not handle keyword-only fields ({cls.__qualname__})")
    names: dict[str, Any] = {"_FACTORY": _FACTORY}
    signature, body = [], []
    for f in fields:
        has_default = f.default is not dataclasses.MISSING
        has_factory = f.default_factory is not dataclasses.MISSING
        if has_default:
            names[f"_default_{f.name}"] = f.default
        if has_factory:
            names[f"_factory_{f.name}"] = f.default_factory
        if f.init:
            if has_default:
                signature.append(f"{f.name}=_default_{f.name}")
            elif has_factory:
                signature.append(f"{f.name}=_FACTORY")
            else:
                signature.append(f.name)
            value = f"_factory_{f.name}() if {f.name} is _FACTORY else {f.name}" if has_factory else f.name
        elif has_default:
            value = f"_default_{f.name}"
        elif has_factory:
            value = f"_factory_{f.name}()"
        else:
            continue  # init=False without a default: the dataclass does not set it either
        body.append(f"{f.name!r}: {value}")
    post = "    self.__post_init__()\n" if hasattr(cls, "__post_init__") else ""
    names["_setattr"] = object.__setattr__
    source = (
        f"def __init__(self, {', '.join(signature)}):\n    _setattr(self, '__dict__', {{{', '.join(body)}}})\n{post}"
    )
    exec(source, names)  # noqa: S102 - generated from the dataclass's own field names, as dataclasses does
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    init.__wrapped__ = cls.__init__
    setattr(cls, "__init__", init)  # noqa: B010 - the class's own __init__, replaced
    return cls
