"""A bound as a bound: where the cost per transaction is a published upper bound (z/OS Connect
with 256 KB responses, bounds-only), a rate the engines refuse is "not shown to fit", and the
most the target carries is a floor: "the published figures show it carries at least N TPS", in
the engine's sentence, the page's figures and advice, and the PDF.  With a fitted cost (the
default payload) the same kind of refusal stays "does not fit" with "the most it carries".

The rates come from the app's own answers (1.25 x the most carried it reports), none typed here.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from models_lib.feasibility import carried_text
from sizing import presentation
from tests.sizing.test_planner_surfaces import BEYOND, ZOSCONNECT, _estimate, _pdf_words

pytestmark = pytest.mark.django_db


def _refused(api: Any, target: dict[str, Any]) -> tuple[dict[str, Any], float]:
    most = _estimate(api, {**target, "tps": BEYOND})["feasibility"]["max_tps"]
    tps = math.ceil(most * 1.25)
    return _estimate(api, {**target, "tps": tps}), tps


def test_a_refusal_at_an_upper_bound_cost_is_not_shown_to_fit_and_its_most_is_a_floor(api: Any) -> None:
    target = {**ZOSCONNECT, "machine": "zec12", "payload_bytes": 262144}
    body, tps = _refused(api, target)
    fit = body["feasibility"]
    assert body["saturation_kind"] == "lower-bound"
    assert fit["feasible"] is False and fit["reason"] in {"engines", "ceiling", "saturation"}
    floor = carried_text(fit["max_tps"])
    assert fit["message"].startswith("not shown to fit: at the published upper bound of the cost per transaction")
    assert f"the published figures show this model carries at least {floor} TPS" in fit["message"]
    assert "the most this model carries" not in fit["message"]

    assert presentation.cps_figure(body).note == "not shown to fit"
    assert presentation.ziips_figure(body).note.startswith("not shown to fit")
    model = [a.sentence for a in presentation.advice(body) if a.resource == "model"]
    assert model and f"(the published figures show it carries at least {floor} TPS)" in model[0]

    words = _pdf_words(api, {**target, "tps": tps})
    assert (
        "The published figures do not show that this target carries the rate; "
        f"they show it carries at least {floor} TPS." in words
    )
    assert "This target does not carry the rate" not in words
    # the answer's page and its CP row say the same as page 1
    assert (
        f"At {presentation.rate(tps)} on IBM zEnterprise EC12: not shown to fit; no CPs or zAAPs are quoted." in words
    )
    assert "none quoted: the published figures do not show a configuration of this target carries the rate" in words
    assert "does not fit" not in words.lower().replace("not shown to fit", "")


def test_a_refusal_at_a_fitted_cost_does_not_fit_and_says_the_most(api: Any) -> None:
    target = {**ZOSCONNECT, "machine": "zec12"}
    body, tps = _refused(api, target)
    fit = body["feasibility"]
    assert body["saturation_kind"] == "value" and fit["feasible"] is False
    most = carried_text(fit["max_tps"])
    assert fit["message"].startswith("does not fit:")
    assert f"the most this model carries is {most} TPS" in fit["message"]
    assert presentation.cps_figure(body).note == "does not fit"
    words = _pdf_words(api, {**target, "tps": tps})
    assert f"This target does not carry the rate; the most it carries is {most} TPS." in words
