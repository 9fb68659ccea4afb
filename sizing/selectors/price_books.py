"""The user's price book as the engine takes it (``models_lib.pricing.PriceBook``), or ``None``."""

from __future__ import annotations

from django.contrib.auth.models import User

from models_lib.pricing import PriceBook
from sizing.models import PriceBook as PriceBookRow

#: The fields of a book, in the engine's order (the API's and the form's too).
BOOK_FIELDS = (
    "currency", "term_years", "cp_price", "cp_basis", "specialty_price", "specialty_basis", "msu_price", "msu_basis",
)  # fmt: skip

#: Why ``least-cost`` is refused without a book (a 400 on ``objective``).
NO_BOOK = (
    "least-cost prices each mix from your price book, and you have none: save one (PUT /api/v1/price-book, "
    "or the Prices page) or choose another objective."
)


def price_book_row(*, user: User) -> PriceBookRow | None:
    """``user``'s stored book (``None``: none, or an anonymous user)."""
    if user.pk is None:
        return None
    return PriceBookRow.objects.filter(owner_id=user.pk).first()


def engine_book(row: PriceBookRow) -> PriceBook:
    """A stored book as the engine's typed, checked book."""
    return PriceBook(**{name: getattr(row, name) for name in BOOK_FIELDS})


def price_book_for(*, user: User) -> PriceBook | None:
    """``user``'s prices for the engine, or ``None`` (no cost is shown, ``least-cost`` is refused)."""
    row = price_book_row(user=user)
    return None if row is None else engine_book(row)
