"""A batch's rows that share a prepared workload are sized together (issue 28 item 4): the
result is the one the rows give one at a time, in row order, with each bad row's own reason,
the same counts, and every answer kept in the answer cache as an estimate keeps it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from sizing.jobs import RUNNERS
from sizing.jobs.batch import run_batch
from sizing.selectors import fitted
from sizing.services.reference_version import bump_reference_version

pytestmark = pytest.mark.django_db

#: Rows of three workloads interleaved, rates repeated, with the answers that are not a plain
#: fit (does not fit, overloaded on the CPs given, a lower bound, no CPU data), a model that
#: fits, and rows refused by the form, by the catalogue and by the engine.
ROWS = [
    "fiteq-authenticator,multi-region,z13,5000,,,",
    "cicstg,ipic-channel-64,z17,1000,,,",
    "fiteq-authenticator,multi-region,z13,10000,,,",  # the software station binds: does not fit
    "zosconnect-cics,channel,zec12,800,,262144,",  # the published upper cost: a lower bound
    "cicstg,ipic-channel-64,z17,1000,,,",  # a repeated row
    "fiteq-authenticator,multi-region,z13,-5,,,",  # refused by the form
    "hostbridge-http,default-tcpip,z16,20,,,",  # no CPU data
    "cicstg,ipic-channel-64,z17,2500.5,,,",
    "fiteq-authenticator,multi-region,z13,3100,4,,",  # CPs given: its own group
    "fiteq-authenticator,multi-region,z13,9000,4,,",  # overloaded on the 4 CPs given
    "no-such-path,multi-region,z13,5000,,,",  # refused by the catalogue
    "cicstg,ipic-channel-64,z17,1000,9999,,",  # refused by the engine: an unrated count
    "fiteq-authenticator,multi-region,z13,700,,,",
    "zosconnect-cics,channel,zec12,200,,262144,",
    "cicstg,ipic-channel-64,,1500,,,z16",  # which model fits
]
HEADER = "path,configuration,machine,tps,cps,payload_bytes,generations"


def _batch(rows: list[str], user: Any) -> dict[str, Any]:
    calls: list[tuple[float, float]] = []
    result = run_batch(
        params={"csv": "\n".join([HEADER, *rows])}, owner=user, progress=lambda d, t: calls.append((d, t))
    )
    assert calls[-1] == (len(rows), len(rows))
    return result


def _cells(result: dict[str, Any]) -> list[dict[str, Any]]:
    columns = result["table"]["columns"]
    return [{k: v for k, v in zip(columns, row, strict=True) if k != "row"} for row in result["table"]["rows"]]


def test_grouped_rows_equal_the_rows_one_at_a_time(user: Any) -> None:
    alone = [_cells(_batch([row], user))[0] for row in ROWS]  # each row sized on its own
    with transaction.atomic():
        bump_reference_version()  # nothing cached: the batch computes every answer again
    result = _batch(ROWS, user)
    assert _cells(result) == alone
    at = result["table"]["columns"].index("row")
    assert [row[at] for row in result["table"]["rows"]] == list(range(1, len(ROWS) + 1))
    statuses = [row["status"] for row in alone]
    assert statuses.count("refused") == 3
    assert result["counts"] == {s: statuses.count(s) for s in ("sized", "does-not-fit", "no-cpu-data", "refused")}
    assert (result["rows"], result["succeeded"], result["failed"]) == (len(ROWS), len(ROWS) - 3, 3)
    cells = _cells(result)
    assert "Unknown path 'no-such-path'" in cells[10]["error"]
    assert cells[5]["error"].startswith("tps:")
    assert cells[11]["error"].startswith("cps:")  # the engine's own field, for this row only
    assert cells[2]["status"] == "does-not-fit" and cells[9]["status"] == "does-not-fit"
    assert cells[6]["status"] == "no-cpu-data"
    assert cells[3]["saturation_kind"] == "lower-bound"


def test_a_repeated_batch_is_answered_from_the_cache(user: Any) -> None:
    first = _batch(ROWS, user)
    kept = len(fitted._store.answers)
    again = RUNNERS["batch"](params={"csv": "\n".join([HEADER, *ROWS])}, owner=user, progress=lambda d, t: None)
    assert again == first
    assert len(fitted._store.answers) == kept  # every answer was found, none computed again
