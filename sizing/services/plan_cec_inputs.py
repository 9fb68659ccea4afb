"""A plan's candidate that is one of the owner's machines (issue 29 item 4), checked before
anything is stored: ``{"cec": 12, "lpar": "PROD", "lpar_growth": {"PROD": 5, "TEST": 20}}``, or
``"lpar"`` a new LPAR as a machine's ``lpars[]`` entry.

An unknown machine, another user's, an unknown LPAR, a new LPAR the machine cannot run, an
LPAR growth of a name that is no LPAR or below 0 answer 400 naming the field (under the
candidate's position: ``{"candidates": {"2": {"lpar_growth": {"PROD": [...]}}}}``).  The
machine is stored with the plan as it is now (a snapshot), so the plan's answer stays what it
was if the machine is edited or deleted later.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.contrib.auth.models import User
from rest_framework import serializers

from models_lib.cec import check_cec
from models_lib.checks import InputError
from sizing.models import CecConfiguration, Machine
from sizing.selectors.fitted import current_reference
from sizing.services.cecs import LparInputSerializer, cec_record, lpar_json, lpar_record, specialty_name
from sizing.services.input_fields import FiniteFloatField, RejectUnknownFieldsMixin, StrictIntegerField
from sizing.services.plan_inputs import MAX_GROWTH_PCT


class CecCandidateSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """One of your machines as a plan's candidate: the workloads go into one of its LPARs (or a new
    one), each LPAR's load today grows at its own rate."""

    cec = StrictIntegerField(min_value=1, help_text="The id of one of your machines (/api/v1/cecs/)")
    lpar = serializers.JSONField(
        help_text="The LPAR that takes the workloads: its name, or a new LPAR (name, dedicated, cp, ziip as in a "
        "machine's lpars[])"
    )
    lpar_growth = serializers.DictField(
        child=FiniteFloatField(min_value=0.0, max_value=MAX_GROWTH_PCT), required=False, default=dict,
        help_text="LPAR name -> growth of its load today in % a year, compounded (>= 0; default 0)",
    )  # fmt: skip


def cec_candidate(*, user: User, data: Any) -> dict[str, Any]:
    """The candidate as stored, or DRF's ``ValidationError`` naming the field within it."""
    form = CecCandidateSerializer(data=data)
    if not form.is_valid():
        raise serializers.ValidationError(form.errors)
    attrs = form.validated_data
    row = CecConfiguration.objects.filter(owner=user, pk=attrs["cec"]).first()
    if row is None:
        raise serializers.ValidationError({"cec": [f"No machine {attrs['cec']} among yours (/api/v1/cecs/)."]})
    names = [str(x["name"]).upper() for x in row.lpars]
    lpar, new = attrs["lpar"], None
    if isinstance(lpar, str):
        lpar = lpar.strip().upper()
        if lpar not in names:
            raise serializers.ValidationError({"lpar": [f"{lpar!r} is not an LPAR of {row.name}: {', '.join(names)}."]})
    elif isinstance(lpar, dict):
        spec = LparInputSerializer(data=lpar)
        if not spec.is_valid():
            raise serializers.ValidationError({"lpar": spec.errors})
        new = lpar_record({**spec.validated_data, "name": str(spec.validated_data["name"]).upper()})
        if new.name in names:
            raise serializers.ValidationError({"lpar": {"name": [f"LPAR {new.name} exists in {row.name}: name the new one "
                                                                 "otherwise, or give its name to place into it."]}})  # fmt: skip
        try:
            check_cec(dataclasses.replace(cec_record(row), lpars=(*cec_record(row).lpars, new)))
        except InputError as exc:
            raise serializers.ValidationError({"lpar": [str(exc)]}) from None
        lpar = new.name
    else:
        raise serializers.ValidationError({"lpar": ["Give an LPAR's name, or a new LPAR (name, cp, ziip)."]})
    growth = {str(k).strip().upper(): float(v) for k, v in attrs["lpar_growth"].items()}
    unknown = sorted(set(growth) - {*names, lpar})
    if unknown:
        raise serializers.ValidationError(
            {"lpar_growth": {k: [f"{k} is not an LPAR of {row.name} ({', '.join(names)})."] for k in unknown}}
        )
    full = current_reference().lspr_table().full_speed_setting.get(row.machine_type, "")
    where = f"new LPAR {lpar}" if new is not None else f"LPAR {lpar}"
    return {
        "kind": "cec",
        "label": f"{row.name} ({row.model}), {where}",
        "model": row.model,
        "machine": row.machine,
        "machine_type": row.machine_type,
        "machine_name": Machine.objects.filter(slug=row.machine).values_list("name", flat=True).first() or row.machine,
        "cps": row.cps,
        "engine_setting": None if row.capacity_setting == full else row.capacity_setting,
        "specialty": specialty_name(row.machine_type),
        "lpar": lpar,
        "new_lpar": None if new is None else lpar_json(new),
        "lpar_growth": growth,
        "cec": {
            "id": row.pk,
            "name": row.name,
            "as_of": row.as_of.isoformat(),
            "capacity_setting": row.capacity_setting,
            "ziips": row.ziips,
            "icfs": row.icfs,
            "ifls": row.ifls,
            "lpars": list(row.lpars),
        },  # fmt: skip
    }
