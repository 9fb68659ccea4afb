"""Every estimate CSV has one header (sizing.services.estimate_csv.HEADER, docs/csv.md).

A GET estimate (format=csv), a saved estimate, the list of saved estimates and a batch job's
result.csv: the same columns in the same order, a range in two columns, an empty cell for none,
numbers to 6 significant digits, and the values the JSON answer has.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from sizing.jobs.batch import run_batch
from sizing.models import Job, JobStatus
from sizing.records import EstimateInputs
from sizing.services.estimate_csv import (
    FIT_COLUMNS,
    FIT_HEADER,
    HEADER,
    HEADER_COLUMNS,
    Subject,
    _cell,
    estimate_csv_row,
    spreadsheet_number,
)
from sizing.services.estimates import estimate_answer_records

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs" / "csv.md"
#: 7,000 TPS: within the 85 % ceiling of the fitted software station (8,830 TPS), so it fits.
FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z16", "tps": "7000"}
CICSTS = {"path": "cicsts-catalog", "configuration": "v5.3", "model": "3931-510", "tps": "500"}
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
# Two numbers in one cell ("4.0 5.0", "170 2128", "0.000..2.247"): what issue 23 found.
PACKED = re.compile(r"\d\s*(\.\.|\s|–)\s*-?\d")


def _rows(response: Any) -> tuple[list[str], list[dict[str, str]]]:
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"].startswith("text/csv")
    reader = csv.DictReader(io.StringIO(response.content.decode()))
    rows = list(reader)
    return list(reader.fieldnames or []), rows


def _significant_digits(cell: str) -> int:
    digits = Decimal(cell).normalize().as_tuple().digits  # 8330.460 -> (8,3,3,0,4,6); 12345700 -> 1.23457E+7
    return len(digits)


def _check_cells(rows: list[dict[str, str]]) -> None:
    for row in rows:
        for name, cell in row.items():
            assert not PACKED.search(cell) or name in ("warnings", "error", "basis_points"), (name, cell)
            if NUMBER.fullmatch(cell):
                assert _significant_digits(cell) <= 6, (name, cell)
            assert cell not in ("None", "nan", "inf", "[]", "{}"), (name, cell)


def test_get_saved_list_and_batch_csv_share_one_header(api: Any, user: Any) -> None:
    header_get, got = _rows(api.get("/api/v1/estimate", {**FITEQ, "format": "csv"}))
    saved = api.post("/api/v1/estimates/", {**FITEQ, "name": "Bank A"}, format="json").json()
    api.post("/api/v1/estimates/", {**CICSTS, "name": "Bank B"}, format="json")
    header_saved, one = _rows(api.get(f"/api/v1/estimates/{saved['id']}/", {"format": "csv"}))
    header_list, many = _rows(api.get("/api/v1/estimates/", {"format": "csv"}))
    text = "path,configuration,machine,model,tps\n" + "\n".join(
        [
            "fiteq-authenticator,multi-region,z16,,7000",
            "cicsts-catalog,v5.3,,3931-510,500",
            "fiteq-authenticator,multi-region,z16,,-5",
        ]
    )
    result = run_batch(params={"csv": text}, owner=user, progress=lambda done, total: None)
    job = Job.objects.create(owner=user, kind="batch", params={"csv": text}, status=JobStatus.SUCCEEDED, result=result)
    header_batch, batch = _rows(api.get(f"/api/v1/jobs/{job.pk}/result.csv"))

    assert header_get == header_saved == header_list == header_batch == list(HEADER)
    assert len(got) == 1 and len(one) == 1 and len(many) == 2 and len(batch) == 3
    for rows in (got, one, many, batch):
        _check_cells(rows)

    # The same answer in every export: GET, saved, listed and the batch's first row.
    answer = api.get("/api/v1/estimate", FITEQ).json()
    for row in (got[0], one[0], next(r for r in many if r["estimate_name"] == "Bank A"), batch[0]):
        assert row["path"] == "fiteq-authenticator" and row["machine"] == "z16" and row["tps"] == "7000"
        assert int(row["cps_required"]) == answer["cps_required"]
        # A range in two columns: ranges.cps of the JSON answer.
        assert (float(row["cps_low"]), float(row["cps_high"])) == tuple(answer["ranges"]["cps"])
        # 6 significant digits of the JSON's full float (e.g. 8330.45588266133 -> 8330.46).
        assert row["mips"] == str(spreadsheet_number(answer["mips"]))
        assert float(row["cpu_per_tran_ms"]) == pytest.approx(answer["cpu_per_tran_ms"]["total"], rel=5e-6)
        assert float(row["response_time_ms_low"]) == pytest.approx(answer["response_time_ms"]["low"], rel=5e-6)
        assert row["ziip_utilization"] == ""  # none: no zIIPs, an empty cell
        # The fit behind the basis: its points and R squared, as the JSON answer gives them.
        assert int(row["fit_points"]) == answer["basis"]["model"]["n"]
        assert row["fit_r2"] == str(spreadsheet_number(answer["basis"]["model"]["r2"]))
    assert one[0]["estimate_id"] == str(saved["id"]) and one[0]["estimate_name"] == "Bank A"
    assert got[0]["estimate_id"] == "" and got[0]["row"] == "" and got[0]["error"] == ""

    # The batch: row numbers, a sub-capacity model resolved, a bad row with its reason and its inputs as given.
    assert [r["row"] for r in batch] == ["1", "2", "3"]
    assert batch[1]["capacity_model"] == "3931-510" and batch[1]["input_model"] == "3931-510"
    assert batch[2]["error"].startswith("tps:") and batch[2]["tps"] == "-5" and batch[2]["cps_required"] == ""


def test_an_empty_list_still_has_the_header(api: Any) -> None:
    header, rows = _rows(api.get("/api/v1/estimates/", {"format": "csv"}))
    assert header == list(HEADER) and rows == []


def test_a_batch_that_asks_which_model_fits_adds_the_fit_columns_after_the_header(api: Any, user: Any) -> None:
    text = "path,configuration,tps,generations\nfiteq-authenticator,multi-region,7000,z16\n"
    result = run_batch(params={"csv": text}, owner=user, progress=lambda done, total: None)
    assert result["table"]["columns"] == [*HEADER, *FIT_HEADER]
    row = dict(zip(result["table"]["columns"], result["table"]["rows"][0], strict=True))
    assert row["error"] is None and row["fit_cheapest"] and row["input_generations"] == "z16"


def test_numbers_keep_six_significant_digits() -> None:
    # Values from issue 23's CSV: float noise cut to 6 significant digits; whole numbers as integers.
    assert spreadsheet_number(8330.455882661332) == 8330.46
    assert spreadsheet_number(0.4643302351434346) == 0.46433
    assert spreadsheet_number(8000.0) == 8000 and isinstance(spreadsheet_number(8000.0), int)
    assert spreadsheet_number(123456789.0) == 123457000
    assert spreadsheet_number(float("nan")) is None and spreadsheet_number(float("inf")) is None
    assert spreadsheet_number(5) == 5 and spreadsheet_number(True) is True and spreadsheet_number("z16") == "z16"


def test_docs_list_every_column_with_its_unit() -> None:
    text = DOCS.read_text(encoding="utf-8")
    documented = re.findall(r"^\| `([a-z0-9_]+)` \|", text, re.M)
    assert documented == [*HEADER, *FIT_HEADER]


def test_a_row_read_by_its_plan_equals_each_column_read_on_its_own(user: Any) -> None:
    """``estimate_csv_row`` reads each step of the columns' paths once (``_plan``): the cells are
    those of each column read from the subject on its own (``_cell``), for answers of every kind
    (sized, does not fit, a lower bound, no CPU data, a model), a refused row's inputs as given
    and a "which model fits" row's cells."""
    questions = [
        {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": 5000.0},
        {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": 10000.0},
        {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": 9000.0, "cps": 4},
        {"path": "zosconnect-cics", "configuration": "channel", "machine": "zec12", "tps": 800.0, "payload_bytes": 262144},
        {"path": "hostbridge-http", "configuration": "default-tcpip", "machine": "z16", "tps": 20.0},
        {"path": "cicstg", "configuration": "ipic-channel-64", "model": "3931-510", "tps": 1000.0, "name": "a model"},
    ]  # fmt: skip
    records = estimate_answer_records(user=user, inputs=[EstimateInputs.from_dict(q) for q in questions])
    subjects: list[Any] = [r for r in records if not isinstance(r, Exception)]
    assert len(subjects) == len(questions)
    subjects += [
        Subject(inputs={"path": "cicstg", "tps": 12.5, "cps": "many"}, estimate_name="refused", row=3, error="x"),
        Subject(inputs={"generations": "z16"}, fit={"fit_cheapest": "3931-705", "fit_cps": 5, "fit_msu": 123.456789}),
        Subject(),
    ]
    for subject in subjects:
        for with_fit in (False, True):
            columns = HEADER_COLUMNS + (FIT_COLUMNS if with_fit else ())
            whole = subject if isinstance(subject, Subject) else Subject.of(subject)
            assert estimate_csv_row(subject, with_fit=with_fit) == {c.name: _cell(c, whole) for c in columns}
