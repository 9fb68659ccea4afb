"""Issue 32 item 2 through the API: one price book per user at /api/v1/price-book, the 400s that
name the field and store nothing, and an estimate's cost reproduced by hand from the book's
numbers, the answer's CPs, specialty engines and MSU, and the stored LSPR rating of the model.

The book is the test's own input, as a user's would be; no price comes from anywhere else.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from sizing.models import CapacityRating, PriceBook
from sizing.selectors.price_books import book_cache_key

pytestmark = pytest.mark.django_db

BOOK = {
    "currency": "EUR", "term_years": 5, "cp_price": 100_000.0, "cp_basis": "one-off",
    "specialty_price": 20_000.0, "specialty_basis": "per-year", "msu_price": 1_200.0, "msu_basis": "installed",
}  # fmt: skip
ZOSCONNECT = {"path": "zosconnect-cics", "configuration": "channel", "machine": "z13", "tps": 5000}
URL = "/api/v1/price-book"


def _by_hand(book: dict[str, Any], cps: int, ziips: int, msu_installed: float, msu_consumed: float) -> float:
    term = book["term_years"]
    hw_cp = cps * book["cp_price"] * (term if book["cp_basis"] == "per-year" else 1)
    hw_sp = ziips * book["specialty_price"] * (term if book["specialty_basis"] == "per-year" else 1)
    msu = msu_installed if book["msu_basis"] == "installed" else msu_consumed
    return float(hw_cp + hw_sp + msu * book["msu_price"] * term)


def _rated_msu(model: str) -> float:
    return CapacityRating.objects.get(model=model).msu


def test_put_get_replace_delete(api: Any) -> None:
    assert api.get(URL).status_code == 404
    created = api.put(URL, BOOK, format="json")
    assert created.status_code == 201, created.json()
    assert {k: created.json()[k] for k in BOOK} == BOOK
    replaced = api.put(URL, {**BOOK, "currency": "chf", "term_years": 3}, format="json")
    assert replaced.status_code == 200
    got = api.get(URL).json()
    assert got["currency"] == "CHF" and got["term_years"] == 3 and PriceBook.objects.count() == 1
    assert api.delete(URL).status_code == 204
    assert api.get(URL).status_code == 404 and PriceBook.objects.count() == 0


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("cp_price", -1), ("specialty_price", "nan"), ("msu_price", "Infinity"), ("msu_price", 1e13),
        ("term_years", 0), ("term_years", 2.5), ("currency", "EURO"), ("cp_basis", "monthly"),
        ("msu_basis", "peak"), ("cp_price", True), ("discount", 0.1),
    ],
)  # fmt: skip
def test_bad_input_is_a_400_naming_the_field_and_stores_nothing(api: Any, field: str, value: Any) -> None:
    response = api.put(URL, {**BOOK, field: value}, format="json")
    assert response.status_code == 400 and field in response.json(), response.json()
    assert PriceBook.objects.count() == 0
    api.put(URL, BOOK, format="json")
    assert api.put(URL, {**BOOK, field: value}, format="json").status_code == 400
    assert api.get(URL).json()["cp_price"] == BOOK["cp_price"]  # the stored book is unchanged


def test_a_missing_field_is_named(api: Any) -> None:
    body = {k: v for k, v in BOOK.items() if k != "msu_basis"}
    response = api.put(URL, body, format="json")
    assert response.status_code == 400 and "msu_basis" in response.json()


def test_without_a_book_no_cost_and_least_cost_is_a_400_naming_objective(api: Any) -> None:
    body = api.get("/api/v1/estimate", ZOSCONNECT).json()
    assert "cost" not in body
    refused = api.get("/api/v1/estimate", {**ZOSCONNECT, "objective": "least-cost"})
    assert refused.status_code == 400 and "objective" in refused.json(), refused.json()


def test_least_cost_estimate_reproduced_by_hand(api: Any) -> None:
    api.put(URL, BOOK, format="json")
    cheapest = api.get("/api/v1/estimate", {**ZOSCONNECT, "objective": "least-cost"}).json()
    cost = cheapest["cost"]
    cps, ziips, msu = cheapest["cps"], cheapest["ziips"], cheapest["msu"]
    installed = _rated_msu(cheapest["capacity"]["model"])
    assert cost["total"] == pytest.approx(_by_hand(BOOK, cps, ziips, installed, msu), rel=1e-12)
    assert cost["total"] == pytest.approx(cost["cps"] + cost["specialty"] + cost["software"], rel=1e-12)
    assert (cost["currency"], cost["term_years"], cost["msu"]) == ("EUR", 5, installed)
    # Every other objective's mix, and every CP count the answer could have taken, costs no less.
    for objective in ("least-msu", "fewest-cps", "fewest-engines"):
        other = api.get("/api/v1/estimate", {**ZOSCONNECT, "objective": objective}).json()
        by_hand = _by_hand(BOOK, other["cps"], other["ziips"], _rated_msu(other["capacity"]["model"]), other["msu"])
        assert other["cost"]["total"] == pytest.approx(by_hand, rel=1e-12)
        assert cost["total"] <= by_hand * (1 + 1e-12), objective
    for n in range(max(1, cps - 3), cps + 4):
        at = api.get("/api/v1/estimate", {**ZOSCONNECT, "cps": n}).json()
        if at["cps"] is None or at["gcp_utilization"] > at["max_utilization"]:
            continue
        by_hand = _by_hand(BOOK, n, at["ziips"], _rated_msu(at["capacity"]["model"]), at["msu"])
        assert cost["total"] <= by_hand * (1 + 1e-12), n


def test_a_book_is_its_owners_only(api: Any, other_user: Any) -> None:
    api.put(URL, BOOK, format="json")
    mine = api.get("/api/v1/estimate", ZOSCONNECT).json()
    assert mine["cost"]["currency"] == "EUR"
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=other_user).key}")
    assert other.get(URL).status_code == 404
    theirs = other.get("/api/v1/estimate", ZOSCONNECT).json()  # the same inputs: never my cached cost
    assert "cost" not in theirs
    assert other.put(URL, {**BOOK, "currency": "USD", "cp_price": 1.0}, format="json").status_code == 201
    assert other.get("/api/v1/estimate", ZOSCONNECT).json()["cost"]["currency"] == "USD"
    assert api.get("/api/v1/estimate", ZOSCONNECT).json()["cost"]["currency"] == "EUR"


def test_a_stored_estimate_keeps_its_cost(api: Any) -> None:
    api.put(URL, {**BOOK, "msu_basis": "consumed"}, format="json")
    created = api.post("/api/v1/estimates/", {**ZOSCONNECT, "objective": "least-cost"}, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    by_hand = _by_hand({**BOOK, "msu_basis": "consumed"}, body["cps"], body["ziips"], 0.0, body["msu"])
    assert body["cost"]["total"] == pytest.approx(by_hand, rel=1e-12)
    assert api.get(f"/api/v1/estimates/{body['id']}/").json()["cost"] == body["cost"]


def test_the_stored_choices_are_the_engines() -> None:
    from models_lib.pricing import ENGINE_BASES, MSU_BASES

    assert tuple(PriceBook.EngineBasis.values) == ENGINE_BASES
    assert tuple(PriceBook.MsuBasis.values) == MSU_BASES


# -- a plan's least-cost recommendation, by hand ------------------------------------------------

PLAN_WORKLOADS = [
    {"path": "zosconnect-cics", "configuration": "channel", "tps": 2000, "peak_ratio": 1.5, "growth_pct": 25},
    {"path": "cicsts-catalog", "configuration": "v5.3", "tps": 60000, "peak_ratio": 1.3, "growth_pct": 10},
]
PLAN_MODELS = ["3931-706", "3931-708", "3931-710", "9175-708", "9175-712", "9175-716"]
PLAN_YEARS = 5
PLAN_BOOK = {**BOOK, "specialty_basis": "per-year", "msu_basis": "consumed", "msu_price": 3_000.0}


def _plan_mix(user: Any, model: str, year: int) -> dict[str, Any]:
    from sizing.jobs.mix import run_mix

    machine = {"3931": "z16", "9175": "z17"}[model.split("-")[0]]
    rates = [w["tps"] * (1 + w["growth_pct"] / 100) ** (year - 1) * w["peak_ratio"] for w in PLAN_WORKLOADS]
    params = {
        "machine": machine,
        "cps": int(model.split("-")[1][1:]),
        "workloads": [
            {"path": w["path"], "configuration": w["configuration"], "tps": t}
            for w, t in zip(PLAN_WORKLOADS, rates, strict=True)
        ],
    }
    return run_mix(params=params, owner=user, progress=lambda done, total: None)


def _stretch(option: dict[str, Any], first: int, last: int) -> float:
    """A model held for years first..last: its CPs once, the most zIIPs those years need each year,
    the MSU consumed each year at the book's price (the book's numbers, nothing else)."""
    b = PLAN_BOOK
    years = last - first + 1
    ziips = max(option["ziips"][first - 1 : last])
    msu = sum(option["msu"][first - 1 : last])  # MSU consumed, summed over the years held
    return option["cps"] * b["cp_price"] + ziips * b["specialty_price"] * years + msu * b["msu_price"]


def test_a_plans_least_cost_recommendation_reproduced_by_hand(api: Any, user: Any, settings: Any) -> None:
    settings.ZSIZER_PLAN_INLINE_EVALUATIONS = len(PLAN_MODELS) * PLAN_YEARS * len(PLAN_WORKLOADS)
    body = {"name": "priced", "horizon_years": PLAN_YEARS, "workloads": PLAN_WORKLOADS, "candidates": PLAN_MODELS,
            "objective": "least-cost"}  # fmt: skip
    refused = api.post("/api/v1/plans/", body, format="json")
    assert refused.status_code == 400 and "objective" in refused.json(), refused.content
    api.put(URL, PLAN_BOOK, format="json")
    created = api.post("/api/v1/plans/", body, format="json")
    assert created.status_code == 201, created.content
    rec = created.json()["result"]["recommendation"]
    options = {}
    for model in PLAN_MODELS:
        answers = [_plan_mix(user, model, y) for y in range(1, PLAN_YEARS + 1)]
        options[model] = {
            "cps": answers[0]["cps"],
            "ziips": [a["ziips"] for a in answers],
            "msu": [a["combined"]["msu"] for a in answers],
            "holds": [not a["warnings"] and a["combined"]["saturation_scale"] > 1.0 for a in answers],
        }
    singles = [(_stretch(o, 1, PLAN_YEARS), m) for m, o in options.items() if all(o["holds"])]
    upgrades = [
        (_stretch(a, 1, n - 1) + _stretch(b, n, PLAN_YEARS), ma, mb, n)
        for ma, a in options.items()
        for mb, b in options.items()
        if ma != mb
        for n in range(2, PLAN_YEARS + 1)
        if all(a["holds"][: n - 1]) and all(b["holds"][n - 1 :])
    ]
    best_single = min(singles) if singles else None
    best_upgrade = min(upgrades) if upgrades else None
    assert best_single is not None or best_upgrade is not None
    if best_single is not None and (best_upgrade is None or best_single[0] <= best_upgrade[0]):
        assert (rec["kind"], rec["model"]) == ("single", best_single[1])
        assert rec["cost"] == pytest.approx(best_single[0], rel=1e-9)
    else:
        assert best_upgrade is not None
        assert (rec["kind"], rec["model"], rec["upgrade_to"], rec["upgrade_period"]) == ("upgrade", *best_upgrade[1:])
        assert rec["cost"] == pytest.approx(best_upgrade[0], rel=1e-9)
    assert rec["currency"] == "EUR" and "EUR" in rec["sentence"]


# -- the page ------------------------------------------------------------------------------------


def test_the_prices_page_saves_refuses_and_the_estimate_page_shows_the_cost(client: Any, user: Any, api: Any) -> None:
    client.force_login(user)
    page = client.get("/prices/")
    assert page.status_code == 200 and b"no price book yet" in page.content
    bad = client.post("/prices/", {**BOOK, "cp_price": "-5", "action": "save"})
    assert bad.status_code == 400 and b"err-cp_price" in bad.content and PriceBook.objects.count() == 0
    saved = client.post("/prices/", {**BOOK, "action": "save"})
    assert saved.status_code == 302 and PriceBook.objects.get().cp_price == BOOK["cp_price"]
    created = api.post("/api/v1/estimates/", {**ZOSCONNECT, "name": "priced"}, format="json").json()
    detail = client.get(f"/estimates/{created['id']}/").content.decode()
    total = f"EUR {created['cost']['total']:,.0f}"
    assert 'id="cost-card"' in detail and total in detail
    assert client.post("/prices/", {"action": "delete"}).status_code == 302 and PriceBook.objects.count() == 0


def test_the_pdf_and_csv_carry_the_cost(api: Any) -> None:
    import csv
    import io

    from tests.sizing.test_reports import pdf_text

    api.put(URL, BOOK, format="json")
    body = api.post("/api/v1/estimates/", {**ZOSCONNECT, "objective": "least-cost"}, format="json").json()
    response = api.get(f"/api/v1/estimates/{body['id']}/report.pdf")
    assert response.status_code == 200
    text = " ".join(" ".join(pdf_text(response.content)).split())
    assert "Cost from your price book" in text and f"EUR {body['cost']['total']:,.0f}" in text
    rows = list(csv.DictReader(io.StringIO(api.get(f"/api/v1/estimates/{body['id']}/?format=csv").content.decode())))
    (row,) = rows
    assert row["cost_currency"] == "EUR" and row["cost_msu_basis"] == "installed"
    assert float(row["cost_total"]) == pytest.approx(body["cost"]["total"], rel=1e-5)  # 6 significant digits
    assert row["objective"] == "least-cost"


@pytest.mark.django_db(transaction=True)
def test_the_book_is_read_from_the_cache_and_a_change_is_priced_by_the_next_estimate(
    user: Any, reload_benchmarks: None, django_assert_num_queries: Any
) -> None:
    """A repeated estimate does not read the book from the database (one query fewer than the
    same estimate with the book's cache entry dropped); a change of prices, by the API or by any
    save of the row, is priced by the very next estimate; a deleted book prices nothing."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    assert client.put(URL, BOOK, format="json").status_code == 201
    first = client.get("/api/v1/estimate", ZOSCONNECT).json()
    installed = _rated_msu(first["capacity"]["model"])
    assert first["cost"]["total"] == pytest.approx(
        _by_hand(BOOK, first["cps"], first["ziips"], installed, 0), rel=1e-12
    )
    caches[settings.ZSIZER_ANSWER_CACHE].delete(book_cache_key(user))
    with CaptureQueriesContext(connection) as cold:
        assert client.get("/api/v1/estimate", ZOSCONNECT).json() == first
    assert sum("sizing_pricebook" in q["sql"] for q in cold.captured_queries) == 1
    with django_assert_num_queries(len(cold.captured_queries) - 1) as warm:
        assert client.get("/api/v1/estimate", ZOSCONNECT).json() == first
    assert not any("sizing_pricebook" in q["sql"] for q in warm.captured_queries)
    # A new book through the API: the next estimate prices from it.
    dearer = {**BOOK, "currency": "USD", "cp_price": 150_000.0, "term_years": 3}
    assert client.put(URL, dearer, format="json").status_code == 200
    after = client.get("/api/v1/estimate", ZOSCONNECT).json()
    assert after["cost"]["currency"] == "USD"
    assert after["cost"]["total"] == pytest.approx(_by_hand(dearer, after["cps"], after["ziips"], installed, 0))
    # A change saved to the row by other code (the admin): seen too.
    row = PriceBook.objects.get(owner=user)
    row.msu_price = 0.0
    row.save()
    free_msu = client.get("/api/v1/estimate", ZOSCONNECT).json()["cost"]
    by_hand = _by_hand({**dearer, "msu_price": 0.0}, after["cps"], after["ziips"], installed, 0)
    assert (free_msu["software"], free_msu["total"]) == (0.0, pytest.approx(by_hand))
    assert client.delete(URL).status_code == 204
    assert "cost" not in client.get("/api/v1/estimate", ZOSCONNECT).json()
