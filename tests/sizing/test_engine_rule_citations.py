"""The loaded engine rules carry their citations, engine limits and alternatives (issue 22 item 6),
and the new seed-derived statements load with their quotes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.core.management import CommandError, call_command

from sizing.models import EngineRule, Statement
from sizing.selectors.capacity import engine_rules_for

pytestmark = pytest.mark.django_db


def _rules() -> dict[str, EngineRule]:
    return {r.generation: r for r in EngineRule.objects.all()}


def _refs(rule: EngineRule) -> dict[str, dict[str, object]]:
    return {str(r["key"]): r for r in rule.references}


def test_zec12_and_zbc12_are_sized_at_2_to_1_unconfirmed_with_the_1_to_1_alternative() -> None:
    # Issue 32 item 5: GA2's 2:1 (2013) in force, GA1's 1:1 (z/OS V2R1 pages) the alternative;
    # no stored IBM document states 2:1, so it stays unconfirmed.
    rules = _rules()
    for generation in ("zEC12", "zBC12"):
        rule = rules[generation]
        assert rule.ziips_per_cp == 2 and rule.zaaps_per_cp == 2
        assert sorted(rule.unconfirmed) == ["zaaps_per_cp", "ziips_per_cp"]
        assert rule.alternatives == {"ziips_per_cp": 1, "zaaps_per_cp": 1}
        # The z/OS V2R1 WLM page now supports only the one-CP-per-LPAR rule for these machines.
        assert _refs(rule)["zos-wlm-ziip"]["supports"] == ["min_cps_per_lpar"]
        assert "zBC12" in rule.notes and "July 2013" in rule.notes
    assert "GA2" in rules["zEC12"].notes and "driver level" in rules["zEC12"].notes


def test_z16_and_z17_record_the_no_ratio_alternative_and_z13s_keeps_its_citation() -> None:
    rules = _rules()
    for generation in ("z16", "z17"):
        assert rules[generation].unconfirmed == ["ziips_per_cp"]
        assert rules[generation].alternatives == {"ziips_per_cp": None}
    z13s = rules["z13s"]
    refs = _refs(z13s)
    # SG24-8294 3.5.5 p. 109 (zIIPs per CP) and 3.4.1 (SMT on IFLs and zIIPs).
    assert "3.5.5" in str(refs["z13s-tg"]["title"]) and refs["z13s-tg"]["supports"] == [
        "ziips_per_cp",
        "min_cps_per_lpar",
    ]
    assert "3.4.1" in str(refs["z13s-tg-smt"]["title"]) and "zIIP" in str(refs["z13s-tg-smt"]["text"])
    assert z13s.unconfirmed == [] and z13s.smt2_ziip and z13s.smt2_throughput_factor is None


def test_max_engines_are_loaded_with_the_zpcr_citation() -> None:
    rules = _rules()
    stated = {t: n for r in rules.values() for t, n in r.max_engines.items()}
    # Largest full-speed models of the zPCR table: 2097-764 .. 9175-7K8.
    assert {t: n for t, n in stated.items() if n is not None} == {
        "2097": 64,
        "2827": 101,
        "2964": 141,
        "3906": 170,
        "8561": 190,
        "3931": 200,
        "9175": 208,
    }
    for rule in rules.values():
        if any(n is not None for n in rule.max_engines.values()):
            assert "max_engines" in _refs(rule)["zpcr-largest-full-speed"]["supports"]
    # z10 EC also from its Reference Guide ("701 to 764", p. 13).
    assert "page 13" in str(_refs(rules["z10 EC"])["z10ec-reference-guide"]["title"])


def test_selector_hands_the_limits_and_alternatives_to_the_engine() -> None:
    z13 = engine_rules_for("2964")
    zec12 = engine_rules_for("2827")
    assert z13 is not None and zec12 is not None
    assert z13.max_engines_for("2964") == 141
    assert zec12.alternative("ziips_per_cp") == (True, 1.0)  # GA1's 1:1 beside GA2's 2:1 (issue 32)
    assert "ziips_per_cp" in zec12.unconfirmed


def test_seed_derived_statements_load_with_their_quotes() -> None:
    lpar = Statement.objects.get(key="lpar-overhead-top-rate")
    assert "the LPAR was already running at 97%" in lpar.text
    assert lpar.path is not None and lpar.path.slug == "cicsts-catalog" and lpar.configuration is None
    assert (lpar.data["low"], lpar.data["value"], lpar.data["high"]) == (0.11358, 0.16447, 0.17047)
    floors = Statement.objects.filter(key__startswith="s1-floor-")
    assert floors.count() == 6
    assert all("unable to satisfy all the eligible workload" in s.text for s in floors)


def test_alternative_for_a_confirmed_field_is_rejected(tmp_path: Path) -> None:
    target = tmp_path / "benchmarks"
    shutil.copytree(Path(settings.BENCHMARKS_DIR), target)
    path = target / "engine_rules.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    rule = next(r for r in doc["rules"] if r["generation"] == "z13s")
    rule["alternatives"] = {"ziips_per_cp": 1}
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    with pytest.raises(CommandError, match="'alternatives' may only name unconfirmed fields"):
        call_command("load_benchmarks", dir=str(target))


def test_max_engines_for_a_type_the_rule_does_not_list_is_rejected(tmp_path: Path) -> None:
    target = tmp_path / "benchmarks"
    shutil.copytree(Path(settings.BENCHMARKS_DIR), target)
    path = target / "engine_rules.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    rule = next(r for r in doc["rules"] if r["generation"] == "z16")
    rule["max_engines"] = {"3931": 200, "9999": 5}
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    with pytest.raises(CommandError, match="'max_engines' names machine type 9999"):
        call_command("load_benchmarks", dir=str(target))


def test_engine_rules_api_serves_max_engines_and_alternatives(api) -> None:  # type: ignore[no-untyped-def]
    by_generation = {r["generation"]: r for r in api.get("/api/v1/engine-rules/").json()}
    assert by_generation["z16"]["max_engines"] == {"3931": 200, "3932": None}
    assert by_generation["zEC12"]["alternatives"] == {"ziips_per_cp": 1, "zaaps_per_cp": 1}
    assert by_generation["z13s"]["alternatives"] == {}
