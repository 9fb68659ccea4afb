"""Estimate request and response shapes (the API contract that spreadsheets rely on).

The answer's blocks are described in sizing.api.result_schema."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.reverse import reverse

from sizing.models import Estimate

# The API's request shape is the estimate's input form (shared with the workbench and the batch job).
from sizing.services.estimate_inputs import EstimateInputSerializer as EstimateInputSerializer


class EstimateOutputSerializer(serializers.ModelSerializer[Estimate]):
    path = serializers.CharField(source="configuration.path.slug")
    configuration = serializers.CharField(source="configuration.slug")
    machine = serializers.CharField(source="machine.slug")
    owner = serializers.CharField(source="owner.username")
    url = serializers.HyperlinkedIdentityField(view_name="estimate-detail")

    class Meta:
        model = Estimate
        fields = [
            "id",
            "url",
            "name",
            "owner",
            "path",
            "configuration",
            "machine",
            "tps",
            "inputs",
            "model_version",
            "created_at",
        ]

    def to_representation(self, instance: Estimate) -> dict[str, Any]:
        # Built directly rather than through the declared fields: the same keys and values, but
        # without DRF's per-instance field machinery (about 1 ms per estimate; the fields stay
        # declared above for the schema).  tests/sizing/test_estimates_api.py compares the two.
        data = {
            "id": instance.pk,
            "url": reverse("estimate-detail", kwargs={"pk": instance.pk}, request=self.context.get("request")),
            "name": instance.name,
            "owner": instance.owner.get_username(),
            "path": instance.configuration.path.slug,
            "configuration": instance.configuration.slug,
            "machine": instance.machine.slug,
            "tps": float(instance.tps),
            "inputs": instance.inputs,
            "model_version": instance.model_version,
            "created_at": _CREATED_AT.to_representation(instance.created_at),
        }
        # The answer's fields at top level too, so a client reads estimate["cps_required"]; a
        # column keeps its value where the answer has a field of the same name (path, tps...).
        data.update({k: v for k, v in instance.outputs.items() if k not in data})
        return data


#: Formats ``created_at`` exactly as the declared DateTimeField would (ISO 8601, settings' zone).
_CREATED_AT = serializers.DateTimeField()


class ErrorSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(required=False, help_text="a sentence; field errors are keyed by field name")
