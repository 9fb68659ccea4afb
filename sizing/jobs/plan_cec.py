"""A plan's candidate that is one of the owner's machines (issue 29 item 4): the workloads placed
into one of its LPARs (or a new one), each LPAR's load today growing at its own rate, period by
period at the plan's peaks.

Each period is :func:`sizing.jobs.cec_plan.cec_periods` (the placement of ``sizing.jobs.cec``:
the mix job on the LPAR's logical engines, in engines of this CEC).  It **holds** while the LPAR
taking the work is within the ceiling of its guaranteed share (the placement's predicate) and
the CEC's pools within the ceiling of their engines; the range is the placement's low and high
ends.  The candidate offers the recommendation its own model (installed MSU from the LSPR
rating), so the recommendation compares keeping the machine with buying a model candidate.
See docs/plans.md.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from models_lib.cec import Cec
from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.cec_plan import CecPeriod, LparLoad, PoolLoad, RunOut, cec_periods, run_outs
from sizing.jobs.plan import BASIS_WARNINGS, EXTRA_TABLES, KIND_EVALUATORS, period_label
from sizing.models import CecConfiguration
from sizing.selectors.fitted import current_reference
from sizing.services.cecs import cec_record, lpar_record

#: Columns of the per-LPAR table (CSV and XLSX ``?table=lpars``): one row per CEC candidate,
#: period, LPAR and pool, then the CEC's pools (``lpar`` "All LPARs (the CEC)").
LPAR_COLUMNS = (
    "candidate",
    "period",
    "label",
    "lpar",
    "engine",
    "takes_the_work",
    "busy",
    "busy_low",
    "busy_high",
    "share",
    "ceiling_of_share",
    "holds",
    "holds_low",
    "holds_high",
    "runs_out",
    "binding_engine",
)
LPAR_COLUMN_UNITS = {
    "period": "period",
    "busy": "engines",
    "busy_low": "engines",
    "busy_high": "engines",
    "share": "engines",
    "ceiling_of_share": "engines",
    "runs_out": "period",
}
#: The CEC's rows in the per-LPAR table.
CEC_ROW = "All LPARs (the CEC)"
BINDING_TEXT = {"share": "its share (weight)", "logical": "its logical engines", "cec": "the CEC's engines"}


def stored_cec(candidate: Mapping[str, Any]) -> Cec:
    """The machine as the plan stored it (a snapshot: the plan keeps its answer if the machine is
    edited or deleted later), as the engine's record."""
    snap = candidate["cec"]
    row = CecConfiguration(
        name=snap["name"], model=candidate["model"], machine=candidate["machine"],
        machine_type=candidate["machine_type"], capacity_setting=snap["capacity_setting"], cps=candidate["cps"],
        ziips=snap["ziips"], icfs=snap["icfs"], ifls=snap["ifls"], lpars=snap["lpars"],
        as_of=datetime.date.fromisoformat(snap["as_of"]),
    )  # fmt: skip
    return cec_record(row)


def _installed_msu(candidate: Mapping[str, Any]) -> float:
    table = current_reference().lspr_table()
    setting = candidate["cec"]["capacity_setting"]
    rating = table.settings.get((candidate["machine_type"], setting, candidate["cps"]))
    return rating.msu if rating is not None else table.ratings[(candidate["machine_type"], candidate["cps"])].msu


def _reasons_of(q: CecPeriod) -> list[dict[str, str]]:
    """Why the period does not hold: the LPAR's pools past the ceiling of their share (what
    binds), the CEC's pools past the ceiling of their engines, a workload's own software limit."""
    out: list[dict[str, str]] = []
    lpar = q.placed.lpar
    for p in q.placed.pools:
        if p.binding is None:
            continue
        engine = q.placed.cec.engine_name(p.pool)
        out.append({"code": p.binding, "message": f"{lpar}'s {engine}s: {p.total:,.2f} busy, above "
                    f"{p.ceiling * p.share:,.2f} ({p.ceiling:.0%} of its guaranteed share of {p.share:,.2f}); "
                    f"what binds: {BINDING_TEXT[p.binding]}."})  # fmt: skip
    for x in q.pools:
        if not x.holds:
            out.append({"code": "cec", "message": f"The CEC's {x.engine}s: all LPARs {x.busy:,.2f} busy, above "
                        f"{x.capacity:,.2f} ({q.mixed.ceiling:.0%} of {x.installed} installed)."})  # fmt: skip
    out.extend({"code": "software-limit", "message": s.sentence(peak=True)} for s in q.placed.software_limits)
    return out


def _period(q: CecPeriod, rates: Sequence[float]) -> dict[str, Any]:
    lpar = q.mixed.lpar
    reasons = _reasons_of(q)
    return {
        "period": q.period,
        "model": q.placed.cec.model,
        "cps": lpar.cps,
        "ziips": lpar.ziips,
        "gcp_busy": lpar.gcp_busy,
        "ziip_busy": lpar.ziip_busy,
        "gcp_utilization": lpar.gcp_utilization,
        "ziip_utilization": lpar.ziip_busy / lpar.ziips if lpar.ziips else None,
        "msu_consumed": q.mixed.msu(),
        "mips_consumed": q.mixed.mips(),
        "ceiling": q.mixed.ceiling,
        "holds": q.holds and not reasons,
        "reasons": reasons,
        "workloads": [
            {"tps": t, "gcp_busy": g, "ziip_busy": z} for t, g, z in zip(rates, lpar.gcp, lpar.on_ziip, strict=True)
        ],
        "range": {
            "low": {"holds": q.holds_low, "cps": lpar.cps, "ziips": lpar.ziips},
            "high": {"holds": q.holds_high, "cps": lpar.cps, "ziips": lpar.ziips},
        },
        "lpars": [x.to_dict() for x in q.lpars],
        "pools": [x.to_dict() for x in q.pools],
        "changes": [c.sentence for c in q.placed.changes] if not q.holds else [],
    }


def evaluate_cec_candidate(
    *,
    owner: User,
    inputs: Mapping[str, Any],
    candidate: Mapping[str, Any],
    index: int,
    rates: Sequence[Sequence[float]],
    years_per_period: float,
    engine: Mapping[str, Any],
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The CEC candidate over every period (its answer in the shape of a model candidate's, with
    each LPAR's and pool's load per period and each LPAR's and the CEC's run-out)."""
    options = inputs.get("options") or {}
    workloads = [
        [{**{k: w[k] for k in ("path", "configuration") if k in w}, "payload_bytes": w.get("payload_bytes"), "tps": t}
         for w, t in zip(inputs["workloads"], r, strict=True)]
        for r in rates
    ]  # fmt: skip
    new = candidate.get("new_lpar")
    periods = cec_periods(
        owner=owner, cec=stored_cec(candidate), machine=candidate["machine"], period_workloads=workloads,
        lpar=None if new else candidate["lpar"], new_lpar=lpar_record(new) if new else None,
        lpar_growth_pct=candidate.get("lpar_growth") or {}, years_per_period=years_per_period,
        max_utilization=options.get("max_utilization"), **engine,
    )  # fmt: skip
    if progress is not None:
        progress(len(rates), len(rates))
    out = [_period(q, r) for q, r in zip(periods, rates, strict=True)]
    snap = candidate["cec"]
    models = [
        {"model": candidate["model"], "cps": candidate["cps"], "msu_installed": _installed_msu(candidate),
         "holds": [q["holds"] for q in out], "ziips": [snap["ziips"]] * len(out),
         "msu_consumed": [q["msu_consumed"] for q in out], "cec": snap["name"], "lpar": candidate["lpar"]}
    ]  # fmt: skip
    first = periods[0].mixed
    book = first.models[0].price_book
    basis = [
        [*warnings_of(wm.reference), *({"code": w["code"], "message": w["message"]} for w in wm.reference["warnings"]
                                        if w["code"] in BASIS_WARNINGS)]
        for wm in first.models
    ]  # fmt: skip
    priced = None if book is None else dataclasses.asdict(book)
    return json_result(
        {
            **candidate,
            "index": index,
            "periods": out,
            "models": models,
            "basis": basis,
            "price_book": priced,
            "lpar_runs_out": [o.to_dict() for o in run_outs(periods)],
        }  # fmt: skip
    )


def lpar_table(period: str, candidates: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The answer's per-LPAR table (``lpar_table``), when some candidate is a machine."""
    rows = [r for c in candidates for r in lpar_rows(period=period, candidate=c)]
    return table(LPAR_COLUMNS, rows) if any(c.get("kind") == "cec" for c in candidates) else None


def register() -> None:
    """Make a plan answer machine candidates (:data:`sizing.jobs.plan.KIND_EVALUATORS`)."""
    KIND_EVALUATORS["cec"] = evaluate_cec_candidate
    EXTRA_TABLES["lpar_table"] = lpar_table


def lpar_rows(*, period: str, candidate: Mapping[str, Any]) -> list[list[Any]]:
    """The per-LPAR table's rows of one CEC candidate (none for a model or generation)."""
    if candidate.get("kind") != "cec":
        return []
    outs = {o.name: o for o in (RunOut.from_dict(x) for x in candidate["lpar_runs_out"])}
    rows: list[list[Any]] = []
    for q in candidate["periods"]:
        label = period_label(period, q["period"])
        for x in (LparLoad.from_dict(d) for d in q["lpars"]):
            o = outs[x.name]
            rows.append([candidate["label"], q["period"], label, x.name, x.engine, x.takes_work, x.busy, x.busy_low,
                         x.busy_high, x.share, x.ceiling_of_share, x.holds, x.holds_low, x.holds_high, o.period,
                         o.engine])  # fmt: skip
        for y in (PoolLoad.from_dict(d) for d in q["pools"]):
            o = outs[None]
            rows.append([candidate["label"], q["period"], label, CEC_ROW, y.engine, False, y.busy, y.busy_low,
                         y.busy_high, float(y.installed), y.capacity, y.holds, y.holds_low, y.holds_high, o.period,
                         o.engine])  # fmt: skip
    return rows


@dataclass(frozen=True)
class MachinePeriod:
    """One period of a machine candidate's answer, typed."""

    period: int
    holds: bool
    lpars: tuple[LparLoad, ...]
    pools: tuple[PoolLoad, ...]
    changes: tuple[str, ...]
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class MachineCandidate:
    """A machine candidate's stored answer, typed, for what a person or a spreadsheet reads."""

    label: str
    name: str
    model: str
    machine: str
    machine_name: str
    cps: int
    specialty_installed: int
    specialty: str
    as_of: str
    lpar: str
    new_lpar: bool
    lpar_growth: dict[str, float]
    lpar_names: tuple[str, ...]
    ceiling: float
    periods: tuple[MachinePeriod, ...]
    run_outs: tuple[RunOut, ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MachineCandidate:
        snap = data["cec"]
        return cls(
            label=data["label"], name=snap["name"], model=data["model"], machine=data["machine"],
            machine_name=data.get("machine_name") or data["machine"], cps=data["cps"],
            specialty_installed=snap["ziips"], specialty=data.get("specialty") or "zIIP", as_of=snap["as_of"],
            lpar=data["lpar"], new_lpar=data.get("new_lpar") is not None, lpar_growth=dict(data["lpar_growth"]),
            lpar_names=tuple(o["name"] for o in data["lpar_runs_out"] if o["name"] is not None),
            ceiling=data["periods"][0]["ceiling"],
            periods=tuple(
                MachinePeriod(q["period"], q["holds"], tuple(LparLoad.from_dict(x) for x in q["lpars"]),
                              tuple(PoolLoad.from_dict(x) for x in q["pools"]), tuple(q.get("changes") or ()),
                              tuple(r["message"] for r in q["reasons"]))
                for q in data["periods"]
            ),
            run_outs=tuple(RunOut.from_dict(o) for o in data["lpar_runs_out"]),
        )  # fmt: skip
