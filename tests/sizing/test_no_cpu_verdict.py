"""Issue 32 item 4: no CPU data, no CPU verdict, on every surface that prints feasibility.

HostBridge publishes no CPU figures (only a response-time floor from a packet trace): the
estimate answers ``feasible: null`` with the reason and the floor; the API (validated against its
OpenAPI schema), the pages' words, the CSV, ``/fit`` and ``/upgrade`` say so and never "fits".
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from sizing import presentation
from sizing.models import Estimate
from sizing.records import EstimateRecord
from tests.sizing.test_reports import report_words

pytestmark = pytest.mark.django_db

HOSTBRIDGE = {"path": "hostbridge-http", "configuration": "default-tcpip"}
FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region"}
ANSWERS = Path(__file__).resolve().parent.parent / "data" / "answers"
VERDICT = "No CPU figures are published for this path, so no CPU verdict"


def test_the_estimate_gives_no_cpu_verdict_with_what_is_known(api: Any) -> None:
    # Issue 32: "HostBridge is feasible with no CPU figure published, up to 500,000 TPS on a z10".
    for tps in (10, 500_000):
        body = api.get("/api/v1/estimate", {**HOSTBRIDGE, "machine": "z10", "tps": tps}).json()
        assert body["feasible"] is None
        fit = body["feasibility"]
        assert fit["reason"] == "no-cpu-data" and fit["message"].startswith(VERDICT)
        floor = body["response_time_ms"]["low"]
        assert floor is not None and f"{floor:,.4g} ms" in fit["message"]  # the response floor
        assert body["cps"] is None and body["cps_required"] is None
        figure = presentation.figures(body)["cps_required"]
        assert figure.value == presentation.DASH and figure.note == "no CPU verdict"


def test_the_csv_leaves_feasible_empty_and_says_why(api: Any) -> None:
    response = api.get("/api/v1/estimate", {**HOSTBRIDGE, "machine": "z16", "tps": 100, "format": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    (row,) = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert row["feasible"] == "" and row["does_not_fit"].startswith(VERDICT)


def test_fit_and_upgrade_never_say_it_fits(api: Any) -> None:
    fit = api.get("/api/v1/fit", {**HOSTBRIDGE, "tps": 100, "generations": "z16"})
    assert fit.status_code == 200, fit.content[:300]
    rows = fit.json()["rows"]
    # no verdict either way (it once said fits: false, a verdict the figures cannot give)
    assert rows and all(row["fits"] is None and row["reason"].startswith(VERDICT) for row in rows)
    assert fit.json()["cheapest"] is None
    upgrade = api.get("/api/v1/upgrade", {**HOSTBRIDGE, "machine": "z13", "cps": 6, "tps": 100, "targets": "z16"})
    assert upgrade.status_code == 200, upgrade.content[:300]
    columns = upgrade.json()["columns"]
    assert columns and all(c["feasible"] is None and c["does_not_fit"].startswith(VERDICT) for c in columns)


def test_without_cpu_data_the_saturation_is_unknown_on_every_surface(api: Any, client: Any, user: Any) -> None:
    """No CPU figures, so no rate is known to saturate anything: ``saturation_tps`` is null and its
    kind says ``unknown`` (once ``value``, which claimed a number that is not there); the API (its
    answers validated against the served OpenAPI schema, whose enum is the engine's), the CSV,
    the pages, the comparison and the PDF print a dash and say why."""
    inputs = {**HOSTBRIDGE, "machine": "z16", "tps": 100}
    body = api.get("/api/v1/estimate", inputs).json()
    assert (body["saturation_tps"], body["saturation_kind"]) == (None, "unknown")
    assert EstimateRecord.from_dict(body).saturation_kind == "unknown"
    figure = presentation.figures(body)["saturation_tps"]
    assert (figure.value, figure.note) == (presentation.DASH, "no CPU figures published")
    (row,) = csv.DictReader(io.StringIO(api.get("/api/v1/estimate", {**inputs, "format": "csv"}).content.decode()))
    assert (row["saturation_tps"], row["saturation_kind"]) == ("", "unknown")
    # An answer stored before the kind existed said "value": read as unknown, served as stored.
    stored = json.loads((ANSWERS / "estimate_v1_no_cpu_data.json").read_text(encoding="utf-8"))
    assert (stored["saturation_tps"], stored["saturation_kind"]) == (None, "value")
    old = EstimateRecord.from_dict(stored)
    assert old.saturation_kind == "unknown" and json.dumps(old.to_dict()) == json.dumps(stored)
    assert presentation.figures(old)["saturation_tps"].note == "no CPU figures published"
    # Saved, and on its page, in a comparison beside an answer that has a saturation, in the PDF.
    saved = api.post("/api/v1/estimates/", inputs, format="json")
    assert saved.status_code == 201 and saved.json()["saturation_kind"] == "unknown"
    fitted = api.post("/api/v1/estimates/", {**FITEQ, "machine": "z16", "tps": 8000}, format="json").json()
    assert fitted["saturation_kind"] == "value" and fitted["saturation_tps"] > 0
    client.force_login(user)
    page = client.get(f"/estimates/{saved.json()['id']}/")
    assert page.status_code == 200
    html = " ".join(page.content.decode().split())
    assert f'data-kpi="saturation_tps">{presentation.DASH}</span>' in html
    assert 'data-kpi-sub="saturation_tps">no CPU figures published</span>' in html
    compare = client.get("/estimates/compare/", {"id": [saved.json()["id"], fitted["id"]]})
    assert compare.status_code == 200
    (saturation,) = [r for r in compare.context["rows"] if r["label"] == "Saturation"]
    assert saturation["cells"] == [presentation.DASH, presentation.saturation_figure(fitted).text()]
    words = report_words(api, f"/api/v1/estimates/{saved.json()['id']}/report.pdf")
    assert f"Saturation {presentation.DASH}" in words


def test_a_page_reads_a_stored_answer_into_its_record_once(
    api: Any, client: Any, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The estimate page and the comparison read each stored answer once per request (not once per
    part of the page), and print the same as before."""
    ids = [
        api.post("/api/v1/estimates/", {**FITEQ, "machine": machine, "tps": 8000}, format="json").json()["id"]
        for machine in ("z16", "z13", "zec12")
    ]
    reads: list[Any] = []
    real = EstimateRecord.from_dict.__func__  # type: ignore[attr-defined]

    def counted(cls: type[EstimateRecord], data: Any) -> EstimateRecord:
        reads.append(data.get("tps"))
        record: EstimateRecord = real(cls, data)
        return record

    monkeypatch.setattr(EstimateRecord, "from_dict", classmethod(counted))
    client.force_login(user)
    page = client.get(f"/estimates/{ids[0]}/")
    assert page.status_code == 200 and len(reads) == 1
    assert page.context["figures"] == presentation.figures(Estimate.objects.get(pk=ids[0]).outputs)
    reads.clear()
    assert client.get("/estimates/compare/", {"id": ids}).status_code == 200
    assert len(reads) == len(ids)
