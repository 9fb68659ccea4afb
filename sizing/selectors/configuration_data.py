"""Stored reference rows -> the plain inputs of the numerical core (``models_lib.inputs``).

Rows become plain records here; ``models_lib.assemble`` turns records into inputs (the same
function the tests use on benchmarks/), and every value keeps the id of the row it came from,
so each answer can name its basis.
"""

from __future__ import annotations

from models_lib.assemble import MetricRecord, PointRecord, StatementRecord, assemble_configuration
from models_lib.inputs import ConfigurationData
from sizing.models import BenchmarkPoint, Configuration, Statement
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


def configuration_data(*, configuration: Configuration) -> ConfigurationData:
    """Everything published about ``configuration`` on its path's native machine."""
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
