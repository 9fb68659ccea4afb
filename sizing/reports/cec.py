"""A placement's PDF to hand over: the machine as it runs today (its LPARs' shares and busy), the
question (the workloads, the LPAR), the answer per pool against the guaranteed share, the
changes that make it fit, and the placement after the specialty-engine change.  The numbers are
the API's answer (``/api/v1/cecs/{id}/place/``); nothing is recomputed here."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from reportlab.platypus import Flowable, PageBreak

from sizing import presentation
from sizing.models import CecConfiguration
from sizing.reports.document import (
    DECISION,
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
from sizing.reports.plots import CAPACITY, PALETTE, TARGET, Bars, Guide, draw_bars

BINDING = {None: "", "share": "its share (weight)", "logical": "its logical engines", "cec": "the CEC's engines",
           "software-limit": "the workload's software limit"}  # fmt: skip


def machine_section(row: CecConfiguration, shares: dict[str, Any], specialty: str, machine: str) -> list[Flowable]:
    out: list[Flowable] = heading("The machine today")
    engines = [f"{row.cps} CPs"] + [f"{n} {name}" for n, name in ((row.ziips, f"{specialty}s"), (row.icfs, "ICFs"),
                                                                 (row.ifls, "IFLs")) if n]  # fmt: skip
    out.append(para(f"{escape(row.model)} ({escape(machine)}): {', '.join(engines)}; as of {row.as_of}."))
    rows = []
    for pool, data in shares.items():
        name = "CPs" if pool == "cp" else f"{specialty}s"
        for s in data["lpars"]:
            weight = "dedicated" if s["dedicated"] else str(s["weight"])
            rows.append((s["name"], name, weight, str(s["logical"]), num(s["share"], 2),
                         f"{s['vh']} / {s['vm']} / {s['vl']}", num(s["busy"], 2)))  # fmt: skip
    out.append(
        data_table(
            ["LPAR", "Pool", "Weight", "Logical", "Guaranteed share", "Vertical high / medium / low", "Busy today"],
            rows,
            widths=[0.12, 0.1, 0.12, 0.1, 0.18, 0.22, 0.16],
            numeric=[False, False, True, True, True, False, True],
        )
    )
    cp = shares["cp"]
    out.append(
        para(
            f"Shares: weight over the active weights of the pool times its shared engines, never more than the LPAR's "
            f"logical engines (IBM PR/SM Planning Guide). One engine of this CEC of {cp['total_engines']} engines rates "
            f"{num(cp['engine_mips'], 1)} MIPS (LSPR, at the total engine count).",
            styles().small,
        )
    )
    return out


def _pool_rows(answer: dict[str, Any]) -> list[tuple[str, ...]]:
    # past a workload's own software limit no pool carries the work, whatever its busy
    software = bool(answer["software_limits"])
    return [
        (f"{p['engine']}s", num(p["today"], 2), f"{num(p['added'], 2)} ({num(p['added_low'], 2)} to {num(p['added_high'], 2)})",
         num(p["total"], 2), num(p["ceiling"] * p["share"], 2), f"{num(p['cec_busy'], 2)} of {p['installed']}",
         "yes" if p["fits"] and not software else "no", BINDING["software-limit" if software else p["binding"]])
        for p in answer["pools"]
    ]  # fmt: skip


def answer_table(answer: dict[str, Any]) -> Flowable:
    return data_table(
        ["Pool", "Busy today", "Added (range)", "Total", "Ceiling of share", "All LPARs / engines", "Fits", "Binding"],
        _pool_rows(answer),
        widths=[0.09, 0.1, 0.2, 0.09, 0.12, 0.15, 0.07, 0.18],
        numeric=[False, True, True, True, True, True, False, False],
    )


def chart(answer: dict[str, Any], p: dict[str, Any]) -> Flowable:
    """One pool of the LPAR: busy today, and with the added work, against its share and the ceiling."""
    stacks = [("Busy today", [p["today"], p["today"]], PALETTE[0]), ("Added demand", [0.0, p["added"]], PALETTE[1])]
    guides = [
        Guide("y", p["share"], f"guaranteed share {num(p['share'], 2)} {p['engine']}s", CAPACITY),
        Guide("y", p["ceiling"] * p["share"], f"{pct(p['ceiling'])} of the share", TARGET),
    ]
    drawing = draw_bars(
        Bars(categories=["Today", "With the added work"], stacks=stacks, y_label=f"Busy {p['engine']}s", guides=guides),
        height=150.0,
    )
    return figure(drawing, f"{escape(answer['lpar'])}'s {escape(p['engine'])}s: busy today and with the added work.")


def range_text(answer: dict[str, Any]) -> str:
    """What the ends of the cost range say, when they disagree with the central answer."""
    low, high = answer["fits_range"]["low"], answer["fits_range"]["high"]
    if low == high == answer["fits"]:
        return f"It {'fits' if answer['fits'] else 'does not fit'} at both ends of the engine's cost range too."
    return (f"At the low end of the engine's cost range it {'fits' if low else 'does not fit'}, "
            f"at the high end it {'fits' if high else 'does not'}.")  # fmt: skip


def place_pdf(
    *,
    row: CecConfiguration,
    shares: dict[str, Any],
    answer: dict[str, Any],
    specialty: str,
    machine: str,
    author: str | None = None,
    customer: str = "",
    names: presentation.ProductNames = presentation.NO_NAMES,
) -> bytes:
    """The PDF of one placement into ``row`` (``machine``: its product name), prepared by ``author``
    (default: the owner's user name) for ``customer`` (none named: "")."""
    author = author or row.owner.get_username()
    created = datetime.now(UTC)
    workloads = ", ".join(
        f"{escape(w.get('name') or names.workload(w['path'], w.get('configuration')))} at {presentation.rate(w['tps'])}"
        for w in answer["workloads"]
    )
    title = f"Placing work into {answer['lpar']} of {row.name}"
    story: list[Flowable] = title_block(title=title, scenario=f"{row.model}, {answer['lpar']}", author=author,
                                        created=created, customer=customer)  # fmt: skip
    # Page 1: the question, the answer, the changes to decide on and the first pool's chart.
    story += heading("Summary")
    story.append(para(f"<b>The question.</b> Add {workloads} to {'a new LPAR ' if answer['new_lpar'] else ''}"
                      f"{escape(answer['lpar'])} of {escape(row.name)} ({escape(row.model)}, {escape(machine)}), within "
                      f"{pct(answer['ceiling'])} of its guaranteed share."))  # fmt: skip
    verdict = "fits" if answer["fits"] else "does not fit"
    # A workload past its own software limit: the reason (no machine raises it), not a change.
    software = "".join(f" {escape(c['sentence'])}" for c in answer["changes"] if c["kind"] == "software-limit")
    changes = [c for c in answer["changes"] if c["kind"] != "software-limit"]
    story.append(para(f"<b>The answer.</b> The work {verdict} in {escape(answer['lpar'])}.{software} "
                      f"{range_text(answer)} The range comes from the engine's cost range (published bounds or the "
                      "fit's prediction interval)."))  # fmt: skip
    after = answer.get("with_specialty_change")
    if changes:
        color = DECISION.hexval()
        head = "changes that make it fit" if not software else "changes the pools need besides"
        story.append(para(f'<font color="{color}"><b>Before you sign this: {head}, cheapest first</b></font>'))
        story += [para(f'<font color="{color}">\u2022 {escape(c["sentence"])}</font>') for c in changes]
    if after:
        then = "fits" if after["fits"] else "still does not fit"
        story.append(para(f"<b>Recommended change.</b> {escape(after['change'])} Then it {then}."))
    pools = list(answer["pools"])
    if pools:
        story.append(chart(answer, pools[0]))
    story.append(PageBreak())
    story += machine_section(row, shares, specialty, machine)
    story += heading("The answer per pool")
    story.append(answer_table(answer))
    story += [chart(answer, p) for p in pools[1:]]
    if after:
        story += heading("After the specialty-engine change", 2)
        then = "fits" if after["fits"] else "still does not fit"
        story.append(para(f"{escape(after['change'])} Then it {then}. {range_text(after)}"))
        story.append(answer_table(after))
        story += [para(f"\u2022 {escape(c['sentence'])}") for c in after["changes"]]
    story += disclaimer()
    return render(story, Meta(title=title, author=author, created=created, customer=customer))
