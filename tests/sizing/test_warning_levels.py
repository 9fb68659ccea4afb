"""Warning levels: every engine code has one, and decision-changing warnings come first."""

from __future__ import annotations

from typing import Any

import pytest

from models_lib.sizing import WARNING_CODES
from sizing.services.warning_levels import LEVEL_ORDER, WARNING_LEVELS, with_levels


def test_every_engine_warning_code_has_a_level_and_a_headline() -> None:
    missing = set(WARNING_CODES) - set(WARNING_LEVELS)
    assert not missing, f"engine codes without a level: {sorted(missing)}"
    assert all(level in LEVEL_ORDER and headline.endswith(".") for level, headline in WARNING_LEVELS.values())


def test_with_levels_puts_decision_warnings_first_and_keeps_order_within_a_level() -> None:
    warnings = [
        {"code": "projection", "message": "p"},
        {"code": "extrapolation", "message": "e"},
        {"code": "capacity-exceeded", "message": "c"},
        {"code": "bounds-only", "message": "b"},
    ]
    out = with_levels(warnings)
    assert [w["code"] for w in out] == ["capacity-exceeded", "extrapolation", "bounds-only", "projection"]
    assert [w["level"] for w in out] == ["decision", "caveat", "caveat", "note"]
    assert out[0]["message"] == "c"  # the engine's message is kept beside the headline


@pytest.mark.django_db
def test_given_cps_too_few_is_a_decision_warning_first_in_the_api(api: Any) -> None:
    # FiTeq multi-region, Table 11-1: 8,680.75 TPS kept the 10-CP LPAR 75.99 % busy (7.6 CPs),
    # 875 us per transaction; at 8,000 TPS that is about 7 busy CPs, so 2 given CPs run far
    # above the 0.85 ceiling.
    body = api.get(
        "/api/v1/estimate",
        {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "zec12", "tps": 8000, "cps": 2},
    ).json()
    assert body["warnings"][0]["level"] == "decision"
    codes = {w["code"]: w for w in body["warnings"]}
    assert codes["utilization-above-ceiling"]["level"] == "decision"
    levels = [LEVEL_ORDER.index(w["level"]) for w in body["warnings"]]
    assert levels == sorted(levels)


@pytest.mark.django_db
def test_the_api_serves_the_engines_level_for_the_measured_configuration(api: Any) -> None:
    # z/OS Connect EE V3.0 summary, section 7.1: 1,000 TPS on 6 GCPs with no zIIPs (z13). The
    # eligible work ran on the CPs as measured: a caveat, not a decision; 7 CPs were not measured.
    params = {"path": "zosconnect-cics", "configuration": "channel", "machine": "z13", "tps": 1000, "ziips": 0}
    measured = api.get("/api/v1/estimate", {**params, "cps": 6}).json()
    other = api.get("/api/v1/estimate", {**params, "cps": 7}).json()
    assert {w["code"]: w["level"] for w in measured["warnings"]}["ziip-overflow"] == "caveat"
    assert not [w for w in measured["warnings"] if w["level"] == "decision"]
    assert {w["code"]: w["level"] for w in other["warnings"]}["ziip-overflow"] == "decision"
    assert all(w["headline"].endswith(".") for w in measured["warnings"])


def test_a_level_the_engine_gave_is_kept_and_a_missing_one_is_the_codes_default() -> None:
    out = with_levels([{"code": "ziip-overflow", "message": "m", "level": "caveat"}, {"code": "engine-ratio"}])
    assert [(w["code"], w["level"]) for w in out] == [("ziip-overflow", "caveat"), ("engine-ratio", "caveat")]
    assert with_levels([{"code": "engine-ratio", "level": "decision"}])[0]["level"] == "decision"


def test_every_warning_names_inputs_the_estimate_form_has() -> None:
    # Issue 21 item 3: a warning carries the inputs it refers to.  Each one is a field of the
    # estimate's input form (sizing/services/estimate_inputs.py), so a page can put the warning
    # beside it, and each code it is given for is a code the engine raises (models_lib/answer.py).
    from models_lib.answer import WARNING_CODES, WARNING_INPUTS, SizingWarning
    from sizing.services.estimate_inputs import EstimateInputSerializer

    fields = set(EstimateInputSerializer().fields)
    assert set(WARNING_INPUTS) <= set(WARNING_CODES)
    for code, inputs in WARNING_INPUTS.items():
        assert inputs and set(inputs) <= fields, (code, set(inputs) - fields)
        assert SizingWarning(code, "x").inputs == inputs
    assert SizingWarning("bounds-only", "x").inputs == ()  # how the cost was reached: no input changes it


@pytest.mark.django_db
def test_the_api_headlines_name_the_answers_own_specialty_engine(api: Any) -> None:
    # A z10's specialty engine is the zAAP: "no CPs or zIIPs are quoted" and "No zIIP
    # eligibility" were served for it.  FiTeq multi-region at 60,000 TPS passes the z10's
    # largest model (Table 11-1: 875 us per transaction, about 52 busy CPs before the LSPR
    # projection), so it does not fit, and FiTeq publishes no eligibility.
    from sizing.services.warning_levels import headline

    body = api.get(
        "/api/v1/estimate",
        {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z10", "tps": 60000},
    ).json()
    assert body["specialty_engine"] == "zAAP"
    codes = [w["code"] for w in body["warnings"]]
    assert {"does-not-fit", "no-eligibility-data"} <= set(codes)
    assert [w["headline"] for w in body["warnings"]] == [headline(c, "zAAP") for c in codes]
    assert not [w["headline"] for w in body["warnings"] if "zIIP" in w["headline"]]
