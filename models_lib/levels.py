"""Warning levels that depend on what was asked: a source's own measured configuration.

A warning's level says how much it matters to the person buying (:data:`models_lib.answer.
WARNING_LEVELS`).  Some warnings are decisions in general and not for one question: the
configuration a source measured, asked at a rate it published, is what the source ran, so a
high CP busy, eligible work on CPs or a software limit stated for other circumstances describe
the measurement, not an answer that does not hold.  REDP-5320 ran 174,624.3 TPS on 18 CPs at
97 % LPAR busy; the z/OS Connect EE V3.0 summary ran 1,000 TPS on 6 GCPs with no zIIPs (so the
eligible work ran on CPs); CICS TG V9.0 ran 1,780 TPS on 3 GCPs with one zAAP that "was unable
to satisfy all the eligible workload".  Decided from the inputs: the machine type measured at
full speed, the CPs and specialty engines given equal to a measured LPAR's, the payload as
measured and the rate at or below a rate published for that LPAR.

References
----------
.. [1] REDP-5320, Table 1 and section "CICS TS with performance class monitoring".
.. [2] z/OS Connect EE V3.0 Performance Summary, section 7.1.
.. [3] CICS TG V9.0 Performance summary, Scenario 1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from models_lib.answer import SizingWarning
from models_lib.inputs import ConfigurationData

__all__ = ["AS_MEASURED", "as_measured", "measured_rates"]

#: Codes that are caveats, not decisions, for a measured configuration at its published rate.
AS_MEASURED = frozenset({"utilization-above-ceiling", "ziip-overflow", "published-limit", "engine-ratio"})


def measured_rates(config: ConfigurationData) -> dict[tuple[int, int], float]:
    """(CPs, specialty engines) of each LPAR the source measured -> the highest rate it
    published on it, transactions/s (points with CPU data and sustained bounds)."""
    out: dict[tuple[int, int], float] = {}
    runs: Iterable[tuple[int | None, int, float]] = (
        *((p.lpar_cps, p.ziips, p.etr) for p in config.points),
        *((b.gcps, b.ziips, b.tps) for b in config.bounds if b.outcome == "sustained"),
    )
    for cps, specialty, tps in runs:
        if cps is not None:
            key = (cps, specialty)
            out[key] = max(out.get(key, 0.0), tps)
    return out


def as_measured(
    warnings: Iterable[SizingWarning],
    config: ConfigurationData,
    *,
    target_machine_type: str,
    full_speed: bool,
    payload_factor: float,
    cps: int | None,
    specialty: int,
    tps: float,
) -> tuple[SizingWarning, ...]:
    """``warnings`` with the codes of :data:`AS_MEASURED` lowered to caveats where the question
    is a measured configuration at its published rate.

    Parameters
    ----------
    config : ConfigurationData
        The configuration's published data.
    target_machine_type : str
        Machine type asked for; ``full_speed``: no sub-capacity setting.
    payload_factor : float
        The payload step's factor (1: as measured).
    cps : int or None
        CPs the user gave (``None``: sized, never a measured configuration).
    specialty : int
        zIIPs/zAAPs of the answer.
    tps : float
        Rate asked, transactions/s.
    """
    items = tuple(warnings)
    if (
        cps is None
        or target_machine_type != config.machine_type
        or not full_speed
        or payload_factor != 1.0
        or not any(w.code in AS_MEASURED and w.level == "decision" for w in items)
    ):
        return items
    published = measured_rates(config).get((cps, specialty))
    if published is None or tps > published * (1.0 + 1e-9):
        return items
    rate = f"{published:,.1f}".removesuffix(".0")
    engines = f"{cps} CP{'' if cps == 1 else 's'} and {specialty} specialty engine{'' if specialty == 1 else 's'}"
    note = f" (as the source measured: {engines} on machine type {config.machine_type} carried {rate} TPS)"
    return tuple(
        replace(w, message=w.message + note, level="caveat") if w.code in AS_MEASURED and w.level == "decision" else w
        for w in items
    )
