"""The rendering corpus (issue 30): every path and configuration, on six kinds of machine, in
every kind of answer (fits, overloaded on given CPs, does not fit, a lower-bound saturation, no
CPU data), through every surface a customer reads: the answer's JSON, the workbench (its chart
data over HTTP, and in headless Chromium), the saved page, the estimate PDF (pdftotext), the CSV
and the XLSX (the estimate list's opened in LibreOffice Calc), and the comparison page and PDF
of two or three of them.

The cases come from ``tests/sizing/corpus.py``: the reference data and the engine's own first
answers, no result written here.  Each test collects every problem of every case and fails once
with the list, so one broken cell does not hide the others.

**Design.**  The whole cross product (every path and configuration x six machines x each kind
it gives: 244 answers) is generated once per session, each answer checked to be its kind and to
name its generation's engine; then every case goes through every surface:

* over HTTP, in this process (the test client): saved (POST), its saved page, the workbench's
  chart data, its estimate PDF, CSV and XLSX.  The PDFs' text is read by pdftotext in a shell
  loop over 40 files a process, started as each batch is full, so it runs beside the walk on the
  other core (a fork of this process per PDF cost more than the text itself);
* the estimate list's CSV and XLSX (every saved case, one row each) open in LibreOffice Calc:
  two conversions for the whole corpus (each estimate's own CSV row is checked equal to its row
  in the list; tests/sizing/test_spreadsheets.py opens the other exports);
* the comparison page and PDF: for every (machine, kind) one case of it, beside a case of another
  engine or none: a zIIP answer with zIIPs beside one with none and a zAAP one, a no-zIIP answer
  beside a zIIP one and a zAAP one, a zAAP answer beside a zIIP one and one with none; every
  second of them as a pair with its first partner (30 comparisons, 15 of three);
* the workbench in headless Chromium: one page for the whole corpus, asked through its form as a
  person would (path, configuration, machine or model, rate; Size), the answer read from the
  request the page itself sends; a screenshot of the first case of each kind on each machine goes
  to ``test-artifacts/`` (git-ignored).

Where the time goes (this process's CPU, as the walk prints it, for the 244 cases): the estimate
PDFs 46 s (0.19 s each; reportlab's layout two thirds of it, the report's story and chart data
the rest), the 30 comparisons 14 s, the chart data 7.5 s, saving 6 s, the XLSX 4.6 s, the pages
3 s, the CSV 2.3 s; pdftotext 0.1 s here (its own processes run beside the walk).
Measured (the three tests, ``-p no:cacheprovider --reuse-db``, with six other helpers' suites on
the two cores): 709 s in all at load average 9 to 13 (generation 42 s, every surface 401 s of
which the estimate PDFs 186 s, the workbench 241 s), 127 s of this process's CPU (user); the
walk of the margins before it (67 cases over HTTP, 10 in the browser) took 248 s at load 12 and
53 s of CPU.  Most of the wall time is waiting for a core: alone on the machine (as in CI) the
file should take about its CPU time plus Chromium's and LibreOffice's.

What is asserted on each surface:

* no 5xx (every answer 200 or 201);
* no "not published" sentence where the answer has a basis: no "No CPU figures are published"
  (nor "? CPs") where the path has CPU data, no "No response times are published" where the
  answer has a response time;
* every engine label matches the generation: zAAP on z10..zEC12, zIIP from z13 (a count, a
  requirement, a demand, eligible work; a cited source's title may name either); no slug of a
  path, a configuration or a machine where a person reads;
* the same numbers on every surface: CPs, zIIPs (zAAPs), MIPS, utilisation, saturation and the
  most carried, from the JSON, as the saved page, the workbench, the PDF, the CSV (6 significant
  digits, docs/csv.md), the XLSX and Calc (numbers as numbers) have them;
* advice consistent with the binding resource: none where the answer fits, never CPs where a
  software limit binds, CPs (and how many) where CPs bind on given CPs, a bigger model where no
  model carries the rate; the PDF and the workbench print the same advice.
"""

from __future__ import annotations

import csv
import html
import io
import math
import re
import subprocess
import tempfile
import time
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from sizing.services.estimate_csv import UNITS
from sizing.services.estimates import estimate_answer_record
from tests.sizing.corpus import KINDS, Case, configurations, corpus, machine_kinds
from tests.sizing.test_spreadsheets import SOFFICE, _calc_rows, _convert

pytestmark = pytest.mark.django_db

#: Sentences that say a path publishes nothing: false wherever the answer has a CPU basis.
NO_CPU_SENTENCES = ("No CPU figures are published", "no CPU figures are published", "? CPs")
#: ... and that no response time is published: false wherever the answer has one.
NO_RESPONSE_SENTENCES = ("No response times are published", "No response times published")


def _not_published(answer: Mapping[str, Any], kind: str) -> tuple[str, ...]:
    """The "not published" sentences that would be false of this answer."""
    has_response = answer["response_time_ms"]["value"] is not None
    return (NO_CPU_SENTENCES if kind != "no-cpu-data" else ()) + (NO_RESPONSE_SENTENCES if has_response else ())


#: The CSV columns compared with the JSON answer (numbers), and how to read each from it.
NUMERIC_COLUMNS = {
    "tps": lambda a: a["tps"],
    "cps_required": lambda a: a["cps_required"],
    "ziips_required": lambda a: a["ziips_required"],
    "mips": lambda a: a["mips"],
    "msu": lambda a: a["msu"],
    "gcp_utilization": lambda a: a["gcp_utilization"],
    "saturation_tps": lambda a: a["saturation_tps"],
    "max_tps": lambda a: a["feasibility"]["max_tps"],
}


#: A parameter or column name (snake_case) where a customer reads words.
_PARAMETER = re.compile(r"\b[a-z]+_[a-z_]+\b")

#: pdftotext over many PDFs in one process: each file's text, then this separator.
_SEPARATOR = "\x1e--corpus-pdf-end--\x1e"
_PDFTOTEXT_LOOP = 'for f; do pdftotext -layout "$f" - || echo "pdftotext failed on $f"; printf "%s" "$SEP"; done'


class PdfTexts:
    """PDF texts through pdftotext, many files per process (a shell loop: one fork from this big
    process, not one each), each batch started as soon as it is full so that it runs beside the
    walk on the other core."""

    BATCH = 40

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pending: list[tuple[str, Path]] = []
        self.running: list[tuple[list[str], subprocess.Popen[str]]] = []

    def add(self, key: str, pdf: bytes) -> None:
        path = self.folder / f"{len(self.running) * self.BATCH + len(self.pending):05d}.pdf"
        path.write_bytes(pdf)
        self.pending.append((key, path))
        if len(self.pending) >= self.BATCH:
            self._start()

    def _start(self) -> None:
        if not self.pending:
            return
        keys, paths = zip(*self.pending, strict=True)
        proc = subprocess.Popen(
            ["sh", "-c", _PDFTOTEXT_LOOP, "sh", *map(str, paths)],
            stdout=subprocess.PIPE,
            text=True,
            env={"PATH": "/usr/bin:/bin", "SEP": _SEPARATOR},
        )
        self.running.append((list(keys), proc))
        self.pending = []

    def texts(self) -> dict[str, str]:
        """Every PDF's words (whitespace runs as one space), by key."""
        self._start()
        out: dict[str, str] = {}
        for keys, proc in self.running:
            stdout, _ = proc.communicate()
            assert proc.returncode == 0, proc.returncode
            parts = stdout.split(_SEPARATOR)
            assert len(parts) == len(keys) + 1 and not parts[-1].strip(), (len(parts), len(keys))
            out.update((k, " ".join(t.split())) for k, t in zip(keys, parts, strict=False))
        self.running = []
        return out


def _pdf_words(pdf: bytes) -> str:
    with tempfile.TemporaryDirectory() as folder:
        texts = PdfTexts(Path(folder))
        texts.add("one", pdf)
        return texts.texts()["one"]


def _page_words(body: bytes) -> str:
    """What a person reads on a page: the main text without tags, scripts or attributes."""
    text = body.decode()
    text = re.sub(r"<script\b.*?</script>", " ", text, flags=re.S)
    text = re.sub(r"<style\b.*?</style>", " ", text, flags=re.S)
    text = text.split("<main", 1)[-1]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def _kpis(body: bytes) -> dict[str, str]:
    """The saved page's cards: name -> value as printed."""
    found = re.findall(r'data-kpi="([a-z_]+)">(.*?)</span>\s*<span class="kpi-sub"', body.decode(), flags=re.S)
    return {k: " ".join(html.unescape(re.sub(r"<[^>]+>", " ", v)).split()) for k, v in found}


def _kind_of(answer: Mapping[str, Any]) -> str:
    """What kind an answer is, read from the answer."""
    codes = {w["code"] for w in answer["warnings"]}
    fit = answer["feasibility"]
    if "no-cpu-data" in codes:
        return "no-cpu-data"
    if fit["feasible"] is False:
        given = answer["inputs"]
        if "model" in given:  # a model's own CPs: overloaded within the ceiling, else does not fit
            return "overloaded" if fit["reason"] == "ceiling" else "does-not-fit"
        return "overloaded" if given.get("cps") is not None else "does-not-fit"
    if answer["saturation_kind"] == "lower-bound":
        return "lower-bound"
    return "fits"


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _slugs(case: Case, machine: str) -> list[str]:
    """Slugs a person must never read: the path's, a configuration's that no name has (two
    hyphens, or a digit after one: ``ipic-channel-64``) and a machine's that is not its name
    (``zec12``, ``z17-9176``; ``z16`` is both)."""
    out = [case.path]
    if case.configuration.count("-") >= 2 or re.search(r"-\d", case.configuration):
        out.append(case.configuration)
    if not re.fullmatch(r"z\d\d", machine):
        out.append(machine)
    return out


def _engine_labels(engine: str) -> re.Pattern[str]:
    """A label that names ``engine`` as the LPAR's own: a count of them, their demand, utilisation,
    eligible work or requirement (a cited source's title or words may name either engine)."""
    e = re.escape(engine)
    return re.compile(
        rf"\b\d[\d,]* (busy )?{e}s?\b(?! [A-Z])|\b{e}s required|\b{e}s? (demand|utili[sz]ation|pool|capacity)"
        rf"|\b{e}-eligible|\band {e}s?\b|\bbusy {e}s\b|\+ \d+ {e}|\b{e}s given"
    )


def _engine_problems(where: str, text: str, engine: str) -> list[str]:
    other = "zIIP" if engine == "zAAP" else "zAAP"
    out = []
    for m in _engine_labels(other).finditer(text):
        i = m.start()
        out.append(f"{where}: says {m.group(0)!r} on a {engine} machine: ...{text[max(0, i - 80) : i + 60]}...")
    return out[:2]


def _slug_problems(where: str, text: str, case: Case, machine: str) -> list[str]:
    out = []
    for slug in _slugs(case, machine):
        for m in re.finditer(rf"(?<![\w/-]){re.escape(slug)}(?![\w/-])", text):
            i = m.start()
            out.append(f"{where} shows the slug {slug!r}: ...{text[max(0, i - 60) : i + 40]}...")
    return out[:2]


def _fmt_csv(value: Any) -> float | None:
    return None if value is None else float(value)


#: Columns a spreadsheet reads rounded down, not to the nearest: the most carried, so that the
#: cell is itself a rate that fits (sizing.services.estimate_csv).
ROUNDED_DOWN = frozenset({"max_tps"})


def _rounded_down(want: Any, got: Any) -> bool:
    """``got`` is ``want`` rounded down to 6 significant digits (at or under it, by less than one
    unit of its 6th digit)."""
    if want is None or got is None:
        return want is None and got is None
    want, got = float(want), float(got)
    return got <= want and want - got < 10.0 ** (math.floor(math.log10(abs(want))) - 5) if want else got == 0.0


def _close(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(float(a), float(b), rel_tol=5e-6, abs_tol=1e-12)


# -- the corpus --------------------------------------------------------------------------------


@pytest.fixture(name="asker")
def fixture_asker(user: Any) -> Any:
    """One question answered as the estimate API answers it (its record's JSON), without HTTP:
    the corpus asks several hundred; the surfaces are then walked over HTTP."""

    def ask(inputs: Mapping[str, Any]) -> dict[str, Any]:
        return estimate_answer_record(user=user, inputs=dict(inputs)).to_dict()

    return ask


_CORPUS: list[Case] = []


def _corpus(ask: Any) -> list[Case]:
    """The corpus, generated once per session (the reference data do not change between tests)."""
    if not _CORPUS:
        _CORPUS.extend(corpus(ask))
    return list(_CORPUS)


@pytest.mark.xdist_group("rendering-corpus")  # the corpus is built once per process (_corpus)
def test_the_corpus_holds_every_kind_on_every_machine_and_each_answer_is_its_kind(asker: Any) -> None:
    machines = machine_kinds()
    assert [m.key for m in machines] == ["zaap", "z13", "z16", "z17", "sub-capacity", "midrange"]
    # the zAAP machine is of a generation whose rule names zAAPs; the others zIIPs
    cases = _corpus(asker)
    problems = []
    seen: dict[str, set[str]] = defaultdict(set)
    for case in cases:
        answer = case.answer
        kind = _kind_of(answer)
        seen[case.machine.key].add(kind)
        if kind != case.kind:
            problems.append(f"{case.id}: the answer is {kind}")
        engine = "zAAP" if case.machine.key == "zaap" else "zIIP"
        if answer["specialty_engine"] != engine:
            problems.append(f"{case.id}: specialty engine {answer['specialty_engine']}")
    assert not problems, "\n".join(problems)
    # every machine gives every kind; every configuration with CPU data fits and does not fit on each
    assert {k: v for k, v in seen.items() if v != set(KINDS)} == {}
    for path, config, _ in configurations():
        kinds = {c.kind for c in cases if (c.path, c.configuration) == (path, config)}
        assert kinds in ({"no-cpu-data"},) or {"fits", "does-not-fit", "overloaded"} <= kinds, (path, config, kinds)


#: Wall and CPU seconds (this process's) of each surface, printed at the end of a walk.
TIMES: dict[str, float] = defaultdict(float)
CPU: dict[str, float] = defaultdict(float)


def _timed(surface: str, get: Any, *args: Any, **kwargs: Any) -> Any:
    started, cpu = time.monotonic(), time.process_time()
    try:
        return get(*args, **kwargs)
    finally:
        TIMES[surface] += time.monotonic() - started
        CPU[surface] += time.process_time() - cpu


def _check_case(
    case: Case, api: Any, client: Any, problems: list[str], files: dict[str, dict[str, bytes]], pdfs: PdfTexts
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One case through every surface (its PDF's text to ``pdfs``); its saved answer and the
    workbench's chart data."""
    name = case.id
    created = _timed(
        "save", api.post, "/api/v1/estimates/", {**case.inputs, "name": f"corpus {case.kind}"}, format="json"
    )
    if created.status_code != 201:
        problems.append(f"{name}: POST estimates {created.status_code} {created.content[:200]!r}")
        return {}, {}
    a = dict(created.json())
    pk = a["id"]
    engine = a["specialty_engine"]
    # the saved answer is the corpus's (the same question asked again)
    for column, read in NUMERIC_COLUMNS.items():
        if not _close(read(a), read(case.answer)):
            problems.append(f"{name}: the saved {column} {read(a)!r}, the answer's {read(case.answer)!r}")
    has_cpu = case.kind != "no-cpu-data"
    fit = a["feasibility"]
    sat = a["saturation_tps"]
    # the numbers as a person reads them, written here from the JSON
    expected_cards: dict[str, str] = {}
    if has_cpu and fit["feasible"] is not False:
        expected_cards["cps_required"] = f"{a['cps_required']:,}"
        expected_cards["ziips_required"] = f"{a['ziips_required']:,}"
    if a["mips"] is not None:
        expected_cards["mips"] = f"{a['mips']:,.0f}"
    if sat is not None:
        expected_cards["saturation_tps"] = (
            f"\u2265 {sat:,.0f} TPS" if a["saturation_kind"] == "lower-bound" else f"{sat:,.0f} TPS"
        )

    # -- the saved page
    page = _timed("page", client.get, f"/estimates/{pk}/")
    if page.status_code != 200:
        problems.append(f"{name}: saved page {page.status_code}")
    else:
        words = _page_words(page.content)
        kpis = _kpis(page.content)
        for key, value in expected_cards.items():
            if kpis.get(key) != value:
                problems.append(f"{name}: saved page card {key} = {kpis.get(key)!r}, the JSON {value!r}")
        problems += _engine_problems(f"{name}: saved page", words, engine)
        problems += [f"{name}: saved page says {s!r}" for s in _not_published(a, case.kind) if s in words]
        problems += _slug_problems(f"{name}: saved page", words, case, a["machine"])

    # -- the workbench's chart data (what the page draws and the advice it prints)
    chart = _timed("chart-data", client.get, "/ui/chart-data", dict(case.inputs))
    if chart.status_code != 200:
        problems.append(f"{name}: chart data {chart.status_code} {chart.content[:200]!r}")
        body: dict[str, Any] = {}
    else:
        body = chart.json()
        shown = body["display"]["figures"]
        for key, value in expected_cards.items():
            if shown[key]["value"] != value:
                problems.append(f"{name}: workbench card {key} = {shown[key]['value']!r}, the JSON {value!r}")
        if has_cpu and (body["cpu"].get("line") is None):
            problems.append(f"{name}: the workbench CPU chart has no line though the answer has a basis")
        label = (body["cpu"].get("capacity") or {}).get("label") or ""
        problems += _engine_problems(f"{name}: CPU chart label", label, engine)
        problems += _advice_problems(name, a, body)
        for w in body["display"]["warnings"]:
            problems += _engine_problems(f"{name}: workbench warning", w["sentence"], engine)

    # -- the estimate PDF: its text is read after the walk (pdftotext over many at once)
    pdf = _timed("pdf", api.get, f"/api/v1/estimates/{pk}/report.pdf")
    if pdf.status_code != 200:
        problems.append(f"{name}: estimate PDF {pdf.status_code} {pdf.content[:200]!r}")
    else:
        pdfs.add(name, pdf.content)

    # -- CSV and XLSX: the JSON's numbers, 6 significant digits, numbers as numbers
    files[name] = {}
    for fmt in ("csv", "xlsx"):
        r = _timed(fmt, api.get, f"/api/v1/estimates/{pk}.{fmt}")
        if r.status_code != 200:
            problems.append(f"{name}: {fmt} {r.status_code}")
            continue
        files[name][fmt] = r.content
    if "csv" in files[name]:
        row = next(csv.DictReader(io.StringIO(files[name]["csv"].decode())))
        problems += _table_problems(f"{name}: CSV", a, {k: _csv_number(v) for k, v in row.items()}, row)
    if "xlsx" in files[name]:
        book = load_workbook(io.BytesIO(files[name]["xlsx"]), read_only=True)
        values = [list(r) for r in book.worksheets[0].iter_rows(values_only=True)]
        book.close()
        header = [str(h).split(" (")[0] for h in values[0]]
        cells = dict(zip(header, values[1], strict=False))
        problems += _table_problems(f"{name}: XLSX", a, cells, {k: str(v) for k, v in cells.items()})
    return a, body


def _pdf_problems(case: Case, a: Mapping[str, Any], body: Mapping[str, Any], words: str) -> list[str]:
    """The estimate PDF's text (pdftotext) says what the JSON and the workbench say."""
    name = case.id
    problems: list[str] = []
    engine = a["specialty_engine"]
    has_cpu = case.kind != "no-cpu-data"
    fit = a["feasibility"]
    sat = a["saturation_tps"]
    if "Summary" not in words:
        return [f"{name}: the PDF's text has no summary: {words[:200]!r}"]
    problems += _engine_problems(f"{name}: PDF", words, engine)
    problems += [f"{name}: PDF says {s!r}" for s in _not_published(a, case.kind) if s in words]
    problems += _slug_problems(f"{name}: PDF", words, case, a["machine"])
    # No parameter name ("give cics_regions", "no projection_band given"): an input by its label.
    problems += [f"{name}: PDF prints the parameter name {p!r}" for p in sorted(set(_PARAMETER.findall(words)))]
    summary = words.split("Summary", 1)[-1][:1500]
    if has_cpu and fit["feasible"] is not False:
        said = f"{_plural(a['cps_required'], 'CP')} and {_plural(a['ziips_required'], engine)}"
        if said not in summary:
            problems.append(f"{name}: PDF summary lacks {said!r}")
        if f"{a['mips']:,.0f} MIPS" not in summary:
            problems.append(f"{name}: PDF summary lacks {a['mips']:,.0f} MIPS")
    if fit["feasible"] is False and fit["max_tps"] is not None:
        most = f"the most it carries is {math.floor(fit['max_tps']):,} TPS"  # rounded down: it fits
        if most not in summary:
            problems.append(f"{name}: PDF summary lacks {most!r}")
    if sat is not None and f"{sat:,.0f} TPS" not in words:
        problems.append(f"{name}: PDF lacks the saturation {sat:,.0f} TPS")
    if body:
        for advice in body.get("advice", []):
            if " ".join(advice["sentence"].split()) not in words:
                problems.append(f"{name}: PDF lacks the workbench's advice {advice['sentence']!r}")
    if fit["reason"] == "software-limit" and re.search(r"\d+ (more )?CPs? (are|is) needed", words):
        problems.append(f"{name}: PDF proposes CPs against the software limit")
    return problems


def _csv_number(text: str) -> Any:
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def _table_problems(where: str, a: Mapping[str, Any], cells: Mapping[str, Any], text: Mapping[str, str]) -> list[str]:
    out = []
    for column, read in NUMERIC_COLUMNS.items():
        want, got = read(a), cells.get(column)
        if want is not None and (isinstance(got, bool) or not isinstance(got, (int, float))):
            out.append(f"{where}: {column} = {got!r} is not a number (JSON {want!r})")
        elif not (_rounded_down(want, got) if column in ROUNDED_DOWN else _close(want, got)):
            out.append(f"{where}: {column} = {got!r}, the JSON {want!r}")
        elif want is not None and where.endswith("CSV") and isinstance(want, float):
            mantissa = text[column].split("e")[0].lstrip("-0.")
            digits = len(re.sub(r"[^0-9]", "", mantissa if "." in mantissa else mantissa.rstrip("0")))
            if digits > 6:
                out.append(f"{where}: {column} = {text[column]!r} has more than 6 significant digits")
    if cells.get("specialty_engine") != a["specialty_engine"]:
        out.append(f"{where}: specialty_engine {cells.get('specialty_engine')!r}, the JSON {a['specialty_engine']!r}")
    for literal in ("True", "False", "None", "nan"):
        if where.endswith("CSV") and literal in text.values():
            out.append(f"{where}: a Python {literal}")
    return out


def _advice_problems(name: str, a: Mapping[str, Any], body: Mapping[str, Any]) -> list[str]:
    """Advice follows the binding resource (the chart data's, which the page and the PDF print)."""
    advice = body.get("advice") or []
    fit = a["feasibility"]
    util, ceiling = a["gcp_utilization"], a["max_utilization"]
    given = a["inputs"].get("cps")
    software = body.get("software_limit_tps")
    sentences = " ".join(x["sentence"] for x in advice)
    out = []
    if fit["feasible"] is None:  # no CPU data: no verdict, nothing to advise on CPs
        if any(x["resource"] == "cps" for x in advice):
            out.append(f"{name}: advice on CPs without CPU data")
        return out
    overloaded = given is not None and util is not None and util > ceiling + 1e-9
    if fit["feasible"] is not False and not overloaded:
        if any(x["resource"] != "specialty" for x in advice):
            out.append(f"{name}: advice where the answer fits: {sentences!r}")
        return out
    if not advice:
        out.append(f"{name}: no advice where the answer does not fit")
        return out
    software_binds = fit["reason"] == "software-limit" or (software is not None and a["tps"] >= software)
    if software_binds:
        if advice[0]["resource"] != "software":
            out.append(f"{name}: the software limit binds but the first advice is {advice[0]['resource']}")
        if re.search(r"\d+ more CPs?\b", sentences):
            out.append(f"{name}: proposes CPs against the software limit: {sentences!r}")
    elif overloaded and a["cps_required"] is not None and a["cps_required"] > given:
        cps = [x for x in advice if x["resource"] == "cps"]
        if not cps or f"({a['cps_required']:,} in all)" not in cps[0]["sentence"]:
            out.append(f"{name}: CPs bind on {given} CPs given, advice {sentences!r}")
    elif fit["reason"] == "engines" and not any(x["resource"] == "model" for x in advice):
        out.append(f"{name}: no model fits, advice {sentences!r}")
    return out


@pytest.mark.xdist_group("rendering-corpus")  # the corpus is built once per process (_corpus)
def test_every_surface_of_the_corpus_says_the_same_thing(
    api: Any, client: Any, user: Any, asker: Any, tmp_path: Path
) -> None:
    client.force_login(user)
    cases = _corpus(asker)
    problems: list[str] = []
    files: dict[str, dict[str, bytes]] = {}
    answers: dict[str, dict[str, Any]] = {}
    charts: dict[str, dict[str, Any]] = {}
    (tmp_path / "pdf").mkdir()
    pdfs = PdfTexts(tmp_path / "pdf")
    started = time.monotonic()
    for case in cases:
        answers[case.id], charts[case.id] = _check_case(case, api, client, problems, files, pdfs)
    texts = _timed("pdftotext", pdfs.texts)
    for case in cases:
        if case.id in texts:
            problems += _pdf_problems(case, answers[case.id], charts[case.id], texts[case.id])
    print(f"{len(cases)} cases on every surface in {time.monotonic() - started:.1f} s")
    assert len(texts) == len(cases) or problems  # every case's PDF was read (else a problem says why)
    problems += _timed("compare", _comparison_problems, api, client, cases, answers, tmp_path / "compare")
    problems += _timed("calc", _calc_problems, api, files, tmp_path)
    print("wall (cpu):", ", ".join(f"{k} {v:.1f} s ({CPU[k]:.1f} s)" for k, v in TIMES.items()))
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


Answered = tuple[Case, Mapping[str, Any]]


def _comparison_groups(cases: list[Case], answers: Mapping[str, Mapping[str, Any]]) -> list[tuple[Answered, ...]]:
    """The comparisons walked: for every (machine, kind) one case of it (rotating over the paths
    and configurations that give it) beside a case of another engine or none:

    * a zIIP answer with zIIPs: beside an answer with no zIIPs and a zAAP answer (a triple);
    * an answer with no zIIPs (no CPU data included): beside a zIIP answer with zIIPs and a zAAP one;
    * a zAAP answer: beside a zIIP answer with zIIPs and one with none;

    every second cell alone with its first partner (a pair), so pairs and triples of each kind
    are walked.  The partners rotate over the corpus's answers of every kind."""
    answered = [(c, answers[c.id]) for c in cases if answers.get(c.id)]
    zaap = [x for x in answered if x[1]["specialty_engine"] == "zAAP"]
    ziip = [x for x in answered if x[1]["specialty_engine"] == "zIIP" and (x[1]["ziips_required"] or 0) > 0]
    none = [x for x in answered if x[1]["specialty_engine"] == "zIIP" and not x[1]["ziips_required"]]
    assert zaap and ziip and none, (len(zaap), len(ziip), len(none))
    by_cell: dict[tuple[str, str], list[Answered]] = defaultdict(list)
    for x in answered:
        by_cell[(x[0].machine.key, x[0].kind)].append(x)
    groups: list[tuple[Answered, ...]] = []
    for i, (_, options) in enumerate(sorted(by_cell.items())):
        one = options[(i * 7) % len(options)]
        if one[1]["specialty_engine"] == "zAAP":
            partners = [ziip[(i * 11) % len(ziip)], none[(i * 13) % len(none)]]
        elif one[1]["ziips_required"]:
            partners = [none[(i * 11) % len(none)], zaap[(i * 13) % len(zaap)]]
        else:
            partners = [ziip[(i * 11) % len(ziip)], zaap[(i * 13) % len(zaap)]]
        partners = [p for p in partners if p[0].id != one[0].id]
        groups.append((one, *(partners if i % 2 == 0 else partners[:1])))
    return groups


def _comparison_problems(
    api: Any, client: Any, cases: list[Case], answers: Mapping[str, Mapping[str, Any]], folder: Path
) -> list[str]:
    """Each comparison (``_comparison_groups``) as a page and as a PDF: no 5xx, each engine named
    where one engine is compared, both where zAAPs stand beside zIIPs, each answer's CPs and
    saturation, no slug."""
    out: list[str] = []
    folder.mkdir()
    pdfs = PdfTexts(folder)
    groups = _comparison_groups(cases, answers)
    # zIIPs beside none and a zAAP beside a zIIP, each as a pair and in a triple, in each kind
    shapes = {
        (
            len(g),
            frozenset(
                "zAAP" if a["specialty_engine"] == "zAAP" else "zIIP" if a["ziips_required"] else "none" for _, a in g
            ),
        )
        for g in groups
    }
    for shape in (
        (2, frozenset({"zIIP", "none"})),
        (2, frozenset({"zAAP", "zIIP"})),
        (3, frozenset({"zAAP", "zIIP", "none"})),
    ):
        assert shape in shapes, (shape, shapes)
    assert {g[0][0].kind for g in groups} == set(KINDS)
    names: dict[str, tuple[Answered, ...]] = {}
    for group in groups:
        ids = ",".join(str(a["id"]) for _, a in group)
        name = " + ".join(c.id for c, _ in group)
        page = client.get("/estimates/compare/", {"id": [str(a["id"]) for _, a in group]})
        if page.status_code != 200:
            out.append(f"compare page {name}: {page.status_code}")
        else:
            shown = _page_words(page.content)
            engines = {a["specialty_engine"] for _, a in group}
            if len(engines) == 1:
                out += _engine_problems(f"compare page {name}", shown, next(iter(engines)))
            for c, a in group:
                out += _slug_problems(f"compare page {name}", shown, c, a["machine"])
                if a["saturation_tps"] is not None and f"{a['saturation_tps']:,.0f}" not in shown:
                    out.append(f"compare page {name}: lacks {c.id}'s saturation {a['saturation_tps']:,.0f}")
        r = api.get("/api/v1/estimates/report.pdf", {"ids": ids})
        if r.status_code != 200:
            out.append(f"compare {name}: {r.status_code} {r.content[:200]!r}")
            continue
        pdfs.add(name, r.content)
        names[name] = group
    for name, words in pdfs.texts().items():
        group = names[name]
        table = words.split("Side by side", 1)[-1]
        engines = {a["specialty_engine"] for _, a in group}
        if len(engines) == 1:
            out += _engine_problems(f"compare {name}", table, engines.pop())
        elif "Specialty engines required" not in table:
            out.append(f"compare {name}: zAAPs beside zIIPs without naming each")
        for c, a in group:
            out += _slug_problems(f"compare {name}", table, c, a["machine"])
            if a["feasibility"]["feasible"] is not False and a["cps_required"] is not None:
                if f"{a['cps_required']:,}" not in table:
                    out.append(f"compare {name}: lacks {c.id}'s {a['cps_required']} CPs")
            if a["saturation_tps"] is not None and f"{a['saturation_tps']:,.0f}" not in table:
                out.append(f"compare {name}: lacks {c.id}'s saturation {a['saturation_tps']:,.0f}")
    print(f"{len(groups)} comparisons ({sum(len(g) == 3 for g in groups)} of three)")
    return out


def _calc_problems(api: Any, files: Mapping[str, Mapping[str, bytes]], tmp_path: Path) -> list[str]:
    """The estimate list's CSV and XLSX (every saved estimate of the corpus, one row each) open in
    LibreOffice Calc with their numbers numeric and equal; each row is the estimate's own CSV row."""
    if SOFFICE is None:
        return ["LibreOffice Calc is missing: make test installs libreoffice-calc-nogui"]
    out = []
    listed: dict[str, bytes] = {}
    for fmt in ("csv", "xlsx"):
        r = api.get(f"/api/v1/estimates.{fmt}")
        if r.status_code != 200:
            return [f"estimate list {fmt}: {r.status_code}"]
        listed[fmt] = r.content
    rows = list(csv.DictReader(io.StringIO(listed["csv"].decode())))
    own = {}
    for name, got in files.items():
        if "csv" in got:
            row = next(csv.DictReader(io.StringIO(got["csv"].decode())))
            own[row["estimate_id"]] = (name, row)
    if {r["estimate_id"] for r in rows} != set(own):
        out.append(f"estimate list: rows {sorted(r['estimate_id'] for r in rows)}, saved {sorted(own)}")
    for row in rows:
        name, single = own.get(row["estimate_id"], ("?", {}))
        if single and row != single:
            differ = [k for k in row if row[k] != single.get(k)]
            out.append(f"{name}: the list's CSV row differs from the estimate's in {differ}")
    src, conv = tmp_path / "src", tmp_path / "calc"
    src.mkdir()
    conv.mkdir()
    (src / "list-csv.csv").write_bytes(listed["csv"])
    (src / "list-xlsx.xlsx").write_bytes(listed["xlsx"])
    _convert([src / "list-csv.csv"], conv, csv_in=True)
    _convert([src / "list-xlsx.xlsx"], conv, csv_in=False)
    numeric = {c for c, unit in UNITS.items() if unit} | {"estimate_id"}
    checked = 0
    for stem in ("list-csv", "list-xlsx"):
        header, calc = _calc_rows(conv / f"{stem}.xlsx")
        header = [h.split(" (")[0] for h in header]
        if len(calc) != len(rows):
            out.append(f"{stem} in Calc: {len(calc)} rows, the CSV {len(rows)}")
        for row, values in zip(rows, calc, strict=False):
            cells = dict(zip(header, values, strict=False))
            for column in numeric:
                want = _csv_number(row.get(column, ""))
                if not isinstance(want, (int, float)):
                    continue  # text (a time) or empty: not a number in the CSV either
                cell = cells.get(column)
                checked += 1
                if isinstance(cell, bool) or not isinstance(cell, (int, float)):
                    out.append(
                        f"{own.get(row['estimate_id'], ('?',))[0]} {stem}: {column} = {cell!r} not a number in Calc"
                    )
                elif not math.isclose(float(cell), float(want), rel_tol=5e-6):
                    out.append(
                        f"{own.get(row['estimate_id'], ('?',))[0]} {stem}: {column} = {cell!r}, the CSV {want!r}"
                    )
    if not checked:
        out.append("Calc: no number checked")
    return out


# -- the workbench in a browser: every case, in one page, asked through its form ----------------


def _browser_cases(ask: Any) -> list[Case]:
    """Every case of the corpus (generated here when this test runs alone)."""
    return _corpus(ask)


#: Fills the workbench's form with one case's inputs as a person would (the path, then its
#: configuration, the machine or a model, the rate) and presses Size: the rate is cleared first
#: so that choosing the path or machine does not size the half-filled form.
_ASK_THE_FORM = """([inputs, blank]) => {
  const form = document.getElementById('size-form');
  const field = (name) => form.elements.namedItem(name);
  const choose = (name, value) => {
    field(name).value = value;
    field(name).dispatchEvent(new Event('change', { bubbles: true }));
  };
  field('tps').value = '';
  for (const [name, value] of Object.entries(blank)) field(name).value = value;
  choose('path', inputs.path);
  choose('configuration', inputs.configuration);
  if (inputs.machine) choose('machine', inputs.machine);
  for (const name of ['cps', 'payload_bytes', 'model']) if (inputs[name] !== undefined) field(name).value = inputs[name];
  field('tps').value = inputs.tps;
  document.getElementById('size-button').click();
}"""

#: What the page shows once it has answered: the result's text, the cards, the form's labels.
_READ_THE_PAGE = """() => {
  const text = (el) => (el ? el.textContent : '');
  const cards = {};
  for (const k of ['cps_required', 'ziips_required', 'mips', 'saturation_tps'])
    cards[k] = document.querySelector(`[data-kpi="${k}"]`).innerText;
  return {
    result: document.getElementById('result').innerText,
    cards,
    labels: [
      text(document.querySelector('label[for="f-ziips"]')),
      text(document.querySelector('label[for="f-objective"]')),
      text(document.querySelector('#f-objective option[value="fewest-engines"]')),
    ],
  };
}"""
_ANSWERED = """() => document.getElementById('size-status').textContent.startsWith('Updated')
  && !document.getElementById('result').classList.contains('is-busy')"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_workbench_says_the_same_for_every_case(live_server: Any, asker: Any) -> None:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from playwright.sync_api import sync_playwright

    from tests.sizing.test_ui_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS

    call_command("load_benchmarks", verbosity=0)  # a transactional test starts from a flushed database
    cases = _browser_cases(asker)
    assert {(c.machine.key, c.kind) for c in cases} == {(m.key, k) for m in machine_kinds() for k in KINDS}
    get_user_model().objects.create_user(username="corpus", password="sizing-pass-7")
    connections.close_all()  # no ORM under Playwright's event loop
    problems: list[str] = []
    shot: set[tuple[str, str]] = set()
    started = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        pg = context.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.set_default_timeout(20_000)
        pg.goto(f"{live_server.url}/login/")
        pg.get_by_label("User name").fill("corpus")
        pg.get_by_label("Password").fill("sizing-pass-7")
        pg.get_by_role("button", name="Log in").click()
        pg.wait_for_url(re.compile(r"/size/(\?.*)?$"))
        # the example on the page answered: Size is pressed only when it is not busy
        pg.wait_for_function("() => !document.getElementById('size-button').disabled")
        # the optional fields as the empty form has them: each case starts from these
        blank = pg.evaluate(
            """() => Object.fromEntries(['cps', 'ziips', 'max_utilization', 'payload_bytes', 'clients',
              'think_time_s', 'response_time_sla_ms', 'model'].map((n) => [n, document.getElementById('f-' + n).value]))"""
        )
        try:
            for case in cases:
                # one screenshot for each kind on each machine (git-ignored: to look at)
                screenshot = (case.machine.key, case.kind) not in shot
                shot.add((case.machine.key, case.kind))
                problems += _workbench_problems(pg, case, blank, ARTIFACTS if screenshot else None)
        finally:
            context.close()
            browser.close()
    print(f"{len(cases)} cases in the workbench in {time.monotonic() - started:.1f} s")
    assert not errors, errors
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def _typed(case: Case) -> dict[str, str]:
    """The case's inputs as a person types them: 1230, not 1230.0."""
    return {k: str(int(v)) if isinstance(v, float) and v.is_integer() else str(v) for k, v in case.inputs.items()}


def _asked(case: Case) -> Any:
    """Whether a chart-data request is the one the form sends for ``case`` (a model's machine,
    setting and CPs are added by the form)."""
    from urllib.parse import parse_qs, urlsplit

    def match(response: Any) -> bool:
        url = urlsplit(response.url)
        if url.path != "/ui/chart-data":
            return False
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        return all(query.get(k) == v for k, v in _typed(case).items() if k != "model")

    return match


def _workbench_problems(pg: Any, case: Case, blank: Mapping[str, str], screenshots: Path | None) -> list[str]:
    name = f"workbench {case.id}"
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        with pg.expect_response(_asked(case)) as asked:
            pg.evaluate(_ASK_THE_FORM, [_typed(case), dict(blank)])
        got = asked.value
    except PlaywrightTimeout:
        said = pg.evaluate(
            "() => [document.getElementById('size-status').textContent, location.search,"
            " document.getElementById('form-errors').textContent]"
        )
        return [f"{name}: the form sent no question for {_typed(case)}; the page says {said}"]
    if got.status != 200:
        return [f"{name}: chart data {got.status}"]
    body = got.json()
    pg.wait_for_function(_ANSWERED)
    a = body["estimate"]
    out = [
        f"{name}: the workbench's {column} {read(a)!r}, the answer's {read(case.answer)!r}"
        for column, read in NUMERIC_COLUMNS.items()
        if not _close(read(a), read(case.answer))
    ]
    if case.kind != "no-cpu-data":
        pg.wait_for_selector("#chart-cpu .main-svg")
    shown = pg.evaluate(_READ_THE_PAGE)
    text = " ".join(shown["result"].split())
    if screenshots is not None:
        screenshots.mkdir(exist_ok=True)  # git-ignored: to look at (docs/ keeps the chosen pictures)
        pg.screenshot(path=str(screenshots / f"corpus-{case.machine.key}-{case.kind}.png"), full_page=True)
    out += _engine_problems(name, text, a["specialty_engine"])
    out += _slug_problems(name, text, case, body["target"]["machine"])
    # the form's own words name the same engine: "zAAPs" given, "Mix of CPs and zAAPs"
    engine = a["specialty_engine"]
    wants = (f"{engine}s", f"Mix of CPs and {engine}s", f"Fewest engines (CPs + {engine}s)")
    out += [
        f"{name}: the form says {said!r}, not {want!r}"
        for said, want in zip(shown["labels"], wants, strict=True)
        if said.strip() != want
    ]  # textContent: the advanced options may be folded away
    out += [f"{name}: says {s!r}" for s in _not_published(a, case.kind) if s in text]
    # the cards: the JSON's numbers, formatted as a person reads them
    cards = {k: " ".join(v.split()) for k, v in shown["cards"].items()}
    fit = a["feasibility"]
    overloaded = a["inputs"].get("cps") is not None and (a["gcp_utilization"] or 0) > a["max_utilization"]
    if case.kind != "no-cpu-data" and fit["feasible"] is not False and not overloaded:
        if cards["cps_required"] != f"{a['cps_required']:,}":
            out.append(f"{name}: CPs card {cards['cps_required']!r}, the JSON {a['cps_required']}")
        if cards["ziips_required"] != f"{a['ziips_required']:,}":
            out.append(f"{name}: {a['specialty_engine']}s card {cards['ziips_required']!r}")
    if a["mips"] is not None and cards["mips"] != f"{a['mips']:,.0f}":
        out.append(f"{name}: MIPS card {cards['mips']!r}, the JSON {a['mips']:,.0f}")
    sat = a["saturation_tps"]
    if sat is not None:
        want = f"\u2265 {sat:,.0f} TPS" if a["saturation_kind"] == "lower-bound" else f"{sat:,.0f} TPS"
        if cards["saturation_tps"] != want:
            out.append(f"{name}: saturation card {cards['saturation_tps']!r}, the JSON {want!r}")
    # the advice printed is the server's, which follows the binding resource
    out += _advice_problems(name, a, body)
    for advice in body["advice"]:
        if " ".join(advice["sentence"].split()) not in text:
            out.append(f"{name}: the page lacks the advice {advice['sentence']!r}")
    return out
