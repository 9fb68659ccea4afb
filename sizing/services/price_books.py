"""Price books: the one form that checks a book (the API and the page), and writing it.

A refused book is a 400 naming each bad field and stores nothing; the engine's own check
(``models_lib.pricing.PriceBook``) runs before the row is written, so a stored book always
makes a valid engine book.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from rest_framework import serializers

from models_lib.checks import InputError
from models_lib.pricing import MAX_PRICE, MAX_TERM_YEARS, PriceBook
from sizing.models import PriceBook as PriceBookRow
from sizing.selectors.price_books import BOOK_FIELDS
from sizing.services.input_fields import FiniteFloatField, RejectUnknownFieldsMixin, StrictIntegerField

_PRICE_ERRORS: dict[str, Any] = {
    "min_value": "Must be zero or more: a price.",
    "max_value": f"Must be at most {MAX_PRICE:,.0f}: is a digit too many?",
}


class PriceBookInputSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """Your prices: per CP and per specialty engine (one-off or per year), per MSU per year
    (installed or consumed), over a term, in one currency."""

    currency = serializers.RegexField(
        r"^[A-Za-z]{3}$", max_length=3, help_text="ISO 4217 currency code of every price, e.g. EUR, USD, CHF",
        error_messages={"invalid": "Must be a three-letter ISO 4217 code, e.g. EUR."},
    )  # fmt: skip
    term_years = StrictIntegerField(
        min_value=1, max_value=MAX_TERM_YEARS, help_text=f"Years a configuration is costed over (1..{MAX_TERM_YEARS})"
    )
    cp_price = FiniteFloatField(
        min_value=0, max_value=MAX_PRICE, error_messages=_PRICE_ERRORS, help_text="Price of one CP (>= 0)"
    )
    cp_basis = serializers.ChoiceField(
        choices=PriceBookRow.EngineBasis.choices, help_text="one-off: paid once; per-year: paid every year of the term"
    )
    specialty_price = FiniteFloatField(
        min_value=0, max_value=MAX_PRICE, error_messages=_PRICE_ERRORS,
        help_text="Price of one specialty engine (zIIP, or zAAP on z10..zEC12/zBC12) (>= 0)",
    )  # fmt: skip
    specialty_basis = serializers.ChoiceField(
        choices=PriceBookRow.EngineBasis.choices, help_text="one-off: paid once; per-year: paid every year of the term"
    )
    msu_price = FiniteFloatField(
        min_value=0, max_value=MAX_PRICE, error_messages=_PRICE_ERRORS,
        help_text="Software price per MSU per year (>= 0); specialty engines carry no MSU",
    )  # fmt: skip
    msu_basis = serializers.ChoiceField(
        choices=PriceBookRow.MsuBasis.choices,
        help_text="installed: the CPs' rated MSU (full-capacity licensing); consumed: the MSU the CP work uses "
        "(sub-capacity licensing)",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        try:
            book = PriceBook(**{name: attrs[name] for name in BOOK_FIELDS})
        except InputError as exc:
            raise serializers.ValidationError({exc.argument: [str(exc)]}) from None
        return {name: getattr(book, name) for name in BOOK_FIELDS}


def validated_price_book(data: Any) -> dict[str, Any]:
    """``data`` checked: the book's fields, or the ``serializers.ValidationError`` naming each bad one."""
    form = PriceBookInputSerializer(data=data)
    form.is_valid(raise_exception=True)
    return dict(form.validated_data)


def price_book_save(*, user: User, data: dict[str, Any]) -> tuple[PriceBookRow, bool]:
    """Store ``user``'s book (checked ``data``), replacing the one they had: (row, created)."""
    with transaction.atomic():
        row, created = PriceBookRow.objects.update_or_create(owner=user, defaults=data)
    return row, created


def price_book_delete(*, user: User) -> bool:
    """Remove ``user``'s book; whether there was one."""
    deleted, _ = PriceBookRow.objects.filter(owner_id=user.pk).delete()
    return deleted > 0


def price_book_form_fields() -> list[dict[str, Any]]:
    """The book's fields for the page's form: name, label, help, choices (``None``: a number or text)."""
    labels = {
        "currency": "Currency", "term_years": "Term (years)", "cp_price": "Price per CP", "cp_basis": "CP price paid",
        "specialty_price": "Price per zIIP / zAAP", "specialty_basis": "zIIP / zAAP price paid",
        "msu_price": "Software price per MSU per year", "msu_basis": "MSU priced",
    }  # fmt: skip
    form = PriceBookInputSerializer()
    out = []
    for name in BOOK_FIELDS:
        field = form.fields[name]
        choices = list(field.choices.items()) if isinstance(field, serializers.ChoiceField) else None
        out.append({"name": name, "label": labels[name], "help": str(field.help_text or ""), "choices": choices})
    return out
