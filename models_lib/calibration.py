"""A customer's own measured intervals as a configuration the engine can fit and size.

A calibration is a set of measured intervals (from RMF Workload Activity reports or a CSV) on
the customer's current machine. :func:`calibration_data` turns them into the same
:class:`~models_lib.inputs.ConfigurationData` the published paths are assembled into, so the
cost model (:func:`models_lib.costmodel.fit_configuration`), the response model, the LSPR
projection to another machine and every engine step (:mod:`models_lib.engine`,
:func:`models_lib.sizing.size`, :class:`models_lib.workload.WorkloadModel`) run unchanged; no
rule is restated here.

Units: ETR in transactions/s; CPU in percent of one CP (RMF APPL%, 100 = one engine busy);
response times in ms.

References
----------
IBM, *z/OS RMF Report Analysis*, Workload Activity report: APPL% is the CPU time of the class as
a percentage of one processor over the interval, CP including IIPCP/AAPCP.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from models_lib.capacity import MAX_CPS
from models_lib.checks import InputError
from models_lib.inputs import CPU_COMPONENTS, CapacityTable, ConfigurationData, Eligibility, Point
from models_lib.rmf import WorkloadSection

__all__ = [
    "CSV_COLUMNS",
    "MAX_CPU_PCT",
    "MAX_ETR",
    "MAX_INTERVALS",
    "MAX_RESPONSE_TIME_MS",
    "MIN_ETR",
    "Interval",
    "calibration_data",
    "interval_from_dict",
    "interval_from_section",
    "intervals_from_csv",
    "speed_factor",
]

#: Most intervals in one calibration (a week of 15-minute intervals is 672).
MAX_INTERVALS = 2000
#: Rates an interval may measure, transactions/s: RMF prints END/S with two decimals, and the
#: estimate takes at most 10,000,000 TPS; beyond these a value is a typo, not a measurement.
MIN_ETR = 0.001
MAX_ETR = 10_000_000.0
#: Most CPU of one interval, percent of one CP: every engine of the largest LPAR busy.
MAX_CPU_PCT = 100.0 * MAX_CPS
#: Longest mean response time, ms (one hour).
MAX_RESPONSE_TIME_MS = 3_600_000.0
#: CSV columns read (``<component>_cpu_pct`` for each CPU component is read too).
CSV_COLUMNS = ("etr", "cpu_pct", "response_time_ms", "ziip_eligible_pct", "cps", "ziips", "label")


@dataclass(frozen=True)
class Interval:
    """One measured interval.

    Parameters
    ----------
    etr : float
        Ended transactions per second (RMF END/S), within :data:`MIN_ETR`..:data:`MAX_ETR`.
    cpu_pct : Mapping[str, float]
        CPU by component (keys from :data:`~models_lib.inputs.CPU_COMPONENTS`; ``"lpar"`` is the
        whole workload), percent of one CP, including work that ran on zIIPs; at most
        :data:`MAX_CPU_PCT`.
    response_time_ms : float or None
        Mean response time, ms, at most :data:`MAX_RESPONSE_TIME_MS`.
    ziip_eligible_pct : float or None
        Share of that CPU a zIIP (or zAAP) can run, percent: (IIP + IIPCP) / (CP + IIP) in RMF terms.
    cps, ziips : int or None
        General-purpose CPs and zIIPs online in the LPAR during the interval, at most
        :data:`~models_lib.capacity.MAX_CPS`.
    label : str
        Where the interval came from (e.g. ``"RMF report class CICSTORS"``).
    """

    etr: float
    cpu_pct: Mapping[str, float]
    response_time_ms: float | None = None
    ziip_eligible_pct: float | None = None
    cps: int | None = None
    ziips: int | None = None
    label: str = ""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.etr) and MIN_ETR <= self.etr <= MAX_ETR):
            raise InputError("etr", f"etr must be within {MIN_ETR:g}..{MAX_ETR:,.0f} transactions/s, got {self.etr!r}")
        if not self.cpu_pct:
            raise InputError("cpu_pct", "cpu_pct must give the CPU of at least one component")
        for name, value in self.cpu_pct.items():
            if name not in CPU_COMPONENTS:
                raise InputError(
                    "cpu_pct", f"cpu_pct: unknown component {name!r} (expected one of {', '.join(CPU_COMPONENTS)})"
                )
            if not (math.isfinite(value) and 0 <= value <= MAX_CPU_PCT):
                raise InputError(
                    "cpu_pct",
                    f"cpu_pct: {name} must be a percentage of one CP within 0..{MAX_CPU_PCT:,.0f} "
                    f"({MAX_CPS} engines busy), got {value!r}",
                )
        rt = self.response_time_ms
        if rt is not None and not (math.isfinite(rt) and 0 <= rt <= MAX_RESPONSE_TIME_MS):
            raise InputError(
                "response_time_ms", f"response_time_ms must be within 0..{MAX_RESPONSE_TIME_MS:,.0f} ms, got {rt!r}"
            )
        pct = self.ziip_eligible_pct
        if pct is not None and not (math.isfinite(pct) and 0 <= pct <= 100):
            raise InputError("ziip_eligible_pct", f"ziip_eligible_pct must be within 0..100 %, got {pct!r}")
        if self.cps is not None and not 1 <= self.cps <= MAX_CPS:
            raise InputError("cps", f"cps must be within 1..{MAX_CPS}, got {self.cps!r}")
        if self.ziips is not None and not 0 <= self.ziips <= MAX_CPS:
            raise InputError("ziips", f"ziips must be within 0..{MAX_CPS}, got {self.ziips!r}")
        object.__setattr__(self, "cpu_pct", MappingProxyType(dict(self.cpu_pct)))

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the API's and the stored calibration's)."""
        return {
            "etr": self.etr,
            "cpu_pct": dict(self.cpu_pct),
            "response_time_ms": self.response_time_ms,
            "ziip_eligible_pct": self.ziip_eligible_pct,
            "cps": self.cps,
            "ziips": self.ziips,
            "label": self.label,
        }


def interval_from_dict(data: Mapping[str, object]) -> Interval:
    """An :class:`Interval` from its :meth:`Interval.to_dict` form (a stored calibration's row).

    ``cpu_pct`` may be a number (the whole workload, ``"lpar"``) or a mapping by component.
    ``ValueError`` names the field that is missing or wrong.
    """
    unknown = sorted(set(data) - {"etr", "cpu_pct", "response_time_ms", "ziip_eligible_pct", "cps", "ziips", "label"})
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(unknown)}")
    raw_cpu = data.get("cpu_pct")
    cpu = raw_cpu if isinstance(raw_cpu, Mapping) else {"lpar": raw_cpu}
    return Interval(
        etr=_real(data.get("etr"), "etr"),
        cpu_pct={str(k): _real(v, f"cpu_pct.{k}") for k, v in cpu.items()},
        response_time_ms=_optional_real(data.get("response_time_ms"), "response_time_ms"),
        ziip_eligible_pct=_optional_real(data.get("ziip_eligible_pct"), "ziip_eligible_pct"),
        cps=_optional_count(data.get("cps"), "cps"),
        ziips=_optional_count(data.get("ziips"), "ziips"),
        label=str(data.get("label") or "")[:120],
    )


def _real(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(name, f"{name} must be a number, got {value!r}")
    return float(value)


def _optional_real(value: object, name: str) -> float | None:
    return None if value is None else _real(value, name)


def _optional_count(value: object, name: str) -> int | None:
    if value is None:
        return None
    number = _real(value, name)
    if number != int(number):
        raise InputError(name, f"{name} must be a whole number, got {value!r}")
    return int(number)


def interval_from_section(section: WorkloadSection, component: str = "lpar") -> Interval | None:
    """The interval one RMF section measured, or ``None`` when it has no rate or no CPU figure.

    CPU is APPL% CP + IIP + AAP (all the class's CPU, wherever it ran); where the extract shows
    no APPL% column, the TRANSACTIONS APPL% TOTAL line (CP + AAP/IIP) is used. The eligible
    share is (IIP + IIPCP + AAP + AAPCP) / (CP + IIP + AAP); the response time is the ACTUAL
    transaction time when RMF recorded one (> 0 ms). ``ValueError`` names the section, its
    line and the value out of :class:`Interval`'s bounds.
    """
    etr = section.transactions.end_per_s
    appl = section.appl
    if etr <= 0:
        return None
    eligible: float | None
    if appl.cp is not None:
        cpu = appl.cp + (appl.iip or 0.0) + (appl.aap or 0.0)
        fraction = appl.specialty_eligible_fraction()
        eligible = None if fraction is None else 100.0 * fraction
        source = "APPL%"
    elif section.transactions_total is not None:
        total = section.transactions_total
        cpu = total.cp + total.specialty
        eligible = 100.0 * (total.specialty + total.specialty_on_cp) / cpu if cpu > 0 else None
        source = "TRANSACTIONS APPL% TOTAL"
    else:
        return None
    actual = section.times_ms.actual
    kind = section.kind.replace("_", " ")
    try:
        return Interval(
            etr=etr,
            cpu_pct={component: cpu},
            response_time_ms=actual if actual is not None and actual > 0 else None,
            ziip_eligible_pct=eligible,
            label=f"RMF {kind} {section.name} (line {section.line}, {source})",
        )
    except ValueError as error:
        raise ValueError(f"section {section.name} (line {section.line}): {error}") from None


def _csv_number(row: Mapping[str, str | None], column: str, line: int) -> float | None:
    text = (row.get(column) or "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"CSV line {line}, column {column}: {text[:40]!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"CSV line {line}, column {column}: {text[:40]!r} is not a finite number")
    return value


def _csv_count(row: Mapping[str, str | None], column: str, line: int) -> int | None:
    value = _csv_number(row, column, line)
    if value is not None and value != int(value):
        raise ValueError(f"CSV line {line}, column {column}: {value!r} is not a whole number")
    return None if value is None else int(value)


def _csv_interval(row: Mapping[str, str | None], line: int, cpu_columns: Mapping[str, str]) -> Interval:
    cpu = {comp: v for comp, col in cpu_columns.items() if (v := _csv_number(row, col, line)) is not None}
    etr = _csv_number(row, "etr", line)
    if etr is None:
        raise ValueError(f"CSV line {line}, column etr: no value")
    try:
        return Interval(
            etr=etr,
            cpu_pct=cpu,
            response_time_ms=_csv_number(row, "response_time_ms", line),
            ziip_eligible_pct=_csv_number(row, "ziip_eligible_pct", line),
            cps=_csv_count(row, "cps", line),
            ziips=_csv_count(row, "ziips", line),
            label=(row.get("label") or f"CSV line {line}").strip()[:120],
        )
    except ValueError as error:
        raise ValueError(f"CSV line {line}: {error}") from None


def intervals_from_csv(text: str) -> tuple[Interval, ...]:
    """Intervals from CSV text with a header row.

    Columns: ``etr`` (transactions/s), ``cpu_pct`` (percent of one CP, the whole workload) and/or
    ``<component>_cpu_pct`` for components of :data:`~models_lib.inputs.CPU_COMPONENTS`, then
    optional ``response_time_ms``, ``ziip_eligible_pct``, ``cps``, ``ziips``, ``label``.
    ``ValueError`` names the line and column it cannot read.
    """
    reader = csv.DictReader(io.StringIO(text.strip().lstrip("\ufeff")))
    header = [name.strip().lower() for name in reader.fieldnames or []]
    cpu_columns = {"lpar": "cpu_pct"} if "cpu_pct" in header else {}
    cpu_columns.update({c: f"{c}_cpu_pct" for c in CPU_COMPONENTS if f"{c}_cpu_pct" in header})
    unknown = [name for name in header if name not in CSV_COLUMNS and name not in cpu_columns.values()]
    if "etr" not in header or not cpu_columns or unknown:
        raise ValueError(
            "CSV line 1: the header needs etr and cpu_pct (or <component>_cpu_pct), optionally "
            f"{', '.join(CSV_COLUMNS[2:])}" + (f"; unknown column(s): {', '.join(unknown)}" if unknown else "")
        )
    reader.fieldnames = header
    intervals = []
    for line, row in enumerate(reader, start=2):
        if None in row:
            raise ValueError(f"CSV line {line}: more values than columns")
        if any((value or "").strip() for value in row.values()):
            intervals.append(_csv_interval(row, line, cpu_columns))
        if len(intervals) > MAX_INTERVALS:
            raise ValueError(f"CSV line {line}: more than {MAX_INTERVALS} intervals")
    return tuple(intervals)


def speed_factor(capacity: CapacityTable, machine_type: str, setting: str | None, cps: int) -> float:
    """CPU seconds on a ``setting`` CP expressed in full-speed CP seconds of the same machine type.

    A sub-capacity (4xx/5xx/6xx) or slower midrange CP does the same work in more time; the
    engine's projections start from full-speed CPs, so measured CP time is scaled by the LSPR
    MIPS per CP of the setting over that of the full-speed model with as many CPs (1.0 for a
    full-speed model). ``ValueError`` names the model that is not rated.
    """
    full = capacity.ratings.get((machine_type, cps))
    if full is None:
        raise InputError("cps", f"cps: {cps} CPs of machine type {machine_type} are not rated in the capacity table")
    if setting is None or setting == capacity.full_speed_setting.get(machine_type, setting):
        return 1.0
    rated = capacity.settings.get((machine_type, setting, cps))
    if rated is None:
        raise InputError(
            "capacity_setting",
            f"capacity_setting {setting!r} with {cps} CPs is not rated for machine type {machine_type}",
        )
    return rated.mips / full.mips


@dataclass(frozen=True)
class _Summary:
    cps: int
    ziips: int
    eligible: tuple[float, ...] = field(default_factory=tuple)


def _summarise(intervals: Sequence[Interval], cps: int, ziips: int) -> _Summary:
    if len(intervals) < 2 or len({round(i.etr, 9) for i in intervals}) < 2:
        raise InputError(
            "intervals", "intervals: at least two intervals at different rates are needed to fit a cost per transaction"
        )
    if len(intervals) > MAX_INTERVALS:
        raise InputError("intervals", f"intervals: at most {MAX_INTERVALS} intervals, got {len(intervals)}")
    for number, interval in enumerate(intervals, start=1):
        if interval.cps is not None and interval.cps != cps:
            raise InputError(
                "intervals",
                f"intervals: interval {number} ran on {interval.cps} CPs but the calibration's LPAR has {cps}; "
                "make one calibration per LPAR size",
            )
    eligible = tuple(i.ziip_eligible_pct / 100.0 for i in intervals if i.ziip_eligible_pct is not None)
    return _Summary(cps=cps, ziips=ziips, eligible=eligible)


def calibration_data(
    intervals: Iterable[Interval],
    *,
    path: str,
    configuration: str,
    machine: str,
    machine_type: str,
    cps: int,
    ziips: int = 0,
    speed: float = 1.0,
    reference: str = "customer measurements",
) -> ConfigurationData:
    """The calibration as :class:`~models_lib.inputs.ConfigurationData` on the current machine.

    Parameters
    ----------
    intervals : iterable of Interval
        At least two, at different rates.
    path, configuration, machine, machine_type : str
        Slugs of the path and private configuration, the current machine's slug and IBM type.
    cps, ziips : int
        General-purpose CPs and zIIPs of the measured LPAR.
    speed : float
        :func:`speed_factor` of the current model (CP time -> full-speed CP time).
    reference : str
        Provenance carried by every point (the answer's basis names it).

    Returns
    -------
    ConfigurationData
        One point per interval (negative ids, so they never collide with published point ids),
        busy CPs = CPU% / 100 x ``speed``; the measured eligible share (mean, with the lowest and
        highest interval as its range) as the eligibility, scoped to all the measured CPU.
    """
    items = tuple(intervals)
    summary = _summarise(items, cps, ziips)
    points = tuple(
        Point(
            id=-number,
            etr=interval.etr,
            busy_cps={comp: pct / 100.0 * speed for comp, pct in interval.cpu_pct.items()},
            response_time_ms=interval.response_time_ms,
            lpar_cps=cps,
            ziips=interval.ziips if interval.ziips is not None else summary.ziips,
            reference=f"{reference}: {interval.label or f'interval {number}'}",
        )
        for number, interval in enumerate(items, start=1)
    )
    eligibility = None
    if summary.eligible:
        mean = sum(summary.eligible) / len(summary.eligible)
        eligibility = Eligibility(
            fraction=mean,
            low=min(summary.eligible),
            high=max(summary.eligible),
            applies_to="all",
            statement_id=None,
            reference=f"{reference}: measured zIIP-eligible share",
        )
    return ConfigurationData(
        path=path,
        configuration=configuration,
        machine=machine,
        machine_type=machine_type,
        lpar_cps=cps,
        points=points,
        eligibility=eligibility,
    )
