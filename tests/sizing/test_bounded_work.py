"""Every request's work is bounded and linear, and its refusal is short (issue 31, item 1).

The batch CSV header was checked by counting each column against every other one
(``header.count(c)``): 200,000 columns (a 1.2 MB body, inside every limit) took over 120 s, and
the refusal quoted every unknown name (20,000 names: a 189 KB answer).
"""

from __future__ import annotations

import json
import time
from typing import Any

from sizing.api.job_serializers import ERROR_NAMES_SHOWN, MAX_BATCH_COLUMNS, MAX_BATCH_ROWS
from sizing.jobs.batch import OPTIONAL_COLUMNS, REQUIRED_COLUMNS
from sizing.models import Job

ROW = "fiteq-authenticator,multi-region,z13,10\n"
HEADER = "path,configuration,machine,tps\n"


def _batch(api: Any, text: str) -> Any:
    return api.post("/api/v1/jobs/", {"kind": "batch", "params": {"csv": text}}, format="json")


def _message(response: Any) -> str:
    assert response.status_code == 400, response.content
    return str(json.loads(response.content)["params"]["csv"][0])


def test_a_200000_column_header_is_refused_at_once_with_a_short_body(api: Any) -> None:
    header = ",".join(f"c{i}" for i in range(200_000))
    assert len(header) > 1_200_000  # the 1.2 MB body
    # This process's CPU time (the test client serves in-process), not the wall clock: a loaded
    # machine makes the request wait for a core, not work more.
    started = time.process_time()
    response = _batch(api, header + "\n" + ROW)
    elapsed = time.process_time() - started
    message = _message(response)
    assert message == (
        f"The header has 200,000 columns; at most {MAX_BATCH_COLUMNS} are read "
        f"(a batch takes {len(REQUIRED_COLUMNS + OPTIONAL_COLUMNS)} named columns)."
    )
    assert len(response.content) < 500
    # A generous bound (the quadratic check took over 120 s of CPU): parsing 1.2 MB once is well inside it.
    assert elapsed < 10, elapsed
    assert Job.objects.count() == 0


def test_unknown_columns_are_named_first_few_and_the_rest_counted(api: Any) -> None:
    unknown = [f"extra{i}" for i in range(MAX_BATCH_COLUMNS - 4)]
    response = _batch(api, HEADER.strip() + "," + ",".join(unknown) + "\n" + ROW)
    message = _message(response)
    shown = ", ".join(repr(n) for n in unknown[:ERROR_NAMES_SHOWN])
    assert f"Unknown column(s) {shown} and {len(unknown) - ERROR_NAMES_SHOWN:,} more (allowed: path," in message
    assert "'extra5'" not in message
    assert len(response.content) < 2000


def test_repeated_columns_are_named_once_each(api: Any) -> None:
    response = _batch(api, "path,configuration,machine,tps,tps,cps,cps,cps\n" + ROW)
    assert _message(response) == "Repeated column(s) 'cps', 'tps'."


def test_a_row_wider_than_the_cap_is_refused_with_its_line(api: Any) -> None:
    wide = ROW.strip() + "," * MAX_BATCH_COLUMNS + "\n"
    assert _message(_batch(api, HEADER + ROW + wide)) == (
        f"Line 3 has {MAX_BATCH_COLUMNS + 4:,} cells; at most {MAX_BATCH_COLUMNS} are read."
    )


def test_too_many_rows_are_refused_without_reading_past_the_cap(api: Any) -> None:
    message = _message(_batch(api, HEADER + ROW * (MAX_BATCH_ROWS + 1)))
    assert message == f"At most {MAX_BATCH_ROWS} rows per batch; this one has more."


def test_a_hundred_thousand_unknown_fields_are_named_first_few_and_counted(api: Any) -> None:
    body = {f"x{i}": 1 for i in range(100_000)}
    response = api.post("/api/v1/estimates/", body, format="json")
    assert response.status_code == 400
    errors = json.loads(response.content)
    named = [k for k in errors if k.startswith("x")]
    assert len(named) == ERROR_NAMES_SHOWN
    assert errors["non_field_errors"] == [f"{100_000 - ERROR_NAMES_SHOWN:,} more unknown fields."]
    assert len(response.content) < 5000


def test_a_list_longer_than_its_bound_is_refused_before_its_entries_are_read(api: Any) -> None:
    params = {"path": "zosconnect-cics", "configuration": "channel", "machine": "z13", "cps": 6}
    clients = ["x"] * 200_000  # entries that would each be an error if read
    response = api.post(
        "/api/v1/jobs/",
        {"kind": "closed", "params": {**params, "think_time_s": 0.5, "clients": clients}},
        format="json",
    )
    assert response.status_code == 400
    assert json.loads(response.content)["params"]["clients"] == ["Ensure this field has no more than 200 elements."]
