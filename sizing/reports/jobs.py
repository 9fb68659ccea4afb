"""The sections of a finished job's report: its parameters, summary, charts, result table, basis.

One layout per job kind (``curve``, ``closed``, ``montecarlo``, ``optimize``, ``mix``, ``batch``);
the numbers are the stored result (``Job.result``) and the charts draw the same series the job
panel of the workbench draws.  Tables split across pages with their header repeated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, PageBreak, Paragraph

from sizing import presentation
from sizing.presentation import WarningText
from sizing.records import (
    BasisRecord,
    JobParams,
    JobResult,
    MixHeadroomRecord,
)
from sizing.reports.document import (
    DASH,
    DECISION,
    data_table,
    escape,
    figure,
    finite,
    fitted_widths,
    heading,
    key_values,
    num,
    para,
    pct,
    styles,
    warning_list,
)
from sizing.reports.estimate import basis_section, sources_section
from sizing.reports.plots import CAPACITY, PALETTE, TARGET, Bars, Guide, Plot, Series, draw_bars, draw_plot
from sizing.selectors.report_basis import ReportBasis

Section = list[Flowable]


def cell(value: Any, kind: str = "auto") -> str:
    """A table cell: numbers with the digits their kind has, text as it is, a dash for nothing."""
    if value is None or value == "":
        return DASH
    if kind == "pct":
        return pct(value)
    if kind == "int":
        return num(value)
    if kind.startswith("num"):
        return num(_number(value), int(kind[-1]))
    if kind == "auto" and finite(value) is not None:
        v = float(value)
        return num(v) if v.is_integer() else f"{v:,.4g}" if abs(v) < 1000 else num(v, 1)
    return str(value)


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


#: A job's own parameters in words (the estimate's inputs: ``presentation.INPUT_LABELS``).
JOB_PARAM_LABELS = {
    "cps_list": ("CP counts", ""),
    "points": ("Rates per curve", ""),
    "samples": ("Samples", ""),
    "seed": ("Random seed", ""),
    "max_cps": ("Most CPs considered", ""),
    "max_ziips": ("Most specialty engines considered", ""),
    "gcp": ("Cost of one CP", ""),
    "ziip": ("Cost of one specialty engine", ""),
    "objective": ("Objective", ""),
}


def _param_label(key: str) -> tuple[str, str]:
    for label, name, unit in presentation.INPUT_LABELS:
        if name == key:
            return label, unit
    return JOB_PARAM_LABELS.get(key, (key.replace("_", " ").capitalize(), ""))


def param_rows(
    kind: str, params: dict[str, Any], result: JobResult, names: presentation.ProductNames = presentation.NO_NAMES
) -> list[tuple[str, str]]:
    """The job's question as the customer reads it: labels in words, product and machine names,
    numbers with separators (never a parameter's name or a slug)."""
    rows: list[tuple[str, str]] = []
    asked = JobParams.from_dict(params)
    for key, value in params.items():
        label, unit = _param_label(key)
        if key == "csv":
            rows.append(("Scenarios", f"{result.rows} rows of CSV (the table below, one row each)"))
        elif key == "workloads":
            for i, w in enumerate(asked.workloads, 1):
                rows.append(
                    (f"Workload {i}", f"{names.workload(w.path, w.configuration)} at {presentation.rate(w.tps)}")
                )
        elif key == "path":
            rows.append((label, names.path(value)))
        elif key == "configuration":
            rows.append((label, names.configuration(asked.path, value)))
        elif key == "machine":
            rows.append((label, names.machine(value)))
        elif isinstance(value, dict):
            rows.append((label, ", ".join(f"{k} {cell(v)}" for k, v in value.items())))
        elif isinstance(value, list):
            rows.append((label, ", ".join(cell(v) for v in value)))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            rows.append((label, presentation.input_value(key, value, unit)))
        else:
            rows.append((label, cell(value)))
    return rows


def result_table(
    result: JobResult, *, limit: int | None = None, names: presentation.ProductNames = presentation.NO_NAMES
) -> Section:
    """The job's result table (its CSV) with the columns in words and units, the generation's
    specialty engine named, shares as percentages (``presentation.job_column``, ``job_cell``) and
    a mix's workloads in product names."""
    columns, rows = list(result.table_columns), list(result.table_rows)
    if not columns:
        return []
    shown = rows if limit is None else rows[:limit]
    header, body = presentation.job_table(columns, shown, result.specialty_engine, names)
    out: Section = heading("Result table")
    out.append(
        data_table(
            header,
            body,
            widths=fitted_widths(header, body),
            numeric=presentation.job_numeric(columns),
        )
    )
    note = presentation.rows_shown(len(shown), len(rows))
    if note:
        out.append(para(note, styles().small))
    return out


# -- one layout per kind -----------------------------------------------------------------------


def curve_section(result: JobResult, names: presentation.ProductNames = presentation.NO_NAMES) -> Section:
    series = result.series
    has_rt = result.response_time_data
    rt = Plot("Transactions per second", "Response time, ms" if has_rt else "Time on CPs (lower bound), ms")
    util = Plot("Transactions per second", "CP utilisation", y_percent=True, y_max=1.05)
    firsts = []
    for i, s in enumerate(series):
        color = PALETTE[i % len(PALETTE)]
        y = s.response_time_ms if has_rt else s.response_time_lower_bound_ms
        name = presentation.plural(s.cps, "CP")  # "1 CP", "4 CPs"
        rt.series.append(Series(name, s.tps, y, color=color))
        util.series.append(Series(name, s.tps, s.gcp_utilization, color=color))
        firsts += [f for f in map(finite, y[:1]) if f is not None]
    if firsts:
        rt.y_max = 4 * max(firsts)
    ceiling = finite(result.max_utilization)
    if ceiling:
        util.guides.append(Guide("y", ceiling, f"{pct(ceiling)} ceiling", TARGET))
    at = finite(series[0].at_tps.tps) if series else None
    if at is not None:
        rt.guides.append(Guide("x", at, f"target {num(at)}", TARGET))
        util.guides.append(Guide("x", at, f"target {num(at)}", TARGET))
    summary = data_table(
        [
            "CPs",
            "Knee, TPS",
            "Saturation, TPS",
            "At the ceiling, TPS",
            "Utilisation at target",
            "Response at target, ms",
        ],
        [
            (
                s.cps,
                presentation.bound_rate(s.knee_tps, result.saturation_kind, ""),
                presentation.bound_rate(s.saturation_tps, result.saturation_kind, ""),
                presentation.bound_rate(s.ceiling_tps, result.saturation_kind, ""),
                pct(s.at_tps.gcp_utilization),
                num(s.at_tps.response_time_ms, 1),
            )
            for s in series
        ],
        numeric=[True] * 6,
    )
    bounds = (
        [para(escape(presentation.LOWER_BOUND_RATES), styles().small)]
        if result.saturation_kind == "lower-bound"
        else []
    )
    return [
        *heading("Summary"),
        summary,
        *bounds,
        *heading("Charts"),
        figure(draw_plot(rt), "Response time against transaction rate, one line per CP count."),
        figure(draw_plot(util), "CP utilisation against transaction rate, one line per CP count, with the ceiling."),
    ]


def closed_section(result: JobResult, names: presentation.ProductNames = presentation.NO_NAMES) -> Section:
    c = result.curve
    has_rt = result.response_time_data
    tput = Plot("Clients", "Throughput, TPS", [Series("throughput", c.clients, c.throughput_tps)])
    resp = Plot(
        "Clients",
        "Response time, ms" if has_rt else "Time at the queues (lower bound), ms",
        [
            Series(
                "response",
                c.clients,
                c.response_time_ms if has_rt else c.response_time_lower_bound_ms,
                color=TARGET,
            )
        ],
    )
    knee, most = finite(result.knee_clients), finite(result.max_throughput_tps)
    if knee:
        tput.guides.append(Guide("x", knee, f"knee {num(knee)} clients", PALETTE[3]))
    if most:
        tput.guides.append(Guide("y", most, f"max {presentation.rate(most)}", CAPACITY))
    rows = [
        (
            "Engines",
            f"{result.cps} CPs, {result.ziips or 0} {result.specialty_engine}s, think time {cell(result.think_time_s)} s",
        ),
        ("Bottleneck", str(result.bottleneck or DASH)),
        ("Knee", f"{num(result.knee_clients)} clients"),
        ("Most throughput", presentation.rate(result.max_throughput_tps)),
        (
            f"Most clients within the {presentation.rate(result.response_time_sla_ms, 'ms')} goal"
            if finite(result.response_time_sla_ms) is not None
            else "Most clients within the goal",
            num(result.max_clients_within_sla),
        ),
    ]
    return [
        *heading("Summary"),
        key_values(rows),
        *heading("Charts"),
        figure(draw_plot(tput), "Throughput against the client population (exact MVA)."),
        figure(draw_plot(resp), "Response time against the client population."),
    ]


def _percentiles(low: Any, high: Any, digits: int = 0) -> str:
    """ "5th to 95th percentile 4\u20135", or one figure where both print the same ("0", not "0\u20130")."""
    lo, hi = num(low, digits), num(high, digits)
    return f"5th to 95th percentile {lo}" if lo == hi else f"5th to 95th percentile {lo}\u2013{hi}"


def montecarlo_section(result: JobResult, names: presentation.ProductNames = presentation.NO_NAMES) -> Section:
    cps = result.cps_required
    # every CP count from the fewest to the most sampled, one no sample needed at 0 (a count left
    # out read as if the bars were neighbours: 3, 4, 5, 7)
    share = {h.cps: float(h.share or 0.0) for h in result.cps_histogram if h.cps is not None}
    counts = list(range(min(share), max(share) + 1)) if share else []
    bars = Bars(
        [str(c) for c in counts],
        [("share of samples", [share.get(c, 0.0) for c in counts], PALETTE[0])],
        "Share of samples",
        "CPs required",
        y_percent=True,
    )
    rt = result.response_time_ms
    ziips = result.ziips_required
    rows = [
        ("Samples", f"{num(result.samples)} (seed {cell(result.seed)}) at {presentation.rate(result.tps)}"),
        (
            "CPs required",
            f"median {num(cps.p50)}, {_percentiles(cps.p5, cps.p95)}, central {num(cps.central)}",
        ),
        (
            f"{result.specialty_engine}s required",
            f"median {num(ziips.p50)}, {_percentiles(ziips.p5, ziips.p95)}",
        ),
        (
            "Within the ceiling",
            f"{pct(result.p_within_ceiling, 1)} of the samples at {presentation.plural(result.evaluated_at_cps, 'CP')}",
        ),
        (
            "Response time",
            f"median {num(rt.p50, 2)} ms, {_percentiles(rt.p5, rt.p95, 2)} ms",
        ),
        (
            f"Meets the {presentation.rate(result.response_time_sla_ms, 'ms')} goal"
            if finite(result.response_time_sla_ms) is not None
            else "Meets the goal",
            f"{pct(result.p_meets_sla, 1)} of the samples" if result.p_meets_sla is not None else DASH,
        ),
    ]
    return [
        *heading("Summary"),
        key_values(rows),
        *heading("Charts"),
        figure(draw_bars(bars), "Distribution of the CPs required over the samples."),
    ]


def optimize_section(result: JobResult, names: presentation.ProductNames = presentation.NO_NAMES) -> Section:
    eng = result.specialty_engine
    front = result.frontier
    bars = Bars(
        [f"{m.cps} + {m.ziips}" for m in front],
        [("cost", [float(m.cost or 0.0) for m in front], PALETTE[0])],
        "Cost",
        f"CPs + {eng}s",
    )
    best = result.best
    rows = [
        (
            "Cheapest mix",
            f"{presentation.plural(best.cps, 'CP')} + {presentation.plural(best.ziips, eng)}, cost {num(best.cost, 2)}"
            if best
            else "No mix carries the target.",
        ),
        (
            "Utilisation",
            f"CPs {pct(best.gcp_utilization)}, {eng}s {pct(best.ziip_utilization)}" if best else DASH,
        ),
        (
            "Mixes",
            f"{num(result.feasible)} of {num(result.evaluated)} carry {presentation.rate(result.tps)}",
        ),
        (
            "Costs",
            ", ".join(f"{'one CP' if k == 'gcp' else f'one {eng}'} {num(v, 2)}" for k, v in result.costs.items()),
        ),
    ]
    out: Section = [*heading("Summary"), key_values(rows)]
    if front:
        out += [
            *heading("Charts"),
            figure(draw_bars(bars), f"Cost of the mixes on the frontier (fewest CPs for each {eng} count)."),
        ]
    return out


def mix_section(result: JobResult, names: presentation.ProductNames = presentation.NO_NAMES) -> Section:
    """The mix's LPAR on the machine by its name, each workload by its configuration's name and
    the specialty engine by the generation's name (zAAP on z10..zEC12/zBC12, zIIP later)."""
    ws = result.workloads
    c = result.combined
    eng = result.specialty_engine
    bars = Bars(
        [f"{names.configuration(w.path, w.configuration)} {presentation.rate(w.tps)}" for w in ws],
        [
            ("CPs", [float(w.gcp_busy or 0) for w in ws], PALETTE[0]),
            (f"{eng}s", [float(w.ziip_busy or 0) for w in ws], PALETTE[2]),
        ],
        "Busy engines",
    )
    rows = [
        (
            "LPAR",
            f"{presentation.plural(result.cps, 'CP')}{' (sized)' if result.cps_sized else ''}, {presentation.plural(result.ziips, eng)}"
            f"{' (sized)' if result.ziips_sized else ''} on {names.machine(result.machine)}",
        ),
        (
            "Combined",
            presentation.mix_combined(c.tps, c.gcp_utilization, result.ziips, c.ziip_utilization, eng),
        ),
        ("MIPS and MSU", f"{num(c.mips)} MIPS, {num(c.msu)} MSU"),
        (
            "Headroom",
            presentation.mix_headroom(MixHeadroomRecord(c.headroom, c.saturation_scale, result.max_utilization)),
        ),
        ("Approximation", str(result.approximation or DASH)),
    ]
    return [
        *heading("Summary"),
        key_values(rows),
        *heading("Charts"),
        figure(draw_bars(bars), "Busy engines of each workload on the shared LPAR."),
    ]


def batch_section(result: JobResult, names: presentation.ProductNames = presentation.NO_NAMES) -> Section:
    chart = presentation.batch_chart(result)  # the job's page draws the same (display.chart)
    # a bar a scenario, labelled as on the page (a line through row numbers read as a trend)
    bars = Bars(
        chart.labels, [(chart.y_title, [v or 0.0 for v in chart.values], PALETTE[0])], chart.y_title, chart.x_title
    )
    out: Section = [
        *heading("Summary"),
        para(presentation.batch_summary(result.rows, result.counts, result.succeeded, result.failed)),
        *heading("Charts"),
        figure(draw_bars(bars, height=170), chart.caption),
        *heading("Scenarios"),
    ]
    table = presentation.batch_table(result, names)  # the job's page shows the same (display.table)
    out.append(
        data_table(
            table.columns,
            table.rows,
            widths=fitted_widths(table.columns, table.rows, compact=True),
            numeric=table.numeric,
            compact=True,
        )
    )
    if table.note:  # what a row's mark means (the model, MIPS and MSU of a row that does not fit)
        out.append(para(table.note, styles().small))
    out.append(para("Every column of every row, each warning's text included, is in the job's CSV.", styles().small))
    return out


#: Each job kind's layout: its result and the owner's product names (a layout that names no
#: workload takes them too, so that every kind is called one way).
LAYOUTS: dict[str, Callable[[JobResult, presentation.ProductNames], Section]] = {
    "curve": curve_section,
    "closed": closed_section,
    "montecarlo": montecarlo_section,
    "optimize": optimize_section,
    "mix": mix_section,
    "batch": batch_section,
}


#: What each kind of job asks, after the workload and machine it is about.
JOB_QUESTIONS = {
    "curve": "utilisation and response time against the rate, for each CP count",
    "closed": "throughput and response time against the number of clients",
    "montecarlo": "how many CPs, with the uncertainty of the cost sampled",
    "optimize": "the cheapest mix of CPs and specialty engines that carries the rate",
    "mix": "several workloads sharing one LPAR",
    "batch": "each scenario of a CSV sized on its own",
}


def _workload_text(workload: dict[str, Any], names: presentation.ProductNames) -> str:
    """One workload of a mix: "CICS TS for z/OS, v5.3 at 3,000 TPS"."""
    path = configuration = rate = None
    for key, value in workload.items():
        if key == "path":
            path = value
        elif key == "configuration":
            configuration = value
        elif key == "tps":
            rate = value
    return f"{names.workload(path, configuration)} at {presentation.rate(rate)}"


def question_sentence(kind: str, params: dict[str, Any], names: presentation.ProductNames) -> str:
    """The job's question in product and machine names: "FiTeq Authenticator, multi-region on
    IBM z13 at 5,000 TPS: how many CPs, …"."""
    path = configuration = machine = model = rate = None
    workloads: list[str] = []
    for key, value in params.items():  # the job's parameters (its question), not an answer
        if key == "path":
            path = value
        elif key == "configuration":
            configuration = value
        elif key == "machine":
            machine = value
        elif key == "model":
            model = value
        elif key == "tps":
            rate = value
        elif key == "workloads":
            workloads += [_workload_text(w, names) for w in value]
    where = names.machine(machine) if machine else model
    parts = [
        names.workload(path, configuration) if path else ", ".join(workloads),
        f"on {where}" if where else "",
        f"at {presentation.rate(rate)}" if rate is not None else "",
    ]
    about = "" if kind == "batch" else " ".join(p for p in parts if p)
    what = JOB_QUESTIONS.get(kind, kind)
    return f"{about}: {what}." if about else f"{what[0].upper()}{what[1:]}."


def _heading_text(flowable: Flowable) -> str | None:
    return flowable.text if isinstance(flowable, Paragraph) else None


def _split_layout(section: Section) -> tuple[Section, Flowable | None, Section]:
    """A kind's layout as (its answer table, its first chart, the rest): the first two go on the
    summary page, the rest after it.  The layouts are "Summary", the answer, "Charts", figures,
    and (a batch) its scenarios."""
    at = next(
        (
            i
            for i in range(len(section) - 1)
            if isinstance(section[i], CondPageBreak) and _heading_text(section[i + 1]) == "Charts"
        ),
        len(section),
    )
    answer = [f for f in section[:at] if not isinstance(f, CondPageBreak) and _heading_text(f) != "Summary"]
    rest = list(section[at:])
    first = next((f for f in rest if isinstance(f, KeepTogether)), None)
    if first is not None:
        rest.remove(first)
    # the "Charts" heading with no chart left under it goes
    if len(rest) >= 2 and (len(rest) == 2 or isinstance(rest[2], CondPageBreak)):
        rest = rest[2:]
    return answer, first, rest


def decisions(warnings: Sequence[WarningText]) -> Section:
    """ "Before you sign this": the decision-level warnings, in the pages' sentences."""
    said = [w for w in warnings if w.level == "decision"]
    if not said:
        return []
    color = DECISION.hexval()
    return [
        para(f'<font color="{color}"><b>Before you sign this</b></font>'),
        *(para(f'<font color="{color}">\u2022 {escape(w.sentence)}</font>') for w in said),
    ]


def executive_summary(
    kind: str,
    params: dict[str, Any],
    answer: Section,
    chart: Flowable | None,
    warnings: Sequence[WarningText],
    names: presentation.ProductNames,
) -> Section:
    """Page 1: the question, the answer (the kind's own summary table, with the recommended
    configuration where the kind has one), the decisions to sign and one chart."""
    out: Section = [
        *heading("Summary"),
        para(f"<b>The question.</b> {escape(question_sentence(kind, params, names))}"),
        para("<b>The answer.</b>"),
        *answer,
        *decisions(warnings),
    ]
    if chart is not None:
        out.append(chart)
    return out


def job_story(
    kind: str,
    params: dict[str, Any],
    result: dict[str, Any],
    basis: ReportBasis | None,
    names: presentation.ProductNames = presentation.NO_NAMES,
) -> Sequence[Flowable]:
    """A summary page (question, answer, decisions, one chart), then the parameters, the other
    charts, warnings, the result table and the basis of one job."""
    typed = JobResult.from_dict(result)
    warnings = presentation.job_warnings(typed, names)
    answer, chart, rest = _split_layout(LAYOUTS[kind](typed, names))
    story: Section = [*executive_summary(kind, params, answer, chart, warnings, names), PageBreak()]
    story += [*heading("The question"), key_values(param_rows(kind, params, typed, names))]
    story += rest
    story += [*heading("Warnings"), *warning_list(warnings)]
    if kind != "batch":
        story += result_table(typed, limit=400, names=names)
    if basis is not None:
        story += basis_section(typed.any_basis or BasisRecord.from_dict({}), basis, names=names)
        story += sources_section(basis, warnings)
    return story
