"""Your machines (issue 29): a CEC stored per user, read from a pasted Partition Data Report,
bad input refused naming the field with nothing stored, and workloads placed into an LPAR.

The placement's added demand is the mix job's on the LPAR (its logical CPs and zIIPs) and, for
a CEC with one LPAR holding every engine, the estimate's on that model: both checked to 1e-9
against the answers of those services, never typed in.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
from numpy.testing import assert_allclose

from sizing.jobs.mix import run_mix
from sizing.models import CapacityRating, CecConfiguration, Configuration
from sizing.services.estimates import estimate_compute

pytestmark = pytest.mark.django_db

RMF = Path(__file__).resolve().parents[1] / "data" / "rmf" / "partition_data_z15_three_lpars.txt"
ZOSCONNECT = {"path": "zosconnect-cics", "configuration": "channel"}
CICSTS = {"path": "cicsts-catalog", "configuration": "v5.3"}
EXAMPLE: dict[str, Any] = {
    "name": "Production z15",
    "model": "8561-710",
    "ziips": 4,
    "as_of": "2026-11-20",
    "lpars": [
        {"name": "PROD", "cp": {"logical": 8, "weight": 700, "busy_pct": 61.25},
         "ziip": {"logical": 4, "weight": 700, "busy_pct": 21.0}},
        {"name": "TEST", "cp": {"logical": 4, "weight": 200, "busy_pct": 30.0},
         "ziip": {"logical": 2, "weight": 200, "busy_pct": 10.0}},
        {"name": "DEV", "cp": {"logical": 2, "weight": 100, "busy_pct": 25.0},
         "ziip": {"logical": 1, "weight": 100, "busy_pct": 10.0}},
    ],
}  # fmt: skip


def _mips(model: str) -> float:
    return float(CapacityRating.objects.get(model=model).mips)


def _create(api: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = api.post("/api/v1/cecs/", body, format="json")
    assert response.status_code == 201, response.content
    out: dict[str, Any] = response.json()
    return out


def test_create_read_update_delete_own_only(api: Any, other_user: Any) -> None:
    cec = _create(api, EXAMPLE)
    assert (cec["model"], cec["machine"], cec["cps"], cec["ziips"], cec["as_of"]) == (
        "8561-710",
        "z15",
        10,
        4,
        "2026-11-20",
    )
    prod = cec["shares"]["cp"]["lpars"][0]
    # PR/SM: weight 700 of 1,000 on 10 shared CPs = 7 CPs; HiperDispatch: 7 VH, 1 VL of 8 logical.
    assert (prod["share"], prod["vh"], prod["vm"], prod["vl"]) == (7.0, 7, 0, 1)
    assert_allclose(prod["busy"], 4.9, rtol=1e-12)
    # One engine at the CEC's 14 engines: the 8561-714 row over 14.
    assert_allclose(cec["shares"]["cp"]["engine_mips"], _mips("8561-714") / 14, rtol=1e-12)
    ziip = cec["shares"]["ziip"]["lpars"][0]
    assert_allclose(ziip["share"], 4 * 0.7, rtol=1e-12)
    changed = {**EXAMPLE, "lpars": [{**EXAMPLE["lpars"][0], "cp": {"logical": 8, "weight": 800, "busy_pct": 61.25}},
                                    *EXAMPLE["lpars"][1:]]}  # fmt: skip
    response = api.put(cec["url"], changed, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["shares"]["cp"]["lpars"][0]["share"] == pytest.approx(10 * 800 / 1100)
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=other_user).key}")
    assert other.get(cec["url"]).status_code == 404
    assert other.get("/api/v1/cecs/").json()["count"] == 0
    assert api.delete(cec["url"]).status_code == 204
    assert not CecConfiguration.objects.exists()


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ({"model": "8561-7ZZ"}, ["model"]),
        ({"ziips": 21}, ["ziips"]),  # z15: at most 2 zIIPs per CP (benchmarks/engine_rules.yaml) beside 10 CPs
        ({"lpars": [{"name": "PROD", "cp": {"logical": 8, "weight": 0}}]}, ["lpars", "0", "cp", "weight"]),
        ({"lpars": [{"name": "PROD", "cp": {"logical": 11, "weight": 100}}]}, ["lpars", "0", "cp", "logical"]),
        ({"lpars": [{"name": "PROD", "cp": {"logical": 8, "weight": 100, "busy_pct": 100.5}}]},
         ["lpars", "0", "cp", "busy_pct"]),
        ({"lpars": [{"name": "PROD", "cp": {"logical": 2, "weight": 100}, "ziip": {"logical": 5, "weight": 100}}]},
         ["lpars", "0", "ziip", "logical"]),
    ],
)  # fmt: skip
def test_bad_input_names_the_field_and_stores_nothing(api: Any, edit: dict[str, Any], field: list[str]) -> None:
    response = api.post("/api/v1/cecs/", {**EXAMPLE, **edit}, format="json")
    assert response.status_code == 400, response.content
    body: Any = response.json()
    for key in field:
        body = body[key]
    assert isinstance(body, list) and body
    assert not CecConfiguration.objects.exists()


def test_parse_rmf_reads_the_partition_data_report(api: Any) -> None:
    response = api.post("/api/v1/cecs/parse-rmf/", {"text": RMF.read_text(encoding="utf-8")}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["cps_installed"], body["ziips"], body["interval_s"]) == (10, 4, 900.0)
    assert body["lpars"] == EXAMPLE["lpars"] or [x["name"] for x in body["lpars"]] == ["PROD", "TEST", "DEV"]
    prod = body["lpars"][0]
    assert (prod["cp"]["logical"], prod["cp"]["weight"], prod["cp"]["busy_pct"]) == (8, 700, 61.25)
    # What was read is what the user checks and saves.
    _create(api, {"name": "from RMF", "model": "8561-710", "ziips": body["ziips"], "lpars": body["lpars"]})
    bad = RMF.read_text(encoding="utf-8").replace("61.25       61.25", "61.25       161.25", 1)
    response = api.post("/api/v1/cecs/parse-rmf/", {"text": bad}, format="json")
    assert response.status_code == 400
    assert response.json()["text"][0].startswith("line 15:")


def test_one_lpar_holding_every_engine_answers_as_the_estimate(api: Any, user: Any) -> None:
    # A CEC with no specialty engines and one LPAR with all 10 CPs: its total engine count is the
    # LPAR's, so the added demand is the estimate's busy CPs on 8561-710 with 10 CPs, 0 zIIPs.
    cec = _create(
        api, {"name": "one", "model": "8561-710", "lpars": [{"name": "ALL", "cp": {"logical": 10, "weight": 10}}]}
    )
    for tps in (20_000.0, 90_000.0):
        response = api.post(
            f"{cec['url']}place/", {"lpar": "ALL", "workloads": [{**CICSTS, "tps": tps}]}, format="json"
        )
        assert response.status_code == 200, response.content
        placed = response.json()
        _, _, est = estimate_compute(
            user=user, inputs={**CICSTS, "model": "8561-710", "tps": tps, "cps": 10, "ziips": 0}
        )
        cp = placed["pools"][0]
        assert_allclose(cp["added"], est["busy_cps"]["gcp"], rtol=1e-9)
        assert_allclose(cp["utilization"], est["gcp_utilization"], rtol=1e-9)
        assert placed["fits"] == (est["gcp_utilization"] <= placed["ceiling"] + 1e-9)


def test_adding_to_an_lpar_is_the_mix_job_on_it(api: Any, user: Any) -> None:
    cec = _create(api, EXAMPLE)
    workloads = [{**ZOSCONNECT, "tps": 2000.0}, {**CICSTS, "tps": 10_000.0}]
    response = api.post(f"{cec['url']}place/", {"lpar": "PROD", "workloads": workloads}, format="json")
    assert response.status_code == 200, response.content
    placed = response.json()
    mix = run_mix(params={"machine": "z15", "cps": 8, "ziips": 4, "workloads": workloads}, owner=user,
                  progress=lambda done, total: None)  # fmt: skip
    cp, ziip = placed["pools"]
    # the mix rates its engines at its LPAR's 8 CPs + 4 zIIPs (8561-712's MIPS / 12), the CEC at
    # its 14 engines (8561-714's MIPS / 14): the MP effect on both sides
    per_engine = _mips("8561-714") / 14
    assert_allclose(cp["added"], mix["combined"]["gcp_busy"] * _mips("8561-712") / 12 / per_engine, rtol=1e-9)
    assert_allclose(ziip["added"], mix["combined"]["ziip_busy"] * _mips("8561-712") / 12 / per_engine, rtol=1e-9)
    assert_allclose(cp["today"], 4.9, rtol=1e-12)
    assert cp["added_low"] <= cp["added"] <= cp["added_high"]
    assert placed["fits"] == all(p["total"] <= p["ceiling"] * p["share"] + 1e-9 for p in placed["pools"])


def test_place_bad_input_names_the_field(api: Any) -> None:
    cec = _create(api, EXAMPLE)
    url = f"{cec['url']}place/"
    assert "lpar" in api.post(url, {"lpar": "NOPE", "workloads": [{**CICSTS, "tps": 10}]}, format="json").json()
    body = api.post(url, {"lpar": "PROD", "workloads": [{**CICSTS, "tps": -1}]}, format="json").json()
    assert "tps" in body["workloads"]["0"]
    new = {"name": "PROD", "cp": {"logical": 2, "weight": 100}}
    response = api.post(url, {"new_lpar": new, "workloads": [{**CICSTS, "tps": 10}]}, format="json")
    assert response.status_code == 400 and "new_lpar" in response.json()


def test_the_page_draws_the_machine_and_its_shares(client: Any, user: Any, api: Any) -> None:
    cec = _create(api, EXAMPLE)
    client.force_login(user)
    response = client.get(f"/cecs/?cec={cec['id']}")
    assert response.status_code == 200
    html = response.content.decode()
    assert "8561-710 (IBM z15 T01): 10 CPs, 4 zIIPs; as of 2026-11-20." in html
    # PROD's row: weight 700, 8 logical, share 7.00, 7 / 0 / 1, busy 4.90 (the API's shares).
    assert '<td class="num">700</td><td class="num">8</td>' in html and ">7.00<" in html and ">4.90<" in html
    assert f"/api/v1/cecs/{cec['id']}/place/" in html and "zsizer/cecs.js" in html
    # the CSRF token is random text and may spell "cdn" by chance: not a link to another host
    shown = re.sub(r'(name="csrfmiddlewaretoken" value|<meta name="csrf-token" content)="[^"]*"', "", html)
    assert "cdn" not in shown.lower()
    assert client.get("/cecs/").status_code == 200


def test_placement_as_csv_and_pdf(api: Any) -> None:
    import csv
    import io
    import subprocess

    from sizing.services.cec_csv import HEADER
    from sizing.services.estimate_csv import spreadsheet_number

    cec = _create(api, EXAMPLE)
    body = {"lpar": "PROD", "workloads": [{**ZOSCONNECT, "tps": 2000}]}
    answer = api.post(f"{cec['url']}place/", body, format="json").json()
    response = api.post(f"{cec['url']}".rstrip("/") + "/place.csv", body, format="json")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert tuple(rows[0]) == HEADER and [r["pool"] for r in rows] == ["cp", "ziip"]
    for row, pool in zip(rows, answer["pools"], strict=True):
        for key in ("today", "added", "added_low", "added_high", "total", "share", "cec_busy"):
            assert row[key] == str(spreadsheet_number(pool[key]))
        assert row["fits"] == (
            "TRUE" if pool["fits"] else "FALSE"
        )  # docs/csv.md: booleans as a spreadsheet writes them
    assert rows[0]["changes"] == " | ".join(c["sentence"] for c in answer["changes"] if c["pool"] == "cp")
    # The workloads cell names the product (from the reference data) and its rate with separators.
    config = Configuration.objects.get(path__slug=ZOSCONNECT["path"], slug=ZOSCONNECT["configuration"])
    assert {r["workloads"] for r in rows} == {f"{config.path.name} ({config.name}) at 2,000 TPS"}
    response = api.post(f"{cec['url']}".rstrip("/") + "/place.pdf", body, format="json")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=response.content, capture_output=True,
                          check=True).stdout.decode()  # fmt: skip
    assert "The work does not fit in PROD." in text
    assert "8561-710 (IBM z15 T01): 10 CPs, 4 zIIPs; as of 2026-11-20." in text
    cp = answer["pools"][0]
    assert f"{cp['added']:.2f} ({cp['added_low']:.2f} to {cp['added_high']:.2f})" in text
    for change in answer["changes"]:
        assert change["sentence"].split(":")[0] in text


def test_the_machine_over_time(api: Any) -> None:
    # Year 1 is the placement at today's rates; each LPAR's load compounds at its own rate; an
    # LPAR runs out the first year its load passes the ceiling of its share, the CEC the first
    # year all LPARs together pass the ceiling of a pool's engines.
    cec = _create(api, EXAMPLE)
    body = {"lpar": "PROD", "horizon_years": 5, "lpar_growth_pct": {"PROD": 10, "TEST": 30},
            "workloads": [{**CICSTS, "tps": 2000, "growth_pct": 25}]}  # fmt: skip
    response = api.post(f"{cec['url']}plan/", body, format="json")
    assert response.status_code == 200, response.content
    plan = response.json()
    placed = api.post(f"{cec['url']}place/", {"lpar": "PROD", "workloads": [{**CICSTS, "tps": 2000}]},
                      format="json").json()  # fmt: skip
    first = {(r["name"], r["pool"]): r for r in plan["years"][0]["lpars"]}
    assert_allclose(first[("PROD", "cp")]["busy"], placed["pools"][0]["total"], rtol=1e-9)
    for year in plan["years"]:
        y = year["year"]
        assert_allclose(year["workloads"][0]["tps"], 2000 * 1.25 ** (y - 1), rtol=1e-12)
        rows = {(r["name"], r["pool"]): r for r in year["lpars"]}
        assert_allclose(rows[("TEST", "cp")]["busy"], 1.2 * 1.3 ** (y - 1), rtol=1e-9)
        assert_allclose(rows[("DEV", "cp")]["busy"], 0.5, rtol=1e-9)
        cp = next(p for p in year["cec"] if p["pool"] == "cp")
        assert_allclose(cp["busy"], sum(r["busy"] for r in year["lpars"] if r["pool"] == "cp"), rtol=1e-12)
    for name in ("PROD", "TEST", "DEV"):
        failing = [y["year"] for y in plan["years"] if not all(r["holds"] for r in y["lpars"] if r["name"] == name)]
        assert plan["runs_out"]["lpars"][name] == (failing[0] if failing else None)
    failing = [y["year"] for y in plan["years"] if not all(p["holds"] for p in y["cec"])]
    assert plan["runs_out"]["cec"] == (failing[0] if failing else None)
    assert plan["runs_out"]["lpars"]["TEST"] is not None  # 1.2 CPs x 1.3^4 = 3.43, beyond 85 % of 2
    bad = api.post(f"{cec['url']}plan/", {**body, "lpar_growth_pct": {"NOPE": 5}}, format="json")
    assert bad.status_code == 400 and "lpar_growth_pct" in bad.json()


def test_a_workload_past_its_software_limit_does_not_fit_whatever_the_share(api: Any, user: Any) -> None:
    # Issue 29 with issue 32's rule: FiTeq multi-region saturates its own software station (the
    # wait for a free HSM channel, REDP-5114 sec. 11.3) whatever the engines, so an LPAR with
    # share to spare does not carry it past that rate: what binds is the software limit, no
    # weight, logical engine, engine or model is proposed, more instances or regions are.
    fiteq = {"path": "fiteq-authenticator", "configuration": "multi-region"}
    cec = _create(
        api, {"name": "big", "model": "8561-720", "lpars": [{"name": "ALL", "cp": {"logical": 20, "weight": 10}}]}
    )
    _, _, est = estimate_compute(user=user, inputs={**fiteq, "model": "8561-720", "tps": 10_000, "cps": 20, "ziips": 0})
    assert est["saturation_binding"]["resource"] == "software"  # the limit, from the engine
    saturation = est["saturation_tps"]
    # held to the ceiling as the CPs are (the estimate's predicate): the most it carries
    ceiling = est["max_utilization"]
    limit = ceiling * saturation
    url = f"{cec['url']}place/"
    placed = api.post(url, {"lpar": "ALL", "workloads": [{**fiteq, "tps": limit * 1.02}]}, format="json").json()
    assert all(p["fits"] for p in placed["pools"])  # the share carries the busy ...
    assert placed["fits"] is False and placed["binding"] == "software-limit"  # ... not the rate
    assert placed["fits_range"] == {"low": False, "high": False}
    (software,) = placed["software_limits"]
    assert software["limit"] == pytest.approx(limit, rel=1e-9)
    assert software["saturation"] == pytest.approx(saturation, rel=1e-9) and software["ceiling"] == ceiling
    assert [c["kind"] for c in placed["changes"]] == ["software-limit"]
    sentence = placed["changes"][0]["sentence"]
    assert "instances or regions" in sentence and f"{math.floor(limit):,} TPS" in sentence  # rounded down
    assert f"at {limit * 1.02 / saturation:.0%} busy" in sentence and f"the {ceiling:.0%} ceiling" in sentence
    assert "fiteq-authenticator" not in sentence  # the product's name, not its slug
    for fmt in ("csv", "pdf"):
        response = api.post(url.rstrip("/") + f".{fmt}", {"lpar": "ALL", "workloads": [{**fiteq, "tps": limit * 1.02}]},
                            format="json")  # fmt: skip
        assert response.status_code == 200
    below = api.post(url, {"lpar": "ALL", "workloads": [{**fiteq, "tps": limit * 0.98}]}, format="json").json()
    assert below["fits"] is True and below["binding"] is None and below["software_limits"] == []
    assert below["changes"] == []


def test_the_placement_matches_its_openapi_schema_field_by_field(api: Any, user: Any) -> None:
    """The generated schema closes every object (additionalProperties: false), so a field of the
    answer it does not describe, or a type it gets wrong, fails here: one answer with the zIIP
    change placed again, one past a workload's software limit."""
    import jsonschema

    components = api.get("/api/schema/?format=json").json()["components"]
    fiteq = {"path": "fiteq-authenticator", "configuration": "multi-region"}
    cec = _create(api, EXAMPLE)
    big = _create(
        api, {"name": "big", "model": "8561-720", "lpars": [{"name": "ALL", "cp": {"logical": 20, "weight": 10}}]}
    )
    answers = [
        api.post(f"{cec['url']}place/", {"lpar": "PROD", "workloads": [{**ZOSCONNECT, "tps": 2000}]}, format="json"),
        api.post(f"{big['url']}place/", {"lpar": "ALL", "workloads": [{**fiteq, "tps": 20_000}]}, format="json"),
    ]
    bodies = [r.json() for r in answers]
    assert "with_specialty_change" in bodies[0] and bodies[1]["binding"] == "software-limit"
    for body in bodies:
        jsonschema.validate(body, {"$ref": "#/components/schemas/Placement", "components": components})
    assert components["schemas"]["Placement"]["additionalProperties"] is False
