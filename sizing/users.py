"""The signed-in user behind a request, typed as the owner the services expect."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.urls import reverse
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


class SignInView(LoginView):
    """The login page.  Signing in lands on the sizing page (``LOGIN_REDIRECT_URL``), also when
    the sign-in was asked for by the home page (``/login/?next=/``: the Paths catalogue is where
    an anonymous visit to the site's address starts, not where a sizing engineer wants to be);
    any other page asked for is where it lands."""

    template_name = "registration/login.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        # The embedded default's first-run account: say that `make run` printed it (never the
        # password, nor where the server keeps it: the page is public).
        return {**super().get_context_data(**kwargs), "local_account": settings.ZSIZER_LOCAL_ACCOUNT}

    def get_redirect_url(self, *args: Any, **kwargs: Any) -> str:
        url = super().get_redirect_url(*args, **kwargs)
        return "" if url == reverse("home") else url
