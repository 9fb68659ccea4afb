"""List parameters are bounded with a 400 naming the bound (issue 24, item 7), so that no
legitimate request comes near the server's request-line limit; a request line over that limit
is answered in JSON (414), not with gunicorn's HTML page.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from rest_framework import serializers

from sizing.services.estimate_inputs import EstimateInputSerializer
from sizing.services.fit_inputs import FitInputSerializer, UpgradeInputSerializer
from sizing.services.list_inputs import MAX_GENERATIONS, MAX_LISTED_IDS, MAX_UPGRADE_TARGETS
from tests.private_services import free_port, stop_process, wait_port

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]
ZOSCONNECT = {"path": "zosconnect-cics", "configuration": "channel", "machine": "z13", "cps": 6, "tps": 800}
FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region", "tps": 8000}


def _gunicorn_limit() -> int:
    """``limit_request_line`` as config/gunicorn.py sets it (the file gunicorn is started with)."""
    namespace: dict[str, Any] = {}
    exec((REPO / "config" / "gunicorn.py").read_text(encoding="utf-8"), namespace)  # noqa: S102 - our own settings file
    return int(namespace["limit_request_line"])


# -- the bounds -----------------------------------------------------------------------------------


def test_upgrade_targets_over_the_bound_are_a_400_naming_it(api: Any) -> None:
    # The request: 2,000 targets.
    many = api.get("/api/v1/upgrade", {**ZOSCONNECT, "targets": ",".join(["z16"] * 2000)})
    assert many.status_code == 400
    assert many.json() == {"targets": [f"At most {MAX_UPGRADE_TARGETS} targets; got 2,000."]}
    # One over the bound is refused; the bound itself is answered.
    targets = ["z17", "z16", "z15", "z14", "3931-510", "3931-610", "3931-710"]
    over = api.get("/api/v1/upgrade", {**ZOSCONNECT, "targets": ",".join(targets[: MAX_UPGRADE_TARGETS + 1])})
    assert over.json() == {"targets": [f"At most {MAX_UPGRADE_TARGETS} targets; got {MAX_UPGRADE_TARGETS + 1}."]}
    at = api.get("/api/v1/upgrade", {**ZOSCONNECT, "targets": ",".join(targets[:MAX_UPGRADE_TARGETS])})
    assert at.status_code == 200, at.json()
    assert len(at.json()["columns"]) == MAX_UPGRADE_TARGETS + 1  # today's machine first


def test_fit_generations_over_the_bound_are_a_400_naming_it(api: Any) -> None:
    response = api.get("/api/v1/fit", {**FITEQ, "generations": ",".join(["z16"] * (MAX_GENERATIONS + 1))})
    assert response.status_code == 400
    assert response.json() == {"generations": [f"At most {MAX_GENERATIONS} generations; got {MAX_GENERATIONS + 1}."]}


def test_estimate_list_ids_over_the_bound_are_a_400_naming_it(api: Any) -> None:
    ids = ",".join(str(i) for i in range(1, MAX_LISTED_IDS + 2))
    response = api.get("/api/v1/estimates/", {"ids": ids})
    assert response.status_code == 400
    assert response.json() == {"ids": [f"At most {MAX_LISTED_IDS} ids; got {MAX_LISTED_IDS + 1}."]}
    assert api.get("/api/v1/estimates/", {"ids": ids.rsplit(",", 1)[0]}).status_code == 200


@pytest.mark.parametrize(
    ("kind", "params", "field", "bound"),
    [
        # sizing/api/job_serializers.py: MAX_CURVE_CPS, MAX_CLIENT_COUNTS, MAX_WORKLOADS.
        ("curve", {**FITEQ, "machine": "z13", "cps_list": list(range(1, 42))}, "cps_list", 40),
        ("closed", {**ZOSCONNECT, "think_time_s": 1, "clients": [1] * 201}, "clients", 200),
        ("mix", {"machine": "z13", "workloads": [{**FITEQ, "tps": 1}] * 21}, "workloads", 20),
    ],
)
def test_job_lists_over_their_bound_are_a_400_naming_it(
    api: Any, kind: str, params: dict[str, Any], field: str, bound: int
) -> None:
    response = api.post("/api/v1/jobs/", {"kind": kind, "params": params}, format="json")
    assert response.status_code == 400
    assert str(bound) in json.dumps(response.json()["params"][field])


# -- the longest legitimate request line ----------------------------------------------------------


def _longest_query(serializer: serializers.Serializer[Any]) -> str:
    """Every parameter of ``serializer`` at its longest legitimate text: slugs and lists (ASCII,
    as every known slug, machine and model is) at their max_length, the free-text ``name`` at
    its max_length in 4-byte characters (12 bytes each once percent-encoded), every number as
    the longest repr of a float64 (24 characters: -1.2345678901234567e+300)."""
    params = {}
    for name, field in serializer.fields.items():
        if isinstance(field, serializers.CharField):
            assert field.max_length is not None, f"{name} has no max_length"
            params[name] = ("\U0001f600" if name == "name" else "x") * field.max_length
        else:
            params[name] = "-1.2345678901234567e+300"
    return urlencode(params, quote_via=quote)


@pytest.mark.parametrize(
    ("url", "serializer"),
    [
        ("/api/v1/estimate", EstimateInputSerializer()),
        ("/api/v1/fit", FitInputSerializer()),
        ("/api/v1/upgrade", UpgradeInputSerializer()),
    ],
)
def test_the_longest_legitimate_request_line_is_under_half_the_servers_limit(url: str, serializer: Any) -> None:
    line = f"GET {url}?{_longest_query(serializer)} HTTP/1.1"
    assert len(line.encode()) < _gunicorn_limit() / 2, len(line)


# -- over the limit: JSON, not HTML ---------------------------------------------------------------


def test_a_request_line_over_gunicorns_limit_is_a_json_414(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "WEB_CONCURRENCY": "1"}
    command = [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi:application"]
    with (tmp_path / "gunicorn.log").open("ab") as log:
        process = subprocess.Popen(
            [*command, "--bind", f"127.0.0.1:{port}"], cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        wait_port(port, timeout=60)
        # The request: an upgrade comparison with 2,000 targets (about 18,000 bytes).
        query = urlencode({**ZOSCONNECT, "targets": ",".join(["3931-710"] * 2000)})
        request = f"GET /api/v1/upgrade?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n"
        assert len(request) > _gunicorn_limit()
        with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
            conn.sendall(request.encode())
            raw = b""
            while chunk := conn.recv(65536):
                raw += chunk
        head, _, body = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, v in (h.split(":", 1) for h in lines[1:])}
        assert lines[0] == "HTTP/1.1 414 URI Too Long"
        assert headers["content-type"] == "application/json"
        doc = json.loads(body)
        assert doc["code"] == "request_line_too_long"
        assert f"{_gunicorn_limit():,} bytes" in doc["detail"] and "docs/api-input.md" in doc["detail"]
    finally:
        stop_process(process)
