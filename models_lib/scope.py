"""What the sized demand covers: the LPAR or the CICS regions, and the eligible share's scope.

Where a source publishes the CICS address spaces' CPU only, the LPAR is the CICS CPU times
``1 + overhead``: ``lpar_overhead`` when given, else the overhead the source states beside its
CICS CPU (:func:`lpar_decision`); a published eligible share
applies to the component it was published for, scaled by that part's share of the demand where
it is part of it (:func:`eligibility_step`).  Both are decided before a rate is known.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from models_lib.answer import SizingWarning
from models_lib.capacity import projection_factor
from models_lib.cost_basis import Basis
from models_lib.inputs import CapacityTable, ComponentCost, ConfigurationData, PublishedOverhead

__all__ = ["Eligibility", "LparStep", "eligibility_step", "lpar_decision", "lpar_scaled", "ratio_notes"]


@dataclass(frozen=True)
class LparStep:
    """The factor from the CICS regions to the LPAR (``None``: none applied), the factors at the
    low and high end of the overhead's range (equal to ``factor`` for a given overhead), and
    the step's notes and statements."""

    factor: float | None = None
    assumptions: tuple[str, ...] = ()
    warnings: tuple[SizingWarning, ...] = ()
    low: float | None = None
    high: float | None = None
    statements: tuple[int, ...] = ()


def lpar_decision(component: str, cfg: ConfigurationData, overhead: float | None) -> LparStep:
    """From the CICS regions to the LPAR where only CICS CPU is published.

    A given ``overhead`` (share of the CICS CPU) is used as given; without it, the overhead the
    source states (:class:`~models_lib.inputs.PublishedOverhead`, REDP-5320: 0.1645, range
    0.1136-0.1705), its range carried into the cost range; without either, ``cics-only``.
    """
    if component == "lpar":
        return LparStep()
    if overhead is not None:
        k = 1.0 + overhead
        return LparStep(
            factor=k,
            low=k,
            high=k,
            assumptions=(
                f"LPAR = {component} CPU x {k:.4g}: the rest of the LPAR is {overhead:.1%} of the "
                f"{component} CPU (lpar_overhead, given; it overrides the overhead the source states)",
            ),
        )
    published = cfg.lpar_overhead
    if published is None:
        return LparStep(
            warnings=(
                SizingWarning(
                    "cics-only",
                    f"{cfg.path}/{cfg.configuration} publishes the CPU of the '{component}' address "
                    "spaces only: the CPs sized carry those regions, not the rest of the LPAR (z/OS, "
                    "TCP/IP, monitors). Give lpar_overhead (the rest as a share of the CICS CPU) to size "
                    "the LPAR",
                ),
            )
        )
    return _published_lpar(component, cfg, published)


def _published_lpar(component: str, cfg: ConfigurationData, o: PublishedOverhead) -> LparStep:
    where = "" if o.measured_tps is None else f" at {o.measured_tps:,.1f} TPS"
    measured = o.measured_configuration
    carried = (
        ""
        if measured in (None, cfg.configuration)
        else f"; measured on {cfg.path}/{measured}{where} and carried to {cfg.configuration}, which publishes no "
        "LPAR figure (an assumption)"
    )
    text = (
        f"LPAR = {component} CPU x {1.0 + o.central:.4g} (range {1.0 + o.low:.4g}-{1.0 + o.high:.4g}): the rest of "
        f"the LPAR (z/OS, TCP/IP, RMF, WLM, uncaptured time) is {o.central:.2%} of the {component} CPU, from the "
        f"LPAR busy the source prints beside its CICS CPU{where}; low end {o.low:.2%} from the RMF policy total "
        f"(captured time only), high end {o.high:.2%} from the printed busy's upper end ({o.reference}){carried}. "
        "Measured at one rate and applied at every rate; lpar_overhead overrides it"
    )
    return LparStep(
        factor=1.0 + o.central,
        low=1.0 + o.low,
        high=1.0 + o.high,
        assumptions=(text,),
        statements=(o.statement_id,),
    )


def lpar_scaled(basis: Basis, step: LparStep) -> Basis:
    """``basis`` times the LPAR factor of ``step`` (numbers only; the low and high ends times the
    factors at the ends of the overhead's range), its LPAR component the new total."""
    k = step.factor
    if k is None:
        return basis
    k_lo = k if step.low is None else step.low
    k_hi = k if step.high is None else step.high
    total = basis.total * k
    return replace(
        basis,
        total=total,
        low=basis.low * k_lo,
        high=basis.high * k_hi,
        intercept=basis.intercept * k,
        slope=basis.slope * k,
        components={**basis.components, "lpar": total},
    )


def ratio_notes(config: ConfigurationData) -> tuple[tuple[SizingWarning, ...], tuple[int, ...]]:
    """``ratio-only``: published cost ratios to other configurations, shown for context."""
    if not config.ratios:
        return (), ()
    texts = [
        f"{r.numerator}/{r.denominator} = {r.low:g}-{r.high:g}"
        f" ({', '.join(f'{k}={v}' for k, v in r.condition.items() if not isinstance(v, str))})"
        for r in config.ratios
    ]
    warning = SizingWarning(
        "ratio-only",
        "published CPU-per-transaction ratios involving this configuration: "
        + "; ".join(texts)
        + ". They relate configurations measured under other conditions and are "
        "shown for context; the central value does not use them",
    )
    return (warning,), tuple(r.statement_id for r in config.ratios)


@dataclass(frozen=True)
class Eligibility:
    """The eligible share of the sized demand (fraction) and its range, with its scope.

    ``server_share``: the eligible part's share of the demand where the share was published for
    part of it (value, low, high, source), else ``None``; ``statements`` and ``points``: ids of
    the stored statements and points the share rests on (a borrowed cost's points included).
    """

    value: float
    low: float
    high: float
    warning: SizingWarning | None = None
    statements: tuple[int, ...] = ()
    assumptions: tuple[str, ...] = ()
    server_share: Mapping[str, Any] | None = None
    points: tuple[int, ...] = ()


def eligibility_step(
    basis: Basis,
    cfg: ConfigurationData,
    table: CapacityTable,
    server_share: float | None,
    other: ComponentCost | None,
) -> Eligibility:
    """Eligible share of the sized demand (``basis`` at any rate: only its line is read).

    A published share applies to the component it was published for.  Where that is part of
    the sized demand (the z/OS Connect server within the LPAR), the share is scaled by the
    part's share of the demand: ``server_share`` when given, else 1 - (a published cost of the
    other component on the same machine type, LSPR-projected to the measured CP count) / the
    cost per transaction; without either, the share is applied to the whole demand and the
    ``eligibility-scope`` warning says so.
    """
    elig = cfg.eligibility
    if elig is None:
        return Eligibility(
            0.0,
            0.0,
            0.0,
            SizingWarning(
                "no-eligibility-data",
                "no zIIP/zAAP eligibility is published for this configuration: 0 % eligible assumed "
                "(all work on general-purpose CPs)",
            ),
        )
    statements = () if elig.statement_id is None else (elig.statement_id,)
    assumptions = (
        f"eligible share {elig.fraction:.4g} of '{elig.applies_to}' (published range {elig.low:.4g}-"
        f"{elig.high:.4g}, {elig.reference})",
    )
    scope = set(elig.applies_to.split("+"))
    if elig.applies_to == "all" or basis.component in scope:
        return Eligibility(elig.fraction, elig.low, elig.high, None, statements, assumptions)
    share = _part_share(basis, cfg, table, server_share, other, scope)
    if share is None:
        warning = SizingWarning(
            "eligibility-scope",
            f"the eligible share {elig.fraction:.4g} was published for '{elig.applies_to}' but is applied "
            f"to the whole '{basis.component}' demand (no split published, none derivable, no server_share "
            f"given); work outside '{elig.applies_to}' is usually not eligible, so CP demand may be understated",
        )
        return Eligibility(elig.fraction, elig.low, elig.high, warning, statements, assumptions)
    s, s_lo, s_hi, text, other_ids, other_points = share
    warning = SizingWarning(
        "eligibility-scope",
        f"the eligible share {elig.fraction:.4g} was published for '{elig.applies_to}' only: it is applied "
        f"to that part, {s:.1%} (range {s_lo:.1%}-{s_hi:.1%}) of the '{basis.component}' demand; {text}",
    )
    return Eligibility(
        elig.fraction * s,
        elig.low * s_lo,
        elig.high * s_hi,
        warning,
        statements + other_ids,
        (*assumptions, text),
        {"value": s, "low": s_lo, "high": s_hi, "source": text},
        other_points,
    )


def _part_share(
    basis: Basis,
    cfg: ConfigurationData,
    table: CapacityTable,
    given: float | None,
    other: ComponentCost | None,
    scope: set[str],
) -> tuple[float, float, float, str, tuple[int, ...], tuple[int, ...]] | None:
    """(share, low, high, sentence, statement ids, point ids) of the eligible part in the sized
    demand, or ``None``."""
    if given is not None:
        return given, given, given, f"server_share {given:.4g} given by the user", (), ()
    if other is None or other.component in scope or other.machine_type != cfg.machine_type or basis.slope <= 0:
        return None
    k = projection_factor(table, other.machine_type, other.cps, cfg.machine_type, basis.from_cps).factor
    cost = basis.slope / basis.payload_factor  # as measured (the other cost is at its own payload)

    def share(c: float) -> float:
        return min(1.0, max(0.0, 1.0 - c * k / cost))

    text = (
        f"the {other.component} part of each transaction is taken as the published {other.component} cost "
        f"on the same machine type, {other.cost_s * 1000:.4g} ms (range {other.low_s * 1000:.4g}-"
        f"{other.high_s * 1000:.4g}) at {other.cps} CPs x LSPR {k:.4g} to {basis.from_cps} CPs ({other.reference}), "
        f"of {cost * 1000:.4g} ms per transaction; the rest is the server the share was published for. "
        "Override with server_share"
    )
    ids = tuple(other.statement_ids)
    return share(other.cost_s), share(other.high_s), share(other.low_s), text, ids, tuple(other.point_ids)
