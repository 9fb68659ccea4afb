"""A job's result as the API returns it, described per kind for the OpenAPI schema.

``JobDetail.result`` is one of these, told apart by its ``kind`` (a discriminated union: a
generated client gets a class per kind).  Every kind's result has its ``table`` (``columns``,
``rows``: what result.csv serves) and the top-level fields its runner writes
(``sizing/jobs/<kind>.py``); the nested values are described in docs/jobs.md.  The schema closes
every object (``sizing.api.schema``), so a field a runner adds and this module does not name
fails the response validation of the API tests (tests/conftest.py).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from sizing.api.plan_schema import PlanResultSerializer, TableSerializer

#: Each kind's top-level fields besides ``kind`` and ``table`` (its runner's result literal).
FIELDS: dict[str, tuple[str, ...]] = {
    "curve": (
        "path", "configuration", "machine", "max_utilization", "response_time_data", "series", "specialty_engine",
        "warnings", "basis", "saturation_kind",
    ),
    "closed": (
        "path", "configuration", "machine", "specialty_engine", "cps", "ziips", "think_time_s", "tps", "tps_given", "response_time_data",
        "stations", "bottleneck", "knee_clients", "max_throughput_tps", "response_time_sla_ms", "max_clients_within_sla",
        "points", "curve",
        "published", "warnings", "basis",
    ),
    "montecarlo": (
        "path", "configuration", "machine", "specialty_engine", "tps", "samples", "seed", "max_utilization", "sampling", "cps_required",
        "ziips_required", "evaluated_at_cps", "gcp_busy", "cpu_per_tran_ms", "p_within_ceiling", "response_time_data",
        "response_time_ms", "response_time_lower_bound_ms", "response_time_sla_ms", "p_meets_sla",
        "p_meets_sla_upper_bound", "warnings", "basis",
    ),
    "optimize": (
        "path", "configuration", "machine", "tps", "costs", "max_utilization", "response_time_sla_ms", "sla_verified",
        "ziips_per_cp", "specialty_engine", "evaluated", "feasible", "best", "runner_up", "frontier", "estimate",
        "warnings", "basis", "price_book",
    ),
    "mix": (
        "machine", "specialty_engine", "cps", "cps_sized", "ziips", "ziips_sized", "max_utilization", "combined", "objective",
        "approximation", "workloads", "warnings",
    ),
    "batch": ("rows", "succeeded", "failed", "counts"),
}  # fmt: skip
#: Fields a stored result may lack: it was written before its runner added them (a batch's
#: ``counts`` of rows per status, sizing.jobs.batch.STATUSES; an optimiser's ``price_book`` and a
#: mix's ``objective``, issue 32).
#: A curve's, closed network's, Monte Carlo's and mix's ``specialty_engine`` (zAAP on
#: z10..zEC12/zBC12, issue 30): an older one has it from its machine in the page and the PDF.
#: A closed network's ``response_time_sla_ms`` (the goal its clients are judged against).
OPTIONAL: dict[str, tuple[str, ...]] = {
    "batch": ("counts",),
    "optimize": ("price_book",),
    "mix": ("objective", "specialty_engine"),
    "curve": ("specialty_engine", "saturation_kind"),
    "closed": ("specialty_engine", "response_time_sla_ms"),
    "montecarlo": ("specialty_engine",),
}


def _result_serializer(kind: str, fields: tuple[str, ...]) -> type[serializers.Serializer[Any]]:
    attrs: dict[str, Any] = {
        "kind": serializers.ChoiceField(choices=[(kind, kind)]),
        "table": TableSerializer(help_text="the result table (result.csv)"),
        "__doc__": f"The result of a {kind} job (docs/jobs.md).",
    }
    optional = OPTIONAL.get(kind, ())
    attrs.update(
        {name: serializers.JSONField(help_text="see docs/jobs.md", required=name not in optional) for name in fields}
    )
    return type(f"{kind.capitalize()}JobResultSerializer", (serializers.Serializer,), attrs)


RESULTS: dict[str, Any] = {kind: _result_serializer(kind, fields) for kind, fields in FIELDS.items()}
RESULTS["plan"] = PlanResultSerializer

JOB_RESULT = PolymorphicProxySerializer(
    component_name="JobResult",
    serializers=RESULTS,
    resource_type_field_name="kind",
)


@extend_schema_field(JOB_RESULT)
class JobResultField(serializers.JSONField):
    """A job's result (null until it succeeds): one of :data:`RESULTS`, by ``kind``."""
