"""RMF Workload Activity parser: every extract in the seeds, read to the published digit.

Expected values are the numbers printed in the figures (tests/data/rmf/README.md names each
figure); derived values carry their formula.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from models_lib.rmf import MAX_REPORT_CHARS, parse_workload_activity

DATA = Path(__file__).resolve().parents[1] / "data" / "rmf"


def _read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def test_zosconnect_figure3_cp_104_86_with_iipcp_104_82() -> None:
    section = parse_workload_activity(_read("zosconnect_figure3.txt")).section("ZOSCONN")
    assert (section.kind, section.policy, section.description) == ("report_class", "NORMAL", "zosConnect reports")
    # Figure 3 (z/OS Connect EE V3.0 Performance Summary): "CP 104.86", "IIPCP 104.82", "AAPCP 0.00", "IIP 0.00".
    assert section.appl.cp == 104.86
    assert section.appl.iipcp == 104.82
    assert section.appl.aapcp == 0.0
    assert section.appl.iip == 0.0
    assert section.appl.aap is None  # printed N/A
    # Service time column: CPU 62.905, SRB 0.013, RCT 0.000, IIT 0.000, HST 0.000, AAP N/A, IIP 0.000 (s).
    assert section.service_time_s.cpu == 62.905
    assert section.service_time_s.srb == 0.013
    assert section.service_time_s.aap is None
    # Service units: IOC 62813, CPU 4681K, SRB 940, TOT 4745K, /SEC 79086.
    assert section.service_units.cpu == 4_681_000
    assert section.service_units.tot == 4_745_000
    assert section.service_units.per_s == 79086
    # Header "INTERVAL 00.59.999" (split across cells in the extract): 59.999 s.
    assert section.interval_s == pytest.approx(59.999)
    # The TRANSACTIONS APPL% line, its "104.82" split as "104.8<tab>2": TOTAL CP 104.86, AAP/IIP ON CP 104.82.
    assert section.transactions_total is not None
    assert (section.transactions_total.cp, section.transactions_total.specialty_on_cp) == (104.86, 104.82)
    assert section.transactions_mobile is not None and section.transactions_mobile.cp == 0.0
    # Eligible share (IIP + IIPCP) / (CP + IIP) = 104.82 / 104.86: "potentially offloadable to zIIP".
    assert_allclose(section.appl.specialty_eligible_fraction(), 104.82 / 104.86, rtol=1e-12)
    # ENDED 0 in this extract (the driver counted the transactions), so no CPU per transaction.
    assert section.transactions.ended == 0 and section.cp_seconds_per_transaction() is None


def test_cicsts53_figure6_tor_report_class() -> None:
    section = parse_workload_activity(_read("cicsts53_figure6.txt")).section("CICSTORS")
    assert section.description == "Report for WLM TORs - Johnb"
    # Figure 6 (REDP-5320): ENDED 74001, END/S 1059.11, EXCTD 67577, ACTUAL 13, EXECUTION 13, CP 10.16.
    assert section.transactions.ended == 74001
    assert section.transactions.end_per_s == 1059.11
    assert section.transactions.exctd == 67577
    assert (section.times_ms.actual, section.times_ms.execution) == (13.0, 13.0)
    assert section.appl.cp == 10.16
    assert section.service_time_s.cpu == 5.755
    assert section.service_units.srb == 107001
    # "the TRANSACTION APPL% of 37.24 is greater than the address space APPL % of 10.16"
    assert section.transactions_total is not None and section.transactions_total.cp == 37.24
    assert section.transactions_mobile is not None and section.transactions_mobile.cp == 0.0
    # CPU per ended transaction: 10.16 / 100 / 1059.11 CP-seconds.
    assert_allclose(section.cp_seconds_per_transaction(), 10.16 / 100 / 1059.11, rtol=1e-12)


def test_cicsts53_figure10_workload_end_s_174624_3_cp_1499_4_mobile_648_53() -> None:
    section = parse_workload_activity(_read("cicsts53_figure10.txt")).section("CICSCPU")
    assert (section.kind, section.description) == ("workload", "All cics batch region cpu")
    # Figure 10: END/S 174624.3, ENDED 52545856, EXCTD 6996693, CP 1499.4, SRB 28481K, IIT 16.978,
    # TOTAL CP 1493.8, MOBILE CP 648.53; the extract prints "MSD" for the MSO label.
    assert section.transactions.end_per_s == 174624.3
    assert section.transactions.ended == 52545856
    assert section.transactions.exctd == 6996693
    assert section.appl.cp == 1499.4
    assert section.service_units.srb == 28_481_000
    assert section.service_units.mso == 0
    assert section.service_time_s.iit == 16.978
    assert section.service_time_s.cpu == 4021.378
    assert section.dasd.ssch_rate == 16368
    assert section.transactions_total is not None and section.transactions_total.cp == 1493.8
    assert section.transactions_mobile is not None and section.transactions_mobile.cp == 648.53


def test_cicsts53_figure11_report_class_without_service_columns() -> None:
    section = parse_workload_activity(_read("cicsts53_figure11.txt")).section("SCALHTTP")
    # Figure 11: END/S 151342.1, ENDED 45540056, EXCTD 0; TOTAL and MOBILE CP 648.53.
    assert section.transactions.end_per_s == 151342.1
    assert section.transactions.ended == 45540056
    assert section.transactions.exctd == 0
    assert section.appl.cp is None  # the extract shows only the first two columns
    assert section.transactions_total is not None and section.transactions_total.cp == 648.53
    assert section.transactions_mobile is not None and section.transactions_mobile.cp == 648.53


def test_cicsts53_figure14_policy_level_mobile() -> None:
    section = parse_workload_activity(_read("cicsts53_figure14.txt")).sections[0]
    assert (section.kind, section.name, section.description) == ("policy", "POLICY", "Policy for plex 3")
    # Figure 14: END/S 174624.3, CP 1669.7, IIPCP 0.01, SRB 58799K, /SEC 1009K; TRANSACTIONS APPL% on
    # its own line, then TOTAL CP 1664.1 (AAP/IIP ON CP 0.01) and MOBILE CP 648.53.
    assert section.transactions.end_per_s == 174624.3
    assert section.transactions.swaps == 59
    assert section.appl.cp == 1669.7
    assert section.appl.iipcp == 0.01
    assert section.service_units.per_s == 1_009_000
    assert section.transactions_total is not None
    assert (section.transactions_total.cp, section.transactions_total.specialty_on_cp) == (1664.1, 0.01)
    assert section.transactions_mobile is not None and section.transactions_mobile.cp == 648.53


def test_several_sections_in_one_paste_keep_their_order() -> None:
    text = "\n".join(_read(name) for name in ("cicsts53_figure14.txt", "cicsts53_figure10.txt", "cicsts53_figure6.txt"))
    report = parse_workload_activity(text)
    assert [s.name for s in report.sections] == ["POLICY", "CICSCPU", "CICSTORS"]
    assert report.sections[2].line == 32  # after 15 + 1 + 14 + 1 lines (files end in a newline; joined by one)


def test_spaces_instead_of_tabs_read_the_same() -> None:
    tabbed = parse_workload_activity(_read("cicsts53_figure10.txt"))
    spaced = parse_workload_activity(_read("cicsts53_figure10.txt").replace("\t", "   "))
    assert tabbed == spaced


def test_trans_time_hhh_mm_ss_ttt() -> None:
    text = _read("cicsts53_figure6.txt").replace("ACTUAL\t13", "ACTUAL\t1.02.250")
    # 1 min 2.250 s = 62,250 ms
    assert parse_workload_activity(text).sections[0].times_ms.actual == 62_250.0


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (_read("cicsts53_figure6.txt").split("END/S")[0], "ends without its END/S, #SWAPS, EXCTD row"),
        (
            _read("cicsts53_figure6.txt").replace("CPU\t5.755\tCP\t10.16", "CP\t10.16\tCPU\t5.755"),
            "line 4: cannot read the AVG row",
        ),
        (_read("cicsts53_figure6.txt").replace("ENDED\t74001", "ENDED\t74x001"), "line 6: cannot read the ENDED row"),
        ("REPORT BY: POLICY=P\n\x00\x01\x02\x89PNG", "line 2: binary data"),
        ("Just some prose about CICS.\nNothing else.", "no Workload Activity section"),
        (_read("cicsts53_figure6.txt").replace("EXCTD", "HELLO"), "line 9: not a Workload Activity row"),
        (
            _read("cicsts53_figure6.txt").replace("MOBILE :\t\tCP\t0.00", "MOBILE :\t\tCP\tzero"),
            "cannot read the TRANSACTIONS APPL% line",
        ),
        ("x" * (MAX_REPORT_CHARS + 1), "at most 1,000,000 are read"),
        (
            _read("cicsts53_figure6.txt").replace("ENDED\t74001", "ENDED\t" + "9" * 400),
            "section CICSTORS (line 1): ENDED '9999",
        ),
    ],
    ids=[
        "truncated",
        "shuffled-columns",
        "bad-number",
        "binary",
        "prose",
        "unknown-row",
        "bad-appl-line",
        "too-long",
        "overflow",
    ],
)
def test_malformed_reports_name_the_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=re.escape(reason)):
        parse_workload_activity(text)


def test_a_service_class_heading_names_the_class_not_its_workload() -> None:
    # The heading layout of a service-class period (RMF Report Analysis); Figure 6's grid below it.
    grid = _read("cicsts53_figure6.txt").split("\n", 2)[2]
    heading = (
        "REPORT BY: POLICY=WLMPOL   WORKLOAD=ONLINE   SERVICE CLASS=CICSHI   RESOURCE GROUP=*NONE   PERIOD=1 IMPORTANCE=1\n"
        "CRITICAL  =NONE\nDESCRIPTION =CICS high importance\n"
    )
    section = parse_workload_activity(heading + grid).sections[0]
    assert (section.kind, section.name, section.policy, section.period) == ("service_class", "CICSHI", "WLMPOL", 1)
    assert section.description == "CICS high importance"
    assert section.transactions.end_per_s == 1059.11  # Figure 6


_EXTRACTS = sorted(p.name for p in DATA.glob("*.txt"))


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(_EXTRACTS), data=st.data())
def test_damaged_extracts_are_read_or_refused_with_a_value_error(name: str, data: st.DataObject) -> None:
    # Any cut, deletion or insertion in a real extract: an answer or a ValueError, never another error.
    text = _read(name)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 40)))
    insert = data.draw(st.text(alphabet=st.characters(codec="utf-8"), max_size=12))
    damaged = text[:start] + insert + text[end:]
    try:
        parse_workload_activity(damaged)
    except ValueError as error:
        assert "line" in str(error) or "section" in str(error) or "characters" in str(error)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=400))
def test_arbitrary_text_is_read_or_refused_with_a_value_error(text: str) -> None:
    try:
        parse_workload_activity(text)
    except ValueError:
        pass
