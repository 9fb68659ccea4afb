"""How to say each engine warning to the person buying, at the level the engine gave it.

The engine (:mod:`models_lib.answer`) gives every warning a stable code, a technical message
and its level, decided where the warning is raised (``engine-ratio`` is a caveat when the
answer sizes more CPs for it, a decision when the user fixed the CPs; a source's measured
configuration at its published rate raises no decision, :mod:`models_lib.levels`):

``decision``
    The answer does not hold as asked: say it to the customer before the numbers.
``caveat``
    An assumption the reader must accept (extrapolated, assumed, bounded).
``note``
    How the number was reached (a projection, a payload scaling); belongs in the basis.

This module adds the customer's headline and orders the warnings; where a warning stands for
many answers (a job's row has codes only), the code's default level is used.  A headline names
the answer's specialty engine (:func:`headline`: zAAP on z10..zEC12/zBC12, zIIP later, "zAAPs or
zIIPs" for rows of both), so the API's ``headline`` and every page and PDF say the same words.
A test holds the headlines and the engine's codes together, so a new engine code cannot reach a page without one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from models_lib.answer import LEVEL_ORDER, Level
from models_lib.answer import WARNING_LEVELS as ENGINE_LEVELS

__all__ = [
    "HEADLINES",
    "LEVEL_ORDER",
    "UNKNOWN_LEVEL",
    "WARNING_LEVELS",
    "Level",
    "engines_plural",
    "headline",
    "level_of",
    "with_levels",
]

#: code -> what an engineer would say to the customer; ``{eng}`` is the answer's specialty engine
#: ("zIIP", "zAAP", "zAAP or zIIP"), ``{engs}`` the same in the plural ("zAAPs or zIIPs").
HEADLINES: Mapping[str, str] = {
    "does-not-fit": "This target cannot carry the rate: no CPs or {engs} are quoted.",
    # Decisions by default.
    "capacity-exceeded": "No CP count of this machine carries this rate.",
    "beyond-saturation": "The target is at or past the rate where the system saturates.",
    "sla-missed": "The response-time goal is not met by this configuration.",
    "sla-unreachable": "No CP count meets the response-time goal: something other than CPs binds.",
    "utilization-above-ceiling": "The CPs you gave run above the utilisation ceiling.",
    "ziip-overflow": "Too few {engs}: eligible work spills onto CPs, which raises the software bill.",
    "clients-limit-throughput": "The client population cannot drive the target rate.",
    "published-limit": "The target passes a limit the software's own documentation states.",
    "no-cpu-data": "No CPU data is published for this path: CPs cannot be sized.",
    # Caveats by default.
    "engine-ratio": "The specialty engines needed exceed what this machine sells per CP.",
    "eligibility-scope": "The {eng} share was published for part of the work only.",
    "bounds-only": "The CPU cost comes from published throughput bounds, not measurements.",
    "ratio-only": "Only ratios to other configurations are published for this one.",
    "extrapolation": "The rate is outside what was measured: the fit is extrapolated.",
    "payload-outside-range": "The payload is outside the published range.",
    "interval-assumed": "The range rests on an assumed spread: too few published points.",
    "no-eligibility-data": "No {eng} eligibility is published: none is assumed.",
    "no-response-time-data": "No response times are published: absolute response time is unknown.",
    "clients-exceed-throughput": "The clients would drive more than the target: sized for the target.",
    "cics-only": "Sized for the CICS regions only: the rest of the LPAR is not published; add it.",
    "software-unscaled": "The saturation is a software limit as measured in the benchmark: more CPs do not raise it.",
    "response-fit-weak": "The response time rests on a handful of published points: its range is wide.",
    "fixed-base-dominates": "Most of the CPU is the CICS regions' fixed base, not the transactions: give your region count.",
    # Notes.
    "projection": "Projected from the measured machine with LSPR ratings.",
    "payload-scaled": "CPU per transaction scaled to the payload with a published relation.",
}

#: code -> (default level, headline): the engine's default level of each code.
WARNING_LEVELS: Mapping[str, tuple[Level, str]] = {
    code: (ENGINE_LEVELS.get(code, "caveat"), headline) for code, headline in HEADLINES.items()
}

#: Level of a code the table does not know yet: shown, never hidden.
UNKNOWN_LEVEL: Level = "caveat"


def level_of(code: str) -> Level:
    """The level of a warning code (:data:`UNKNOWN_LEVEL` for a code not in the table)."""
    entry = WARNING_LEVELS.get(code)
    return entry[0] if entry else UNKNOWN_LEVEL


def engines_plural(engine: str) -> str:
    """Specialty engines in the plural, each of them: "zAAPs", "zAAPs or zIIPs" (never "zAAP or zIIPs")."""
    return " or ".join(f"{e}s" for e in engine.split(" or "))


def headline(code: str, engine: str = "zIIP") -> str:
    """The headline of a warning code naming ``engine``, the answer's specialty engine ("zAAP" on
    z10..zEC12/zBC12, "zIIP" later; "zAAP or zIIP" where a headline stands for rows of both):
    "Too few zAAPs: ...".  An unknown code has none (``""``)."""
    entry = WARNING_LEVELS.get(code)
    return entry[1].format(eng=engine, engs=engines_plural(engine)) if entry else ""


def with_levels(warnings: Iterable[Mapping[str, Any]], engine: str = "zIIP") -> list[dict[str, Any]]:
    """Warnings with ``headline`` added, naming the answer's specialty ``engine`` (and ``level``
    where the engine gave none: the code's default), decision-changing first (stable within a level)."""
    by_level: tuple[list[dict[str, Any]], ...] = tuple([] for _ in LEVEL_ORDER)
    for warning in warnings:
        code = str(warning.get("code", ""))
        level = level_of(code)
        said = headline(code, engine) or str(warning.get("message", ""))
        given = warning.get("level")
        if given in LEVEL_ORDER:
            level = given
        by_level[_RANK[level]].append({**warning, "level": level, "headline": said})
    first, *rest = by_level
    for later in rest:
        first += later
    return first


#: The position of each level in :data:`LEVEL_ORDER`.
_RANK: Mapping[str, int] = {level: i for i, level in enumerate(LEVEL_ORDER)}
