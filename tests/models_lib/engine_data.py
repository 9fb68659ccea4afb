"""Test helper: LSPR ratings with capacity settings and specialty-engine rules, with sources.

Rules are built here until the stored engine rules (benchmarks/engine_rules.yaml, another branch)
feed ``CapacityTable.engine_rules``; each carries its source:

* z10 EC (2097): zAAPs run Java work; "The number of zIIPs must not exceed the number of standard
  CPs on a server" and the same for zAAPs; "You must have at least one standard CP defined for
  a partition" (z/OS V2R1 MVS Planning: Workload Management, sections on zIIPs and zAAPs).
* z13 (2964): only zIIPs for Java work (zAAP-eligible work runs on zIIPs), up to 2 zIIPs per CP
  (IBM z13s Technical Guide, SG24-8294, section 3.5, "2:1 zIIP to CP").

LSPR ratings of sub-capacity settings are rows of the zPCR Configuration Summary export copied
verbatim into ``tests/data/lspr_zpcr_subset.csv`` (provenance in tests/data/README.md).
"""

from __future__ import annotations

import csv
from dataclasses import replace
from functools import cache
from pathlib import Path

from models_lib.inputs import CapacityTable, Rating, SpecialtyEngineRules
from tests.models_lib import published as P

DATA = Path(__file__).resolve().parents[1] / "data" / "lspr_zpcr_subset.csv"
Z10, Z13, Z17 = "2097", "2964", "9175"

RULES = {
    Z10: SpecialtyEngineRules(
        generation="z10 EC",
        machine_types=(Z10,),
        java_engine="zaap",
        ziips_per_cp=1.0,
        zaaps_per_cp=1.0,
        reference="z/OS V2R1 MVS Planning: Workload Management: zIIPs and zAAPs must not exceed standard CPs",
    ),
    Z13: SpecialtyEngineRules(
        generation="z13",
        machine_types=(Z13,),
        java_engine="ziip",
        ziips_per_cp=2.0,
        zaaps_per_cp=None,
        smt2_ziip=True,
        smt2_throughput_factor=None,  # no published factor found: stored as unknown
        reference="IBM z13s Technical Guide, SG24-8294, section 3.5 (2:1 zIIP to CP)",
    ),
}


@cache
def table() -> CapacityTable:
    """Full-speed ratings of the repository's LSPR table plus the zPCR subset's settings."""
    base = P.capacity_table()
    ratings = dict(base.ratings)
    settings_: dict[tuple[str, str, int], Rating] = {}
    with DATA.open(encoding="utf-8", newline="") as fh:
        lines = list(fh)
    for i, row in enumerate(csv.DictReader(lines), start=1):
        n = int(row["cps"])
        if n > 40:
            continue
        r = Rating(
            row["machine_type"],
            n,
            float(row["mips"]),
            float(row["msu"]),
            rating_id=10_000 + i,
            model=row["model"],
            capacity_setting=row["capacity_setting"],
            generation=row["generation"],
        )
        settings_[(r.machine_type, r.capacity_setting, n)] = r
        if r.capacity_setting == "700":
            ratings[(r.machine_type, n)] = r
    return replace(
        base,
        ratings=ratings,
        settings=settings_,
        full_speed_setting={Z10: "700", Z13: "700", Z17: "700"},
        engine_rules=RULES,
    )
