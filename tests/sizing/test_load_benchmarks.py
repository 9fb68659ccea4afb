"""Loading benchmarks/: complete, idempotent, all-or-nothing, with clear errors."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.core.management import CommandError, call_command

from sizing.models import (
    BenchmarkPoint,
    CapacityRating,
    Configuration,
    EngineRule,
    Machine,
    PointMetric,
    SourceDocument,
    Statement,
)
from sizing.models import (
    Path as WorkloadPath,
)
from sizing.services.reference_data import benchmarks_load

pytestmark = pytest.mark.django_db

BENCHMARKS = Path(settings.BENCHMARKS_DIR)


def _snapshot() -> dict[str, list[tuple[object, ...]]]:
    """Every stored reference value, to prove a failed load changed nothing."""
    return {
        "machines": list(Machine.objects.order_by("id").values_list()),
        "sources": list(SourceDocument.objects.order_by("id").values_list()),
        "paths": list(WorkloadPath.objects.order_by("id").values_list()),
        "configurations": list(Configuration.objects.order_by("id").values_list()),
        "points": list(BenchmarkPoint.objects.order_by("id").values_list()),
        "metrics": list(PointMetric.objects.order_by("id").values_list()),
        "statements": list(Statement.objects.order_by("id").values_list()),
        "ratings": list(CapacityRating.objects.order_by("id").values_list()),
        "engine_rules": list(EngineRule.objects.order_by("id").values_list()),
    }


@pytest.fixture
def benchmarks_copy(tmp_path: Path) -> Path:
    target = tmp_path / "benchmarks"
    shutil.copytree(BENCHMARKS, target)
    for path in target.iterdir():
        path.chmod(0o644)
    return target


def _edit_point(directory: Path, file: str, key: str, **changes: object) -> None:
    path = directory / file
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    for point in doc["points"]:
        if point["key"] == key:
            point.update(changes)
            break
    else:
        raise AssertionError(f"no point {key} in {file}")
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")


def _first_point(file: str) -> dict[str, object]:
    doc = yaml.safe_load((BENCHMARKS / file).read_text(encoding="utf-8"))
    return doc["points"][0]


def test_paths_and_configurations_are_the_published_ones() -> None:
    expected = {
        "zosconnect-cics": ({"channel"}, "z13"),
        "fiteq-authenticator": ({"single-region", "single-region-log", "multi-region", "multi-region-log"}, "zec12"),
        "cicsts-catalog": ({"v5.3", "v5.2"}, "z13"),
        "cicstg": (
            {
                "exci-commarea-31",
                "ipic-commarea-31",
                "ipic-channel-31",
                "exci-commarea-64",
                "ipic-commarea-64",
                "ipic-channel-64",
            },
            "z10",
        ),
        "hostbridge-http": ({"default-tcpip", "tuned-tcpip"}, "z10"),
    }
    for slug, (configs, machine) in expected.items():
        path = WorkloadPath.objects.get(slug=slug)
        assert set(path.configurations.values_list("slug", flat=True)) == configs
        assert path.native_machine.slug == machine
    # Every machine type of the capacity table (machines.yaml), the three seed machines included.
    assert set(Machine.objects.values_list("slug", "machine_type")) == {
        ("z17", "9175"),
        ("z17-9176", "9176"),
        ("z16", "3931"),
        ("z16-a02", "3932"),
        ("z15", "8561"),
        ("z15-t02", "8562"),
        ("z14", "3906"),
        ("z14-zr1", "3907"),
        ("z13s", "2965"),
        ("z13", "2964"),
        ("zec12", "2827"),
        ("z10", "2097"),
    }


@pytest.mark.parametrize(
    ("path", "table", "count"),
    [
        ("fiteq-authenticator", "Table 9-1", 4),
        ("fiteq-authenticator", "Table 9-2", 4),
        ("fiteq-authenticator", "Table 11-1", 4),
        ("fiteq-authenticator", "Table 11-2", 5),
        ("cicsts-catalog", "Table 1", 5),
        ("cicsts-catalog", "Table 3", 5),
        ("cicstg", "Table 1", 3),
        ("cicstg", "Table 2", 3),
    ],
)
def test_every_published_table_row_is_stored(path: str, table: str, count: int) -> None:
    points = BenchmarkPoint.objects.filter(configuration__path__slug=path, reference__table=table)
    assert points.count() == count


def test_fiteq_has_seventeen_points_with_provenance() -> None:
    points = BenchmarkPoint.objects.filter(configuration__path__slug="fiteq-authenticator")
    assert points.count() == 17  # Tables 9-1, 9-2, 11-1, 11-2: 4 + 4 + 4 + 5 rows
    for point in points:
        assert point.source.identifier == "REDP-5114"
        assert point.reference_text.startswith("REDP-5114 Table")
        assert point.machine.slug == "zec12" and point.lpar_cps == 10


def test_statements_cover_what_the_sources_say_beyond_tables() -> None:
    kinds = {(s.path.slug if s.path else None, s.kind) for s in Statement.objects.select_related("path")}
    for needed in [
        ("cicstg", "ratio"),  # 64-bit costs 2.7% to 9% more than 31-bit at 4K (Scenario 3)
        ("cicstg", "proportionality"),  # cost doubles as payload doubles (Scenario 5)
        ("cicstg", "configuration"),  # REGION / MEMLIMIT / heap tables
        ("zosconnect-cics", "bound"),  # 256K: CPU exhausted beyond 300 clients
        ("zosconnect-cics", "eligibility"),  # ~99% zIIP-eligible, RMF CP 104.86 / IIPCP 104.82
        ("zosconnect-cics", "throughput"),  # 100..500 clients -> 200..1000 TPS at 500 ms think time
        ("hostbridge-http", "packet_trace"),  # before and after TCP/IP tuning
        ("cicsts-catalog", "measurements"),  # Table 2
    ]:
        assert needed in kinds, needed


def test_zosconnect_tps_table_is_stored_exactly() -> None:
    st = Statement.objects.get(path__slug="zosconnect-cics", kind="throughput")
    # z/OS Connect EE V3.0 performance summary, section 7.1.
    assert [(r["clients"], r["tps"]) for r in st.data["rows"]] == [
        (100, 200),
        (200, 400),
        (300, 600),
        (400, 800),
        (500, 1000),
    ]
    assert st.data["think_time_s"] == 0.5


def test_zosconnect_rmf_extract_is_stored() -> None:
    st = Statement.objects.get(path__slug="zosconnect-cics", kind="eligibility")
    evidence = str(st.data)
    assert "104.86" in evidence and "104.82" in evidence  # Figure 3, APPL% CP and IIPCP


def test_hostbridge_traces_have_17_and_9_packets() -> None:
    traces = Statement.objects.filter(path__slug="hostbridge-http", kind="packet_trace").order_by("key")
    sizes = sorted(len(t.data["packets"]) for t in traces)
    assert sizes == [9, 17]  # "Only 9 packets were exchanged, instead of 17"


def test_every_lspr_row_is_loaded_with_its_setting_and_identifier() -> None:
    # benchmarks/lspr_zpcr_configuration_summary.csv (verbatim copy of the shared zPCR export,
    # provenance in its .yaml): 2,487 models of 10 machine types.
    with (BENCHMARKS / "lspr_zpcr_configuration_summary.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2487
    stored = {r.model: r for r in CapacityRating.objects.select_related("machine", "source")}
    assert len(stored) == CapacityRating.objects.count() == len(rows)
    for row in rows:
        rating = stored[row["model"]]
        assert (
            rating.machine.machine_type,
            rating.machine.generation,
            rating.capacity_setting,
            rating.cps,
            rating.mips,
            rating.msu,
        ) == (
            row["machine_type"],
            row["generation"],
            row["capacity_setting"],
            int(row["cps"]),
            float(row["mips"]),
            float(row["msu"]),
        )
        assert rating.source.slug == "lspr-zpcr-configuration-summary"


def test_old_120_row_table_is_the_full_speed_subset() -> None:
    # The former lspr_average_multi_image.csv held 2097/2827/2964 7xx models with 1..40 CPs;
    # spot rows pasted from it: 2097-701 902 MIPS 115 MSU, 2827-710 12179/1473, 2964-740 41418/4855.
    for model, mips, msu in (("2097-701", 902, 115), ("2827-710", 12179, 1473), ("2964-740", 41418, 4855)):
        rating = CapacityRating.objects.get(model=model)
        assert (rating.capacity_setting, rating.mips, rating.msu) == ("700", mips, msu)


def test_engine_rules_are_loaded_for_every_machine_type() -> None:
    rules = {r.generation: r for r in EngineRule.objects.all()}
    assert set(rules) == {"z10 EC", "z10 BC", "zEC12", "zBC12", "z13", "z13s", "z14", "z15", "z16", "z17"}
    for machine in Machine.objects.all():
        rule = rules[machine.generation]
        assert machine.machine_type in rule.machine_types
        assert rule.min_cps_per_lpar == 1 and rule.specialty_full_speed
    # zAAPs up to zEC12/zBC12 (IBM "zAAP on zIIP" page); none from z13 on.
    assert [g for g, r in sorted(rules.items()) if r.java_engine == "zaap"] == ["z10 BC", "z10 EC", "zBC12", "zEC12"]
    # z13s Technical Guide SG24-8294 3.5.5 p. 109: up to two zIIPs per CP; z/OS WLM: zIIPs <= CPs before.
    assert rules["z13s"].ziips_per_cp == 2 and rules["z13s"].unconfirmed == []
    assert rules["z10 EC"].ziips_per_cp == 1 and rules["z10 EC"].zaaps_per_cp == 1
    # No SMT-2 throughput factor is published in the sources read.
    assert all(r.smt2_throughput_factor is None for r in rules.values())
    assert all(r.references for r in rules.values())


def test_fiteq_published_cpu_per_tran_columns_recompute_from_cpu_and_etr() -> None:
    """REDP-5114 chapter 7: CPU/Tran = CPU% / 100 / ETR; LPAR CPU% is of the 10 CPs.

    The source prints whole microseconds (and sometimes truncates), from CPU% given to two
    decimals, so the recomputation must agree within 1 microsecond.
    """
    checked = 0
    for point in BenchmarkPoint.objects.filter(configuration__path__slug="fiteq-authenticator").prefetch_related(
        "metrics"
    ):
        m = {x.name: x for x in point.metrics.all()}
        cics_us = m["cics_cpu"].value / 100 / point.etr * 1e6
        lpar_us = m["lpar_cpu"].value / 100 * m["lpar_cpu"].engines / point.etr * 1e6
        assert abs(cics_us - m["cics_cpu_per_tran"].value) < 1.0, (point.key, cics_us)
        assert abs(lpar_us - m["lpar_cpu_per_tran"].value) < 1.0, (point.key, lpar_us)
        checked += 2
    assert checked == 34


def test_cicsts_total_is_the_sum_of_regions_within_rounding() -> None:
    """REDP-5320 Tables 1 and 3: Total CICS CPU% ~ TOR + AOR + FOR (each printed to 2 decimals).

    One row is inconsistent in the source itself and is stored as published: Table 1 row 5
    prints 210.45 + 1232.60 + 65.34 = 1508.39 but a total of 1499.40, which Figure 10's RMF
    extract (APPL% CP 1499.4) confirms.
    """
    gaps = {}
    for point in BenchmarkPoint.objects.filter(configuration__path__slug="cicsts-catalog").prefetch_related("metrics"):
        m = {x.name: x.value for x in point.metrics.all()}
        gaps[point.reference["table"], point.etr] = m["tor_cpu"] + m["aor_cpu"] + m["for_cpu"] - m["cics_cpu"]
    assert len(gaps) == 10
    assert gaps.pop(("Table 1", 174624.30)) == pytest.approx(1508.39 - 1499.40, abs=1e-9)
    assert all(abs(gap) < 0.05 for gap in gaps.values()), gaps


def test_second_load_changes_nothing() -> None:
    before = _snapshot()
    report = benchmarks_load(directory=BENCHMARKS)
    assert report.changed == 0, report.summary()
    assert _snapshot() == before


def test_edited_value_updates_its_row(benchmarks_copy: Path) -> None:
    first = _first_point("fiteq_redp5114.yaml")
    point = BenchmarkPoint.objects.get(source__data_file="fiteq_redp5114.yaml", key=first["key"])
    _edit_point(benchmarks_copy, "fiteq_redp5114.yaml", str(first["key"]), etr=float(first["etr"]) + 1.5)
    report = benchmarks_load(directory=benchmarks_copy)
    assert report.counts["BenchmarkPoint.updated"] == 1
    assert report.changed == 1
    point.refresh_from_db()
    assert point.etr == float(first["etr"]) + 1.5


def test_command_reports_counts(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("load_benchmarks")
    out = capsys.readouterr().out
    assert "0 row(s) changed" in out


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"etr": -5.0}, "'etr' must be > 0"),
        ({"etr": None}, "'etr' is missing"),
    ],
)
def test_bad_point_fails_with_file_entry_reason_and_changes_nothing(
    benchmarks_copy: Path, change: dict[str, object], message: str
) -> None:
    first = _first_point("fiteq_redp5114.yaml")
    # A good edit elsewhere in the same run must not land either.
    _edit_point(benchmarks_copy, "fiteq_redp5114.yaml", str(_nth_key("fiteq_redp5114.yaml", 1)), etr=123.0)
    _edit_point(benchmarks_copy, "fiteq_redp5114.yaml", str(first["key"]), **change)
    before = _snapshot()
    with pytest.raises(CommandError) as info:
        call_command("load_benchmarks", dir=str(benchmarks_copy))
    text = str(info.value)
    assert "fiteq_redp5114.yaml" in text and f"point {first['key']!r}" in text and message in text
    assert "Nothing was loaded" in text
    assert _snapshot() == before


def _nth_key(file: str, n: int) -> str:
    doc = yaml.safe_load((BENCHMARKS / file).read_text(encoding="utf-8"))
    return str(doc["points"][n]["key"])


def test_metric_without_unit_fails_and_changes_nothing(benchmarks_copy: Path) -> None:
    first = _first_point("fiteq_redp5114.yaml")
    metrics = [dict(m) for m in first["metrics"]]  # type: ignore[union-attr]
    metrics[0].pop("unit")
    _edit_point(benchmarks_copy, "fiteq_redp5114.yaml", str(first["key"]), metrics=metrics)
    before = _snapshot()
    with pytest.raises(CommandError, match=r"fiteq_redp5114\.yaml: point .*: metric '.*' has no unit"):
        call_command("load_benchmarks", dir=str(benchmarks_copy))
    assert _snapshot() == before


@pytest.mark.parametrize(
    ("metric", "message"),
    [
        ({"name": "lpar_cpu", "value": 3.4, "unit": "pct_of_pool"}, "needs 'engines'"),
        ({"name": "cics_cpu", "value": 23.7, "unit": "us_per_tran"}, "cannot be in unit"),
        ({"name": "cpu_magic", "value": 1, "unit": "pct_one_cp"}, "unknown metric name"),
        ({"name": "cics_cpu", "value": -1, "unit": "pct_one_cp"}, "must be >= 0"),
    ],
)
def test_bad_metric_is_rejected_with_reason(benchmarks_copy: Path, metric: dict[str, object], message: str) -> None:
    first = _first_point("fiteq_redp5114.yaml")
    _edit_point(benchmarks_copy, "fiteq_redp5114.yaml", str(first["key"]), metrics=[metric])
    with pytest.raises(CommandError, match=message):
        call_command("load_benchmarks", dir=str(benchmarks_copy))


def test_unknown_configuration_is_rejected(benchmarks_copy: Path) -> None:
    first = _first_point("fiteq_redp5114.yaml")
    _edit_point(benchmarks_copy, "fiteq_redp5114.yaml", str(first["key"]), configuration="v5.3")
    with pytest.raises(CommandError, match="does not belong to path 'fiteq-authenticator'"):
        call_command("load_benchmarks", dir=str(benchmarks_copy))


def test_invalid_yaml_is_rejected(benchmarks_copy: Path) -> None:
    (benchmarks_copy / "fiteq_redp5114.yaml").write_text("source: [unclosed\n", encoding="utf-8")
    with pytest.raises(CommandError, match="fiteq_redp5114.yaml: file: is not valid YAML"):
        call_command("load_benchmarks", dir=str(benchmarks_copy))


def _edit_rule(directory: Path, which: str, **changes: object) -> None:
    path = directory / "engine_rules.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    rule = next(r for r in doc["rules"] if r["generation"] == which)
    rule.update(changes)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ziips_per_cp": 0}, "'ziips_per_cp' must be > 0"),
        ({"java_engine": "zaap"}, "'java_engine' is zaap but 'zaaps_per_cp' is not given"),
        ({"unconfirmed": []}, "no reference supports ziips_per_cp; cite one or list it as unconfirmed"),
        ({"references": [{"ref": "nowhere", "supports": ["ziips_per_cp"]}]}, "reference 'nowhere' is not defined"),
        ({"machine_types": ["2964"]}, "machine type 2964 belongs to two generations"),
        ({"smt2_throughput_factor": 1.25, "smt2_ziip": False}, "'smt2_ziip' is false"),
    ],
)
def test_bad_engine_rule_fails_with_file_entry_reason_and_changes_nothing(
    benchmarks_copy: Path, change: dict[str, object], message: str
) -> None:
    _edit_rule(benchmarks_copy, "z16", **change)
    before = _snapshot()
    with pytest.raises(CommandError) as info:
        call_command("load_benchmarks", dir=str(benchmarks_copy))
    text = str(info.value)
    assert "engine_rules.yaml" in text and message in text, text
    assert _snapshot() == before


def test_rule_generation_must_match_machines_yaml(benchmarks_copy: Path) -> None:
    _edit_rule(benchmarks_copy, "z16", generation="z16 A01")
    with pytest.raises(CommandError, match=r"machine type 3931 is generation 'z16' in machines.yaml"):
        call_command("load_benchmarks", dir=str(benchmarks_copy))


def test_bad_rating_row_names_file_row_and_reason(benchmarks_copy: Path) -> None:
    path = benchmarks_copy / "lspr_zpcr_configuration_summary.csv"
    lines = path.read_bytes().split(b"\r\n")
    lines[5] = lines[5].replace(b",400,", b",800,")  # 2097-405: not a capacity setting
    path.write_bytes(b"\r\n".join(lines))
    before = _snapshot()
    with pytest.raises(CommandError) as info:
        call_command("load_benchmarks", dir=str(benchmarks_copy))
    text = str(info.value)
    assert "lspr_zpcr_configuration_summary.csv: row 6 (2097-405): capacity_setting '800'" in text, text
    assert _snapshot() == before


def test_edited_rating_updates_its_row_and_a_dropped_one_goes(benchmarks_copy: Path) -> None:
    path = benchmarks_copy / "lspr_zpcr_configuration_summary.csv"
    lines = path.read_bytes().split(b"\r\n")
    assert lines[1] == b"2097-401,2097,z10 EC,System z10 EC/400,400,1,214,27"
    lines[1] = b"2097-401,2097,z10 EC,System z10 EC/400,400,1,215,27"
    dropped = lines.pop(2)
    assert dropped.startswith(b"2097-402,")
    path.write_bytes(b"\r\n".join(lines))
    report = benchmarks_load(directory=benchmarks_copy)
    assert report.counts["CapacityRating.updated"] == 1 and report.counts["CapacityRating.deleted"] == 1
    assert report.changed == 2
    assert CapacityRating.objects.get(model="2097-401").mips == 215
    assert not CapacityRating.objects.filter(model="2097-402").exists()
