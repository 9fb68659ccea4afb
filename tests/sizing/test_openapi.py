"""The OpenAPI 3 schema validates, documents every response, and the docs need no internet."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from drf_spectacular.validation import validate_schema

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(api: Any) -> dict[str, Any]:
    response = api.get("/api/schema/")
    assert response.status_code == 200
    return yaml.safe_load(response.content)


def test_schema_validates_as_openapi_3(schema: dict[str, Any]) -> None:
    assert schema["openapi"].startswith("3.")
    validate_schema(schema)  # drf-spectacular's bundled OpenAPI 3.0 JSON schema; raises on error


def test_every_operation_documents_its_responses(schema: dict[str, Any]) -> None:
    operations = 0
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            operations += 1
            codes = set(op["responses"])
            assert any(code.startswith("2") for code in codes), (method, path)
            if path.startswith("/api/v1/"):
                assert "401" in codes or "403" in codes or method == "get" and "200" in codes, (method, path)
            for code, response in op["responses"].items():
                assert response.get("description") is not None, (method, path, code)
    assert operations >= 12


def test_estimate_operations_document_errors(schema: dict[str, Any]) -> None:
    post = schema["paths"]["/api/v1/estimates/"]["post"]
    assert {"201", "400", "401", "429"} <= set(post["responses"])
    get = schema["paths"]["/api/v1/estimate"]["get"]
    assert {"200", "400", "401"} <= set(get["responses"])
    names = {p["name"] for p in get["parameters"]}
    assert {"path", "configuration", "machine", "tps", "cps", "ziips", "objective"} <= names
    # CSV is an operation of its own (issue 28): the same parameters, text/csv only.
    csv = schema["paths"]["/api/v1/estimate.csv"]["get"]
    assert {p["name"] for p in csv["parameters"]} == names
    assert list(csv["responses"]["200"]["content"]) == ["text/csv"]
    assert list(get["responses"]["200"]["content"]) == ["application/json"]
    objective = next(p for p in get["parameters"] if p["name"] == "objective")
    assert set(objective["schema"]["enum"]) >= {"least-msu", "fewest-cps", "fewest-engines"}
    # The answer documents what fits and the mix chosen (issue 22 items 3 and 4).
    answer = schema["components"]["schemas"]["EstimateAnswer"]["properties"]
    assert {"feasible", "feasibility", "objective", "alternative"} <= set(answer)


def test_interactive_docs_load_nothing_from_the_internet(api: Any) -> None:
    response = api.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    external = re.findall(r"""(?:src|href)=["'](https?://[^"']+)""", html)
    assert external == []
    assert "swagger-ui" in html


def test_schema_generates_without_warnings(tmp_path: Any) -> None:
    from django.core.management import call_command

    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    assert target.read_text().startswith("openapi: 3.")


def test_every_create_with_a_quota_documents_its_403(schema: dict[str, Any]) -> None:
    """Each create a quota refuses (sizing.services.quotas.QUOTAS: estimates, calibrations, plans,
    kept jobs, CEC configurations) documents the 403 with the quota's body."""
    from sizing.services.quotas import QUOTAS

    assert len(QUOTAS) >= 5
    for name in QUOTAS:
        post = schema["paths"][f"/api/v1/{name}/"]["post"]
        body = post["responses"]["403"]["content"]["application/json"]["schema"]
        refs = [b.get("$ref", "") for b in body.get("anyOf", [body])]  # with the CSRF 403's Error
        assert "#/components/schemas/QuotaExceeded" in refs, (name, body)
