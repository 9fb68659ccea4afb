"""The app's URLs plus the baselines the bench compares against (bench settings only).

``POST bench/baseline-rows/`` is the trivial authenticated POST that stores a row as the app
stores every user's row: the same authentication and throttle (class and scope), a small input
serializer, and the saved-estimates quota (the early look, then the owner's lock, the look and
one INSERT into the estimates table in one short transaction), with no sizing.  What the
estimate endpoint pays beyond it is the sizing.  ``GET /api/v1/machines/`` (a short authenticated list of the app
itself) is the GET baseline.
"""

from __future__ import annotations

from django.db import transaction
from django.urls import path
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import urlpatterns as app_urlpatterns
from sizing.api.quotas import QuotaView
from sizing.api.throttles import SharedScopedRateThrottle
from sizing.models import Estimate
from sizing.services.quotas import quota_check


class _RowInput(serializers.Serializer):
    configuration_id = serializers.IntegerField()
    machine_id = serializers.IntegerField()
    tps = serializers.FloatField(min_value=0)
    name = serializers.CharField(required=False, allow_blank=True, default="")


class BaselineRowView(QuotaView, APIView):
    # The estimate endpoints' own throttle class (its history in the shared cache), not only scope,
    # and their quota (QuotaView's early look, quota_check's lock and look).
    throttle_classes = [SharedScopedRateThrottle]
    throttle_scope = "estimates"
    quota_actions = {"post": "estimates"}

    def post(self, request: Request) -> Response:
        data = _RowInput(data=request.data)
        data.is_valid(raise_exception=True)
        with transaction.atomic():
            quota_check(owner_id=request.user.pk, name="estimates")
            row = Estimate.objects.create(
                owner=request.user,
                name=data.validated_data["name"],
                configuration_id=data.validated_data["configuration_id"],
                machine_id=data.validated_data["machine_id"],
                tps=data.validated_data["tps"],
                inputs=dict(data.validated_data),
                outputs={},
                model_version="baseline",
            )
        return Response({"id": row.id}, status=status.HTTP_201_CREATED)


urlpatterns = [path("bench/baseline-rows/", BaselineRowView.as_view()), *app_urlpatterns]
