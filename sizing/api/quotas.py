"""Quotas in the API: a create refused with 403 naming the quota, and each list showing it.

``QuotaView`` looks at the quota its action names (``quota_actions = {"create": "calibrations"}``)
after authentication and the throttles, before the action's work and without a lock
(``quota_precheck``): a user already at the quota gets the 403 before anything is sized.  The
check that holds under concurrency is the create service's own: after its work, one short
transaction locks the user's row, counts and writes (``quota_check``), so concurrent creates of
one user size in parallel and cannot both pass the count, and a failure stores nothing.  A new
create with a quota calls ``quota_check`` in its service (sizing.services.quotas).  It shows
``list_quota`` with the list's page
(``{"count": ..., "quota": {"name", "used", "allowed", "setting"}, "results": [...]}``):
sizing.api.pagination.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.request import Request

from sizing.services.quotas import quota_precheck
from sizing.users import signed_in_user


class QuotaExceededSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(help_text="a sentence naming the quota and the setting")
    code = serializers.CharField(help_text="quota_exceeded")
    quota = serializers.CharField(help_text="estimates, calibrations, plans or jobs")
    used = serializers.IntegerField()
    allowed = serializers.IntegerField()
    setting = serializers.CharField(help_text="the environment variable that sets the quota")


class QuotaSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    used = serializers.IntegerField()
    allowed = serializers.IntegerField()
    setting = serializers.CharField()


QUOTA_EXCEEDED = {
    403: OpenApiResponse(QuotaExceededSerializer, description="Quota reached (code quota_exceeded): delete some first")
}


class QuotaView:
    """Mix in before the view's DRF bases; see the module's docstring."""

    quota_actions: Mapping[str, str] = {}
    list_quota: str | None = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        action = getattr(self, "action", None) or (request.method or "").lower()
        name = self.quota_actions.get(action)
        if name is not None:
            quota_precheck(owner_id=signed_in_user(request).pk, name=name)
