"""How much each engine warning matters to the person buying, and how to say it to them.

The engine (:data:`models_lib.sizing.WARNING_CODES`) gives every warning a stable code and a
technical message.  A presales engineer needs to know which of them change the decision (the
answer cannot be signed as it stands), which are caveats to mention, and which are notes for
the basis.  Three levels:

``decision``
    The sized configuration does not carry the target as asked, or the answer rests on
    something missing: say it to the customer before the numbers.
``caveat``
    The numbers stand, with a limitation worth saying (extrapolated, assumed, bounded).
``note``
    How the number was reached (a projection, a payload scaling); belongs in the basis.

Every code the engine can emit has a level; a test holds the two lists together, so a new
engine code cannot reach a page without one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

Level = Literal["decision", "caveat", "note"]

#: Order in which levels are shown: decision-changing first.
LEVEL_ORDER: tuple[Level, ...] = ("decision", "caveat", "note")

#: code -> (level, what an engineer would say to the customer).
WARNING_LEVELS: Mapping[str, tuple[Level, str]] = {
    # The answer does not hold as asked.
    "does-not-fit": ("decision", "This target cannot carry the rate: no CPs or zIIPs are quoted."),
    "capacity-exceeded": ("decision", "No CP count of this machine carries this rate."),
    "beyond-saturation": ("decision", "The target is at or past the rate where the system saturates."),
    "sla-missed": ("decision", "The response-time goal is not met by this configuration."),
    "sla-unreachable": ("decision", "No CP count meets the response-time goal: something other than CPs binds."),
    "utilization-above-ceiling": ("decision", "The CPs you gave run above the utilisation ceiling."),
    "ziip-overflow": ("decision", "Too few zIIPs: eligible work spills onto CPs, which raises the software bill."),
    "clients-limit-throughput": ("decision", "The client population cannot drive the target rate."),
    "published-limit": ("decision", "The target passes a limit the software's own documentation states."),
    "engine-ratio": ("decision", "The specialty engines needed exceed what this machine sells per CP."),
    "no-cpu-data": ("decision", "No CPU data is published for this path: CPs cannot be sized."),
    # The numbers stand, with a limitation to say.
    "eligibility-scope": ("caveat", "The zIIP share was published for part of the work only."),
    "bounds-only": ("caveat", "The CPU cost comes from published throughput bounds, not measurements."),
    "ratio-only": ("caveat", "Only ratios to other configurations are published for this one."),
    "extrapolation": ("caveat", "The rate is outside what was measured: the fit is extrapolated."),
    "payload-outside-range": ("caveat", "The payload is outside the published range."),
    "interval-assumed": ("caveat", "The range rests on an assumed spread: too few published points."),
    "no-eligibility-data": ("caveat", "No zIIP eligibility is published: none is assumed."),
    "no-response-time-data": ("caveat", "No response times are published: absolute response time is unknown."),
    "clients-exceed-throughput": ("caveat", "The clients would drive more than the target: sized for the target."),
    "cics-only": ("caveat", "Sized for the CICS regions only: the rest of the LPAR is not published; add it."),
    "software-unscaled": (
        "caveat",
        "The saturation is a software limit as measured in the benchmark: more CPs do not raise it.",
    ),
    # How the number was reached.
    "projection": ("note", "Projected from the measured machine with LSPR ratings."),
    "payload-scaled": ("note", "CPU per transaction scaled to the payload with a published relation."),
}

#: Level of a code the table does not know yet: shown, never hidden.
UNKNOWN_LEVEL: Level = "caveat"


def level_of(code: str) -> Level:
    """The level of a warning code (:data:`UNKNOWN_LEVEL` for a code not in the table)."""
    entry = WARNING_LEVELS.get(code)
    return entry[0] if entry else UNKNOWN_LEVEL


def with_levels(warnings: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Warnings with ``level`` and ``headline`` added, decision-changing first (stable within a level)."""
    out = []
    for warning in warnings:
        code = str(warning.get("code", ""))
        level, headline = WARNING_LEVELS.get(code, (UNKNOWN_LEVEL, str(warning.get("message", ""))))
        out.append({**warning, "level": level, "headline": headline})
    return sorted(out, key=lambda w: LEVEL_ORDER.index(w["level"]))
