"""Reads of private calibrations: only the owner's, with their fit as the engine makes it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from sizing.models import Calibration
from sizing.selectors.fitted import current_reference


def calibration_list(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Calibration]:
    """``user``'s calibrations, newest first (nobody else's: another user's id is a 404)."""
    return Calibration.objects.filter(owner_id=user.pk).select_related("machine", "configuration__path")


def calibration_fit(*, calibration: Calibration) -> dict[str, Any]:
    """The calibration's cost model as the engine fits it (cached per reference version):
    the sizing component with its CPU per transaction on the current machine, in full-speed
    CP-ms, and every fitted component's summary."""
    fitted = current_reference().fitted(calibration.configuration)
    model = fitted.model
    return {
        "primary": model.primary,
        "components": {name: fit.summary() for name, fit in model.fits.items()},
        "eligibility": None
        if fitted.data.eligibility is None
        else {
            "fraction": fitted.data.eligibility.fraction,
            "low": fitted.data.eligibility.low,
            "high": fitted.data.eligibility.high,
        },
        "response_model": fitted.response is not None,
    }
