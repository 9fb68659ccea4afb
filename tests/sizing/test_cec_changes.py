"""The changes a placement proposes are checked by the same predicate as the placement itself
(issue 29): an engines change on the same model is grown until placing the work again after it
fits (each engine added lowers every engine's LSPR rating: the MP effect), and where no change
on this model carries the work, another model is sized and placing the work on it fits."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from tests.sizing.test_cecs import EXAMPLE, ZOSCONNECT, _create

pytestmark = pytest.mark.django_db


def _place(api: Any, cec: dict[str, Any], lpar: str, tps: float) -> dict[str, Any]:
    response = api.post(f"{cec['url']}place/", {"lpar": lpar, "workloads": [{**ZOSCONNECT, "tps": tps}]},
                        format="json")  # fmt: skip
    assert response.status_code == 200, response.content
    out: dict[str, Any] = response.json()
    return out


def _pool(placed: dict[str, Any], pool: str) -> dict[str, Any]:
    return next(p for p in placed["pools"] if p["pool"] == pool)


def _with(body: dict[str, Any], lpar: str, pool: str, **changed: Any) -> dict[str, Any]:
    """``body`` with ``changed`` (``model``, ``ziips``; ``logical``: LPAR ``lpar``'s engines of ``pool``)."""
    lpars = [
        {**lp, pool: {**lp[pool], "logical": changed["logical"]}} if lp["name"] == lpar and "logical" in changed else lp
        for lp in body["lpars"]
    ]
    return {**body, **{k: v for k, v in changed.items() if k != "logical"}, "lpars": lpars}


def _same_work(api: Any, body: dict[str, Any], changed: dict[str, Any]) -> dict[str, Any]:
    """The machine ``changed`` stored with each LPAR's busy today kept as the same work as on
    ``body``: busy engines times the MIPS of one engine of ``body`` over one of ``changed``
    (each at its total engine count, from the API's shares)."""
    before, after = _create(api, body)["shares"], _create(api, changed)["shares"]
    old = {lp["name"]: lp for lp in body["lpars"]}
    lpars = []
    for lp in changed["lpars"]:
        moved = dict(lp)
        for pool in ("cp", "ziip"):
            if pool in lp and lp[pool]["logical"]:
                was = old[lp["name"]][pool]
                busy = was["logical"] * was.get("busy_pct", 0.0) / 100.0
                busy *= before[pool]["engine_mips"] / after[pool]["engine_mips"]
                moved[pool] = {**lp[pool], "busy_pct": busy / lp[pool]["logical"] * 100.0}
        lpars.append(moved)
    return _create(api, {**changed, "lpars": lpars})


def test_each_engines_change_fits_when_the_work_is_placed_again(api: Any) -> None:
    placed = _place(api, _create(api, EXAMPLE), "PROD", 2000)
    engines = [c for c in placed["changes"] if c["kind"] == "engines"]
    assert {c["pool"] for c in engines} == {"ziip", "cp"}
    for c in engines:
        grown = (
            _with(EXAMPLE, "PROD", "ziip", ziips=EXAMPLE["ziips"] + c["engines"], logical=c["logical"])
            if c["pool"] == "ziip"
            else _with(EXAMPLE, "PROD", "cp", model=c["model"], logical=c["logical"])
        )
        again = _place(api, _same_work(api, EXAMPLE, grown), "PROD", 2000)
        assert _pool(again, c["pool"])["fits"], (c["sentence"], _pool(again, c["pool"]))
    # The zIIP change as the answer applies it (today's busy as the same work, every LPAR's):
    after = placed["with_specialty_change"]
    assert _pool(after, "ziip")["fits"] and after["pools"][1]["installed"] == EXAMPLE["ziips"] + engines[0]["engines"]


MIDRANGE: dict[str, Any] = {
    "name": "Midrange z15",
    "model": "8562-Z06",
    "ziips": 2,
    "lpars": [{"name": "PROD", "cp": {"logical": 6, "weight": 900, "busy_pct": 60.0},
               "ziip": {"logical": 2, "weight": 900, "busy_pct": 20.0}},
              {"name": "TEST", "cp": {"logical": 2, "weight": 100, "busy_pct": 20.0}}],
}  # fmt: skip


@pytest.mark.parametrize(
    ("tps", "engines", "others"),
    [(2000, {"ziip"}, {"cp"}), (2500, set(), {"cp", "ziip"}), (4000, set(), {"cp", "ziip"})],
)
def test_another_model_is_sized_and_carries_the_work(api: Any, tps: float, engines: set[str], others: set[str]) -> None:
    # 8562-Z06 is the largest model of its type (6 CPs): no CP can be added on it, so the CPs
    # need another model; at 2,000 TPS the zIIPs within the ratio (2 per CP: 12) carry the
    # eligible work.  At 2,500 TPS they do not: the zIIPs need another model too, sized to all
    # the eligible work (what the ratio beside PROD's 6 CPs spills onto the CPs included).
    placed = _place(api, _create(api, MIDRANGE), "PROD", tps)
    assert not _pool(placed, "cp")["fits"] and not _pool(placed, "ziip")["fits"]
    assert {c["pool"] for c in placed["changes"] if c["kind"] == "engines"} == engines
    models = {c["pool"]: c for c in placed["changes"] if c["kind"] == "model"}
    assert set(models) == others, placed["changes"]
    for pool, change in models.items():
        assert change["model"] and change["model"] in change["sentence"] and change["model"] != MIDRANGE["model"]
        ziips = change["engines"] if pool == "ziip" else MIDRANGE["ziips"]
        moved = _with(MIDRANGE, "PROD", pool, model=change["model"], ziips=ziips, logical=change["logical"])
        again = _place(api, _same_work(api, MIDRANGE, moved), "PROD", tps)
        # Placing the work on that model (today's busy as the same work in MIPS) fits the pool,
        # with the figures the sentence gives.
        assert _pool(again, pool)["fits"], (change["sentence"], _pool(again, pool))
        figures = re.search(r"run ([\d.]+) of the ([\d.]+) within", change["sentence"])
        assert figures is not None
        assert float(figures.group(1)) == pytest.approx(_pool(again, pool)["total"], abs=0.005)
        ceiling = _pool(again, pool)["ceiling"] * _pool(again, pool)["share"]
        assert float(figures.group(2)) == pytest.approx(ceiling, abs=0.005)
    # PROD's 6 logical CPs admit 12 zIIPs (2 per CP, benchmarks/engine_rules.yaml): the zIIP model
    # is sized to what they carry, its logical zIIPs a few more for PROD's zIIP busy today.
    ziip = models["ziip"] if "ziip" in models else None
    if ziip is not None:
        today = MIDRANGE["lpars"][0]["ziip"]
        ceiling = _pool(placed, "ziip")["ceiling"]
        assert ziip["logical"] <= 2 * 6 + math.ceil(today["logical"] * today["busy_pct"] / 100 / ceiling)
    # The next smaller capacity identifier of the CP model's type and setting does not carry it.
    change = models["cp"]
    machine_type, rest = change["model"].split("-")
    smaller = f"{machine_type}-{rest[0]}{int(rest[1:]) - 1:02d}"
    assert int(rest[1:]) - 1 >= change["logical"], "the smaller model would not hold PROD's logical CPs"
    below = _with(MIDRANGE, "PROD", "cp", model=smaller, logical=change["logical"])
    assert not _pool(_place(api, _same_work(api, MIDRANGE, below), "PROD", tps), "cp")["fits"]


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ({"model": "9999-701"}, ["model"]),
        ({"lpars": [{"name": "PROD", "cp": {"logical": 8, "weight": 0}}]}, ["lpars", "0", "cp", "weight"]),
        ({"lpars": [{"name": "PROD", "cp": {"logical": 11, "weight": 100}}]}, ["lpars", "0", "cp", "logical"]),
        ({"lpars": [{"name": "PROD", "cp": {"logical": 8, "weight": 100, "busy_pct": 101}}]},
         ["lpars", "0", "cp", "busy_pct"]),
    ],
)  # fmt: skip
def test_a_bad_replacement_names_the_field_and_changes_nothing(
    api: Any, edit: dict[str, Any], field: list[str]
) -> None:
    cec = _create(api, EXAMPLE)
    response = api.put(cec["url"], {**EXAMPLE, "name": "changed", **edit}, format="json")
    assert response.status_code == 400, response.content
    body: Any = response.json()
    for key in field:
        body = body[key]
    assert isinstance(body, list) and body
    stored = api.get(cec["url"]).json()
    assert stored["name"] == EXAMPLE["name"] and stored["lpars"] == cec["lpars"]


def test_a_bad_new_lpar_names_the_field(api: Any) -> None:
    cec = _create(api, EXAMPLE)
    bad = {"name": "NEW", "cp": {"logical": 2, "weight": 0}}
    response = api.post(f"{cec['url']}place/", {"new_lpar": bad, "workloads": [{**ZOSCONNECT, "tps": 10}]},
                        format="json")  # fmt: skip
    assert response.status_code == 400
    assert response.json()["new_lpar"]["cp"]["weight"]
    assert api.get(cec["url"]).json()["lpars"] == cec["lpars"]


def test_one_lpar_holding_every_engine_with_ziips_is_the_estimate(api: Any, user: Any) -> None:
    # 10 CPs and 4 zIIPs, one LPAR holding them all: the placement is the estimate on 8561-710
    # with 10 CPs and 4 zIIPs, to 1e-9.  Both rate every engine at the 14 engines (8561-714's
    # MIPS / 14, the MP effect of the zIIPs too: issue 32), so the busy engines are the same.
    from numpy.testing import assert_allclose

    from sizing.services.estimates import estimate_compute

    body = {"name": "one", "model": "8561-710", "ziips": 4,
            "lpars": [{"name": "ALL", "cp": {"logical": 10, "weight": 10}, "ziip": {"logical": 4, "weight": 10}}]}  # fmt: skip
    placed = _place(api, _create(api, body), "ALL", 1500)
    inputs = {**ZOSCONNECT, "model": "8561-710", "tps": 1500, "cps": 10, "ziips": 4}
    _, _, est = estimate_compute(user=user, inputs=inputs)
    assert est["capacity"]["basis"]["mp_engines"] == 14
    assert_allclose(_pool(placed, "cp")["added"], est["busy_cps"]["gcp"], rtol=1e-9)
    assert_allclose(_pool(placed, "ziip")["added"], est["busy_cps"]["ziip"], rtol=1e-9)


def test_no_machine_types_engine_gets_faster_with_more_engines() -> None:
    # Another model's screen (models_lib.cec_place.model_candidates) stops adding zIIPs to a model
    # once an LPAR's work today no longer fits its logical engines there: more engines, none of
    # them faster.  That holds when one engine's MIPS at N engines (the LSPR rating's MIPS(N) / N)
    # never rises with N, for every machine type of the seeded LSPR table.
    from models_lib.capacity import per_engine_mips_at
    from sizing.selectors.fitted import current_reference

    table = current_reference().lspr_table()
    checked = 0
    for machine_type in {t for t, _ in table.ratings}:
        counts = sorted(n for t, n in table.ratings if t == machine_type)
        per_engine = [per_engine_mips_at(table, machine_type, n) for n in range(1, counts[-1] + 1)]
        assert all(b <= a + 1e-9 for a, b in zip(per_engine, per_engine[1:], strict=False)), machine_type
        checked += len(per_engine)
    assert checked > 1000


def test_when_no_model_carries_the_work_the_answer_says_so_and_why(api: Any) -> None:
    # 40,000 TPS into the midrange PROD: no capacity identifier of the seeded LSPR table, of z15
    # or later, gives PROD's CPs a share that carries it; the zIIPs still get their model.
    placed = _place(api, _create(api, MIDRANGE), "PROD", 40000)
    cp = [c for c in placed["changes"] if c["pool"] == "cp"]
    assert [(c["kind"], c["model"]) for c in cp] == [("model", None)]
    assert cp[0]["sentence"] == (
        "No rated model of z15 or a later generation carries PROD's CPs with this LPAR layout: on each, PROD's "
        f"share cannot hold its work today and the added work within {_pool(placed, 'cp')['ceiling']:.0%}, or "
        "another LPAR's work today would not fit its logical engines. Spread the work over more LPARs or machines."
    )
    assert any(c["pool"] == "ziip" and c["kind"] == "model" and c["model"] for c in placed["changes"])
