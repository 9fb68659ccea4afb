"""Published records -> the typed inputs of the numerical core.

A published point or statement reaches ``models_lib`` as a plain record (from the database on
the Django side, from ``benchmarks/`` in the tests); this module is the one place that decides
how a record's metrics and typed ``data`` become :mod:`models_lib.inputs` values, so the
product and the tests cannot drift apart.

Units: CPU metrics become busy CPs with :func:`models_lib.units.busy_cps`; published
per-transaction columns become CP-milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from models_lib import units
from models_lib.bounds import cost_floors
from models_lib.inputs import (
    CapacityBound,
    CapacityTable,
    ConfigurationData,
    CostRatio,
    Eligibility,
    PayloadScaling,
    Point,
    PublishedLimit,
    PublishedOverhead,
    PublishedRegions,
    Rating,
    ResponseFloor,
)
from models_lib.lpar import lpar_overhead_from_statement

#: Metric name -> CPU component (busy CPs).
BUSY_METRICS = {
    "cics_cpu": "cics",
    "lpar_cpu": "lpar",
    "smsvsam_cpu": "smsvsam",
    "cf_cpu": "cf",
    "tor_cpu": "tor",
    "aor_cpu": "aor",
    "for_cpu": "for",
}
#: Metric name -> component of a published CPU-per-transaction column.
PER_TRAN_METRICS = {"cics_cpu_per_tran": "cics", "lpar_cpu_per_tran": "lpar"}


@dataclass(frozen=True)
class MetricRecord:
    """One published figure of a point: ``value`` in ``unit`` (pool of ``engines`` where relevant)."""

    name: str
    value: float
    unit: str
    engines: int | None = None


@dataclass(frozen=True)
class PointRecord:
    """A published point as stored (ETR in transactions/s, response time in ms)."""

    id: int
    etr: float
    metrics: Sequence[MetricRecord]
    response_time_ms: float | None = None
    lpar_cps: int | None = None
    ziips: int = 0
    zaaps: int = 0
    clients: int | None = None
    think_time_s: float | None = None
    request_bytes: int | None = None
    response_bytes: int | None = None
    reference: str = ""


@dataclass(frozen=True)
class StatementRecord:
    """A published statement as stored: ``kind`` and its typed ``data`` (see docs/benchmarks-format.md)."""

    id: int
    kind: str
    configuration: str | None
    data: Mapping[str, Any] = field(default_factory=dict)
    reference: str = ""


def point_from_record(record: PointRecord) -> Point | None:
    """The CPU point of ``record``, or None when it carries no CPU figure (e.g. eligibility-only rows)."""
    busy: dict[str, float] = {}
    per_tran: dict[str, float] = {}
    for m in record.metrics:
        if m.name in BUSY_METRICS:
            busy[BUSY_METRICS[m.name]] = units.busy_cps(m.value, m.unit, m.engines)
        elif m.name in PER_TRAN_METRICS:
            per_tran[PER_TRAN_METRICS[m.name]] = units.cpu_per_tran_ms(m.value, m.unit)
    if not busy:
        return None
    return Point(
        id=record.id,
        etr=float(record.etr),
        busy_cps=busy,
        published_cpu_per_tran_ms=per_tran,
        response_time_ms=None if record.response_time_ms is None else float(record.response_time_ms),
        lpar_cps=record.lpar_cps,
        ziips=int(record.ziips) + int(record.zaaps),
        clients=record.clients,
        think_time_s=record.think_time_s,
        request_bytes=record.request_bytes,
        response_bytes=record.response_bytes,
        reference=record.reference,
    )


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _applies(statement: StatementRecord, configuration: str) -> bool:
    if statement.kind == "ratio" and configuration in (
        statement.data.get("numerator"),
        statement.data.get("denominator"),
    ):
        return True  # a ratio involves both of its configurations
    return statement.configuration in (None, configuration)


def _bound(s: StatementRecord) -> CapacityBound:
    d = s.data
    spec = int(d.get("ziips") or 0) + int(d.get("zaaps") or 0)
    return CapacityBound(
        outcome=d["outcome"],
        tps=float(d["tps"]),
        engines=int(d["gcps"]) + spec,
        gcps=int(d["gcps"]),
        ziips=spec,
        response_bytes_min=_optional_int(d.get("response_bytes_min")),
        response_bytes_max=_optional_int(d.get("response_bytes_max")),
        clients=_optional_int(d.get("clients")),
        think_time_s=None if d.get("think_time_s") is None else float(d["think_time_s"]),
        statement_id=s.id,
        reference=s.reference,
    )


def _ratio(s: StatementRecord) -> CostRatio:
    d = s.data
    return CostRatio(
        numerator=str(d["numerator"]),
        denominator=str(d["denominator"]),
        low=float(d["low"]),
        high=float(d["high"]),
        condition=dict(d.get("condition") or {}),
        statement_id=s.id,
        reference=s.reference,
    )


def _eligibility(s: StatementRecord) -> Eligibility:
    d = s.data
    fraction = float(d["fraction"])
    return Eligibility(
        fraction=fraction,
        low=float(d.get("low", fraction)),
        high=float(d.get("high", fraction)),
        applies_to=str(d.get("applies_to", "all")),
        statement_id=s.id,
        reference=s.reference,
    )


def _payload(s: StatementRecord) -> PayloadScaling:
    d = s.data
    rng = d.get("range")
    # An open end stays open (None): the sources give the lower end only.
    return PayloadScaling(
        form=d["form"],
        range_bytes=None if rng is None else (_optional_int(rng[0]), _optional_int(rng[1])),
        statement_id=s.id,
        reference=s.reference,
    )


def _limit(s: StatementRecord) -> PublishedLimit:
    d = s.data
    return PublishedLimit(
        metric="tps",
        value=float(d["value"]),
        scope=str(d["scope"]),
        configuration=s.configuration,
        statement_id=s.id,
        reference=s.reference,
        condition=str(d.get("condition") or ""),
    )


def _floor(s: StatementRecord) -> ResponseFloor:
    # The whole exchange of one request on a new connection (SYN to the last packet):
    # what a client waits at no load.
    return ResponseFloor(
        value_ms=float(s.data["summary"]["elapsed_s"]) * 1000.0,
        statement_id=s.id,
        reference=s.reference,
    )


def _overhead(s: StatementRecord) -> PublishedOverhead:
    # Recomputed from the statement's published inputs (a stored value that disagrees raises).
    o = lpar_overhead_from_statement(s.data)
    tps = s.data.get("measured_tps")
    return PublishedOverhead(
        central=o.central,
        low=o.low,
        high=o.high,
        statement_id=s.id,
        reference=s.reference,
        measured_configuration=s.data.get("measured_configuration"),
        measured_tps=None if tps is None else float(tps),
    )


def _is_payload_scaling(s: StatementRecord) -> bool:
    d = s.data
    return s.kind == "proportionality" and d.get("quantity") == "cpu_per_tran" and d.get("variable") == "payload_bytes"


def assemble_configuration(
    *,
    path: str,
    configuration: str,
    machine: str,
    machine_type: str,
    points: Iterable[PointRecord],
    statements: Iterable[StatementRecord],
) -> ConfigurationData:
    """Everything published about ``path``/``configuration`` as :class:`ConfigurationData`.

    ``points`` are the configuration's points on its native ``machine``; ``statements`` are all
    statements of the path (those of other configurations are ignored, except ratios that
    involve this one).  Where a path-wide and a configuration's own statement of the same kind
    exist, the configuration's own wins.
    """
    point_records = list(points)
    statements = list(statements)
    cpu_points = tuple(p for p in (point_from_record(r) for r in point_records) if p is not None)
    applicable = sorted(
        (s for s in statements if _applies(s, configuration)),
        # path-wide first, so that a configuration's own statement overrides it
        key=lambda s: (s.configuration is not None, s.id),
    )

    bounds: list[CapacityBound] = []
    ratios: list[CostRatio] = []
    eligibility: Eligibility | None = None
    payload: PayloadScaling | None = None
    rows: tuple[tuple[int, float], ...] = ()
    think: float | None = None
    throughput_id: int | None = None
    floor: ResponseFloor | None = None
    limits: list[PublishedLimit] = []
    overhead: PublishedOverhead | None = None
    regions: PublishedRegions | None = None
    for s in applicable:
        d = s.data
        if s.kind == "bound" and d.get("quantity") == "throughput":
            bounds.append(_bound(s))
        elif s.kind == "ratio" and d.get("quantity") == "cpu_per_tran":
            ratios.append(_ratio(s))
        elif s.kind == "eligibility" and d.get("engine") in ("ziip", "zaap"):
            eligibility = _eligibility(s)
        elif _is_payload_scaling(s):
            payload = _payload(s)
        elif s.kind == "throughput":
            rows = tuple((int(r["clients"]), float(r["tps"])) for r in d["rows"])
            think = None if d.get("think_time_s") is None else float(d["think_time_s"])
            throughput_id = s.id
        elif s.kind == "limit" and d.get("metric") == "tps":
            limits.append(_limit(s))
        elif s.kind == "packet_trace" and s.configuration == configuration:
            floor = _floor(s)
        elif s.kind == "observation" and d.get("quantity") == "lpar_overhead":
            overhead = _overhead(s)
        elif s.kind == "observation" and d.get("quantity") == "cics_regions":
            regions = PublishedRegions(int(d["value"]), s.id, s.reference)

    lpar_cps = next((r.lpar_cps for r in point_records if r.lpar_cps), None)
    if lpar_cps is None and bounds:
        lpar_cps = bounds[0].gcps
    return ConfigurationData(
        path=path,
        configuration=configuration,
        machine=machine,
        machine_type=machine_type,
        lpar_cps=lpar_cps,
        points=cpu_points,
        eligibility=eligibility,
        bounds=tuple(bounds),
        ratios=tuple(ratios),
        payload_scaling=payload,
        throughput_rows=rows,
        think_time_s=think,
        response_floor=floor,
        throughput_statement_id=throughput_id,
        limits=tuple(limits),
        lpar_overhead=overhead,
        regions=regions,
        cost_floors=cost_floors(
            configuration, [(s.configuration, s.data, s.id, s.reference) for s in statements if s.kind == "bound"]
        ),
    )


#: The full-speed capacity setting of machines rated at 4xx..7xx.
FULL_SPEED_SETTING = "700"


def assemble_capacity_table(ratings: Iterable[Rating], *, source: str, source_id: int | None) -> CapacityTable:
    """LSPR ratings (every capacity setting) -> the :class:`CapacityTable` the engine reads.

    Each machine type's full-speed setting is ``"700"`` where the type has 7xx models, else its
    fastest setting by the 1-CP rating (``"Z00"`` on the midrange machines, whose settings run
    A00..Z00). Specialty engines run at this speed on every model of the type.

    Parameters
    ----------
    ratings : iterable of Rating
        One per model; ``capacity_setting`` empty is taken as full speed.
    source : str
        The document the ratings come from.
    source_id : int or None
        Its stored id.
    """
    rows = list(ratings)
    fastest: dict[str, tuple[float, str]] = {}
    has_700: set[str] = set()
    for r in rows:
        setting = r.capacity_setting or FULL_SPEED_SETTING
        if setting == FULL_SPEED_SETTING:
            has_700.add(r.machine_type)
        if r.cps == 1 and (r.machine_type not in fastest or r.mips > fastest[r.machine_type][0]):
            fastest[r.machine_type] = (r.mips, setting)
    full_speed = {
        mt: FULL_SPEED_SETTING if mt in has_700 else fastest[mt][1]
        for mt in {r.machine_type for r in rows}
        if mt in has_700 or mt in fastest
    }
    settings: dict[tuple[str, str, int], Rating] = {}
    by_cps: dict[tuple[str, int], Rating] = {}
    for r in rows:
        setting = r.capacity_setting or FULL_SPEED_SETTING
        settings[(r.machine_type, setting, r.cps)] = r
        if full_speed.get(r.machine_type) == setting:
            by_cps[(r.machine_type, r.cps)] = r
    return CapacityTable(
        ratings=by_cps, source=source, source_id=source_id, settings=settings, full_speed_setting=full_speed
    )
