"""Every table the app writes (CSV and XLSX of an estimate, the estimate list, a batch's and a
job's result, a plan) opens in LibreOffice Calc with its numeric cells numeric; and the batch
says honestly what each row is (sized, does not fit, no CPU data, refused), keeping its label.

LibreOffice (Debian's ``libreoffice-calc-nogui``, installed by ``make test``) converts each file
headless: a CSV as Calc imports it, an XLSX as Calc opens it, both written back as XLSX and read
with openpyxl, so a cell's type is Calc's.
"""

from __future__ import annotations

import csv
import io
import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from sizing.jobs.batch import STATUSES, run_batch
from sizing.jobs.plan import COLUMN_UNITS as PLAN_UNITS
from sizing.models import Estimate, Job, JobKind, JobStatus
from sizing.services.estimate_csv import HEADER, UNITS
from sizing.services.estimates import estimate_compute

pytestmark = pytest.mark.django_db

FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region"}
BATCH = (
    "name,path,configuration,machine,tps\n"
    "Branch A,fiteq-authenticator,multi-region,z16,7000\n"  # within the software station's ceiling
    "Gateway,hostbridge-http,default-tcpip,z13,100\n"
    "Peak,fiteq-authenticator,multi-region,z10,60000\n"
    "Typo,fiteq-authenticator,multi-region,z16,-5\n"
)
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


def _rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    table = result["table"]
    return [dict(zip(table["columns"], r, strict=True)) for r in table["rows"]]


def test_the_batch_counts_each_status_and_keeps_the_rows_label(user: Any) -> None:
    result = run_batch(params={"csv": BATCH}, owner=user, progress=lambda done, total: None)
    rows = _rows(result)
    assert [r["status"] for r in rows] == ["sized", "no-cpu-data", "does-not-fit", "refused"]
    assert result["counts"] == {"sized": 1, "does-not-fit": 1, "no-cpu-data": 1, "refused": 1}
    assert list(result["counts"]) == list(STATUSES)
    assert (result["rows"], result["succeeded"], result["failed"]) == (4, 3, 1)
    assert [r["estimate_name"] for r in rows] == ["Branch A", "Gateway", "Peak", "Typo"]
    # HostBridge publishes no CPU figures: nothing sized, so nothing is said to fit
    gateway = rows[1]
    _, _, answer = estimate_compute(user=user, inputs={"path": "hostbridge-http", "configuration": "default-tcpip",
                                                       "machine": "z13", "tps": 100})  # fmt: skip
    assert answer["cps_required"] is None and "no-cpu-data" in [w["code"] for w in answer["warnings"]]
    assert gateway["feasible"] is None and gateway["cps_required"] is None and gateway["error"] is None
    # does not fit: false, with the most the target carries (the engine's figure, 6 digits)
    _, _, peak = estimate_compute(user=user, inputs={**FITEQ, "machine": "z10", "tps": 60000})
    assert rows[2]["feasible"] is False
    assert rows[2]["max_tps"] == pytest.approx(peak["feasibility"]["max_tps"], rel=5e-6)
    assert rows[0]["feasible"] is True and rows[3]["error"].startswith("tps:")


def _convert(files: list[Path], out: Path, *, csv_in: bool) -> None:
    """Calc opens each file and writes it as XLSX into ``out`` (one headless LibreOffice run)."""
    assert SOFFICE is not None, "LibreOffice Calc is missing: make test installs libreoffice-calc-nogui"
    profile = out / "profile"
    args = [SOFFICE, f"-env:UserInstallation=file://{profile}", "--headless"]
    if csv_in:
        args.append("--infilter=CSV:44,34,76,1")  # comma, double quote, UTF-8, from line 1
    args += ["--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", str(out), *map(str, files)]
    subprocess.run(args, check=True, capture_output=True, timeout=180)


def _calc_rows(path: Path) -> tuple[list[str], list[list[Any]]]:
    book = load_workbook(path, read_only=True)
    values = [list(r) for r in book.worksheets[0].iter_rows(values_only=True)]
    book.close()
    header = [str(h) for h in values[0]]
    return header, values[1:]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_numeric(name: str, expected: list[dict[str, Any]], header: list[str], rows: list[list[Any]]) -> int:
    """Every cell the app wrote as a number is a number in Calc, with the same value."""
    checked = 0
    assert len(rows) == len(expected), name
    for want, got in zip(expected, rows, strict=True):
        cells = dict(zip(header, got, strict=False))
        for column, value in want.items():
            if not _is_number(value):
                continue
            cell = cells[column]
            assert _is_number(cell), f"{name}: {column} = {cell!r} is not a number in Calc"
            assert math.isclose(float(cell), float(value), rel_tol=5e-6), (name, column, cell, value)
            checked += 1
    return checked


@pytest.fixture(name="exports")
def fixture_exports(api: Any, user: Any, settings: Any) -> dict[str, dict[str, bytes]]:
    """Every table export, as the API serves it, in CSV and XLSX."""
    for tps in (8000, 12000):
        assert (
            api.post(
                "/api/v1/estimates/", {**FITEQ, "machine": "z16", "tps": tps, "name": f"z16 {tps}"}, format="json"
            ).status_code
            == 201
        )
    pk = Estimate.objects.filter(owner=user).order_by("pk").values_list("pk", flat=True)[0]
    batch = run_batch(params={"csv": BATCH}, owner=user, progress=lambda done, total: None)
    job = Job.objects.create(owner=user, kind=JobKind.BATCH, params={"csv": BATCH}, status=JobStatus.SUCCEEDED,
                             result=batch, task_id="t-batch")  # fmt: skip
    plan_body = {"name": "one", "horizon_years": 1, "candidates": ["3931-706"],
                 "workloads": [{"path": "zosconnect-cics", "configuration": "channel", "tps": 2000, "peak_ratio": 1.5,
                                "growth_pct": 25}]}  # fmt: skip
    settings.ZSIZER_PLAN_INLINE_EVALUATIONS = 10
    plan = api.post("/api/v1/plans/", plan_body, format="json")
    assert plan.status_code == 201, plan.content
    urls = {
        "estimate": ("/api/v1/estimate", {**FITEQ, "machine": "z10", "tps": 60000}),
        "saved": (f"/api/v1/estimates/{pk}/", {}),
        "list": ("/api/v1/estimates/", {}),
        "batch": (f"/api/v1/jobs/{job.pk}/", {}),
        "plan": (f"/api/v1/plans/{plan.json()['id']}/result", {}),
    }
    out: dict[str, dict[str, bytes]] = {}
    for name, (url, params) in urls.items():
        out[name] = {}
        for fmt in ("csv", "xlsx"):
            if name == "plan":
                response = api.get(f"{url}.{fmt}")
            else:
                response = api.get(url, {**params, "format": fmt})
            assert response.status_code == 200, (name, fmt, response.content[:300])
            assert f'.{fmt}"' in response["Content-Disposition"], (name, fmt)
            out[name][fmt] = response.content
    return out


#: Columns of the estimate header that hold numbers (a unit), and the two counters without one.
NUMERIC = {c for c, unit in UNITS.items() if unit} | {"estimate_id", "row"}


def _csv_rows(data: bytes, numeric: set[str] | None = None) -> list[dict[str, Any]]:
    """A CSV's rows with each cell as the app meant it: numbers as numbers (docs/csv.md) in the
    ``numeric`` columns (all where not given), text elsewhere."""

    def value(text: str) -> Any:
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                return text or None

    rows = csv.DictReader(io.StringIO(data.decode()))
    return [{k: value(v) if numeric is None or k in numeric else v for k, v in row.items()} for row in rows]


def _expected(name: str, data: bytes) -> list[dict[str, Any]]:
    return _csv_rows(data, NUMERIC if name in ("estimate", "saved", "list", "batch") else None)


def test_the_xlsx_has_the_csvs_columns_numbers_as_numbers_and_units_in_the_header(
    exports: dict[str, dict[str, bytes]],
) -> None:
    for name, files in exports.items():
        book = load_workbook(io.BytesIO(files["xlsx"]), read_only=True)
        values = [list(r) for r in book.worksheets[0].iter_rows(values_only=True)]
        book.close()
        csv_rows = _expected(name, files["csv"])
        names = list(csv_rows[0])
        if name in ("estimate", "saved", "list", "batch"):
            assert names[: len(HEADER)] == list(HEADER), name
            assert values[0][: len(HEADER)] == [f"{c} ({UNITS[c]})" if UNITS[c] else c for c in HEADER], name
        else:  # a plan: its numeric columns' units
            assert values[0] == [f"{c} ({PLAN_UNITS[c]})" if c in PLAN_UNITS else c for c in names], name
            assert values[0][names.index("msu_consumed")] == "msu_consumed (MSU)"
        header = [str(h).split(" (")[0] for h in values[0]]
        assert _check_numeric(f"{name}.xlsx", csv_rows, header, values[1:]) > 0, name
    # no Python literals anywhere in a CSV
    for name, files in exports.items():
        text = files["csv"].decode()
        for literal in (",True,", ",False,", ",None,", ",nan,"):
            assert literal not in text, (name, literal)


def test_every_csv_and_xlsx_opens_in_libreoffice_calc_with_numbers_numeric(
    exports: dict[str, dict[str, bytes]], tmp_path: Path
) -> None:
    src_csv, src_xlsx, out_csv, out_xlsx = (tmp_path / d for d in ("csv", "xlsx", "from-csv", "from-xlsx"))
    for d in (src_csv, src_xlsx, out_csv, out_xlsx):
        d.mkdir()
    for name, files in exports.items():
        (src_csv / f"{name}.csv").write_bytes(files["csv"])
        (src_xlsx / f"{name}.xlsx").write_bytes(files["xlsx"])
    _convert(sorted(src_csv.iterdir()), out_csv, csv_in=True)
    _convert(sorted(src_xlsx.iterdir()), out_xlsx, csv_in=False)
    for name, files in exports.items():
        expected = _expected(name, files["csv"])
        header, rows = _calc_rows(out_csv / f"{name}.xlsx")
        assert header == list(expected[0]), name
        assert _check_numeric(f"{name}.csv in Calc", expected, header, rows) > 0
        header, rows = _calc_rows(out_xlsx / f"{name}.xlsx")
        assert _check_numeric(f"{name}.xlsx in Calc", expected, [h.split(" (")[0] for h in header], rows) > 0


def test_the_batch_pdf_says_each_rows_status(api: Any, user: Any) -> None:
    from tests.sizing.test_reports import report_words

    result = run_batch(params={"csv": BATCH}, owner=user, progress=lambda done, total: None)
    job = Job.objects.create(owner=user, kind=JobKind.BATCH, params={"csv": BATCH}, status=JobStatus.SUCCEEDED,
                             result=result, task_id="t-batch-pdf")  # fmt: skip
    words = report_words(api, f"/api/v1/jobs/{job.pk}/report.pdf")
    assert "4 scenarios: 1 sized, 1 does not fit, 1 no CPU data (nothing can be sized), 1 refused" in words
    assert "6 sized" not in words and "4 sized" not in words
