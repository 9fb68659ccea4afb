"""Read the Partition Data Report section of an RMF Postprocessor CPU Activity report.

The section (z/OS RMF Report Analysis, "CPU - CPU Activity report", "Using the information in
the Partition Data Report") begins with header lines (MVS partition name, image capacity, the
number of configured partitions, the number of physical processors in total and per type, wait
completion, dispatch interval) and then one row per partition and processor type, grouped by
type (the CPs first, then the specialty engines):

    NAME S WGT | MSU DEF ACT | CAPPING DEF WLM% | PROCESSOR NUM TYPE |
    DISPATCH TIME DATA EFFECTIVE TOTAL | LOGICAL PROCESSORS EFFECTIVE TOTAL |
    PHYSICAL PROCESSORS LPAR MGMT EFFECTIVE TOTAL

``S`` is the status (``A`` active, ``D`` deactivated, printed without figures), ``WGT`` the
processing weight or ``DED`` for dedicated processors, the dispatch times ``HH.MM.SS.TTT``
and the utilisations percentages: LOGICAL of the partition's logical processors, PHYSICAL of
the physical processors of that type.  The MSU columns are printed on the CP rows only; the
``*PHYSICAL*`` line (time not attributed to a partition), dash lines and the ``TOTAL`` line are
not partitions.  As :mod:`models_lib.rmf` does for the Workload Activity report, a pasted
report's tabs and spaces read alike; a row that starts like a partition and cannot be read,
a figure out of range, control characters, or text without the section give a ``ValueError``
naming the line.

References
----------
IBM, *z/OS V2R4 Resource Measurement Facility Report Analysis*, "CPU - CPU Activity report"
(ibm.com/docs SSLTBW_2.4.0 erbb500 cpu.htm) and "Using the information in the Partition Data
Report" (partd.htm): its header, partition data, logical partition processor data and average
processor utilisation percentages.  SMF 70-1 fields behind it: IBM SMF Explorer, SMF70S1
(processor_weight X'FFFF' = dedicated; dispatch_time_total).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from models_lib.cec import MAX_WEIGHT, Lpar, LparPool

__all__ = ["PartitionDataReport", "PartitionRow", "parse_partition_data"]

#: Longest text accepted (characters), as the Workload Activity parser.
MAX_REPORT_CHARS = 1_000_000
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f\ufffd]")
_HEADING = re.compile(r"PARTITION\s+DATA(?!\s+REPORT)", re.IGNORECASE)
_TYPES = ("CP", "IIP", "AAP", "ICF", "IFL")
_TIME = r"\d+\.\d\d\.\d\d\.\d{3}"
_NUM = r"\d+(?:\.\d+)?"
_ROW = re.compile(
    rf"^(?P<name>[A-Z0-9$#@*][A-Z0-9$#@*_-]{{0,7}})\s+(?P<status>[AD])\s+(?P<weight>\d+|DED)"
    rf"(?:\s+(?P<msu_def>\d+)\s+(?P<msu_act>\d+))?"
    rf"(?:\s+(?P<capping>NO|YES)\s+(?P<wlm>{_NUM}))?"
    rf"\s+(?P<num>{_NUM})\s+(?P<type>CP|IIP|AAP|ICF|IFL)"
    rf"\s+(?P<eff_time>{_TIME})\s+(?P<tot_time>{_TIME})"
    rf"\s+(?P<log_eff>{_NUM})\s+(?P<log_tot>{_NUM})\s+(?P<mgmt>{_NUM})\s+(?P<phys_eff>{_NUM})\s+(?P<phys_tot>{_NUM})\s*$",
    re.IGNORECASE,
)
_STARTS_LIKE_ROW = re.compile(r"^[A-Z0-9$#@][A-Z0-9$#@_-]{0,7}\s+[AD]\s+(\d|DED)", re.IGNORECASE)
_DEACTIVATED = re.compile(r"^[A-Z0-9$#@][A-Z0-9$#@_-]{0,7}\s+D(\s+(\d+|DED))?\s*$", re.IGNORECASE)
_PHYSICAL = re.compile(r"NUMBER\s+OF\s+PHYSICAL\s+PROCESSORS\s+(\d+)", re.IGNORECASE)
_PER_TYPE = re.compile(r"(?:^|\s)(CP|IIP|AAP|ICF|IFL)\s+(\d+)(?:\s|$)", re.IGNORECASE)
_MVS = re.compile(r"MVS\s+PARTITION\s+NAME\s+(\S+)", re.IGNORECASE)
#: The page header's interval, MM.SS.TTT (minutes, seconds, thousandths).
_INTERVAL = re.compile(r"INTERVAL\s+(\d+)\.(\d\d)\.(\d{3})\b", re.IGNORECASE)


@dataclass(frozen=True)
class PartitionRow:
    """One partition's row for one processor type, as printed (percentages in %, times in s).

    ``weight`` is ``None`` for dedicated processors (printed ``DED``); ``msu_def``/``msu_act``
    ``None`` where not printed (specialty-engine rows); ``capping`` ``"NO"``/``"YES"`` or
    ``None``; ``line`` the 1-based line number in the pasted text.
    """

    name: str
    status: str
    weight: int | None
    msu_def: int | None
    msu_act: int | None
    capping: str | None
    wlm_pct: float | None
    processors: float
    type: str
    dispatch_effective_s: float
    dispatch_total_s: float
    logical_effective_pct: float
    logical_total_pct: float
    lpar_mgmt_pct: float
    physical_effective_pct: float
    physical_total_pct: float
    line: int

    @property
    def dedicated(self) -> bool:
        return self.weight is None


@dataclass(frozen=True)
class PartitionDataReport:
    """The section: its header and rows (deactivated partitions are listed by name only)."""

    mvs_partition: str | None
    interval_s: float | None
    physical_total: int | None
    physical: dict[str, int]
    rows: tuple[PartitionRow, ...]
    deactivated: tuple[str, ...]

    def lpars(self) -> tuple[Lpar, ...]:
        """The active partitions that have CPs (z/OS images), with their CPs and zIIPs (or zAAPs)
        as :class:`models_lib.cec.Lpar`: logical engines = NUM rounded, busy = LOGICAL TOTAL %,
        capped = CAPPING DEF YES."""
        cps = {r.name: r for r in self.rows if r.type == "CP"}
        specials = {r.name: r for r in self.rows if r.type in ("IIP", "AAP")}
        out = []
        for name, cp in cps.items():
            z = specials.get(name)
            ziip = LparPool() if z is None else _pool(z)
            out.append(Lpar(name, _pool(cp), ziip, dedicated=cp.dedicated))
        return tuple(out)

    def installed(self, kind: str) -> int:
        """Physical processors of a type (``CP``, ``IIP``, ``AAP``, ``ICF``, ``IFL``; 0 if not printed)."""
        return self.physical.get(kind, 0)


def _pool(row: PartitionRow) -> LparPool:
    return LparPool(
        logical=int(round(row.processors)),
        weight=row.weight,
        capped=row.capping == "YES",
        busy_pct=row.logical_total_pct,
    )


def _seconds(text: str) -> float:
    h, m, s, ms = (int(x) for x in text.split("."))
    return h * 3600.0 + m * 60.0 + s + ms / 1000.0


def _check_text(text: str) -> None:
    if not isinstance(text, str) or not text.strip():
        raise ValueError("line 1: paste the Partition Data Report section of an RMF CPU Activity report")
    if len(text) > MAX_REPORT_CHARS:
        raise ValueError(f"line 1: the report is longer than {MAX_REPORT_CHARS:,} characters")
    bad = _CONTROL.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        raise ValueError(f"line {line}: control characters: this is not report text")


def _percent(value: str, what: str, number: int) -> float:
    v = float(value)
    if not 0.0 <= v <= 100.0:
        raise ValueError(f"line {number}: {what} {value} % is not a percentage (0..100)")
    return v


def _row(m: re.Match[str], number: int) -> PartitionRow:
    weight_text = m["weight"].upper()
    weight = None if weight_text == "DED" else int(weight_text)
    if weight is not None and not 1 <= weight <= MAX_WEIGHT:
        raise ValueError(f"line {number}: partition {m['name']}: weight {weight} is outside 1..{MAX_WEIGHT}")
    processors = float(m["num"])
    if not 0.0 < processors <= 256.0:
        raise ValueError(f"line {number}: partition {m['name']}: {m['num']} processors is outside 0..256")
    return PartitionRow(
        name=m["name"].upper(), status=m["status"].upper(), weight=weight,
        msu_def=None if m["msu_def"] is None else int(m["msu_def"]),
        msu_act=None if m["msu_act"] is None else int(m["msu_act"]),
        capping=None if m["capping"] is None else m["capping"].upper(),
        wlm_pct=None if m["wlm"] is None else _percent(m["wlm"], "WLM%", number),
        processors=processors, type=m["type"].upper(),
        dispatch_effective_s=_seconds(m["eff_time"]), dispatch_total_s=_seconds(m["tot_time"]),
        logical_effective_pct=_percent(m["log_eff"], "LOGICAL PROCESSORS EFFECTIVE", number),
        logical_total_pct=_percent(m["log_tot"], "LOGICAL PROCESSORS TOTAL", number),
        lpar_mgmt_pct=_percent(m["mgmt"], "LPAR MGMT", number),
        physical_effective_pct=_percent(m["phys_eff"], "PHYSICAL PROCESSORS EFFECTIVE", number),
        physical_total_pct=_percent(m["phys_tot"], "PHYSICAL PROCESSORS TOTAL", number),
        line=number,
    )  # fmt: skip


def _header(lines: list[str]) -> tuple[str | None, float | None, int | None, dict[str, int]]:
    mvs: str | None = None
    interval: float | None = None
    total: int | None = None
    physical: dict[str, int] = {}
    for raw in lines:
        if (m := _MVS.search(raw)) is not None:
            mvs = m[1]
        if (m := _INTERVAL.search(raw)) is not None:
            interval = int(m[1]) * 60.0 + int(m[2]) + int(m[3]) / 1000.0
        if (m := _PHYSICAL.search(raw)) is not None:
            total = int(m[1])
            raw = raw[: m.start()] + raw[m.end() :]
        for t, n in _PER_TYPE.findall(raw):
            physical.setdefault(t.upper(), int(n))
    return mvs, interval, total, physical


def parse_partition_data(text: str) -> PartitionDataReport:
    """Read the Partition Data Report section of a pasted CPU Activity report.

    Raises
    ------
    ValueError
        Naming the line: no section, a partition row that cannot be read, a figure out of
        range, a partition listed twice for one type, control characters.
    """
    _check_text(text)
    lines = [" ".join(raw.split()) for raw in text.splitlines()]
    start = next((i for i, raw in enumerate(lines) if _HEADING.search(raw)), None)
    if start is None:
        raise ValueError("line 1: no PARTITION DATA section: paste the Partition Data Report of a CPU Activity report")
    mvs, interval, total, physical = _header(lines[:start])
    rows: list[PartitionRow] = []
    deactivated: list[str] = []
    seen: set[tuple[str, str]] = set()
    for number, raw in enumerate(lines[start + 1 :], start=start + 2):
        if not raw or raw.startswith(("-", "*")) or raw.upper().startswith(("TOTAL", "NAME ")):
            continue
        m = _ROW.match(raw)
        if m is None:
            if _DEACTIVATED.match(raw):
                deactivated.append(raw.split()[0].upper())
                continue
            if _STARTS_LIKE_ROW.match(raw):
                raise ValueError(f"line {number}: cannot read the partition row {raw[:60]!r}")
            continue
        row = _row(m, number)
        if (row.name, row.type) in seen:
            raise ValueError(f"line {number}: partition {row.name} is listed twice for {row.type}")
        seen.add((row.name, row.type))
        rows.append(row)
    if not rows:
        raise ValueError(f"line {start + 1}: the PARTITION DATA section has no partition rows")
    return PartitionDataReport(mvs, interval, total, physical, tuple(rows), tuple(deactivated))
