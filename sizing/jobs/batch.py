"""``batch``: a CSV of scenarios in (one estimate per row), a CSV of answers out.

The header names estimate fields (``path``, ``configuration``, ``machine`` or ``model``, ``tps``
and any of the optional ones); each row is validated by the estimate's input form (the API's too) and sized by
``estimate_compute``, exactly as ``GET /api/v1/estimate`` would, and written with the header every
estimate CSV has (``sizing.services.estimate_csv``, docs/csv.md).  A bad row does not fail the
batch: its ``error`` column says what is wrong (field: reason) and its answer columns are empty.
Each row has a ``status`` (``sized``, ``does-not-fit``, ``no-cpu-data`` or ``refused``) and the
result counts each; a ``name`` column labels the rows (``estimate_name``).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from rest_framework import serializers

from sizing.jobs.base import Progress, json_result, json_safe, table
from sizing.records import EstimateInputs, EstimateRecord, FitAnswerRecord
from sizing.services.estimate_csv import FIT_HEADER, HEADER, UNITS, Subject, estimate_csv_row, spreadsheet_number
from sizing.services.estimate_inputs import EstimateInputSerializer, row_estimate_inputs
from sizing.services.estimates import estimate_answer_records
from sizing.services.fit import fit_compute
from sizing.services.fit_inputs import FitInputSerializer

#: Columns a batch must have (and one of TARGET_COLUMNS); the others of EstimateInputSerializer
#: are optional.
REQUIRED_COLUMNS = ("path", "configuration", "tps")
#: A row names its target by machine (with capacity_setting and cps) or by model (3931-510), or
#: asks which model fits in ``generations`` (``z16,z17``, ``all``; with no machine or model).
TARGET_COLUMNS = ("machine", "model", "generations")
OPTIONAL_COLUMNS = tuple(name for name in EstimateInputSerializer().fields.keys() if name not in REQUIRED_COLUMNS) + (
    "generations",
)


def csv_reader(text: str) -> Any:
    """A strict reader of ``text`` (BOM removed): broken quoting raises ``csv.Error``, never guessed."""
    return csv.reader(io.StringIO(text.lstrip("\ufeff")), strict=True)


def read_rows(text: str) -> tuple[list[str], Iterator[list[str]]]:
    """The header (lower-cased, trimmed, BOM removed) and the non-blank data rows of ``text``."""
    reader = csv_reader(text)
    header = [h.strip().lower() for h in next(reader, [])]
    rows = (row for row in reader if any(cell.strip() for cell in row))
    return header, rows


def _errors_text(detail: Any, prefix: str = "") -> str:
    if isinstance(detail, dict):
        return "; ".join(_errors_text(v, f"{k}: " if k != "non_field_errors" else "") for k, v in detail.items())
    if isinstance(detail, (list, tuple)):
        return prefix + " ".join(str(m) for m in detail)
    return prefix + str(detail)


def fit_row(*, owner: User, data: dict[str, str]) -> tuple[dict[str, Any], str]:
    """A "which model fits" row, answered as ``GET /api/v1/fit``: the cheapest model in MSU
    (``fit_*`` columns) and the cheapest of each generation (``fit_per_generation``)."""
    serializer = FitInputSerializer(data={k: v for k, v in data.items() if k in FitInputSerializer().fields})
    if not serializer.is_valid():
        return {}, _errors_text(serializer.errors)
    try:
        answer = fit_compute(user=owner, inputs=serializer.validated_data)
    except ValidationError as exc:
        return {}, _errors_text(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    fit = FitAnswerRecord.from_dict(answer)
    best = fit.best()
    per_gen = [f"{r.generation}: {r.model} ({r.cps} CPs, {r.msu:g} MSU)" for r in fit.rows if r.cheapest_in_generation]
    out: dict[str, Any] = {"fit_cheapest": best.model if best else None, "fit_per_generation": "; ".join(per_gen)}
    for key in ("machine", "capacity_setting", "cps", "ziips", "mips", "msu", "msu_used", "gcp_utilization",
                "saturation_tps"):  # fmt: skip
        out[f"fit_{key}"] = getattr(best, key) if best else None
    return out, "" if best else "no model of these generations carries this rate (see GET /api/v1/fit)"


def _row_data(values: dict[str, str]) -> dict[str, str]:
    return {k: v.strip() for k, v in values.items() if v is not None and v.strip() != ""}


def _asks_fit(data: dict[str, str]) -> bool:
    """A "which model fits" row: generations and no machine or model."""
    # the cells given (non-empty strings): "generations" without a machine or model asks which fits
    return "generations" in data and not {"machine", "model"} & data.keys()


def _checked(data: dict[str, str]) -> EstimateInputs | str:
    """An estimate row's inputs checked by the estimate's form, or the reason they are refused."""
    try:
        return row_estimate_inputs({k: v for k, v in data.items() if k != "generations"})
    except serializers.ValidationError as exc:
        return _errors_text(exc.detail)


def _outcome(record: EstimateRecord | Exception) -> tuple[dict[str, Any], str]:
    """A sized row's CSV cells, or its reason: a 400's fields, or the engine's message."""
    if isinstance(record, ValidationError):
        return {}, _errors_text(record.message_dict if hasattr(record, "error_dict") else record.messages)
    if isinstance(record, Exception):
        return {}, str(record)
    return estimate_csv_row(record), ""


#: A row's status (the ``status`` column), in the order the result counts them.
STATUSES = ("sized", "does-not-fit", "no-cpu-data", "refused")

#: One row's outcome: the cells as given (padded to the header), the answer's cells, the error.
Answer = tuple[list[str], dict[str, Any], str]

#: Rows sized together, their progress reported together: the rows of a slice that share a
#: prepared workload are evaluated at the array of their rates.
SLICE_ROWS = 500


def size_rows(*, header: list[str], rows: list[list[str]], owner: User, progress: Progress) -> list[Answer]:
    """Size every row as ``GET /api/v1/estimate`` would; a bad row gets its reason, not an error.

    Rows are checked one by one and sized by slices of :data:`SLICE_ROWS`
    (``estimate_answer_records``: the rows of a slice that share a prepared workload are
    evaluated together), in row order."""
    answers: list[Answer] = []
    for first in range(0, len(rows), SLICE_ROWS):
        part = rows[first : first + SLICE_ROWS]
        outcomes: list[tuple[dict[str, Any], str] | None] = [None] * len(part)
        asked: list[tuple[int, EstimateInputs]] = []
        for i, row in enumerate(part):
            data = _row_data(dict(zip(header, row + [""] * (len(header) - len(row)), strict=False)))
            if len(row) > len(header):
                outcomes[i] = {}, f"the row has {len(row)} cells but the header has {len(header)} columns"
            elif _asks_fit(data):
                outcomes[i] = fit_row(owner=owner, data=data)
            else:
                inputs = _checked(data)
                if isinstance(inputs, str):
                    outcomes[i] = {}, inputs
                else:
                    asked.append((i, inputs))
        records = estimate_answer_records(user=owner, inputs=[inputs for _, inputs in asked]) if asked else []
        for (i, _), record in zip(asked, records, strict=True):
            outcomes[i] = _outcome(record)
        for i, (row, outcome) in enumerate(zip(part, outcomes, strict=True)):
            assert outcome is not None
            answers.append((row[: len(header)] + [""] * (len(header) - len(row)), *outcome))
            progress(first + i + 1, len(rows))
    return answers


def _given(column: str, text: str) -> Any:
    """A cell as given, a number where its column holds numbers (``tps``, ``cps``...) and it reads
    as one: so that a spreadsheet has the number, as in the rows that were sized."""
    if UNITS.get(column) or UNITS.get(f"input_{column}"):
        try:
            value = float(text)
        except ValueError:
            return text
        return spreadsheet_number(value) if math.isfinite(value) else text
    return text


def batch_result(*, header: list[str], answers: list[Answer]) -> dict[str, Any]:
    """The batch's result from its rows' outcomes, in row order (also how a split batch is
    assembled from its chunks, ``sizing.services.batch_chunks``).

    Its table has the header every estimate CSV has (``estimate_csv.HEADER``), and the ``fit_*``
    columns after it where a row asks which model fits; a row's inputs as given stand in the
    input columns where it could not be sized."""
    with_fit = "generations" in header
    columns = [*HEADER, *(FIT_HEADER if with_fit else ())]
    table_rows = []
    counts = dict.fromkeys(STATUSES, 0)
    for n, (given, answer, error) in enumerate(answers, 1):
        cells = dict(answer)
        if error:
            cells["status"] = "refused"
        elif "cps_required" not in cells:  # a "which model fits" row: sized when a model carries it
            cells["status"] = "sized"
        if "cps_required" not in cells:  # a bad row, or a "which model fits" row: the inputs as given
            given_inputs = {k: _given(k, v) for k, v in zip(header, given, strict=False) if v.strip()}
            subject = Subject(inputs=given_inputs, estimate_name=given_inputs.get("name"))
            cells = {**estimate_csv_row(subject, with_fit=with_fit), **cells}
        cells.update(row=n, error=error or None)
        # a chunk stored before rows had a status: an answered row counts as sized
        cells["status"] = cells.get("status") or "sized"
        counts[str(cells["status"])] += 1
        if "cps_required" in answer:  # an estimate's cells (estimate_csv_row): spreadsheet numbers already
            table_rows.append([v if type(v := cells.get(c)) in _PLAIN_CELLS else _json_cell(v) for c in columns])
        else:
            table_rows.append([_json_cell(spreadsheet_number(cells.get(c))) for c in columns])
    result = json_result(
        {
            "kind": "batch",
            "rows": len(answers),
            # every row with an answer (sized, does not fit, no CPU data); refused rows are failed
            "succeeded": len(answers) - counts["refused"],
            "failed": counts["refused"],
            "counts": counts,
        }
    )
    # the table's cells made JSON-safe one by one above (json_result's walk, without asking a
    # plain cell more than its type)
    result["table"] = table(columns, table_rows)
    return result


#: A cell of these types is JSON as it is.
_PLAIN_CELLS = frozenset((str, int, bool, type(None)))


def _json_cell(value: Any) -> Any:
    """A cell as :func:`~sizing.jobs.base.json_safe` makes it, a plain one without the walk."""
    kind = type(value)
    if kind in _PLAIN_CELLS:
        return value
    if kind is float:
        return value if math.isfinite(value) else None
    return json_safe(value)


def run_batch(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    header, rows = read_rows(params["csv"])
    answers = size_rows(header=header, rows=list(rows), owner=owner, progress=progress)
    if "chunk" in params:
        # One chunk of a batch split across workers: its rows' outcomes, which the batch's
        # assemble step puts in row order (sizing.services.batch_chunks).
        # Each answer as [column, value] pairs: a JSON object would lose the column order.
        parts = [[given, list(answer.items()), error] for given, answer, error in answers]
        return json_result({"kind": "batch-chunk", "chunk": params["chunk"], "answers": parts})
    return batch_result(header=header, answers=answers)
