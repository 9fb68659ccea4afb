"""Read RMF Postprocessor Workload Activity report text.

The Workload Activity report (``REPORT(WLMGL)``) prints, for the policy, each workload, service
class and report class, a grid of label/value pairs in fixed columns: transactions, transaction
times, DASD I/O, service units, service times and APPL% (percent of one CP), followed since
z/OS 2.1 by the ``TRANSACTIONS APPL%`` TOTAL and MOBILE lines. Text pasted from a PDF or a
terminal arrives with tabs and spaces mixed, columns drifted, and labels or values split across
cells. This parser therefore reads each grid row with whitespace removed and matches the row's
labels in their published order, so a value is always taken from the column it belongs to
(``CPU`` in the first row is service *time*, in the second service *units*), and a row whose
labels are out of order is refused rather than misread.

References
----------
IBM, *z/OS Resource Measurement Facility Report Analysis*, "Workload Activity report"
(column meanings: TRANS-TIME HHH.MM.SS.TTT, SERVICE TIME in seconds, APPL% in percent of one CP).
Seed extracts: z/OS Connect EE V3.0 Performance Summary, Figure 3; IBM CICS Performance Series:
CICS TS V5.3 Benchmark on IBM z13 (REDP-5320), Figures 6, 10, 11 and 14.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = [
    "MAX_REPORT_CHARS",
    "MAX_VALUE",
    "ApplPercent",
    "DasdIO",
    "RmfReport",
    "ServiceTimes",
    "ServiceUnits",
    "TransactionAppl",
    "TransactionTimes",
    "Transactions",
    "WorkloadSection",
    "parse_workload_activity",
]

#: Longest text accepted (characters). A day of 15-minute intervals for a few hundred classes
#: fits well inside; beyond this the caller is pasting something else.
MAX_REPORT_CHARS = 1_000_000
#: Largest value read from a report: RMF prints at most eight characters with a K or M suffix
#: (99999M = 1e11); a longer number is pasted from elsewhere, and would overflow sums.
MAX_VALUE = 1e15
#: Non-blank lines allowed between ``REPORT BY`` and the grid (CRITICAL, DESCRIPTION, goal lines).
_MAX_HEADING_LINES = 6

_VALUE = r"(-?\d+(?:\.\d+)*[KM]?|N/A)"
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f\ufffd]")
# A service-class heading also names its workload and resource group: the class is the subject.
_SUBJECTS = tuple(
    (kind, re.compile(rf"\b{label}\s*=\s*(\S+)", re.IGNORECASE))
    for kind, label in (
        ("service_class", r"SERVICE\s+CLASS"),
        ("report_class", r"REPORT\s+CLASS"),
        ("workload", "WORKLOAD"),
        ("resource_group", r"RESOURCE\s+GROUP"),
    )
)
_POLICY = re.compile(r"\bPOLICY\s*=\s*(\S+)", re.IGNORECASE)
_PERIOD = re.compile(r"\bPERIOD\s*=\s*(\d+)", re.IGNORECASE)
_DESCRIPTION = re.compile(r"\bDESCRIPTION\s*=\s*(.*)$", re.IGNORECASE)
_INTERVAL = re.compile(r"INTERVAL(\d+(?:\.\d+){1,3})")
_TRANSACTION_APPL = re.compile(r"(TOTAL|MOBILE):CP" + _VALUE + r"AAP/IIPONCP" + _VALUE + r"AAP/IIP" + _VALUE)

# Each grid row: its leading label, then (label pattern, field) pairs in the published column
# order. Fields are "<group>.<name>"; the group says how the value is read.
_ROWS: dict[str, tuple[tuple[str, str], ...]] = {
    "AVGENC": (("AVGENC", "tx.avg_enc"), ("STDDEV", "time.std_dev"), ("IIP", "st.iip")),
    "REMENC": (("REMENC", "tx.rem_enc"), ("ABSRPTN", "su.absrptn")),
    "MSENC": (("MSENC", "tx.ms_enc"), ("TRXSERV", "su.trx_serv")),
    "AVG": (
        ("AVG", "tx.avg"),
        ("ACTUAL", "time.actual"),
        ("SSCHRT", "io.ssch_rate"),
        ("IOC", "su.ioc"),
        ("CPU", "st.cpu"),
        ("CP", "appl.cp"),
    ),
    "MPL": (
        ("MPL", "tx.mpl"),
        ("EXECUTION", "time.execution"),
        ("RESP", "io.resp"),
        ("CPU", "su.cpu"),
        ("SRB", "st.srb"),
        ("AAPCP", "appl.aapcp"),
    ),
    "ENDED": (
        ("ENDED", "tx.ended"),
        ("QUEUED", "time.queued"),
        ("CONN", "io.conn"),
        ("MS[OD0]", "su.mso"),
        ("RCT", "st.rct"),
        ("IIPCP", "appl.iipcp"),
    ),
    "END/S": (("END/S", "tx.end_per_s"), ("R/SAFFIN", "time.rs_affin"), ("DISC", "io.disc")),
    "#SWAPS": (
        ("#SWAPS", "tx.swaps"),
        ("INELIGIBLE", "time.ineligible"),
        ("Q\\+PEND", "io.q_pend"),
        ("TOT", "su.tot"),
        ("HST", "st.hst"),
        ("AAP", "appl.aap"),
    ),
    "EXCTD": (
        ("EXCTD", "tx.exctd"),
        ("CONVERSION", "time.conversion"),
        ("IOSQ", "io.iosq"),
        ("/SEC", "su.per_s"),
        ("AAP", "st.aap"),
        ("IIP", "appl.iip"),
    ),
}
_ROWS["END/S"] = (*_ROWS["END/S"], ("SRB", "su.srb"), ("IIT", "st.iit"))
#: Rows every section must have (the report prints them even when a class is idle).
_REQUIRED_ROWS = ("AVG", "MPL", "ENDED", "END/S", "#SWAPS", "EXCTD")
# First characters of every line read once a section's grid is complete (rows, TRANSACTIONS APPL%).
_ROW_INITIALS = frozenset("AMER#T")
# Columns right of APPL% (promoted, storage, page-in rates) may follow; they are not read.
_TAIL = r"(?:(?:BLK|ENQ|CRM|LCK|SUP|AVG|TOTAL|SHARED|SINGLE|BLOCK|HSP|COMMON|FIXED)" + _VALUE + r"|-PAGE-INRATES-|-)*"


@dataclass(frozen=True)
class Transactions:
    """The TRANSACTIONS column.

    Attributes
    ----------
    avg, mpl : float
        Average active and in-storage transactions (count).
    ended : int
        Transactions that completed in the interval.
    end_per_s : float
        Ended transactions per second (the ETR, transactions/s).
    swaps, exctd : int
        Swap-ins; transactions executed here on behalf of another region (routed, EXCTD).
    avg_enc, rem_enc, ms_enc : float or None
        Average enclaves, remote enclaves, multisystem enclaves.
    """

    avg: float
    mpl: float
    ended: int
    end_per_s: float
    swaps: int
    exctd: int
    avg_enc: float | None = None
    rem_enc: float | None = None
    ms_enc: float | None = None


@dataclass(frozen=True)
class TransactionTimes:
    """The TRANS-TIME column, in milliseconds (printed as HHH.MM.SS.TTT)."""

    actual: float | None = None
    execution: float | None = None
    queued: float | None = None
    rs_affin: float | None = None
    ineligible: float | None = None
    conversion: float | None = None
    std_dev: float | None = None


@dataclass(frozen=True)
class DasdIO:
    """The DASD I/O column: SSCH rate (/s) and RESP, CONN, DISC, Q+PEND, IOSQ times (ms)."""

    ssch_rate: float | None = None
    resp: float | None = None
    conn: float | None = None
    disc: float | None = None
    q_pend: float | None = None
    iosq: float | None = None


@dataclass(frozen=True)
class ServiceUnits:
    """The SERVICE column, in service units (``K`` = 1,000, ``M`` = 1,000,000); ``per_s`` per second."""

    ioc: float | None = None
    cpu: float | None = None
    mso: float | None = None
    srb: float | None = None
    tot: float | None = None
    per_s: float | None = None
    absrptn: float | None = None
    trx_serv: float | None = None


@dataclass(frozen=True)
class ServiceTimes:
    """The SERVICE TIME column, in CPU seconds over the interval (None where RMF prints N/A)."""

    cpu: float | None = None
    srb: float | None = None
    rct: float | None = None
    iit: float | None = None
    hst: float | None = None
    aap: float | None = None
    iip: float | None = None


@dataclass(frozen=True)
class ApplPercent:
    """The APPL% column: percent of one processor (100 = one engine busy).

    ``cp`` is all work on general processors, including ``aapcp`` and ``iipcp``: work eligible
    for a zAAP or zIIP that ran on a CP. ``aap`` and ``iip`` ran on the specialty engines.
    """

    cp: float | None = None
    aapcp: float | None = None
    iipcp: float | None = None
    aap: float | None = None
    iip: float | None = None

    def specialty_eligible_fraction(self) -> float | None:
        """Share of all CPU that could run on a zIIP or zAAP: (IIP + IIPCP + AAP + AAPCP) / (CP + IIP + AAP)."""
        if self.cp is None:
            return None
        on_specialty = (self.iip or 0.0) + (self.aap or 0.0)
        total = self.cp + on_specialty
        if total <= 0.0:
            return None
        return (on_specialty + (self.iipcp or 0.0) + (self.aapcp or 0.0)) / total


@dataclass(frozen=True)
class TransactionAppl:
    """One ``TRANSACTIONS APPL%`` line (TOTAL or MOBILE), percent of one CP."""

    cp: float
    specialty_on_cp: float
    specialty: float


@dataclass(frozen=True)
class WorkloadSection:
    """One report section: the policy, a workload, a service class or a report class.

    Attributes
    ----------
    kind : str
        ``policy``, ``workload``, ``service_class``, ``report_class`` or ``resource_group``.
    name : str
        The class or workload name (the policy name for the policy section).
    line : int
        Line number (1-based) of its ``REPORT BY`` line.
    interval_s : float or None
        Interval length from the page header (s), when the header was pasted.
    """

    kind: str
    name: str
    policy: str
    description: str
    line: int
    interval_s: float | None
    transactions: Transactions
    times_ms: TransactionTimes
    dasd: DasdIO
    service_units: ServiceUnits
    service_time_s: ServiceTimes
    appl: ApplPercent
    transactions_total: TransactionAppl | None = None
    transactions_mobile: TransactionAppl | None = None
    period: int | None = None

    def cp_seconds_per_transaction(self) -> float | None:
        """General-processor CPU per ended transaction: APPL% CP / 100 / END/S (CP-seconds)."""
        if self.appl.cp is None or self.transactions.end_per_s <= 0.0:
            return None
        return self.appl.cp / 100.0 / self.transactions.end_per_s


@dataclass(frozen=True)
class RmfReport:
    """Every section read from one pasted report, in the order they appear."""

    sections: tuple[WorkloadSection, ...]

    def section(self, name: str) -> WorkloadSection:
        """The first section with this name (case-insensitive); KeyError if there is none."""
        for section in self.sections:
            if section.name.upper() == name.upper():
                return section
        raise KeyError(name)


def _number(text: str, where: str) -> float | None:
    if text == "N/A":
        return None
    scale = {"K": 1e3, "M": 1e6}.get(text[-1], 1.0)
    digits = text.rstrip("KM")
    if digits.count(".") > 1:
        raise ValueError(f"{where}{text!r} is not a number")
    value = float(digits) * scale
    if not (math.isfinite(value) and abs(value) <= MAX_VALUE):
        raise ValueError(f"{where}{text[:24]!r} is too large (at most {MAX_VALUE:g})")
    return value


def _hms_ms(text: str, micro: bool) -> float | None:
    """TRANS-TIME value HHH.MM.SS.TTT (leading parts suppressed) in milliseconds."""
    if text == "N/A":
        return None
    parts = text.split(".")
    if len(parts) > 4 or text.endswith(("K", "M")):
        raise ValueError(f"{text!r} is not a time of the form HHH.MM.SS.TTT")
    fraction = float(parts[-1]) / (1000.0 if micro else 1.0)
    seconds = 0.0
    for weight, part in zip((1.0, 60.0, 3600.0), reversed(parts[:-1]), strict=False):
        seconds += weight * float(part)
    value = seconds * 1000.0 + fraction
    if not (math.isfinite(value) and value <= MAX_VALUE):
        raise ValueError(f"{text[:24]!r} is too large (at most {MAX_VALUE:g} ms)")
    return value


def _row_pattern(columns: tuple[tuple[str, str], ...]) -> re.Pattern[str]:
    pattern = ""
    for label, _ in reversed(columns[1:]):
        pattern = f"(?:{label}{_VALUE}{pattern})?"
    # The whole row must be consumed (with the tail), so a value such as "0.0" before "MSO" is
    # not misread as "0.0M" followed by a broken label.
    return re.compile(f"^{columns[0][0]}{_VALUE}{pattern}{_TAIL}$")


_PATTERNS = {key: _row_pattern(columns) for key, columns in _ROWS.items()}


@dataclass
class _Builder:
    """Mutable state for the section being read."""

    line: int
    header: str
    interval_s: float | None
    description: list[str] = field(default_factory=list)
    grid: bool = False
    complete: bool = False
    micro: bool = False
    rows: dict[str, dict[str, str]] = field(default_factory=dict)
    appl_lines: dict[str, TransactionAppl] = field(default_factory=dict)


def _read_row(key: str, packed: str, number: int, raw: str) -> dict[str, str]:
    match = _PATTERNS[key].match(packed)
    if match is None:
        raise ValueError(
            f"line {number}: cannot read the {key} row (columns out of order, a label unknown or a value "
            f"missing): {raw.strip()[:120]!r}"
        )
    values = match.groups()[: len(_ROWS[key])]
    return {name: value for (_, name), value in zip(_ROWS[key], values, strict=True) if value is not None}


def _row_key(packed: str) -> str | None:
    for key in ("AVGENC", "REMENC", "MSENC", "AVG", "MPL", "ENDED", "END/S", "#SWAPS", "EXCTD"):
        if packed.startswith(key):
            return key
    return None


def _lines(text: str) -> Iterator[tuple[int, str, str]]:
    for number, raw in enumerate(text.splitlines(), start=1):
        yield number, raw, "".join(raw.split()).upper()


def _check_text(text: str) -> None:
    if len(text) > MAX_REPORT_CHARS:
        raise ValueError(f"the report is {len(text):,} characters; at most {MAX_REPORT_CHARS:,} are read")
    junk = _CONTROL.search(text)
    if junk is not None:
        line = text.count("\n", 0, junk.start()) + 1
        raise ValueError(f"line {line}: binary data (character {ord(junk.group()):#04x}); paste the report as text")


def _interval_s(text: str) -> float:
    """Page-header INTERVAL MM.SS.TTT (or HH.MM.SS.TTT) in seconds."""
    return (_hms_ms(text, micro=False) or 0.0) / 1000.0


def _heading(raw: str) -> tuple[str, str, str, int | None, str]:
    """Kind, name, policy, period and inline description from a ``REPORT BY`` line."""
    policy_match = _POLICY.search(raw)
    policy = policy_match.group(1) if policy_match else ""
    period_match = _PERIOD.search(raw)
    description_match = _DESCRIPTION.search(raw)
    description = description_match.group(1).strip() if description_match else ""
    period = int(period_match.group(1)) if period_match else None
    for kind, pattern in _SUBJECTS:
        found = pattern.search(raw)
        if found is not None:
            return kind, found.group(1), policy, period, description
    return "policy", policy, policy, None, description


def _take(values: dict[str, str], group: str, micro: bool, where: str) -> dict[str, float | None]:
    taken: dict[str, float | None] = {}
    for key, text in values.items():
        prefix, _, name = key.partition(".")
        if prefix != group:
            continue
        try:
            taken[name] = _hms_ms(text, micro) if group == "time" else _number(text, "")
        except ValueError as error:
            raise ValueError(f"{where}: {name.upper()} {error}") from None
    return taken


def _transactions(values: dict[str, float | None], where: str) -> Transactions:
    required = ("avg", "mpl", "ended", "end_per_s", "swaps", "exctd")
    missing = [name for name in required if values.get(name) is None]
    if missing:
        raise ValueError(f"{where}: no value for {', '.join(missing).upper()} in the TRANSACTIONS column")
    counts = {name: values[name] for name in required}
    return Transactions(
        avg=float(counts["avg"] or 0.0),
        mpl=float(counts["mpl"] or 0.0),
        ended=round(counts["ended"] or 0.0),
        end_per_s=float(counts["end_per_s"] or 0.0),
        swaps=round(counts["swaps"] or 0.0),
        exctd=round(counts["exctd"] or 0.0),
        avg_enc=values.get("avg_enc"),
        rem_enc=values.get("rem_enc"),
        ms_enc=values.get("ms_enc"),
    )


def _finish(builder: _Builder) -> WorkloadSection:
    kind, name, policy, period, description = _heading(builder.header)
    where = f"section {name or '(unnamed)'} (line {builder.line})"
    if not builder.grid:
        raise ValueError(f"{where}: no '-TRANSACTIONS-' column header follows; the report looks truncated")
    missing = [key for key in _REQUIRED_ROWS if key not in builder.rows]
    if missing:
        raise ValueError(f"{where}: ends without its {', '.join(missing)} row(s); the report looks truncated")
    values = {key: text for row in builder.rows.values() for key, text in row.items()}
    micro = builder.micro
    return WorkloadSection(
        kind=kind,
        name=name,
        policy=policy,
        description=description or " ".join(part for part in builder.description if part),
        line=builder.line,
        interval_s=builder.interval_s,
        transactions=_transactions(_take(values, "tx", micro, where), where),
        times_ms=TransactionTimes(**_take(values, "time", micro, where)),
        dasd=DasdIO(**_take(values, "io", micro, where)),
        service_units=ServiceUnits(**_take(values, "su", micro, where)),
        service_time_s=ServiceTimes(**_take(values, "st", micro, where)),
        appl=ApplPercent(**_take(values, "appl", micro, where)),
        transactions_total=builder.appl_lines.get("TOTAL"),
        transactions_mobile=builder.appl_lines.get("MOBILE"),
        period=period,
    )


def _read_appl_line(builder: _Builder, number: int, raw: str, packed: str) -> None:
    matches = list(_TRANSACTION_APPL.finditer(packed))
    expected = packed.count("TOTAL:") + packed.count("MOBILE:")
    if len(matches) != expected:
        raise ValueError(f"line {number}: cannot read the TRANSACTIONS APPL% line: {raw.strip()[:120]!r}")
    for match in matches:
        where = f"line {number}: "
        cp, on_cp, specialty = (_number(text, where) or 0.0 for text in match.groups()[1:])
        builder.appl_lines[match.group(1)] = TransactionAppl(cp=cp, specialty_on_cp=on_cp, specialty=specialty)


def _feed(builder: _Builder, number: int, raw: str, packed: str) -> None:
    """Read one non-blank line into the section being built."""
    if packed.startswith("-TRANSACT"):
        if builder.grid:
            raise ValueError(f"line {number}: a second column header in the section of line {builder.line}")
        builder.grid, builder.micro = True, "FFFFFF" in packed
        return
    if not builder.grid:
        if len(builder.description) >= _MAX_HEADING_LINES:
            raise ValueError(f"line {number}: no '-TRANSACTIONS-' grid follows the REPORT BY line {builder.line}")
        text = _DESCRIPTION.search(raw)
        if text is not None or "=" not in raw:  # not CRITICAL =NONE and the like
            builder.description.append((text.group(1) if text else raw).strip())
        return
    key = _row_key(packed)
    if key is not None:
        if key in builder.rows:
            raise ValueError(f"line {number}: a second {key} row in the section of line {builder.line}")
        builder.rows[key] = _read_row(key, packed, number, raw)
        builder.complete = all(row in builder.rows for row in _REQUIRED_ROWS)
    elif "APPL%:" in packed or packed.startswith(("TOTAL:", "MOBILE:")):
        _read_appl_line(builder, number, raw, packed)
    elif not builder.complete:
        raise ValueError(f"line {number}: not a Workload Activity row: {raw.strip()[:120]!r}")


def parse_workload_activity(text: str) -> RmfReport:
    """Read every section of an RMF Workload Activity report pasted as text.

    Parameters
    ----------
    text : str
        The report, as printed by the RMF Postprocessor or copied from a PDF (tabs, spaces and
        split cells are tolerated). Lines before the first ``REPORT BY`` and after each section's
        grid (goals, response-time distributions, page headers) are skipped.

    Returns
    -------
    RmfReport
        The sections in order, values in the units of their dataclass fields.

    Raises
    ------
    ValueError
        Naming the line that cannot be read: binary data, a row whose columns are out of order or
        incomplete, a section cut short, or text with no Workload Activity section at all.
    """
    _check_text(text)
    sections: list[WorkloadSection] = []
    builder: _Builder | None = None
    interval: float | None = None
    for number, raw, packed in _lines(text):
        if not packed:
            continue
        if "INTERVAL" in packed and (found := _INTERVAL.search(packed)) is not None:
            interval = _interval_s(found.group(1))
        heading = packed.startswith("REPORTBY:")
        if heading or (packed.startswith("-TRANSACT") and (builder is None or builder.grid)):
            if builder is not None:
                sections.append(_finish(builder))
            builder = _Builder(line=number, header=raw if heading else "", interval_s=interval)
            if heading:
                continue
        if builder is not None and not (builder.complete and packed[0] not in _ROW_INITIALS):
            _feed(builder, number, raw, packed)
    if builder is not None:
        sections.append(_finish(builder))
    if not sections:
        raise ValueError(
            "no Workload Activity section found (expected a 'REPORT BY:' line and a '-TRANSACTIONS-' grid)"
        )
    return RmfReport(sections=tuple(sections))
