"""The payload step: CPU per transaction scaled from the measured payload to the one asked for.

A published proportionality scales the cost from the measured payload; a "linear" statement
with an unknown fixed part gives a range whose higher-cost end is used
(:meth:`models_lib.costmodel.PayloadModel.scale`).  The decision is taken once, before a rate is
known (:func:`payload_decision`); :func:`payload_scaled` applies it to the demand at a rate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from models_lib.answer import SizingWarning
from models_lib.cost_basis import Basis
from models_lib.cost_bounds import bytes_text
from models_lib.costmodel import PayloadModel, PayloadScale

__all__ = ["PayloadStep", "payload_decision", "payload_scaled"]


@dataclass(frozen=True)
class PayloadStep:
    """The payload scale (``None``: unscaled), its statement, assumption and warnings."""

    scale: PayloadScale | None = None
    statements: tuple[int, ...] = ()
    assumptions: tuple[str, ...] = ()
    warnings: tuple[SizingWarning, ...] = ()

    @property
    def factor(self) -> float:
        """Central factor, dimensionless (1 when unscaled)."""
        return 1.0 if self.scale is None else self.scale.factor


def payload_decision(
    measured: tuple[float, float] | None, outside: bool, payload: int | None, pm: PayloadModel | None
) -> PayloadStep:
    """How the cost measured at ``measured`` bytes (range) is scaled to ``payload`` bytes."""
    if payload is None or measured is None:
        return PayloadStep()
    lo, hi = measured
    if not outside and lo <= payload <= hi:
        return PayloadStep()
    ref = lo if payload < lo else hi
    where = bytes_text(lo, hi)
    if pm is None or not math.isfinite(ref) or ref <= 0:
        return PayloadStep(
            warnings=(
                SizingWarning(
                    "payload-outside-range",
                    f"payload {payload} bytes is outside the measured {where} and no payload "
                    "relation is published for this configuration: CPU per transaction is held at "
                    f"the value measured at {where} (it may be higher for larger payloads)",
                ),
            )
        )
    sc = pm.scale(int(ref), payload)
    warnings = [
        SizingWarning(
            "payload-scaled",
            f"CPU per transaction scaled from {int(ref)} to {payload} bytes: factor "
            f"{sc.factor:.4g} (range {sc.low:.4g}-{sc.high:.4g}); {sc.assumption}",
        )
    ]
    if not sc.in_range:
        rng = pm.range_bytes
        rtext = (
            "unpublished"
            if rng is None
            else bytes_text(float(rng[0] or 0), math.inf if rng[1] is None else float(rng[1]))
        )
        warnings.append(
            SizingWarning(
                "payload-outside-range",
                f"payload {payload} bytes is outside the range of the published payload "
                f"relation ({rtext}, {pm.reference}): the relation is extrapolated",
            )
        )
    return PayloadStep(
        scale=sc,
        statements=() if pm.statement_id is None else (pm.statement_id,),
        assumptions=(sc.assumption,),
        warnings=tuple(warnings),
    )


def payload_scaled(basis: Basis, scale: PayloadScale | None) -> Basis:
    """``basis`` with its cost scaled by ``scale`` (numbers only; the payload factor recorded)."""
    if scale is None:
        return basis
    return replace(
        basis,
        total=basis.total * scale.factor,
        slope=basis.slope * scale.factor,
        intercept=basis.intercept * scale.factor,
        low=basis.low * scale.low,
        high=basis.high * scale.high,
        components={k: v * scale.factor for k, v in basis.components.items()},
        payload_factor=scale.factor,
    )
