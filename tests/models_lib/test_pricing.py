"""Issue 32 item 2 in the engine: the cost of a configuration from a user's price book, and the
``least-cost`` objective, reproduced by hand.

The expected costs are computed here from the book's numbers and each candidate's CPs, specialty
engines and MSU: installed MSU read from the stored LSPR rows (``benchmarks/``), consumed MSU and
specialty engines from the engine's answer at that CP count.  No price is invented: a book is
the test's own input, as a user's would be.
"""

from __future__ import annotations

import math

import pytest

from models_lib.checks import InputError
from models_lib.prepared import prepare
from models_lib.pricing import PriceBook, configuration_cost
from models_lib.sizing import size
from tests.models_lib import published as P
from tests.models_lib.engine_data import table

Z13, Z16 = "2964", "3931"


def _book(**kw: object) -> PriceBook:
    base: dict[str, object] = dict(
        currency="eur", term_years=5, cp_price=100_000.0, cp_basis="one-off",
        specialty_price=20_000.0, specialty_basis="per-year", msu_price=1_200.0, msu_basis="installed",
    )  # fmt: skip
    base.update(kw)
    return PriceBook(**base)  # type: ignore[arg-type]


def _installed_msu(machine_type: str, cps: int, setting: str = "700") -> float:
    (row,) = P.lspr_rows(machine_type, [cps], setting)
    return float(row["msu"])


def _by_hand(book: PriceBook, cps: int, ziips: int, msu_installed: float, msu_consumed: float) -> float:
    term = book.term_years
    hw_cp = cps * book.cp_price * (term if book.cp_basis == "per-year" else 1)
    hw_sp = ziips * book.specialty_price * (term if book.specialty_basis == "per-year" else 1)
    msu = msu_installed if book.msu_basis == "installed" else msu_consumed
    return hw_cp + hw_sp + msu * book.msu_price * term


@pytest.mark.parametrize(
    ("path", "configuration", "machine_type", "tps", "book"),
    [
        ("zosconnect-cics", "channel", Z13, 5_000.0, _book()),
        ("zosconnect-cics", "channel", Z13, 5_000.0, _book(msu_basis="consumed", cp_price=0.0, specialty_price=50_000.0)),
        ("cicstg", "ipic-commarea-64", Z16, 2_000.0, _book(cp_basis="per-year", specialty_price=1_000_000.0)),
        ("fiteq-authenticator", "multi-region", Z16, 4_000.0, _book(msu_price=0.0)),
    ],
)  # fmt: skip
def test_least_cost_answer_is_the_cheapest_candidate_by_hand(
    path: str, configuration: str, machine_type: str, tps: float, book: PriceBook
) -> None:
    cfg = P.configuration(path, configuration)
    pw = prepare(cfg, target_machine=machine_type, target_machine_type=machine_type, capacity=table())
    r = pw.answer(tps, objective="least-cost", price_book=book)
    assert r.cps is not None and r.ziips is not None and r.msu is not None and r.cost is not None
    # The answer's own cost, by hand from its CPs, specialty engines and MSU.
    expected = _by_hand(book, r.cps, r.ziips, _installed_msu(machine_type, r.cps), r.msu)
    assert r.cost.total == pytest.approx(expected, rel=1e-12)
    assert r.cost.total == pytest.approx(r.cost.cps + r.cost.specialty + r.cost.software, rel=1e-12)
    assert r.to_dict()["cost"]["currency"] == "EUR"
    # Every CP count within the ceiling (each sized with its own specialty engines) costs at least as much.
    costs = {}
    for n in pw.counts:
        at = pw.answer(tps, cps=n)
        if at.gcp_utilization is None or at.gcp_utilization > pw.max_utilization + 1e-9 or at.cps is None:
            continue
        assert at.ziips is not None and at.msu is not None
        costs[n] = _by_hand(book, n, at.ziips, _installed_msu(machine_type, n), at.msu)
    assert costs, "some count carries the rate"
    cheapest = min(costs.values())
    assert r.cost.total == pytest.approx(cheapest, rel=1e-9)
    assert costs[r.cps] == pytest.approx(cheapest, rel=1e-9)


def test_without_a_price_book_there_is_no_cost_and_least_cost_is_refused() -> None:
    cfg = P.configuration("zosconnect-cics", "channel")
    r = size(cfg, target_machine="z13", target_machine_type=Z13, capacity=table(), tps=1_000.0)
    assert r.cost is None and "cost" not in r.to_dict()
    with pytest.raises(InputError) as err:
        size(cfg, target_machine="z13", target_machine_type=Z13, capacity=table(), tps=1_000.0, objective="least-cost")
    assert err.value.argument == "objective"


def test_the_other_objectives_show_the_cost_of_their_own_mix() -> None:
    cfg = P.configuration("zosconnect-cics", "channel")
    book = _book(msu_basis="consumed")
    r = size(cfg, target_machine="z13", target_machine_type=Z13, capacity=table(), tps=5_000.0, price_book=book)
    assert r.cps is not None and r.ziips is not None and r.msu is not None and r.cost is not None
    assert r.objective == "fewest-cps"
    assert r.cost.total == pytest.approx(_by_hand(book, r.cps, r.ziips, _installed_msu(Z13, r.cps), r.msu))


def test_sub_capacity_msu_installed_is_the_settings_rating() -> None:
    cfg = P.configuration("cicstg", "exci-commarea-31")
    book = _book()
    r = size(
        cfg, target_machine="z16", target_machine_type=Z16, capacity=table(), tps=200.0,
        capacity_setting="500", price_book=book, objective="least-cost",
    )  # fmt: skip
    assert r.cps is not None and r.ziips is not None and r.msu is not None and r.cost is not None
    assert r.cost.msu == _installed_msu(Z16, r.cps, "500")
    assert r.cost.total == pytest.approx(_by_hand(book, r.cps, r.ziips, _installed_msu(Z16, r.cps, "500"), r.msu))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("cp_price", -1.0), ("specialty_price", math.inf), ("msu_price", math.nan), ("msu_price", 1e13),
        ("term_years", 0), ("term_years", 51), ("term_years", 2.5), ("currency", "EURO"), ("currency", "E1R"),
        ("cp_basis", "monthly"), ("msu_basis", "peak"),
    ],
)  # fmt: skip
def test_a_bad_price_book_names_its_field(field: str, value: object) -> None:
    with pytest.raises(InputError) as err:
        _book(**{field: value})
    assert err.value.argument == field


def test_configuration_cost_adds_up_its_parts() -> None:
    book = _book(cp_basis="per-year", specialty_basis="one-off", msu_basis="consumed")
    c = configuration_cost(book, cps=3, specialty=2, msu_installed=400.0, msu_consumed=123.5)
    # 3 CPs x 100,000 x 5 years; 2 x 20,000 once; 123.5 MSU x 1,200 x 5 years.
    assert (c.cps, c.specialty, c.software) == (1_500_000.0, 40_000.0, 741_000.0)
    assert c.total == 2_281_000.0 and c.msu == 123.5 and c.msu_basis == "consumed"
