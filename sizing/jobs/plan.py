"""``plan``: workloads growing over a horizon, on candidate targets, period by period.

Each (candidate, period) is the ``mix`` job's question at that period's peaks, asked through
the same function (:func:`sizing.jobs.mix.mix_evaluate`): the workloads on one LPAR of the
candidate (a model fixes its CPs; a generation sizes them, "which model fits").  So a plan's
period equals the mix job at those rates, and, for one workload, the estimate.

A period *holds* when the CPs carry the combined peak within the ceiling, every pool is below
saturation and no workload is beyond its own software limit.  The run-out period of a
candidate is the first that does not hold; its range comes from the engine's cost range (the
per-transaction CPU's low and high ends, :attr:`WorkloadModel.cost_range_s`): at the high end
it runs out earliest, at the low end latest.

The recommendation compares, in MSU-years (installed MSU of the model times the years it is
installed), the cheapest model that holds every period with the cheapest pair "model A now,
model B from period N" where A holds the periods before N and B the rest.

A chunk (``params["candidate"]``) evaluates one candidate; :func:`plan_result` assembles the
candidates' answers (see ``sizing.services.plan_chunks``).  See docs/plans.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User

from models_lib.cec_place import SoftwareLimit, generation_rank
from models_lib.evaluation import UTIL_EPS
from models_lib.limits import specialty_name
from models_lib.pricing import PriceBook, configuration_cost
from models_lib.upgrade import generation_of
from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.mix import MixAnswer, mix_evaluate, mix_lpar
from sizing.jobs.workload import WorkloadModel
from sizing.presentation import NO_NAMES, ProductNames
from sizing.selectors.fitted import current_reference
from sizing.services.reports import product_names

#: Engine warnings about a workload's basis that a plan passes on besides the model warnings of
#: every job (``sizing.jobs.base.MODEL_WARNINGS``): what the sized demand covers.
BASIS_WARNINGS = frozenset({"cics-only"})

#: Engine options a plan passes to every evaluation (the estimate's names).
PLAN_ENGINE_OPTIONS = ("projection_band", "lpar_overhead", "server_share", "objective")

COLUMNS = (
    "candidate",
    "period",
    "label",
    "model",
    "cps",
    "ziips",
    "gcp_busy",
    "ziip_busy",
    "gcp_utilization",
    "ziip_utilization",
    "msu_consumed",
    "holds",
    "holds_at_low_cost",
    "holds_at_high_cost",
    "reasons",
)
#: Units of the table's numeric columns (an XLSX header: ``cps (CPs)``); the others are text.
COLUMN_UNITS = {
    "period": "period",
    "cps": "CPs",
    "ziips": "engines",
    "gcp_busy": "engines",
    "ziip_busy": "engines",
    "gcp_utilization": "fraction 0-1",
    "ziip_utilization": "fraction 0-1",
    "msu_consumed": "MSU",
}


#: Candidates of other kinds than a model or a generation, by kind: each answers one candidate
#: as :func:`evaluate_candidate` does (keywords ``owner``, ``inputs``, ``candidate``, ``index``,
#: ``rates``, ``years_per_period``, ``engine``, ``progress``).  ``sizing.jobs.plan_cec`` adds
#: ``cec`` (one of the owner's machines), registered when ``sizing.jobs`` is imported: it builds
#: on this module, which therefore does not import it.
KIND_EVALUATORS: dict[str, Callable[..., dict[str, Any]]] = {}
#: Further tables of the answer, by name: ``(period, candidates) -> {columns, rows}`` or None.
EXTRA_TABLES: dict[str, Callable[[str, Sequence[Mapping[str, Any]]], dict[str, Any] | None]] = {}


def years_per_period(period: str) -> float:
    return 0.25 if period == "quarter" else 1.0


def period_label(period: str, p: int) -> str:
    return f"Quarter {p}" if period == "quarter" else f"Year {p}"


def peak_tps(workload: Mapping[str, Any], p: int, period: str) -> float:
    """Peak TPS of ``workload`` in period ``p`` (1 = today's volume): the average grown by
    ``growth_pct`` a year (compounded, a quarter at a time for quarters) or by ``growth_tps`` a
    period, times the peak-to-average ratio."""
    average = float(workload["tps"])
    if workload.get("growth_tps") is not None:
        average += float(workload["growth_tps"]) * (p - 1)
    else:
        rate = float(workload.get("growth_pct") or 0.0) / 100.0
        average *= (1.0 + rate) ** ((p - 1) * years_per_period(period))
    return average * float(workload.get("peak_ratio") or 1.0)


def period_rates(inputs: Mapping[str, Any]) -> list[list[float]]:
    """Peak TPS per period (outer) and workload (inner)."""
    return [
        [peak_tps(w, p, inputs["period"]) for w in inputs["workloads"]] for p in range(1, int(inputs["horizon"]) + 1)
    ]


def scaled(models: Sequence[WorkloadModel], rates: Sequence[float], end: int) -> list[WorkloadModel]:
    """The workloads at one end (0 low, 1 high) of the engine's per-transaction cost range."""
    out = []
    for wm, t in zip(models, rates, strict=True):
        central = wm.native_busy(t) / t if t > 0.0 else 0.0
        k = wm.cost_range_s[end] / central if central > 0.0 else 1.0
        out.append(dataclasses.replace(wm, intercept=wm.intercept * k, slope=wm.slope * k))
    return out


def _reasons(answer: MixAnswer, names: Sequence[str | None] = ()) -> list[dict[str, str]]:
    """Why the LPAR does not carry the peak within the ceiling (empty: it does); ``names``: the
    workloads as the customer reads them, for a software limit's sentence."""
    lpar = answer.lpar
    eng = answer.models[0].policy.name  # zAAP on z10..zEC12/zBC12, else zIIP
    out: list[dict[str, str]] = []
    for w in answer.warnings:
        code = "engines" if w.code == "capacity-exceeded" else "cps"
        out.append({"code": code, "message": w.message[0].upper() + w.message[1:] + "."})
    if not lpar.stable:
        pool = "CPs" if lpar.gcp_busy >= lpar.cps else f"{eng}s"
        out.append({"code": "saturation", "message": f"Beyond saturation: the {pool} would be more than 100% busy."})
    cap = answer.models[0].max_engines(lpar.cps)
    full = lpar.ziips > 0 and lpar.ziip_busy >= lpar.ziips * answer.ceiling - 1e-9
    if out and cap is not None and lpar.ziips >= cap and full:
        out.append(
            {
                "code": "engines",
                "message": f"The {eng}s are at the most the rules allow beside {lpar.cps} CPs ({cap}): eligible "
                f"work that finds no {eng} runs on the CPs.",
            }
        )
    out.extend({"code": "software-limit", "message": s.sentence(peak=True)} for s in software_limits(answer, names))
    return out


def software_limits(answer: MixAnswer, names: Sequence[str | None] = ()) -> list[SoftwareLimit]:
    """The workloads of ``answer`` past their own software limit: where the rate runs the fitted
    software station above the ceiling (or at or beyond its saturation), as the estimate's
    predicate holds it (:func:`models_lib.feasibility.fits_at`, never fits there); no machine
    raises it, more instances or regions do.  ``names``: each workload as the customer reads it
    (none: ``path/configuration``).  The one check of a plan's periods and of a CEC placement
    (:func:`sizing.jobs.cec.cec_place`)."""
    ceiling = answer.ceiling
    out = []
    for i, (wm, t) in enumerate(zip(answer.models, answer.rates, strict=True)):
        software = wm.response.software if wm.response is not None else None
        if software is None:
            continue
        util = software.utilization(t)
        if util > ceiling + UTIL_EPS or util >= 1.0:
            name = names[i] if i < len(names) else None
            sat = software.saturation_tps()
            workload = name or f"{wm.path}/{wm.configuration}"
            out.append(SoftwareLimit(workload, t, sat * min(ceiling, 1.0), sat, ceiling))
    return out


def _holds(answer: MixAnswer) -> bool:
    return not _reasons(answer)


def _model_name(answer: MixAnswer, cps: int) -> str:
    table_ = answer.capacity
    setting = table_.full_speed_setting.get(answer.machine_type, "")
    rating = table_.settings.get((answer.machine_type, setting, cps))
    return rating.model if rating is not None and rating.model else f"{answer.machine_type} with {cps} CPs"


def installed_msu(answer: MixAnswer, cps: int, capacity_setting: str | None) -> float:
    """Installed MSU of the model: the LSPR rating of its machine type, setting and CPs."""
    table_ = answer.capacity
    setting = capacity_setting or table_.full_speed_setting.get(answer.machine_type, "")
    rating = table_.settings.get((answer.machine_type, setting, cps))
    return rating.msu if rating is not None else table_.ratings[(answer.machine_type, cps)].msu


def evaluate_candidate(
    *, owner: User, inputs: Mapping[str, Any], index: int, progress: Progress | None = None
) -> dict[str, Any]:
    """One candidate over every period: the mix job's LPAR at each period's peaks, its range
    and, for a generation, the installed models it sizes and which periods each holds."""
    candidate = inputs["candidates"][index]
    options = inputs.get("options") or {}
    engine = {k: options[k] for k in PLAN_ENGINE_OPTIONS if options.get(k) is not None}
    other = KIND_EVALUATORS.get(candidate["kind"])
    if other is not None:
        return other(
            owner=owner, inputs=inputs, candidate=candidate, index=index, rates=period_rates(inputs),
            years_per_period=years_per_period(inputs["period"]), engine=engine, progress=progress,
        )  # fmt: skip
    capacity = current_reference().lspr_table()
    fixed = candidate.get("cps")
    # The workloads by their products' names ("FiTeq Authenticator, multi-region"), never slugs.
    products = product_names(owner)
    names = [products.workload(w.get("path"), w.get("configuration")) for w in inputs["workloads"]]
    periods: list[dict[str, Any]] = []
    answers: list[MixAnswer] = []
    all_rates = period_rates(inputs)
    for p, rates in enumerate(all_rates, start=1):
        workloads = [
            {
                **{k: w[k] for k in ("path", "configuration") if k in w},
                "payload_bytes": w.get("payload_bytes"),
                "tps": t,
            }
            for w, t in zip(inputs["workloads"], rates, strict=True)
        ]
        answer = mix_evaluate(
            owner=owner,
            workloads=workloads,
            machine=candidate["machine"],
            cps=fixed,
            ziips=None,
            max_utilization=options.get("max_utilization"),
            capacity_setting=candidate.get("engine_setting"),
            capacity=capacity,
            **engine,
        )
        answers.append(answer)
        lpar = answer.lpar
        ends = [
            mix_lpar(scaled(answer.models, rates, e), rates, cps=fixed, ziips=None, capacity=capacity) for e in (0, 1)
        ]
        reasons = _reasons(answer, names)
        periods.append(
            {
                "period": p,
                "model": candidate.get("model") or _model_name(answer, lpar.cps),
                "cps": lpar.cps,
                "ziips": lpar.ziips,
                "gcp_busy": lpar.gcp_busy,
                "ziip_busy": lpar.ziip_busy,
                "gcp_utilization": lpar.gcp_utilization,
                "ziip_utilization": lpar.ziip_busy / lpar.ziips if lpar.ziips else None,
                "msu_consumed": answer.msu(),
                "mips_consumed": answer.mips(),
                "ceiling": answer.ceiling,
                "holds": not reasons,
                "reasons": reasons,
                "workloads": [
                    {"tps": t, "gcp_busy": g, "ziip_busy": z}
                    for t, g, z in zip(rates, lpar.gcp, lpar.on_ziip, strict=True)
                ],
                "range": {
                    "low": {"holds": _holds(ends[0]), "cps": ends[0].lpar.cps, "ziips": ends[0].lpar.ziips},
                    "high": {"holds": _holds(ends[1]), "cps": ends[1].lpar.cps, "ziips": ends[1].lpar.ziips},
                },
            }
        )
        if progress is not None:
            progress(p, len(all_rates))
    first = answers[0]
    if fixed is not None:
        models = [
            {
                "model": candidate["model"],
                "cps": fixed,
                "msu_installed": installed_msu(first, fixed, candidate.get("engine_setting")),
                "holds": [q["holds"] for q in periods],
                "ziips": [q["ziips"] for q in periods],
                "msu_consumed": [q["msu_consumed"] for q in periods],
            }
        ]
    else:
        # "Which model fits": each CP count it sizes is a model one could buy; which periods
        # does each carry (the same LPAR question at that CP count)?
        counts = sorted({q["cps"] for q in periods if q["holds"]})
        at = {c: [mix_lpar(a.models, a.rates, cps=c, ziips=None, capacity=capacity) for a in answers] for c in counts}
        models = [
            {
                "model": _model_name(first, c),
                "cps": c,
                "msu_installed": installed_msu(first, c, None),
                "holds": [_holds(x) for x in at[c]],
                "ziips": [x.lpar.ziips for x in at[c]],
                "msu_consumed": [x.msu() for x in at[c]],
            }
            for c in counts
        ]
    book = first.models[0].price_book  # the owner's prices (None: no cost is shown)
    basis = [
        [*warnings_of(wm.reference), *({"code": w["code"], "message": w["message"]} for w in wm.reference["warnings"]
                                        if w["code"] in BASIS_WARNINGS)]
        for wm in first.models
    ]  # fmt: skip
    priced = None if book is None else dataclasses.asdict(book)
    # the generation's specialty engine: zAAP on z10..zEC12/zBC12 (benchmarks/engine_rules.yaml)
    specialty = specialty_name(capacity, first.machine_type)
    return json_result(
        {**candidate, "index": index, "periods": periods, "models": models, "basis": basis, "price_book": priced,
         "specialty": specialty}
    )  # fmt: skip


def _first_not(flags: Sequence[bool]) -> int | None:
    return next((i + 1 for i, ok in enumerate(flags) if not ok), None)


def generation(machine_type: str | None) -> tuple[int, str]:
    """(place in time, name) of ``machine_type``'s generation in the LSPR table: (16, "z16")."""
    name = generation_of(current_reference().lspr_table(), machine_type or "") if machine_type else ""
    return generation_rank(name), name


def _options(candidates: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every model the candidates offer (with its machine, candidate and generation's place)."""
    return [
        {**m, "machine": c["machine"], "candidate": c["label"], "rank": generation(c.get("machine_type"))[0]}
        for c in candidates
        for m in c["models"]
        if m["msu_installed"] is not None
    ]


def _backwards(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Changing from ``a`` to ``b`` would go back a generation: no upgrade a planner signs."""
    return bool(a["rank"] and b["rank"] and b["rank"] < a["rank"])


def older_note(chosen: Mapping[str, Any], candidates: Sequence[Mapping[str, Any]]) -> str:
    """A sentence when the plan recommends a model of an older generation than your machine (the
    newest of your machines among the candidates), which it does only because you listed it;
    empty otherwise (no machine of yours among the candidates: nothing to be older than)."""
    mine = [c for c in candidates if c.get("kind") == "cec"]
    if not mine:
        return ""
    yours = max(mine, key=lambda c: generation(c.get("machine_type"))[0])
    rank, name = generation(yours.get("machine_type"))
    by_model = {m["model"]: c for c in candidates for m in c["models"]}
    older = []
    for model in (chosen.get("model"), chosen.get("upgrade_to")):
        c = by_model.get(str(model))
        if c is None or c.get("kind") == "cec":
            continue
        r, g = generation(c.get("machine_type"))
        if r and rank and r < rank:
            older.append(f"{model} is a {g}")
    if not older:
        return ""
    return (
        f" {' and '.join(older)}, an older generation than your {yours['cec']['name']} ({yours['model']}, {name}): "
        "it is recommended because you listed it as a candidate."
    )


def recommendation(
    *, candidates: Sequence[Mapping[str, Any]], period: str, horizon: int, names: ProductNames = NO_NAMES
) -> dict[str, Any]:
    """The cheapest plan in MSU-years: one model that holds every period, or model A now and
    model B from period N (A holds the periods before N, B the rest, A installs fewer MSU, B is
    of A's generation or a later one: going back a generation is no upgrade)."""
    per = years_per_period(period)
    options = _options(candidates)
    lasting = sorted((o for o in options if all(o["holds"])), key=lambda o: (o["msu_installed"], o["cps"], o["model"]))
    single = None
    if lasting:
        best = lasting[0]
        single = {"model": best["model"], "machine": best["machine"], "cps": best["cps"],
                  "msu_installed": best["msu_installed"], "msu_years": best["msu_installed"] * horizon * per,
                  **own_machine(best)}  # fmt: skip
    upgrade = None
    for a in options:
        for b in options:
            # one's own machine is no upgrade, nor is going back a generation
            if a["msu_installed"] >= b["msu_installed"] or "cec" in b or _backwards(a, b):
                continue
            for n in range(2, horizon + 1):
                if not (all(a["holds"][: n - 1]) and all(b["holds"][n - 1 :])):
                    continue
                cost = (a["msu_installed"] * (n - 1) + b["msu_installed"] * (horizon - n + 1)) * per
                if upgrade is None or cost < upgrade["msu_years"] - 1e-9:
                    upgrade = {"model": a["model"], "machine": a["machine"], "cps": a["cps"],
                               "msu_installed": a["msu_installed"], "upgrade_to": b["model"],
                               "upgrade_machine": b["machine"], "upgrade_cps": b["cps"],
                               "upgrade_msu_installed": b["msu_installed"], "upgrade_period": n,
                               "msu_years": cost, **own_machine(a)}  # fmt: skip
    if single is not None and (upgrade is None or single["msu_years"] <= upgrade["msu_years"] + 1e-9):
        chosen: dict[str, Any] = {"kind": "single", **single}
    elif upgrade is not None:
        chosen = {"kind": "upgrade", **upgrade}
    else:
        binding = binding_resources(candidates)
        return {"kind": "none", "binding": binding, "sentence": advice(binding), "single": None}
    chosen["single"] = single
    chosen["sentence"] = _sentence(chosen, period, names) + older_note(chosen, candidates)
    return chosen


def binding_resources(candidates: Sequence[Mapping[str, Any]]) -> list[str]:
    """What stops the candidates: the reason codes of the periods that do not hold (``cps``,
    ``engines``, ``saturation``, ``software-limit``), sorted."""
    return sorted({r["code"] for c in candidates for q in c["periods"] if not q["holds"] for r in q["reasons"]})


def advice(binding: Sequence[str]) -> str:
    """What to do when nothing lasts, following the binding resource (issue 32 items 8 and 10):
    a software limit (FiTeq's software station) is raised by more instances or regions, never
    by a larger machine; CPs and engines by larger candidates or a later generation."""
    software = "software-limit" in binding
    hardware = any(code != "software-limit" for code in binding)
    head = "No candidate carries every period's peak within the ceiling, alone or with one upgrade"
    spread = (
        "the workload's own software limit binds, which no machine raises: spread it over more "
        "instances or regions (each carries up to the limit)"
    )
    own = (
        " On your machine, the changes each period lists (weights, logical engines, engines) make the LPAR carry it."
        if any(code in ("share", "logical", "cec") for code in binding)
        else ""
    )
    if software and not hardware:
        return f"{head}: {spread}."
    if software:
        return f"{head}: {spread}; and add larger candidates or a later generation for the CPs.{own}"
    return f"{head}: add larger candidates or a later generation.{own}"


def stretch_cost(book: PriceBook, option: Mapping[str, Any], first: int, last: int, per: float) -> float:
    """The cost of ``option`` (a model of a candidate) held from period ``first`` to ``last``
    (1-based, inclusive): its CPs, the most specialty engines those periods need, and its MSU
    (installed, or the periods' mean consumed) over their years (:func:`configuration_cost`)."""
    consumed = option["msu_consumed"][first - 1 : last]
    return configuration_cost(
        book, cps=option["cps"], specialty=max(option["ziips"][first - 1 : last]),
        msu_installed=option["msu_installed"], msu_consumed=sum(consumed) / len(consumed), years=len(consumed) * per,
    ).total  # fmt: skip


def least_cost_recommendation(
    *, candidates: Sequence[Mapping[str, Any]], period: str, horizon: int, names: ProductNames = NO_NAMES
) -> dict[str, Any]:
    """The plan of least total cost from the owner's price book: one model that holds every
    period, or model A now and model B from period N (each priced for the years it is held;
    a model changed to is bought at its own engines' prices)."""
    stored = next((c["price_book"] for c in candidates if c.get("price_book")), None)
    if stored is None:
        return {"kind": "none", "sentence": "No price book: least-cost has nothing to price.", "single": None}
    book, per = PriceBook(**stored), years_per_period(period)
    options = _options(candidates)
    single = None
    for o in (o for o in options if all(o["holds"])):
        total = stretch_cost(book, o, 1, horizon, per)
        if single is None or total < single["cost"] - 1e-9:
            single = {"model": o["model"], "machine": o["machine"], "cps": o["cps"], "msu_installed": o["msu_installed"],
                      "msu_years": o["msu_installed"] * horizon * per, "cost": total, **own_machine(o)}  # fmt: skip
    upgrade = None
    for a in options:
        for b in options:
            for n in range(2, horizon + 1):
                if (
                    a is b
                    or "cec" in b
                    or _backwards(a, b)
                    or not (all(a["holds"][: n - 1]) and all(b["holds"][n - 1 :]))
                ):
                    continue
                total = stretch_cost(book, a, 1, n - 1, per) + stretch_cost(book, b, n, horizon, per)
                if upgrade is None or total < upgrade["cost"] - 1e-9:
                    upgrade = {"model": a["model"], "machine": a["machine"], "cps": a["cps"],
                               "msu_installed": a["msu_installed"], "upgrade_to": b["model"],
                               "upgrade_machine": b["machine"], "upgrade_cps": b["cps"],
                               "upgrade_msu_installed": b["msu_installed"], "upgrade_period": n,
                               "msu_years": (a["msu_installed"] * (n - 1) + b["msu_installed"] * (horizon - n + 1)) * per,
                               "cost": total, **own_machine(a)}  # fmt: skip
    if single is not None and (upgrade is None or single["cost"] <= upgrade["cost"] + 1e-9):
        chosen: dict[str, Any] = {"kind": "single", **single}
    elif upgrade is not None:
        chosen = {"kind": "upgrade", **upgrade}
    else:
        return {"kind": "none", "sentence": "No candidate carries every period's peak within the ceiling, "
                "alone or with one upgrade.", "single": None}  # fmt: skip
    chosen.update(single=single, currency=book.currency)
    money = f"{book.currency} {chosen['cost']:,.0f} over the horizon from your price book"
    chosen["sentence"] = (
        _sentence(chosen, period, names).rsplit(":", 1)[0] + f": {money}." + older_note(chosen, candidates)
    )
    return chosen


def own_machine(option: Mapping[str, Any]) -> dict[str, Any]:
    """The owner's machine (``cec``: its name) and the LPAR taking the work, for an option that
    is a CEC candidate's (nothing otherwise)."""
    return {"cec": option["cec"], "lpar": option["lpar"]} if "cec" in option else {}


def _sentence(chosen: Mapping[str, Any], period: str, names: ProductNames = NO_NAMES) -> str:
    """The recommendation in a sentence, each machine by its name ("IBM z16 A01"), never its slug."""
    now = f"{chosen['model']} ({names.machine(chosen['machine'])}, {chosen['cps']} CPs, {chosen['msu_installed']:,.0f} MSU)"
    if "cec" in chosen:
        verb, now = "Keep", f"your {chosen['cec']}, {now}, with the work in LPAR {chosen['lpar']}"
    else:
        verb = "Buy"
    if chosen["kind"] == "single":
        return (
            f"{verb} {now}: it carries every {period}'s peak within the ceiling, "
            f"{chosen['msu_years']:,.0f} MSU-years over the horizon."
        )
    text = (
        f"{verb} {now} now and upgrade to {chosen['upgrade_to']} ({names.machine(chosen['upgrade_machine'])}, "
        f"{chosen['upgrade_cps']} CPs, {chosen['upgrade_msu_installed']:,.0f} MSU) in "
        f"{period_label(period, chosen['upgrade_period']).lower()}: {chosen['msu_years']:,.0f} MSU-years"
    )
    single = chosen.get("single")
    if single is not None:
        whole = f"your {single['cec']} ({single['model']})" if "cec" in single else single["model"]
        text += f", less than {whole} for the whole horizon ({single['msu_years']:,.0f} MSU-years)"
    return text + "."


def plan_result(
    *, inputs: Mapping[str, Any], candidates: Sequence[Mapping[str, Any]], names: ProductNames = NO_NAMES
) -> dict[str, Any]:
    """The plan's answer from its candidates' (in candidate order); ``names``: the owner's product
    and machine names, for what a person reads (each period's workloads, the recommendation)."""
    period, horizon = inputs["period"], int(inputs["horizon"])
    ordered = sorted(candidates, key=lambda c: int(c["index"]))
    out_candidates = []
    rows = []
    for c in ordered:
        periods = c["periods"]
        runs_out = _first_not([q["holds"] for q in periods])
        earliest = _first_not([q["range"]["high"]["holds"] for q in periods])
        latest = _first_not([q["range"]["low"]["holds"] for q in periods])
        out_candidates.append({**c, "runs_out": runs_out, "runs_out_range": {"earliest": earliest, "latest": latest}})
        for q in periods:
            rows.append(
                [
                    c["label"], q["period"], period_label(period, q["period"]), q["model"], q["cps"], q["ziips"],
                    q["gcp_busy"], q["ziip_busy"], q["gcp_utilization"], q["ziip_utilization"], q["msu_consumed"],
                    q["holds"], q["range"]["low"]["holds"], q["range"]["high"]["holds"],
                    " ".join(r["message"] for r in q["reasons"]),
                ]
            )  # fmt: skip
    rates = period_rates(inputs)
    extra = {name: t for name, make in EXTRA_TABLES.items() if (t := make(period, out_candidates)) is not None}
    return json_result(
        {
            "kind": "plan",
            "period": period,
            "horizon": horizon,
            "periods": [
                {
                    "period": p,
                    "label": period_label(period, p),
                    "workloads": [
                        {
                            "label": workload_label(w),
                            "name": names.workload(w["path"], w["configuration"]),
                            "tps_peak": t,
                        }
                        for w, t in zip(inputs["workloads"], r, strict=True)
                    ],
                }
                for p, r in enumerate(rates, start=1)
            ],
            "candidates": out_candidates,
            "recommendation": (
                least_cost_recommendation(candidates=out_candidates, period=period, horizon=horizon, names=names)
                if (inputs.get("options") or {}).get("objective") == "least-cost"
                else recommendation(candidates=out_candidates, period=period, horizon=horizon, names=names)
            ),
            "table": table(COLUMNS, rows),
            **extra,
        }
    )


def workload_label(workload: Mapping[str, Any]) -> str:
    """A workload's slugs, "path/configuration" (what the CSV and the API key it by; a person
    reads its ``name``)."""
    return f"{workload['path']}/{workload['configuration']}"


def run_plan(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    """A chunk (``params["candidate"]``: one candidate's answer) or a whole plan (assembled)."""
    if params.get("candidate") is not None:
        return evaluate_candidate(owner=owner, inputs=params, index=int(params["candidate"]), progress=progress)
    count = len(params["candidates"])
    parts = []
    for i in range(count):

        def step(done: float, total: float, i: int = i) -> None:
            progress(i + done / max(total, 1.0), count)

        parts.append(evaluate_candidate(owner=owner, inputs=params, index=i, progress=step))
    return plan_result(inputs=params, candidates=parts, names=product_names(owner))


def evaluations(inputs: Mapping[str, Any]) -> int:
    """How many workload evaluations the plan asks for: each (candidate, period) LPAR question
    loads every workload once."""
    return len(inputs["candidates"]) * int(inputs["horizon"]) * len(inputs["workloads"])
