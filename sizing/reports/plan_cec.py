"""A plan's PDF, the section of a candidate that is one of the owner's machines: the machine and
the question, when each LPAR and the CEC run out (with the pool that binds and the range), each
pool's load per period stacked by LPAR against the ceiling of its engines, the per-period table,
and the changes the placement proposes where it does not hold.  The numbers are the stored
answer, read through its typed record (:class:`sizing.jobs.plan_cec.MachineCandidate`)."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.platypus import Flowable

from sizing.jobs.cec_plan import RunOut
from sizing.jobs.plan import period_label
from sizing.jobs.plan_cec import CEC_ROW, MachineCandidate
from sizing.records import PlanCandidate
from sizing.reports.document import DASH, data_table, escape, figure, heading, num, para, pct, styles
from sizing.reports.plots import CAPACITY, PALETTE, TARGET, Bars, Guide, draw_bars

#: Colours of the LPARs' stacks: the palette without the guides' colours.
STACK_COLORS = [c for c in PALETTE if c not in (CAPACITY, TARGET)]


def specialty_engine(candidates: Sequence[PlanCandidate]) -> str:
    """The specialty engine's name for a table of every candidate: zAAP when each candidate is of a
    zAAP generation (z10..zEC12), zIIP when each is of a later one, else "specialty engine"."""
    names = {c.specialty for c in candidates}
    return names.pop() if len(names) == 1 else "specialty engine"


def _span(low: float, high: float) -> str:
    """A range's ends, or a dash where the cost range does not move the figure."""
    return DASH if num(low, 2) == num(high, 2) else f"{num(low, 2)} to {num(high, 2)}"


def _when(run: RunOut, labels: Sequence[str]) -> str:
    if run.period is None:
        return "lasts the horizon"
    return f"{labels[run.period - 1].lower()} ({run.engine}s)"


def _edge(period: int | None, labels: Sequence[str]) -> str:
    return "beyond the horizon" if period is None else labels[period - 1].lower()


def run_out_lines(m: MachineCandidate, labels: Sequence[str]) -> list[str]:
    """One sentence per LPAR and the CEC: ``PROD: year 3 (CPs); year 2 to beyond the horizon over the cost
    range's ends.``"""
    out = []
    for run in m.run_outs:
        who = run.name if run.name is not None else "The CEC"
        text = f"{who}: {_when(run, labels)}"
        if (run.earliest, run.latest) != (run.period, run.period):
            text += f"; {_edge(run.earliest, labels)} to {_edge(run.latest, labels)} over the cost range"
        out.append(text + ".")
    return out


def _chart(m: MachineCandidate, pool: str, labels: Sequence[str], ceiling: float) -> Flowable:
    engine = "CP" if pool == "cp" else m.specialty
    stacks = []
    for i, name in enumerate(m.lpar_names):
        values = [next((x.busy for x in q.lpars if x.name == name and x.pool == pool), 0.0) for q in m.periods]
        label = f"{name} (with the work)" if name == m.lpar else name
        stacks.append((label, values, STACK_COLORS[i % len(STACK_COLORS)]))
    installed = next(x.installed for x in m.periods[0].pools if x.pool == pool)
    mine = next(x for x in m.periods[-1].lpars if x.name == m.lpar and x.pool == pool)
    guides = [
        Guide("y", ceiling * installed, f"CEC: {pct(ceiling)} of {installed} {engine}s installed", CAPACITY),
        Guide("y", mine.ceiling_of_share, f"{m.lpar}: {pct(ceiling)} of its share ({num(mine.share, 2)})", TARGET),
    ]
    categories = [
        f"{label.replace('Year ', 'Y').replace('Quarter ', 'Q')}{'' if q.holds else ' (out)'}"
        for label, q in zip(labels, m.periods, strict=True)
    ]
    drawing = draw_bars(Bars(categories=categories, stacks=stacks, y_label=f"Busy {engine}s", guides=guides))
    return figure(
        drawing,
        f"{escape(m.label)}: busy {engine}s per period, stacked by LPAR (each LPAR's load grown at its rate, "
        f"{escape(m.lpar)} with the added work), against the CEC's ceiling and {escape(m.lpar)}'s share.",
    )


def machine_section(m: MachineCandidate, *, period: str, workloads: Sequence[str]) -> list[Flowable]:
    """The section of one machine candidate (``period``: year or quarter, ``workloads``: the
    workloads' product names)."""
    ceiling = m.ceiling
    labels = [period_label(period, q.period) for q in m.periods]
    out: list[Flowable] = heading(f"Your machine: {m.label}")
    growth = ", ".join(f"{name} {num(m.lpar_growth.get(name, 0.0), 1)} %" for name in m.lpar_names)
    where = f"a new LPAR, {m.lpar}" if m.new_lpar else f"LPAR {m.lpar}"
    out.append(
        para(
            f"{escape(m.name)}: {escape(m.model)} ({escape(m.machine_name)}), {m.cps} CPs, {m.specialty_installed} "
            f"{m.specialty}s; as of {escape(m.as_of)}. The workloads ({escape('; '.join(workloads))}) go into "
            f"{escape(where)}; each LPAR's load today grows a year by {escape(growth)}. An LPAR holds while its "
            f"load is within {pct(ceiling)} of its guaranteed share, the CEC while all LPARs together are within "
            f"{pct(ceiling)} of each pool's installed engines."
        )
    )
    out += heading("When each LPAR and the CEC run out", 2)
    for line in run_out_lines(m, labels):
        out.append(para(escape(line)))
    for pool in ("cp", "ziip"):
        if any(x.pool == pool for x in m.periods[0].pools):
            out.append(_chart(m, pool, labels, ceiling))
    rows = []
    for label, q in zip(labels, m.periods, strict=True):
        for x in q.lpars:
            rows.append((label, x.name + (" (the work)" if x.takes_work else ""), x.engine, num(x.busy, 2),
                         _span(x.busy_low, x.busy_high), num(x.ceiling_of_share, 2),
                         "yes" if x.holds else "no"))  # fmt: skip
        for y in q.pools:
            rows.append((label, CEC_ROW, y.engine, num(y.busy, 2), _span(y.busy_low, y.busy_high),
                         f"{num(y.capacity, 2)} of {y.installed}", "yes" if y.holds else "no"))  # fmt: skip
    out += heading("Each LPAR and pool per period", 2)
    out.append(
        data_table(
            ["Period", "LPAR", "Engine", "Busy", "Range", "Ceiling (share or CEC)", "Holds"],
            rows,
            widths=[0.11, 0.22, 0.09, 0.11, 0.18, 0.19, 0.1],
            numeric=[False, False, False, True, True, True, False],
            compact=True,
        )
    )
    first = next((q for q in m.periods if not q.holds), None)
    if first is not None:
        label = labels[first.period - 1].lower()
        out.append(para(f"<b>In {escape(label)}</b>: {escape(' '.join(first.reasons))}", styles().small))
        if first.changes:
            out.append(para(f"The changes that make {escape(m.lpar)} carry it then, cheapest first:", styles().small))
            for change in first.changes:
                out.append(para(f"• {escape(change)}", styles().small))
    return out
