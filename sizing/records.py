"""The app's typed records: the question (``EstimateInputs``) and the answer (``EstimateRecord``).

``EstimateInputs`` is built once, where a question is validated (a request, a batch row, a
stored estimate's inputs); ``EstimateRecord`` is the answer as stored and served: the engine's
answer (``SizingResult.to_dict()`` with the warnings' levels and whose data), the normalised
inputs and the model version, plus a saved estimate's id, name and time where there is one.

Surfaces (CSV, XLSX, batch) read attributes; ``from_dict`` reads stored JSON (every version this
app has written) and ``to_dict`` writes the JSON the estimate API serves, byte for byte as
before this module existed (the same keys in the same order): the only places the answer is a
dict are the JSON, storage and cache boundary (``tests/test_architecture.py`` names them).

Schema versions (``RECORD_VERSION``):

* 0: answers stored before the feasibility block (no ``feasibility``; ``response_time_ms`` a
  number; ``ranges`` as ``{"low": .., "high": ..}``; ``capacity`` with flat ``cp_mips_installed``);
* 1: the current shape (no ``schema_version`` key is written: the served JSON is unchanged).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

#: The shape ``to_dict`` writes; ``from_dict`` reads it and every earlier one.
RECORD_VERSION = 1

Json = Mapping[str, Any]

T = TypeVar("T")


def _opt_float(value: Any) -> float | None:
    kind = type(value)
    if kind is float:  # the common case first: an answer is read on every request
        return value if math.isfinite(value) else None
    if kind is int:
        return float(value)
    if value is None or kind is bool:
        return None
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _opt_int(value: Any) -> int | None:
    kind = type(value)
    if kind is int:
        return value  # type: ignore[no-any-return]
    if value is None or kind is bool:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _opt_str(value: Any) -> str | None:
    return None if value is None or value == "" else str(value)


def _obj(value: Any) -> Json:
    if type(value) is dict:
        return value
    return value if isinstance(value, Mapping) else {}


def _maybe(value: Any, build: Callable[[Json], T]) -> T | None:
    if value is None:  # an absent block (the ABC's check is slow on every one)
        return None
    return build(value) if type(value) is dict or isinstance(value, Mapping) else None


# -- the question ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class EstimateInputs:
    """One sizing question, checked by ``EstimateInputSerializer`` (the names are its fields, in
    its order: ``to_dict`` writes them as the form does)."""

    path: str | None = None
    configuration: str | None = None
    calibration: int | None = None
    machine: str | None = None
    model: str | None = None
    capacity_setting: str | None = None
    tps: float
    cps: int | None = None
    ziips: int | None = None
    max_utilization: float | None = None
    payload_bytes: int | None = None
    clients: int | None = None
    think_time_s: float | None = None
    response_time_sla_ms: float | None = None
    projection_band: float | None = None
    lpar_overhead: float | None = None
    server_share: float | None = None
    smt2_factor: float | None = None
    cics_regions: int | None = None
    objective: str | None = None
    name: str = ""

    @classmethod
    def from_dict(cls, data: Json) -> EstimateInputs:
        """Validated fields (``validated_estimate_inputs``) or stored inputs (``Estimate.inputs``;
        a key this version does not know is left out)."""
        tps = _opt_float(data.get("tps"))
        if tps is None:
            raise ValueError("tps: an estimate needs a rate")
        return cls(
            tps=tps,
            path=_opt_str(data.get("path")),
            configuration=_opt_str(data.get("configuration")),
            calibration=_opt_int(data.get("calibration")),
            machine=_opt_str(data.get("machine")),
            model=_opt_str(data.get("model")),
            capacity_setting=_opt_str(data.get("capacity_setting")),
            cps=_opt_int(data.get("cps")),
            ziips=_opt_int(data.get("ziips")),
            max_utilization=_opt_float(data.get("max_utilization")),
            payload_bytes=_opt_int(data.get("payload_bytes")),
            clients=_opt_int(data.get("clients")),
            think_time_s=_opt_float(data.get("think_time_s")),
            response_time_sla_ms=_opt_float(data.get("response_time_sla_ms")),
            projection_band=_opt_float(data.get("projection_band")),
            lpar_overhead=_opt_float(data.get("lpar_overhead")),
            server_share=_opt_float(data.get("server_share")),
            smt2_factor=_opt_float(data.get("smt2_factor")),
            cics_regions=_opt_int(data.get("cics_regions")),
            objective=_opt_str(data.get("objective")),
            name=str(data.get("name") or ""),
        )

    @classmethod
    def of(cls, value: EstimateInputs | Json) -> EstimateInputs:
        return value if isinstance(value, EstimateInputs) else cls.from_dict(value)

    def to_dict(self) -> dict[str, Any]:
        """The fields that are given (None and "" left out), as the selectors and caches key them."""
        out: dict[str, Any] = {}
        for name in _INPUT_NAMES:
            value = getattr(self, name)
            if value is not None and value != "":
                out[name] = value
        return out


#: ``EstimateInputs``' field names in order (``dataclasses.fields`` is slow to ask on every question).
_INPUT_NAMES = tuple(f.name for f in fields(EstimateInputs))


# -- the answer's blocks (field names are the JSON's keys) -----------------------------------


@dataclass(frozen=True)
class CpuPerTranRecord:
    total: float | None = None
    gcp: float | None = None
    ziip: float | None = None
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class BusyRecord:
    total: float | None = None
    gcp: float | None = None
    ziip: float | None = None
    ziip_on_gcp: float | None = None


@dataclass(frozen=True)
class ResponseRecord:
    value: float | None = None
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class RangeRecord:
    low: float | None = None
    high: float | None = None

    @classmethod
    def read(cls, value: Any) -> RangeRecord:
        if type(value) is list and len(value) == 2:  # the current shape first: read on every answer
            return cls(_opt_float(value[0]), _opt_float(value[1]))
        if isinstance(value, Mapping):  # version 0: {"low": .., "high": ..}
            return cls(_opt_float(value.get("low")), _opt_float(value.get("high")))
        if isinstance(value, (list, tuple)) and len(value) == 2:
            return cls(_opt_float(value[0]), _opt_float(value[1]))
        return cls()

    def to_json(self) -> list[float | None]:
        return [self.low, self.high]


@dataclass(frozen=True)
class RangesRecord:
    cps: RangeRecord = field(default_factory=RangeRecord)
    ziips: RangeRecord = field(default_factory=RangeRecord)
    saturation_tps: RangeRecord = field(default_factory=RangeRecord)
    response_time_ms: RangeRecord = field(default_factory=RangeRecord)


@dataclass(frozen=True)
class BindingRecord:
    resource: str
    label: str
    utilization: float | None = None


@dataclass(frozen=True)
class FeasibilityRecord:
    feasible: bool | None
    reason: str | None = None
    message: str | None = None
    max_tps: float | None = None
    max_tps_cps: int | None = None
    max_tps_ziips: int | None = None


@dataclass(frozen=True)
class AlternativeRecord:
    objective: str | None
    cps: int | None
    ziips: int | None
    msu: float | None
    msu_installed: float | None = None
    json: Json = field(repr=False, compare=False, default_factory=dict)


@dataclass(frozen=True)
class CostRecord:
    """The answer's cost from the user's price book (present only with a book)."""

    currency: str | None = None
    term_years: float | None = None
    total: float | None = None
    cps: float | None = None
    specialty: float | None = None
    software: float | None = None
    msu: float | None = None
    msu_basis: str | None = None


@dataclass(frozen=True)
class WarningRecord:
    code: str
    message: str
    level: str | None
    headline: str | None
    json: Json = field(repr=False, compare=False, default_factory=dict)


@dataclass(frozen=True)
class FitRecord:
    component: str | None
    slope_ms: float | None
    n: int | None
    r2: float | None
    intercept_cps: float | None = None
    etr_min: float | None = None
    etr_max: float | None = None
    interval_basis: str | None = None
    weighting: str | None = None
    slope_se_ms: float | None = None
    intercept_se_cps: float | None = None
    residual_std_cps: float | None = None


@dataclass(frozen=True)
class ProjectionRecord:
    from_machine_type: str | None
    from_cps: int | None
    factor: float | None
    rating_ids: tuple[int, ...] = ()
    to_machine_type: str | None = None
    to_cps: int | None = None
    source: str | None = None
    specialty_factor: float | None = None
    capacity_setting: str | None = None


@dataclass(frozen=True)
class CalibrationRef:
    """The customer's calibration an answer rests on (a private basis)."""

    id: int | None
    name: str | None
    intervals: int | None
    current_model: str | None
    cps: int | None


@dataclass(frozen=True)
class ShareRecord:
    value: float | None
    low: float | None
    high: float | None


@dataclass(frozen=True)
class BasisRecord:
    """What the answer rests on; the block's JSON is kept whole for the JSON boundary."""

    points: tuple[int, ...]
    data_origin: str | None
    model: FitRecord | None
    projection: ProjectionRecord | None
    eligible_share: ShareRecord | None
    assumptions: tuple[str, ...]
    statements: tuple[int, ...] = ()
    #: the LPAR overhead's stated range (``native``: CICS TS, REDP-5320), which widens an interval
    lpar_factor_low: float | None = None
    lpar_factor_high: float | None = None
    calibration: CalibrationRef | None = None
    json: Json = field(repr=False, compare=False, default_factory=dict)

    @classmethod
    def from_dict(cls, data: Json) -> BasisRecord:
        """An answer's ``basis`` block (an estimate's, or a job's reference estimate's)."""
        return _basis(data)


@dataclass(frozen=True)
class CapacityRecord:
    """The target's model and the capacity of the answer's CPs; the block's JSON kept whole."""

    model: str | None
    capacity_setting: str | None
    cp_mips_installed: float | None
    cp_msu_installed: float | None
    json: Json = field(repr=False, compare=False, default_factory=dict)
    #: the CPs of the largest model of the machine (a capacity-exceeded answer's)
    cps: int | None = None
    specialty_mips_installed: float | None = None
    #: the coupling facility's busy ICF engines (``None``: the answer has no ICF block)
    icf_busy: float | None = None
    has_icf: bool = False


def _ids(values: Any) -> tuple[int, ...]:
    """Row ids (points, ratings, statements): the integers of a list, a missing id left out."""
    if not isinstance(values, (list, tuple)):
        return ()
    return tuple(i for i in (_opt_int(v) for v in values) if i is not None)


def _basis(data: Json) -> BasisRecord:
    model = _maybe(
        data.get("model"),
        lambda m: FitRecord(
            _opt_str(m.get("component")),
            _opt_float(m.get("slope_ms")),
            _opt_int(m.get("n")),
            _opt_float(m.get("r2")),
            intercept_cps=_opt_float(m.get("intercept_cps")),
            etr_min=_opt_float(m.get("etr_min")),
            etr_max=_opt_float(m.get("etr_max")),
            interval_basis=_opt_str(m.get("interval_basis")),
            weighting=_opt_str(m.get("weighting")),
            slope_se_ms=_opt_float(m.get("slope_se_ms")),
            intercept_se_cps=_opt_float(m.get("intercept_se_cps")),
            residual_std_cps=_opt_float(m.get("residual_std_cps")),
        ),
    )
    projection = _maybe(
        data.get("projection"),
        lambda p: ProjectionRecord(
            _opt_str(p.get("from_machine_type")),
            _opt_int(p.get("from_cps")),
            _opt_float(p.get("factor")),
            _ids(p.get("rating_ids")),
            to_machine_type=_opt_str(p.get("to_machine_type")),
            to_cps=_opt_int(p.get("to_cps")),
            source=_opt_str(p.get("source")),
            specialty_factor=_opt_float(p.get("specialty_factor")),
            capacity_setting=_opt_str(p.get("capacity_setting")),
        ),
    )
    share = _maybe(
        data.get("eligible_share"),
        lambda s: ShareRecord(_opt_float(s.get("value")), _opt_float(s.get("low")), _opt_float(s.get("high"))),
    )
    return BasisRecord(
        points=_ids(data.get("points")),
        statements=_ids(data.get("statements")),
        data_origin=_opt_str(data.get("data_origin")),
        model=model,
        projection=projection,
        eligible_share=share,
        assumptions=tuple(str(a) for a in data.get("assumptions") or ()),
        lpar_factor_low=_opt_float(_obj(data.get("native")).get("lpar_factor_low")),
        lpar_factor_high=_opt_float(_obj(data.get("native")).get("lpar_factor_high")),
        calibration=_maybe(
            data.get("calibration"),
            lambda c: CalibrationRef(
                _opt_int(c.get("id")),
                _opt_str(c.get("name")),
                _opt_int(c.get("intervals")),
                _opt_str(c.get("current_model")),
                _opt_int(c.get("cps")),
            ),
        ),
        json=data,
    )


def _capacity(data: Json) -> CapacityRecord:
    cp = _obj(data.get("cp"))
    return CapacityRecord(
        model=_opt_str(data.get("model")),
        capacity_setting=_opt_str(data.get("capacity_setting")),
        # version 0 kept the CPs' capacity flat (cp_mips_installed); version 1 in cp.mips_installed
        cp_mips_installed=_opt_float(cp.get("mips_installed", data.get("cp_mips_installed"))),
        cp_msu_installed=_opt_float(cp.get("msu_installed", data.get("cp_msu_installed"))),
        json=data,
        cps=_opt_int(data.get("cps")),
        specialty_mips_installed=_opt_float(_obj(data.get("specialty")).get("mips_installed")),
        icf_busy=_opt_float(_obj(data.get("icf")).get("busy")),
        has_icf=bool(_obj(data.get("icf"))),
    )


def warning_record(data: Json) -> WarningRecord:
    """A warning as served (``{"code", "message", "level", "headline"}``), or one a job adds."""
    return _warning(data)


def _warning(data: Json) -> WarningRecord:
    return WarningRecord(
        code=str(data.get("code") or ""),
        message=str(data.get("message") or ""),
        level=_opt_str(data.get("level")),
        headline=_opt_str(data.get("headline")),
        json=data,
    )


def _binding(data: Json) -> BindingRecord:
    return BindingRecord(
        resource=str(data.get("resource") or ""),
        label=str(data.get("label") or ""),
        utilization=_opt_float(data.get("utilization")),
    )


def _feasibility(data: Json, answer: Json) -> FeasibilityRecord:
    if not data:  # version 0: no block; an answer without CPs required did not fit
        feasible = answer.get("feasible")
        return FeasibilityRecord(feasible=bool(feasible) if feasible is not None else True)
    given = data.get("feasible", answer.get("feasible", True))
    return FeasibilityRecord(
        feasible=None if given is None else bool(given),  # None: no CPU data, no CPU verdict
        reason=_opt_str(data.get("reason")),
        message=_opt_str(data.get("message")),
        max_tps=_opt_float(data.get("max_tps")),
        max_tps_cps=_opt_int(data.get("max_tps_cps")),
        max_tps_ziips=_opt_int(data.get("max_tps_ziips")),
    )


def _alternative(data: Json) -> AlternativeRecord:
    return AlternativeRecord(
        objective=_opt_str(data.get("objective")),
        cps=_opt_int(data.get("cps")),
        ziips=_opt_int(data.get("ziips")),
        msu=_opt_float(data.get("msu")),
        msu_installed=_opt_float(data.get("msu_installed")),
        json=data,
    )


def _inputs(data: Json) -> EstimateInputs | None:
    try:
        return EstimateInputs.from_dict(data)
    except ValueError:
        return None


def _response(value: Any) -> ResponseRecord:
    if type(value) is dict or isinstance(value, Mapping):
        return ResponseRecord(
            _opt_float(value.get("value")), _opt_float(value.get("low")), _opt_float(value.get("high"))
        )
    return ResponseRecord(_opt_float(value))  # version 0: one number


def _saturation_kind(data: Json) -> str:
    """The answer's ``saturation_kind``; ``unknown`` where it has no saturation rate, whatever an
    answer stored before that kind existed said (HostBridge's were stored as ``value``)."""
    if _opt_float(data.get("saturation_tps")) is None:
        return "unknown"
    return str(data.get("saturation_kind") or "value")


# -- the record -------------------------------------------------------------------------------


class _Read:
    """``EstimateRecord.from_dict``'s default question: read from the answer's ``inputs``."""


READ = _Read()

#: The answer's keys in the order the engine writes them (``SizingResult.to_dict``); ``to_dict``
#: writes them in this order, so that the served JSON is unchanged.
ANSWER_KEYS = (
    "path", "configuration", "target_machine", "target_machine_type", "tps", "cps", "cps_required", "ziips",
    "ziips_required", "cpu_per_tran_ms", "busy_cps", "breakdown", "gcp_utilization", "ziip_utilization", "mips",
    "msu", "ziip_mips", "response_time_ms", "saturation_tps", "knee_tps", "closed_throughput_tps", "warnings",
    "basis", "max_utilization", "specialty_engine", "specialty_engine_max", "binding_resource",
    "saturation_binding", "saturation_kind", "ranges", "capacity", "feasible", "feasibility", "objective",
    "alternative", "evaluated_cps", "evaluated_ziips",
)  # fmt: skip
#: A saved estimate's own fields (``EstimateOutputSerializer``), before the answer's.
SAVED_KEYS = ("id", "url", "name", "owner", "path", "configuration", "machine", "tps", "inputs", "model_version",
              "created_at")  # fmt: skip


@dataclass(frozen=True)
class Saved:
    """What a saved estimate adds to its answer: who, when, its id and name."""

    id: int
    url: str
    name: str
    owner: str
    machine: str
    created_at: str


@dataclass(frozen=True)
class EstimateRecord:
    """One sizing answer as stored and served, typed (see the module docstring)."""

    #: the question (None where stored inputs are not an estimate's: a record read from a job)
    inputs: EstimateInputs | None
    model_version: str | None
    path: str | None
    configuration: str | None
    target_machine: str | None
    target_machine_type: str | None
    tps: float | None
    cps: int | None
    cps_required: int | None
    ziips: int | None
    ziips_required: int | None
    cpu_per_tran_ms: CpuPerTranRecord
    busy_cps: BusyRecord
    breakdown: Mapping[str, float | None]
    gcp_utilization: float | None
    ziip_utilization: float | None
    mips: float | None
    msu: float | None
    ziip_mips: float | None
    response_time_ms: ResponseRecord
    saturation_tps: float | None
    knee_tps: float | None
    closed_throughput_tps: float | None
    warnings: tuple[WarningRecord, ...]
    basis: BasisRecord
    max_utilization: float | None
    specialty_engine: str
    specialty_engine_max: int | None
    binding_resource: BindingRecord | None
    saturation_binding: BindingRecord | None
    saturation_kind: str
    ranges: RangesRecord
    capacity: CapacityRecord | None
    feasibility: FeasibilityRecord
    objective: str | None
    alternative: AlternativeRecord | None
    evaluated_cps: int | None
    evaluated_ziips: int | None
    saved: Saved | None = None
    schema_version: int = RECORD_VERSION
    #: keys this version does not know (a newer answer's), written back as they were
    extra: Json = field(default_factory=dict, repr=False, compare=False)
    #: the answer's own JSON as read (written back by ``to_dict`` for the blocks it keeps whole)
    json: Json = field(default_factory=dict, repr=False, compare=False)

    # -- derived, in words the surfaces use --------------------------------------------------

    @property
    def has_cpu_data(self) -> bool:
        """False where the path publishes no CPU figures: nothing is sized (HostBridge)."""
        return not any(w.code == "no-cpu-data" for w in self.warnings)

    @property
    def cost(self) -> CostRecord | None:
        """The cost block of an answer priced from the user's book (``None``: no book)."""
        data = _obj(self.extra.get("cost"))
        if not data:
            return None
        return CostRecord(
            currency=_opt_str(data.get("currency")),
            term_years=_opt_float(data.get("term_years")),
            total=_opt_float(data.get("total")),
            cps=_opt_float(data.get("cps")),
            specialty=_opt_float(data.get("specialty")),
            software=_opt_float(data.get("software")),
            msu=_opt_float(data.get("msu")),
            msu_basis=_opt_str(data.get("msu_basis")),
        )

    @property
    def software_limit_tps(self) -> float | None:
        """The software station's saturation where a surface added it (``sizing.services.charts``)."""
        return _opt_float(self.extra.get("software_limit_tps"))

    @property
    def feasible(self) -> bool | None:
        """Whether the target carries the rate as asked; ``None`` without CPU data (nothing was
        sized, so nothing can be said to fit)."""
        return self.feasibility.feasible if self.has_cpu_data else None

    @property
    def status(self) -> str:
        """``sized``, ``does-not-fit`` or ``no-cpu-data`` (a refused question has no record)."""
        if not self.has_cpu_data:
            return "no-cpu-data"
        return "sized" if self.feasibility.feasible else "does-not-fit"

    @property
    def name(self) -> str:
        if self.saved is not None:
            return self.saved.name
        return "" if self.inputs is None else self.inputs.name

    # -- the JSON boundary --------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Json, *, inputs: EstimateInputs | None | _Read = READ) -> EstimateRecord:
        """An answer as served (``{"inputs", "model_version", **answer}``), as stored
        (``Estimate.outputs`` with its inputs beside it) or a saved estimate as the API serves it;
        of any schema version (see the module docstring).  ``inputs``: the record's question where
        the caller has it typed already (else read from ``data["inputs"]``)."""
        version = _opt_int(data.get("schema_version"))
        if version is None:
            version = 1 if "feasibility" in data else 0
        if version > RECORD_VERSION:
            raise ValueError(f"schema_version {version}: newer than this app reads ({RECORD_VERSION})")
        saved = None
        if "id" in data and "created_at" in data:
            saved = Saved(
                id=int(data["id"]),
                url=str(data.get("url") or ""),
                name=str(data.get("name") or ""),
                owner=str(data.get("owner") or ""),
                machine=str(data.get("machine") or ""),
                created_at=str(data.get("created_at") or ""),
            )
        ranges = _obj(data.get("ranges"))
        return cls(
            inputs=_inputs(_obj(data.get("inputs"))) if isinstance(inputs, _Read) else inputs,
            model_version=_opt_str(data.get("model_version")),
            path=_opt_str(data.get("path")),
            configuration=_opt_str(data.get("configuration")),
            target_machine=_opt_str(data.get("target_machine")),
            target_machine_type=_opt_str(data.get("target_machine_type")),
            tps=_opt_float(data.get("tps")),
            cps=_opt_int(data.get("cps")),
            cps_required=_opt_int(data.get("cps_required")),
            ziips=_opt_int(data.get("ziips")),
            ziips_required=_opt_int(data.get("ziips_required")),
            cpu_per_tran_ms=CpuPerTranRecord(
                **{k: _opt_float(v) for k, v in _obj(data.get("cpu_per_tran_ms")).items() if k in _CPU_KEYS}
            ),
            busy_cps=BusyRecord(**{k: _opt_float(v) for k, v in _obj(data.get("busy_cps")).items() if k in _BUSY_KEYS}),
            breakdown={str(k): _opt_float(v) for k, v in _obj(data.get("breakdown")).items()},
            gcp_utilization=_opt_float(data.get("gcp_utilization")),
            ziip_utilization=_opt_float(data.get("ziip_utilization")),
            mips=_opt_float(data.get("mips")),
            msu=_opt_float(data.get("msu")),
            ziip_mips=_opt_float(data.get("ziip_mips")),
            response_time_ms=_response(data.get("response_time_ms")),
            saturation_tps=_opt_float(data.get("saturation_tps")),
            knee_tps=_opt_float(data.get("knee_tps")),
            closed_throughput_tps=_opt_float(data.get("closed_throughput_tps")),
            warnings=tuple(
                _warning(w) for w in data.get("warnings") or () if type(w) is dict or isinstance(w, Mapping)
            ),
            basis=_basis(_obj(data.get("basis"))),
            max_utilization=_opt_float(data.get("max_utilization")),
            specialty_engine=str(data.get("specialty_engine") or "zIIP"),
            specialty_engine_max=_opt_int(data.get("specialty_engine_max")),
            binding_resource=_maybe(data.get("binding_resource"), _binding),
            saturation_binding=_maybe(data.get("saturation_binding"), _binding),
            saturation_kind=_saturation_kind(data),
            ranges=RangesRecord(
                cps=RangeRecord.read(ranges.get("cps")),
                ziips=RangeRecord.read(ranges.get("ziips")),
                saturation_tps=RangeRecord.read(ranges.get("saturation_tps")),
                response_time_ms=RangeRecord.read(ranges.get("response_time_ms")),
            ),
            capacity=_maybe(data.get("capacity"), _capacity),
            feasibility=_feasibility(_obj(data.get("feasibility")), data),
            objective=_opt_str(data.get("objective")),
            alternative=_maybe(data.get("alternative"), _alternative),
            evaluated_cps=_opt_int(data.get("evaluated_cps")),
            evaluated_ziips=_opt_int(data.get("evaluated_ziips")),
            saved=saved,
            schema_version=version,
            extra={k: v for k, v in data.items() if k not in _KNOWN_KEYS},
            json=data,
        )

    def answer_dict(self) -> dict[str, Any]:
        """The engine's answer as the API serves it (the keys of ``ANSWER_KEYS``, in order)."""
        if self.schema_version == RECORD_VERSION:
            # The stored blocks as they were: a current answer is written back unchanged.
            return {k: self.json[k] for k in ANSWER_KEYS if k in self.json}
        feas = self.feasibility
        return {
            "path": self.path,
            "configuration": self.configuration,
            "target_machine": self.target_machine,
            "target_machine_type": self.target_machine_type,
            "tps": self.tps,
            "cps": self.cps,
            "cps_required": self.cps_required,
            "ziips": self.ziips,
            "ziips_required": self.ziips_required,
            "cpu_per_tran_ms": _plain(self.cpu_per_tran_ms),
            "busy_cps": _plain(self.busy_cps),
            "breakdown": dict(self.breakdown),
            "gcp_utilization": self.gcp_utilization,
            "ziip_utilization": self.ziip_utilization,
            "mips": self.mips,
            "msu": self.msu,
            "ziip_mips": self.ziip_mips,
            "response_time_ms": _plain(self.response_time_ms),
            "saturation_tps": self.saturation_tps,
            "knee_tps": self.knee_tps,
            "closed_throughput_tps": self.closed_throughput_tps,
            "warnings": [dict(w.json) for w in self.warnings],
            "basis": dict(self.basis.json),
            "max_utilization": self.max_utilization,
            "specialty_engine": self.specialty_engine,
            "specialty_engine_max": self.specialty_engine_max,
            "binding_resource": None if self.binding_resource is None else _plain(self.binding_resource),
            "saturation_binding": None
            if self.saturation_binding is None
            else {"resource": self.saturation_binding.resource, "label": self.saturation_binding.label},
            "saturation_kind": self.saturation_kind,
            "ranges": {f.name: getattr(self.ranges, f.name).to_json() for f in fields(self.ranges)},
            "capacity": None if self.capacity is None else dict(self.capacity.json),
            "feasible": feas.feasible,
            "feasibility": _plain(feas),
            "objective": self.objective,
            "alternative": None if self.alternative is None else dict(self.alternative.json),
            "evaluated_cps": self.evaluated_cps,
            "evaluated_ziips": self.evaluated_ziips,
        }

    def to_dict(self) -> dict[str, Any]:
        """The record as the API serves it: a saved estimate's fields first (as
        ``EstimateOutputSerializer`` writes them), else its inputs and model version; then the
        answer; then any key a newer answer had."""
        answer = self.answer_dict()
        if self.saved is not None:
            s = self.saved
            head: dict[str, Any] = {
                "id": s.id,
                "url": s.url,
                "name": s.name,
                "owner": s.owner,
                "path": self.json.get("path", self.path),
                "configuration": self.json.get("configuration", self.configuration),
                "machine": s.machine,
                "tps": self.tps,
                "inputs": dict(_obj(self.json.get("inputs"))),
                "model_version": self.model_version,
                "created_at": s.created_at,
            }
            return {**head, **{k: v for k, v in answer.items() if k not in head}, **self.extra}
        return {
            "inputs": dict(_obj(self.json.get("inputs"))),
            "model_version": self.model_version,
            **answer,
            **self.extra,
        }


_KNOWN_KEYS = frozenset((*ANSWER_KEYS, *SAVED_KEYS, "schema_version"))
_CPU_KEYS = frozenset(f.name for f in fields(CpuPerTranRecord))
_BUSY_KEYS = frozenset(f.name for f in fields(BusyRecord))


def _plain(block: Any) -> dict[str, Any]:
    """A block's fields as a JSON object (the kept JSON left out)."""
    return {f.name: getattr(block, f.name) for f in fields(block) if f.name != "json"}


@dataclass(frozen=True)
class MixHeadroomRecord:
    """How far a mix job's rates can grow together, read from its stored result (``sizing.jobs.mix``):
    the headroom (every rate's multiplier within the CP ceiling), the saturation scale (where a
    pool saturates) and that ceiling; ``None`` for an unbounded multiplier (stored as null)."""

    headroom: float | None
    saturation_scale: float | None
    ceiling: float | None

    @classmethod
    def from_result(cls, result: Json) -> MixHeadroomRecord:
        combined = _obj(result.get("combined"))
        return cls(
            headroom=_opt_float(combined.get("headroom")),
            saturation_scale=_opt_float(combined.get("saturation_scale")),
            ceiling=_opt_float(result.get("max_utilization")),
        )


# -- other answers: "which model fits" -----------------------------------------------------------


@dataclass(frozen=True)
class FitRowRecord:
    """One row of a "which model fits" answer (``models_lib.fit.ModelFit``), with the machine's
    slug and name the service adds."""

    machine_type: str
    generation: str
    capacity_setting: str
    kind: str
    fits: bool
    model: str
    cps: int | None
    ziips: int | None
    mips: float | None
    msu: float | None
    msu_used: float | None
    gcp_utilization: float | None
    response_time_ms: float | None
    saturation_tps: float | None
    reason: str = ""
    max_tps: float | None = None
    max_tps_cps: int | None = None
    max_tps_ziips: int | None = None
    cheapest_in_generation: bool = False
    cheapest: bool = False
    machine: str | None = None
    machine_name: str | None = None
    json: Json = field(repr=False, compare=False, default_factory=dict)

    @classmethod
    def from_dict(cls, data: Json) -> FitRowRecord:
        return cls(
            machine_type=str(data.get("machine_type") or ""),
            generation=str(data.get("generation") or ""),
            capacity_setting=str(data.get("capacity_setting") or ""),
            kind=str(data.get("kind") or ""),
            fits=bool(data.get("fits")),
            model=str(data.get("model") or ""),
            cps=_opt_int(data.get("cps")),
            ziips=_opt_int(data.get("ziips")),
            mips=_opt_float(data.get("mips")),
            msu=_opt_float(data.get("msu")),
            msu_used=_opt_float(data.get("msu_used")),
            gcp_utilization=_opt_float(data.get("gcp_utilization")),
            response_time_ms=_opt_float(data.get("response_time_ms")),
            saturation_tps=_opt_float(data.get("saturation_tps")),
            reason=str(data.get("reason") or ""),
            max_tps=_opt_float(data.get("max_tps")),
            max_tps_cps=_opt_int(data.get("max_tps_cps")),
            max_tps_ziips=_opt_int(data.get("max_tps_ziips")),
            cheapest_in_generation=bool(data.get("cheapest_in_generation")),
            cheapest=bool(data.get("cheapest")),
            machine=_opt_str(data.get("machine")),
            machine_name=_opt_str(data.get("machine_name")),
            json=data,
        )


@dataclass(frozen=True)
class FitAnswerRecord:
    """A "which model fits" answer (``sizing.services.fit.fit_compute``)."""

    path: str | None
    configuration: str | None
    tps: float | None
    max_utilization: float | None
    response_time_sla_ms: float | None
    cheapest: str | None
    rows: tuple[FitRowRecord, ...]
    source: str | None = None

    @classmethod
    def from_dict(cls, data: Json) -> FitAnswerRecord:
        return cls(
            path=_opt_str(data.get("path")),
            configuration=_opt_str(data.get("configuration")),
            tps=_opt_float(data.get("tps")),
            max_utilization=_opt_float(data.get("max_utilization")),
            response_time_sla_ms=_opt_float(data.get("response_time_sla_ms")),
            cheapest=_opt_str(data.get("cheapest")),
            rows=tuple(FitRowRecord.from_dict(r) for r in data.get("rows") or () if isinstance(r, Mapping)),
            source=_opt_str(data.get("source")),
        )

    def best(self) -> FitRowRecord | None:
        """The cheapest fitting row (``None`` when nothing fits)."""
        return next((r for r in self.rows if r.cheapest), None)


# -- a job's question and result (sizing/api/job_result_schema.py names each kind's fields) --------


def _floats(values: Any) -> list[float | None]:
    """A stored series: each value a float, a missing or non-numeric one None."""
    return [_opt_float(v) for v in values] if isinstance(values, (list, tuple)) else []


def _objects(values: Any) -> list[Json]:
    return [v for v in values if isinstance(v, Mapping)] if isinstance(values, (list, tuple)) else []


@dataclass(frozen=True)
class JobWorkloadParams:
    """A workload of a mix job's question."""

    path: str | None
    configuration: str | None
    tps: float | None


@dataclass(frozen=True)
class JobParams:
    """A job's question as stored (``Job.params``): what its report and title name."""

    path: str | None
    configuration: str | None
    machine: str | None
    workloads: tuple[JobWorkloadParams, ...]

    @classmethod
    def from_dict(cls, data: Json) -> JobParams:
        return cls(
            path=_opt_str(data.get("path")),
            configuration=_opt_str(data.get("configuration")),
            machine=_opt_str(data.get("machine")),
            workloads=tuple(
                JobWorkloadParams(_opt_str(w.get("path")), _opt_str(w.get("configuration")), _opt_float(w.get("tps")))
                for w in _objects(data.get("workloads"))
            ),
        )


@dataclass(frozen=True)
class CurveAtTarget:
    tps: float | None
    gcp_utilization: float | None
    response_time_ms: float | None


@dataclass(frozen=True)
class CurveSeries:
    """One CP count of a ``curve`` job."""

    cps: int | None
    tps: list[float | None]
    response_time_ms: list[float | None]
    response_time_lower_bound_ms: list[float | None]
    gcp_utilization: list[float | None]
    knee_tps: float | None
    saturation_tps: float | None
    ceiling_tps: float | None
    at_tps: CurveAtTarget


@dataclass(frozen=True)
class ClosedCurve:
    clients: list[float | None]
    throughput_tps: list[float | None]
    response_time_ms: list[float | None]
    response_time_lower_bound_ms: list[float | None]


@dataclass(frozen=True)
class Percentiles:
    """A Monte Carlo distribution's percentiles (``p5``, ``p50``, ``p95``) and central value."""

    p5: float | None
    p50: float | None
    p95: float | None
    central: float | None = None

    @classmethod
    def from_dict(cls, data: Json) -> Percentiles:
        return cls(
            _opt_float(data.get("p5")),
            _opt_float(data.get("p50")),
            _opt_float(data.get("p95")),
            _opt_float(data.get("central")),
        )


@dataclass(frozen=True)
class HistogramBar:
    cps: int | None
    share: float | None


@dataclass(frozen=True)
class EngineMix:
    """A mix of CPs and specialty engines the optimiser priced."""

    cps: int | None
    ziips: int | None
    cost: float | None
    gcp_utilization: float | None = None
    ziip_utilization: float | None = None

    @classmethod
    def from_dict(cls, data: Json) -> EngineMix:
        return cls(
            _opt_int(data.get("cps")),
            _opt_int(data.get("ziips")),
            _opt_float(data.get("cost")),
            _opt_float(data.get("gcp_utilization")),
            _opt_float(data.get("ziip_utilization")),
        )


@dataclass(frozen=True)
class MixWorkload:
    configuration: str | None
    tps: float | None
    gcp_busy: float | None
    ziip_busy: float | None
    warnings: tuple[WarningRecord, ...]
    path: str | None = None


@dataclass(frozen=True)
class MixCombined:
    tps: float | None
    gcp_utilization: float | None
    ziip_utilization: float | None
    mips: float | None
    msu: float | None
    saturation_scale: float | None
    #: every rate's multiplier within the CP ceiling (``None``: unbounded)
    headroom: float | None = None


@dataclass(frozen=True)
class JobResult:
    """A finished job's result (``Job.result``), typed for every kind; a field a kind does not
    write is ``None`` or empty.  ``table`` is the result table (result.csv) as stored."""

    kind: str | None
    table_columns: tuple[str, ...]
    table_rows: tuple[tuple[Any, ...], ...]
    warnings: tuple[WarningRecord, ...]
    basis: BasisRecord | None
    estimate: EstimateRecord | None
    # curve
    series: tuple[CurveSeries, ...]
    response_time_data: bool
    max_utilization: float | None
    # closed
    curve: ClosedCurve
    cps: int | None
    ziips: int | None
    think_time_s: float | None
    bottleneck: str | None
    knee_clients: float | None
    max_throughput_tps: float | None
    max_clients_within_sla: float | None
    response_time_sla_ms: float | None  # closed and Monte Carlo: the goal judged (None: none given)
    # montecarlo
    samples: int | None
    seed: int | None
    tps: float | None
    cps_required: Percentiles
    cps_histogram: tuple[HistogramBar, ...]
    ziips_required: Percentiles
    response_time_ms: Percentiles
    p_within_ceiling: float | None
    evaluated_at_cps: int | None
    p_meets_sla: float | None
    # optimize
    specialty_engine: str
    frontier: tuple[EngineMix, ...]
    best: EngineMix | None
    feasible: int | None
    evaluated: int | None
    costs: Json
    # mix
    workloads: tuple[MixWorkload, ...]
    combined: MixCombined
    cps_sized: bool
    ziips_sized: bool
    machine: str | None
    approximation: str | None
    # batch
    rows: int
    counts: Mapping[str, int] | None
    succeeded: int
    failed: int
    #: a curve's ``saturation_kind`` ("lower-bound": its knees and saturations are lower bounds)
    saturation_kind: str | None = None

    @classmethod
    def from_dict(cls, data: Json) -> JobResult:
        table = _obj(data.get("table"))
        basis = data.get("basis")
        estimate = data.get("estimate")
        curve = _obj(data.get("curve"))
        combined = _obj(data.get("combined"))
        cps = data.get("cps_required")
        counts = data.get("counts")
        return cls(
            kind=_opt_str(data.get("kind")),
            table_columns=tuple(str(c) for c in table.get("columns") or ()),
            table_rows=tuple(tuple(r) for r in table.get("rows") or () if isinstance(r, (list, tuple))),
            warnings=tuple(_warning(w) for w in _objects(data.get("warnings"))),
            basis=_basis(basis) if isinstance(basis, Mapping) and basis else None,
            estimate=EstimateRecord.from_dict(estimate) if isinstance(estimate, Mapping) else None,
            series=tuple(_series(s) for s in _objects(data.get("series"))),
            response_time_data=bool(data.get("response_time_data")),
            max_utilization=_opt_float(data.get("max_utilization")),
            curve=ClosedCurve(
                _floats(curve.get("clients")),
                _floats(curve.get("throughput_tps")),
                _floats(curve.get("response_time_ms")),
                _floats(curve.get("response_time_lower_bound_ms")),
            ),
            cps=_opt_int(data.get("cps")),
            ziips=_opt_int(data.get("ziips")),
            think_time_s=_opt_float(data.get("think_time_s")),
            bottleneck=_opt_str(data.get("bottleneck")),
            knee_clients=_opt_float(data.get("knee_clients")),
            max_throughput_tps=_opt_float(data.get("max_throughput_tps")),
            max_clients_within_sla=_opt_float(data.get("max_clients_within_sla")),
            response_time_sla_ms=_opt_float(data.get("response_time_sla_ms")),
            samples=_opt_int(data.get("samples")),
            seed=_opt_int(data.get("seed")),
            tps=_opt_float(data.get("tps")),
            cps_required=Percentiles.from_dict(_obj(cps)),
            cps_histogram=tuple(
                HistogramBar(_opt_int(h.get("cps")), _opt_float(h.get("share")))
                for h in _objects(_obj(cps).get("histogram"))
            ),
            ziips_required=Percentiles.from_dict(_obj(data.get("ziips_required"))),
            response_time_ms=Percentiles.from_dict(_obj(data.get("response_time_ms"))),
            p_within_ceiling=_opt_float(data.get("p_within_ceiling")),
            evaluated_at_cps=_opt_int(data.get("evaluated_at_cps")),
            p_meets_sla=_opt_float(data.get("p_meets_sla")),
            specialty_engine=str(data.get("specialty_engine") or "zIIP"),
            frontier=tuple(EngineMix.from_dict(m) for m in _objects(data.get("frontier"))),
            best=_maybe(data.get("best"), EngineMix.from_dict),
            feasible=_opt_int(data.get("feasible")),
            evaluated=_opt_int(data.get("evaluated")),
            costs=_obj(data.get("costs")),
            workloads=tuple(
                MixWorkload(
                    _opt_str(w.get("configuration")),
                    _opt_float(w.get("tps")),
                    _opt_float(w.get("gcp_busy")),
                    _opt_float(w.get("ziip_busy")),
                    tuple(_warning(x) for x in _objects(w.get("warnings"))),
                    _opt_str(w.get("path")),
                )
                for w in _objects(data.get("workloads"))
            ),
            combined=MixCombined(
                _opt_float(combined.get("tps")),
                _opt_float(combined.get("gcp_utilization")),
                _opt_float(combined.get("ziip_utilization")),
                _opt_float(combined.get("mips")),
                _opt_float(combined.get("msu")),
                _opt_float(combined.get("saturation_scale")),
                _opt_float(combined.get("headroom")),
            ),
            cps_sized=bool(data.get("cps_sized")),
            ziips_sized=bool(data.get("ziips_sized")),
            machine=_opt_str(data.get("machine")),
            approximation=_opt_str(data.get("approximation")),
            rows=_opt_int(data.get("rows")) or 0,
            counts={str(k): int(v) for k, v in counts.items()} if isinstance(counts, Mapping) else None,
            succeeded=_opt_int(data.get("succeeded")) or 0,
            failed=_opt_int(data.get("failed")) or 0,
            saturation_kind=_opt_str(data.get("saturation_kind")),
        )

    @property
    def any_basis(self) -> BasisRecord | None:
        """The job's basis: its own, else its reference estimate's (an optimiser's)."""
        if self.basis is not None:
            return self.basis
        if self.estimate is not None and self.estimate.basis.json:
            return self.estimate.basis
        return None


def _series(data: Json) -> CurveSeries:
    at = _obj(data.get("at_tps"))
    return CurveSeries(
        cps=_opt_int(data.get("cps")),
        tps=_floats(data.get("tps")),
        response_time_ms=_floats(data.get("response_time_ms")),
        response_time_lower_bound_ms=_floats(data.get("response_time_lower_bound_ms")),
        gcp_utilization=_floats(data.get("gcp_utilization")),
        knee_tps=_opt_float(data.get("knee_tps")),
        saturation_tps=_opt_float(data.get("saturation_tps")),
        ceiling_tps=_opt_float(data.get("ceiling_tps")),
        at_tps=CurveAtTarget(
            _opt_float(at.get("tps")), _opt_float(at.get("gcp_utilization")), _opt_float(at.get("response_time_ms"))
        ),
    )


@dataclass(frozen=True)
class BatchRow:
    """One scenario of a batch's result table (its CSV row): the cells the report names typed,
    every cell by its column in ``cells``."""

    row: int | None
    path: str | None
    configuration: str | None
    cps_required: float | None
    status: str | None
    error: str | None
    warning_codes: str
    cells: Json = field(repr=False, compare=False, default_factory=dict)
    machine: str | None = None
    #: the generation's specialty engine of the row's machine (zAAP on z10..zEC12/zBC12)
    specialty_engine: str | None = None
    #: the scenario's name as typed in the CSV's ``name`` column (``estimate_name``)
    name: str | None = None

    @classmethod
    def from_cells(cls, cells: Json) -> BatchRow:
        def text(value: Any) -> str | None:
            return None if value is None else str(value)

        return cls(
            row=_opt_int(cells.get("row")),
            path=text(cells.get("path")),
            configuration=text(cells.get("configuration")),
            cps_required=_opt_float(cells.get("cps_required")),
            status=text(cells.get("status")),
            error=text(cells.get("error")),
            warning_codes=str(cells.get("warning_codes") or ""),
            cells=cells,
            machine=text(cells.get("machine")),
            specialty_engine=text(cells.get("specialty_engine")),
            name=text(cells.get("estimate_name")) or None,
        )


def batch_rows(result: JobResult) -> list[BatchRow]:
    """A batch's scenarios, one per row of its result table."""
    columns = result.table_columns
    return [BatchRow.from_cells(dict(zip(columns, r, strict=False))) for r in result.table_rows]


# -- the estimate's chart data (``sizing.services.charts.chart_data``: /ui/chart-data's JSON) -------


@dataclass(frozen=True)
class ChartLine:
    """The cost line on the target and its band (published range or 95% band)."""

    etr: list[float | None]
    busy_cps: list[float | None]
    low: list[float | None]
    high: list[float | None]
    interval_basis: str | None


@dataclass(frozen=True)
class ChartPoint:
    """A published point (``etr``) or bound (``tps``) on the target, in busy CPs."""

    tps: float | None
    busy_cps: float | None
    source: str | None = None


@dataclass(frozen=True)
class ChartTarget:
    tps: float | None
    busy_cps: float | None
    response_time_ms: float | None


@dataclass(frozen=True)
class ChartCapacity:
    """The answer's capacity line: CPs plus specialty engines, and the ceiling."""

    cps: int | None
    engines: float | None
    ceiling: float | None
    label: str | None
    ceiling_label: str | None


@dataclass(frozen=True)
class CpuChart:
    line: ChartLine | None
    component_label: str | None
    points: tuple[ChartPoint, ...]
    bounds: tuple[ChartPoint, ...]
    target: ChartTarget
    capacity: ChartCapacity

    @classmethod
    def from_dict(cls, data: Json) -> CpuChart:
        line = data.get("line")
        cap = _obj(data.get("capacity"))
        return cls(
            line=ChartLine(
                _floats(line.get("etr")),
                _floats(line.get("busy_cps")),
                _floats(line.get("low")),
                _floats(line.get("high")),
                _opt_str(line.get("interval_basis")),
            )
            if isinstance(line, Mapping) and line
            else None,
            component_label=_opt_str(data.get("component_label")),
            points=tuple(
                ChartPoint(_opt_float(p.get("etr")), _opt_float(p.get("busy_cps")), _opt_str(p.get("source")))
                for p in _objects(data.get("points"))
            ),
            bounds=tuple(
                ChartPoint(_opt_float(b.get("tps")), _opt_float(b.get("busy_cps")))
                for b in _objects(data.get("bounds"))
            ),
            target=_chart_target(_obj(data.get("target"))),
            capacity=ChartCapacity(
                cps=_opt_int(cap.get("cps")),
                engines=_opt_float(cap.get("engines")),
                ceiling=_opt_float(cap.get("ceiling")),
                label=_opt_str(cap.get("label")),
                ceiling_label=_opt_str(cap.get("ceiling_label")),
            ),
        )


@dataclass(frozen=True)
class ResponseCurve:
    tps: list[float | None]
    response_ms: list[float | None]


@dataclass(frozen=True)
class ResponseChart:
    curve: ResponseCurve | None
    lower_bound: ResponseCurve | None
    target: ChartTarget
    knee_tps: float | None
    saturation_tps: float | None
    goal_ms: float | None
    #: where only a lower bound is known: the answer's own "≥" at the target (x TPS, y ms)
    target_bound: tuple[float, float] | None = None

    @classmethod
    def from_dict(cls, data: Json) -> ResponseChart:
        def curve(value: Any) -> ResponseCurve | None:
            if not isinstance(value, Mapping) or not value:
                return None
            return ResponseCurve(_floats(value.get("tps")), _floats(value.get("response_ms")))

        return cls(
            curve=curve(data.get("curve")),
            lower_bound=curve(data.get("lower_bound")),
            target=_chart_target(_obj(data.get("target"))),
            knee_tps=_opt_float(data.get("knee_tps")),
            saturation_tps=_opt_float(data.get("saturation_tps")),
            goal_ms=_opt_float(data.get("goal_ms")),
            target_bound=_point(_obj(data.get("lower_bound")).get("target_bound")),
        )


def _point(value: Any) -> tuple[float, float] | None:
    """A stored point ``{"x": .., "y": ..}`` with both finite, else ``None``."""
    if not isinstance(value, Mapping):
        return None
    x, y = _opt_float(value.get("x")), _opt_float(value.get("y"))
    return None if x is None or y is None else (x, y)


@dataclass(frozen=True)
class DemandChart:
    """Busy engines at the target rate against the LPAR's CPs and specialty engines."""

    gcp_work: float | None
    ziip_on_gcp: float | None
    ziip: float | None
    cps: float | None
    ziips: float | None
    total: float | None

    @classmethod
    def from_dict(cls, data: Json) -> DemandChart:
        return cls(*(_opt_float(data.get(k)) for k in ("gcp_work", "ziip_on_gcp", "ziip", "cps", "ziips", "total")))


@dataclass(frozen=True)
class ChartData:
    """The numbers the estimate page draws, as the report reads them."""

    machine_name: str | None
    generation: str | None
    cpu: CpuChart
    response: ResponseChart
    demand: DemandChart | None
    advice: tuple[str, ...] | None
    software_limit_tps: float | None

    @classmethod
    def from_dict(cls, data: Json) -> ChartData:
        target = _obj(data.get("target"))
        demand = data.get("demand")
        advice = data.get("advice")
        return cls(
            machine_name=_opt_str(target.get("machine_name")),
            generation=_opt_str(target.get("generation")),
            cpu=CpuChart.from_dict(_obj(data.get("cpu"))),
            response=ResponseChart.from_dict(_obj(data.get("response"))),
            demand=DemandChart.from_dict(demand) if isinstance(demand, Mapping) and demand else None,
            advice=None if advice is None else tuple(str(a.get("sentence")) for a in _objects(advice)),
            software_limit_tps=_opt_float(data.get("software_limit_tps")),
        )


def _chart_target(data: Json) -> ChartTarget:
    return ChartTarget(
        _opt_float(data.get("tps")), _opt_float(data.get("busy_cps")), _opt_float(data.get("response_time_ms"))
    )


# -- a capacity plan's question and answer (sizing/api/plan_schema.py describes them) ---------------


@dataclass(frozen=True)
class PlanWorkload:
    """A workload of a plan's question: today's average, its peak ratio and growth."""

    path: str
    configuration: str
    tps: float | None
    peak_ratio: float | None
    growth_pct: float | None
    growth_tps: float | None
    #: a stored plan's sources for it (``sizing.selectors.plans.plan_sources``)
    name: str = ""
    sources: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, data: Json) -> PlanWorkload:
        return cls(
            path=str(data.get("path")),
            configuration=str(data.get("configuration")),
            tps=_opt_float(data.get("tps")),
            peak_ratio=_opt_float(data.get("peak_ratio")),
            growth_pct=_opt_float(data.get("growth_pct")),
            growth_tps=_opt_float(data.get("growth_tps")),
            name=str(data.get("name") or ""),
            sources=tuple(str(s) for s in data.get("sources") or ()),
        )


@dataclass(frozen=True)
class PlanQuestion:
    """A plan's stored inputs (``Plan.inputs``)."""

    period: str
    horizon: int | None
    workloads: tuple[PlanWorkload, ...]
    candidate_labels: tuple[str, ...]

    @classmethod
    def from_dict(cls, data: Json) -> PlanQuestion:
        return cls(
            period=str(data.get("period")),
            horizon=_opt_int(data.get("horizon")),
            workloads=tuple(PlanWorkload.from_dict(w) for w in _objects(data.get("workloads"))),
            candidate_labels=tuple(str(c.get("label")) for c in _objects(data.get("candidates"))),
        )


@dataclass(frozen=True)
class PlanPeriodWorkload:
    label: str
    tps_peak: float | None
    #: the workload as a person reads it ("FiTeq Authenticator, multi-region"); "" in a plan
    #: stored before it was written (its label, the slugs, is named at the page and the PDF)
    name: str = ""


@dataclass(frozen=True)
class PlanPeriod:
    label: str
    workloads: tuple[PlanPeriodWorkload, ...]


@dataclass(frozen=True)
class LparWorkload:
    """A workload's busy engines on the candidate's LPAR (the schema's numbers: never null)."""

    gcp_busy: float
    ziip_busy: float


@dataclass(frozen=True)
class CandidatePeriod:
    """A candidate in one period: the LPAR evaluated and whether it carries the peak."""

    model: str
    cps: int
    ziips: int
    gcp_utilization: float | None
    ziip_utilization: float | None
    msu_consumed: float | None
    ceiling: float
    holds: bool
    reasons: tuple[str, ...]
    workloads: tuple[LparWorkload, ...]

    @classmethod
    def from_dict(cls, data: Json) -> CandidatePeriod:
        return cls(
            model=str(data.get("model")),
            cps=_opt_int(data.get("cps")) or 0,
            ziips=_opt_int(data.get("ziips")) or 0,
            gcp_utilization=_opt_float(data.get("gcp_utilization")),
            ziip_utilization=_opt_float(data.get("ziip_utilization")),
            msu_consumed=_opt_float(data.get("msu_consumed")),
            ceiling=_opt_float(data.get("ceiling")) or 0.0,
            holds=bool(data.get("holds")),
            reasons=tuple(str(r.get("message")) for r in _objects(data.get("reasons"))),
            workloads=tuple(
                LparWorkload(_opt_float(w.get("gcp_busy")) or 0.0, _opt_float(w.get("ziip_busy")) or 0.0)
                for w in _objects(data.get("workloads"))
            ),
        )


@dataclass(frozen=True)
class PlanCandidate:
    """A candidate of a plan's answer: its models, run-out period and range, each period."""

    label: str
    models: tuple[tuple[str, float | None], ...]
    runs_out: int | None
    runs_out_earliest: int | None
    runs_out_latest: int | None
    periods: tuple[CandidatePeriod, ...]
    #: per workload, the engine's notes on its basis: (code, message)
    basis: tuple[tuple[tuple[str, str], ...], ...]
    #: "model", "generation" or "cec" (one of your machines: drawn in its own section)
    kind: str = "model"
    #: the specialty engine's name where the candidate gives it (a machine of a zAAP generation)
    specialty: str = "zIIP"
    #: the stored candidate, for a machine's own record (``sizing.jobs.plan_cec.MachineCandidate``)
    json: Json = field(repr=False, compare=False, default_factory=dict)

    @classmethod
    def from_dict(cls, data: Json) -> PlanCandidate:
        span = _obj(data.get("runs_out_range"))
        basis = data.get("basis") or ()
        return cls(
            kind=str(data.get("kind") or "model"),
            specialty=str(data.get("specialty") or "zIIP"),
            json=data,
            label=str(data.get("label")),
            models=tuple(
                (str(m.get("model")), _opt_float(m.get("msu_installed"))) for m in _objects(data.get("models"))
            ),
            runs_out=_opt_int(data.get("runs_out")),
            runs_out_earliest=_opt_int(span.get("earliest")),
            runs_out_latest=_opt_int(span.get("latest")),
            periods=tuple(CandidatePeriod.from_dict(q) for q in _objects(data.get("periods"))),
            basis=tuple(
                tuple((str(n.get("code")), str(n.get("message"))) for n in _objects(notes))
                for notes in basis
                if isinstance(notes, (list, tuple))
            ),
        )


@dataclass(frozen=True)
class PlanResult:
    """A plan's answer (the plan job's result)."""

    periods: tuple[PlanPeriod, ...]
    candidates: tuple[PlanCandidate, ...]
    recommendation: str

    @classmethod
    def from_dict(cls, data: Json) -> PlanResult:
        return cls(
            periods=tuple(
                PlanPeriod(
                    str(p.get("label")),
                    tuple(
                        PlanPeriodWorkload(str(w.get("label")), _opt_float(w.get("tps_peak")), str(w.get("name") or ""))
                        for w in _objects(p.get("workloads"))
                    ),
                )
                for p in _objects(data.get("periods"))
            ),
            candidates=tuple(PlanCandidate.from_dict(c) for c in _objects(data.get("candidates"))),
            recommendation=str(_obj(data.get("recommendation")).get("sentence")),
        )
