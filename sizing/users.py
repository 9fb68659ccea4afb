"""The signed-in user behind a request, typed as the owner the services expect."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from rest_framework.request import Request


def signed_in_user(request: HttpRequest | Request) -> User:
    """The request's user as a ``User``.

    Every caller sits behind ``login_required`` or DRF's ``IsAuthenticated``, so an anonymous
    user never gets here; if one did, the answer is a 403, not an estimate owned by nobody.
    """
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied("Sign in to use zsizer.")
    return user
