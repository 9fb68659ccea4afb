"""The sections of a saved estimate's report, and of a comparison of two or three.

Every number printed comes from the stored estimate (``Estimate.outputs``, the engine's answer
as it was saved) or, for the charts, from ``sizing.services.charts.chart_data`` (the numbers the
estimate page draws); the basis tables from ``sizing.selectors.report_basis``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from reportlab.platypus import Flowable, KeepTogether, PageBreak

from sizing import presentation
from sizing.records import (
    BasisRecord,
    CapacityRecord,
    ChartData,
    CpuChart,
    DemandChart,
    EstimateInputs,
    EstimateRecord,
    FitRecord,
    ProjectionRecord,
    ResponseChart,
)
from sizing.reports.document import (
    DASH,
    DECISION,
    DIFFERS_FILL,
    NONE_BESIDES_DECISIONS,
    data_table,
    escape,
    figure,
    finite,
    heading,
    key_values,
    num,
    para,
    pct,
    styles,
    warning_list,
    warning_reasons,
)
from sizing.reports.plots import BAND, CAPACITY, PALETTE, TARGET, Bars, Guide, Plot, Series, draw_bars, draw_plot
from sizing.selectors.report_basis import ReportBasis

#: What an answer without a capacity block, a fit or a projection prints from (every figure missing).
_NO_CAPACITY = CapacityRecord(None, None, None, None)
_NO_FIT = FitRecord(None, None, None, None)
_NO_PROJECTION = ProjectionRecord(None, None, None)

#: Input fields in the order an engineer reads them: (label, key, unit), as the pages show them.
INPUT_LABELS = presentation.INPUT_LABELS


@dataclass(frozen=True)
class EstimateSubject:
    """A saved estimate as a report needs it (no database access past this point)."""

    id: int
    name: str
    path_name: str
    configuration_name: str
    machine_name: str
    inputs: dict[str, Any]
    outputs: dict[str, Any]
    model_version: str
    saved: str
    private_data: bool

    @property
    def question(self) -> EstimateInputs:
        """The saved question, typed (a saved estimate's inputs: validated, with a rate)."""
        return EstimateInputs.from_dict(self.inputs)

    def record(self, software_limit_tps: float | None = None) -> EstimateRecord:
        """The saved answer with its question, typed; ``software_limit_tps`` where the charts know it."""
        return EstimateRecord.from_dict(
            {"inputs": self.inputs, **self.outputs, "software_limit_tps": software_limit_tps}
        )


def scenario_name(e: EstimateSubject) -> str:
    """The estimate's name, or its question in product and machine names (never slugs)."""
    return e.name or f"{e.path_name}, {e.configuration_name} on {e.machine_name}"


def _input_value(key: str, value: Any, unit: str) -> str:
    return presentation.input_value(key, value, unit)


def question_rows(e: EstimateSubject) -> list[tuple[str, str]]:
    names = {"path": e.path_name, "configuration": e.configuration_name, "machine": e.machine_name}
    question = e.question
    return [
        (label, names.get(key) or _input_value(key, getattr(question, key), unit))
        for label, key, unit in INPUT_LABELS
        if getattr(question, key) is not None
    ]


def engine_name(outputs: EstimateRecord | Mapping[str, Any]) -> str:
    """zIIP or zAAP: the specialty engine the engine sized on this machine."""
    return presentation.engine_name(outputs)


def answer_rows(answer: EstimateRecord | Mapping[str, Any]) -> list[tuple[str, str, str, str]]:
    """(quantity, value, range or bound, how) for the answer table, in the words of the pages
    (:mod:`sizing.presentation`)."""
    o = answer if isinstance(answer, EstimateRecord) else EstimateRecord.from_dict(answer)
    eng = o.specialty_engine
    cps_f, ziips_f = presentation.cps_figure(o), presentation.ziips_figure(o)
    rt_f, sat_f = presentation.response_figure(o), presentation.saturation_figure(o)
    cap = o.capacity or _NO_CAPACITY
    busy = o.busy_cps
    binding = o.binding_resource
    model = cap.model
    if o.feasibility.reason == "no-cpu-data":
        # No CPU figures: what is known, not a table of dashes beside the basis of numbers that
        # do not exist ("sized to the ceiling, fewest CPs, \u2014 MSU installed").
        return [
            ("CPs required", cps_f.value, "", "no CPU figures are published for this path"),
            ("Response time", rt_f.value, rt_f.spread, rt_f.note),
            ("Saturation", sat_f.value, sat_f.spread, sat_f.note),
        ]
    cpu = presentation.cpu_per_tran_figure(o)
    evaluated = presentation.evaluated_note(o)  # does not fit: the model evaluated, not a quote
    alternative = presentation.alternative_text(o)
    # a configuration that does not carry the rate is evaluated, not sized: no "sized to the
    # ceiling, fewest CPs, ... MSU installed" beside a count that is not quoted
    quoted = o.feasibility.feasible is not False or o.cps_required is not None
    how = (
        "sized to the ceiling, " + presentation.chosen_text(o)
        if quoted
        else NOT_SHOWN_QUOTED
        if presentation.carried_floor(o)
        else NOT_QUOTED
    )
    rows = [
        (
            "CPs required",
            cps_f.value,
            cps_f.spread,
            how + (f"; {alternative}" if alternative else ""),
        ),
        (
            f"{eng}s required",
            ziips_f.value,
            ziips_f.spread,
            # the rules' cap beside the CPs evaluated ("at most 4 beside these 2 CPs"), never "on
            # this machine": a does-not-fit answer's model is evaluated, not quoted, and its cap
            # (none beside 101 CPs) is not the machine's
            presentation.specialty_cap_text(o)
            if quoted
            else "; ".join(filter(None, ("none quoted (page 1)", presentation.specialty_cap_text(o)))),
        ),
        (
            "Model and capacity setting",
            f"{model} (setting {cap.capacity_setting})" if model else DASH,
            "",
            "; ".join(filter(None, ("LSPR table", evaluated))),
        ),
        (
            "MIPS (CPs, used)",
            num(o.mips),
            "",
            "; ".join(filter(None, (f"of {num(cap.cp_mips_installed)} installed", evaluated))),
        ),
        (
            "MSU (CPs, used)",
            num(o.msu),
            "",
            "; ".join(filter(None, (f"of {num(cap.cp_msu_installed)} installed", evaluated))),
        ),
        (
            f"{eng} MIPS (used)",
            num(o.ziip_mips),
            "",
            f"of {num(cap.specialty_mips_installed)} installed; not priced in MSU",
        ),
        *(
            [
                (
                    "ICF busy (coupling facility)",
                    num(cap.icf_busy, 3),
                    "",
                    "own ICF engines, outside the LPAR; not in the CPs sized",
                )
            ]
            if cap.has_icf
            else []
        ),
        ("CP utilisation", pct(o.gcp_utilization), "", f"ceiling {pct(o.max_utilization)}"),
        (f"{eng} utilisation", pct(o.ziip_utilization), "", ""),
        ("CPU per transaction", cpu.value, cpu.spread, cpu.note),
        (
            "Busy engines",
            num(busy.total, 2),
            "",
            f"CPs {num(busy.gcp, 2)} (of which {eng}-eligible {num(busy.ziip_on_gcp, 2)}), {eng}s {num(busy.ziip, 2)}",
        ),
        (
            "Response time",
            rt_f.value,
            rt_f.spread,
            rt_f.note,
        ),
        ("Saturation", sat_f.value, sat_f.spread, sat_f.note),
        (
            "Knee",
            presentation.bound_rate(o.knee_tps, o.saturation_kind),
            "",
            "response time doubles its low-load value",
        ),
        (
            "Binding resource at the target",
            str((binding.label if binding is not None else "") or DASH),
            "",
            f"at {pct(binding.utilization if binding is not None else None)}",
        ),
    ]
    return rows


def decisions_block(o: EstimateRecord | Mapping[str, Any]) -> list[Flowable]:
    """ "Before you sign this": the decision-level warnings in the sentences the pages use."""
    decisions = presentation.warnings_by_level(o)["decisions"]
    if not decisions:
        return []
    color = DECISION.hexval()
    out: list[Flowable] = [para(f'<font color="{color}"><b>Before you sign this</b></font>')]
    out += [para(f'<font color="{color}">\u2022 {escape(w.sentence)}</font>') for w in decisions]
    return out


#: The answer's pointer to the decisions, said once on page 1.
DECISIONS_ABOVE = 'The decisions to sign for this answer are on page 1, under "Before you sign this".'
#: The basis of a CP count that does not carry the rate.
NOT_QUOTED = "none quoted: no configuration of this target carries the rate (page 1)"
#: The same where what the target carries is a floor (``presentation.carried_floor``).
NOT_SHOWN_QUOTED = (
    "none quoted: the published figures do not show a configuration of this target carries the rate (page 1)"
)


def answer_section(e: EstimateSubject, software_limit_tps: float | None = None) -> list[Flowable]:
    o = e.record(software_limit_tps)
    s = styles()
    out: list[Flowable] = heading("The answer")
    eng = o.specialty_engine
    cap = o.capacity or _NO_CAPACITY
    fit = o.feasibility
    tps = e.question.tps
    if fit.feasible is False:
        # Does not fit: no CPs or zIIPs are quoted; why, and the most the target carries, are said
        # once, under "Before you sign this" on page 1.
        verdict = presentation.verdict_words(o)
        summary = f"At <b>{presentation.rate(tps)}</b> on {escape(e.machine_name)}: <b>{verdict}</b>; no CPs or {eng}s are quoted."
    elif fit.feasible is None and fit.message:
        # No CPU figures, no CPU verdict (issue 32 item 4): the reason and what is known.
        summary = f"At <b>{presentation.rate(tps)}</b> on {escape(e.machine_name)}: {escape(fit.message)}."
    else:
        summary = (
            f"At <b>{presentation.rate(tps)}</b> on {escape(e.machine_name)}: <b>{num(o.cps_required)} CPs</b> and "
            f"<b>{num(o.ziips_required)} {eng}s</b>"
            + (f" ({escape(cap.model)})" if cap.model else "")
            + f", {num(o.mips)} MIPS, {num(o.msu)} MSU."
        )
    out.append(para(summary))
    if presentation.warnings_by_level(o)["decisions"]:
        # said once, on page 1 (summary_section); a pointer here, not the same sentences again
        out.append(para(DECISIONS_ABOVE))
    if e.private_data:
        out.append(
            para("<b>Calibrated with the customer's own measurements</b> (private data), not published benchmarks.")
        )
    out.append(
        data_table(
            ["Quantity", "Value", "Range or bound", "Basis"],
            answer_rows(o),
            widths=[0.25, 0.15, 0.2, 0.4],
            numeric=[False, True, True, False],
        )
    )
    out.append(
        para(
            "A 95% interval is the prediction interval of a cost model fitted to published measurements, carried "
            "through the sizing; a range is the spread of published bounds or ratios; a bound is marked as one.",
            s.small,
        )
    )
    return out


# -- charts ------------------------------------------------------------------------------------


def cpu_plot(given: CpuChart | Mapping[str, Any], target_label: str) -> Plot:
    chart = given if isinstance(given, CpuChart) else CpuChart.from_dict(given)
    plot = Plot("Transactions per second", f"Busy CPs on {target_label}")
    line = chart.line
    if line:
        fitted = line.interval_basis != "published bounds"
        plot.series.append(
            Series(
                "95% band" if fitted else "published range",
                line.etr,
                line.low,
                color=BAND,
                width=0.8,
                dash=(2, 2),
            )
        )
        plot.series.append(Series("", line.etr, line.high, color=BAND, width=0.8, dash=(2, 2)))
        plot.series.append(
            Series(
                f"fitted line ({chart.component_label})" if fitted else "cost from published bounds",
                line.etr,
                line.busy_cps,
                color=PALETTE[0],
            )
        )
    points = chart.points
    if points:
        plot.series.append(
            Series(
                f"published ({points[0].source})",
                [p.tps for p in points],
                [p.busy_cps for p in points],
                color=PALETTE[2],
                line=False,
                markers=True,
            )
        )
    bounds = chart.bounds
    if bounds:
        plot.series.append(
            Series(
                "published bounds",
                [b.tps for b in bounds],
                [b.busy_cps for b in bounds],
                color=PALETTE[3],
                line=False,
                markers=True,
            )
        )
    target = chart.target
    if finite(target.busy_cps) is not None:
        plot.series.append(
            Series(
                f"target {presentation.rate(target.tps)}",
                [target.tps],
                [target.busy_cps],
                color=TARGET,
                line=False,
                markers=True,
            )
        )
    cap = chart.capacity
    engines, level = finite(cap.engines), finite(cap.ceiling)
    if engines:
        # The answer's capacity line: CPs plus specialty engines, as the target's busy engines count them.
        plot.guides.append(Guide("y", engines, str(cap.label or f"{num(engines)} engines"), CAPACITY))
        if level:
            plot.guides.append(Guide("y", level, str(cap.ceiling_label or "ceiling"), TARGET))
    return plot


def response_plot(given: ResponseChart | Mapping[str, Any], target_label: str) -> Plot:
    chart = given if isinstance(given, ResponseChart) else ResponseChart.from_dict(given)
    plot = Plot("Transactions per second", "Response time, ms")
    curve, lower = chart.curve, chart.lower_bound
    if curve:
        plot.series.append(Series(f"model ({target_label})", curve.tps, curve.response_ms, color=PALETTE[0]))
    if lower:
        plot.series.append(
            Series(
                "time at the engines (a lower bound)",
                lower.tps,
                lower.response_ms,
                color=PALETTE[4],
                width=1.0,
                dash=(4, 2),
            )
        )
    target = chart.target
    if finite(target.response_time_ms) is not None:
        plot.series.append(
            Series(
                f"target {presentation.rate(target.tps)}",
                [target.tps],
                [target.response_time_ms],
                color=TARGET,
                line=False,
                markers=True,
            )
        )
    plot.series += lower_bound_target(chart)
    knee, saturation, goal = finite(chart.knee_tps), finite(chart.saturation_tps), finite(chart.goal_ms)
    if knee:
        plot.guides.append(Guide("x", knee, f"knee {num(knee)}", PALETTE[3]))
    if saturation:
        plot.guides.append(Guide("x", saturation, f"saturation {num(saturation)}", CAPACITY))
    if goal:
        plot.guides.append(Guide("y", goal, f"goal {num(goal)} ms", TARGET))
    # Near saturation the response time grows without bound: keep the axis on the useful part
    # (four times the low-load response time, and the target and goal in view).
    ys = [v for s in plot.series for v in map(finite, s.y) if v is not None]
    shown = curve or lower
    first = next((v for v in map(finite, shown.response_ms if shown else []) if v is not None), None)
    if ys and first:
        keep = [
            4 * first,
            1.3 * (finite(target.response_time_ms) or 0.0),
            1.3 * (goal or 0.0),
        ]
        plot.y_max = min(max(ys) * 1.05, max(keep))
    return plot


def lower_bound_target(chart: ResponseChart) -> list[Series]:
    """The target's marker where only a lower bound is known: the answer's "≥" (its card's), on
    the line of that lower bound at every rate (:func:`sizing.services.charts.response_chart`)."""
    mark = None if chart.curve else chart.target_bound
    if mark is None:
        return []
    x, y = mark
    return [Series(f"target: \u2265 {num(y, 3)} ms", [x], [y], color=TARGET, line=False, markers=True)]


def demand_bars(given: DemandChart | Mapping[str, Any], eng: str) -> Bars:
    demand = given if isinstance(given, DemandChart) else DemandChart.from_dict(given)
    gcp, spill, ziip = (finite(v) or 0.0 for v in (demand.gcp_work, demand.ziip_on_gcp, demand.ziip))
    bars = Bars(
        categories=["CPs", f"{eng}s"],
        stacks=[
            ("work on CPs", [gcp, 0.0], PALETTE[0]),
            (f"{eng}-eligible on CPs", [spill, 0.0], PALETTE[3]),
            (f"work on {eng}s", [0.0, ziip], PALETTE[2]),
        ],
        y_label="Busy engines",
    )
    cps, ziips = finite(demand.cps), finite(demand.ziips)
    if cps:
        bars.guides.append(Guide("y", cps, f"{num(cps)} CPs", CAPACITY))
    if ziips:
        bars.guides.append(Guide("y", ziips, f"{num(ziips)} {eng}s", PALETTE[2]))
    return bars


def _plotted(plot: Plot | Bars) -> bool:
    """Whether a chart has anything to draw: a finite point, or a bar above zero (an empty chart
    would print bare 0-1 axes)."""
    if isinstance(plot, Bars):
        return any(v > 0 for _, values, _ in plot.stacks for v in values)
    return any(
        finite(x) is not None and finite(y) is not None for s in plot.series for x, y in zip(s.x, s.y, strict=True)
    )


#: What the charts section says where the path publishes no CPU figures (HostBridge).
NO_CPU_CHARTS = (
    "No charts: this path publishes no CPU figures, so there is no busy-CPU, response-time or engine chart to draw."
)


def chart_section(
    chart_data: ChartData | Mapping[str, Any] | None, eng: str, note: str = "", has_cpu_data: bool = True
) -> list[Flowable]:
    out: list[Flowable] = heading("Charts")
    if chart_data is None:
        out.append(para(escape(note or "The charts could not be drawn for this estimate."), styles().small))
        return out
    chart = chart_data if isinstance(chart_data, ChartData) else ChartData.from_dict(chart_data)
    label = _target_label(chart)
    cpu, response = cpu_plot(chart.cpu, label), response_plot(chart.response, label)
    bars = demand_bars(chart.demand or DemandChart.from_dict({}), eng)
    line = chart.cpu.line
    how = (
        "the cost from published bounds, with the published range"
        if line is not None and line.interval_basis == "published bounds"
        else "the fitted line projected with the LSPR factor, with the 95% band"
    )
    figures: list[tuple[Plot | Bars, str]] = [
        (
            cpu,
            f"Busy CPs against transaction rate on the target LPAR: published points and {how}, the CPs and the "
            "utilisation ceiling.",
        ),
        (
            response,
            "Response time against transaction rate on the target LPAR, with the knee, saturation and the goal "
            "when one was given.",
        ),
        (bars, f"Busy engines on CPs and {eng}s at the target rate."),
    ]
    if not has_cpu_data:  # no CPU figures (HostBridge): only a chart with something on it
        figures = [(plot, caption) for plot, caption in figures if _plotted(plot)]
        if not figures:
            out.append(para(escape(NO_CPU_CHARTS), styles().small))
            return out
    drawn = [
        figure(draw_bars(plot, height=150) if isinstance(plot, Bars) else draw_plot(plot), caption)
        for plot, caption in figures
    ]
    note_drawn = para(
        "Drawn with the current model from the estimate's inputs, as the estimate page draws them.", styles().small
    )
    # the heading, its note and the first chart on one page: never a heading alone at a page foot
    return [out[0], KeepTogether([*out[1:], note_drawn, drawn[0]]), *drawn[1:]]


# -- basis and sources -------------------------------------------------------------------------


def _basis_of(o: BasisRecord | EstimateRecord | Mapping[str, Any]) -> BasisRecord:
    """The basis block: given, an answer's, or read from an answer's JSON."""
    if isinstance(o, BasisRecord):
        return o
    return o.basis if isinstance(o, EstimateRecord) else EstimateRecord.from_dict(o).basis


def model_rows(o: BasisRecord | EstimateRecord | Mapping[str, Any], basis: ReportBasis) -> list[tuple[str, str]]:
    b = _basis_of(o)
    m, p = b.model, b.projection
    rows: list[tuple[str, str]] = []
    if m is not None and m != _NO_FIT:
        rows += [
            (
                "Cost model (measured machine)",
                f"busy CPs = {num(m.intercept_cps, 4)} + {num(m.slope_ms, 4)} CP-ms per transaction x TPS / 1000 ({presentation.component_name(m.component)})",
            ),
            (
                "Fit",
                f"R\u00b2 {num(m.r2, 4)}, n = {num(m.n)}, ETR {presentation.span(m.etr_min, m.etr_max, 0, 'TPS') or presentation.rate(m.etr_min)}, weighting {str(m.weighting or DASH)}",
            ),
            (
                "Standard errors",
                f"slope {num(m.slope_se_ms, 4)} CP-ms, intercept {num(m.intercept_se_cps, 4)} CPs, residual {num(m.residual_std_cps, 4)} CPs ({str(m.interval_basis or '')})",
            ),
        ]
    if basis.loo_median_abs_error is not None:
        rows.append(
            (
                "Leave-one-out error",
                f"median |error| {pct(basis.loo_median_abs_error, 1)} over the {presentation.component_name(basis.loo_component or '')} points",
            )
        )
    if p is not None and p != _NO_PROJECTION:
        rows.append(
            (
                "LSPR projection",
                f"{p.from_machine_type} with {presentation.plural(p.from_cps, 'CP')} to {p.to_machine_type} with "
                f"{presentation.plural(p.to_cps, 'CP')}: factor {num(p.factor, 4)} (specialty engines "
                f"{num(p.specialty_factor, 4)}), capacity setting {p.capacity_setting}",
            )
        )
        rows.append(("Ratings source", str(p.source or "")))
    origin = b.data_origin
    if origin:
        rows.append(("Data origin", str(origin)))
    cal = b.calibration
    if cal is not None:
        rows.append(
            (
                "Customer data",
                f"calibration '{cal.name}' (#{cal.id}): {cal.intervals} intervals measured on a "
                f"{cal.current_model} with {cal.cps} CPs (private, not published)",
            )
        )
    return rows


def basis_section(
    o: BasisRecord | EstimateRecord | Mapping[str, Any],
    basis: ReportBasis,
    seen: set[str] | None = None,
    names: presentation.ProductNames | None = None,
) -> list[Flowable]:
    """The model, points, ratings, statements and assumptions; a clause already printed (in
    ``seen``, which this adds to) is not printed again."""
    s = styles()
    out: list[Flowable] = heading("Model basis")
    rows = model_rows(o, basis)
    if rows:
        out.append(key_values(rows, key_width=0.22))
    if basis.points:
        out += heading("Published points used", 2)
        out.append(
            data_table(
                ["Row", "Source", "Table or figure", "ETR, TPS", "LPAR CPs", "Response, ms", "Leave-one-out error"],
                [
                    (
                        # the source's own row of its table (never the database's id); the page
                        # only where the source's reference gives it
                        p.row or DASH,
                        p.source,
                        presentation.plain_reference(p.table) + (f", p. {p.page}" if p.page else ""),
                        num(p.etr, 1),
                        num(p.lpar_cps),
                        num(p.response_time_ms, 2),
                        pct(p.loo_relative_error, 1),
                    )
                    for p in basis.points
                ],
                widths=[0.07, 0.2, 0.25, 0.12, 0.09, 0.12, 0.15],
                numeric=[True, False, False, True, True, True, True],
            )
        )
    if basis.ratings:
        out += heading("LSPR ratings", 2)
        out.append(
            data_table(
                ["Model", "Setting", "CPs", "MIPS", "MSU", "Source"],
                [(r.model, r.capacity_setting, r.cps, num(r.mips), num(r.msu), r.source) for r in basis.ratings],
                widths=[0.14, 0.1, 0.08, 0.12, 0.1, 0.46],
                numeric=[False, False, True, True, True, False],
            )
        )
    said = seen if seen is not None else set()
    statements = [
        (ref, presentation.fresh(presentation.customer_wording(text), said)) for ref, text in basis.statements
    ]
    if any(text for _, text in statements):
        out += heading("Published statements used", 2)
        out += [
            para(f"<b>{escape(presentation.plain_reference(ref))}</b>: {escape(text)}", s.small)
            for ref, text in statements
            if text
        ]
    assumptions = [presentation.fresh(a, said) for a in presentation.assumption_texts(_basis_of(o).assumptions, names)]
    if any(assumptions):
        out += heading("Assumptions", 2)
        out += [para("\u2022 " + escape(a), s.small) for a in assumptions if a]
    return out


def sources_section(
    basis: ReportBasis, warnings: Sequence[presentation.WarningText] = (), seen: set[str] | None = None
) -> list[Flowable]:
    """The documents the numbers came from, then the engine's reasoning behind the warnings."""
    s = styles()
    out: list[Flowable] = heading("Sources")
    if not basis.sources:
        out.append(para("No published source behind this answer.", s.small))
    for src in basis.sources:
        made = ", ".join(x for x in (src.publisher, src.published) if x)
        number = f" {escape(src.identifier)}" if src.identifier else ""
        out.append(para(f"<b>{escape(src.title)}</b>{f' ({escape(made)})' if made else ''}.{number}"))
    said = seen if seen is not None else set()
    fresh = [replace(w, details=presentation.fresh(w.details, said)) for w in warnings if w.details]
    return out + warning_reasons([w for w in fresh if w.details])


def question_sentence(e: EstimateSubject) -> str:
    """The question in product and machine names: "FiTeq Authenticator, multi-region on IBM z16 A01
    at 8,000 TPS"."""
    question = EstimateInputs.from_dict(e.inputs)  # a saved estimate's inputs: validated, with a rate
    cps = f" with {presentation.plural(question.cps, 'CP')} given" if question.cps is not None else ""
    return f"{e.path_name}, {e.configuration_name} on {e.machine_name}{cps} at {presentation.rate(question.tps)}"


def advice_items(o: EstimateRecord | Mapping[str, Any], chart_data: ChartData | None) -> list[str]:
    """What would help (the binding resource's advice): the chart data's, which knows the software
    limit, else the answer's own."""
    if chart_data is not None and chart_data.advice is not None:
        return list(chart_data.advice)
    return [a.sentence for a in presentation.advice(o)]


def summary_section(e: EstimateSubject, chart_data: ChartData | Mapping[str, Any] | None) -> list[Flowable]:
    """Page 1: the question, the answer, the recommended configuration, the decisions to sign, what
    would help and one chart."""
    chart = chart_data if isinstance(chart_data, ChartData) or chart_data is None else ChartData.from_dict(chart_data)
    record = e.record(None if chart is None else chart.software_limit_tps)
    eng = record.specialty_engine
    cap = record.capacity
    fit = record.feasibility
    out: list[Flowable] = [*heading("Summary"), para(f"<b>The question.</b> {escape(question_sentence(e))}.")]
    decisions = decisions_block(record)
    # no CPU data: the decision below says why and what is known, so the answer does not say it too
    no_cpu = record.cps_required is None and fit.feasible is None and decisions
    answer = "No CPs can be quoted." if no_cpu else answer_sentence(record)
    out.append(para(f"<b>The answer.</b> {escape(answer)}"))
    if cap is not None and cap.model and fit.feasible is not False and record.cps_required is not None:
        ziips = presentation.plural(record.ziips_required, eng) if record.ziips_required else f"no {eng}s"
        out.append(
            para(
                f"<b>Recommended configuration.</b> {escape(cap.model)} (capacity setting "
                f"{escape(cap.capacity_setting)}) with {ziips}."
            )
        )
    out += decisions
    helps = advice_items(record, chart)
    if helps:
        out.append(para("<b>What would help</b>"))
        out += [para("\u2022 " + escape(h)) for h in helps]
    demand = None if chart is None else chart.demand
    if demand and finite(demand.total) is not None:
        out.append(
            figure(
                draw_bars(demand_bars(demand, eng), height=150),
                f"Busy engines on CPs and {eng}s at the target rate, against the LPAR's CPs and {eng}s.",
            )
        )
    return out


def answer_sentence(record: EstimateRecord) -> str:
    """The answer in one sentence: the CPs and specialty engines; does not fit, with the most the
    target carries; or no CPs quoted where no CPU figures are published."""
    fit = record.feasibility
    if record.cps_required is None and fit.feasible is not False:
        return "No CPs can be quoted: no CPU figures are published for this path."
    if fit.feasible is False:
        most = fit.max_tps
        if presentation.carried_floor(record):
            return "The published figures do not show that this target carries the rate" + (
                f"; they show it carries at least {presentation.most_rate(most)}." if most is not None else "."
            )
        return "This target does not carry the rate" + (
            f"; the most it carries is {presentation.most_rate(most)}." if most is not None else "."
        )
    eng = record.specialty_engine
    return (
        f"{presentation.plural(record.cps_required, 'CP')} and {presentation.plural(record.ziips_required, eng)}"
        f", {num(record.mips)} MIPS, {num(record.msu)} MSU, CPs at {pct(record.gcp_utilization)} busy."
    )


def required_bars(estimates: Sequence[EstimateSubject], records: Sequence[EstimateRecord]) -> Bars:
    """CPs and specialty engines required by each estimate, stacked; an estimate with no quote
    (does not fit, no CPU data) has no bar and says so under its label."""
    engines = {r.specialty_engine for r in records}
    eng = engines.pop() if len(engines) == 1 else "specialty engine"
    categories = [
        f"#{e.id}" + ("" if r.cps_required is not None and r.feasibility.feasible is not False else " (no quote)")
        for e, r in zip(estimates, records, strict=True)
    ]
    quoted = [r.cps_required is not None and r.feasibility.feasible is not False for r in records]
    return Bars(
        categories=categories,
        stacks=[
            (
                "CPs",
                [float(r.cps_required or 0) if q else 0.0 for r, q in zip(records, quoted, strict=True)],
                PALETTE[0],
            ),
            (
                f"{eng}s",
                [float(r.ziips_required or 0) if q else 0.0 for r, q in zip(records, quoted, strict=True)],
                PALETTE[2],
            ),
        ],
        y_label="Engines required",
    )


def comparison_summary(estimates: Sequence[EstimateSubject]) -> list[Flowable]:
    """Page 1 of a comparison: the question, each estimate's answer and recommended
    configuration, the decisions to sign for each, and one chart (the engines each requires)."""
    records = [EstimateRecord.from_dict({"inputs": e.inputs, **e.outputs}) for e in estimates]
    out: list[Flowable] = [
        *heading("Summary"),
        para(
            f"<b>The question.</b> {presentation.count(len(estimates))} answers side by side: "
            + "; ".join(f"#{e.id} {escape(question_sentence(e))}" for e in estimates)
            + "."
        ),
        para("<b>The answers.</b>"),
    ]
    for e, r in zip(estimates, records, strict=True):
        cap = r.capacity
        config = (
            f" Recommended configuration: {escape(cap.model)} (capacity setting {escape(cap.capacity_setting)})."
            if cap is not None and cap.model and r.feasibility.feasible is not False and r.cps_required is not None
            else ""
        )
        out.append(para(f"\u2022 <b>#{e.id} {escape(scenario_name(e))}</b>: {escape(answer_sentence(r))}{config}"))
    color = DECISION.hexval()
    signs = [
        (e, w)
        for e in estimates
        for w in presentation.warnings_by_level({"inputs": e.inputs, **e.outputs})["decisions"]
    ]
    if signs:
        out.append(para(f'<font color="{color}"><b>Before you sign this</b></font>'))
        out += [para(f'<font color="{color}">\u2022 #{e.id}: {escape(w.sentence)}</font>') for e, w in signs]
    out.append(
        figure(
            draw_bars(required_bars(estimates, records), height=150),
            "CPs and specialty engines each estimate requires (no bar: no CPs quoted).",
        )
    )
    return out


def _target_label(chart: ChartData) -> str:
    cps = chart.cpu.capacity.cps
    gen = chart.machine_name or chart.generation or ""
    return f"{gen}, {presentation.plural(cps, 'CP')}" if cps is not None else str(gen)


def estimate_story(
    e: EstimateSubject,
    basis: ReportBasis,
    chart_data: dict[str, Any] | None,
    chart_note: str = "",
    names: presentation.ProductNames | None = None,
) -> list[Flowable]:
    """Summary (page 1), then question, answer, warnings, charts, basis and sources of one
    estimate; ``names`` say the workloads the engine's messages name by slug."""
    chart = None if chart_data is None else ChartData.from_dict(chart_data)
    story: list[Flowable] = [*summary_section(e, chart), PageBreak()]
    story += [*heading("The question"), key_values(question_rows(e))]
    software = None if chart is None else chart.software_limit_tps
    story += answer_section(e, software)
    record = e.record(software)
    # The cost only from the user's own price book (absent: no cost, and the report says so).
    costs = presentation.cost_rows(record)
    story += [*heading("Cost from your price book"), key_values(costs)] if costs else []
    warnings = presentation.warnings(record, names=names)
    # the decisions are said once, under "Before you sign this" on page 1
    rest = [w for w in warnings if w.level != "decision"]
    # "No warnings." under a decision said above read as a contradiction (no CPU data)
    empty = NONE_BESIDES_DECISIONS if len(rest) < len(warnings) else "No warnings."
    story += [*heading("Warnings"), *warning_list(rest, empty)]
    story += chart_section(chart, record.specialty_engine, chart_note, record.has_cpu_data)
    said: set[str] = set()
    story += basis_section(record, basis, said, names)
    story += sources_section(basis, warnings, said)
    return story


# -- comparison --------------------------------------------------------------------------------


def _engine_label(estimates: Sequence[EstimateSubject]) -> str | None:
    """The specialty engine's name where the estimates share one; None where they differ (a zAAP
    machine beside a zIIP one)."""
    names = {engine_name(e.outputs) for e in estimates}
    return names.pop() if len(names) == 1 else None


def comparison_rows(estimates: Sequence[EstimateSubject]) -> list[tuple[str, list[str], bool]]:
    """(label, one cell per estimate, whether they differ): the question, then the answer.

    Answer rows are matched by their label, not their position: an estimate with a row another
    lacks (the ICF's coupling facility) gets a dash there.  Where the estimates size different
    specialty engines (zAAPs on a zEC12, zIIPs on a z16) the row says "Specialty engines" and
    each cell names its own.
    """
    rows: list[tuple[str, list[str], bool]] = []
    for label, key, unit in INPUT_LABELS:
        values = [e.inputs.get(key) for e in estimates]
        if any(v is not None for v in values):
            cells = ["default" if v is None else _input_value(key, v, unit) for v in values]
            if key == "path":
                cells = [e.path_name for e in estimates]
            elif key == "configuration":
                cells = [e.configuration_name for e in estimates]
            elif key == "machine":
                cells = [e.machine_name for e in estimates]
            rows.append((label, cells, len(set(cells)) > 1))
    shared = _engine_label(estimates)
    order: list[str] = []
    by_label: list[dict[str, str]] = []
    for e in estimates:
        eng = engine_name(e.outputs)
        found: dict[str, str] = {}
        for label, value, rng, _ in answer_rows(e.record()):
            cell = value + (f" ({rng})" if rng else "")
            if shared is None and eng in label:
                label = label.replace(f"{eng}s", "Specialty engines").replace(eng, "Specialty engine")
                if value != DASH:
                    cell = f"{cell} ({eng}s)" if label.endswith("required") else f"{cell} ({eng})"
            found[label] = cell
            if label not in order:
                order.append(label)
        by_label.append(found)
    for label in order:
        cells = [found.get(label, DASH) for found in by_label]
        rows.append((label, cells, len(set(cells)) > 1))
    summary = [presentation.warning_summary(e.record()) for e in estimates]
    rows.append(("Warnings", summary, len(set(summary)) > 1))
    versions = [e.model_version for e in estimates]
    rows.append(("Model version", versions, len(set(versions)) > 1))
    return rows


def comparison_table(estimates: Sequence[EstimateSubject]) -> list[Flowable]:
    """Question and answer side by side: one column per estimate; a row where they differ is
    marked "differs" and shaded, as the compare page marks it."""
    header = ["", *(f"#{e.id} {scenario_name(e)}" for e in estimates)]
    rows = comparison_rows(estimates)
    n = len(estimates)
    table = data_table(
        [*header, ""],
        [[label, *cells, "differs" if differs else ""] for label, cells, differs in rows],
        widths=[0.22, *([0.7 / n] * n), 0.08],
    )
    table.setStyle([("BACKGROUND", (0, i + 1), (-1, i + 1), DIFFERS_FILL) for i, r in enumerate(rows) if r[2]])
    return [
        table,
        para(
            "Rows marked “differs” (shaded) are where the estimates differ, in the question or in the answer.",
            styles().small,
        ),
    ]
