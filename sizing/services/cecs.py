"""The customer's machines (issue 29): a CEC's inputs validated once (400 naming the field, nested
by position: ``{"lpars": {"1": {"cp": {"weight": [...]}}}}``), stored per owner, read back as
the engine's record (:class:`models_lib.cec.Cec`), and its shares per pool.

The PR/SM rules are :mod:`models_lib.cec`; this module only checks the request, resolves the
model against the LSPR table (``sizing.selectors.targets.target_for``) and stores.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from rest_framework import serializers

from models_lib import limits
from models_lib.cec import MAX_WEIGHT, POOLS, Cec, Lpar, LparPool, check_cec, pool_engine_mips, shares_by_pool
from models_lib.checks import InputError
from models_lib.rmf_partition import PartitionDataReport
from sizing.models import CecConfiguration
from sizing.selectors.fitted import current_reference
from sizing.selectors.targets import machine_row, target_for
from sizing.services.estimate_inputs import EstimateInputSerializer
from sizing.services.estimates import resolve_configuration, with_calibration
from sizing.services.input_fields import FiniteFloatField, RejectUnknownFieldsMixin, StrictIntegerField
from sizing.services.plan_inputs import MAX_PLAN_WORKLOADS, check_workload_source, estimate_field
from sizing.services.quotas import quota_check

#: The estimate's engine options a placement passes on.
ENGINE_OPTIONS = ("projection_band", "lpar_overhead", "server_share", "objective")
#: Most LPARs of one CEC (PR/SM: up to 85 partitions on the largest machines).
MAX_LPARS = 85


class PoolInputSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """One LPAR's engines of one type."""

    logical = StrictIntegerField(min_value=0, max_value=256, help_text="Logical engines of this type")
    weight = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_WEIGHT,
        help_text="PR/SM processing weight 1..999 (shared); omit when dedicated",
    )  # fmt: skip
    capped = serializers.BooleanField(required=False, default=False, help_text="Initial capping (hard cap)")
    busy_pct = FiniteFloatField(
        required=False, default=0.0, min_value=0.0, max_value=100.0,
        help_text="Percent of its logical engines busy today (RMF LOGICAL PROCESSORS TOTAL)",
    )  # fmt: skip


class LparInputSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """An LPAR: its name, dedicated or shared, its CPs and zIIPs."""

    name = serializers.CharField(max_length=8, help_text="LPAR name (1..8 characters)")
    dedicated = serializers.BooleanField(required=False, default=False)
    cp = PoolInputSerializer(help_text="Its CPs")
    ziip = PoolInputSerializer(required=False, help_text="Its zIIPs (zAAPs on z10..zEC12)")


class CecInputSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """A machine configuration: the model, the engines installed, the LPARs, its date."""

    name = serializers.CharField(max_length=200, help_text="Your name for the machine")
    model = serializers.CharField(max_length=20, help_text="Model capacity identifier, e.g. 8561-710")
    ziips = StrictIntegerField(required=False, default=0, min_value=0, max_value=256, help_text="zIIPs installed")
    icfs = StrictIntegerField(required=False, default=0, min_value=0, max_value=256, help_text="ICFs installed")
    ifls = StrictIntegerField(required=False, default=0, min_value=0, max_value=256, help_text="IFLs installed")
    as_of = serializers.DateField(required=False, help_text="Date of the configuration and its busy (default today)")
    lpars = LparInputSerializer(many=True, min_length=1, max_length=MAX_LPARS, allow_empty=False)  # type: ignore[call-arg]


def nested_error(argument: str, message: str) -> dict[str, Any]:
    """``"lpars.1.cp.weight"`` -> ``{"lpars": {"1": {"cp": {"weight": [message]}}}}``."""
    parts = argument.split(".")
    out: Any = [message]
    for part in reversed(parts):
        out = {part: out}
    return dict(out)


def _pool(data: dict[str, Any] | None) -> LparPool:
    if not data:
        return LparPool()
    return LparPool(
        int(data["logical"]), data.get("weight"), bool(data.get("capped")), float(data.get("busy_pct") or 0.0)
    )


def lpar_record(data: dict[str, Any]) -> Lpar:
    """An LPAR as stored (JSON) -> the engine's record."""
    return Lpar(str(data["name"]), _pool(data["cp"]), _pool(data.get("ziip")), bool(data.get("dedicated")))


def lpar_json(lp: Lpar) -> dict[str, Any]:
    def pool(p: LparPool) -> dict[str, Any]:
        return {"logical": p.logical, "weight": p.weight, "capped": p.capped, "busy_pct": p.busy_pct}

    return {"name": lp.name, "dedicated": lp.dedicated, "cp": pool(lp.cp), "ziip": pool(lp.ziip)}


def specialty_name(machine_type: str) -> str:
    """zAAP where the generation runs eligible Java work on zAAPs (z10..zEC12/zBC12), else zIIP."""
    return limits.specialty_name(current_reference().lspr_table(), machine_type)


def machine_name(row: CecConfiguration) -> str:
    """The product name of the stored machine (``IBM z15 T01``), as every answer prints it."""
    found = machine_row(row.machine)
    return found.name if found is not None else row.machine


def cec_record(row: CecConfiguration) -> Cec:
    """The stored configuration as the engine's record."""
    return Cec(
        specialty=specialty_name(row.machine_type),
        model=row.model, machine_type=row.machine_type, capacity_setting=row.capacity_setting, cps=row.cps,
        ziips=row.ziips, icfs=row.icfs, ifls=row.ifls, lpars=tuple(lpar_record(x) for x in row.lpars),
    )  # fmt: skip


def cec_inputs(data: Any) -> dict[str, Any]:
    """The configuration as stored, or DRF's ``ValidationError`` naming the field."""
    form = CecInputSerializer(data=data)
    if not form.is_valid():
        raise serializers.ValidationError(form.errors)
    attrs = form.validated_data
    try:
        target = target_for(machine=None, model=attrs["model"])
    except ValidationError as exc:
        raise serializers.ValidationError(exc.message_dict) from None
    if target.model.cps is None:
        raise serializers.ValidationError({"model": ["Give a model capacity identifier with its CPs, e.g. 8561-710."]})
    lpars = tuple(lpar_record(x) for x in attrs["lpars"])
    names = [lp.name.upper() for lp in lpars]
    cec = Cec(
        model=target.model.model, machine_type=target.model.machine_type,
        capacity_setting=target.model.capacity_setting, cps=target.model.cps, ziips=attrs["ziips"],
        icfs=attrs["icfs"], ifls=attrs["ifls"], lpars=tuple(Lpar(n, lp.cp, lp.ziip, lp.dedicated) for n, lp in zip(names, lpars, strict=True)),
    )  # fmt: skip
    rules = current_reference().lspr_table().engine_rules.get(cec.machine_type)
    if rules is not None and cec.ziips > rules.ziips_per_cp * cec.cps:
        raise serializers.ValidationError(
            {"ziips": [f"{cec.ziips} zIIPs beside {cec.cps} CPs: the {rules.generation} allows at most "
                       f"{rules.ziips_per_cp:g} per CP ({rules.reference})."]}
        )  # fmt: skip
    try:
        check_cec(cec)
        for pool in POOLS:
            if cec.installed(pool):
                pool_engine_mips(current_reference().lspr_table(), cec, pool)
    except InputError as exc:
        raise serializers.ValidationError(nested_error(exc.argument, str(exc))) from None
    return {
        "name": attrs["name"],
        "model": cec.model,
        "machine_type": cec.machine_type,
        "machine": target.machine.slug,
        "capacity_setting": cec.capacity_setting,
        "cps": cec.cps,
        "ziips": cec.ziips,
        "icfs": cec.icfs,
        "ifls": cec.ifls,
        "as_of": attrs.get("as_of") or datetime.date.today(),
        "lpars": [lpar_json(lp) for lp in cec.lpars],
    }


def cec_create(*, user: User, data: Any) -> CecConfiguration:
    """Validate and store a configuration owned by ``user`` (nothing is stored on a 400); the
    quota is checked with the write (:func:`~sizing.services.quotas.quota_check`)."""
    fields = cec_inputs(data)
    with transaction.atomic():
        quota_check(owner_id=user.pk, name="cecs")
        return CecConfiguration.objects.create(owner=user, **fields)


def cec_update(*, row: CecConfiguration, data: Any) -> CecConfiguration:
    """Replace a stored configuration with a validated one (nothing is changed on a 400)."""
    fields = cec_inputs(data)
    with transaction.atomic():
        for key, value in fields.items():
            setattr(row, key, value)
        row.save()
    return row


def cec_shares(row: CecConfiguration) -> dict[str, Any]:
    """Each pool's shares as the API shows them: per LPAR its share, limit, VH/VM/VL and busy."""
    cec = cec_record(row)
    table = current_reference().lspr_table()
    out: dict[str, Any] = {}
    for pool, shares in shares_by_pool(cec).items():
        out[pool] = {
            "installed": cec.installed(pool),
            "engine_mips": pool_engine_mips(table, cec, pool),
            "total_engines": cec.total_engines,
            "lpars": [
                {
                    "name": s.name, "dedicated": s.dedicated, "capped": s.capped, "logical": s.logical,
                    "weight": s.weight, "weight_fraction": s.weight_fraction, "share": s.share,
                    "by_logical": s.by_logical, "limit": s.limit, "busy": s.busy, "vh": s.vh, "vm": s.vm, "vl": s.vl,
                }
                for s in shares
            ],
        }  # fmt: skip
    return out


def cec_from_partition_data(report: PartitionDataReport) -> dict[str, Any]:
    """What a pasted Partition Data Report says, in the shape of a configuration's inputs, to be
    checked and completed (the model is not in the report) before saving."""
    return {
        "ziips": report.installed("IIP") or report.installed("AAP"),
        "icfs": report.installed("ICF"),
        "ifls": report.installed("IFL"),
        "cps_installed": report.installed("CP"),
        "lpars": [lpar_json(lp) for lp in report.lpars()],
        "deactivated": list(report.deactivated),
        "interval_s": report.interval_s,
        "mvs_partition": report.mvs_partition,
    }


class CecWorkloadSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """One workload to place: a published path and configuration, or one of your calibrations, at a rate."""

    path = estimate_field("path")
    configuration = estimate_field("configuration")
    calibration = estimate_field("calibration")
    tps = estimate_field("tps", help_text="Transactions per second to add (> 0)")
    payload_bytes = estimate_field("payload_bytes")

    validate_tps = EstimateInputSerializer.validate_tps

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        check_workload_source(attrs)
        return attrs


class CecPlaceSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """Workloads to add to an existing LPAR (``lpar``) or a new one (``new_lpar``)."""

    workloads = CecWorkloadSerializer(many=True, min_length=1, max_length=MAX_PLAN_WORKLOADS, allow_empty=False)  # type: ignore[call-arg]
    lpar = serializers.CharField(required=False, max_length=8, help_text="The LPAR to add them to")
    new_lpar = LparInputSerializer(required=False, help_text="A new LPAR to add them to, instead of lpar")
    max_utilization = estimate_field("max_utilization")
    projection_band = estimate_field("projection_band")
    lpar_overhead = estimate_field("lpar_overhead")
    server_share = estimate_field("server_share")
    objective = estimate_field("objective")

    validate_max_utilization = EstimateInputSerializer.validate_max_utilization
    validate_projection_band = EstimateInputSerializer.validate_projection_band

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if (attrs.get("lpar") is None) == (attrs.get("new_lpar") is None):
            raise serializers.ValidationError({"lpar": ["Give lpar (an existing LPAR) or new_lpar (one)."]})
        return attrs


def place_inputs(*, user: User, row: CecConfiguration, data: Any) -> dict[str, Any]:
    """The placement question checked: workloads resolved (calibrations to their private
    configuration), the LPAR found; DRF's ``ValidationError`` naming the field otherwise."""
    form = CecPlaceSerializer(data=data)
    if not form.is_valid():
        raise serializers.ValidationError(form.errors)
    attrs = dict(form.validated_data)
    workloads: list[dict[str, Any]] = []
    errors: dict[str, Any] = {}
    for i, entry in enumerate(attrs["workloads"]):
        try:
            resolved = with_calibration(user=user, inputs=dict(entry))
            config = resolve_configuration(user=user, path=resolved["path"], configuration=resolved["configuration"])
        except ValidationError as exc:
            errors[str(i)] = exc.message_dict
            continue
        workloads.append(
            {"path": config.path.slug, "configuration": config.slug, "tps": resolved["tps"],
             "payload_bytes": resolved.get("payload_bytes"), "name": f"{config.path.name} ({config.name})"}
        )  # fmt: skip
    if errors:
        raise serializers.ValidationError({"workloads": errors})
    names = [str(x["name"]).upper() for x in row.lpars]
    lpar = attrs.get("lpar")
    if lpar is not None and lpar.upper() not in names:
        raise serializers.ValidationError({"lpar": [f"{lpar!r} is not an LPAR of {row.name}: {', '.join(names)}"]})
    new = attrs.get("new_lpar")
    engine = {k: attrs[k] for k in ENGINE_OPTIONS if attrs.get(k) is not None}
    return {
        "workloads": workloads,
        "lpar": None if lpar is None else lpar.upper(),
        "new_lpar": None if new is None else Lpar(str(new["name"]).upper(), _pool(new["cp"]), _pool(new.get("ziip"))),
        "max_utilization": attrs.get("max_utilization"),
        "engine": engine,
    }


class CecPlanWorkloadSerializer(CecWorkloadSerializer):
    """A workload to place, growing each year."""

    growth_pct = FiniteFloatField(
        required=False, default=0.0, min_value=-90.0, max_value=1000.0, help_text="Growth in % a year, compounded"
    )


class CecPlanSerializer(RejectUnknownFieldsMixin, serializers.Serializer[Any]):
    """The machine over time: workloads placed into one LPAR, each LPAR's load growing at its rate."""

    workloads = CecPlanWorkloadSerializer(many=True, min_length=1, max_length=MAX_PLAN_WORKLOADS, allow_empty=False)  # type: ignore[call-arg]
    lpar = serializers.CharField(max_length=8, help_text="The LPAR the workloads go to")
    lpar_growth_pct = serializers.DictField(
        child=FiniteFloatField(min_value=-90.0, max_value=1000.0), required=False, default=dict,
        help_text="LPAR name -> growth of its load today in % a year (default 0)",
    )  # fmt: skip
    horizon_years = StrictIntegerField(min_value=1, max_value=10, help_text="Years (1..10)")
    max_utilization = estimate_field("max_utilization")

    validate_max_utilization = EstimateInputSerializer.validate_max_utilization


def plan_inputs(*, user: User, row: CecConfiguration, data: Any) -> dict[str, Any]:
    """The question over time checked (400 naming the field): the workloads as a placement's,
    each with its growth, and growth rates of the machine's own LPARs only."""
    form = CecPlanSerializer(data=data)
    if not form.is_valid():
        raise serializers.ValidationError(form.errors)
    attrs = dict(form.validated_data)
    placed = place_inputs(user=user, row=row, data={"lpar": attrs["lpar"], "workloads": [
        {k: v for k, v in w.items() if k != "growth_pct" and v is not None} for w in attrs["workloads"]]})  # fmt: skip
    names = {str(x["name"]).upper() for x in row.lpars}
    growth = {str(k).upper(): float(v) for k, v in attrs["lpar_growth_pct"].items()}
    unknown = sorted(set(growth) - names)
    if unknown:
        raise serializers.ValidationError({"lpar_growth_pct": [f"{', '.join(unknown)}: not LPARs of {row.name}"]})
    workloads = [
        {**w, "growth_pct": g["growth_pct"]} for w, g in zip(placed["workloads"], attrs["workloads"], strict=True)
    ]
    return {"workloads": workloads, "lpar": placed["lpar"], "lpar_growth_pct": growth,
            "years": attrs["horizon_years"], "max_utilization": attrs.get("max_utilization")}  # fmt: skip
