"""Plain inputs for the numerical core.

The Django side (``sizing.selectors``) turns stored reference data into these frozen
dataclasses; nothing in ``models_lib`` knows where they came from.  Every value keeps the id
of the stored row it came from so that results can name their basis.

Units are in the field names or the docstrings: ``etr`` in transactions/s, CPU as *busy CPs*
(1.0 = one CP fully busy for the whole interval, i.e. RMF APPL% / 100), times in seconds
unless the name says ``_ms``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

#: Address-space / pool names used for CPU breakdowns, as the sources name them.
CPU_COMPONENTS = ("lpar", "cics", "tor", "aor", "for", "smsvsam", "cf")


@dataclass(frozen=True)
class Point:
    """One published measurement, CPU converted to busy CPs.

    Parameters
    ----------
    id : int
        Id of the stored benchmark point (its provenance).
    etr : float
        External transaction rate, transactions/s.
    busy_cps : Mapping[str, float]
        Busy CPs per component (keys from :data:`CPU_COMPONENTS`), e.g. ``{"cics": 0.237,
        "lpar": 0.344}``.  ``cf`` counts coupling-facility engines, which are not LPAR CPs.
    published_cpu_per_tran_ms : Mapping[str, float]
        CPU per transaction as the source prints it (CP-milliseconds), per component, where
        published; used to check models against the source.
    response_time_ms : float or None
        Published mean response time, ms.
    lpar_cps : int or None
        General-purpose CPs of the measured LPAR.
    ziips : int
        zIIPs (or zAAPs) online in the measured LPAR.
    clients : int or None
        Simulated clients.
    think_time_s : float or None
        Client think time, s.
    request_bytes, response_bytes : int or None
        Payload sizes, bytes.
    reference : str
        Human-readable provenance, e.g. ``"REDP-5114 Table 9-1, p. 28"``.
    """

    id: int
    etr: float
    busy_cps: Mapping[str, float]
    published_cpu_per_tran_ms: Mapping[str, float] = field(default_factory=dict)
    response_time_ms: float | None = None
    lpar_cps: int | None = None
    ziips: int = 0
    clients: int | None = None
    think_time_s: float | None = None
    request_bytes: int | None = None
    response_bytes: int | None = None
    reference: str = ""


@dataclass(frozen=True)
class Eligibility:
    """Published share of CPU that a zIIP (or zAAP) can run.

    ``fraction`` is the central value, ``low``/``high`` the published range (equal to
    ``fraction`` where one value is given); all in [0, 1].  ``applies_to`` names the CPU
    component the share is of (``"lpar"``, ``"cics"``, or ``"all"``).
    """

    fraction: float
    low: float
    high: float
    applies_to: str
    statement_id: int | None
    reference: str = ""


@dataclass(frozen=True)
class CapacityBound:
    """A published throughput observed on a known capacity.

    ``outcome == "sustained"``: the LPAR carried ``tps`` on ``engines`` engines, so CPU per
    transaction <= engines / tps CP-seconds.  ``"exhausted"``: CPU ran out before ``tps``, so
    CPU per transaction > engines / tps.
    """

    outcome: Literal["sustained", "exhausted"]
    tps: float
    engines: int
    gcps: int
    ziips: int
    response_bytes_min: int | None
    response_bytes_max: int | None
    clients: int | None
    think_time_s: float | None
    statement_id: int
    reference: str = ""


@dataclass(frozen=True)
class CostRatio:
    """A published ratio of CPU per transaction between two configurations.

    ``numerator``/``denominator`` are configuration slugs; ``low``/``high`` the published range
    of numerator cost / denominator cost; ``condition`` the published circumstances.
    """

    numerator: str
    denominator: str
    low: float
    high: float
    condition: Mapping[str, object]
    statement_id: int
    reference: str = ""


@dataclass(frozen=True)
class PayloadScaling:
    """Published payload proportionality: ``form`` is "proportional" or "linear".

    ``range_bytes`` is the (low, high) payload range the statement covers, bytes; an end the
    source leaves open is ``None`` (e.g. CICS TG Scenario 5: "32K, 64K, 128K, etc").
    """

    form: Literal["proportional", "linear"]
    range_bytes: tuple[int | None, int | None] | None
    statement_id: int
    reference: str = ""


@dataclass(frozen=True)
class ResponseFloor:
    """A published lower bound on the response time of one request, ms.

    E.g. the elapsed time of a packet trace of a single request on an idle system (HostBridge:
    "trace-tuned-tcpip", 42.0 ms from SYN to the last ACK).  Used where no CPU data exist so that
    a sizing can still say something about response time.
    """

    value_ms: float
    statement_id: int | None
    reference: str = ""


@dataclass(frozen=True)
class ConfigurationData:
    """Everything published about one configuration of one path.

    Parameters
    ----------
    path, configuration : str
        Slugs.
    machine : str
        Slug of the machine the data were measured on (the path's native machine).
    machine_type : str
        Its IBM machine type (e.g. "2827"), used to look up LSPR ratings.
    lpar_cps : int or None
        General-purpose CPs of the measured LPAR (the CP count the costs were measured at).
    points : tuple of Point
        Published measurements with CPU data (may be empty).
    eligibility : Eligibility or None
        Published zIIP/zAAP-eligible share, if any.
    bounds : tuple of CapacityBound
        Published capacity observations (used where points are missing).
    ratios : tuple of CostRatio
        Published cost ratios that involve this configuration.
    payload_scaling : PayloadScaling or None
        Published payload proportionality.
    throughput_rows : tuple of (clients, tps) pairs
        Published throughput against clients (with ``think_time_s``).
    think_time_s : float or None
        Think time of the published throughput rows, s.
    response_floor : ResponseFloor or None
        Published lower bound on the response time (packet trace), where there is one.
    throughput_statement_id : int or None
        Id of the statement that published ``throughput_rows``.
    limits : tuple of PublishedLimit
        Software limits the sources state for this path (e.g. one QR TCB's throughput).
    lpar_overhead : PublishedOverhead or None
        The rest of the LPAR as a share of the CICS CPU, where the source states it (CICS TS:
        REDP-5320 at its top rate); ``None``: not published.
    cost_floors : tuple of CostFloor
        Published lower bounds on the cost per transaction (bounds-only paths).
    regions : PublishedRegions or None
        The number of CICS regions the published CPU covers, where the source states it (CICS
        TS: REDP-5320, 17 regions); ``None``: not published.
    """

    path: str
    configuration: str
    machine: str
    machine_type: str
    lpar_cps: int | None
    points: tuple[Point, ...] = ()
    eligibility: Eligibility | None = None
    bounds: tuple[CapacityBound, ...] = ()
    ratios: tuple[CostRatio, ...] = ()
    payload_scaling: PayloadScaling | None = None
    throughput_rows: tuple[tuple[int, float], ...] = ()
    think_time_s: float | None = None
    response_floor: ResponseFloor | None = None
    throughput_statement_id: int | None = None
    limits: tuple[PublishedLimit, ...] = ()
    lpar_overhead: PublishedOverhead | None = None
    cost_floors: tuple[CostFloor, ...] = ()
    regions: PublishedRegions | None = None


@dataclass(frozen=True)
class PublishedRegions:
    """The CICS regions whose CPU the published points measure: ``count``, the statement."""

    count: int
    statement_id: int
    reference: str = ""


@dataclass(frozen=True)
class PublishedOverhead:
    """The rest of the LPAR as a share of the CICS CPU, stated from what a source publishes.

    ``central``, ``low``, ``high``: shares of the CICS CPU (LPAR = CICS x (1 + overhead)), as
    :func:`models_lib.lpar.lpar_overhead_from_statement` recomputes them; ``measured_configuration``
    and ``measured_tps`` (transactions/s) say where it was measured.
    """

    central: float
    low: float
    high: float
    statement_id: int
    reference: str = ""
    measured_configuration: str | None = None
    measured_tps: float | None = None


@dataclass(frozen=True)
class CostFloor:
    """A published floor on CPU per transaction: at ``tps`` transactions/s the ``specialty``
    zIIPs/zAAPs could not absorb the ``eligible_fraction`` of the cost (so cost > specialty x
    ceiling / (eligible_fraction x tps)).  ``statement_ids``: the floor's statement and, where it
    is carried over from a cheaper configuration, the statement that orders the two;
    ``carried_from``: where that order is stated (``None``: the floor is the configuration's own)."""

    tps: float
    specialty: int
    eligible_fraction: float
    statement_ids: tuple[int, ...]
    reference: str = ""
    carried_from: str | None = None


@dataclass(frozen=True)
class ComponentCost:
    """A published CPU cost per transaction of one component on a known LPAR.

    Used to split an LPAR's cost where a source does not (e.g. the CICS part of a z/OS Connect
    request, from the CICS TS V5.3 paper measured on the same machine type).

    Parameters
    ----------
    component : str
        e.g. ``"cics"``.
    machine_type : str
        Machine type it was measured on.
    cps : int
        CPs of the measured LPAR.
    cost_s, low_s, high_s : float
        CP-seconds per transaction: central value and range (e.g. the fit's slope and its 95 %
        confidence interval).
    statement_ids : tuple of int
        Ids of the stored statements it comes from.
    reference : str
        Source.
    point_ids : tuple of int
        Ids of the stored points it comes from (a fitted slope's points).
    """

    component: str
    machine_type: str
    cps: int
    cost_s: float
    low_s: float
    high_s: float
    statement_ids: tuple[int, ...] = ()
    reference: str = ""
    point_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class Rating:
    """One LSPR rating: a model with ``cps`` CPs rates ``mips`` MIPS and ``msu`` MSU.

    Parameters
    ----------
    machine_type : str
        IBM machine type, e.g. ``"3931"`` (z16 A01).
    cps : int
        General-purpose CPs of the model.
    mips, msu : float
        Multi-image AVERAGE capacity, MIPS, and software capacity, MSU per hour.
    rating_id : int or None
        Id of the stored row (provenance).
    model : str
        Model capacity identifier, e.g. ``"3931-710"`` (empty where unknown).
    capacity_setting : str
        ``"700"`` (full speed), ``"400"``/``"500"``/``"600"`` (sub-capacity) or ``"A00"`` ..
        ``"Z00"`` (midrange machines); empty where unknown (taken as full speed).
    generation : str
        e.g. ``"z16"``.
    """

    machine_type: str
    cps: int
    mips: float
    msu: float
    rating_id: int | None = None
    model: str = ""
    capacity_setting: str = ""
    generation: str = ""


@dataclass(frozen=True)
class CapacityTable:
    """LSPR ratings with their provenance.

    ``ratings`` maps (machine_type, cps) to the **full-speed** :class:`Rating` of that machine
    type (the 7xx setting, or the fastest setting of a midrange machine); ``settings`` maps
    (machine_type, capacity_setting, cps) to every model's rating, sub-capacity and midrange
    settings included; ``full_speed_setting`` names each machine type's full-speed setting
    (the one specialty engines run at); ``source`` names the document (e.g. "LSPR
    multi-image AVERAGE, zPCR export"); ``engine_rules`` maps each machine type to the
    :class:`SpecialtyEngineRules` of its generation (types without rules: none enforced).
    """

    ratings: Mapping[tuple[str, int], Rating]
    source: str
    source_id: int | None = None
    settings: Mapping[tuple[str, str, int], Rating] = field(default_factory=dict)
    full_speed_setting: Mapping[str, str] = field(default_factory=dict)
    engine_rules: Mapping[str, SpecialtyEngineRules] = field(default_factory=dict)


@dataclass(frozen=True)
class SpecialtyEngineRules:
    """Specialty-engine rules of one machine generation, as IBM's technical guides state them.

    Parameters
    ----------
    generation : str
        e.g. ``"z10 EC"``, ``"zEC12"``, ``"z13"``, ``"z16"``.
    machine_types : tuple of str
        Machine types of the generation, e.g. ``("3931", "3932")``.
    java_engine : {"zaap", "ziip"}
        The engine that runs Java (zAAP-eligible) work: ``"zaap"`` where zAAPs are offered,
        ``"ziip"`` where only zIIPs are (zAAP-eligible work runs on zIIPs).
    ziips_per_cp : float
        Most zIIPs that may be bought per CP (e.g. 1.0 on z10 and zEC12, 2.0 from z13).
    zaaps_per_cp : float or None
        Most zAAPs per CP; ``None`` where zAAPs are not offered.
    min_cps_per_lpar : int
        General-purpose CPs every z/OS LPAR needs (1).
    specialty_full_speed : bool
        Specialty engines run at full speed on sub-capacity and midrange models.
    smt2_ziip : bool
        SMT-2 (two threads per core) is available on zIIPs.
    smt2_throughput_factor : float or None
        Throughput of an SMT-2 zIIP relative to one without SMT (e.g. 1.25), where published.
    statement_id : int or None
        Id of the stored statement (provenance).
    reference : str
        The technical guide, section and page.
    max_engines : tuple of (str, int or None)
        Per machine type, the most engines (CPs + specialty engines) of its largest model
        (``None``: not stated, e.g. midrange types).
    unconfirmed : tuple of str
        Rule fields no cited document supports.
    alternatives : tuple of (str, float or None)
        For unconfirmed fields, the other rule a planner may expect (e.g. ``("ziips_per_cp",
        2.0)``; ``None``: no limit).
    """

    generation: str
    machine_types: tuple[str, ...]
    java_engine: Literal["zaap", "ziip"]
    ziips_per_cp: float
    zaaps_per_cp: float | None
    min_cps_per_lpar: int = 1
    specialty_full_speed: bool = True
    smt2_ziip: bool = False
    smt2_throughput_factor: float | None = None
    statement_id: int | None = None
    reference: str = ""
    max_engines: tuple[tuple[str, int | None], ...] = ()
    unconfirmed: tuple[str, ...] = ()
    alternatives: tuple[tuple[str, float | None], ...] = ()

    def max_engines_for(self, machine_type: str) -> int | None:
        """Most engines (CPs + specialty) of ``machine_type``'s largest model; ``None``: not stated."""
        return dict(self.max_engines).get(machine_type)

    def alternative(self, field_name: str) -> tuple[bool, float | None]:
        """(True, value) when an alternative rule is recorded for ``field_name``, else (False, None)."""
        alts = dict(self.alternatives)
        return (field_name in alts, alts.get(field_name))


@dataclass(frozen=True)
class PublishedLimit:
    """A software limit that a source states, e.g. the throughput of one QR TCB.

    ``metric`` names what is limited (``"tps"``), ``value`` the limit, ``scope`` what it is per
    (``"region"``, ``"qr-tcb"``, ``"lpar"``), ``configuration`` the slug it applies to (``None``:
    every configuration of the path), ``condition`` the published circumstances (e.g. "CICS
    performance class monitoring active").
    """

    metric: str
    value: float
    scope: str
    configuration: str | None
    statement_id: int
    reference: str = ""
    condition: str = ""
