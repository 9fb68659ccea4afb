"""Fitted cost models of every configuration, with their leave-one-out errors (a read)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from models_lib.costmodel import median_abs_loo_error
from sizing.selectors.fitted import current_reference
from sizing.selectors.reference import visible_configurations


def fitted_models(*, user: User, path: str | None = None) -> list[dict[str, Any]]:
    configs = visible_configurations(user=user).select_related("path__native_machine").order_by("path__slug", "slug")
    if path:
        configs = configs.filter(path__slug__iexact=path)
    reference = current_reference()
    out = []
    for config in configs:
        fitted = reference.fitted(config)
        data, model = fitted.data, fitted.model
        rows = model.loo_table()
        out.append(
            {
                "path": config.path.slug,
                "configuration": config.slug,
                "machine": data.machine,
                "machine_type": data.machine_type,
                "lpar_cps": data.lpar_cps,
                "primary": model.primary,
                "points": list(model.point_ids),
                "fits": {component: fit.summary() for component, fit in model.fits.items()},
                "leave_one_out": [row.to_dict() for row in rows],
                "loo_median_abs_error": median_abs_loo_error(rows),
                "has_cpu_model": model.has_cpu_model,
                "bounds": [b.statement_id for b in data.bounds],
                "eligibility": data.eligibility.statement_id if data.eligibility else None,
            }
        )
    return out
