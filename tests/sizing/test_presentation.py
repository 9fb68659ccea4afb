"""The customer's words for numbers and long texts (sizing.presentation): formatting rules, each
with the case from issue 23 it fixes."""

from __future__ import annotations

from sizing.presentation import count, fresh, number, percent, plain_reference, span


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
