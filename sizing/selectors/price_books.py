"""The user's price book as the engine takes it (``models_lib.pricing.PriceBook``), or ``None``.

Every estimate reads its user's book (its cost comes from it), so the book is kept in the shared
answers cache (``ZSIZER_ANSWER_CACHE``: every web process and worker sees one copy), ``None``
included, under the user's id and the instant the user was created (a user made again with the
same id, in a database made again, never finds another's book).  Keeping it right:

* A reader that misses reads the row and *adds* it (``cache.add``: only where nothing is cached),
  so a reader that read the old row before a change can never overwrite what the change wrote.
* A change (save or delete of a book, by the API, the page, the admin, or a deleted user) reads
  the row again once its transaction has committed and *sets* it (:func:`refresh_cached_book`,
  from the model's signals), so the next estimate of any process prices from the new book.
* A read inside a transaction (which may see its own uncommitted change) reads the row and
  leaves the cache alone.
* Entries expire after ``BOOK_CACHE_SECONDS``: the bound on staleness should the cache lose a
  change's write (a Redis outage at that instant; the cache degrades to empty, not to an error).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import caches
from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

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
    """``user``'s prices for the engine, or ``None`` (no cost is shown, ``least-cost`` is refused);
    from the shared cache when it has them (see the module docstring)."""
    if user.pk is None:
        return None
    if connection.in_atomic_block:  # it may have changed the book itself: the row, not shared
        row = price_book_row(user=user)
        return None if row is None else engine_book(row)
    cache = caches[settings.ZSIZER_ANSWER_CACHE]
    key = book_cache_key(user)
    cached = cache.get(key)
    if isinstance(cached, dict) and "book" in cached:
        return None if cached["book"] is None else PriceBook(**cached["book"])
    row = price_book_row(user=user)
    book = None if row is None else engine_book(row)
    cache.add(key, _entry(book), BOOK_CACHE_SECONDS)
    return book


#: How long a cached book is trusted without a change to say otherwise (seconds).
BOOK_CACHE_SECONDS = 300


def book_cache_key(user: User) -> str:
    """The key of ``user``'s book in the answers cache."""
    return _book_key(user.pk, user.date_joined.timestamp())


def _book_key(user_id: int, joined: float) -> str:
    return f"price-book:v1:{user_id}:{joined:.6f}"


def _entry(book: PriceBook | None) -> dict[str, Any]:
    return {"book": None if book is None else {name: getattr(book, name) for name in BOOK_FIELDS}}


def refresh_cached_book(owner_id: int) -> None:
    """Read ``owner_id``'s book again (committed) and cache it, replacing what was cached."""
    joined = get_user_model().objects.filter(pk=owner_id).values_list("date_joined", flat=True).first()
    if joined is None:
        return  # the user is gone, and their key with them (no user has it again)
    row = PriceBookRow.objects.filter(owner_id=owner_id).first()
    key = _book_key(owner_id, joined.timestamp())
    caches[settings.ZSIZER_ANSWER_CACHE].set(key, _entry(None if row is None else engine_book(row)), BOOK_CACHE_SECONDS)


@receiver(post_save, sender=PriceBookRow, dispatch_uid="price-book-cache-save")
@receiver(post_delete, sender=PriceBookRow, dispatch_uid="price-book-cache-delete")
def _book_changed(sender: type[PriceBookRow], instance: PriceBookRow, **_: Any) -> None:
    owner_id = instance.owner_id
    transaction.on_commit(lambda: refresh_cached_book(owner_id))
