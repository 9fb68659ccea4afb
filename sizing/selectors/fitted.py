"""Reference data as the engine needs them, read and fitted once per reference-data version.

Every estimate needs the same few things: the path, configuration and machine rows its slugs
name, the configuration's published data (``ConfigurationData``), its fitted cost and response
models, and the LSPR table.  They change only when reference data change, which bumps the
``ReferenceVersion`` token (``sizing.services.reference_version``).  This module keeps them in
process memory under that token and looks at the token at most every
``ZSIZER_REFERENCE_CHECK_MS`` milliseconds (one single-row query), so an estimate normally
runs no reference query at all.  Another process's change is seen within that interval.

Computed answers are cached under (token, digest of the code, normalised inputs) in this
process and in Django's cache (Redis when ``ZSIZER_CACHE_URL`` names one), so every web process
shares them.  That cache only saves work: when its Redis fails, its reads answer "not cached" and
its writes do nothing (``config.redis_cache``), so an answer is computed here and returned.

When the version row is missing (an emptied database) nothing is cached: every call reads and
fits afresh.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache

from models_lib.costmodel import ConfigurationModel, fit_configuration
from models_lib.engine import component_cost
from models_lib.inputs import CapacityTable, ComponentCost, ConfigurationData
from models_lib.response import ResponseModel, fit_response
from sizing.models import Configuration, Machine, Path, ReferenceVersion
from sizing.selectors.configuration_data import (
    capacity_table,
    configuration_data,
    is_other_cost_candidate,
    needs_other_cost,
    pick_other_cost,
)

T = TypeVar("T")

#: Answers kept per process (the oldest dropped first).
LOCAL_ANSWERS = 2048

#: Typed answers (with their prepared workloads) kept per process, for the charts and the PDF
#: that draw from them, and prepared workloads kept per process, for every rate asked of them
#: (the oldest dropped first).
LOCAL_RESULTS = 256
LOCAL_PREPARED = 256


@dataclass(frozen=True)
class FittedConfiguration:
    """A configuration's published data with its models fitted (as ``size()`` would fit them)."""

    data: ConfigurationData
    model: ConfigurationModel
    response: ResponseModel | None


@dataclass(frozen=True)
class Catalogue:
    """Paths, configurations and machines by lower-case slug (rows with related rows loaded)."""

    paths: dict[str, Path]
    configurations: dict[tuple[int, str], Configuration]
    machines: dict[str, Machine]


@dataclass
class _Store:
    token: str | None = None
    checked_at: float = float("-inf")
    values: dict[Any, Any] = field(default_factory=dict)
    answers: OrderedDict[str, dict[str, Any]] = field(default_factory=OrderedDict)
    results: OrderedDict[str, Any] = field(default_factory=OrderedDict)
    prepared: OrderedDict[str, Any] = field(default_factory=OrderedDict)


_store = _Store()
_lock = threading.Lock()


@functools.cache
def code_digest() -> str:
    """Digest of the code that makes an answer (models_lib and the sizing app), computed once.

    Part of every shared answer's key, so a process running other code (a deploy, another
    branch) never takes an answer computed by different rules from the shared cache.
    """
    root = FilePath(__file__).resolve().parents[2]
    h = hashlib.sha256()
    for package in ("models_lib", "sizing"):
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" not in path.parts:
                h.update(path.relative_to(root).as_posix().encode())
                h.update(path.read_bytes())
    return h.hexdigest()[:16]


def expire_local_check() -> None:
    """Make this process read the version token at its next use (after a bump)."""
    _store.checked_at = float("-inf")


def reference_token() -> str | None:
    """The current reference-data token, read from the database at most every check interval."""
    now = time.monotonic()
    interval = settings.ZSIZER_REFERENCE_CHECK_MS / 1000.0
    if _store.token is not None and now - _store.checked_at < interval:
        return _store.token
    token = ReferenceVersion.objects.filter(id=1).values_list("token", flat=True).first()
    with _lock:
        if token != _store.token:
            _store.token = token
            _store.values = {}
            _store.answers = OrderedDict()
            _store.results = OrderedDict()
            _store.prepared = OrderedDict()
        _store.checked_at = now
    return token


class Reference:
    """The reference data of one version, read and fitted on first use.

    Take one per request (:func:`current_reference`) and ask it for everything: the version
    is then looked at once per request at most.
    """

    def __init__(self, token: str | None) -> None:
        self.token = token

    def _cached(self, key: Any, build: Callable[[], T]) -> T:
        if self.token is None:
            return build()
        values = _store.values
        if _store.token == self.token and key in values:
            return values[key]  # type: ignore[no-any-return]
        value = build()
        with _lock:
            if _store.token == self.token:
                _store.values[key] = value
        return value

    def memo(self, key: tuple[Any, ...], build: Callable[[], T]) -> T:
        """``build()`` once per version under ``key`` (a tuple naming its kind first): for values
        derived from reference data alone, such as a resolved target.  An exception is not kept."""
        return self._cached(("memo", *key), build)

    def catalogue(self) -> Catalogue:
        """Every path, configuration (published and private) and machine, by lower-case slug."""

        def build() -> Catalogue:
            configs = Configuration.objects.select_related("path__native_machine")
            return Catalogue(
                paths={p.slug.lower(): p for p in Path.objects.select_related("native_machine")},
                configurations={(c.path_id, c.slug.lower()): c for c in configs},
                machines={m.slug.lower(): m for m in Machine.objects.all()},
            )

        return self._cached("catalogue", build)

    def lspr_table(self) -> CapacityTable:
        """All LSPR ratings (``configuration_data.capacity_table``)."""
        return self._cached("capacity", capacity_table)

    def fitted(self, configuration: Configuration) -> FittedConfiguration:
        """Published data of ``configuration`` with its cost and response models."""

        def build() -> FittedConfiguration:
            data = configuration_data(configuration=configuration)
            model = fit_configuration(data)
            response = None
            if model.has_cpu_model:
                # As size() does: a configuration whose response model cannot be fitted has none.
                try:
                    response = fit_response(data, model)
                except ValueError:
                    response = None
            return FittedConfiguration(data=data, model=model, response=response)

        return self._cached(("fitted", configuration.pk), build)

    def other_cost(self, configuration: Configuration) -> ComponentCost | None:
        """The other component's published cost ``configuration`` needs (z/OS Connect's CICS
        part; ``configuration_data.other_component_cost``), from the cached catalogue and fits:
        found once per version, not per estimate."""

        def build() -> ComponentCost | None:
            data = self.fitted(configuration).data
            if not needs_other_cost(data):
                return None
            candidates = [
                c
                for c in self.catalogue().configurations.values()
                if is_other_cost_candidate(configuration=configuration, candidate=c, machine_type=data.machine_type)
            ]
            # The order of other_component_cost's query: path slug, then configuration slug descending.
            candidates.sort(key=lambda c: c.slug, reverse=True)
            candidates.sort(key=lambda c: c.path.slug)
            costs = []
            for row in candidates:
                other = self.fitted(row)
                costs.append((len(other.data.points), component_cost(other.data, other.model, "cics")))
            return pick_other_cost(costs)

        return self._cached(("other-cost", configuration.pk), build)

    def answer_key(self, parts: dict[str, Any], *, digest: str | None = None) -> str:
        """The cache key of the answer for ``parts`` under this version (``digest``: the parts'
        :func:`parts_digest` where the caller has it)."""
        return f"answer:{self.token}:{code_digest()}:{digest or _digest(parts)}"

    def answer(self, parts: dict[str, Any], compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The answer for ``parts`` (normalised inputs) under this version, computed once.

        Looked up in this process first, then in the shared cache; a computed answer is stored
        in both.  Callers must not mutate the returned dict.
        """
        if self.token is None:
            return compute()
        key = self.answer_key(parts)
        hit = _store.answers.get(key) if _store.token == self.token else None
        if hit is not None:
            return hit
        shared = _shared_answers()
        answer: dict[str, Any] | None = shared.get(key) if shared is not None else None
        if answer is None:
            answer = compute()
            if shared is not None:
                shared.set(key, answer, timeout=settings.ZSIZER_ANSWER_CACHE_SECONDS)
        self._keep({key: answer})
        return answer

    def cached_answers(self, keys: list[str]) -> list[dict[str, Any] | None]:
        """The answers under ``keys`` (:meth:`answer_key`) where they are cached (``None`` where
        not): this process's first, then the shared cache's in one round trip (kept here, as
        :meth:`answer` keeps them)."""
        if self.token is None:
            return [None] * len(keys)
        local = _store.answers if _store.token == self.token else {}
        found = [local.get(k) for k in keys]
        shared = _shared_answers()
        missing = [k for k, a in zip(keys, found, strict=True) if a is None]
        if shared is not None and missing:
            got = shared.get_many(missing)
            self._keep(got)
            found = [a if a is not None else got.get(k) for k, a in zip(keys, found, strict=True)]
        return found

    def store_answers(self, answers: dict[str, dict[str, Any]]) -> None:
        """Keep computed answers (by :meth:`answer_key`) as :meth:`answer` keeps one: in both caches."""
        if self.token is None or not answers:
            return
        shared = _shared_answers()
        if shared is not None:
            shared.set_many(answers, timeout=settings.ZSIZER_ANSWER_CACHE_SECONDS)
        self._keep(answers)

    def _keep(self, answers: dict[str, dict[str, Any]]) -> None:
        with _lock:
            if _store.token == self.token:
                for key, answer in answers.items():
                    _store.answers[key] = answer
                while len(_store.answers) > LOCAL_ANSWERS:
                    _store.answers.popitem(last=False)

    def result(self, parts: dict[str, Any], compute: Callable[[], T], *, digest: str | None = None) -> T:
        """The engine's typed answer for ``parts`` (the same normalised inputs as :meth:`answer`)
        under this version, computed once in this process; never shared (it holds its prepared
        workload).  An exception is not kept.  ``digest``: as :meth:`answer_key`'s."""
        return self._local("results", LOCAL_RESULTS, parts, compute, digest=digest)

    def results(self, computed: list[tuple[str, T]]) -> list[T]:
        """:meth:`result` of each (the parts' digest, the answer computed) of ``computed``: the
        answer kept in this process for those parts where there is one, else the one given, kept
        (the store locked and trimmed once for all of them)."""
        if self.token is None:
            return [value for _, value in computed]
        prefix = f"results:{self.token}:"
        with _lock:
            if _store.token != self.token:
                return [value for _, value in computed]
            store = _store.results
            out = []
            for digest, value in computed:
                key = prefix + digest
                hit = store.get(key)
                if hit is None:
                    store[key] = hit = value
                out.append(hit)
            while len(store) > LOCAL_RESULTS:
                store.popitem(last=False)
        return out

    def prepared(self, parts: dict[str, Any], compute: Callable[[], T]) -> T:
        """A prepared workload for ``parts`` (configuration, target and rate-free options) under
        this version, prepared once in this process and evaluated at every rate asked of it.  An
        exception is not kept."""
        return self._local("prepared", LOCAL_PREPARED, parts, compute)

    def _local(
        self, kind: str, limit: int, parts: dict[str, Any], compute: Callable[[], T], *, digest: str | None = None
    ) -> T:
        if self.token is None:
            return compute()
        key = f"{kind}:{self.token}:{digest or _digest(parts)}"
        store: OrderedDict[str, Any] = getattr(_store, kind)
        hit = store.get(key) if _store.token == self.token else None
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        value = compute()
        with _lock:
            if _store.token == self.token:
                store = getattr(_store, kind)  # the version's, if it changed meanwhile
                store[key] = value
                while len(store) > limit:
                    store.popitem(last=False)
        return value


def _shared_answers() -> Any:
    """The shared answer cache, or ``None`` where it is this process's memory: it would only hold
    a pickled second copy of what this process's store keeps (a pickle per computed answer)."""
    shared = caches[settings.ZSIZER_ANSWER_CACHE]
    return None if isinstance(shared, LocMemCache) else shared


def _digest(parts: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def parts_digest(parts: dict[str, Any]) -> str:
    """The digest of normalised inputs that :meth:`Reference.answer_key` and
    :meth:`Reference.result` key them by (computed once where a caller asks both)."""
    return _digest(parts)


def current_reference() -> Reference:
    """The reference data of the current version (see the module docstring)."""
    return Reference(reference_token())
