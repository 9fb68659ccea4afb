"""The rendering corpus (issue 30): every published path and configuration, on six kinds of
machine, in every kind of answer each can give.

Nothing here is a result: the cases are read from the loaded reference data (``benchmarks/``,
``manage.py load_benchmarks``) and the rates from the engine's own first answers:

* **machine kinds** are rows of the LSPR table: the newest generation whose Java engine is the
  zAAP (zEC12, else z10), the z13, z16 and z17 flagships (sized: any number of CPs), a
  sub-capacity model (a 5xx row of the newest flagship with a 4xx..6xx setting) and a midrange
  model (an A..Z row of the newest machine rated with letter settings); the two models fix
  their CPs;
* **answer kinds** (``KINDS``) and how each rate is found:

  - ``does-not-fit``: the engine is asked at the most a rate can be (``PROBE_TPS``); its answer
    names the most the target carries (``feasibility.max_tps``); the case asks 1.5 times that;
  - ``fits``: half the most carried;
  - ``overloaded``: CPs given too few: at the rate that fits, one CP fewer than it needs (a
    model: its own CPs, at a rate half way from the most carried within the utilisation ceiling
    to the most carried at 100%);
  - ``lower-bound``: a payload the configuration publishes (its largest first) at which the
    saturation is a bound (``saturation_kind`` ``lower-bound``), where there is one;
  - ``no-cpu-data``: a path that publishes no CPU figures (its first answer says so).

A kind the engine does not give for a path and machine (a lower bound where the cost is
fitted) is left out: ``Case.kind`` is what the answer is, and the tests check it against the
answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from sizing.models import CapacityRating, Configuration, EngineRule, Machine, Visibility

KINDS = ("fits", "overloaded", "does-not-fit", "lower-bound", "no-cpu-data")
#: The highest rate the estimate API accepts: the engine names the most carried below it.
PROBE_TPS = 10_000_000.0

Answer = Mapping[str, Any]
Ask = Callable[[dict[str, Any]], Answer]


@dataclass(frozen=True)
class MachineKind:
    """One of the six kinds of machine: the estimate inputs that name it."""

    key: str
    label: str
    generation: str
    inputs: Mapping[str, Any]

    @property
    def fixed_cps(self) -> bool:
        """A model: its CPs are given by the model capacity identifier."""
        return "model" in self.inputs


@dataclass(frozen=True)
class Case:
    path: str
    configuration: str
    machine: MachineKind
    kind: str
    inputs: Mapping[str, Any] = field(default_factory=dict)
    #: the engine's answer to ``inputs`` (the estimate API's JSON), as the generator read it
    answer: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def id(self) -> str:
        return f"{self.path}/{self.configuration}@{self.machine.key}:{self.kind}"


def _zaap_generations() -> list[str]:
    return [r.generation for r in EngineRule.objects.all() if r.zaaps_per_cp]


def _flagship(generation: str) -> Machine:
    """The machine of a generation rated with the most CPs (the z16 A01, not the A02)."""
    machines = list(Machine.objects.filter(generation__startswith=generation))
    full = [m for m in machines if m.generation == generation] or machines
    return max(full, key=lambda m: max((r.cps for r in m.ratings.all()), default=0))


def _middle(rows: list[CapacityRating]) -> CapacityRating:
    rows = sorted(rows, key=lambda r: (r.cps, r.capacity_setting))
    return rows[len(rows) // 2]


def machine_kinds() -> list[MachineKind]:
    """The six kinds of machine, from the loaded LSPR table."""
    zaap = [g for g in _zaap_generations() if Machine.objects.filter(generation__startswith=g).exists()]
    order = [m.generation for m in Machine.objects.order_by("machine_type")]
    # the newest generation with zAAPs: by machine type, zEC12 (2827) after z10 (2097)
    zaap_gen = max(zaap, key=lambda g: max(i for i, o in enumerate(order) if o.startswith(g)))
    kinds = []
    for key, gen in (("zaap", zaap_gen), ("z13", "z13"), ("z16", "z16"), ("z17", "z17")):
        m = _flagship(gen)
        kinds.append(MachineKind(key, m.name, m.generation, {"machine": m.slug}))
    newest = _flagship("z17")
    sub = [r for r in newest.ratings.all() if r.capacity_setting == "500"]
    row = _middle(sub)
    kinds.append(MachineKind("sub-capacity", f"{newest.name} {row.model}", newest.generation, {"model": row.model}))
    letters = [m for m in Machine.objects.all() if any(r.capacity_setting[:1].isalpha() for r in m.ratings.all()[:1])]
    midrange = max(letters, key=lambda m: m.machine_type)
    rows = [r for r in midrange.ratings.all() if r.capacity_setting[:1].isalpha()]
    # a letter in the middle of the alphabet, at its middle CP count
    letter = sorted({r.capacity_setting for r in rows})[len({r.capacity_setting for r in rows}) // 2]
    row = _middle([r for r in rows if r.capacity_setting == letter])
    kinds.append(MachineKind("midrange", f"{midrange.name} {row.model}", midrange.generation, {"model": row.model}))
    return kinds


def configurations() -> list[tuple[str, str, Configuration]]:
    """Every published path and configuration, in order."""
    rows = Configuration.objects.filter(visibility=Visibility.PUBLISHED).select_related("path")
    return [(c.path.slug, c.slug, c) for c in rows.order_by("path__slug", "slug")]


def _payloads(config: Configuration) -> list[int]:
    """The response payloads the configuration publishes, largest first."""
    values = (config.attributes or {}).get("response_bytes") or []
    return sorted({int(v) for v in values if isinstance(v, (int, float))}, reverse=True)


def _no_cpu(answer: Answer) -> bool:
    return any(w["code"] == "no-cpu-data" for w in answer["warnings"])


def cases_for(config: Configuration, machine: MachineKind, ask: Ask) -> Iterator[Case]:
    """The kinds of answer this configuration gives on this machine, each with its inputs;
    ``ask`` answers one question (the estimate API's JSON)."""
    base = {"path": config.path.slug, "configuration": config.slug, **machine.inputs}

    def case(kind: str, answer: Answer | None = None, **extra: Any) -> Case:
        inputs = {**base, **extra}
        return Case(config.path.slug, config.slug, machine, kind, inputs, answer or ask(inputs))

    probe = ask({**base, "tps": PROBE_TPS})
    if _no_cpu(probe):
        # a path without CPU figures: one answer, at a rate its published response floor allows
        yield case("no-cpu-data", tps=100)
        return
    most = probe["feasibility"]["max_tps"]
    assert probe["feasibility"]["feasible"] is False and most, (base, probe["feasibility"])
    fits_tps = _round(most / 2)
    fits = ask({**base, "tps": fits_tps})
    yield case("fits", fits, tps=fits_tps)
    yield case("does-not-fit", tps=_round(most * 1.5))
    if machine.fixed_cps:
        # the model's own CPs, between the ceiling (the most carried) and saturation
        ceiling = probe["max_utilization"]
        overloaded = _round(most * (1 + 1 / ceiling) / 2)
        # only where the CPs bind (not a software limit below the ceiling's rate)
        answer = ask({**base, "tps": overloaded})
        if answer["feasibility"]["reason"] == "ceiling":
            yield case("overloaded", answer, tps=overloaded)
    else:
        needed = fits["cps_required"]
        if needed and needed > 1:
            yield case("overloaded", tps=fits_tps, cps=needed - 1)
    for payload in _payloads(config):
        bound = ask({**base, "tps": fits_tps, "payload_bytes": payload})
        if bound["saturation_kind"] == "lower-bound":
            rate = _round(min(fits_tps, bound["saturation_tps"] / 2))
            yield case("lower-bound", bound if rate == fits_tps else None, tps=rate, payload_bytes=payload)
            break


def _round(tps: float) -> float:
    """A rate as a person types it: three significant digits."""
    digits = 2 - int(math.floor(math.log10(abs(tps))))
    value = round(tps, digits)
    return float(int(value)) if value >= 100 else value


def corpus(ask: Ask) -> list[Case]:
    """Every case of the corpus (see the module docstring)."""
    out: list[Case] = []
    kinds = machine_kinds()
    for _, _, config in configurations():
        for machine in kinds:
            out.extend(cases_for(config, machine, ask))
    return out
