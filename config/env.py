"""Strict readers for settings taken from the environment.

A bad value raises ImproperlyConfigured naming the variable, so a misconfigured deployment
fails at start-up instead of at the first request.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no).")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={raw!r} must be at least {minimum}.")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_from_url(name: str, url: str, *, base_dir: Path) -> dict[str, Any]:
    """Turn ``postgres://user:pass@host:port/db`` or ``sqlite:///path`` into DATABASES['default'].

    PostgreSQL goes through psycopg 3 (Django's ``postgresql`` backend).
    """
    parsed = urlparse(url)
    scheme = parsed.scheme.lower()
    if scheme in {"postgres", "postgresql", "pgsql", "postgresql+psycopg"}:
        db_name = unquote(parsed.path.lstrip("/"))
        if not db_name:
            raise ImproperlyConfigured(f"{name}={url!r} names no database (postgres://user@host:5432/NAME).")
        try:
            port = parsed.port
        except ValueError:
            raise ImproperlyConfigured(f"{name}={url!r} has an invalid port.") from None
        options = {key: values[-1] for key, values in parse_qs(parsed.query).items()}
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": db_name,
            "USER": unquote(parsed.username or ""),
            "PASSWORD": unquote(parsed.password or ""),
            "HOST": parsed.hostname or "",
            "PORT": str(port or ""),
            "OPTIONS": options,
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
        }
    if scheme == "sqlite":
        # sqlite:///relative/path, sqlite:////absolute/path, sqlite:///:memory:
        raw_path = url[len("sqlite://") :]
        path = raw_path[1:] if raw_path.startswith("/") else raw_path
        if not path:
            raise ImproperlyConfigured(f"{name}={url!r} names no database file (sqlite:///var/zsizer.sqlite3).")
        db_path = path if path == ":memory:" or Path(path).is_absolute() else str(base_dir / path)
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": db_path}
    raise ImproperlyConfigured(
        f"{name}={url!r} is not supported: use postgres://user:password@host:port/name or sqlite:///path."
    )


def check_broker_url(name: str, url: str) -> str:
    scheme = urlparse(url).scheme.lower()
    if scheme not in {"redis", "rediss"}:
        raise ImproperlyConfigured(f"{name}={url!r} is not a Redis URL (redis://host:6379/0).")
    return url


def site_address(name: str, raw: str) -> tuple[str, str] | None:
    """The host name and the browser origin of the TLS proxy's site address, or ``None`` if empty.

    The value is what Caddy's ``--from`` takes (the compose file's ``ZSIZER_SITE_ADDRESS``):
    ``sizing.example.com``, ``https://sizing.example.com``, ``sizing.example.com:8443`` or
    ``http://sizing.example.com``; the origin is ``https://`` unless the address says ``http://``.
    """
    value = raw.strip()
    if not value:
        return None
    parsed = urlparse(value if "://" in value else f"https://{value}")
    try:
        port = parsed.port
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} has an invalid port.") from None
    host = parsed.hostname or ""
    if parsed.scheme not in {"http", "https"} or not host or parsed.path not in {"", "/"} or parsed.query:
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not a site address: give a host name, e.g. sizing.example.com or "
            "https://sizing.example.com:8443."
        )
    default_port = 443 if parsed.scheme == "https" else 80
    netloc = f"[{host}]" if ":" in host else host
    origin = f"{parsed.scheme}://{netloc}" + (f":{port}" if port not in (None, default_port) else "")
    return host, origin
