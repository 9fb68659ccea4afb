"""``fast_init`` (models_lib/fastinit.py): a frozen dataclass's ``__init__`` writing its fields in
one pass builds the same instances as the dataclass's own ``__init__``.

The reference is the dataclass's generated ``__init__`` (kept as ``__init__.__wrapped__``): for
every decorated class of ``models_lib``, the instances of real answers (every sized path on an
old and a current machine, every kind of answer) built again through both, the defaults and
default factories filled the same, the same error where ``__post_init__`` refuses the values;
and the class stays what a frozen dataclass is (assignment refused, equality, hashing, replace,
copy and pickle).
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import pickle
import pkgutil
from collections.abc import Iterator
from typing import Any

import pytest

import models_lib
from models_lib.answer import SizingResult, SizingWarning
from models_lib.answer_parts import Range
from models_lib.fastinit import fast_init
from models_lib.prepared import prepare
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z10, Z17, table


def _decorated() -> list[type[Any]]:
    """Every class of models_lib whose ``__init__`` is fast_init's (it keeps the dataclass's own)."""
    found = []
    for info in pkgutil.walk_packages(models_lib.__path__, "models_lib."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and value.__module__ == module.__name__
                and dataclasses.is_dataclass(value)
                and hasattr(value.__dict__.get("__init__"), "__wrapped__")
            ):
                found.append(value)
    return found


DECORATED = _decorated()


def _instances(value: Any, seen: set[int] | None = None) -> Iterator[Any]:
    """Every dataclass instance reachable from ``value`` through its fields, tuples, lists and dicts."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield value
        for f in dataclasses.fields(value):
            if f.name != "prepared":  # the answer's prepared workload: not an answer part
                yield from _instances(getattr(value, f.name), seen)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _instances(item, seen)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _instances(item, seen)


def _answers() -> list[SizingResult]:
    """Answers of every kind: fits, does not fit, overloaded on given CPs, lower bound, no CPU data,
    a response goal, a closed population, on a z10 (zAAPs) and a z17."""
    out = []
    for machine in (Z10, Z17):
        for path, configuration in (
            ("fiteq-authenticator", "multi-region"),
            ("cicsts-catalog", "v5.3"),
            ("zosconnect-cics", "channel"),
            ("cicstg", "ipic-channel-64"),
        ):
            pw = prepare(
                P.configuration(path, configuration),
                target_machine=machine,
                target_machine_type=machine,
                capacity=table(),
            )
            out += pw.answers([20.0, 1234.5, 30000.0, 5e6])
            out.append(pw.answer(1234.5, cps=1))
            out.append(pw.answer(500.0, response_time_sla_ms=0.001))
            out.append(pw.answer(200.0, clients=50, think_time_s=1.0))
    return out


ANSWERS = _answers()


def test_the_engines_answer_parts_are_decorated() -> None:
    names = {cls.__qualname__ for cls in DECORATED}
    # the answer, its blocks, and the per-rate steps' objects (see the module docstring of fastinit)
    assert {"SizingResult", "SizingWarning", "Range", "Ranges", "Basis", "Choice", "Saturation"} <= names
    built = {type(x) for a in ANSWERS for x in _instances(a)}
    assert SizingResult in built and Range in built


@pytest.mark.parametrize("cls", DECORATED, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_instances_of_real_answers_built_again_are_the_dataclass_ones(cls: type[Any]) -> None:
    seen = [x for a in ANSWERS for x in _instances(a) if type(x) is cls]
    for instance in seen:
        args = {f.name: getattr(instance, f.name) for f in dataclasses.fields(cls) if f.init}
        ours, theirs = object.__new__(cls), object.__new__(cls)
        cls.__init__(ours, **args)
        cls.__init__.__wrapped__(theirs, **args)
        assert list(vars(ours).items()) == list(vars(theirs).items())
        assert ours == theirs == instance or not cls.__dataclass_params__.eq


@pytest.mark.parametrize("cls", DECORATED, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_defaults_factories_and_refusals_are_the_dataclass_ones(cls: type[Any]) -> None:
    """Only the fields without a default given (each a distinct object): the same fields set, the
    defaults and factories' values alike, or the same error from ``__post_init__``."""
    required = [f.name for f in dataclasses.fields(cls) if f.init and f.default is f.default_factory is dataclasses.MISSING]  # fmt: skip
    args = {name: object() for name in required}
    results: list[tuple[Any, ...]] = []
    for init in (cls.__init__, cls.__init__.__wrapped__):
        instance = object.__new__(cls)
        try:
            init(instance, **args)
        except Exception as exc:  # noqa: BLE001 - compared below: the same type and message
            results.append(("raised", type(exc), str(exc)))
        else:
            results.append(
                ("built", list(vars(instance)), [v if n in args else repr(v) for n, v in vars(instance).items()])
            )
    assert results[0] == results[1]


def test_still_a_frozen_dataclass() -> None:
    w = SizingWarning("x-code", "a message")
    with pytest.raises(dataclasses.FrozenInstanceError):
        w.code = "other"  # type: ignore[misc]
    assert w == SizingWarning("x-code", "a message") and hash(w) == hash(SizingWarning("x-code", "a message"))
    assert dataclasses.replace(w, message="other").message == "other"
    assert copy.copy(w) == w and copy.deepcopy(w) == w and pickle.loads(pickle.dumps(w)) == w
    answer = ANSWERS[0]
    for part in (answer.ranges, answer.capacity_detail, answer.busy_cps, answer.basis):
        assert part is not None
        assert dataclasses.asdict(pickle.loads(pickle.dumps(part))) == dataclasses.asdict(part)
    assert repr(Range(1.0, None)) == "Range(low=1.0, high=None)"


def test_refuses_what_it_cannot_build() -> None:
    @dataclasses.dataclass
    class Mutable:
        x: int

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class KeywordOnly:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        x: int

    @dataclasses.dataclass(frozen=True)
    class WithInitVar:
        x: int
        y: dataclasses.InitVar[int]

    for cls in (Mutable, KeywordOnly, Slotted, WithInitVar, int):
        with pytest.raises(TypeError, match="fast_init"):
            fast_init(cls)
