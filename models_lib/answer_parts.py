"""The blocks of the engine's answer, as frozen dataclasses.

Each block reads like the JSON object the API serves (:meth:`~models_lib.answer.SizingResult.to_dict`):
its fields, in that order, are the object's keys.  A block is also a read-only mapping of those
keys (``answer.busy_cps["gcp"]`` is ``answer.busy_cps.gcp``), so code written against the
serialised form keeps working; new code uses the attributes.

Units: busy engines (1.0 = one engine busy), CP-ms per transaction, transactions/s, ms, MIPS, MSU.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal, overload

from models_lib.fastinit import fast_init

__all__ = [
    "Alternative",
    "AnswerBasis",
    "BindingAtTarget",
    "BusyEngines",
    "Capacity",
    "CapacityBasis",
    "CpPool",
    "CpuPerTran",
    "Feasibility",
    "FeasibilityReason",
    "FitSummary",
    "IcfPool",
    "MostCarried",
    "NativeDemand",
    "ProjectionBasis",
    "Range",
    "Ranges",
    "Record",
    "ResponseTime",
    "SaturationBinding",
    "ServerShare",
    "Share",
    "SpecialtyPool",
]


#: Why an answer does not fit (:mod:`models_lib.feasibility`).
FeasibilityReason = Literal["engines", "software-limit", "saturation", "ceiling", "response-goal", "no-cpu-data"]

#: Field names per block class (``dataclasses.fields`` is slow to ask on every key).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


class Record(Mapping[str, Any]):
    """A frozen dataclass that reads as the mapping of its fields (the JSON object it serialises to).

    Equality is the mapping's: a block equals another block or a dict with the same keys and values.
    """

    def _keys(self) -> tuple[str, ...]:
        keys = _FIELD_NAMES.get(type(self))
        if keys is None:
            keys = _FIELD_NAMES[type(self)] = tuple(f.name for f in fields(self))  # type: ignore[arg-type]
        return keys

    def __getitem__(self, key: str) -> Any:
        if key not in self._keys():
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())


@fast_init
@dataclass(frozen=True, eq=False)
class CpuPerTran(Record):
    """CPU per transaction on the target, CP-ms: total, per pool, and the ends of its range."""

    total: float | None
    gcp: float | None
    ziip: float | None
    low: float | None
    high: float | None


@fast_init
@dataclass(frozen=True, eq=False)
class BusyEngines(Record):
    """Busy engines at the target rate: total, CPs, specialty engines, eligible work on CPs (IIPCP)."""

    total: float | None
    gcp: float | None
    ziip: float | None
    ziip_on_gcp: float | None


@fast_init
@dataclass(frozen=True, eq=False)
class ResponseTime(Record):
    """Response time, ms: the modelled value (``None`` without published response times) and its range."""

    value: float | None
    low: float | None
    high: float | None


@fast_init
@dataclass(frozen=True, eq=False)
class Range(Sequence[float | None]):
    """[low, high] of a headline number (``None``: unbounded or unknown); reads as that pair."""

    low: float | None
    high: float | None

    @overload
    def __getitem__(self, index: int) -> float | None: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[float | None]: ...
    def __getitem__(self, index: int | slice) -> float | None | Sequence[float | None]:
        return (self.low, self.high)[index]

    def __len__(self) -> int:
        return 2

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, so not hashable


@fast_init
@dataclass(frozen=True, eq=False)
class Ranges(Record):
    """Ranges of CPs required, specialty engines, saturation (TPS) and response time (ms)."""

    cps: Range
    ziips: Range
    saturation_tps: Range
    response_time_ms: Range

    @classmethod
    def unknown(cls) -> Ranges:
        none = Range(None, None)
        return cls(none, none, none, none)


@fast_init
@dataclass(frozen=True, eq=False)
class BindingAtTarget(Record):
    """The busiest resource at the target rate (``"cps"``, ``"specialty"``, ``"software"``,
    ``"clients"``), in words, and its utilisation (fraction)."""

    resource: str
    label: str
    utilization: float | None


@fast_init
@dataclass(frozen=True, eq=False)
class SaturationBinding(Record):
    """The resource that saturates first, and in words."""

    resource: str
    label: str


@fast_init
@dataclass(frozen=True, eq=False)
class CpPool(Record):
    """The target model's CPs: MIPS and MSU installed and used, utilisation."""

    mips_installed: float
    msu_installed: float
    mips_used: float
    msu_used: float
    utilization: float


@fast_init
@dataclass(frozen=True, eq=False)
class SpecialtyPool(Record):
    """The specialty engines: MIPS installed and used (full-speed per-CP rating), utilisation; never priced."""

    engine: str
    mips_installed: float
    mips_used: float
    utilization: float | None
    priced: bool


@fast_init
@dataclass(frozen=True, eq=False)
class CapacityBasis(Record):
    """The two models and ratings behind the capacity figures, and the projection factors;
    ``mp_engines`` the configuration's total engines (CPs + specialty engines) the factors are
    rated at, full-speed MIPS per engine at the CP count alone and at that total, and
    ``mp_factor`` = at total / at the CP count (the MP effect applied, 1 without specialty engines)."""

    from_model: str
    from_machine_type: str
    from_cps: int
    from_mips: float
    to_model: str
    to_mips: float
    to_full_speed_mips: float
    cp_factor: float
    specialty_factor: float
    source: str
    mp_engines: int
    mips_per_engine_at_cps: float
    mips_per_engine_at_total: float
    mp_factor: float


@fast_init
@dataclass(frozen=True, eq=False)
class IcfPool(Record):
    """Coupling-facility busy on its own ICF engines, outside the LPAR and not in the CPs sized:
    ``busy`` engines at the rate, as measured on the source machine's ICFs; ``note`` says so."""

    busy: float
    note: str


@fast_init
@dataclass(frozen=True, eq=False)
class Capacity(Record):
    """The target model's MIPS and MSU per pool at the CPs evaluated (served as ``capacity``);
    ``icf`` the coupling facility's busy where the source publishes it (``None`` elsewhere)."""

    model: str
    machine_type: str
    capacity_setting: str
    cps: int
    specialty_engines: int
    cp: CpPool
    specialty: SpecialtyPool
    basis: CapacityBasis
    icf: IcfPool | None = None


@fast_init
@dataclass(frozen=True, eq=False)
class FitSummary(Record):
    """The primary cost fit: component, slope (CP-ms per transaction), intercept (busy CPs), quality."""

    component: str
    slope_ms: float
    intercept_cps: float
    r2: float
    n: int
    etr_min: float
    etr_max: float
    slope_se_ms: float
    intercept_se_cps: float
    residual_std_cps: float
    interval_basis: str
    weighting: str


@fast_init
@dataclass(frozen=True, eq=False)
class ProjectionBasis(Record):
    """The LSPR projection of the CPs evaluated: from and to, factors, setting, source and ratings."""

    from_machine_type: str
    from_cps: int
    to_machine_type: str
    to_cps: int
    factor: float
    specialty_factor: float
    capacity_setting: str
    source: str
    rating_ids: tuple[int | None, ...]


@fast_init
@dataclass(frozen=True, eq=False)
class Share(Record):
    """A share (fraction) with its range."""

    value: float
    low: float
    high: float


@fast_init
@dataclass(frozen=True, eq=False)
class ServerShare(Record):
    """The eligible part's share of the demand, its range, and how it was derived."""

    value: float
    low: float
    high: float
    source: str


@fast_init
@dataclass(frozen=True, eq=False)
class NativeDemand(Record):
    """The demand on the measured LPAR before projection (payload and LPAR steps applied)."""

    component: str
    intercept_cps: float
    slope_s: float
    payload_factor: float
    busy_cps: float
    #: CICS regions -> LPAR factor applied (1 + overhead), with its range (None: none applied)
    lpar_factor: float | None = None
    lpar_factor_low: float | None = None
    lpar_factor_high: float | None = None


@fast_init
@dataclass(frozen=True, eq=False)
class AnswerBasis(Record):
    """What the answer rests on: points, fit, projection, statements, assumptions, shares and the
    native demand (the last three absent from an answer without CPU data)."""

    points: tuple[int, ...]
    model: FitSummary | None
    projection: ProjectionBasis | None
    statements: tuple[int, ...]
    assumptions: tuple[str, ...]
    server_share: ServerShare | None = None
    eligible_share: Share | None = None
    native: NativeDemand | None = None

    def _keys(self) -> tuple[str, ...]:
        keys = super()._keys()
        return keys if self.native is not None else keys[:5]


@dataclass(frozen=True, eq=False)
class MostCarried(Record):
    """The most the target carries: ``tps`` (transactions/s) on ``cps`` CPs and ``ziips``
    specialty engines."""

    tps: float
    cps: int
    ziips: int


@fast_init
@dataclass(frozen=True, eq=False)
class Feasibility(Record):
    """``feasible``: whether the answer fits (:func:`models_lib.feasibility.fits_at`: every pool
    at or under its ceiling, below saturation, within the software limit, meeting the response
    goal when one is given); ``None`` where the path publishes no CPU figures (no CPU verdict).
    Where it does not fit, or no verdict is given, ``reason`` (``engines``, ``ceiling``,
    ``saturation``, ``software-limit``, ``response-goal``, ``no-cpu-data``), the plain
    ``message`` and the most the target carries (``max_tps``, on ``max_tps_cps`` CPs and
    ``max_tps_ziips`` specialty engines)."""

    feasible: bool | None
    reason: FeasibilityReason | None
    message: str | None
    max_tps: float | None
    max_tps_cps: int | None
    max_tps_ziips: int | None

    @classmethod
    def fits(cls) -> Feasibility:
        return cls(True, None, None, None, None, None)


@fast_init
@dataclass(frozen=True, eq=False)
class Alternative(Record):
    """What the other objective picks where it differs from the answer: ``objective``, the
    installed ``cps`` and ``ziips``, the ``msu_installed`` (the rating of those CPs at the
    target's setting) and the ``msu`` consumed (MSU of the CP work at that count)."""

    objective: str
    cps: int
    ziips: int
    msu: float | None
    msu_installed: float | None = None
