"""Production settings: everything from the environment, no development defaults."""

import os

os.environ.setdefault("DJANGO_DEBUG", "0")

from django.core.exceptions import ImproperlyConfigured  # noqa: E402

from .base import *  # noqa: E402,F403

if not os.environ.get("DATABASE_URL"):
    raise ImproperlyConfigured("DATABASE_URL must be set in production (postgres://...).")
if not os.environ.get("CELERY_BROKER_URL"):
    raise ImproperlyConfigured("CELERY_BROKER_URL must be set in production (redis://...).")

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
