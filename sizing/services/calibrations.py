"""Private calibrations: a customer's measured intervals stored as a configuration only they see.

A calibration is checked by fitting it with the engine before anything is written, outside any
transaction (:func:`calibration_prepare`), then stored as a private
:class:`~sizing.models.Configuration` of the chosen path plus its
:class:`~sizing.models.Calibration` row, in one short transaction that checks the owner's quota
and starts a new reference version (so every process's cached catalogue and fits see it;
:func:`calibration_store`). Published rows are never touched.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import ProtectedError

from models_lib.calibration import (
    Interval,
    calibration_data,
    interval_from_dict,
    interval_from_section,
    intervals_from_csv,
    speed_factor,
)
from models_lib.costmodel import fit_configuration
from models_lib.inputs import CPU_COMPONENTS
from models_lib.rmf import parse_workload_activity
from sizing.models import Calibration, CapacityRating, Configuration, Path, Visibility
from sizing.selectors.fitted import current_reference
from sizing.services.quotas import quota_check
from sizing.services.reference_version import bump_reference_version


@dataclass(frozen=True)
class CurrentModel:
    """The customer's current machine, as one model of the capacity table."""

    rating: CapacityRating
    cps: int
    speed: float


def intervals_from_rmf(*, text: str, component: str = "lpar") -> tuple[Interval, ...]:
    """One interval per section of a pasted RMF report that has a rate and CPU (400 if none)."""
    try:
        report = parse_workload_activity(text)
    except ValueError as exc:
        raise ValidationError({"rmf_text": [str(exc)]}) from None
    try:
        found = [interval_from_section(s, component) for s in report.sections]
    except ValueError as exc:
        raise ValidationError({"rmf_text": [str(exc)]}) from None
    intervals = tuple(i for i in found if i is not None)
    if not intervals:
        raise ValidationError({"rmf_text": ["no section has both END/S > 0 and an APPL% CPU figure"]})
    return intervals


def _intervals(data: dict[str, Any], component: str) -> tuple[str, tuple[Interval, ...], str]:
    given = [key for key in ("intervals", "rmf_text", "csv_text") if data.get(key)]
    if len(given) != 1:
        raise ValidationError({"intervals": ["give exactly one of intervals, rmf_text or csv_text"]})
    key = given[0]
    if key == "rmf_text":
        return "rmf", intervals_from_rmf(text=data[key], component=component), data[key]
    try:
        if key == "csv_text":
            return "csv", intervals_from_csv(data[key]), data[key]
        items: Sequence[Any] = data[key]
        parsed = []
        for number, item in enumerate(items, start=1):
            if not isinstance(item, dict):
                raise ValueError(f"interval {number}: expected an object")
            try:
                parsed.append(interval_from_dict(item))
            except ValueError as exc:
                raise ValueError(f"interval {number}: {exc}") from None
        return "json", tuple(parsed), ""
    except ValueError as exc:
        raise ValidationError({key: [str(exc)]}) from None


def current_model(*, model: str, cps: int | None) -> CurrentModel:
    """Look up the current model (e.g. ``2827-710``) and the LPAR's CPs (default: the model's)."""
    rating = CapacityRating.objects.select_related("machine").filter(model__iexact=model.strip()).first()
    if rating is None:
        raise ValidationError({"model": [f"{model!r} is not a model of the capacity table (e.g. 3931-710)"]})
    lpar_cps = rating.cps if cps is None else cps
    if not 1 <= lpar_cps <= rating.cps:
        raise ValidationError({"cps": [f"the LPAR's CPs must be within 1..{rating.cps} on a {rating.model}"]})
    table = current_reference().lspr_table()
    try:
        speed = speed_factor(table, rating.machine.machine_type, rating.capacity_setting, lpar_cps)
    except ValueError as exc:
        raise ValidationError({"cps": [str(exc)]}) from None
    return CurrentModel(rating=rating, cps=lpar_cps, speed=speed)


@dataclass(frozen=True)
class PreparedCalibration:
    """A calibration checked and fitted, ready to be stored (:func:`calibration_prepare`)."""

    name: str
    path: Path
    current: CurrentModel
    ziips: int
    component: str
    slug: str
    source_kind: str
    intervals: tuple[Interval, ...]
    source_text: str


def calibration_prepare(*, data: dict[str, Any]) -> PreparedCalibration:
    """Check and fit a calibration without writing anything; 400 naming the field.

    ``data``: ``name``, ``path`` (slug), ``model`` (current model), optional ``cps``, ``ziips``,
    ``component`` and exactly one of ``intervals`` (list of objects), ``rmf_text``, ``csv_text``.
    """
    component = data.get("component") or "lpar"
    if component not in CPU_COMPONENTS:
        raise ValidationError({"component": [f"expected one of {', '.join(CPU_COMPONENTS)}"]})
    path = Path.objects.filter(slug__iexact=str(data.get("path", ""))).first()
    if path is None:
        known = ", ".join(Path.objects.order_by("slug").values_list("slug", flat=True))
        raise ValidationError({"path": [f"unknown path {data.get('path')!r}; known: {known}"]})
    current = current_model(model=str(data.get("model", "")), cps=data.get("cps"))
    source_kind, intervals, source_text = _intervals(data, component)
    slug = f"calibration-{uuid.uuid4().hex[:10]}"
    ziips = int(data.get("ziips") or 0)
    try:
        fit = fit_configuration(
            calibration_data(
                intervals,
                path=path.slug,
                configuration=slug,
                machine=current.rating.machine.slug,
                machine_type=current.rating.machine.machine_type,
                cps=current.cps,
                ziips=ziips,
                speed=current.speed,
            )
        )
    except ValueError as exc:
        raise ValidationError({"intervals": [str(exc)]}) from None
    if not fit.has_cpu_model:
        raise ValidationError({"intervals": ["no CPU component appears in two intervals: nothing to fit"]})
    for name, component_fit in fit.fits.items():
        # What the calibration's every read shows: a fit that is not a finite number is refused
        # here, before anything is stored, never found later by a list that cannot render it.
        try:
            json.dumps(component_fit.summary(), allow_nan=False)
        except ValueError:
            raise ValidationError(
                {"intervals": [f"the {name} CPU cannot be fitted to finite numbers; check the intervals' values"]}
            ) from None
    return PreparedCalibration(
        name=str(data["name"]),
        path=path,
        current=current,
        ziips=ziips,
        component=component,
        slug=slug,
        source_kind=source_kind,
        intervals=intervals,
        source_text=source_text,
    )


def calibration_store(*, user: User, prepared: PreparedCalibration) -> Calibration:
    """Store a prepared calibration owned by ``user``: the owner's quota checked, the private
    configuration and the calibration written and a new reference version started, in one short
    transaction (:func:`~sizing.services.quotas.quota_check`)."""
    current = prepared.current
    with transaction.atomic():
        quota_check(owner_id=user.pk, name="calibrations")
        configuration = Configuration.objects.create(
            path=prepared.path,
            slug=prepared.slug,
            name=prepared.name,
            description=f"Customer calibration measured on a {current.rating.model} ({current.cps} CPs)",
            attributes={"data_origin": "customer"},
            visibility=Visibility.PRIVATE,
            owner=user,
        )
        calibration = Calibration.objects.create(
            owner=user,
            name=prepared.name,
            configuration=configuration,
            machine=current.rating.machine,
            model=current.rating.model,
            capacity_setting=current.rating.capacity_setting,
            cps=current.cps,
            ziips=prepared.ziips,
            speed_factor=current.speed,
            component=prepared.component,
            intervals=[i.to_dict() for i in prepared.intervals],
            source_kind=prepared.source_kind,
            source_text=prepared.source_text,
        )
        bump_reference_version()
    return calibration


def calibration_create(*, user: User, data: dict[str, Any]) -> Calibration:
    """Check, fit and store a calibration owned by ``user``; 400 naming the field, nothing stored
    (:func:`calibration_prepare`, then :func:`calibration_store`)."""
    return calibration_store(user=user, prepared=calibration_prepare(data=data))


def calibration_delete(*, user: User, calibration: Calibration) -> None:
    """Delete the calibration and its private configuration (400 while estimates still use it)."""
    if calibration.owner.pk != user.pk:
        raise PermissionError("Only the owner can delete a calibration.")
    with transaction.atomic():
        configuration = calibration.configuration
        calibration.delete()
        try:
            configuration.delete()
        except ProtectedError:
            ids = sorted(configuration.estimates.values_list("id", flat=True))
            raise ValidationError(
                {"non_field_errors": [f"estimates {', '.join(map(str, ids))} use this calibration: delete them first"]}
            ) from None
        bump_reference_version()
