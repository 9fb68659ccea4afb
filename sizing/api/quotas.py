"""Quotas in the API: a create refused with 403 naming the quota, and each list showing it.

``QuotaView`` checks, after authentication and the throttles, the quota its action names
(``quota_actions = {"create": "calibrations"}``), in one transaction with the action itself under
a lock on the user's row, so that concurrent creates of one user cannot both pass the count; an
answer of 400 or more rolls the transaction back (nothing is stored, no old job is pruned).  It
shows ``list_quota`` with the list's page
(``{"count": ..., "quota": {"name", "used", "allowed", "setting"}, "results": [...]}``):
sizing.api.pagination.  The quotas themselves: sizing.services.quotas.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.http import HttpRequest
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from sizing.services.quotas import quota_check
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

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Response:
        method = (request.method or "").lower()
        action = getattr(self, "action_map", {}).get(method, method)
        if action not in self.quota_actions:
            return super().dispatch(request, *args, **kwargs)  # type: ignore[misc,no-any-return]
        # The check (initial) and the create (the handler) in one transaction: the owner's row
        # stays locked from the count to the commit (sizing.services.quotas.lock_owner).
        with transaction.atomic():
            response: Response = super().dispatch(request, *args, **kwargs)  # type: ignore[misc]
            if response.status_code >= 400:
                transaction.set_rollback(True)
        return response

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        action = getattr(self, "action", None) or (request.method or "").lower()
        name = self.quota_actions.get(action)
        if name is not None:
            quota_check(owner_id=signed_in_user(request).pk, name=name)
