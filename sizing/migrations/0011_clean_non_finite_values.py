"""Clean stored values no request may write any more (issue 24): non-finite floats and
calibration intervals beyond what models_lib.calibration.Interval now accepts.

Before this, a calibration with a CPU of 1e300 % (finite, so stored) fitted to infinite numbers
and every list of its owner answered 500. Here:

- a non-finite float in a nullable column becomes NULL;
- a row whose required float is non-finite is deleted: reference rows (points, metrics, ratings,
  engine rules) come back from benchmarks/ with ``load_benchmarks``; an estimate with a
  non-finite rate cannot be explained;
- a calibration keeps its intervals that are within the bounds; one left with fewer than two
  rates (or with a non-finite speed factor) cannot be fitted, and is deleted with its private
  configuration and the estimates made from it;
- the reference version is bumped when anything changed, so no process answers from a cached fit.

The bounds are copied here (a migration must not change when the code does).
"""

import math
import uuid

from django.db import migrations
from django.db.models import F, Q
from django.utils import timezone

NON_FINITE = [math.nan, math.inf, -math.inf]
MIN_ETR, MAX_ETR = 0.001, 10_000_000.0
MAX_CPU_PCT = 25_600.0
MAX_RESPONSE_TIME_MS = 3_600_000.0
MAX_ENGINES = 256


def _number(value, low, high, *, optional=False):
    if value is None:
        return optional
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value) and low <= value <= high


def _interval_ok(item):
    if not isinstance(item, dict):
        return False
    cpu = item.get("cpu_pct")
    cpu = cpu if isinstance(cpu, dict) else {"lpar": cpu}
    return (
        _number(item.get("etr"), MIN_ETR, MAX_ETR)
        and bool(cpu)
        and all(_number(v, 0.0, MAX_CPU_PCT) for v in cpu.values())
        and _number(item.get("response_time_ms"), 0.0, MAX_RESPONSE_TIME_MS, optional=True)
        and _number(item.get("ziip_eligible_pct"), 0.0, 100.0, optional=True)
        and _number(item.get("cps"), 1, MAX_ENGINES, optional=True)
        and _number(item.get("ziips"), 0, MAX_ENGINES, optional=True)
    )


def _non_finite(field):
    return Q(**{f"{field}__in": NON_FINITE})


def clean(apps, schema_editor):
    get = lambda name: apps.get_model("sizing", name)  # noqa: E731
    changed = 0
    for model, field in (
        ("BenchmarkPoint", "think_time_s"),
        ("BenchmarkPoint", "response_time_ms"),
        ("EngineRule", "zaaps_per_cp"),
        ("EngineRule", "smt2_throughput_factor"),
    ):
        changed += get(model).objects.filter(_non_finite(field)).update(**{field: None})
    for model, fields in (
        ("PointMetric", ("value",)),
        ("BenchmarkPoint", ("etr",)),
        ("CapacityRating", ("mips", "msu")),
        ("EngineRule", ("ziips_per_cp",)),
        ("Estimate", ("tps",)),
    ):
        query = Q()
        for field in fields:
            query |= _non_finite(field)
        changed += get(model).objects.filter(query).delete()[0]

    Calibration, Estimate = get("Calibration"), get("Estimate")
    for calibration in Calibration.objects.select_related("configuration").iterator():
        intervals = calibration.intervals if isinstance(calibration.intervals, list) else []
        kept = [item for item in intervals if _interval_ok(item)]
        speed_ok = _number(calibration.speed_factor, 1e-9, 1e9)
        if speed_ok and len(kept) == len(intervals):
            continue
        changed += 1
        if speed_ok and len({round(float(item["etr"]), 9) for item in kept}) >= 2:
            calibration.intervals = kept
            calibration.save(update_fields=["intervals"])
            continue
        configuration = calibration.configuration
        Estimate.objects.filter(configuration=configuration).delete()
        calibration.delete()
        configuration.delete()

    if changed:
        get("ReferenceVersion").objects.filter(id=1).update(
            token=uuid.uuid4().hex, number=F("number") + 1, changed_at=timezone.now()
        )


class Migration(migrations.Migration):
    dependencies = [
        ("sizing", "0010_plan"),
    ]

    operations = [
        migrations.RunPython(clean, migrations.RunPython.noop),
    ]
