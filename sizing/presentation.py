"""What the customer reads: an answer's numbers and warnings in the words of a capacity planner.

One module writes every figure and warning sentence the pages and the PDF print, so the
workbench (through ``/ui/chart-data``), the saved-estimate page, the compare page and the
reports say the same thing in the same words.  It reads the engine's answer as the API serialises
it (``Estimate.outputs``) and formats; it computes no quantity of its own.

House rules for numbers, as a planner writes them:

* thousands separators; integers where the value is a count (CPs, zIIPs, MIPS, MSU);
* a rate keeps its significant decimals below 100 TPS ("0.5 TPS", "12.5 TPS", "8,000 TPS": :func:`rate`);
* a bound reads as a bound ("≥ 3,050 TPS (lower bound)", "up to 4.15 ms");
* "95%" only on a real prediction interval (a fitted cost model's); any other spread is a "range";
* a range only when its low and high differ as printed;
* one CPU per transaction figure: the target's.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from models_lib.feasibility import COST_BOUND_REASONS, carried_rate
from sizing.records import (
    BatchRow,
    EstimateRecord,
    FitRecord,
    JobResult,
    MixHeadroomRecord,
    ProjectionRecord,
    RangeRecord,
    WarningRecord,
    batch_rows,
    warning_record,
)
from sizing.services.warning_levels import LEVEL_ORDER, Level, engines_plural, headline, level_of

#: What a missing number prints as.
DASH = "\u2014"
#: What a figure of an answer with no quote (it does not fit) says: the estimate's page and PDF
#: show the model, MIPS and MSU of the CP count the engine evaluated (``evaluated_cps``, the
#: largest, or the given one: so the charts still draw), and say they are not a quote.
NOT_QUOTED = "not quoted"


# -- numbers ---------------------------------------------------------------------------------


def finite(value: Any) -> float | None:
    """A finite float, or None for missing, boolean, non-numeric, NaN or infinite values."""
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    v = float(value)
    return v if math.isfinite(v) else None


def number(value: Any, digits: int = 0, unit: str = "") -> str:
    """``1,234.5`` with ``digits`` decimals (and a unit); never "-0"; a dash when there is no number."""
    v = finite(value)
    if v is None:
        return DASH
    text = f"{v:,.{digits}f}"
    if text.startswith("-") and not text.strip("-0.,"):
        text = text[1:]  # -0.0 rounds to zero: no sign
    return f"{text} {unit}" if unit else text


def most_rate(value: Any, unit: str = "TPS") -> str:
    """The most a target carries, written as :func:`rate` writes a rate but rounded down
    (``models_lib.feasibility.carried_rate``), so the figure read is itself a rate that fits."""
    v = finite(value)
    return rate(None if v is None else carried_rate(v), unit)


def carried_floor(record: EstimateRecord) -> bool:
    """Whether the most the answer's target carries is a floor, not a most: the refusal rests on
    the engines' demand and the cost per transaction is a published upper bound (the engine's
    "not shown to fit", ``models_lib.feasibility.feasibility_step``; its saturation a lower bound)."""
    return record.saturation_kind == "lower-bound" and record.feasibility.reason in COST_BOUND_REASONS


def verdict_words(record: EstimateRecord) -> str:
    """An answer with no quote in short: "does not fit", or "not shown to fit" where what the
    target carries is a floor (:func:`carried_floor`)."""
    return "not shown to fit" if carried_floor(record) else "does not fit"


def most_carried(record: EstimateRecord) -> str:
    """ "the most it carries is 10,779 TPS", or, where that is a floor (:func:`carried_floor`),
    "the published figures show it carries at least 4,597 TPS"; "" with no figure."""
    most = record.feasibility.max_tps
    if finite(most) is None:
        return ""
    if carried_floor(record):
        return f"the published figures show it carries at least {most_rate(most)}"
    return f"the most it carries is {most_rate(most)}"


def count(value: Any, unit: str = "") -> str:
    """A count (CPs, engines, MIPS, MSU) as an integer with separators (a rate: :func:`rate`)."""
    return number(value, 0, unit)


def rate(value: Any, unit: str = "TPS") -> str:
    """A transaction rate as a planner writes it: whole above 100 ("8,000 TPS"), with the
    significant decimals below ("12.5 TPS", "0.5 TPS", "0.25 TPS"), never "0 TPS" for half a
    transaction a second; trailing zeros dropped ("12 TPS", not "12.0 TPS")."""
    v = finite(value)
    if v is None:
        return DASH
    digits = 0 if abs(v) >= 100 else 1 if abs(v) >= 10 else 2 if abs(v) >= 0.1 else 3
    text = number(v, digits)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text} {unit}" if unit else text


def bound_rate(value: Any, saturation_kind: str | None, unit: str = "TPS") -> str:
    """A knee or saturation rate as its answer knows it: "≥ 8,830 TPS" where the answer's
    ``saturation_kind`` is ``lower-bound`` (the cost per transaction is a published upper
    bound, so every rate it carries to is a floor), else :func:`rate`."""
    text = rate(value, unit)
    return f"\u2265 {text}" if saturation_kind == "lower-bound" and text != DASH else text


#: What a table of lower-bound knees and saturations says under it.
LOWER_BOUND_RATES = (
    "The cost per transaction is a published upper bound, so each knee, saturation and rate at the ceiling is "
    "a lower bound (\u2265)."
)


#: A published metric's unit (``sizing.models.MetricUnit``) after its value: a percentage joins
#: its number ("8.56% of 10 engines"), a time per transaction says "per transaction" once.
_MEASURE_UNITS = {
    "pct_one_cp": "% of one CP (APPL%)",
    "pct_of_pool": "% of {engines} engines",
    "pct_share": "%",
    "us_per_tran": " \u00b5s of one CP",
    "ms_per_tran": " ms of one CP",
}


def published_value(value: Any) -> str:
    """A published figure as its source prints it, with separators: up to two decimals, no
    trailing zeros ("686", "186.41", "23.7")."""
    text = number(value, 2)
    return text.rstrip("0").rstrip(".") if "." in text else text


def measure_text(label: str, value: Any, unit: str, engines: Any = None) -> str:
    """A published point's measure as the hover and the tables read it: "LPAR busy: 8.56% of 10
    engines", "CICS CPU per transaction: 686 µs of one CP" (:func:`published_value`)."""
    words = _MEASURE_UNITS.get(unit)
    if words is None:
        return f"{label}: {published_value(value)} {unit}".rstrip()
    words = words.replace("{engines}", count(engines) if finite(engines) else "a pool of")
    if unit.endswith("_per_tran") and "per transaction" not in label:
        words += " per transaction"
    return f"{label}: {published_value(value)}{words}"


def percent(value: Any, digits: int = 0) -> str:
    """A share (0.85) as a percentage ("85%"), never "-0%"."""
    v = finite(value)
    return DASH if v is None else number(v * 100, digits) + "%"


def plural(n: Any, word: str, words: str | None = None) -> str:
    """``"1 CP"``, ``"5 CPs"`` (with separators)."""
    v = finite(n)
    return f"{count(n)} {word if v == 1 else (words or word + 's')}"


def span(low: Any, high: Any, digits: int = 0, unit: str = "") -> str:
    """``"4–5 CPs"`` when low and high differ as printed; "" when they do not or one is missing."""
    lo, hi = number(low, digits), number(high, digits)
    if DASH in (lo, hi) or lo == hi:
        return ""
    return f"{lo}\u2013{hi}" + (f" {unit}" if unit else "")


def ms_digits(value: Any) -> int:
    """Decimals for a time in ms: three significant figures for small times, one above 10 ms."""
    v = abs(finite(value) or 0.0)
    return 3 if v < 1 else 2 if v < 10 else 1


@dataclass(frozen=True)
class Figure:
    """A quantity as printed: its value, what qualifies it (range, interval, bound) and a note."""

    value: str
    spread: str = ""
    note: str = ""

    def text(self) -> str:
        """Value and spread on one line, e.g. ``"5 (range 4–5)"``."""
        return f"{self.value} ({self.spread})" if self.spread else self.value

    @property
    def number(self) -> str:
        """The value without its unit ("≥ 3,996" of "≥ 3,996 TPS"), for a card that sets the unit small."""
        return self.value.removesuffix(f" {self.unit}") if self.unit else self.value

    @property
    def unit(self) -> str:
        last = self.value.rsplit(" ", 1)[-1]
        return last if last in ("ms", "TPS") and " " in self.value else ""

    def as_dict(self) -> dict[str, str]:
        return {"value": self.value, "number": self.number, "unit": self.unit, "spread": self.spread, "note": self.note}


def _record(answer: EstimateRecord | Mapping[str, Any]) -> EstimateRecord:
    """The typed answer: a served or stored answer's JSON is read into one (the JSON boundary)."""
    return answer if isinstance(answer, EstimateRecord) else EstimateRecord.from_dict(answer)


#: What an answer without a fit or a projection prints from (every field missing).
_NO_FIT = FitRecord(None, None, None, None)
_NO_PROJECTION = ProjectionRecord(None, None, None)


def _is_prediction_interval(answer: EstimateRecord) -> bool:
    """The answer's ranges are a 95% prediction interval only when a cost model was fitted to
    measured points (not for published bounds or ratios)."""
    basis = answer.basis
    model = basis.model
    # A stated LPAR overhead with a range (CICS TS: REDP-5320) widens the interval beyond the fit's.
    widened = basis.lpar_factor_low != basis.lpar_factor_high
    # (a fit without an interval basis is no fitted cost model: an empty block reads as none)
    return model is not None and str(model.interval_basis or "") not in ("published bounds", "") and not widened


def _spread(answer: EstimateRecord, low: Any, high: Any, digits: int = 0, unit: str = "") -> str:
    text = span(low, high, digits, unit)
    return (f"95%: {text}" if _is_prediction_interval(answer) else f"range {text}") if text else ""


def _ranges(answer: EstimateRecord, key: str) -> tuple[Any, Any]:
    pair: RangeRecord = getattr(answer.ranges, key)
    return pair.low, pair.high


# -- the figures of an answer ----------------------------------------------------------------


def engine_name(answer: EstimateRecord | Mapping[str, Any]) -> str:
    """zIIP or zAAP: the specialty engine sized on this machine."""
    return _record(answer).specialty_engine


#: The objectives of the mix in words (models_lib.choice.OBJECTIVES).
OBJECTIVE_WORDS = {
    "fewest-cps": "fewest CPs",
    "least-msu-consumed": "least MSU consumed",
    "least-msu": "least MSU consumed",
    "fewest-engines": "fewest engines",
}


def _msu_pair(installed: Any, consumed: Any) -> str:
    """ "2,254 MSU installed, 1,792 consumed" (what a mix costs in hardware and in software)."""
    return f"{count(installed)} MSU installed, {count(consumed)} consumed"


def alternative_text(answer: EstimateRecord | Mapping[str, Any]) -> str:
    """The mix the other objective picks, where it differs: "least MSU consumed: 2 CPs + 3 zIIPs,
    582 MSU installed, 20 consumed"."""
    rec = _record(answer)
    alt = rec.alternative
    if alt is None or not alt.json:
        return ""
    words = OBJECTIVE_WORDS.get(str(alt.objective), str(alt.objective))
    mix = plural(alt.cps, "CP") + (f" + {plural(alt.ziips, rec.specialty_engine)}" if alt.ziips else "")
    return f"{words}: {mix}, {_msu_pair(alt.msu_installed, alt.msu)}"


def chosen_text(answer: EstimateRecord | Mapping[str, Any]) -> str:
    """The answer's own objective with its installed and consumed MSU: "fewest CPs, 306 MSU
    installed, 244 consumed"."""
    rec = _record(answer)
    words = OBJECTIVE_WORDS.get(str(rec.objective), "")
    installed = rec.capacity.cp_msu_installed if rec.capacity is not None else None
    return f"{words}, {_msu_pair(installed, rec.msu)}"


def cps_figure(answer: EstimateRecord | Mapping[str, Any]) -> Figure:
    rec = _record(answer)
    busy = rec.busy_cps.gcp
    note = f"{number(busy, 2)} busy CPs" if finite(busy) is not None else ""
    fit = rec.feasibility
    if fit.feasible is False:
        return Figure(DASH, note=verdict_words(rec))
    if fit.reason == "no-cpu-data":
        return Figure(DASH, note="no CPU verdict")
    if rec.cps_required is None:
        return Figure(DASH, note="cannot be sized")
    alternative = alternative_text(rec)
    if alternative:
        note = " · ".join(x for x in (note, f"{chosen_text(rec)}; {alternative}") if x)
    return Figure(count(rec.cps_required), _spread(rec, *_ranges(rec, "cps")), note)


def ziips_figure(answer: EstimateRecord | Mapping[str, Any]) -> Figure:
    rec = _record(answer)
    eng = rec.specialty_engine
    busy = finite(rec.busy_cps.ziip)
    low, high = _ranges(rec, "ziips")
    if (finite(low) or 0) > 0 and high is None:
        spread = f"at least {count(low)}"
    else:
        spread = _spread(rec, low, high)
    cap = specialty_cap_text(rec)
    # none busy: there is no eligible work, or no engine may be added for it (the cap says so)
    none_allowed = finite(rec.specialty_engine_max) == 0
    note = f"{number(busy, 2)} busy {eng}s" if busy else "" if none_allowed else f"no {eng} work"
    if rec.feasibility.feasible is False:
        verdict = verdict_words(rec)
        return Figure(DASH, note=f"{verdict} · {cap}" if cap else verdict)
    return Figure(count(rec.ziips_required), spread, " · ".join(x for x in (note, cap) if x))


def specialty_cap_text(answer: EstimateRecord | Mapping[str, Any]) -> str:
    """The most specialty engines the rules allow beside the CPs evaluated: "at most 4 beside
    these 2 CPs"; where none may be added, why: the engines allowed per CP are at least one
    (benchmarks' ``ziips_per_cp``/``zaaps_per_cp``), so a cap of none means no engine of the
    model is left beside the CPs (``models_lib.engine.EnginePolicy.max_engines``)."""
    rec = _record(answer)
    most, eng = finite(rec.specialty_engine_max), rec.specialty_engine
    cps = rec.evaluated_cps or rec.cps or rec.cps_required
    if most is None or finite(cps) is None:
        return ""
    if most == 0:
        return f"no {eng} can be added: the {count(cps)} engines of this model are all CPs"
    beside = "this CP" if cps == 1 else "these " + plural(cps, "CP")
    return f"at most {count(most)} beside {beside}"


def cpu_per_tran_figure(answer: EstimateRecord | Mapping[str, Any]) -> Figure:
    """CPU per transaction on the target (ms of one engine): the one figure the pages print."""
    rec = _record(answer)
    cpu = rec.cpu_per_tran_ms
    total, low, high = finite(cpu.total), finite(cpu.low), finite(cpu.high)
    if total is None:
        return Figure(DASH)
    digits = ms_digits(total)
    eng = rec.specialty_engine
    split = (
        f"{number(cpu.gcp, digits)} ms on CPs + {number(cpu.ziip, digits)} ms on {eng}s"
        if finite(cpu.ziip)
        else "all on CPs"
    )
    if low is not None and high is not None and low <= 0 < high and not _is_prediction_interval(rec):
        spread = f"up to {number(high, digits)} ms"
    else:
        spread = _spread(rec, low, high, digits, "ms")
    return Figure(number(total, digits, "ms"), spread, f"on the target, {split}")


def response_figure(answer: EstimateRecord | Mapping[str, Any]) -> Figure:
    rec = _record(answer)
    rt = rec.response_time_ms
    value, low, high = finite(rt.value), finite(rt.low), finite(rt.high)
    if value is not None:
        digits = 1 if value >= 1 else 2
        return Figure(number(value, digits, "ms"), _spread(rec, low, high, digits, "ms"), "at the target rate")
    if low is not None and low > 0 and high is None:
        # without CPU figures the bound is the published floor (HostBridge: one request on an idle
        # system); else the time at the CPs and specialty engines (service and queueing) alone
        where = (
            "published floor for one request"
            if rec.feasibility.reason == "no-cpu-data"
            else "time at the engines alone"
        )
        return Figure(f"\u2265 {number(low, ms_digits(low))} ms", "lower bound", where)
    if high is not None and (low is None or low <= 0):
        return Figure(f"up to {number(high, ms_digits(high))} ms", "published bound")
    tps, sat = _rate(rec), finite(rec.saturation_tps)
    if tps is not None and sat is not None and tps >= sat and rec.saturation_kind == "value":
        # a path that publishes response times has none here either: past saturation there is no bound
        return Figure(DASH, note="no bound: the target is at or past saturation")
    return Figure(DASH, note="not published for this path")


def saturation_figure(answer: EstimateRecord | Mapping[str, Any]) -> Figure:
    rec = _record(answer)
    sat = finite(rec.saturation_tps)
    if sat is None:
        # saturation_kind "unknown": no CPU figures, so no rate can be said to saturate the CPs.
        return Figure(DASH, note="no CPU figures published" if rec.saturation_kind == "unknown" else "")
    label = rec.saturation_binding.label if rec.saturation_binding is not None else ""
    note = f"bound by {label}" if label else ""
    if rec.saturation_kind == "lower-bound":
        return Figure(f"\u2265 {rate(sat)}", "lower bound", note)
    low, high = _ranges(rec, "saturation_tps")
    if finite(low) is not None and high is None:  # a central value whose range is open above
        return Figure(rate(sat), f"range from {rate(low, '')} (lower bound)", note)
    if rec.saturation_binding is not None and rec.saturation_binding.resource == "software":
        # The software station's limit: its low end is the station's profile interval, its high
        # end that interval's or, where the points do not bound the station above, where the
        # CPs saturate (models_lib.saturation_ranges); no 95% interval of the cost model.
        text = span(low, high)
        return Figure(rate(sat), f"range {text}" if text else "", note)
    return Figure(rate(sat), _spread(rec, low, high), note)


def utilisation_figure(answer: EstimateRecord | Mapping[str, Any]) -> Figure:
    rec = _record(answer)
    ziip = rec.ziip_utilization
    note = f"{rec.specialty_engine}s {percent(ziip)}" if finite(ziip) is not None else ""
    return Figure(percent(rec.gcp_utilization), f"ceiling {percent(rec.max_utilization)}", note)


def evaluated_note(answer: EstimateRecord | Mapping[str, Any]) -> str:
    """Beside the model, MIPS and MSU of an answer that does not fit: "at the 64 CPs evaluated,
    not quoted" (nothing for an answer that fits)."""
    rec = _record(answer)
    if rec.feasibility.feasible is not False:
        return ""
    return f"at the {plural(rec.evaluated_cps, 'CP')} evaluated, {NOT_QUOTED}"


def mips_figure(answer: EstimateRecord | Mapping[str, Any]) -> Figure:
    rec = _record(answer)
    if finite(rec.mips) is None:
        return Figure(DASH)
    return Figure(count(rec.mips), note=" ".join(filter(None, (f"{count(rec.msu)} MSU on CPs", evaluated_note(rec)))))


def figures(answer: EstimateRecord | Mapping[str, Any]) -> dict[str, Figure]:
    """Every headline figure of an answer, by the answer's key."""
    rec = _record(answer)
    return {
        "cps_required": cps_figure(rec),
        "ziips_required": ziips_figure(rec),
        "mips": mips_figure(rec),
        "gcp_utilization": utilisation_figure(rec),
        "cpu_per_tran_ms": cpu_per_tran_figure(rec),
        "response_time_ms": response_figure(rec),
        "saturation_tps": saturation_figure(rec),
    }


def cost_rows(answer: EstimateRecord | Mapping[str, Any]) -> list[tuple[str, str]]:
    """The answer's cost from the user's price book as (label, value) rows; none without a book
    (no price is ever assumed)."""
    rec = _record(answer)
    cost = rec.cost
    if cost is None:
        return []
    cur, years = str(cost.currency or ""), finite(cost.term_years)
    engine = rec.specialty_engine
    term = "the term" if years is None else f"{number(years, 0 if float(years).is_integer() else 2)} years"
    return [
        (f"Total over {term}", f"{cur} {number(cost.total)}"),
        (f"CPs ({count(rec.cps)})", f"{cur} {number(cost.cps)}"),
        (f"{engine}s ({count(rec.ziips)})", f"{cur} {number(cost.specialty)}"),
        (
            "Software",
            f"{cur} {number(cost.software)} ({number(cost.msu, 1)} MSU {cost.msu_basis})",
        ),
    ]


# -- warnings --------------------------------------------------------------------------------


def _given(answer: EstimateRecord, name: str) -> Any:
    """An input of the question (``None`` where not given or where the record has no question)."""
    return getattr(answer.inputs, name, None)


def _rate(answer: EstimateRecord) -> float | None:
    """The target rate: the answer's, else the question's."""
    return finite(answer.tps if answer.tps is not None else _given(answer, "tps"))


def _tps(answer: EstimateRecord) -> str:
    return rate(_rate(answer))


def _machine(answer: EstimateRecord) -> str:
    model = answer.capacity.model if answer.capacity is not None else None
    return str(model or answer.target_machine or "this machine")


def _capacity_exceeded(a: EstimateRecord) -> str:
    busy = a.busy_cps.gcp
    cps = a.capacity.cps if a.capacity is not None else None
    text = (
        f"No model of this machine carries {_tps(a)}: it needs {number(busy, 0)} busy CPs, "
        f"more than the largest model's {count(cps)} CPs can give within the {percent(a.max_utilization)} ceiling."
    )
    if a.saturation_kind == "lower-bound":
        # the demand is at the published upper bound of the cost: "up to", not "needs"
        text = (
            f"At the published upper bound of its cost per transaction, no model of this machine is shown to carry "
            f"{_tps(a)}: it needs up to {number(busy, 0)} busy CPs, more than the largest model's {count(cps)} CPs "
            f"can give within the {percent(a.max_utilization)} ceiling."
        )
    return text


def _does_not_fit(a: EstimateRecord) -> str:
    return _sentence_case(str(a.feasibility.message or "does not fit"))


def _beyond_saturation(a: EstimateRecord) -> str:
    if a.saturation_kind == "lower-bound":
        # the cost is the published upper bound: the saturation is a floor, not where it saturates
        return (
            f"The target, {_tps(a)}, is past {rate(a.saturation_tps)}, the least rate at which this "
            "configuration may saturate (its cost per transaction is a published upper bound): the "
            "published figures cannot show that it carries the target."
        )
    return (
        f"The target, {_tps(a)}, is at or past the rate where this configuration saturates "
        f"({rate(a.saturation_tps)}): the response time has no bound."
    )


def _sla(a: EstimateRecord) -> str:
    goal = _given(a, "response_time_sla_ms")
    return f"The response time at {_tps(a)}, {response_figure(a).value}, misses the {number(goal, 1, 'ms')} goal."


def _sla_unreachable(a: EstimateRecord) -> str:
    goal = _given(a, "response_time_sla_ms")
    label = (a.binding_resource.label if a.binding_resource is not None else "") or "something other than CPs"
    return f"No number of CPs meets the {number(goal, 1, 'ms')} response-time goal: {label} binds."


def _utilisation(a: EstimateRecord) -> str:
    given = _given(a, "cps")
    said = (
        f"The {plural(given, 'CP')} given run at {percent(a.gcp_utilization)}, above the "
        f"{percent(a.max_utilization)} ceiling"
    )
    # ``software_limit_tps`` (the surface's, from the typed answer: sizing.services.charts): where
    # the software station binds, no number of CPs carries the target: CPs are not proposed.
    sw, tps = finite(a.software_limit_tps), _rate(a)
    limit = None if sw is None else sw * min(finite(a.max_utilization) or 0.85, 1.0)
    if sw is not None and limit is not None and tps is not None and tps > limit * (1.0 + 1e-9):
        return (
            f"{said}; more CPs do not carry {rate(tps)}: the software limit of {rate(limit)} binds (the "
            f"software station runs at {percent(tps / sw)} busy, above the ceiling)."
        )
    return f"{said}: {plural(a.cps_required, 'CP')} are needed."


def _ziip_overflow(a: EstimateRecord) -> str:
    spill = a.busy_cps.ziip_on_gcp
    eng = a.specialty_engine
    return f"Too few {eng}s: {number(spill, 2)} CPs of {eng}-eligible work run on CPs, which raises the software bill."


def _clients_limit(a: EstimateRecord) -> str:
    return (
        f"{count(_given(a, 'clients'))} clients with {number(_given(a, 'think_time_s'), 1)} s think time drive at most "
        f"{rate(a.closed_throughput_tps)}, less than the {_tps(a)} target."
    )


def _engine_ratio(a: EstimateRecord) -> str:
    eng = a.specialty_engine
    if finite(a.specialty_engine_max) == 0:
        # none may be added: every engine of the model evaluated is a CP ("at most 0" read as if
        # the machine allowed no specialty engine at all); the same words as the card's
        return f"The {eng}-eligible work needs {eng}s, and {specialty_cap_text(a)}."
    return (
        f"The {eng}-eligible work needs more {eng}s than this machine allows beside "
        # the cap is the rules' beside the CPs evaluated (the CPs given, or sized), not the CPs required
        f"{plural(a.evaluated_cps or a.cps or a.cps_required, 'CP')}: at most {count(a.specialty_engine_max)}."
    )


def _no_cpu_data(a: EstimateRecord) -> str:
    floor = a.ranges.response_time_ms.low
    known = f" What is known: a response floor of {number(floor, 1, 'ms')} for one request." if finite(floor) else ""
    return f"No CPU figures are published for this path, so no CPU verdict: CPs cannot be sized.{known}"


def _bounds_only(a: EstimateRecord) -> str:
    cpu = cpu_per_tran_figure(a)
    return f"The CPU cost, {cpu.value} per transaction, is taken from published throughput bounds, not from CPU measurements."


def _eligibility_scope(a: EstimateRecord) -> str:
    share = a.basis.eligible_share.value if a.basis.eligible_share is not None else None
    eng = a.specialty_engine
    return (
        f"The {eng} share was published for part of the work only: {percent(share)} of the CPU is taken as "
        f"{eng}-eligible. Give the server share to change it."
    )


def _extrapolation(a: EstimateRecord) -> str:
    model = a.basis.model or _NO_FIT
    measured = span(model.etr_min, model.etr_max, 0, "TPS")
    where = f" ({measured} measured)" if measured else ""
    return f"{_tps(a)} is outside the measured rates{where}: the cost line is extrapolated."


def _payload(a: EstimateRecord) -> str:
    payload = _given(a, "payload_bytes")
    return f"The payload, {count(payload, 'bytes')}, is outside the published range."


def _no_eligibility(a: EstimateRecord) -> str:
    return f"No {a.specialty_engine} eligibility is published for this configuration: all work is sized on CPs."


def _no_response(a: EstimateRecord) -> str:
    rt = response_figure(a)
    if rt.spread == "lower bound":
        low = a.response_time_ms.low
        return (
            "No response times are published for this configuration: the time at the engines alone is at least "
            f"{number(low, ms_digits(low), 'ms')}."
        )
    return "No response times are published for this configuration: the response time is unknown."


def _clients_exceed(a: EstimateRecord) -> str:
    return f"The {count(_given(a, 'clients'))} clients would drive more than {_tps(a)}: sized for the target."


def _cics_only(a: EstimateRecord) -> str:
    busy = a.busy_cps.gcp
    return (
        f"Sized for the CICS regions only ({number(busy, 2)} busy CPs): the rest of the LPAR (z/OS, TCP/IP, "
        "monitors) is not published. Give the LPAR overhead to include it."
    )


def _fixed_base(a: EstimateRecord) -> str:
    regions = _given(a, "cics_regions")
    whose = f"your {count(regions)} CICS regions" if regions else "the benchmark's CICS regions"
    return (
        f"At {_tps(a)} most of the CPU is the fixed base of {whose}, not the transactions: "
        "give the number of CICS regions you run to size it."
    )


def _software_unscaled(a: EstimateRecord) -> str:
    return (
        f"Saturation at {rate(a.saturation_tps)} is a software limit measured in the benchmark: "
        "more CPs do not raise it."
    )


def _projection(a: EstimateRecord) -> str:
    p = a.basis.projection or _NO_PROJECTION
    return (
        f"Projected with LSPR ratings from the measured machine ({p.from_machine_type}, "
        f"{plural(p.from_cps, 'CP')}) to the target ({p.to_machine_type}, "
        f"{plural(p.to_cps, 'CP')}): factor {number(p.factor, 3)}."
    )


#: code -> the sentence a customer reads, built from the answer's own numbers.
_SENTENCES: Mapping[str, Callable[[EstimateRecord], str]] = {
    "does-not-fit": _does_not_fit,
    "capacity-exceeded": _capacity_exceeded,
    "beyond-saturation": _beyond_saturation,
    "sla-missed": _sla,
    "sla-unreachable": _sla_unreachable,
    "utilization-above-ceiling": _utilisation,
    "ziip-overflow": _ziip_overflow,
    "clients-limit-throughput": _clients_limit,
    "engine-ratio": _engine_ratio,
    "no-cpu-data": _no_cpu_data,
    "bounds-only": _bounds_only,
    "eligibility-scope": _eligibility_scope,
    "extrapolation": _extrapolation,
    "payload-outside-range": _payload,
    "no-eligibility-data": _no_eligibility,
    "no-response-time-data": _no_response,
    "clients-exceed-throughput": _clients_exceed,
    "cics-only": _cics_only,
    "software-unscaled": _software_unscaled,
    "fixed-base-dominates": _fixed_base,
    "projection": _projection,
}


def _sentence_case(text: str) -> str:
    text = " ".join(str(text).split())
    if not text:
        return text
    first = text.split(" ", 1)[0]
    # a name that is written in its own case stays so ("z/OS Connect", "zIIP"): only a word
    # without capitals is capitalised
    if not any(ch.isupper() for ch in first[1:]):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", ")", ":")) else text + "."


@dataclass(frozen=True)
class WarningText:
    """One warning as a customer reads it."""

    code: str
    level: Level
    sentence: str
    details: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "level": self.level, "sentence": self.sentence, "details": self.details}


def warning_sentence(
    code: str, answer: EstimateRecord | Mapping[str, Any] | None, message: str = "", engine: str = "zIIP"
) -> str:
    """The plain sentence for a warning, from the answer's numbers; with no answer (a warning
    that stands for many answers) the code's general sentence, naming ``engine`` (the
    generation's specialty engine: zAAP on z10..zEC12/zBC12); the engine's message, tidied,
    for a code with neither."""
    build = _SENTENCES.get(code)
    if build is not None and answer is not None:
        try:
            return build(_record(answer))
        except (TypeError, ValueError, KeyError):  # an answer missing a number: say the engine's words
            pass
    return headline(code, engine) or _sentence_case(customer_wording(message))


def warnings(
    answer: EstimateRecord | Mapping[str, Any],
    *,
    extra: Sequence[WarningRecord | Mapping[str, Any]] = (),
    numbers: bool = True,
    engine: str | None = None,
    names: ProductNames | None = None,
) -> list[WarningText]:
    """Every warning of an answer (and ``extra`` ones), decision-changing first, each said once.

    ``numbers=False`` for warnings that stand for many answers (a job's): the general sentence,
    naming ``engine`` (default: the answer's specialty engine).  ``names``: the workloads the
    engine's messages name by their slugs ("fiteq-authenticator/multi-region") said by name."""
    rec = _record(answer)
    eng = engine or rec.specialty_engine
    out: list[WarningText] = []
    seen: set[str] = set()
    more = [w if isinstance(w, WarningRecord) else warning_record(w) for w in extra]
    for w in [*rec.warnings, *more]:
        code = w.code
        message = names.workloads_in_words(w.message) if names is not None else w.message
        sentence = warning_sentence(code, rec if numbers else None, message, eng)
        if sentence in seen:
            continue
        seen.add(sentence)
        # the engine's reasoning names the generation's engine ("zIIP/zAAP" in some of it)
        details = _sentence_case(customer_wording(plain_reference(message))).replace("zIIP/zAAP", eng)
        given = w.level  # the engine's level for this answer; the code's default otherwise
        level: Level = given if given in LEVEL_ORDER else level_of(code)
        out.append(WarningText(code, level, sentence, details))
    return by_level(out)


def by_level(items: Sequence[WarningText]) -> list[WarningText]:
    """Warnings decision-changing first (in order within a level), each sentence said once."""
    once: dict[str, WarningText] = {}
    for w in items:
        once.setdefault(w.sentence, w)
    return sorted(once.values(), key=lambda w: LEVEL_ORDER.index(w.level))


def warnings_by_level(
    answer: EstimateRecord | Mapping[str, Any], names: ProductNames | None = None
) -> dict[str, list[WarningText]]:
    """``{"decisions": [...], "caveats": [...], "notes": [...]}`` for a page's template."""
    items = warnings(answer, names=names)
    return {f"{level}s": [w for w in items if w.level == level] for level in LEVEL_ORDER}


def warning_summary(answer: EstimateRecord | Mapping[str, Any]) -> str:
    """One cell for a comparison: how many warnings of each level, in words."""
    counts = {level: 0 for level in LEVEL_ORDER}
    for w in warnings(answer):
        counts[w.level] += 1
    words = {"decision": ("decision", "decisions"), "caveat": ("caveat", "caveats"), "note": ("note", "notes")}
    parts = [f"{n} {words[level][0] if n == 1 else words[level][1]}" for level, n in counts.items() if n]
    return ", ".join(parts) or "none"


# -- long texts, each said once ---------------------------------------------------------------


def plain_reference(text: str) -> str:
    """A source reference as the customer reads it: a figure the source text lost is said so."""
    return str(text).replace("(lost)", "(figure not in the source text)")


def _clause_key(clause: str) -> str:
    return " ".join(clause.replace("...", " ").replace("\u2026", " ").lower().split()).strip(" .;:")


def _split(text: str) -> list[tuple[str, str]]:
    """``text`` cut at "; " and at ". " before a capital, outside parentheses: (clause, separator)."""
    out: list[tuple[str, str]] = []
    depth, start, i = 0, 0, 0
    while i < len(text):
        ch = text[i]
        depth += {"(": 1, ")": -1}.get(ch, 0)
        nxt = text[i + 2] if i + 2 < len(text) else ""
        if depth <= 0 and text[i : i + 2] in ("; ", ". ") and (ch == ";" or nxt.isupper()):
            out.append((text[start:i], ch + " "))
            start = i = i + 2
            continue
        i += 1
    out.append((text[start:], ""))
    return out


def fresh(text: str, seen: set[str]) -> str:
    """``text`` without the clauses (cut at "; " and between sentences, never inside
    parentheses) already in ``seen``, which it adds to; a clause whose words are all in one
    already said counts as said.  So a report states each statement once."""
    kept: list[tuple[str, str]] = []
    for clause, sep in _split(plain_reference(text)):
        key = _clause_key(clause)
        words = set(key.split())
        if not key or any(key in old or (len(words) >= 2 and words <= set(old.split())) for old in seen):
            continue
        seen.add(key)
        kept.append((clause, sep))
    if not kept:
        return ""
    return "".join(c + sep for c, sep in kept[:-1]) + kept[-1][0]


# -- the whole answer, for a page --------------------------------------------------------------


def basis_rows(answer: EstimateRecord | Mapping[str, Any]) -> list[tuple[str, str]]:
    """How the number was reached: the fit on the measured machine (labelled as such), the
    projection and the one CPU per transaction figure on the target."""
    rec = _record(answer)
    rows: list[tuple[str, str]] = []
    m = rec.basis.model or _NO_FIT
    projection = rec.basis.projection
    p = projection if projection is not None and projection != _NO_PROJECTION else None
    if m.component:
        measured = f" on the measured {p.from_machine_type}" if p else ""
        rows.append(
            (
                "Fit (measured machine)",
                f"{component_name(m.component)}: {number(m.slope_ms, 4)} CP-ms per transaction + "
                f"{number(m.intercept_cps, 3)} CPs{measured}; R\u00b2 {number(m.r2, 4)}, "
                f"n = {count(m.n)}, measured {span(m.etr_min, m.etr_max, 0, 'TPS') or rate(m.etr_min)}",
            )
        )
    if p:
        rows.append(
            (
                "Projection",
                f"{p.from_machine_type} with {plural(p.from_cps, 'CP')} \u2192 "
                f"{p.to_machine_type} with {plural(p.to_cps, 'CP')}: factor {number(p.factor, 3)} "
                f"({p.source})",
            )
        )
    cpu = cpu_per_tran_figure(rec)
    if cpu.value != DASH:
        rows.append(("CPU per transaction (target)", " ".join(filter(None, [cpu.text(), cpu.note]))))
    if rec.basis.statements:
        rows.append(("Statements", plural(len(rec.basis.statements), "published statement")))
    return rows


def assumptions(answer: EstimateRecord | Mapping[str, Any], names: ProductNames | None = None) -> list[str]:
    """The answer's assumptions as a customer reads them: parameters, parts of the work and
    workloads (with ``names``) by name, a figure the source text lost said so (the workbench, the
    saved estimate's page and the PDF)."""
    return assumption_texts(_record(answer).basis.assumptions, names)


def assumption_texts(said: Sequence[str], names: ProductNames | None = None) -> list[str]:
    """Assumptions (an answer's or a job's basis's) in the customer's words: :func:`assumptions`."""
    texts = [names.workloads_in_words(str(a)) for a in said] if names is not None else [str(a) for a in said]
    return [customer_wording(plain_reference(a)) for a in texts]


def present(answer: EstimateRecord | Mapping[str, Any], names: ProductNames | None = None) -> dict[str, Any]:
    """The answer as the pages print it (JSON-ready): figures, warnings by level, the basis and
    the assumptions; ``names`` say the workloads the engine's messages name by slug."""
    rec = _record(answer)
    items = warnings(rec, names=names)
    return {
        "figures": {k: f.as_dict() for k, f in figures(rec).items()},
        "warnings": [w.as_dict() for w in items],
        "basis": [list(r) for r in basis_rows(rec)],
        "assumptions": assumptions(rec, names),
    }


# -- comparison ------------------------------------------------------------------------------

#: Answer rows of a comparison: (label, figure).
_COMPARE_FIGURES: tuple[tuple[str, Callable[[EstimateRecord], Figure]], ...] = (
    ("CPs required", cps_figure),
    ("zIIPs required", ziips_figure),
    ("MIPS", mips_figure),
    ("CP utilisation", utilisation_figure),
    ("CPU per transaction", cpu_per_tran_figure),
    ("Response time", response_figure),
    ("Saturation", saturation_figure),
)

#: Inputs as the comparison and the reports show them: (label, key, unit).
INPUT_LABELS: tuple[tuple[str, str, str], ...] = (
    ("Path", "path", ""),
    ("Configuration", "configuration", ""),
    ("Target machine", "machine", ""),
    ("Model", "model", ""),
    ("Capacity setting", "capacity_setting", ""),
    ("Target rate", "tps", "TPS"),
    ("CPs given", "cps", ""),
    ("zIIPs given", "ziips", ""),
    ("Utilisation ceiling", "max_utilization", ""),
    ("Payload", "payload_bytes", "bytes"),
    ("Clients", "clients", ""),
    ("Think time", "think_time_s", "s"),
    ("Response-time goal", "response_time_sla_ms", "ms"),
    ("LSPR projection band", "projection_band", ""),
    ("LPAR overhead", "lpar_overhead", ""),
    ("Server share", "server_share", ""),
    ("SMT-2 zIIP factor", "smt2_factor", ""),
    ("CICS regions", "cics_regions", ""),
)


def input_value(key: str, value: Any, unit: str = "") -> str:
    """An input as the customer typed it: shares as percentages, counts with separators."""
    v = finite(value)
    if v is None:
        return str(value)
    if key in ("max_utilization", "projection_band", "lpar_overhead", "server_share"):
        return percent(v, 0 if round(v * 100, 6).is_integer() else 1)
    if v.is_integer():
        return count(v, unit)
    text = f"{v:,.6g}"
    return f"{text} {unit}" if unit else text


def compare_input_rows(
    answers: Sequence[EstimateRecord | Mapping[str, Any]], names: ProductNames | None = None
) -> list[dict[str, Any]]:
    """The questions side by side: label, one cell per answer, and whether they differ; the path,
    configuration and machine in product names (as the saved-estimates list shows them), never
    slugs (``names``: none known, the slugs as they are)."""
    names = names or NO_NAMES
    records = [_record(a) for a in answers]
    rows = []
    paths: list[Any] = [None] * len(answers)
    for label, key, unit in INPUT_LABELS:
        raw = [_given(a, key) for a in records]
        if all(v is None for v in raw):
            continue
        if key == "path":
            paths = raw  # the path row comes before the configuration's (INPUT_LABELS)
            cells = [names.path(v) for v in raw]
        elif key == "configuration":
            cells = [names.configuration(p, v) for p, v in zip(paths, raw, strict=True)]
        elif key == "machine":
            cells = [names.machine(v) for v in raw]
        else:
            cells = ["default" if v is None else input_value(key, v, unit) for v in raw]
        rows.append({"label": label, "cells": cells, "differs": len(set(cells)) > 1})
    return rows


def compare_rows(answers: Sequence[EstimateRecord | Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Answer rows side by side: label, one cell per answer (value and spread), and whether they differ."""
    records = [_record(a) for a in answers]
    rows = []
    engines = [a.specialty_engine for a in records]
    for label, build in _COMPARE_FIGURES:
        cells = [build(a).text() for a in records]
        if label == "zIIPs required" and answers:
            if len(set(engines)) == 1:
                # the generation's engine: zAAPs on z10..zEC12/zBC12, zIIPs from z13
                label = f"{engines[0]}s required"
            else:
                # a zAAP machine beside a zIIP one: each cell names its own engine
                label = "Specialty engines required"
                cells = [c if c == DASH else f"{c} ({e}s)" for c, e in zip(cells, engines, strict=True)]
        rows.append({"label": label, "cells": cells, "differs": len(set(cells)) > 1})
    summary = [warning_summary(a) for a in records]
    rows.append({"label": "Warnings", "cells": summary, "differs": len(set(summary)) > 1, "wide": True})
    return rows


# -- jobs ------------------------------------------------------------------------------------

#: A batch row's status (``sizing.jobs.batch.STATUSES``) in words.
BATCH_STATUS_WORDS = {
    "sized": "sized",
    "does-not-fit": "does not fit",
    "no-cpu-data": "no CPU data (nothing can be sized)",
    "refused": "refused",
}


def batch_summary(rows: int, counts: Mapping[str, int] | None, succeeded: int = 0, failed: int = 0) -> str:
    """One sentence on a batch's rows: how many were sized, did not fit, had no CPU data or were
    refused (``counts``); a batch stored before rows had a status says answered and refused."""
    if counts is None:
        return f"{count(rows)} scenarios: {count(succeeded)} answered, {count(failed)} refused (the error says why)."
    parts = [f"{count(counts.get(status, 0))} {words}" for status, words in BATCH_STATUS_WORDS.items()]
    return f"{count(rows)} scenarios: {', '.join(parts)}" + (" (the error says why)." if counts.get("refused") else ".")


def mix_combined(tps: Any, gcp_utilization: Any, ziips: Any, ziip_utilization: Any, engine: str = "zIIP") -> str:
    """A workload mix's combined load: "41,200 TPS, CPs 72% busy, zIIPs 64% busy"; with no
    specialty engines sized or given, the CPs alone (there is no zIIP busy to print: the LPAR
    line says how many there are)."""
    text = f"{rate(tps)}, CPs {percent(gcp_utilization)} busy"
    if finite(ziips) and finite(ziip_utilization) is not None:
        text += f", {engine}s {percent(ziip_utilization)} busy"
    return text


#: The columns of a job's result table (``result.csv`` keeps these names, docs/csv.md) as the
#: job's PDF heads them: name -> (label, unit, format).  ``{eng}`` is the generation's specialty
#: engine (zAAP on z10..zEC12/zBC12, zIIP later); a format is ``count``, ``percent`` (a share
#: 0..1 printed as a percentage), ``ms``, ``busy`` (engines, two decimals), ``money``, ``yes``
#: (true or false) or ``text``.
JOB_COLUMNS: dict[str, tuple[str, str, str]] = {
    "cps": ("CPs", "", "count"),
    "ziips": ("{eng}s", "", "count"),
    "tps": ("Rate", "TPS", "count"),
    "clients": ("Clients", "", "count"),
    "throughput_tps": ("Throughput", "TPS", "count"),
    "throughput_low_cost_tps": ("Throughput at the low cost", "TPS", "count"),
    "throughput_high_cost_tps": ("Throughput at the high cost", "TPS", "count"),
    "gcp_utilization": ("CP utilisation", "", "percent"),
    "ziip_utilization": ("{eng} utilisation", "", "percent"),
    "gcp_busy": ("Busy CPs", "", "busy"),
    "ziip_busy": ("Busy {eng}s", "", "busy"),
    "ziip_on_gcp": ("{eng} work on CPs", "busy CPs", "busy"),
    "cpu_per_tran_ms": ("CPU per transaction", "ms", "ms"),
    "response_time_ms": ("Response time", "ms", "ms"),
    "response_time_lower_bound_ms": ("Response time, lower bound", "ms", "ms"),
    "response_time_sla_ms": ("Response-time goal", "ms", "ms"),
    "meets_sla": ("Meets the goal", "", "yes"),
    "cost": ("Cost", "", "money"),
    "chosen": ("Cheapest", "", "yes"),
    "samples": ("Samples", "", "count"),
    "share": ("Share of samples", "", "percent"),
    "cumulative_share": ("Cumulative share", "", "percent"),
    "path": ("Path", "", "text"),
    "configuration": ("Configuration", "", "text"),
    # a batch's scenarios (the estimate's CSV columns the report prints)
    "row": ("#", "", "count"),
    "machine": ("Machine", "", "text"),
    "cps_required": ("CPs", "", "count"),
    "ziips_required": ("{eng}s", "", "count"),
    "capacity_model": ("Model", "", "text"),
    "mips": ("MIPS", "", "count"),
    "msu": ("MSU", "", "count"),
    "saturation_tps": ("Saturation", "TPS", "count"),
    "warning_codes": ("Decision warnings or error", "", "text"),
}


def engines_word(engines: Sequence[str]) -> str:
    """The specialty engine a table of these answers names: "zAAP" or "zIIP" where they agree,
    "zAAP or zIIP" where a zAAP generation sits beside a zIIP one."""
    names = sorted({e for e in engines if e})
    return " or ".join(names) if names else "zIIP"


def job_column(name: str, engine: str = "zIIP") -> str:
    """A job table's column as a header: "CP utilisation", "zAAP utilisation", "Response time, ms",
    "zAAPs or zIIPs" (a column the registry lacks reads as words, never as its snake_case name)."""
    label, unit, _ = JOB_COLUMNS.get(name, (name.replace("_", " ").capitalize(), "", "auto"))
    # engines in the plural each: "zAAPs or zIIPs", never "zAAP or zIIPs"
    label = label.replace("{eng}s", engines_plural(engine)).format(eng=engine)
    return f"{label}, {unit}" if unit else label


def job_cell(name: str, value: Any) -> str:
    """A job table's cell in the pages' number formats: shares as percentages, counts and rates
    with separators, times with the digits of their size, true and false as words."""
    if value is None or value == "":
        return DASH
    kind = JOB_COLUMNS.get(name, ("", "", "auto"))[2]
    if kind == "yes" or isinstance(value, bool):
        return "yes" if value is True or str(value).upper() == "TRUE" else "no"
    v = finite(value)
    if v is None or kind == "text":
        return str(value)
    if kind == "percent":
        return percent(v, 0 if abs(v) >= 0.1 or v == 0 else 1)
    if kind == "ms":
        return number(v, ms_digits(v))
    if kind in ("busy", "money"):
        return number(v, 2)
    if kind == "count" or v.is_integer():
        return count(v)
    return number(v, 2)


def job_table(
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    engine: str = "zIIP",
    names: ProductNames | None = None,
) -> tuple[list[str], list[list[str]]]:
    """A job's result table as the job's page and PDF print it: the headers
    (:func:`job_column`) and every cell (:func:`job_cell`), a workload's path and configuration
    in product names."""
    names = names or NO_NAMES
    at_path = list(columns).index("path") if "path" in columns else None
    body = []
    for row in rows:
        path = row[at_path] if at_path is not None and at_path < len(row) else None
        out = []
        for c, value in itertools.zip_longest(columns, row[: len(columns)]):
            if value is None or value == "":
                out.append(DASH)
            elif c == "path":
                out.append(names.path(value))
            elif c == "configuration":
                out.append(names.configuration(path, value))
            else:
                out.append(job_cell(c, value))
        body.append(out)
    return [job_column(c, engine) for c in columns], body


def job_numeric(columns: Sequence[str]) -> list[bool]:
    """Which of a job table's columns are numbers (set right-aligned)."""
    return [JOB_COLUMNS.get(c, ("", "", "auto"))[2] not in ("text", "yes") for c in columns]


#: Columns of a batch's answer the page and the PDF print (the CSV has them all, docs/csv.md),
#: headed and formatted as :data:`JOB_COLUMNS` says.
BATCH_COLUMNS: tuple[str, ...] = (
    "row",
    "path",
    "machine",
    "tps",
    "cps_required",
    "ziips_required",
    "capacity_model",
    "mips",
    "msu",
    "gcp_utilization",
    "response_time_ms",
    "saturation_tps",
    "warning_codes",
)


@dataclass(frozen=True)
class TableText:
    """A table as the page and the PDF print it: headers, which columns are numbers (set
    right-aligned) and every cell as text."""

    columns: list[str]
    numeric: list[bool]
    rows: list[list[str]]
    #: under the table: which rows are shown where not all are (:func:`rows_shown`)
    note: str = ""


def rows_shown(shown: int, total: int) -> str:
    """Under a table cut short, page or PDF: "The first 500 of 1,234 rows; all are in the CSV."
    (nothing where every row is shown)."""
    return f"The first {count(shown)} of {count(total)} rows; all are in the CSV." if shown < total else ""


def batch_label(r: BatchRow) -> str:
    """A scenario as an engineer reads it first: its row number and, where the CSV's ``name``
    column names it, its name ("3. Peak hour"); numbered, since two rows may share a name."""
    number = count(r.row) if r.row is not None else DASH
    return f"{number}. {r.name}" if r.name else number


def batch_engine(rows: Sequence[BatchRow]) -> str:
    """The specialty engine a batch's rows name: "zAAP", "zIIP" or "zAAP or zIIP"."""
    return engines_word([r.specialty_engine or "" for r in rows])


def _batch_decisions(r: BatchRow) -> str:
    """A batch row's last cell: its status unless sized, then its error (refused) or the
    headline of each decision warning it has, naming its generation's specialty engine; the
    code that only repeats the status ("does-not-fit", "no-cpu-data") is not said twice."""
    status = str(r.status or "")
    codes = [c for c in r.warning_codes.replace(",", " ").split() if level_of(c) == "decision" and c != status]
    engine = r.specialty_engine or "zIIP"
    said = str(r.error or " ".join(warning_sentence(c, None, engine=engine) for c in codes))
    words = BATCH_STATUS_WORDS.get(status, "") if status != "sized" else ""
    return ": ".join(t for t in (words, said) if t) or DASH


#: A batch row with no quote (it does not fit) shows, as the estimate's page and PDF do, the
#: model, MIPS and MSU of the CP count the engine evaluated, each cell marked with
#: :data:`NOT_QUOTED_MARK` (a word in each of these narrow columns wrapped a row onto three
#: lines) and :data:`NOT_QUOTED_NOTE`, once under the table, saying what the mark means.
_QUOTE_COLUMNS = frozenset({"capacity_model", "mips", "msu"})
NOT_QUOTED_MARK = "*"
NOT_QUOTED_NOTE = (
    f"{NOT_QUOTED_MARK} Evaluated, {NOT_QUOTED}: the model, MIPS and MSU of the CPs evaluated for a scenario"
    " that does not fit."
)


def _batch_cell(r: BatchRow, col: str, present: frozenset[str], names: ProductNames) -> str:
    if col == "row":
        return batch_label(r)
    if col == "path":
        return f"{names.path(r.path)} / {names.configuration(r.path, r.configuration)}" if r.path else DASH
    if col == "machine" and r.machine:
        return names.machine(r.machine)
    if col == "warning_codes":
        return _batch_decisions(r)
    text = job_cell(col, r.cells.get(col)) if col in present else DASH
    if col in _QUOTE_COLUMNS and _not_quoted(r, text):
        return f"{text}{NOT_QUOTED_MARK}"
    return text


def _not_quoted(r: BatchRow, text: str) -> bool:
    return r.cps_required is None and text != DASH


def batch_table(result: JobResult, names: ProductNames | None = None, limit: int | None = None) -> TableText:
    """A batch's scenarios as the job's page and its PDF print them (:data:`BATCH_COLUMNS`): each
    row by its number and, where any row has one, its name (:func:`batch_label`); the workload and
    machine by their names, numbers in :func:`job_cell`'s formats, the specialty engine the rows'
    generations name, a figure of a row with no quote marked :data:`NOT_QUOTED_MARK`, and in the
    last column the row's status (unless sized) with its error or its decision warnings; the first
    ``limit`` rows (all by default), with :func:`rows_shown` and, where a row is marked,
    :data:`NOT_QUOTED_NOTE` as its note."""
    names = names or NO_NAMES
    present = frozenset(result.table_columns)
    rows = batch_rows(result)
    engine = batch_engine(rows)
    named = any(r.name for r in rows)
    headers = {"row": "Scenario" if named else job_column("row"), "path": "Path / configuration"}
    numeric = job_numeric(BATCH_COLUMNS)
    shown = rows[:limit]
    marked = any(_not_quoted(r, job_cell(c, r.cells.get(c))) for r in shown for c in _QUOTE_COLUMNS if c in present)
    return TableText(
        columns=[headers.get(c) or job_column(c, engine) for c in BATCH_COLUMNS],
        numeric=[n and not (named and c == "row") for c, n in zip(BATCH_COLUMNS, numeric, strict=True)],
        rows=[[_batch_cell(r, c, present, names) for c in BATCH_COLUMNS] for r in shown],
        note=" ".join(filter(None, (rows_shown(len(shown), len(rows)), NOT_QUOTED_NOTE if marked else ""))),
    )


@dataclass(frozen=True)
class ChartText:
    """A chart as the page and the PDF draw it: its caption, its axes' titles and one value per
    label (``None``: no bar)."""

    caption: str
    x_title: str
    y_title: str
    labels: list[str]
    values: list[float | None]


def batch_chart(result: JobResult) -> ChartText:
    """The CPs each scenario of a batch requires, each by :func:`batch_label` and, where it has
    no CPs, its status in short ("does not fit", "no CPU data", "refused")."""
    rows = batch_rows(result)

    def label(r: BatchRow) -> str:
        status = str(r.status or "sized")
        short = BATCH_STATUS_WORDS.get(status, status).split(" (")[0]
        return batch_label(r) if status == "sized" else f"{batch_label(r)} ({short})"

    return ChartText(
        caption="CPs required by each scenario.",
        x_title="Scenario (row)",
        y_title="CPs required",
        labels=[label(r) for r in rows],
        values=[r.cps_required for r in rows],
    )


def batch_warnings(result: JobResult) -> list[WarningText]:
    """Each warning code of a batch's scenarios once, in its general sentence naming the engine
    of the rows that have it ("zAAPs or zIIPs" where rows of both do), with how many have it."""
    engines: dict[str, list[str]] = {}
    for r in batch_rows(result):
        for code in dict.fromkeys(r.warning_codes.replace(",", " ").split()):
            engines.setdefault(code, []).append(r.specialty_engine or "")
    return by_level(
        [
            WarningText(
                code,
                level_of(code),
                warning_sentence(code, None, engine=engines_word(rows)),
                f"In {count(len(rows))} of {count(result.rows)} scenarios.",
            )
            for code, rows in engines.items()
        ]
    )


def mix_headroom(mix: MixHeadroomRecord) -> str:
    """How far the rates of a workload mix can grow together, in one sentence for the jobs panel
    and the job's PDF alike.

    Two quantities of :func:`models_lib.mix.evaluate_mix`, each by its own name: the *headroom*,
    the largest common multiplier of every rate at which the CPs stay within the utilisation
    ``ceiling`` (``gcp_utilization <= ceiling``), and the *saturation scale*, the multiplier at
    which a pool saturates.  A stored ``None`` is an unbounded multiplier (infinities are not JSON).
    """
    limit = f"the {percent(mix.ceiling)} ceiling" if mix.ceiling is not None else "the ceiling"
    h = mix.headroom
    if h is None:
        head = f"No headroom limit: every rate can grow without the CPs passing {limit}"
    elif h < 1:
        head = f"Headroom ×{number(h, 2)}: the CPs are above {limit} at these rates"
    else:
        head = f"Headroom ×{number(h, 2)}: every rate can grow by this factor before the CPs pass {limit}"
    s = mix.saturation_scale
    return head + (f"; a pool saturates at ×{number(s, 2)}." if s is not None else ".")


# -- what would help ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    """One thing that would help an answer that does not carry its target, and the resource it
    acts on: ``cps``, ``specialty`` (zIIPs or zAAPs), ``model`` (a bigger model or machine) or
    ``software`` (more instances of the software that binds)."""

    resource: str
    sentence: str
    short: str

    def as_dict(self) -> dict[str, str]:
        return {"resource": self.resource, "sentence": self.sentence, "short": self.short}


def advice(answer: EstimateRecord | Mapping[str, Any], *, software_tps: float | None = None) -> list[Advice]:
    """What would help an overloaded or does-not-fit answer, following the resource that binds.

    ``answer``: the typed record (a served or stored answer's JSON is read into one).
    ``software_tps``: the saturation of the software station the response model fitted (FiTeq's
    HSM channel wait), which no number of CPs raises; the station is held to the ceiling as the
    CPs are, so where the target runs it above the ceiling, CPs are never proposed: more software
    instances are, or a rate at or under the ceiling times its saturation.  An answer that fits, or one without CPU data,
    needs no advice (an empty list).
    """
    record = _record(answer)
    fit = record.feasibility
    inputs = record.inputs
    tps = finite(record.tps if record.tps is not None else (inputs.tps if inputs is not None else None))
    given = finite(inputs.cps if inputs is not None else None)
    ceiling = finite(record.max_utilization) or 0.85
    util = finite(record.gcp_utilization)
    eng = record.specialty_engine
    out: list[Advice] = []
    if tps is None:
        return out
    overloaded = given is not None and util is not None and util > ceiling + 1e-9
    fits = fit.feasible is not False
    if fits and not overloaded and fit.reason is None:
        spill = finite(record.busy_cps.ziip_on_gcp) or 0.0
        if spill > 0.005 and inputs is not None and inputs.ziips is not None:
            out.append(
                Advice(
                    "specialty",
                    f"More {eng}s: {number(spill, 2)} CPs of {eng}-eligible work run on the CPs for want of a free {eng}.",
                    f"more {eng}s would take {number(spill, 2)} busy CPs of eligible work",
                )
            )
        return out
    sw = finite(software_tps)
    # the software station is held to the same ceiling as the CPs (models_lib.feasibility): its
    # limit is the ceiling times its saturation
    within = None if sw is None else sw * min(ceiling, 1.0)
    if fit.reason == "software-limit" or (within is not None and tps > within * (1.0 + 1e-9)):
        limit = within if within is not None else finite(fit.max_tps)
        most = finite(fit.max_tps)
        # the engines may bind below the software limit (FiTeq on a z17 4xx, 43 slow CPs: 7,349
        # TPS against the station's 7,505): the rate to name is then the most the model carries
        engines_first = given is None and most is not None and limit is not None and most < limit * (1.0 - 1e-6)
        instances = math.ceil(tps / limit) if limit else None
        more = f" (about {count(instances)} for {rate(tps)})" if instances and instances > 1 else ""
        busy = (
            ""
            if sw is None
            else f" at {rate(tps)} the software station runs at {percent(tps / sw)} busy, above the "
            f"{percent(ceiling)} ceiling (it saturates at {rate(sw)}), and"
        )
        out.append(
            Advice(
                "software",
                f"More CPs do not help:{busy} the software limit of {most_rate(limit)} within the "
                f"{percent(ceiling)} ceiling binds on any number of CPs. What would help is more software "
                f"instances sharing the load{more}, or a rate at or under {most_rate(most if engines_first else limit)}.",
                f"the software limit ({most_rate(limit)} at {percent(ceiling)} busy) binds: more CPs do not help",
            )
        )
        if engines_first:
            out.append(
                Advice(
                    "model",
                    f"This model's engines reach the {percent(ceiling)} ceiling first, at {most_rate(most)}: a "
                    f"bigger model or a newer machine as well (see Other machines), or a rate at or under it.",
                    "a bigger model or a newer machine as well",
                )
            )
        if overloaded and given is not None and fit.max_tps is not None:
            out.append(
                Advice(
                    "cps",
                    f"The {plural(given, 'CP')} given carry at most {most_rate(fit.max_tps)} within the "
                    f"{percent(ceiling)} ceiling.",
                    f"{plural(given, 'CP')} carry at most {most_rate(fit.max_tps)}",
                )
            )
        return out
    required = finite(record.cps_required)
    if overloaded and given is not None and required is not None and required > given:
        more_cps = int(required - given)
        out.append(
            Advice(
                "cps",
                f"The {plural(given, 'CP')} given run at {percent(util)}, above the {percent(ceiling)} ceiling: "
                f"{plural(more_cps, 'more CP')} ({count(required)} in all) carry {rate(tps)} under it.",
                f"{plural(given, 'CP')} given: needs {plural(more_cps, 'more CP')} ({count(required)} in all)"
                f" to stay under {percent(ceiling)}",
            )
        )
    reason = fit.reason
    if reason == "engines" or (reason == "saturation" and not out):
        carried = most_carried(record)
        where = f" ({carried})" if carried else ""
        out.append(
            Advice(
                "model",
                f"A bigger model or a newer machine{where}: see Other machines for the models that carry "
                f"{rate(tps)}, or lower the rate.",
                "a bigger model or a newer machine",
            )
        )
    if any(w.code == "engine-ratio" for w in record.warnings):
        out.append(
            Advice(
                "specialty",
                f"More {eng}s than this machine allows beside these CPs: more CPs raise the {eng} limit, "
                "or a machine with a higher ratio.",
                f"more {eng}s than allowed beside these CPs",
            )
        )
    return out


#: The engine's wording of an assumption, and how a customer reads it.
_CUSTOMER_WORDING = (
    (
        "0 % eligible assumed (all work on general-purpose CPs)",
        "none of the work is assumed eligible (all of it on CPs)",
    ),
    (
        "(unconfirmed: no IBM technical guide or announcement found states it for this generation)",
        "(assumed: the IBM technical guides and announcements consulted do not state it for this "
        "generation; confirm it with IBM before signing)",
    ),
)


#: The engine's and the published points' parameter names in words: an input by the label the
#: form and the reports give it (quoted, as a field to fill), a benchmark's condition in words.
_PARAMETER_WORDS: dict[str, str] = {
    **{key: f"\u201c{label}\u201d" for label, key, _ in INPUT_LABELS if "_" in key},
    "payload_bytes_max": "largest payload in bytes",
    "request_bytes": "request bytes",
    "response_bytes": "response bytes",
    "zaaps": "zAAPs",
    "ziips": "zIIPs",
}
_PARAMETER_NAME = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, _PARAMETER_WORDS), key=len, reverse=True)) + r")\b"
)


#: The engine's names of the parts whose CPU a source publishes (``models_lib.inputs.CPU_COMPONENTS``
#: and the parts an eligible share is published for), as a customer names them.
COMPONENT_WORDS: dict[str, str] = {
    "lpar": "LPAR",
    "cics": "CICS",
    "tor": "CICS TOR",
    "aor": "CICS AOR",
    "for": "CICS FOR",
    "smsvsam": "SMSVSAM",
    "cf": "coupling facility",
    "zosconnect": "z/OS Connect",
    "ctg": "CICS Transaction Gateway",
}
_PART = "|".join(sorted(map(re.escape, COMPONENT_WORDS), key=len, reverse=True))


def component_name(component: Any) -> str:
    """A part of the work as a customer names it ("lpar" reads "LPAR", "cics" "CICS")."""
    return COMPONENT_WORDS.get(str(component), str(component))


#: A part's name as the engine quotes it ('zosconnect', 'cics+ctg').
_QUOTED_PART = re.compile(rf"'((?:{_PART})(?:\+(?:{_PART}))*)'")
#: The part a fit is of, as the engine names it after its points: "4 published points (lpar)".
_FITTED_PART = re.compile(rf"(published points) \(({_PART})\)")
#: A part named in a sentence of the engine's ("LPAR = cics CPU x 1.164", "the cics part of each
#: transaction", "the published cics cost": models_lib.scope).
_NAMED_PART = re.compile(rf"(?<![\w/+-])(the|published|=) ({_PART}) (CPU|part|cost)\b")


def customer_wording(text: str) -> str:
    """An assumption, basis or warning sentence as a customer reads it: no internal search
    notes, no parameter names ("give cics_regions" reads "give \u201cCICS regions\u201d"), and
    the parts of the work by name ("published for 'zosconnect'" reads "published for z/OS
    Connect", "'cics+ctg'" reads "CICS + CICS Transaction Gateway")."""
    for engine_words, words in _CUSTOMER_WORDING:
        text = text.replace(engine_words, words)
    text = _QUOTED_PART.sub(lambda m: " + ".join(COMPONENT_WORDS[p] for p in m.group(1).split("+")), text)
    text = _FITTED_PART.sub(lambda m: f"{m.group(1)} ({COMPONENT_WORDS[m.group(2)]})", text)
    text = _NAMED_PART.sub(lambda m: f"{m.group(1)} {COMPONENT_WORDS[m.group(2)]} {m.group(3)}", text)
    text = _BARE_MIPS.sub(lambda m: f"{float(m.group(1)):,.1f} MIPS", text)
    text = _ONE_ENGINES.sub(r"\1 \2", text)
    return _PARAMETER_NAME.sub(lambda m: _PARAMETER_WORDS[m.group(1)], text)


#: A rating the engine writes without separators ("1217.9 MIPS per CP" in a projection's basis).
_BARE_MIPS = re.compile(r"(?<![\d,.])(\d{4,}\.\d) MIPS")
#: One engine the engine's text counts in the plural ("the 1 CPs and 2 zIIPs are rated ...").
_ONE_ENGINES = re.compile(r"(?<![\d,.])(1) (CP|zIIP|zAAP)s\b")


# -- who a report is prepared for and by -------------------------------------------------------

#: The longest customer name a report prints (the field's bound at the API and on the pages).
CUSTOMER_MAX_LENGTH = 120


def customer_problem(text: str) -> str | None:
    """Why ``text`` cannot be printed as the customer's name, or None when it can (already
    stripped): at most :data:`CUSTOMER_MAX_LENGTH` characters of printable text."""
    if len(text) > CUSTOMER_MAX_LENGTH:
        return f"At most {CUSTOMER_MAX_LENGTH} characters (got {count(len(text))})."
    if not text.isprintable():
        return "Printable text only: no line breaks, tabs or control characters."
    return None


def prepared_by(full_name: str, username: str, *, unnamed: str = "") -> str:
    """The engineer a report names: the account's full name, else its user name; ``unnamed`` (the
    local account of ``make run``, with no person behind it) gives way to any name set on it."""
    full = full_name.strip()
    if full:
        return full
    return "a zsizer user" if unnamed and username == unnamed else username


def prepared_line(customer: str, author: str) -> str:
    """ "Prepared for Bank A · Prepared by Ada Lovelace"; without a customer, only who prepared it
    (a report handed over without a name is not told it lacks one)."""
    parts = [f"Prepared for {customer}"] if customer.strip() else []
    return " \u00b7 ".join([*parts, f"Prepared by {author}"])


@dataclass(frozen=True)
class ProductNames:
    """Slugs as a customer reads them: "FiTeq Authenticator", "multi-region", "IBM z16 A01".
    An unknown slug prints as it is (a name, never an error)."""

    paths: Mapping[str, str]
    configurations: Mapping[tuple[str, str], str]
    machines: Mapping[str, str]

    def path(self, slug: Any) -> str:
        return self.paths.get(str(slug), str(slug))

    def configuration(self, path: Any, slug: Any) -> str:
        return self.configurations.get((str(path), str(slug)), str(slug))

    def machine(self, slug: Any) -> str:
        return self.machines.get(str(slug), str(slug))

    def workload(self, path: Any, configuration: Any) -> str:
        """ "FiTeq Authenticator, multi-region": a workload's path and configuration."""
        return f"{self.path(path)}, {self.configuration(path, configuration)}"

    def in_words(self, text: str, path: Any, configuration: Any) -> str:
        """An engine's message with the workload's slugs ("fiteq-authenticator/multi-region")
        written as its names."""
        return text.replace(f"{path}/{configuration}", self.workload(path, configuration))

    def workloads_in_words(self, text: str) -> str:
        """An engine's message with every known workload's slugs written as its names (a
        message may name another workload: z/OS Connect borrows "cicsts-catalog/v5.3"'s CICS
        cost); the longest slugs first, so that none is cut inside another."""
        for path, configuration in sorted(self.configurations, key=lambda k: -len(f"{k[0]}/{k[1]}")):
            if f"{path}/{configuration}" in text:
                text = self.in_words(text, path, configuration)
        return text


#: No names known: every slug prints as it is.
NO_NAMES = ProductNames({}, {}, {})


# -- a job's warnings --------------------------------------------------------------------------


def job_warnings(result: JobResult, names: ProductNames = NO_NAMES) -> list[WarningText]:
    """A job's warnings in the pages' sentences, as its page and its PDF say them: with the
    answer's numbers when the job has one answer, else the general sentence of each code (naming
    the generation's specialty engine; a batch's code the engine of its rows that have it); a
    mix's workload by its configuration's name."""
    estimate = result.estimate
    if estimate is not None and estimate.warnings and not result.warnings:
        return warnings(estimate, names=names)
    items = list(result.warnings)
    for w in result.workloads:
        named = names.configuration(w.path, w.configuration)
        items += [replace(x, message=f"{named}: {x.message}") for x in w.warnings]
    said = warnings(
        EstimateRecord.from_dict({}), extra=items, numbers=False, engine=result.specialty_engine, names=names
    )
    # a batch's codes once each, naming the engine of the rows that have it, with how many do
    return by_level([*said, *batch_warnings(result)])
