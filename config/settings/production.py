"""Production settings (the Docker image's default): everything from the environment, no development defaults.

* DEBUG off, ``DJANGO_SECRET_KEY`` required, PostgreSQL (``DATABASE_URL``) and Redis
  (``CELERY_BROKER_URL``) required: there is no embedded fallback and no first-run account.
* HTTPS behind a TLS-terminating proxy that sets ``X-Forwarded-Proto`` (the compose file's
  ``proxy``): plain HTTP is redirected (except ``/healthz``, for container health checks),
  secure cookies, HSTS for a year.  ``DJANGO_SECURE_SSL_REDIRECT=0`` and
  ``DJANGO_SECURE_HSTS_SECONDS=0`` relax this when the proxy already does it.
* Static files from ``collectstatic`` (``STATIC_ROOT``): hashed names, gzip-compressed copies,
  served by WhiteNoise with a year-long immutable cache.
* Logs as one JSON object per line.

``manage.py check --deploy`` prints nothing with these settings.
"""

import os

os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("ZSIZER_LOG_FORMAT", "json")

from django.core.exceptions import ImproperlyConfigured  # noqa: E402

from config.env import env_bool, env_int  # noqa: E402

from .base import *  # noqa: E402,F403

if DEBUG:  # noqa: F405
    raise ImproperlyConfigured("DJANGO_DEBUG must be off with config.settings.production.")
if not os.environ.get("DATABASE_URL"):
    raise ImproperlyConfigured("DATABASE_URL must be set in production (postgres://...).")
if not os.environ.get("CELERY_BROKER_URL"):
    raise ImproperlyConfigured("CELERY_BROKER_URL must be set in production (redis://...).")
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:  # noqa: F405  (Django's own check --deploy rule)
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be at least 50 characters with at least 5 different ones "
        "(python -c 'import secrets; print(secrets.token_urlsafe(50))')."
    )

ZSIZER_LOCAL_ACCOUNT = False

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^healthz(/live|/ready)?$"]
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 365 * 24 * 3600, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.staticfiles.StaticStorage"},
}
# Serve what collectstatic wrote (hashed, compressed), not the source folders.
WHITENOISE_USE_FINDERS = False
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
