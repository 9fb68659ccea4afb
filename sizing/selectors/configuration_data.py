"""Stored reference rows -> the plain inputs of the numerical core (``models_lib.inputs``).

Rows become plain records here; ``models_lib.assemble`` turns records into inputs (the same
function the tests use on benchmarks/), and every value keeps the id of the row it came from,
so each answer can name its basis.
"""

from __future__ import annotations

from collections.abc import Iterable

from models_lib.assemble import MetricRecord, PointRecord, StatementRecord, assemble_configuration
from models_lib.calibration import calibration_data, interval_from_dict
from models_lib.costmodel import fit_configuration
from models_lib.engine import component_cost
from models_lib.inputs import ComponentCost, ConfigurationData
from sizing.models import BenchmarkPoint, Calibration, Configuration, Statement, Visibility
from sizing.selectors.capacity import (
    capacity_table as capacity_table,  # the one capacity table; re-exported for callers
)


def point_record(row: BenchmarkPoint) -> PointRecord:
    return PointRecord(
        id=row.id,
        etr=row.etr,
        metrics=tuple(MetricRecord(m.name, m.value, m.unit, m.engines) for m in row.metrics.all()),
        response_time_ms=row.response_time_ms,
        lpar_cps=row.lpar_cps,
        ziips=row.ziips,
        zaaps=row.zaaps,
        clients=row.clients,
        think_time_s=row.think_time_s,
        request_bytes=row.request_bytes,
        response_bytes=row.response_bytes,
        reference=row.reference_text,
    )


def calibration_configuration_data(*, calibration: Calibration) -> ConfigurationData:
    """A private calibration's measured intervals as the engine's input (on the current machine)."""
    configuration = calibration.configuration
    return calibration_data(
        [interval_from_dict(item) for item in calibration.intervals],
        path=configuration.path.slug,
        configuration=configuration.slug,
        machine=calibration.machine.slug,
        machine_type=calibration.machine.machine_type,
        cps=calibration.cps,
        ziips=calibration.ziips,
        speed=calibration.speed_factor,
        reference=f"customer data, calibration {calibration.pk} '{calibration.name}' on {calibration.model}",
    )


def configuration_data(*, configuration: Configuration) -> ConfigurationData:
    """Everything published about ``configuration`` on its path's native machine; for a private
    calibration, its owner's measured intervals on their current machine."""
    if configuration.visibility == Visibility.PRIVATE:
        calibration = Calibration.objects.filter(configuration=configuration).select_related(
            "machine", "configuration__path"
        )
        row = calibration.first()
        if row is not None:
            return calibration_configuration_data(calibration=row)
    path = configuration.path
    native = path.native_machine
    rows = (
        BenchmarkPoint.objects.filter(configuration=configuration, machine=native)
        .prefetch_related("metrics")
        .order_by("etr", "id")
    )
    statements = Statement.objects.filter(path=path).select_related("configuration").order_by("id")
    return assemble_configuration(
        path=path.slug,
        configuration=configuration.slug,
        machine=native.slug,
        machine_type=native.machine_type,
        points=[point_record(row) for row in rows],
        statements=[
            StatementRecord(
                id=st.id,
                kind=st.kind,
                configuration=st.configuration.slug if st.configuration else None,
                data=st.data,
                reference=st.reference_text,
            )
            for st in statements
        ],
    )


def needs_other_cost(data: ConfigurationData) -> bool:
    """Whether ``data``'s eligible share was published for a part of its demand that excludes
    CICS (the z/OS Connect server), so that the CICS part's cost must come from another path."""
    elig = data.eligibility
    return not (elig is None or elig.applies_to == "all" or "cics" in elig.applies_to.split("+"))


def is_other_cost_candidate(*, configuration: Configuration, candidate: Configuration, machine_type: str) -> bool:
    """Published data of another path measured on ``machine_type``: never a private calibration
    (another user's data is never anyone else's basis)."""
    return (
        candidate.visibility == Visibility.PUBLISHED
        and candidate.path_id != configuration.path_id
        and candidate.path.native_machine.machine_type == machine_type
    )


def pick_other_cost(candidates: Iterable[tuple[int, ComponentCost | None]]) -> ComponentCost | None:
    """The CICS cost of the candidate with the most points (the first of equals), or ``None``;
    ``candidates`` are (points, cost) in the order path slug, then configuration slug descending."""
    found = [(n, cost) for n, cost in candidates if cost is not None]
    return max(found, key=lambda f: f[0])[1] if found else None


def other_component_cost(*, configuration: Configuration, data: ConfigurationData) -> ComponentCost | None:
    """A published CICS cost per transaction on the same machine type, for a configuration whose
    eligible share was published for a part of its demand that excludes CICS (the z/OS Connect
    server): the CICS slope of another path's configuration measured there (most points first,
    then the latest configuration slug), or ``None``.

    Reads and fits every candidate: the estimate uses the cached ``Reference.other_cost``.
    """
    if not needs_other_cost(data):
        return None
    rows = (
        Configuration.objects.filter(
            path__native_machine__machine_type=data.machine_type, visibility=Visibility.PUBLISHED
        )
        .exclude(path_id=configuration.path_id)
        .select_related("path__native_machine")
        .order_by("path__slug", "-slug")
    )
    costs = []
    for row in rows:
        other = configuration_data(configuration=row)
        costs.append((len(other.points), component_cost(other, fit_configuration(other), "cics")))
    return pick_other_cost(costs)
