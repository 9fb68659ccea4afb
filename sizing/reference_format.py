"""Reading and validating the reference-data files in ``benchmarks/``.

Everything is checked before anything is written: a bad file raises
:class:`ReferenceDataError` naming the file, the entry and the reason.  The format is
described in ``docs/benchmarks-format.md``.
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

import yaml

from sizing.models import MetricName, MetricUnit, StatementKind

SETTING_RE = re.compile(r"^([4-7]00|[A-Z]00)$")
ENGINE_RULE_FIELDS = (
    "java_engine",
    "ziips_per_cp",
    "zaaps_per_cp",
    "min_cps_per_lpar",
    "specialty_full_speed",
    "smt2_ziip",
    "smt2_throughput_factor",
    "max_engines",
)
SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9.\-]*$")
DATE_RE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")

CPU_METRICS = {"cics_cpu", "lpar_cpu", "smsvsam_cpu", "cf_cpu", "tor_cpu", "aor_cpu", "for_cpu"}
PER_TRAN_METRICS = {"cics_cpu_per_tran", "lpar_cpu_per_tran"}
SHARE_METRICS = {"ctg_zaap_eligible", "tstg_zaap_eligible", "gcp_load", "gcp_saving_vs_exci"}
UNITS_FOR = {
    **{name: {"pct_one_cp", "pct_of_pool"} for name in CPU_METRICS},
    **{name: {"us_per_tran", "ms_per_tran"} for name in PER_TRAN_METRICS},
    **{name: {"pct_share"} for name in SHARE_METRICS},
}
assert set(UNITS_FOR) == set(MetricName.values)
assert {u for units in UNITS_FOR.values() for u in units} == set(MetricUnit.values)


class ReferenceDataError(Exception):
    """A reference-data file is invalid; ``str()`` names the file, the entry and the reason."""

    def __init__(self, file: str, entry: str, reason: str) -> None:
        self.file, self.entry, self.reason = file, entry, reason
        super().__init__(f"{file}: {entry}: {reason}")


@dataclass
class SourceData:
    file: str
    source: dict[str, Any]
    paths: list[dict[str, Any]] = field(default_factory=list)
    points: list[dict[str, Any]] = field(default_factory=list)
    statements: list[dict[str, Any]] = field(default_factory=list)
    ratings: list[dict[str, Any]] = field(default_factory=list)
    engine_rules: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class ReferenceData:
    machines: list[dict[str, Any]]
    sources: list[SourceData]


class _Checker:
    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, entry: str, reason: str) -> ReferenceDataError:
        return ReferenceDataError(self.file, entry, reason)

    def mapping(self, value: Any, entry: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(entry, f"expected a mapping, got {type(value).__name__}")
        return value

    def required(self, obj: dict[str, Any], key: str, entry: str) -> Any:
        if key not in obj or obj[key] is None or obj[key] == "":
            raise self.fail(entry, f"'{key}' is missing")
        return obj[key]

    def text(self, obj: dict[str, Any], key: str, entry: str, *, required: bool = True, max_len: int = 10_000) -> str:
        value = obj.get(key)
        if value is None or value == "":
            if required:
                raise self.fail(entry, f"'{key}' is missing")
            return ""
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise self.fail(entry, f"'{key}' must be text, got {value!r}")
        value = str(value)
        if len(value) > max_len:
            raise self.fail(entry, f"'{key}' is longer than {max_len} characters")
        return value

    def slug(self, obj: dict[str, Any], key: str, entry: str, *, required: bool = True) -> str:
        value = self.text(obj, key, entry, required=required, max_len=80)
        if value and not SLUG_RE.match(value):
            raise self.fail(entry, f"'{key}' {value!r} is not a lower-case slug ([a-z0-9.-])")
        return value

    def number(
        self,
        obj: dict[str, Any],
        key: str,
        entry: str,
        *,
        required: bool = False,
        minimum: float | None = None,
        exclusive_minimum: float | None = None,
        maximum: float | None = None,
        integer: bool = False,
    ) -> float | int | None:
        value = obj.get(key)
        if value is None:
            if required:
                raise self.fail(entry, f"'{key}' is missing")
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(entry, f"'{key}' must be a number, got {value!r}")
        if not math.isfinite(value):
            raise self.fail(entry, f"'{key}' must be finite, got {value!r}")
        if integer and not float(value).is_integer():
            raise self.fail(entry, f"'{key}' must be a whole number, got {value!r}")
        if minimum is not None and value < minimum:
            raise self.fail(entry, f"'{key}' must be >= {minimum:g}, got {value!r}")
        if exclusive_minimum is not None and value <= exclusive_minimum:
            raise self.fail(entry, f"'{key}' must be > {exclusive_minimum:g}, got {value!r}")
        if maximum is not None and value > maximum:
            raise self.fail(entry, f"'{key}' must be <= {maximum:g}, got {value!r}")
        return int(value) if integer else value


def reference_text(source_label: str, reference: dict[str, Any]) -> str:
    """Render a reference mapping as ``"REDP-5114 Table 9-1, p. 28"``."""
    parts = [str(reference[k]) for k in ("table", "figure", "section") if reference.get(k)]
    if reference.get("page"):
        parts.append(f"p. {reference['page']}")
    where = ", ".join(parts) if parts else "(no table or page given)"
    return f"{source_label} {where}".strip()[:200]


def _read_yaml(path: FsPath) -> Any:
    try:
        with path.open(encoding="utf-8") as handle:
            return yaml.safe_load(handle)
    except yaml.YAMLError as exc:
        raise ReferenceDataError(path.name, "file", f"is not valid YAML: {exc}") from None


def _check_source_block(ck: _Checker, raw: Any, *, compiled: bool = False) -> dict[str, Any]:
    """The ``source:`` block; ``compiled`` files (engine rules) cite documents per entry, no seed file."""
    src = ck.mapping(raw, "source")
    published = ck.text(src, "published", "source", required=False, max_len=10)
    if published and not DATE_RE.match(published):
        raise ck.fail("source", f"'published' {published!r} is not YYYY, YYYY-MM or YYYY-MM-DD")
    authors = src.get("authors") or []
    if not isinstance(authors, list) or not all(isinstance(a, str) for a in authors):
        raise ck.fail("source", "'authors' must be a list of names")
    return {
        "slug": ck.slug(src, "slug", "source"),
        "title": ck.text(src, "title", "source", max_len=300),
        "publisher": ck.text(src, "publisher", "source", max_len=120),
        "identifier": ck.text(src, "identifier", "source", required=False, max_len=60),
        "label": ck.text(src, "label", "source", required=False, max_len=60),
        "published": published,
        "authors": authors,
        "seed_file": ck.text(src, "seed_file", "source", required=not compiled, max_len=200),
        "notes": ck.text(src, "notes", "source", required=False),
    }


def _check_reference(ck: _Checker, raw: Any, entry: str) -> dict[str, Any]:
    ref = ck.mapping(raw if raw is not None else {}, entry)
    if not any(ref.get(k) for k in ("table", "figure", "section", "page")):
        raise ck.fail(entry, "'reference' must give a table, figure, section or page")
    return {k: v for k, v in ref.items() if v not in (None, "")}


def _check_metric(ck: _Checker, raw: Any, entry: str, lpar_cps: float | None) -> dict[str, Any]:
    metric = ck.mapping(raw, entry)
    name = ck.text(metric, "name", entry, max_len=40)
    if name not in UNITS_FOR:
        raise ck.fail(entry, f"unknown metric name {name!r} (known: {', '.join(sorted(UNITS_FOR))})")
    unit = metric.get("unit")
    if unit in (None, ""):
        raise ck.fail(entry, f"metric {name!r} has no unit")
    if unit not in UNITS_FOR[name]:
        raise ck.fail(
            entry, f"metric {name!r} cannot be in unit {unit!r} (allowed: {', '.join(sorted(UNITS_FOR[name]))})"
        )
    value = ck.number(metric, "value", entry, required=True, minimum=0)
    engines = ck.number(metric, "engines", entry, minimum=1, integer=True)
    if unit == "pct_of_pool":
        if engines is None:
            raise ck.fail(entry, f"metric {name!r} in pct_of_pool needs 'engines' (the pool size)")
        if value is not None and value > 100:
            raise ck.fail(entry, f"metric {name!r} is {value!r}% of a pool: must be <= 100")
    elif engines is not None:
        raise ck.fail(entry, f"metric {name!r}: 'engines' only applies to pct_of_pool")
    if unit == "pct_share" and value is not None and value > 100:
        raise ck.fail(entry, f"metric {name!r} is a share of {value!r}%: must be <= 100")
    if unit == "pct_one_cp" and lpar_cps and value is not None and value > 100 * lpar_cps and name != "cf_cpu":
        raise ck.fail(entry, f"metric {name!r} = {value!r}% of one CP exceeds the LPAR's {lpar_cps} CPs")
    return {"name": name, "value": float(value or 0), "unit": unit, "engines": engines}


def _check_point(ck: _Checker, raw: Any, index: int, label: str) -> dict[str, Any]:
    pt = ck.mapping(raw, f"points[{index}]")
    key = ck.text(pt, "key", f"points[{index}]", max_len=80)
    entry = f"point {key!r}"
    lpar_cps = ck.number(pt, "lpar_cps", entry, minimum=1, maximum=200, integer=True)
    metrics_raw = pt.get("metrics") or []
    if not isinstance(metrics_raw, list):
        raise ck.fail(entry, "'metrics' must be a list")
    metrics = [_check_metric(ck, m, f"{entry} metric {i + 1}", lpar_cps) for i, m in enumerate(metrics_raw)]
    names = [m["name"] for m in metrics]
    if len(set(names)) != len(names):
        raise ck.fail(entry, "a metric is given twice")
    reference = _check_reference(ck, pt.get("reference"), entry)
    approximate = pt.get("etr_approximate", False)
    if not isinstance(approximate, bool):
        raise ck.fail(entry, "'etr_approximate' must be true or false")
    return {
        "key": key,
        "path": ck.slug(pt, "path", entry),
        "configuration": ck.slug(pt, "configuration", entry),
        "machine": ck.slug(pt, "machine", entry),
        "reference": reference,
        "reference_text": reference_text(label, reference),
        "lpar_cps": lpar_cps,
        "ziips": ck.number(pt, "ziips", entry, minimum=0, maximum=200, integer=True) or 0,
        "zaaps": ck.number(pt, "zaaps", entry, minimum=0, maximum=200, integer=True) or 0,
        "clients": ck.number(pt, "clients", entry, minimum=1, integer=True),
        "think_time_s": ck.number(pt, "think_time_s", entry, minimum=0),
        "request_bytes": ck.number(pt, "request_bytes", entry, minimum=0, integer=True),
        "response_bytes": ck.number(pt, "response_bytes", entry, minimum=0, integer=True),
        "etr": ck.number(pt, "etr", entry, required=True, exclusive_minimum=0),
        "etr_approximate": approximate,
        "response_time_ms": ck.number(pt, "response_time_ms", entry, minimum=0),
        "notes": ck.text(pt, "notes", entry, required=False),
        "metrics": metrics,
    }


def _check_statement_data(ck: _Checker, kind: str, data: dict[str, Any], entry: str) -> None:
    """Kind-specific checks of the statement payload (the typed part of a statement)."""
    if kind == "ratio":
        for key in ("quantity", "numerator", "denominator"):
            ck.required(data, key, entry)
        low = ck.number(data, "low", entry, required=True, exclusive_minimum=0)
        high = ck.number(data, "high", entry, required=True, exclusive_minimum=0)
        if low is not None and high is not None and low > high:
            raise ck.fail(entry, f"ratio 'low' {low!r} is above 'high' {high!r}")
    elif kind == "proportionality":
        for key in ("quantity", "variable"):
            ck.required(data, key, entry)
        if data.get("form") not in ("proportional", "linear"):
            raise ck.fail(entry, "proportionality 'form' must be 'proportional' or 'linear'")
    elif kind == "bound":
        if data.get("quantity") == "throughput":
            if data.get("outcome") not in ("sustained", "exhausted"):
                raise ck.fail(entry, "throughput bound 'outcome' must be 'sustained' or 'exhausted'")
            ck.number(data, "tps", entry, required=True, exclusive_minimum=0)
            ck.number(data, "gcps", entry, required=True, minimum=1, integer=True)
            for key in ("ziips", "zaaps"):
                ck.number(data, key, entry, minimum=0, integer=True)
            for key in ("response_bytes_min", "response_bytes_max", "clients"):
                ck.number(data, key, entry, minimum=0, integer=True)
        else:
            ck.required(data, "quantity", entry)
    elif kind == "eligibility":
        if data.get("engine") not in ("ziip", "zaap"):
            raise ck.fail(entry, "eligibility 'engine' must be 'ziip' or 'zaap'")
        for key in ("fraction", "low", "high"):
            ck.number(data, key, entry, required=key == "fraction", minimum=0, maximum=1)
        if "applies_to" in data and not isinstance(data["applies_to"], str):
            raise ck.fail(entry, "eligibility 'applies_to' must name what the share is of, e.g. 'cics+ctg'")
    elif kind == "throughput":
        ck.number(data, "think_time_s", entry, minimum=0)
        rows = data.get("rows")
        if not isinstance(rows, list) or not rows:
            raise ck.fail(entry, "throughput 'rows' must be a non-empty list of {clients, tps}")
        for i, row in enumerate(rows):
            row = ck.mapping(row, f"{entry} row {i + 1}")
            ck.number(row, "clients", f"{entry} row {i + 1}", required=True, minimum=1, integer=True)
            ck.number(row, "tps", f"{entry} row {i + 1}", required=True, exclusive_minimum=0)
    elif kind == "packet_trace":
        packets = data.get("packets")
        if not isinstance(packets, list) or not packets:
            raise ck.fail(entry, "packet_trace 'packets' must be a non-empty list")
        previous = -math.inf
        for i, packet in enumerate(packets):
            packet = ck.mapping(packet, f"{entry} packet {i + 1}")
            t = ck.number(packet, "time_s", f"{entry} packet {i + 1}", required=True, minimum=0)
            ck.number(packet, "len", f"{entry} packet {i + 1}", minimum=0, integer=True)
            if t is not None and t < previous:
                raise ck.fail(f"{entry} packet {i + 1}", "packet times must not decrease")
            previous = t if t is not None else previous
    elif kind == "limit":
        if data.get("metric") != "tps":
            raise ck.fail(entry, "limit 'metric' must be 'tps' (transactions per second)")
        ck.number(data, "value", entry, required=True, exclusive_minimum=0)
        if data.get("scope") not in ("lpar", "region", "qr-tcb"):
            raise ck.fail(entry, "limit 'scope' must be one of lpar, region, qr-tcb")
        if not isinstance(data.get("condition", ""), str):
            raise ck.fail(entry, "limit 'condition' must be text")
    elif kind in ("measurements", "configuration"):
        rows = data.get("rows")
        if not isinstance(rows, list) or not rows:
            raise ck.fail(entry, f"{kind} 'rows' must be a non-empty list")


def _check_statement(ck: _Checker, raw: Any, index: int, label: str) -> dict[str, Any]:
    st = ck.mapping(raw, f"statements[{index}]")
    key = ck.text(st, "key", f"statements[{index}]", max_len=80)
    entry = f"statement {key!r}"
    kind = ck.text(st, "kind", entry, max_len=20)
    if kind not in StatementKind.values:
        raise ck.fail(entry, f"unknown kind {kind!r} (known: {', '.join(StatementKind.values)})")
    data = ck.mapping(st.get("data") or {}, entry)
    _check_statement_data(ck, kind, data, entry)
    reference = _check_reference(ck, st.get("reference"), entry)
    return {
        "key": key,
        "kind": kind,
        "path": ck.slug(st, "path", entry, required=False),
        "configuration": ck.slug(st, "configuration", entry, required=False),
        "reference": reference,
        "reference_text": reference_text(label, reference),
        "text": ck.text(st, "text", entry),
        "data": data,
        "notes": ck.text(st, "notes", entry, required=False),
    }


def _check_paths(ck: _Checker, raw: Any) -> list[dict[str, Any]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ck.fail("paths", "must be a list")
    paths = []
    for i, item in enumerate(raw):
        p = ck.mapping(item, f"paths[{i}]")
        slug = ck.slug(p, "slug", f"paths[{i}]")
        entry = f"path {slug!r}"
        configs_raw = p.get("configurations") or []
        if not isinstance(configs_raw, list) or not configs_raw:
            raise ck.fail(entry, "'configurations' must be a non-empty list")
        configs = []
        for j, c in enumerate(configs_raw):
            c = ck.mapping(c, f"{entry} configurations[{j}]")
            cslug = ck.slug(c, "slug", f"{entry} configurations[{j}]")
            attributes = c.get("attributes") or {}
            ck.mapping(attributes, f"{entry} configuration {cslug!r} attributes")
            configs.append(
                {
                    "slug": cslug,
                    "name": ck.text(c, "name", f"{entry} configuration {cslug!r}", max_len=200),
                    "description": ck.text(c, "description", f"{entry} configuration {cslug!r}", required=False),
                    "attributes": attributes,
                }
            )
        if len({c["slug"] for c in configs}) != len(configs):
            raise ck.fail(entry, "a configuration slug is given twice")
        paths.append(
            {
                "slug": slug,
                "name": ck.text(p, "name", entry, max_len=200),
                "description": ck.text(p, "description", entry, required=False),
                "native_machine": ck.slug(p, "native_machine", entry),
                "configurations": configs,
            }
        )
    return paths


def _read_ratings(ck: _Checker, csv_path: FsPath) -> list[dict[str, Any]]:
    if not csv_path.exists():
        raise ck.fail("ratings_csv", f"file {csv_path.name} does not exist")
    rows = []
    with csv_path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        expected = {"model", "machine_type", "generation", "capacity_setting", "cps", "mips", "msu"}
        if not reader.fieldnames or not expected <= set(reader.fieldnames):
            raise ReferenceDataError(csv_path.name, "header", f"must have the columns {', '.join(sorted(expected))}")
        for line, row in enumerate(reader, start=2):
            entry = f"row {line} ({row.get('model') or 'no model'})"
            rck = _Checker(csv_path.name)
            converted: dict[str, Any] = {
                "model": rck.text(row, "model", entry, max_len=20),
                "machine_type": rck.text(row, "machine_type", entry, max_len=4),
                "generation": rck.text(row, "generation", entry, max_len=40),
                "capacity_setting": rck.text(row, "capacity_setting", entry, max_len=3),
            }
            if not SETTING_RE.match(converted["capacity_setting"]):
                raise rck.fail(entry, f"capacity_setting {converted['capacity_setting']!r} is not 400..700 or A00..Z00")
            for key, integer in (("cps", True), ("mips", False), ("msu", False)):
                try:
                    converted[key] = int(row[key]) if integer else float(row[key])
                except (TypeError, ValueError):
                    raise rck.fail(entry, f"'{key}' {row[key]!r} is not a number") from None
            rck.number(converted, "cps", entry, required=True, minimum=1, maximum=256, integer=True)
            rck.number(converted, "mips", entry, required=True, exclusive_minimum=0)
            rck.number(converted, "msu", entry, required=True, exclusive_minimum=0)
            if not converted["model"].startswith(converted["machine_type"] + "-"):
                raise rck.fail(entry, f"model {converted['model']!r} does not start with its machine type")
            rows.append(converted)
    seen: set[tuple[str, str, int]] = set()
    models: set[str] = set()
    for row in rows:
        ident = (row["machine_type"], row["capacity_setting"], row["cps"])
        if ident in seen:
            raise ReferenceDataError(
                csv_path.name, f"{row['model']}", "machine type, capacity setting and CPs given twice"
            )
        if row["model"] in models:
            raise ReferenceDataError(csv_path.name, f"{row['model']}", "model capacity identifier given twice")
        seen.add(ident)
        models.add(row["model"])
    return rows


def _check_max_engines(ck: _Checker, raw: Any, machine_types: list[str], entry: str) -> dict[str, int | None]:
    """``max_engines``: machine type -> most engines (CPs + specialty) of its largest model, or null."""
    if raw is None:
        return dict.fromkeys(machine_types)
    limits = ck.mapping(raw, f"{entry} max_engines")
    # Types the rule does not list are reported once every rule's types are known (see
    # _check_engine_rules), so that a type given to two generations is named as such first.
    out: dict[str, int | None] = dict.fromkeys(machine_types)
    for key in limits:
        value = ck.number(limits, key, f"{entry} max_engines", minimum=1, maximum=1000, integer=True)
        out[str(key)] = None if value is None else int(value)
    return out


def _check_engine_rules(ck: _Checker, raw_rules: Any, raw_refs: Any) -> list[dict[str, Any]]:
    """Validate ``rules:`` against the ``references:`` they cite; every rule field is supported or unconfirmed."""
    refs = ck.mapping(raw_refs or {}, "references")
    for name, ref in refs.items():
        ref = ck.mapping(ref, f"reference {name!r}")
        ck.text(ref, "title", f"reference {name!r}", max_len=300)
        ck.text(ref, "url", f"reference {name!r}", max_len=500)
    if not isinstance(raw_rules, list) or not raw_rules:
        raise ck.fail("rules", "must be a non-empty list")
    rules = []
    for i, item in enumerate(raw_rules):
        rule = ck.mapping(item, f"rules[{i}]")
        generation = ck.text(rule, "generation", f"rules[{i}]", max_len=40)
        entry = f"rule {generation!r}"
        types = rule.get("machine_types")
        if not isinstance(types, list) or not types or not all(isinstance(t, str) and len(t) == 4 for t in types):
            raise ck.fail(entry, "'machine_types' must be a non-empty list of four-character machine types")
        java_engine = rule.get("java_engine")
        if java_engine not in ("zaap", "ziip"):
            raise ck.fail(entry, "'java_engine' must be 'zaap' or 'ziip'")
        ziips = ck.number(rule, "ziips_per_cp", entry, required=True, exclusive_minimum=0)
        zaaps = ck.number(rule, "zaaps_per_cp", entry, exclusive_minimum=0)
        if java_engine == "zaap" and zaaps is None:
            raise ck.fail(entry, "'java_engine' is zaap but 'zaaps_per_cp' is not given")
        if java_engine == "ziip" and zaaps is not None:
            raise ck.fail(entry, "'zaaps_per_cp' is given but 'java_engine' is ziip (no zAAPs on this generation)")
        min_cps = ck.number(rule, "min_cps_per_lpar", entry, required=True, minimum=1, integer=True)
        flags = {}
        for key in ("specialty_full_speed", "smt2_ziip"):
            if not isinstance(rule.get(key), bool):
                raise ck.fail(entry, f"'{key}' must be true or false")
            flags[key] = rule[key]
        smt_factor = ck.number(rule, "smt2_throughput_factor", entry, exclusive_minimum=0)
        if smt_factor is not None and not flags["smt2_ziip"]:
            raise ck.fail(entry, "'smt2_throughput_factor' is given but 'smt2_ziip' is false")
        max_engines = _check_max_engines(ck, rule.get("max_engines"), list(types), entry)
        unconfirmed = rule.get("unconfirmed") or []
        if not isinstance(unconfirmed, list) or not set(unconfirmed) <= set(ENGINE_RULE_FIELDS):
            raise ck.fail(entry, f"'unconfirmed' must list rule fields ({', '.join(ENGINE_RULE_FIELDS)})")
        cited = rule.get("references")
        if not isinstance(cited, list) or not cited:
            raise ck.fail(entry, "'references' must be a non-empty list of {ref, supports}")
        references = []
        supported: set[str] = set()
        for j, c in enumerate(cited):
            c = ck.mapping(c, f"{entry} references[{j}]")
            ref_name = c.get("ref")
            if ref_name not in refs:
                raise ck.fail(entry, f"reference {ref_name!r} is not defined under 'references'")
            supports = c.get("supports")
            if not isinstance(supports, list) or not supports or not set(supports) <= set(ENGINE_RULE_FIELDS):
                raise ck.fail(entry, f"reference {ref_name!r}: 'supports' must list rule fields")
            supported |= set(supports)
            references.append({**refs[ref_name], "key": ref_name, "supports": list(supports)})
        both = supported & set(unconfirmed)
        if both:
            raise ck.fail(entry, f"{', '.join(sorted(both))} is both supported by a reference and unconfirmed")
        # Null values need no support (they say "not published"); everything else does.
        values = {
            "smt2_throughput_factor": smt_factor,
            "zaaps_per_cp": zaaps,
            "max_engines": None if all(v is None for v in max_engines.values()) else max_engines,
        }
        needed = {f for f in ENGINE_RULE_FIELDS if values.get(f, True) is not None}
        missing = needed - supported - set(unconfirmed)
        if missing:
            raise ck.fail(
                entry, f"no reference supports {', '.join(sorted(missing))}; cite one or list it as unconfirmed"
            )
        alternatives = ck.mapping(rule.get("alternatives") or {}, f"{entry} alternatives")
        stray = set(alternatives) - set(unconfirmed)
        if stray:
            raise ck.fail(entry, f"'alternatives' may only name unconfirmed fields, not {', '.join(sorted(stray))}")
        for key, value in alternatives.items():
            if key in ("ziips_per_cp", "zaaps_per_cp", "smt2_throughput_factor", "min_cps_per_lpar"):
                ck.number(alternatives, key, f"{entry} alternatives", exclusive_minimum=0)
            elif not isinstance(value, (bool, str, dict)) and value is not None:
                raise ck.fail(entry, f"alternative {key!r} has an unusable value {value!r}")
        notes = ck.text(rule, "notes", entry, required=bool(unconfirmed))
        rules.append(
            {
                "generation": generation,
                "machine_types": list(types),
                "java_engine": java_engine,
                "ziips_per_cp": float(ziips or 0),
                "zaaps_per_cp": float(zaaps) if zaaps is not None else None,
                "min_cps_per_lpar": min_cps,
                **flags,
                "smt2_throughput_factor": float(smt_factor) if smt_factor is not None else None,
                "references": references,
                "reference_text": _rule_reference_text(references),
                "unconfirmed": list(unconfirmed),
                "max_engines": max_engines,
                "alternatives": dict(alternatives),
                "notes": notes,
            }
        )
    generations = [r["generation"] for r in rules]
    if len(set(generations)) != len(generations):
        raise ck.fail("rules", "a generation is given twice")
    types = [t for r in rules for t in r["machine_types"]]
    duplicates = sorted({t for t in types if types.count(t) > 1})
    if duplicates:
        raise ck.fail("rules", f"machine type {duplicates[0]} belongs to two generations")
    for rule in rules:
        unknown = sorted(set(rule["max_engines"]) - set(rule["machine_types"]))
        if unknown:
            raise ck.fail(
                f"rule {rule['generation']!r}",
                f"'max_engines' names machine type {unknown[0]}, which the rule does not list",
            )
    return rules


def read_reference_data(directory: FsPath) -> ReferenceData:
    """Read and validate every file in ``directory``; raise ReferenceDataError on the first problem."""
    directory = FsPath(directory)
    machines_file = directory / "machines.yaml"
    if not machines_file.exists():
        raise ReferenceDataError("machines.yaml", "file", "is missing")
    mck = _Checker("machines.yaml")
    machines_doc = mck.mapping(_read_yaml(machines_file), "file")
    machines = []
    for i, m in enumerate(machines_doc.get("machines") or []):
        m = mck.mapping(m, f"machines[{i}]")
        slug = mck.slug(m, "slug", f"machines[{i}]")
        machines.append(
            {
                "slug": slug,
                "name": mck.text(m, "name", f"machine {slug!r}", max_len=100),
                "machine_type": mck.text(m, "machine_type", f"machine {slug!r}", max_len=4),
                "generation": mck.text(m, "generation", f"machine {slug!r}", required=False, max_len=40),
            }
        )
    if not machines:
        raise mck.fail("machines", "no machines are defined")

    sources: list[SourceData] = []
    for path in sorted(directory.glob("*.yaml")):
        if path.name == "machines.yaml":
            continue
        ck = _Checker(path.name)
        doc = ck.mapping(_read_yaml(path), "file")
        source = _check_source_block(ck, doc.get("source"), compiled="rules" in doc)
        source["data_file"] = path.name
        # References read "REDP-5114 Table 9-1, p. 28": a short label, else the document number.
        label = source.pop("label") or source["identifier"] or source["title"][:60]
        data = SourceData(file=path.name, source=source)
        data.paths = _check_paths(ck, doc.get("paths"))
        for key, target, checker in (
            ("points", data.points, _check_point),
            ("statements", data.statements, _check_statement),
        ):
            items = doc.get(key) or []
            if not isinstance(items, list):
                raise ck.fail(key, "must be a list")
            for i, item in enumerate(items):
                target.append(checker(ck, item, i, label))
            keys = [item["key"] for item in target]
            duplicates = sorted({k for k in keys if keys.count(k) > 1})
            if duplicates:
                raise ck.fail(key, f"key {duplicates[0]!r} is used twice")
        if doc.get("ratings_csv"):
            data.ratings = _read_ratings(ck, directory / str(doc["ratings_csv"]))
        if "rules" in doc:
            data.engine_rules = _check_engine_rules(ck, doc.get("rules"), doc.get("references"))
        sources.append(data)

    _check_cross_references(machines, sources)
    return ReferenceData(machines=machines, sources=sources)


def _check_cross_references(machines: list[dict[str, Any]], sources: list[SourceData]) -> None:
    machine_slugs = {m["slug"] for m in machines}
    machine_types = {m["machine_type"] for m in machines}
    generation_of = {m["machine_type"]: m["generation"] for m in machines}
    source_slugs: set[str] = set()
    configs: dict[str, set[str]] = {}
    for data in sources:
        if data.source["slug"] in source_slugs:
            raise ReferenceDataError(data.file, "source", f"slug {data.source['slug']!r} is used by another file")
        source_slugs.add(data.source["slug"])
        for p in data.paths:
            if p["slug"] in configs:
                raise ReferenceDataError(data.file, f"path {p['slug']!r}", "is defined in another file too")
            if p["native_machine"] not in machine_slugs:
                raise ReferenceDataError(data.file, f"path {p['slug']!r}", f"unknown machine {p['native_machine']!r}")
            configs[p["slug"]] = {c["slug"] for c in p["configurations"]}
    for data in sources:
        for pt in data.points:
            entry = f"point {pt['key']!r}"
            if pt["machine"] not in machine_slugs:
                raise ReferenceDataError(data.file, entry, f"unknown machine {pt['machine']!r}")
            if pt["path"] not in configs:
                raise ReferenceDataError(data.file, entry, f"unknown path {pt['path']!r}")
            if pt["configuration"] not in configs[pt["path"]]:
                raise ReferenceDataError(
                    data.file, entry, f"configuration {pt['configuration']!r} does not belong to path {pt['path']!r}"
                )
        for st in data.statements:
            entry = f"statement {st['key']!r}"
            if st["configuration"] and not st["path"]:
                raise ReferenceDataError(data.file, entry, "a statement with a configuration must name its path")
            if st["path"] and st["path"] not in configs:
                raise ReferenceDataError(data.file, entry, f"unknown path {st['path']!r}")
            if st["configuration"] and st["configuration"] not in configs[st["path"]]:
                raise ReferenceDataError(
                    data.file, entry, f"configuration {st['configuration']!r} does not belong to path {st['path']!r}"
                )
        for row in data.ratings:
            if row["machine_type"] not in machine_types:
                # Ratings for machines the tool does not size for are skipped, not an error.
                row["skip"] = True
            elif row["generation"] != generation_of[row["machine_type"]]:
                raise ReferenceDataError(
                    data.file,
                    row["model"],
                    f"generation {row['generation']!r} differs from machines.yaml "
                    f"({generation_of[row['machine_type']]!r} for {row['machine_type']})",
                )
        for rule in data.engine_rules:
            for machine_type in rule["machine_types"]:
                if machine_type in generation_of and generation_of[machine_type] != rule["generation"]:
                    raise ReferenceDataError(
                        data.file,
                        f"rule {rule['generation']!r}",
                        f"machine type {machine_type} is generation {generation_of[machine_type]!r} in machines.yaml",
                    )
    rule_types = {t for data in sources for rule in data.engine_rules for t in rule["machine_types"]}
    if any(data.engine_rules for data in sources):
        unruled = sorted(machine_types - rule_types)
        if unruled:
            raise ReferenceDataError("machines.yaml", f"machine type {unruled[0]}", "has no specialty-engine rule")


#: The fields a rule's one-line citation is about: the engine that runs Java work, its ratio to
#: CPs and the CP every LPAR needs (the sentence the answer's basis prints).  The other
#: references (full speed, SMT, engine counts) stay in the rule's ``references``.
_RULE_SENTENCE_FIELDS = frozenset({"java_engine", "ziips_per_cp", "zaaps_per_cp", "min_cps_per_lpar"})


def _rule_reference_text(references: list[dict[str, Any]]) -> str:
    """The documents behind a rule's sentence, each title once, cut at a title (at most 400
    characters, the column's size), never mid-title."""
    titles = [r["title"] for r in references if _RULE_SENTENCE_FIELDS & set(r["supports"])]
    titles = list(dict.fromkeys(titles or [r["title"] for r in references]))
    text = ""
    for title in titles:
        joined = title if not text else f"{text}; {title}"
        if len(joined) > 400:
            break
        text = joined
    return text or titles[0][:400]
