"""One CSV row per estimate, with one header for every export (docs/csv.md lists the columns).

``GET /api/v1/estimate?format=csv``, a saved estimate and the list of saved estimates
(``/api/v1/estimates/?format=csv``) and a batch job's answers (``result.csv``) all write
``HEADER``, in this order, so that rows from any of them can be pasted under each other in a
spreadsheet.  A column that does not apply to an export (``row`` outside a batch, ``estimate_id``
of an unsaved answer) or a quantity the answer does not have is an empty cell.  A range is two
columns (``cps_low``, ``cps_high``); numbers keep 6 significant digits, counts are integers.
The renderer (``sizing.api.renderers``) escapes text a spreadsheet would run as a formula.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sizing.records import EstimateInputs, EstimateRecord, RangeRecord
from sizing.services.estimate_inputs import EstimateInputSerializer
from sizing.services.warning_levels import headline

SIGNIFICANT_DIGITS = 6
_ROUNDED = f".{SIGNIFICANT_DIGITS}g"


@dataclass(frozen=True)
class Subject:
    """What one CSV row is about: an answer (``record``; ``None`` for a batch row that could not be
    sized), its inputs (the record's, or a refused row's as given), and what the export adds (a
    saved estimate's id, name and time; a batch row's number, error, status and "which model fits"
    cells)."""

    record: EstimateRecord | None = None
    inputs: EstimateInputs | Mapping[str, Any] | None = None
    estimate_id: int | None = None
    estimate_name: str | None = None
    created_at: str | None = None
    row: int | None = None
    error: str | None = None
    status: str | None = None
    fit: Mapping[str, Any] | None = None

    @classmethod
    def of(cls, record: EstimateRecord, **extra: Any) -> Subject:
        saved = record.saved
        return cls(
            record=record,
            inputs=record.inputs,
            estimate_id=saved.id if saved is not None else None,
            estimate_name=record.name or None,
            created_at=saved.created_at if saved is not None else None,
            status=record.status,
            **extra,
        )


Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Column:
    """One CSV column: its name, the unit of its numbers ("" for text) and where its value comes from.

    ``source`` is a path of attribute names (and 0/1 for a range's low and high end) from the
    row's :class:`Subject` (``("record", "ranges", "cps", 0)``), or a function of it.
    """

    name: str
    unit: str
    description: str
    source: Path | Callable[[Subject], Any]


#: Whether a type is a ``Mapping`` (asked once per type: the ABC's check is slow on every cell).
_MAPPINGS: dict[type, bool] = {}
#: The types found not to be a ``Mapping``: a step reads their attributes.
_OBJECTS: set[type] = set()


def _step(value: Any, key: str | int) -> Any:
    """One step of a column's path from ``value`` (not ``None``): a range's end, a mapping's key
    (a refused row's inputs as given, a fit row's cells) or an attribute (``None`` if missing)."""
    if isinstance(key, int):
        return (value.low, value.high)[key] if isinstance(value, RangeRecord) else None
    kind = type(value)
    mapping = _MAPPINGS.get(kind)
    if mapping is None:
        mapping = _MAPPINGS[kind] = issubclass(kind, Mapping)
        if not mapping:
            _OBJECTS.add(kind)
    return value.get(key) if mapping else getattr(value, key, None)


def _at(subject: Subject, path: Path) -> Any:
    value: Any = subject
    for key in path:
        value = _step(value, key)
        if value is None:
            return None
    return value


@dataclass(frozen=True)
class _First:
    """The first of ``paths`` that has a value (a row plan reads each path's steps once)."""

    paths: tuple[Path, ...]

    def __call__(self, subject: Subject) -> Any:
        for path in self.paths:
            value = _at(subject, path)
            if value is not None:
                return value
        return None


def _first(*paths: Path) -> Callable[[Subject], Any]:
    return _First(paths)


def _warning_codes(subject: Subject) -> str | None:
    record = subject.record
    return None if record is None else " ".join(w.code for w in record.warnings) or None


def _warning_texts(subject: Subject) -> str | None:
    record = subject.record
    if record is None:
        return None
    # each headline naming the answer's engine (a stored answer's may predate it: made again)
    engine = record.specialty_engine
    return " | ".join(headline(w.code, engine) or w.headline or w.message for w in record.warnings) or None


def _max_tps(subject: Subject) -> float | None:
    """The most the target carries, rounded *down* to the cells' 6 significant digits: a cell
    rounded up (1,807,757.1 -> 1,807,760) would name a rate that does not fit."""
    most = None if subject.record is None else subject.record.feasibility.max_tps
    if most is None or not math.isfinite(most) or most <= 0:
        return most
    scale = 10.0 ** (SIGNIFICANT_DIGITS - 1 - math.floor(math.log10(most)))
    return math.floor(most * scale) / scale


def _point_ids(subject: Subject) -> str | None:
    record = subject.record
    return None if record is None else ";".join(str(p) for p in record.basis.points) or None


# Units and meanings of the optional inputs (input_<name>); a field added to the input form
# later gets a column at once, described by its help text (docs/csv.md must list it: a test checks).
_INPUT_UNITS = {
    "calibration": ("", "id of one of your calibrations, instead of path and configuration"),
    "model": ("", "target model capacity identifier as given, e.g. 3931-510"),
    "capacity_setting": ("", "capacity setting as given: 700 full speed, 400/500/600 sub-capacity, A00..Z00"),
    "cps": ("CPs", "general-purpose CPs given (empty: sized)"),
    "ziips": ("zIIPs", "zIIPs given (empty: sized)"),
    "max_utilization": ("fraction 0-1", "utilisation ceiling given"),
    "payload_bytes": ("bytes", "payload size given"),
    "clients": ("clients", "concurrent clients given"),
    "think_time_s": ("s", "client think time given"),
    "response_time_sla_ms": ("ms", "response-time goal given"),
    "projection_band": ("fraction 0-1", "relative error band of the LSPR projection given"),
    "lpar_overhead": ("fraction", "rest of the LPAR as a share of the CICS regions' CPU, given"),
    "server_share": ("fraction 0-1", "share of the demand the published eligible share applies to, given"),
    "smt2_factor": ("factor 1-2", "SMT-2 zIIP capacity factor given (applied on z13 and later)"),
    "objective": (
        "",
        "what the mix minimises, given: fewest-cps (default), least-msu-consumed, fewest-engines or least-cost",
    ),
    "cics_regions": ("regions", "CICS TS: CICS regions given (empty: the benchmark's 17)"),
}
_NAMED_INPUTS = ("path", "configuration", "machine", "tps", "name")


def _input_columns() -> list[Column]:
    fields = EstimateInputSerializer().fields
    columns = []
    for name, field in fields.items():
        if name in _NAMED_INPUTS:
            continue
        unit, description = _INPUT_UNITS.get(name, ("", str(field.help_text or name)))
        columns.append(Column(f"input_{name}", unit, description, ("inputs", name)))
    return columns


HEADER_COLUMNS: tuple[Column, ...] = (
    Column("estimate_id", "", "id of the saved estimate (saved estimates only)", ("estimate_id",)),
    Column("estimate_name", "", "name of the saved estimate", ("estimate_name",)),
    Column("created_at", "ISO 8601, UTC", "when the estimate was saved", ("created_at",)),
    Column("row", "", "batch: number of the scenario's row in the uploaded CSV (1 = first data row)", ("row",)),
    Column("error", "", "batch: why the row could not be sized (field: reason); the answer cells are empty", ("error",)),
    Column("status", "", "sized, does-not-fit (the rate is beyond the target), no-cpu-data (nothing can be sized: no CPU figures are published) or refused (batch: see error)", ("status",)),
    Column("path", "", "workload path slug", _first(("record", "path"), ("inputs", "path"))),
    Column("configuration", "", "configuration slug of that path", _first(("record", "configuration"), ("inputs", "configuration"))),
    Column("machine", "", "target machine slug", _first(("record", "target_machine"), ("inputs", "machine"))),
    Column("tps", "transactions/s", "target rate", _first(("record", "tps"), ("inputs", "tps"))),
    *_input_columns(),
    Column("model_version", "", "version of the sizing models that answered", ("record", "model_version")),
    Column("machine_type", "", "target machine type, e.g. 3931", ("record", "target_machine_type")),
    Column("capacity_model", "", "model capacity identifier of the answer, e.g. 3931-705", ("record", "capacity", "model")),
    Column("capacity_setting", "", "capacity setting of the answer's CPs", ("record", "capacity", "capacity_setting")),
    Column("cps_required", "CPs", "general-purpose CPs required", ("record", "cps_required")),
    Column("cps_low", "CPs", "low end of the CPs range", ("record", "ranges", "cps", 0)),
    Column("cps_high", "CPs", "high end of the CPs range", ("record", "ranges", "cps", 1)),
    Column("cps", "CPs", "CPs the answer evaluates (the given count, else the required)", ("record", "cps")),
    Column("specialty_engine", "", "zIIP, or zAAP on z10..zEC12", ("record", "specialty_engine")),
    Column("ziips_required", "engines", "zIIPs (zAAPs) required", ("record", "ziips_required")),
    Column("ziips_low", "engines", "low end of the zIIPs range", ("record", "ranges", "ziips", 0)),
    Column("ziips_high", "engines", "high end of the zIIPs range", ("record", "ranges", "ziips", 1)),
    Column("ziips", "engines", "zIIPs the answer evaluates (the given count, else the required)", ("record", "ziips")),
    Column("feasible", "", "false: the target cannot carry the rate as asked (CPs and zIIPs empty); empty: no CPU figures, no CPU verdict", ("record", "feasible")),
    Column("does_not_fit", "", "why not, and the most the target carries", ("record", "feasibility", "message")),
    Column("max_tps", "transactions/s", "where it does not fit: the most the target carries (rounded down); a floor where saturation_kind is lower-bound and the target is refused by its engines (the published figures show at least this)", _max_tps),
    Column("max_tps_cps", "CPs", "CPs that carry max_tps", ("record", "feasibility", "max_tps_cps")),
    Column("max_tps_ziips", "engines", "zIIPs (zAAPs) beside them", ("record", "feasibility", "max_tps_ziips")),
    Column("objective", "", "what the mix minimised: fewest-cps, least-msu-consumed, fewest-engines or least-cost", ("record", "objective")),
    Column("alternative_objective", "", "the other objective, where its mix differs", ("record", "alternative", "objective")),
    Column("alternative_cps", "CPs", "CPs of that mix", ("record", "alternative", "cps")),
    Column("alternative_ziips", "engines", "zIIPs (zAAPs) of that mix", ("record", "alternative", "ziips")),
    Column("alternative_msu", "MSU", "MSU consumed by that mix's CPs", ("record", "alternative", "msu")),
    Column("alternative_msu_installed", "MSU", "MSU installed with that mix's CPs", ("record", "alternative", "msu_installed")),
    Column("cost_currency", "", "your price book's currency (the cost columns are empty without a price book)", ("record", "cost", "currency")),
    Column("cost_term_years", "years", "years the cost covers: your book's term", ("record", "cost", "term_years")),
    Column("cost_total", "currency", "cost of the answer's CPs and zIIPs over the term: hardware + software", ("record", "cost", "total")),
    Column("cost_cps", "currency", "of which the CPs (one-off, or per year x term)", ("record", "cost", "cps")),
    Column("cost_specialty", "currency", "of which the zIIPs (zAAPs)", ("record", "cost", "specialty")),
    Column("cost_software", "currency", "of which software: MSU priced x price per MSU-year x term", ("record", "cost", "software")),
    Column("cost_msu", "MSU", "MSU priced: installed (the CPs' rating) or consumed (the CP work's)", ("record", "cost", "msu")),
    Column("cost_msu_basis", "", "installed or consumed, as your book says", ("record", "cost", "msu_basis")),
    Column("cpu_per_tran_ms", "CP-ms per transaction", "CPU per transaction on the target, all engines", ("record", "cpu_per_tran_ms", "total")),
    Column("cpu_per_tran_ms_low", "CP-ms per transaction", "low end of its range", ("record", "cpu_per_tran_ms", "low")),
    Column("cpu_per_tran_ms_high", "CP-ms per transaction", "high end of its range", ("record", "cpu_per_tran_ms", "high")),
    Column("cpu_per_tran_ms_gcp", "CP-ms per transaction", "of which on general-purpose CPs", ("record", "cpu_per_tran_ms", "gcp")),
    Column("cpu_per_tran_ms_ziip", "CP-ms per transaction", "of which on zIIPs", ("record", "cpu_per_tran_ms", "ziip")),
    Column("busy_cps", "engines", "busy engines at the target rate, all", ("record", "busy_cps", "total")),
    Column("busy_cps_gcp", "engines", "busy general-purpose CPs", ("record", "busy_cps", "gcp")),
    Column("busy_cps_ziip", "engines", "busy zIIPs", ("record", "busy_cps", "ziip")),
    Column("busy_cps_ziip_on_gcp", "engines", "zIIP-eligible work that runs on CPs", ("record", "busy_cps", "ziip_on_gcp")),
    Column("gcp_utilization", "fraction 0-1", "utilisation of the CPs", ("record", "gcp_utilization")),
    Column("ziip_utilization", "fraction 0-1", "utilisation of the zIIPs (empty: none)", ("record", "ziip_utilization")),
    Column("max_utilization", "fraction 0-1", "utilisation ceiling the answer sized to", ("record", "max_utilization")),
    Column("mips", "MIPS", "CP capacity used at the target rate", ("record", "mips")),
    Column("msu", "MSU", "CP capacity used, in software pricing units", ("record", "msu")),
    Column("ziip_mips", "MIPS", "zIIP capacity used", ("record", "ziip_mips")),
    Column("cp_mips_installed", "MIPS", "capacity of the answer's CPs", ("record", "capacity", "cp_mips_installed")),
    Column("cp_msu_installed", "MSU", "capacity of the answer's CPs", ("record", "capacity", "cp_msu_installed")),
    Column("response_time_ms", "ms", "response time at the target rate", ("record", "response_time_ms", "value")),
    Column("response_time_ms_low", "ms", "low end of its range", _first(("record", "response_time_ms", "low"), ("record", "ranges", "response_time_ms", 0))),
    Column("response_time_ms_high", "ms", "high end of its range", _first(("record", "response_time_ms", "high"), ("record", "ranges", "response_time_ms", 1))),
    Column("saturation_tps", "transactions/s", "rate at which the binding resource saturates", ("record", "saturation_tps")),
    Column("saturation_tps_low", "transactions/s", "low end of its range", ("record", "ranges", "saturation_tps", 0)),
    Column("saturation_tps_high", "transactions/s", "high end of its range", ("record", "ranges", "saturation_tps", 1)),
    Column("saturation_kind", "", "value; lower-bound where the central cost is the published upper bound; unknown where no CPU figures are published", ("record", "saturation_kind")),
    Column("saturation_binding_resource", "", "resource that saturates first", ("record", "saturation_binding", "resource")),
    Column("knee_tps", "transactions/s", "rate where response time starts to climb steeply", ("record", "knee_tps")),
    Column("closed_throughput_tps", "transactions/s", "throughput of the given clients and think time", ("record", "closed_throughput_tps")),
    Column("binding_resource", "", "resource with the highest utilisation at the target rate", ("record", "binding_resource", "resource")),
    Column("binding_resource_utilization", "fraction 0-1", "its utilisation", ("record", "binding_resource", "utilization")),
    Column("data_origin", "", "published (benchmark documents) or calibration (your measurements)", ("record", "basis", "data_origin")),
    Column("measured_machine_type", "", "machine type the benchmark was measured on", ("record", "basis", "projection", "from_machine_type")),
    Column("measured_cps", "CPs", "CPs of the measured LPAR", ("record", "basis", "projection", "from_cps")),
    Column("measured_component", "", "what the published CPU measures: lpar (the LPAR) or cics (the CICS regions only)", ("record", "basis", "model", "component")),
    Column("measured_cpu_per_tran_ms", "CP-ms per transaction", "fitted CPU per transaction of that component on the measured machine (not the target's)", ("record", "basis", "model", "slope_ms")),
    Column("projection_factor", "ratio", "capacity per CP of the target over the measured machine (LSPR)", ("record", "basis", "projection", "factor")),
    Column("fit_points", "points", "published points the cost model was fitted to", ("record", "basis", "model", "n")),
    Column("fit_r2", "ratio 0-1", "R squared of that fit", ("record", "basis", "model", "r2")),
    Column("basis_points", "", "ids of those points, separated by ;", _point_ids),
    Column("eligible_share", "fraction 0-1", "zIIP-eligible share of the work", ("record", "basis", "eligible_share", "value")),
    Column("eligible_share_low", "fraction 0-1", "low end of its range", ("record", "basis", "eligible_share", "low")),
    Column("eligible_share_high", "fraction 0-1", "high end of its range", ("record", "basis", "eligible_share", "high")),
    Column("warning_codes", "", "codes of the answer's warnings, separated by spaces", _warning_codes),
    Column("warnings", "", "the warnings' sentences, separated by |", _warning_texts),
)  # fmt: skip
HEADER: tuple[str, ...] = tuple(c.name for c in HEADER_COLUMNS)

#: A batch row that asks "which model fits" (``generations``) answers in these columns, added
#: after ``HEADER`` only in a batch that has such rows.
FIT_COLUMNS: tuple[Column, ...] = (
    Column("input_generations", "", "batch: generations asked for the cheapest model (z16,z17 or all)", ("inputs", "generations")),
    Column("fit_cheapest", "", "cheapest model in MSU that carries the rate", ("fit", "fit_cheapest")),
    Column("fit_per_generation", "", "cheapest model of each generation, separated by ;", ("fit", "fit_per_generation")),
    Column("fit_machine", "", "machine of the cheapest model", ("fit", "fit_machine")),
    Column("fit_capacity_setting", "", "its capacity setting", ("fit", "fit_capacity_setting")),
    Column("fit_cps", "CPs", "its CPs", ("fit", "fit_cps")),
    Column("fit_ziips", "engines", "its zIIPs", ("fit", "fit_ziips")),
    Column("fit_mips", "MIPS", "its CP capacity", ("fit", "fit_mips")),
    Column("fit_msu", "MSU", "its CP capacity in MSU", ("fit", "fit_msu")),
    Column("fit_msu_used", "MSU", "MSU used at the rate", ("fit", "fit_msu_used")),
    Column("fit_gcp_utilization", "fraction 0-1", "utilisation of its CPs", ("fit", "fit_gcp_utilization")),
    Column("fit_saturation_tps", "transactions/s", "rate at which it saturates", ("fit", "fit_saturation_tps")),
)  # fmt: skip
FIT_HEADER: tuple[str, ...] = tuple(c.name for c in FIT_COLUMNS)


def spreadsheet_number(value: Any) -> Any:
    """``value`` as a spreadsheet cell: a float to 6 significant digits (an integer when whole),
    None for a non-finite float; anything else as it is.

    ``8330.45588266133`` -> ``8330.46``; ``8000.0`` -> ``8000``; ``0.4643302351434346`` -> ``0.46433``.
    """
    if isinstance(value, bool) or not isinstance(value, float):
        return value
    if not math.isfinite(value):
        return None
    rounded = float(format(value, _ROUNDED))
    if rounded.is_integer() and abs(rounded) < 1e15:
        return int(rounded)
    return rounded


#: Cells of these types are written as they are.
_PLAIN_CELLS = frozenset((str, int, bool, type(None)))


def _cell_value(value: Any) -> Any:
    """A column's value as a cell: a number, text or ``None`` (a block, not a cell: never a packed cell)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return spreadsheet_number(value)
    if not isinstance(value, (int, float, str)):
        return None
    return spreadsheet_number(value)


def _cell(column: Column, subject: Subject) -> Any:
    return _cell_value(column.source(subject) if callable(column.source) else _at(subject, column.source))


@dataclass(frozen=True)
class _RowPlan:
    """How to read a row's cells (:func:`_plan`): each distinct step of the columns' paths once
    (``record`` once, ``record.basis`` once, its ``projection`` once...), then each cell from its
    path's last value or its function.  The same cells as :func:`_cell` column by column."""

    #: (the slot read, the key): step ``i`` writes slot ``i + 1``; slot 0 is the subject
    steps: tuple[tuple[int, str | int], ...]
    #: (the column's name, the slot of its value, the slots of which the first value, or its function)
    cells: tuple[tuple[str, int | tuple[int, ...] | Callable[[Subject], Any]], ...]


def _compiled(plan: _RowPlan) -> Callable[[Subject], dict[str, Any]]:
    """:func:`estimate_csv_row`'s cells of ``plan`` as one generated function (as ``dataclasses``
    generates ``__init__``; the source is our own column names and path keys): each step a local
    variable, an attribute read directly where the value's type is known not to be a mapping
    (:func:`_step` otherwise), a plain cell kept as it is (:func:`_cell_value` otherwise)."""
    namespace: dict[str, Any] = {"_step": _step, "_OBJECTS": _OBJECTS, "_Range": RangeRecord,
                                 "_cell": _cell_value, "_PLAIN": _PLAIN_CELLS, "_number": spreadsheet_number}  # fmt: skip
    lines = ["def row(s):", "    v0 = s"]
    for n, (slot, key) in enumerate(plan.steps, 1):
        v = f"v{slot}"
        if isinstance(key, int):
            read = f"(({v}.low, {v}.high)[{key}] if type({v}) is _Range else _step({v}, {key}))"
        else:
            read = f"(getattr({v}, {key!r}, None) if type({v}) in _OBJECTS else _step({v}, {key!r}))"
        lines.append(f"    v{n} = None if {v} is None else {read}")
    items = []
    for n, (name, source) in enumerate(plan.cells):
        if isinstance(source, int):
            value = f"v{source}"
        elif isinstance(source, tuple):  # the first of these values that is not None
            value = f"v{source[-1]}"
            for slot in reversed(source[:-1]):
                value = f"(v{slot} if v{slot} is not None else {value})"
        else:
            namespace[f"_f{n}"] = source
            value = f"_f{n}(s)"
        cell = f"(x if type(x := {value}) in _PLAIN else _number(x) if type(x) is float else _cell(x))"
        items.append(f"        {name!r}: {cell},")
    lines += ["    return {", *items, "    }"]
    exec("\n".join(lines) + "\n", namespace)
    function: Callable[[Subject], dict[str, Any]] = namespace["row"]
    return function


def _plan(columns: tuple[Column, ...]) -> _RowPlan:
    slots: dict[Path, int] = {(): 0}
    steps: list[tuple[int, str | int]] = []
    cells: list[tuple[str, int | tuple[int, ...] | Callable[[Subject], Any]]] = []

    def slot(path: Path) -> int:
        for n in range(1, len(path) + 1):
            if path[:n] not in slots:
                steps.append((slots[path[: n - 1]], path[n - 1]))
                slots[path[:n]] = len(steps)
        return slots[path]

    for column in columns:
        if isinstance(column.source, _First):
            cells.append((column.name, tuple(slot(tuple(p)) for p in column.source.paths)))
        elif callable(column.source):
            cells.append((column.name, column.source))
        else:
            cells.append((column.name, slot(tuple(column.source))))
    return _RowPlan(tuple(steps), tuple(cells))


#: Units of the columns of ``HEADER`` (and ``FIT_HEADER``), for an XLSX header.
UNITS: dict[str, str] = {c.name: c.unit for c in (*HEADER_COLUMNS, *FIT_COLUMNS)}

_PLANS = {False: _plan(HEADER_COLUMNS), True: _plan(HEADER_COLUMNS + FIT_COLUMNS)}
_ROWS = {with_fit: _compiled(plan) for with_fit, plan in _PLANS.items()}


def estimate_csv_row(subject: Subject | EstimateRecord, *, with_fit: bool = False) -> dict[str, Any]:
    """The cells of one estimate, keyed and ordered by ``HEADER`` (and ``FIT_HEADER``)."""
    if isinstance(subject, EstimateRecord):
        subject = Subject.of(subject)
    return _ROWS[with_fit](subject)
