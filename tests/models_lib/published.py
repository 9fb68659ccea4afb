"""Test helper: build ``models_lib`` inputs from the stored reference data in ``benchmarks/``.

The tests read the YAML/CSV files that the product loads (not numbers typed into the tests),
so every expected value traces to a transcribed table row with its ``reference``.  Units are
converted with :mod:`models_lib.units`, exactly as the Django loader does.

Ids: a point or statement id is ``crc32("<source slug>:<key>")`` (31 bits), stable under
re-ordering of the file; the Django side uses database ids instead.  An LSPR rating id is its
1-based row number in the CSV.
"""

from __future__ import annotations

import csv
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from models_lib.assemble import (
    MetricRecord,
    PointRecord,
    StatementRecord,
    assemble_capacity_table,
    assemble_configuration,
)
from models_lib.inputs import CapacityTable, ConfigurationData, Rating

REPO = Path(__file__).resolve().parents[2]
BENCHMARKS = REPO / "benchmarks"

SOURCE_FILES = (
    "fiteq_redp5114.yaml",
    "cicsts_v53_redp5320.yaml",
    "zosconnect_ee_v3_cics.yaml",
    "cicstg_v9_perf.yaml",
    "hostbridge_we_do_performance.yaml",
)


def stable_id(source_slug: str, key: str) -> int:
    """Position-stable integer id of an entry of a source file."""
    return zlib.crc32(f"{source_slug}:{key}".encode()) & 0x7FFFFFFF


def reference_text(identifier: str, ref: Mapping[str, Any] | None) -> str:
    """``"REDP-5114 Table 9-1, p. 28"`` from a YAML ``reference`` mapping."""
    ref = ref or {}
    where = next((str(ref[k]) for k in ("table", "figure", "section") if ref.get(k)), "")
    text = " ".join(x for x in (identifier, where) if x)
    if ref.get("page"):
        text += f", p. {ref['page']}"
    return text


@cache
def load(name: str) -> dict[str, Any]:
    """Parsed YAML of ``benchmarks/<name>`` (empty dict when the file is not there yet)."""
    path = BENCHMARKS / name
    if not path.exists():
        return {}
    with path.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    assert isinstance(data, dict), name
    return data


@cache
def machine_types() -> dict[str, str]:
    """Machine slug -> IBM machine type, from ``machines.yaml``."""
    return {m["slug"]: str(m["machine_type"]) for m in load("machines.yaml")["machines"]}


LSPR_FILE = "lspr_zpcr_configuration_summary.yaml"


@cache
def capacity_table() -> CapacityTable:
    """The LSPR table from ``lspr_zpcr_configuration_summary.csv`` (rating id = CSV row number),
    assembled by the product's own :func:`assemble_capacity_table`."""
    meta = load(LSPR_FILE)
    generations = {str(m["machine_type"]): m["generation"] for m in load("machines.yaml")["machines"]}
    ratings = []
    with (BENCHMARKS / meta["ratings_csv"]).open(encoding="utf-8", newline="") as fh:
        for i, row in enumerate(csv.DictReader(fh), start=1):
            mt = str(row["machine_type"]).strip()
            if mt not in generations:
                continue
            ratings.append(
                Rating(
                    mt,
                    int(row["cps"]),
                    float(row["mips"]),
                    float(row["msu"]),
                    rating_id=i,
                    model=row["model"],
                    capacity_setting=row["capacity_setting"],
                    generation=row["generation"],
                )
            )
    return assemble_capacity_table(ratings, source=meta["source"]["title"], source_id=None)


def lspr_rows(machine_type: str, cps: Iterable[int], setting: str = "700") -> list[dict[str, str]]:
    """The raw CSV rows for ``machine_type`` at ``setting`` and the given CP counts (to paste into tests)."""
    wanted = set(cps)
    meta = load(LSPR_FILE)
    with (BENCHMARKS / meta["ratings_csv"]).open(encoding="utf-8", newline="") as fh:
        return [
            dict(r)
            for r in csv.DictReader(fh)
            if str(r["machine_type"]).strip() == machine_type
            and r["capacity_setting"] == setting
            and int(r["cps"]) in wanted
        ]


@dataclass(frozen=True)
class RawPoint:
    """A point as stored, with its YAML mapping (for checks against the published columns)."""

    source: str
    key: str
    id: int
    path: str
    configuration: str
    data: Mapping[str, Any]

    def metric(self, name: str) -> Mapping[str, Any] | None:
        for m in self.data.get("metrics") or ():
            if m["name"] == name:
                return m  # type: ignore[no-any-return]
        return None


def raw_points(name: str) -> list[RawPoint]:
    """Points of a source file in file order."""
    doc = load(name)
    slug = doc["source"]["slug"]
    return [
        RawPoint(slug, p["key"], stable_id(slug, p["key"]), p["path"], p["configuration"], p)
        for p in doc.get("points") or ()
    ]


def _record(identifier: str, slug: str, p: Mapping[str, Any]) -> PointRecord:
    return PointRecord(
        id=stable_id(slug, p["key"]),
        etr=float(p["etr"]),
        metrics=tuple(MetricRecord(m["name"], m["value"], m["unit"], m.get("engines")) for m in p.get("metrics") or ()),
        response_time_ms=p.get("response_time_ms"),
        lpar_cps=p.get("lpar_cps"),
        ziips=int(p.get("ziips") or 0),
        zaaps=int(p.get("zaaps") or 0),
        clients=p.get("clients"),
        think_time_s=p.get("think_time_s"),
        request_bytes=p.get("request_bytes"),
        response_bytes=p.get("response_bytes"),
        reference=reference_text(identifier, p.get("reference")),
    )


@cache
def configurations(name: str) -> tuple[ConfigurationData, ...]:
    """Every configuration of a source file as :class:`ConfigurationData`, assembled by
    :func:`models_lib.assemble.assemble_configuration` exactly as the product does from the
    database (points without a CPU metric are not CPU points)."""
    doc = load(name)
    if not doc:
        return ()
    src = doc["source"]
    slug, ident = src["slug"], src.get("label") or src.get("identifier") or src["slug"]
    types = machine_types()
    out: list[ConfigurationData] = []
    for path in doc.get("paths") or ():
        statements = [
            StatementRecord(
                id=stable_id(slug, s["key"]),
                kind=s["kind"],
                configuration=s.get("configuration"),
                data=s.get("data") or {},
                reference=reference_text(ident, s.get("reference")),
            )
            for s in doc.get("statements") or ()
            if s.get("path") == path["slug"]
        ]
        for conf in path.get("configurations") or ():
            cslug = conf["slug"]
            records = [
                _record(ident, slug, p)
                for p in doc.get("points") or ()
                if p["path"] == path["slug"] and p["configuration"] == cslug and p["machine"] == path["native_machine"]
            ]
            out.append(
                assemble_configuration(
                    path=path["slug"],
                    configuration=cslug,
                    machine=path["native_machine"],
                    machine_type=types[path["native_machine"]],
                    points=records,
                    statements=statements,
                )
            )
    return tuple(out)


def configuration(path: str, configuration_slug: str) -> ConfigurationData:
    """One configuration by slugs, searched in every source file."""
    for name in SOURCE_FILES:
        for cfg in configurations(name):
            if cfg.path == path and cfg.configuration == configuration_slug:
                return cfg
    raise KeyError(f"{path}/{configuration_slug}")


def all_configurations() -> tuple[ConfigurationData, ...]:
    """Every configuration of every source file present."""
    return tuple(c for name in SOURCE_FILES for c in configurations(name))


def statement(name: str, key: str) -> Mapping[str, Any]:
    """A statement of a source file by key."""
    for s in load(name).get("statements") or ():
        if s["key"] == key:
            return s  # type: ignore[no-any-return]
    raise KeyError(key)
