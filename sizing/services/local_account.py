"""The first-run account of the embedded default (``make run``): made once, remembered in ``var/``.

Like ``airflow standalone``: a newcomer who runs ``make run`` gets a local superuser with a
generated password, printed on every start and kept in ``settings.ZSIZER_LOCAL_ACCOUNT_FILE``
(readable by its owner only).  Only when ``settings.ZSIZER_LOCAL_ACCOUNT`` is on, i.e. the
embedded SQLite default with DEBUG on; production settings turn it off.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import UserManager
from django.db import transaction

USERNAME = "local"


@dataclass(frozen=True)
class LocalAccount:
    """What to tell the person at the terminal: a user name and, when still valid, its password."""

    username: str | None
    password: str | None
    created: bool
    note: str


def _read(path: Path) -> tuple[str, str] | None:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return str(doc["username"]), str(doc["password"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write(path: Path, username: str, password: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump({"username": username, "password": password}, out)
        out.write("\n")


@transaction.atomic
def local_account_ensure(*, path: Path) -> LocalAccount:
    """Create the local account if this database has no account yet, else say how to sign in."""
    users = cast("UserManager[Any]", get_user_model()._default_manager)
    remembered = _read(path)
    if remembered is not None:
        username, password = remembered
        user = users.filter(username=username).first()
        if user is None:  # the database was reset: bring the remembered account back
            users.create_superuser(username=username, email="", password=password)
            return LocalAccount(username, password, True, f"recreated; remembered in {path}")
        if user.check_password(password):
            return LocalAccount(username, password, False, f"remembered in {path}")
        return LocalAccount(username, None, False, "its password was changed since: use yours")
    if users.exists():
        return LocalAccount(None, None, False, "sign in with an account made with `make user`")
    password = secrets.token_urlsafe(12)
    users.create_superuser(username=USERNAME, email="", password=password)
    _write(path, USERNAME, password)
    return LocalAccount(USERNAME, password, True, f"created; remembered in {path}")
