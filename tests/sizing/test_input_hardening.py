"""Input hardening across the API (issue 12, item 5): every refusal is a JSON 400 or 413 that names
the problem, nothing is stored, and every CSV the tool writes is safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.conf import settings

from sizing.api.parsers import MAX_JSON_DEPTH
from sizing.api.renderers import escape_cell
from sizing.jobs.batch import run_batch
from sizing.models import Estimate, Job, JobStatus

pytestmark = pytest.mark.django_db

FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": 5000}
BATCH_HEADER = "path,configuration,machine,tps,cps\n"


def _json(response: Any) -> dict[str, Any]:
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    return dict(json.loads(response.content))


def _post_raw(api: Any, url: str, body: bytes, content_type: str = "application/json") -> Any:
    return api.generic("POST", url, body, content_type=content_type)


# -- unknown fields ------------------------------------------------------------------------------


def test_a_misspelt_field_in_an_estimate_is_a_400_naming_it_and_nothing_is_stored(api: Any) -> None:
    response = api.post("/api/v1/estimates/", {**FITEQ, "cpz": 4}, format="json")
    assert response.status_code == 400
    body = _json(response)
    assert list(body) == ["cpz"] and body["cpz"][0].startswith("Unknown field. Allowed: path, configuration")
    assert Estimate.objects.count() == 0


def test_an_unknown_query_parameter_of_the_estimate_is_a_400_naming_it(api: Any) -> None:
    response = api.get("/api/v1/estimate", {**FITEQ, "ziip": 2})
    assert response.status_code == 400 and "ziip" in _json(response)
    assert api.get("/api/v1/estimate", {**FITEQ, "format": "json"}).status_code == 200  # format is the renderer's


def test_an_unknown_key_beside_kind_and_params_of_a_job_is_a_400(api: Any) -> None:
    response = api.post("/api/v1/jobs/", {"kind": "curve", "params": {}, "priority": 1}, format="json")
    assert response.status_code == 400 and "priority" in _json(response)
    assert Job.objects.count() == 0


# -- NUL bytes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/points/?path=fiteq%00",
        "/api/v1/models/?path=%00",
        "/api/v1/estimates/?machine=z13%00",
        "/api/v1/statements/?source=%00",
        "/api/v1/capacity-ratings/?model=%00",
        "/api/v1/estimate?path=%00&configuration=x&machine=z13&tps=1",
    ],
)
def test_a_nul_byte_in_a_query_parameter_is_a_400_naming_the_parameter(api: Any, url: str) -> None:
    response = api.get(url)
    assert response.status_code == 400
    name = url.split("?")[1].split("=")[0]
    assert "NUL" in _json(response)[name][0]


def test_a_nul_byte_in_the_url_path_is_a_400(api: Any) -> None:
    response = api.get("/api/v1/paths/fiteq%00/")
    assert response.status_code == 400 and "NUL" in _json(response)["detail"]


def test_a_nul_character_in_a_json_string_or_key_is_a_400_naming_where(api: Any) -> None:
    response = api.post("/api/v1/estimates/", {**FITEQ, "name": "a\x00b"}, format="json")
    assert response.status_code == 400 and "$.name contains a NUL" in _json(response)["detail"]
    response = api.post("/api/v1/jobs/", {"kind": "curve", "params": {"pa\x00th": 1}}, format="json")
    assert response.status_code == 400 and "NUL" in _json(response)["detail"]
    assert Estimate.objects.count() == Job.objects.count() == 0


# -- deep JSON, NaN and Infinity -----------------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 1000, 100_000])
def test_json_nested_deeper_than_the_limit_is_a_400(api: Any, depth: int) -> None:
    nested = "[" * depth + "]" * depth
    body = f'{{"kind": "curve", "params": {{"cps_list": {nested}}}}}'.encode()
    response = _post_raw(api, "/api/v1/jobs/", body)
    assert response.status_code == 400
    assert "nested too deeply" in _json(response)["detail"] and str(MAX_JSON_DEPTH) in _json(response)["detail"]


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_literals_are_a_400_that_says_so(api: Any, literal: str) -> None:
    body = f'{{"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": {literal}}}'
    response = _post_raw(api, "/api/v1/estimates/", body.encode())
    assert response.status_code == 400
    assert _json(response)["detail"] == (
        f"JSON parse error: {literal} is not a number JSON allows; send a finite number or null."
    )


# -- size and encoding ---------------------------------------------------------------------------


def test_a_body_over_the_limit_is_a_413_in_json(api: Any) -> None:
    body = b'{"name": "' + b"x" * (5 * 1024 * 1024) + b'"}'
    response = _post_raw(api, "/api/v1/estimates/", body)
    assert response.status_code == 413
    limit = f"{settings.ZSIZER_MAX_BODY_BYTES:,}"
    assert _json(response)["detail"] == f"The request body is {len(body):,} bytes; the limit is {limit} bytes."


def test_a_body_that_is_not_valid_utf8_is_a_400(api: Any) -> None:
    response = _post_raw(api, "/api/v1/estimates/", b'{"name": "caf\xe9"}')
    assert response.status_code == 400 and "not valid utf-8" in _json(response)["detail"]


def test_an_unknown_charset_is_a_400(api: Any) -> None:
    response = _post_raw(api, "/api/v1/estimates/", b"{}", content_type="application/json; charset=klingon")
    assert response.status_code == 400 and "klingon" in _json(response)["detail"]


def test_a_form_body_with_an_unknown_charset_is_a_400(api: Any) -> None:
    response = _post_raw(api, "/api/v1/estimates/", b"tps=1", "application/x-www-form-urlencoded; charset=nope")
    assert response.status_code == 400 and "nope" in _json(response)["detail"]


# -- form and multipart bodies: as strict as JSON (issue 24, item 6) ----------------------------

FORM = "application/x-www-form-urlencoded"


def _form(**fields: Any) -> bytes:
    from urllib.parse import urlencode

    return urlencode(fields).encode()


def test_a_raw_invalid_utf8_form_body_gets_the_json_bodys_answer(api: Any) -> None:
    body = _form(**FITEQ) + b"&name=\xff\xfe"
    as_form = _post_raw(api, "/api/v1/estimates/", body, FORM)
    as_json = _post_raw(api, "/api/v1/estimates/", body)  # the same bytes, said to be JSON
    assert as_form.status_code == as_json.status_code == 400
    offset = body.index(b"\xff")
    assert _json(as_form) == _json(as_json) == {"detail": f"The body is not valid utf-8: bad byte at offset {offset}."}
    assert Estimate.objects.count() == 0


@pytest.mark.parametrize(
    ("tail", "expected"),
    [
        # The body; Latin-1 "café" (é = 0xe9, the fourth byte of the value); a bad name.
        (b"&name=%ff%fe", "The form field 'name' is not valid utf-8: bad byte at offset 0."),
        (b"&name=caf%e9", "The form field 'name' is not valid utf-8: bad byte at offset 3."),
        (b"&%ff=1", "A form field name is not valid utf-8: bad byte at offset 0."),
    ],
)
def test_a_percent_encoded_invalid_utf8_form_field_is_a_400_naming_it(api: Any, tail: bytes, expected: str) -> None:
    response = _post_raw(api, "/api/v1/estimates/", _form(**FITEQ) + tail, FORM)
    assert response.status_code == 400
    assert _json(response) == {"detail": expected}
    assert Estimate.objects.count() == 0


def test_a_nul_in_a_form_field_is_a_400_as_in_json(api: Any) -> None:
    response = _post_raw(api, "/api/v1/estimates/", _form(**FITEQ) + b"&name=a%00b", FORM)
    assert response.status_code == 400
    assert _json(response) == {"detail": "The form field 'name' contains a NUL character, which no field accepts."}
    assert Estimate.objects.count() == 0


def _multipart(fields: list[tuple[bytes, bytes]], boundary: bytes = b"zsizer-boundary") -> tuple[bytes, str]:
    parts = [
        b"--" + boundary + b'\r\nContent-Disposition: form-data; name="' + name + b'"\r\n\r\n' + value + b"\r\n"
        for name, value in fields
    ]
    return b"".join(parts) + b"--" + boundary + b"--\r\n", f"multipart/form-data; boundary={boundary.decode()}"


def test_an_invalid_utf8_multipart_field_is_a_400_naming_it(api: Any) -> None:
    good = [(k.encode(), str(v).encode()) for k, v in FITEQ.items()]
    body, content_type = _multipart([*good, (b"name", b"\xff\xfe")])
    response = _post_raw(api, "/api/v1/estimates/", body, content_type)
    assert response.status_code == 400
    assert _json(response) == {"detail": "The multipart field 'name' is not valid utf-8: bad byte at offset 0."}
    assert Estimate.objects.count() == 0
    # The same request with valid text is refused as a media type the API does not read (JSON only).
    body, content_type = _multipart([*good, (b"name", "café".encode())])
    refused = _post_raw(api, "/api/v1/estimates/", body, content_type)
    assert refused.status_code == 415, refused.content
    assert "multipart/form-data" in _json(refused)["detail"]
    assert Estimate.objects.count() == 0


def test_a_valid_form_body_is_a_415_the_api_reads_json(api: Any) -> None:
    """The API's bodies are JSON (issue 28: one media type per body, as the schema declares it;
    the pages post JSON or to their own views)."""
    for path in ("/api/v1/estimates/", "/api/v1/jobs/", "/api/v1/plans/", "/api/v1/calibrations/"):
        response = _post_raw(api, path, _form(**FITEQ, name="café"), FORM)
        assert response.status_code == 415, response.content
        assert "application/x-www-form-urlencoded" in _json(response)["detail"]
    assert Estimate.objects.count() == 0
    assert _post_raw(api, "/api/v1/estimates/", json.dumps({**FITEQ, "name": "café"}).encode()).status_code == 201


# -- CSV in --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (BATCH_HEADER + 'fiteq-authenticator,"multi"-region,z13,10,\n', 2),
        (BATCH_HEADER + 'fiteq-authenticator,multi-region,z13,10,\ncicstg,"ipic,z10,10,\ncicstg,x,z10,1,\n', 3),
    ],
)
def test_a_batch_with_broken_csv_quoting_is_a_400_with_its_line(api: Any, text: str, line: int) -> None:
    response = api.post("/api/v1/jobs/", {"kind": "batch", "params": {"csv": text}}, format="json")
    assert response.status_code == 400
    message = _json(response)["params"]["csv"][0]
    assert message.startswith(f"Broken CSV quoting in the record that starts on line {line} ")
    assert Job.objects.count() == 0


# -- CSV out -------------------------------------------------------------------------------------


def test_formula_cells_are_escaped_and_numbers_are_not() -> None:
    for cell in ("=1+1", "+cmd", "-cmd", "@SUM(A1)", "\tx", "\rx", "-", "+"):
        assert escape_cell(cell) == "'" + cell
    for cell in (-0.5, -12, 3, "-12", "+3.5e2", "-.5", "fiteq", "a=b", None):
        assert escape_cell(cell) == ("" if cell is None else cell)


def test_a_batch_result_csv_escapes_formula_cells_the_rows_echo(api: Any, user: Any) -> None:
    formulas = ['=HYPERLINK("http://example.invalid","x")', "+SUM(1;2)", "@cmd", "-2+3"]
    lines = [f'"{f.replace(chr(34), chr(34) * 2)}",multi-region,z13,100,' for f in formulas]
    text = BATCH_HEADER + "\n".join([*lines, "fiteq-authenticator,multi-region,z13,-100,"]) + "\n"
    result = run_batch(params={"csv": text}, owner=user, progress=lambda done, total: None)
    job = Job.objects.create(owner=user, kind="batch", params={"csv": text}, status=JobStatus.SUCCEEDED, result=result)
    response = api.get(f"/api/v1/jobs/{job.pk}/result.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["path"] for r in rows[:4]] == ["'" + f for f in formulas]
    assert rows[4]["tps"] == "-100"  # a negative number stays a number
    assert rows[4]["error"].startswith("tps:")
    for row in rows:
        for value in row.values():
            assert not value.startswith(("=", "+", "@", "\t", "\r")), row
            assert not value.startswith("-") or value.lstrip("-").replace(".", "", 1).isdigit(), row


def test_an_error_is_json_when_csv_was_asked_for(api: Any, user: Any) -> None:
    job = Job.objects.create(owner=user, kind="batch", params={}, status=JobStatus.QUEUED)
    response = api.get(f"/api/v1/jobs/{job.pk}/result.csv")
    assert response.status_code == 409 and "has no result table" in _json(response)["detail"]
    response = api.get("/api/v1/estimate", {**FITEQ, "tps": -1, "format": "csv"})
    assert response.status_code == 400 and "tps" in _json(response)


def test_a_url_no_route_matches_is_a_json_404_under_the_api(api: Any) -> None:
    response = api.get("/api/v1/jobs/1.5/")
    assert response.status_code == 404 and _json(response)["detail"].startswith("Not found")
