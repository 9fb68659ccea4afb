"""Test helper: the capacity table the product loads, with the specialty-engine rules of
``benchmarks/engine_rules.yaml`` keyed by machine type (as ``sizing.selectors.capacity`` does).

The rules are read from the stored file, not restated here; each keeps its references, e.g.
z10 EC: zAAPs for Java work, at most one zIIP and one zAAP per CP ("The number of zIIPs must not
exceed the number of standard CPs", z/OS V2R1 MVS Planning: Workload Management); z13: zIIPs
only (zAAPs no longer supported), up to two per CP (stated for the z13s in SG24-8294 section
3.5.5, p. 109; carried to the 2964 and marked unconfirmed in the file).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from models_lib.inputs import CapacityTable, SpecialtyEngineRules
from tests.models_lib import published as P

Z10, Z13, Z17 = "2097", "2964", "9175"


@cache
def rules() -> dict[str, SpecialtyEngineRules]:
    """benchmarks/engine_rules.yaml -> {machine type: rules}, references as text."""
    data = P.load("engine_rules.yaml")
    titles = {key: ref["title"] for key, ref in data["references"].items()}
    out: dict[str, SpecialtyEngineRules] = {}
    for r in data["rules"]:
        rule = SpecialtyEngineRules(
            generation=r["generation"],
            machine_types=tuple(str(t) for t in r["machine_types"]),
            java_engine="zaap" if r["java_engine"] == "zaap" else "ziip",
            ziips_per_cp=float(r["ziips_per_cp"]),
            zaaps_per_cp=None if r["zaaps_per_cp"] is None else float(r["zaaps_per_cp"]),
            min_cps_per_lpar=int(r["min_cps_per_lpar"]),
            specialty_full_speed=bool(r["specialty_full_speed"]),
            smt2_ziip=bool(r["smt2_ziip"]),
            smt2_throughput_factor=r["smt2_throughput_factor"],
            reference="; ".join(titles[x["ref"]] for x in r["references"]),
            max_engines=tuple(sorted((str(t), n) for t, n in (r.get("max_engines") or {}).items())),
            unconfirmed=tuple(r.get("unconfirmed") or ()),
            alternatives=tuple(
                sorted((k, None if v is None else float(v)) for k, v in (r.get("alternatives") or {}).items())
            ),
        )
        out.update(dict.fromkeys(rule.machine_types, rule))
    return out


@cache
def table() -> CapacityTable:
    """The zPCR capacity table (every setting) with the engine rules of each machine type."""
    return replace(P.capacity_table(), engine_rules=rules())
