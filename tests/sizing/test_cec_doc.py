"""docs/cec.md's worked example, computed: every row and sentence of its tables is rebuilt here from
the API's answers (the stored CEC, its shares, the placement of z/OS Connect at 2,000 TPS into
PROD) and must appear in the document verbatim."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.sizing.test_cecs import EXAMPLE, ZOSCONNECT, _create

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[2] / "docs" / "cec.md"
BINDING = {None: "", "share": "its share (weight)", "logical": "its logical engines", "cec": "the CEC's engines"}


def share_rows(cec: dict[str, Any]) -> list[str]:
    rows = []
    for pool, engine in (("cp", "CP"), ("ziip", "zIIP")):
        for s in cec["shares"][pool]["lpars"]:
            rows.append(
                f"| {s['name']} | {engine} | {s['weight']} | {s['logical']} | {s['share']:.2f} | "
                f"{s['vh']}/{s['vm']}/{s['vl']} | {s['busy']:.2f} |"
            )
    return rows


def placement_rows(placed: dict[str, Any]) -> list[str]:
    return [
        f"| {p['engine']}s | {p['today']:.2f} | {p['added']:.2f} ({p['added_low']:.2f} to {p['added_high']:.2f}) | "
        f"{p['total']:.2f} | {p['share']:.2f} | {p['ceiling'] * p['share']:.2f} | {p['cec_busy']:.2f} of "
        f"{p['installed']} | {'yes' if p['fits'] else 'no'} | {BINDING[p['binding']]} |"
        for p in placed["pools"]
    ]


def facts(cec: dict[str, Any], placed: dict[str, Any]) -> list[str]:
    cp = cec["shares"]["cp"]
    after = placed["with_specialty_change"]
    return [
        f"{cp['engine_mips']:,.1f} MIPS",
        f"{cp['total_engines']} engines",
        f"{placed['mix']['gcp_busy']:.2f} busy CPs and {placed['mix']['ziip_busy']:.2f} busy zIIPs",
        *(f"- {c['sentence']}" for c in placed["changes"]),
        f"After: {after['change']}",
        *placement_rows(after),
        f"{after['mix']['gcp_busy']:.2f} busy CPs and {after['mix']['ziip_busy']:.2f} busy zIIPs",
        *(f"- {c['sentence']}" for c in after["changes"]),
        f"today's busy reads {after['pools'][0]['today']:.2f} CPs for\nthe same work as {placed['pools'][0]['today']:.2f}",
        f"each engine of a {sum(p['installed'] for p in after['pools'])}-engine CEC",
        f"up\nto {after['pools'][1]['added_high']:.2f} zIIPs of added work",
    ]


def test_the_worked_example_in_docs_cec_md(api: Any) -> None:
    cec = _create(api, EXAMPLE)
    response = api.post(f"{cec['url']}place/", {"lpar": "PROD", "workloads": [{**ZOSCONNECT, "tps": 2000}]},
                        format="json")  # fmt: skip
    assert response.status_code == 200, response.content
    placed = response.json()
    doc = DOC.read_text(encoding="utf-8")
    expected = [*share_rows(cec), *placement_rows(placed), *facts(cec, placed)]
    missing = [line for line in expected if line not in doc]
    assert not missing, "docs/cec.md does not print:\n" + "\n".join(missing)
    assert placed["fits"] is False
    after = placed["with_specialty_change"]
    assert after["fits"] is True and after["changes"] == [] and after["fits_range"]["high"] is False


def test_docs_cec_md_lists_every_csv_column() -> None:
    from sizing.services.cec_csv import HEADER

    doc = DOC.read_text(encoding="utf-8")
    assert [c for c in HEADER if f"`{c}`" not in doc] == []
