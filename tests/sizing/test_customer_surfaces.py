"""What the customer sees on every kind of answer (issue 30): the comparison PDF of a zIIP estimate
beside a zAAP or no-zIIP one, charts drawn wherever the answer has a basis, advice that follows the
binding resource, engine names per generation, product names in the PDF.  Every number checked is
read from the answer itself (the engine's numbers change under other work)."""

from __future__ import annotations

import subprocess
import tempfile
from typing import Any

import pytest

from sizing import presentation

pytestmark = pytest.mark.django_db

FITEQ_Z16 = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z16", "tps": 8000}
FITEQ_ZEC12 = {**FITEQ_Z16, "machine": "zec12"}
ZCEE_Z16 = {"path": "zosconnect-cics", "configuration": "channel", "machine": "z16", "tps": 3000}
CICSTG_ZEC12 = {"path": "cicstg", "configuration": "ipic-channel-64", "machine": "zec12", "tps": 3000}
#: does not fit: beyond the FiTeq software station (REDP-5114 11.3) on a z10
DNF_Z10 = {**FITEQ_Z16, "machine": "z10", "tps": 60000}
#: overloaded on given CPs: 2 CPs of a z16 A01 at 20,000 TPS
OVERLOADED = {**FITEQ_Z16, "cps": 2, "tps": 20000}


def _text(pdf: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        out = subprocess.run(["pdftotext", "-layout", f.name, "-"], check=True, capture_output=True, text=True).stdout
    return " ".join(out.split())


def _create(api: Any, inputs: dict[str, Any]) -> dict[str, Any]:
    r = api.post("/api/v1/estimates/", inputs, format="json")
    assert r.status_code == 201, r.content[:300]
    return dict(r.json())


@pytest.mark.parametrize(
    "group",
    [
        (FITEQ_Z16, ZCEE_Z16),  # no zIIPs beside zIIPs (the IndexError)
        (FITEQ_ZEC12, CICSTG_ZEC12),  # no zAAPs beside zAAPs
        (FITEQ_Z16, FITEQ_ZEC12, ZCEE_Z16),
        (FITEQ_Z16, FITEQ_ZEC12, CICSTG_ZEC12),  # zAAP with zIIP
    ],
)
def test_comparison_pdf_of_zaap_ziip_and_none(api: Any, group: tuple[dict[str, Any], ...]) -> None:
    made = [_create(api, g) for g in group]
    r = api.get("/api/v1/estimates/report.pdf", {"ids": ",".join(str(m["id"]) for m in made)})
    assert r.status_code == 200, r.content[:300]
    words = _text(r.content)
    engines = {m["specialty_engine"] for m in made}
    if engines == {"zAAP"}:
        assert "zAAPs required" in words and "zIIPs required" not in words.split("Side by side")[1].split("#")[0]
    elif len(engines) == 2:
        assert "Specialty engines required" in words
    # the rows that differ are marked, as the page marks them
    assert "differs" in words
    # product names, never slugs, in the side-by-side table
    table = words.split("Side by side", 1)[1].split("Rows marked", 1)[0]
    assert "fiteq-authenticator" not in table and "FiTeq" in table


@pytest.mark.parametrize("inputs", [DNF_Z10, OVERLOADED], ids=["does-not-fit", "overloaded"])
def test_charts_draw_where_the_answer_has_a_basis(client: Any, user: Any, inputs: dict[str, Any]) -> None:
    client.force_login(user)
    body = client.get("/ui/chart-data", inputs).json()
    e = body["estimate"]
    assert e["feasibility"]["feasible"] is False or e["gcp_utilization"] > e["max_utilization"]
    cpu, response = body["cpu"], body["response"]
    # the figures are evaluated at the answer's evaluated CPs: the charts draw at that count
    assert cpu["capacity"]["cps"] == e["evaluated_cps"]
    assert cpu["line"] is not None and len(cpu["line"]["busy_cps"]) > 10
    assert response["curve"] is not None or response["lower_bound"] is not None
    # the capacity line names the generation's engine (zAAP on a z10) or none
    assert "zIIP" not in cpu["capacity"]["label"] or e["specialty_engine"] == "zIIP"


def test_advice_never_proposes_cps_against_a_software_limit(client: Any, user: Any) -> None:
    client.force_login(user)
    for inputs in (DNF_Z10, OVERLOADED):
        body = client.get("/ui/chart-data", inputs).json()
        software = body["response"]["software"]
        limit = software["servers"] / (software["service_ms"] / 1000.0)
        assert inputs["tps"] > limit  # both rates are beyond the software station
        advice = body["advice"]
        assert advice and advice[0]["resource"] == "software"
        assert f"{limit:,.0f} TPS" in advice[0]["sentence"]
        assert all("more CP" not in a["sentence"] for a in advice)
        # nor do the warnings beside it: no count of CPs is proposed against the software limit
        for w in body["display"]["warnings"]:
            if w["code"] == "utilization-above-ceiling":
                assert "are needed" not in w["sentence"] and "software limit" in w["sentence"]


def test_advice_proposes_cps_where_cps_bind(client: Any, user: Any) -> None:
    client.force_login(user)
    inputs = {**FITEQ_Z16, "cps": 2, "tps": 3000}
    body = client.get("/ui/chart-data", inputs).json()
    e = body["estimate"]
    software = body["response"]["software"]
    assert inputs["tps"] < software["servers"] / (software["service_ms"] / 1000.0)
    if e["gcp_utilization"] <= e["max_utilization"]:
        assert body["advice"] == []
        return
    first = body["advice"][0]
    assert first["resource"] == "cps"
    assert f"({e['cps_required']} in all)" in first["sentence"]


def test_advice_is_empty_where_the_answer_fits() -> None:
    answer = {"tps": 100.0, "feasibility": {"feasible": True}, "gcp_utilization": 0.5, "inputs": {}}
    assert presentation.advice(answer, software_tps=8000.0) == []


def test_estimate_pdf_summary_names_products_and_the_zaap(api: Any) -> None:
    made = _create(api, CICSTG_ZEC12)
    r = api.get(f"/api/v1/estimates/{made['id']}/report.pdf")
    assert r.status_code == 200
    words = _text(r.content)
    first = words.split("Summary", 1)[1][:600]
    assert "The question." in first and "cicstg" not in first
    cps = made["cps_required"]  # the planner's quote can be one CP: "1 CP", not "1 CPs"
    assert f"{cps} CP{'s' if cps != 1 else ''} and {made['ziips_required']} zAAP" in first
    assert made["specialty_engine"] == "zAAP" and "zIIP" not in first


def test_does_not_fit_pdf_draws_its_chart(api: Any) -> None:
    made = _create(api, DNF_Z10)
    words = _text(api.get(f"/api/v1/estimates/{made['id']}/report.pdf").content)
    assert "? CPs" not in words
    assert "More CPs do not help" in words
    made = _create(api, OVERLOADED)
    words = _text(api.get(f"/api/v1/estimates/{made['id']}/report.pdf").content)
    assert f"{made['cps_required']} CPs are needed" not in words and "More CPs do not help" in words


def test_assumptions_are_worded_for_a_customer() -> None:
    engine = (
        "at most 2 per CP (unconfirmed: no IBM technical guide or announcement found states it for this generation)"
    )
    said = presentation.customer_wording(engine)
    assert (
        "no IBM technical guide" not in said and "confirm it with IBM" in said and said.startswith("at most 2 per CP")
    )
