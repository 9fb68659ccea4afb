"""RMF CPU Activity report, Partition Data Report section: every field of the test report read,
its figures consistent by the report's definitions, bad pastes refused naming the line.

The report (tests/data/rmf/partition_data_z15_three_lpars.txt) is laid out as z/OS V2R4 RMF
Report Analysis, "Using the information in the Partition Data Report", documents the section;
its README says how each figure was derived.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from models_lib.rmf_partition import parse_partition_data

DATA = Path(__file__).resolve().parents[1] / "data" / "rmf"
TEXT = (DATA / "partition_data_z15_three_lpars.txt").read_text(encoding="utf-8")


def test_header_and_every_row_read_as_printed() -> None:
    report = parse_partition_data(TEXT)
    assert (report.mvs_partition, report.interval_s, report.physical_total) == ("PROD", 900.0, 14)
    assert report.physical == {"CP": 10, "IIP": 4}
    rows = {(r.name, r.type): r for r in report.rows}
    assert sorted(rows) == sorted((n, t) for n in ("PROD", "TEST", "DEV") for t in ("CP", "IIP"))
    prod = rows[("PROD", "CP")]
    # The printed row: "PROD A 700 0 998 NO 0.0 8.0 CP 01.13.30.000 01.13.30.000 61.25 61.25 0.00 49.00 49.00"
    assert (prod.status, prod.weight, prod.msu_def, prod.msu_act, prod.capping, prod.wlm_pct) == (
        "A", 700, 0, 998, "NO", 0.0,
    )  # fmt: skip
    assert (prod.processors, prod.dispatch_effective_s, prod.dispatch_total_s) == (8.0, 4410.0, 4410.0)
    assert (prod.logical_effective_pct, prod.logical_total_pct, prod.lpar_mgmt_pct) == (61.25, 61.25, 0.0)
    assert (prod.physical_effective_pct, prod.physical_total_pct, prod.line) == (49.0, 49.0, 15)
    ziip = rows[("DEV", "IIP")]
    assert (ziip.weight, ziip.msu_act, ziip.processors, ziip.logical_total_pct, ziip.physical_total_pct) == (
        100, None, 1.0, 10.0, 2.5,
    )  # fmt: skip


def test_figures_agree_by_the_reports_definitions() -> None:
    # dispatch total = LOGICAL TOTAL % x NUM x interval; PHYSICAL TOTAL % = dispatch / (physical x interval)
    report = parse_partition_data(TEXT)
    assert report.interval_s is not None
    for r in report.rows:
        assert r.dispatch_total_s == pytest.approx(r.logical_total_pct / 100 * r.processors * report.interval_s)
        pool = report.installed(r.type)
        assert r.physical_total_pct == pytest.approx(r.dispatch_total_s / (pool * report.interval_s) * 100)


def test_lpars_as_the_cec_reads_them() -> None:
    prod, test, dev = parse_partition_data(TEXT).lpars()
    assert (prod.name, prod.cp.logical, prod.cp.weight, prod.ziip.logical, prod.ziip.weight) == ("PROD", 8, 700, 4, 700)
    assert prod.cp.busy == pytest.approx(4.9) and prod.ziip.busy == pytest.approx(0.84)
    assert (test.cp.busy, dev.cp.busy) == (pytest.approx(1.2), pytest.approx(0.5))
    assert not any(lp.dedicated or lp.cp.capped for lp in (prod, test, dev))


def test_dedicated_capped_and_deactivated_partitions() -> None:
    # WGT prints DED for dedicated processors (SMF70S1 processor_weight X'FFFF'); CAPPING DEF YES;
    # a deactivated partition (S = D) prints no figures.
    text = TEXT.replace("DEV       A   100      0   102  NO ", "DEV       A   DED      0   102  NO ")
    text = text.replace("TEST      A   200      0   244  NO ", "TEST      A   200      0   244  YES")
    text = text.replace("DEV       A   100                  NO ", "DEV       A   DED                  NO ")
    text = text.replace("*PHYSICAL*", "OLDSYS    D\n*PHYSICAL*", 1)
    report = parse_partition_data(text)
    _, test, dev = report.lpars()
    assert dev.dedicated and dev.cp.weight is None
    assert test.cp.capped
    assert report.deactivated == ("OLDSYS",)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("61.25       61.25", "61.25       161.25"), "line 15: LOGICAL PROCESSORS TOTAL 161.25 %"),
        (("TEST      A   200      0   244", "TEST      A   2000     0   244"), "line 16: partition TEST: weight 2000"),
        (
            (
                "DEV       A   100      0   102  NO     0.0  2.0   CP ",
                "DEV       A   100      0   102  NO     0.0  2.0   XX ",
            ),
            "line 17: cannot read the partition row",
        ),
        (("--------- PARTITION DATA", "--------- SOMETHING ELSE"), "line 1: no PARTITION DATA section"),
        (("WAIT COMPLETION", "WAIT\x00COMPLETION"), "line 9: control characters"),
    ],
)
def test_bad_pastes_name_the_line(edit: tuple[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        parse_partition_data(TEXT.replace(*edit, 1))


def test_a_partition_listed_twice_for_one_type() -> None:
    line = next(x for x in TEXT.splitlines() if x.startswith("PROD") and " IIP " in x)
    with pytest.raises(ValueError, match="line 23: partition PROD is listed twice for IIP"):
        parse_partition_data(TEXT.replace(line, f"{line}\n{line}", 1))


def test_nothing_pasted() -> None:
    with pytest.raises(ValueError, match="line 1"):
        parse_partition_data("   ")
