"""The version of the reference data: bumped by every write to published or private reference data.

Fitted models and computed answers are cached under the current version's token
(``sizing.selectors.fitted``); a write that does not call :func:`bump_reference_version` in its
transaction leaves every process answering from the old data.
"""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from sizing.models import ReferenceVersion
from sizing.selectors.fitted import expire_local_check


def bump_reference_version() -> str:
    """Start a new reference-data version (in the caller's transaction); returns its token.

    Call it in the same transaction as the write to reference data (``load_benchmarks``, the
    admin, a private calibration), so the new token becomes visible exactly when the data do.
    """
    token = uuid.uuid4().hex
    now = timezone.now()
    with transaction.atomic():
        updated = ReferenceVersion.objects.filter(id=1).update(token=token, number=F("number") + 1, changed_at=now)
        if not updated:
            try:
                with transaction.atomic():
                    ReferenceVersion.objects.create(id=1, token=token, number=1, changed_at=now)
            except IntegrityError:  # created meanwhile by a concurrent bump
                ReferenceVersion.objects.filter(id=1).update(token=token, number=F("number") + 1, changed_at=now)
    # This process looks again at its next read, and again once the write is committed (or
    # rolled back), instead of waiting for its check interval.
    expire_local_check()
    transaction.on_commit(expire_local_check)
    return token
