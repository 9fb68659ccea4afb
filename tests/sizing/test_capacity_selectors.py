"""The capacity table and engine rules as the engine receives them, and their read-only API."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sizing.selectors.capacity import capacity_table, engine_rules, machine_generations

pytestmark = pytest.mark.django_db


def test_capacity_table_holds_every_model_and_full_speed_ratings() -> None:
    table = capacity_table()
    assert len(table.settings) == 2487  # rows of lspr_zpcr_configuration_summary.csv
    # Full speed is 700 on 4xx..7xx machines, the fastest letter (Z00) on midrange ones.
    assert table.full_speed_setting["3931"] == "700"
    assert table.full_speed_setting["3932"] == "Z00"
    assert table.full_speed_setting["9176"] == "Z00"
    # CSV rows: 3931-710,3931,z16,IBM Z z16/700,700,10,...; 3931-510 the 5xx setting.
    r710 = table.ratings[("3931", 10)]
    assert (r710.model, r710.capacity_setting, r710.generation) == ("3931-710", "700", "z16")
    assert table.settings[("3931", "700", 10)] == r710
    r510 = table.settings[("3931", "500", 10)]
    assert r510.model == "3931-510" and r510.mips < r710.mips
    # The 120 ratings the engine used before are unchanged: 2964-718 = 21579 MIPS, 2584 MSU.
    assert (table.ratings[("2964", 18)].mips, table.ratings[("2964", 18)].msu) == (21579, 2584)
    assert table.source.startswith("IBM LSPR multi-image ratings")


def test_engine_rules_map_every_rated_machine_type() -> None:
    rules = engine_rules()
    generations = machine_generations()
    assert generations["9175"] == generations["9176"] == "z17"
    assert generations["2097"] == "z10 EC"
    for machine_type in {mt for mt, _ in capacity_table().ratings}:
        assert generations[machine_type] in rules
    assert rules["z10 EC"].java_engine == "zaap" and rules["z17"].java_engine == "ziip"
    assert rules["z17"].zaaps_per_cp is None
    assert rules["z13s"].reference.startswith("IBM z13s Technical Guide, SG24-8294-00")
    assert rules["z16"].statement_id is not None


def test_engine_rules_api_lists_rules_with_sources(api) -> None:  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as queries:
        response = api.get("/api/v1/engine-rules/")
    assert response.status_code == 200
    assert len(queries) <= 3  # token auth + one select with the source joined
    by_generation = {r["generation"]: r for r in response.json()}
    assert by_generation["z13s"]["ziips_per_cp"] == 2
    assert by_generation["z16"]["unconfirmed"] == ["ziips_per_cp"]
    assert by_generation["z16"]["references"][0]["url"].startswith("http")
    assert api.post("/api/v1/engine-rules/", {}).status_code == 405


def test_capacity_ratings_api_filters_by_type_generation_setting_and_cps(api) -> None:  # type: ignore[no-untyped-def]
    response = api.get("/api/v1/capacity-ratings/", {"type": "9176", "setting": "D00", "cps": 5})
    assert response.status_code == 200
    rows = response.json()["results"]
    # CSV: 9176-D05 is one row of the export.
    assert [r["model"] for r in rows] == ["9176-D05"]
    assert rows[0]["generation"] == "z17" and rows[0]["capacity_setting"] == "D00"
    z16 = api.get("/api/v1/capacity-ratings/", {"generation": "z16", "setting": "700"}).json()
    assert z16["count"] == 200  # z16 A01 7xx rows in the export (1..200 CPs)
    bad = api.get("/api/v1/capacity-ratings/", {"setting": "800"})
    assert bad.status_code == 400 and "setting" in bad.json()
