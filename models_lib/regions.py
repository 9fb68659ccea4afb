"""CICS TS's fixed base as an input: the number of CICS regions (issue 32 item 7).

The CICS TS line ``busy = intercept + slope x TPS`` is fitted to REDP-5320's points, 38,667 to
174,624 TPS on 17 CICS regions; its intercept, the busy CPs at no load, is those regions' fixed
CPU.  On a small machine at a low rate that fixed base is most of the answer (9176-D05 at 1 TPS
was 76 % busy, 3,797 ms of CPU per transaction).  The user's own region count scales it:

    intercept(regions) = intercept(published) x regions / published regions

(a fixed CPU per region: the only relation the published data allow, stated in the answer),
the benchmark's count by default.  The slope (CPU per transaction) does not change.  Where at
the rate the fixed base is at least half of the demand, ``fixed-base-dominates`` says so.
"""

from __future__ import annotations

from dataclasses import replace

from models_lib.answer import SizingWarning
from models_lib.checks import InputError, opt_int
from models_lib.cost_basis import Basis
from models_lib.costmodel import ConfigurationModel, fit_configuration
from models_lib.inputs import ConfigurationData

__all__ = ["MAX_REGIONS", "fitted_for_regions", "fixed_base_warnings"]

#: The most CICS regions taken (a typing error beyond).
MAX_REGIONS = 10_000
#: The fixed base "dominates" from this share of the demand at the rate.
DOMINANT_SHARE = 0.5


def fitted_for_regions(
    config: ConfigurationData, model: ConfigurationModel | None, cics_regions: int | None
) -> tuple[ConfigurationModel, str]:
    """The configuration's fitted model (``model`` when given: it must be the configuration's)
    with its fixed base scaled to ``cics_regions`` CICS regions, and the basis sentence that says
    so ("" where the source publishes no region count)."""
    if model is not None and (model.path, model.configuration) != (config.path, config.configuration):
        raise InputError(
            "model", f"model belongs to {model.path}/{model.configuration}, not {config.path}/{config.configuration}"
        )
    fitted = model if model is not None else fit_configuration(config)
    given = opt_int("cics_regions", cics_regions, 1)
    published = config.regions
    if published is None or not fitted.has_cpu_model:
        if given is not None:
            raise InputError(
                "cics_regions",
                "cics_regions applies where the source publishes the number of CICS regions its CPU covers "
                "(CICS TS); this configuration's does not",
            )
        return fitted, ""
    if given is not None and given > MAX_REGIONS:
        raise InputError("cics_regions", f"cics_regions must be at most {MAX_REGIONS:,}, got {given!r}")
    regions = published.count if given is None else given
    assert fitted.primary is not None
    fit = fitted.primary_fit()
    k = regions / published.count
    scaled = replace(
        fit,
        intercept=fit.intercept * k,
        intercept_se=fit.intercept_se * k,
        cov=((fit.cov[0][0] * k * k, fit.cov[0][1] * k), (fit.cov[1][0] * k, fit.cov[1][1])),
        busy=tuple(b + fit.intercept * (k - 1.0) for b in fit.busy),  # the same residuals
    )
    whose = "the benchmark's, by default" if given is None else "as given"
    sentence = (
        f"CICS fixed base: {fit.intercept:.3g} busy CPs at no load for the benchmark's {published.count} CICS "
        f"regions ({published.reference}), the intercept of the line fitted to its rates; sized for {regions} "
        f"region{'s' if regions != 1 else ''} ({whose}): {scaled.intercept:.3g} busy CPs, a fixed CPU per region "
        f"assumed; give cics_regions for your own count"
    )
    return replace(fitted, fits={**fitted.fits, fitted.primary: scaled}), sentence


def fixed_base_warnings(config: ConfigurationData, basis: Basis, tps: float) -> list[SizingWarning]:
    """``fixed-base-dominates`` where the source publishes its region count and the fixed base is
    at least half of the demand at ``tps``."""
    if config.regions is None or basis.total <= 0.0 or basis.intercept < DOMINANT_SHARE * basis.total:
        return []
    return [
        SizingWarning(
            "fixed-base-dominates",
            f"at {tps:,.6g} TPS, {basis.intercept / basis.total:.0%} of the CPU is the CICS regions' fixed base "
            f"({basis.intercept:.3g} of {basis.total:.3g} busy engines on the measured LPAR), not the "
            f"transactions: the answer depends more on the number of CICS regions (cics_regions) than on the rate",
        )
    ]
