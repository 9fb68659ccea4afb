"""A plan's PDF proposal: the question, the recommendation, the run-out of each candidate, the
busy engines per period against each candidate's capacity, the table, each workload's basis and
sources.  The numbers are the stored answer (the plan's job result); nothing is recomputed."""

from __future__ import annotations

from typing import Any

from reportlab.platypus import Flowable, PageBreak

from sizing import presentation
from sizing.jobs.plan_cec import MachineCandidate
from sizing.models import Plan
from sizing.records import PlanCandidate, PlanQuestion, PlanResult, PlanWorkload
from sizing.reports.document import (
    DASH,
    Meta,
    data_table,
    disclaimer,
    escape,
    figure,
    heading,
    num,
    para,
    pct,
    render,
    styles,
    title_block,
)
from sizing.reports.plan_cec import machine_section, specialty_engine
from sizing.reports.plots import CAPACITY, PALETTE, TARGET, Bars, Guide, draw_bars
from sizing.selectors.plans import plan_sources, workload_names

#: Charts drawn in the PDF (the table and the CSV carry every candidate).
MAX_CHARTS = 8


def _period_text(result: PlanResult, p: int | None, none: str = "lasts the horizon") -> str:
    if p is None:
        return none
    return str(result.periods[p - 1].label).lower()


def _run_out_range(result: PlanResult, earliest: int | None, latest: int | None) -> str:
    """When a candidate runs out at the ends of the engine's cost range, in words: "year 1 to
    beyond the horizon", "year 2", "lasts the horizon" (no "beyond .. beyond")."""
    low, high = _period_text(result, earliest, ""), _period_text(result, latest, "")
    if not low:
        return _period_text(result, None)
    return low if low == high else f"{low} to {high or 'beyond the horizon'}"


def _growth(w: PlanWorkload, period: str) -> str:
    if w.growth_tps is not None:
        return f"{presentation.rate(w.growth_tps)} a {period}"
    return f"{num(w.growth_pct or 0, 1)} % a year"


def question_section(
    plan: Plan, result: PlanResult, names: presentation.ProductNames = presentation.NO_NAMES
) -> list[Flowable]:
    inputs = PlanQuestion.from_dict(plan.inputs)
    last = result.periods[-1]
    out: list[Flowable] = heading("The question")
    rows = [
        (
            names.workload(w.path, w.configuration),
            presentation.rate(w.tps, ""),
            num(w.peak_ratio or 1, 2),
            _growth(w, inputs.period),
            presentation.rate(last.workloads[i].tps_peak, ""),
        )
        for i, w in enumerate(inputs.workloads)
    ]
    out.append(
        data_table(
            ["Workload", "Average TPS today", "Peak / average", "Growth", f"Peak TPS, {last.label.lower()}"],
            rows,
            widths=[0.34, 0.16, 0.14, 0.18, 0.18],
            numeric=[False, True, True, False, True],
        )
    )
    ceiling = result.candidates[0].periods[0].ceiling
    out.append(
        para(
            f"Over {inputs.horizon} {inputs.period}s on {len(inputs.candidate_labels)} candidates: "
            + ", ".join(escape(label) for label in inputs.candidate_labels)
            + f". CP and {specialty_engine(result.candidates)} utilisation ceiling: {pct(ceiling)}.",
            styles().small,
        )
    )
    return out


def recommendation_section(result: PlanResult) -> list[Flowable]:
    out: list[Flowable] = heading("Recommendation")
    out.append(para(f"<b>{escape(result.recommendation)}</b>"))
    rows = []
    for c in result.candidates:
        installed = ", ".join(f"{model}: {num(msu)}" for model, msu in c.models) or DASH
        rows.append(
            (
                c.label,
                installed,
                _period_text(result, c.runs_out),
                _run_out_range(result, c.runs_out_earliest, c.runs_out_latest),
            )
        )
    out.append(
        data_table(
            ["Candidate", "Installed MSU", "Runs out in", "Range (engine's cost range)"],
            rows,
            widths=[0.22, 0.34, 0.18, 0.26],
        )
    )
    return out


def _named_label(text: str, names: presentation.ProductNames) -> str:
    """A workload's label, "path/configuration", in product names."""
    return names.workload(*text.split("/", 1)) if "/" in text else text


def chart(
    result: PlanResult, candidate: PlanCandidate, names: presentation.ProductNames = presentation.NO_NAMES
) -> Flowable:
    periods = candidate.periods
    named = [w.name or _named_label(w.label, names) for w in result.periods[0].workloads]
    # short keys in the legend (W1, W2, ...), the workloads' names under the chart: a legend of
    # full product names runs off the chart
    labels = [f"W{i}" for i in range(1, len(named) + 1)]
    stacks = []
    for i, label in enumerate(labels):
        color = PALETTE[i % len(PALETTE)]
        stacks.append((f"{label} CP", [q.workloads[i].gcp_busy for q in periods], color))
    for i, label in enumerate(labels):
        color = PALETTE[(i + len(labels)) % len(PALETTE)]
        stacks.append((f"{label} {candidate.specialty}", [q.workloads[i].ziip_busy for q in periods], color))
    last = periods[-1]
    guides = [
        Guide("y", last.cps, f"{last.cps} CPs ({last.model})", CAPACITY),
        Guide("y", last.cps * last.ceiling, f"CP ceiling {pct(last.ceiling)}", TARGET),
    ]
    if last.ziips:
        guides.append(
            Guide(
                "y",
                last.cps + last.ziips,
                f"{presentation.plural(last.cps, 'CP')} + {presentation.plural(last.ziips, candidate.specialty)}",
                CAPACITY,
            )
        )
    categories = [
        f"{q.label.replace('Year ', 'Y').replace('Quarter ', 'Q')}{'' if p.holds else ' (out)'}"
        for q, p in zip(result.periods, periods, strict=True)
    ]
    drawing = draw_bars(Bars(categories=categories, stacks=stacks, y_label="Busy engines", guides=guides))
    runs = _period_text(result, candidate.runs_out)
    return figure(
        drawing,
        f"{escape(candidate.label)}: busy CPs and {candidate.specialty}s per period, stacked by workload, against "
        f"the capacity and ceiling of the last period; runs out: {escape(runs)}. "
        + "; ".join(f"{key}: {escape(name)}" for key, name in zip(labels, named, strict=True))
        + ".",
    )


def table_section(result: PlanResult) -> list[Flowable]:
    out: list[Flowable] = heading("Per period")
    engine = specialty_engine(result.candidates)
    # both generations among the candidates: each row's count is its own engine (a narrow
    # column wraps between words, never inside one)
    many, busy = (
        (f"{engine}s", f"{engine} busy") if engine != "specialty engine" else ("zAAPs or zIIPs", "zAAP or zIIP busy")
    )
    rows = []
    for c in result.candidates:
        for q, p in zip(c.periods, result.periods, strict=True):
            rows.append(
                (
                    c.label,
                    p.label,
                    q.model,
                    num(q.cps),
                    num(q.ziips),
                    pct(q.gcp_utilization, 1),
                    pct(q.ziip_utilization, 1) if q.ziip_utilization is not None else DASH,
                    num(q.msu_consumed),
                    "yes" if q.holds else " ".join(q.reasons),
                )
            )
    out.append(
        data_table(
            [
                "Candidate",
                "Period",
                "Model",
                "CPs",
                many,
                "CP busy",
                busy,
                "MSU used",
                "Carries the peak",
            ],  # fmt: skip
            rows,
            widths=[0.15, 0.08, 0.1, 0.06, 0.06, 0.08, 0.08, 0.09, 0.30],
            numeric=[False, False, False, True, True, True, True, True, False],
            compact=True,
        )
    )
    return out


def sources_section(
    plan: Plan, result: PlanResult, names: presentation.ProductNames = presentation.NO_NAMES
) -> list[Flowable]:
    out: list[Flowable] = heading("Each workload's basis and sources")
    rows = [
        (names.workload(w.path, w.configuration), w.name, "; ".join(w.sources) or DASH)
        for w in (PlanWorkload.from_dict(x) for x in plan_sources(inputs=plan.inputs))
    ]
    out.append(data_table(["Workload", "Configuration", "Sources"], rows, widths=[0.26, 0.3, 0.44]))
    first = result.candidates[0]
    notes = [
        (names.workload(w.path, w.configuration), code, names.in_words(message, w.path, w.configuration))
        for w, basis in zip(PlanQuestion.from_dict(plan.inputs).workloads, first.basis, strict=False)
        for code, message in basis
    ]
    if notes:
        out.append(
            para(f"The engine's notes on each workload's basis ({escape(first.label)}, first period):", styles().small)
        )
        out.append(data_table(["Workload", "Note", "What it means"], notes, widths=[0.2, 0.2, 0.6], compact=True))
    eng = specialty_engine(result.candidates)
    out.append(
        para(
            "Each period is the same question as the mix job (several workloads on one LPAR) at that period's peaks: "
            f"the engine's cost model of each workload, LSPR-projected to the candidate, its {eng}-eligible work "
            f"pooled on the {eng}s. The run-out range takes the engine's per-transaction CPU range: its high end runs out "
            "earliest, its low end latest.",
            styles().small,
        )
    )
    return out


def summary_section(plan: Plan, result: PlanResult, names: presentation.ProductNames) -> list[Flowable]:
    """Page 1: the question, the recommendation (the answer and the configuration to sign for),
    each candidate's run-out, and one chart: the first candidate that lasts the horizon."""
    inputs = PlanQuestion.from_dict(plan.inputs)
    workloads = "; ".join(names.workload(w.path, w.configuration) for w in inputs.workloads)
    question = (
        f"{presentation.plural(len(inputs.workloads), 'workload')} ({workloads}) over {inputs.horizon} "
        f"{inputs.period}s, growing: which of the {presentation.count(len(inputs.candidate_labels))} candidates "
        "carries the peaks, and until when, for the fewest MSU installed."
    )
    out: list[Flowable] = [*heading("Summary"), para(f"<b>The question.</b> {escape(question)}")]
    out += recommendation_section(result)
    candidates = [c for c in result.candidates if c.kind != "cec"]  # a machine: drawn in its section
    lasting = next((c for c in candidates if all(q.holds for q in c.periods)), None)
    shown = lasting or (candidates[0] if candidates else None)
    if shown is not None:
        out.append(chart(result, shown, names))
    return out


def plan_pdf(
    *,
    plan: Plan,
    result: dict[str, Any],
    author: str | None = None,
    customer: str = "",
    names: presentation.ProductNames = presentation.NO_NAMES,
) -> bytes:
    """The PDF proposal of an answered plan, prepared by ``author`` (default: the owner's user
    name) for ``customer`` (none named: "")."""
    author = author or plan.owner.get_username()
    answer = PlanResult.from_dict(result)
    story: list[Flowable] = title_block(
        title=f"Capacity plan: {plan.name}",
        scenario=f"{len(PlanQuestion.from_dict(plan.inputs).workloads)} workloads over {plan.horizon} {plan.period}s",
        author=author,
        created=plan.created_at,
        customer=customer,
    )
    story += [*summary_section(plan, answer, names), PageBreak()]
    story += question_section(plan, answer, names)
    drawn = [c for c in answer.candidates[:MAX_CHARTS] if c.kind != "cec"]  # a machine: its own section
    if drawn:
        story += heading("Busy engines per period")
    for candidate in drawn:
        story.append(chart(answer, candidate, names))
    for candidate in answer.candidates:
        if candidate.kind == "cec":
            mine = MachineCandidate.from_dict(candidate.json)
            story += machine_section(mine, period=plan.period, workloads=workload_names(inputs=plan.inputs))
    story += table_section(answer)
    story += sources_section(plan, answer, names)
    story += disclaimer()
    meta = Meta(title=f"Capacity plan: {plan.name}", author=author, created=plan.created_at, customer=customer)
    return render(story, meta)
