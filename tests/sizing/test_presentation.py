"""The customer's words for numbers and long texts (sizing.presentation): formatting rules, each
with the case from issue 23 it fixes."""

from __future__ import annotations

from sizing.presentation import count, fresh, mix_combined, number, percent, plain_reference, rate, span


def test_a_value_that_rounds_to_zero_has_no_sign() -> None:
    # a leave-one-out error of -0.04% printed to one decimal was "-0.0%"
    assert percent(-0.0004, 1) == "0.0%"
    assert number(-0.04, 1) == "0.0"
    assert percent(-0.004, 1) == "-0.4%"  # a real negative keeps its sign


def test_counts_have_separators_and_no_decimals() -> None:
    # the compare report printed "TPS 150,000.0"
    assert count(150000.0, "TPS") == "150,000 TPS"
    assert count(None) == "\u2014"


def test_a_range_only_when_low_and_high_differ_as_printed() -> None:
    # "9 (9..9)" and "8,830..8,830 TPS": no range; 4.0 to 5.0 CPs: a range
    assert span(8829.96, 8830.2, 0, "TPS") == ""
    assert span(9.0, 9.0) == ""
    assert span(4.0, 5.0) == "4\u20135"
    assert span(0.3995, 0.5292, 3, "ms") == "0.400\u20130.529 ms"
    assert span(None, 5.0) == ""


def test_a_lost_figure_is_said_plainly() -> None:
    assert plain_reference("Figure 16 (lost); Figure 3") == "Figure 16 (figure not in the source text); Figure 3"


def test_fresh_drops_clauses_already_said_and_never_cuts_inside_parentheses() -> None:
    seen: set[str] = set()
    first = fresh("Bounded: <= 6 ms (summary 7.1 (contents: p. 22)). Central value = 4.265 ms", seen)
    assert first == "Bounded: <= 6 ms (summary 7.1 (contents: p. 22)). Central value = 4.265 ms"
    # the same statement again, and an excerpt of it ("..." elided), are already said
    assert fresh("Central value = 4.265 ms", seen) == ""
    assert fresh("Bounded: ... 6 ms", seen) == ""
    assert fresh("Central value = 4.265 ms; the rest is new", seen) == "the rest is new"


def test_95_percent_only_where_no_stated_overhead_widened_the_interval() -> None:
    # Issue 23 item 3: "95%" only on a real prediction interval.  CICS TS sizes the LPAR as the
    # CICS regions' fit times 1 + the stated overhead, whose range (REDP-5320: 1.114-1.17) widens
    # the fit's 95% interval: that is a range, not a 95% interval.
    from sizing.presentation import cps_figure

    fitted = {"model": {"interval_basis": "residuals"}, "native": {}}
    answer = {"cps_required": 2, "busy_cps": {"total": 0.98}, "ranges": {"cps": [1.0, 2.0]}, "basis": fitted}
    assert "95%: 1\u20132" in cps_figure(answer).spread
    native = {"lpar_factor": 1.1645, "lpar_factor_low": 1.1136, "lpar_factor_high": 1.1705}
    widened = {**answer, "basis": {**fitted, "native": native}}
    assert cps_figure(widened).spread == "range 1\u20132"


def test_job_columns_read_as_words_with_units_and_the_generations_engine() -> None:
    from sizing.presentation import DASH, engines_word, job_cell, job_column

    assert job_column("ziip_utilization", "zAAP") == "zAAP utilisation"
    assert job_column("response_time_lower_bound_ms") == "Response time, lower bound, ms"
    assert job_column("throughput_tps") == "Throughput, TPS"
    # a batch over a zEC12 and a z16: each engine in the plural, not "zAAP or zIIPs"
    both = engines_word(["zIIP", "zAAP", "zIIP"])
    assert (job_column("ziips_required", both), job_column("ziip_utilization", both)) == (
        "zAAPs or zIIPs",
        f"{both} utilisation",
    )
    # a share as a percentage (one decimal under 10%), a rate with separators, a time with the
    # digits of its size, true and false in words, nothing as a dash
    assert (job_cell("gcp_utilization", 0.8224), job_cell("gcp_utilization", 0.025)) == ("82%", "2.5%")
    assert job_cell("tps", 12345.6) == "12,346"
    assert (job_cell("response_time_ms", 7.153), job_cell("response_time_ms", 0.6884)) == ("7.15", "0.688")
    assert (job_cell("meets_sla", True), job_cell("chosen", False), job_cell("ziips", None)) == ("yes", "no", DASH)


def test_customer_wording_names_an_input_by_its_label_not_its_parameter() -> None:
    """The engine's sentences name API parameters ("give cics_regions for your own count"); a
    customer reads the input's label from ``INPUT_LABELS`` (the form's and the reports' name)."""
    from sizing.presentation import INPUT_LABELS, customer_wording

    labels = {key: label for label, key, _ in INPUT_LABELS}
    said = customer_wording("assumed; give cics_regions for your own count (no projection_band given)")
    assert (
        said
        == f"assumed; give \u201c{labels['cics_regions']}\u201d for your own count (no \u201c{labels['projection_band']}\u201d given)"
    )
    # a published point's conditions in words; a word merely containing a name is left alone
    assert customer_wording("(zaaps=0, request_bytes=4096, payload_bytes_max=32000)") == (
        "(zAAPs=0, request bytes=4096, largest payload in bytes=32000)"
    )
    assert customer_wording("my_server_shares") == "my_server_shares"


def test_a_rate_keeps_its_significant_decimals() -> None:
    # Whole from 100 TPS up, the significant decimals below: half a transaction a second is never "0 TPS".
    assert rate(0.5) == "0.5 TPS" and rate(12.5) == "12.5 TPS" and rate(8000) == "8,000 TPS"
    assert rate(0.25) == "0.25 TPS" and rate(0.004) == "0.004 TPS" and rate(12.0) == "12 TPS"
    assert rate(99.94) == "99.9 TPS" and rate(1234.4) == "1,234 TPS" and rate(3.0, "") == "3"
    assert rate(None) == "\u2014" and rate(float("nan")) == "\u2014"
    # the sentences that print a rate use it
    assert mix_combined(0.5, 0.1, 0, None).startswith("0.5 TPS, CPs 10% busy")


def test_customer_wording_names_the_parts_of_the_work() -> None:
    """The engine quotes its names of the parts a share or a cost was published for ('zosconnect',
    'cics+ctg', the 'lpar' demand); a customer reads them by name, in the warnings and assumptions
    of a real answer too (z/OS Connect into CICS: its eligible share was published for the z/OS
    Connect server only)."""
    from models_lib.inputs import CPU_COMPONENTS
    from models_lib.prepared import prepare
    from sizing.presentation import COMPONENT_WORDS, customer_wording
    from tests.models_lib import published as P
    from tests.models_lib.engine_data import Z17, table

    assert set(CPU_COMPONENTS) <= set(COMPONENT_WORDS)
    assert customer_wording("of 'cics+ctg' (published range") == "of CICS + CICS Transaction Gateway (published range"
    assert (
        customer_wording("the 'lpar' demand, 'for' and for 'forward'") == "the LPAR demand, CICS FOR and for 'forward'"
    )
    answer = prepare(
        P.configuration("zosconnect-cics", "channel"), target_machine=Z17, target_machine_type=Z17, capacity=table()
    ).answer(2000.0)
    said = [customer_wording(w.message) for w in answer.warnings] + [
        customer_wording(str(a)) for a in answer.basis.assumptions
    ]
    scope = [s for w, s in zip(answer.warnings, said, strict=False) if w.code == "eligibility-scope"]
    assert scope and "published for z/OS Connect" in scope[0] and "LPAR demand" in scope[0], scope
    quoted = [f"'{part}'" for part in COMPONENT_WORDS]
    assert not [s for s in said if any(q in s for q in quoted)], said


def test_a_headline_names_the_answers_specialty_engine() -> None:
    # The headlines named zIIPs on a zEC12 or z10, whose specialty engine is the zAAP.
    from sizing.presentation import engines_word, warning_sentence
    from sizing.services.warning_levels import HEADLINES, engines_plural, headline, with_levels

    both = engines_word(["zAAP", "zIIP"])
    for code in HEADLINES:
        # the sentence a page says with no answer's numbers is the headline, naming the engine given
        assert warning_sentence(code, None, engine="zAAP") == headline(code, "zAAP")
        assert "zIIP" not in headline(code, "zAAP") and "zAAP" not in headline(code, "zIIP"), code
        # rows of both generations: each engine in the plural, never "zAAP or zIIPs"
        assert f"{both}s" not in headline(code, both), code
    named = [c for c in HEADLINES if headline(c, "zAAP") != headline(c, "zIIP")]
    assert {"does-not-fit", "ziip-overflow", "eligibility-scope", "no-eligibility-data"} <= set(named)
    assert engines_plural(both) in headline("ziip-overflow", both)
    # the API's headline is the same function's, for the answer's engine
    served = with_levels([{"code": c, "message": "m"} for c in named], "zAAP")
    assert {w["code"]: w["headline"] for w in served} == {c: headline(c, "zAAP") for c in named}


def test_an_answer_that_does_not_fit_says_its_model_mips_and_msu_are_evaluated_not_quoted() -> None:
    # A z10 at 60,000 TPS (tests/data/answers): no CPs are quoted, yet the page's MIPS card and
    # the PDF's answer table showed the largest model's 2097-764, 62,246 MIPS as if quoted.
    import json
    from pathlib import Path

    from sizing.presentation import NOT_QUOTED, count, evaluated_note, mips_figure
    from sizing.records import EstimateRecord
    from sizing.reports.estimate import answer_rows

    answers = Path(__file__).resolve().parents[1] / "data" / "answers"
    no_fit = EstimateRecord.from_dict(json.loads((answers / "estimate_v1_does_not_fit.json").read_text()))
    fits = EstimateRecord.from_dict(json.loads((answers / "estimate_v1_fits.json").read_text()))
    assert no_fit.feasibility.feasible is False and no_fit.capacity is not None and no_fit.capacity.model
    said = evaluated_note(no_fit)
    assert NOT_QUOTED in said and f"{count(no_fit.evaluated_cps)} CPs" in said
    assert mips_figure(no_fit).note == f"{count(no_fit.msu)} MSU on CPs {said}"
    rows = {label: basis for label, _, _, basis in answer_rows(no_fit)}
    assert all(said in rows[label] for label in ("Model and capacity setting", "MIPS (CPs, used)", "MSU (CPs, used)"))
    # an answer that fits is a quote: nothing added
    assert evaluated_note(fits) == "" and mips_figure(fits).note == f"{count(fits.msu)} MSU on CPs"
    assert NOT_QUOTED not in " ".join(basis for *_, basis in answer_rows(fits))
