"""The cost of a configuration from the user's own price book: hardware (CPs and specialty
engines, each priced one-off or per year) plus software (MSU, installed or consumed, per year)
over the book's term.  No price is ever assumed: without a book there is no cost.

:func:`configuration_cost` is the one function that computes a cost; the choice of the mix
(``least-cost``, :mod:`models_lib.choice`), the answer's ``cost`` block, the optimiser's and the
mix's candidates and a plan's recommendation all call it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from models_lib.answer_parts import Record
from models_lib.checks import InputError

if TYPE_CHECKING:
    from models_lib.evaluation import CountEvaluation
    from models_lib.inputs import CapacityTable

__all__ = [
    "ENGINE_BASES",
    "MAX_PRICE",
    "MAX_TERM_YEARS",
    "MSU_BASES",
    "ConfigurationCost",
    "PriceBook",
    "Pricer",
    "configuration_cost",
    "pricer_for",
    "rated_msu",
]

#: How an engine's price is paid: once (a purchase), or every year of the term (a lease, maintenance).
ENGINE_BASES: tuple[str, ...] = ("one-off", "per-year")
#: What MSU a software price applies to: the CPs' MSU installed (full-capacity licensing), or
#: the MSU consumed by the CP work (sub-capacity licensing, priced on what the CPs use).
MSU_BASES: tuple[str, ...] = ("installed", "consumed")
#: The largest price taken (per engine or per MSU-year): anything larger is a typing error.
MAX_PRICE = 1e12
#: The longest term, years.
MAX_TERM_YEARS = 50


def _price(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(name, f"{name} must be a number, got {value!r}")
    v = float(value)
    if not math.isfinite(v) or v < 0.0 or v > MAX_PRICE:
        raise InputError(name, f"{name} must be finite, >= 0 and at most {MAX_PRICE:g}, got {value!r}")
    return v


@dataclass(frozen=True)
class PriceBook:
    """A user's prices.  ``cp_price`` per CP and ``specialty_price`` per specialty engine (zIIP
    or zAAP), each paid ``one-off`` or ``per-year`` (``*_basis``); ``msu_price`` per MSU per year
    on the MSU ``installed`` or ``consumed`` (``msu_basis``); ``term_years`` the years a
    configuration is costed over; ``currency`` an ISO 4217 code the prices are in."""

    currency: str
    term_years: int
    cp_price: float
    cp_basis: str
    specialty_price: float
    specialty_basis: str
    msu_price: float
    msu_basis: str

    def __post_init__(self) -> None:
        if not (isinstance(self.currency, str) and len(self.currency) == 3 and self.currency.isalpha()):
            raise InputError("currency", f"currency must be a three-letter ISO 4217 code, got {self.currency!r}")
        term = self.term_years
        if isinstance(term, bool) or not isinstance(term, int) or not 1 <= term <= MAX_TERM_YEARS:
            raise InputError("term_years", f"term_years must be a whole number of years in 1..{MAX_TERM_YEARS}, got {term!r}")  # fmt: skip
        for name in ("cp_price", "specialty_price", "msu_price"):
            object.__setattr__(self, name, _price(name, getattr(self, name)))
        for name, allowed in (("cp_basis", ENGINE_BASES), ("specialty_basis", ENGINE_BASES), ("msu_basis", MSU_BASES)):
            if getattr(self, name) not in allowed:
                raise InputError(name, f"{name} must be one of {', '.join(allowed)}, got {getattr(self, name)!r}")
        object.__setattr__(self, "currency", self.currency.upper())


@dataclass(frozen=True, eq=False)
class ConfigurationCost(Record):
    """The cost of a configuration over the term (served as the answer's ``cost``): ``total`` =
    ``cps`` (hardware: the CPs) + ``specialty`` (hardware: the specialty engines) + ``software``
    (``msu`` MSU on the ``msu_basis`` at the book's price per MSU-year, times the term); the
    book's ``currency`` and ``term_years``."""

    currency: str
    term_years: float
    total: float
    cps: float
    specialty: float
    software: float
    msu: float
    msu_basis: str


def configuration_cost(
    book: PriceBook, *, cps: int, specialty: int, msu_installed: float, msu_consumed: float, years: float | None = None
) -> ConfigurationCost:
    """The cost over ``book.term_years`` (or ``years``: a plan's stretch) of ``cps`` CPs and
    ``specialty`` specialty engines whose CPs are rated ``msu_installed`` MSU and consume
    ``msu_consumed`` MSU (on average over the years):

    ``hardware = n * price * (term if per-year else 1)`` for the CPs and the specialty engines;
    ``software = MSU(installed or consumed) * msu_price * term`` (specialty engines carry no MSU).
    """
    term = book.term_years if years is None else years
    cp = cps * book.cp_price * (term if book.cp_basis == "per-year" else 1)
    sp = specialty * book.specialty_price * (term if book.specialty_basis == "per-year" else 1)
    msu = msu_installed if book.msu_basis == "installed" else msu_consumed
    software = msu * book.msu_price * term
    return ConfigurationCost(book.currency, term, cp + sp + software, cp, sp, software, msu, book.msu_basis)


def rated_msu(table: CapacityTable, machine_type: str, setting: str | None, cps: int) -> float:
    """MSU rating of ``cps`` CPs of ``machine_type`` at capacity ``setting`` (``None``: full speed)."""
    full = table.ratings[(machine_type, cps)]
    return (full if setting is None else table.settings.get((machine_type, setting, cps), full)).msu


@dataclass(frozen=True)
class Pricer:
    """A price book on one target: the cost of a count's evaluation (:meth:`cost`)."""

    book: PriceBook
    table: CapacityTable
    machine_type: str
    setting: str | None

    def cost(self, ev: CountEvaluation) -> ConfigurationCost:
        """:func:`configuration_cost` of ``ev``'s CPs and specialty engines and their MSU."""
        return self.mix(ev.n, ev.ziips, ev.gcp)

    def mix(self, cps: int, specialty: int, gcp: float) -> ConfigurationCost:
        """:func:`configuration_cost` of ``cps`` CPs (``gcp`` of them busy: the MSU consumed is
        that share of the rating) and ``specialty`` specialty engines."""
        installed = rated_msu(self.table, self.machine_type, self.setting, cps)
        return configuration_cost(
            self.book, cps=cps, specialty=specialty, msu_installed=installed, msu_consumed=gcp * installed / cps
        )

    def total(self, ev: CountEvaluation) -> float:
        return self.cost(ev).total


def pricer_for(
    book: PriceBook | None, objective: str, table: CapacityTable, machine_type: str, setting: str | None
) -> Pricer | None:
    """``book`` on a target (its machine type and capacity setting), ``None`` without one; an
    :class:`InputError` naming ``objective`` where ``least-cost`` is asked without a book."""
    if book is None:
        if objective == "least-cost":
            raise InputError("objective", "the least-cost objective needs your price book: none is given")
        return None
    if not isinstance(book, PriceBook):
        raise InputError("price_book", f"price_book must be a PriceBook, got {type(book).__name__}")
    return Pricer(book, table, machine_type, setting)
