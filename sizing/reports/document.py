"""The PDF itself: embedded fonts, styles, page furniture and the building blocks of a report.

ReportLab's Platypus lays the story out; nothing here writes PDF syntax.  The fonts are the
Bitstream Vera family that ships inside the ReportLab package (``reportlab/fonts``), registered
as TrueType fonts so that ReportLab embeds (a subset of) them in every report: a report renders
the same on any machine, whatever fonts it has.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import reportlab
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    LongTable,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    TableStyle,
)
from reportlab.platypus.doctemplate import BaseDocTemplate

from sizing.presentation import DASH as DASH
from sizing.presentation import WarningText, number, prepared_line
from sizing.presentation import finite as finite

#: Font family embedded in every report (TrueType files of the ReportLab package).
FONT = "ZsizerVera"
FONT_BOLD = "ZsizerVera-Bold"
FONT_ITALIC = "ZsizerVera-Italic"
FONT_BOLD_ITALIC = "ZsizerVera-BoldItalic"
_FONT_FILES = {
    FONT: "Vera.ttf",
    FONT_BOLD: "VeraBd.ttf",
    FONT_ITALIC: "VeraIt.ttf",
    FONT_BOLD_ITALIC: "VeraBI.ttf",
}

PAGE = A4
MARGIN = 16 * mm
#: Width available to flowables, points.
FRAME_WIDTH = PAGE[0] - 2 * MARGIN

INK = colors.HexColor("#1f2933")
MUTED = colors.HexColor("#5f6b7a")
RULE = colors.HexColor("#c7ced6")
HEAD_FILL = colors.HexColor("#e8edf2")
DECISION = colors.HexColor("#a61b1b")
CAVEAT = colors.HexColor("#8a5a00")
#: A comparison's row where the estimates differ (the compare page's "differs" rows).
DIFFERS_FILL = colors.HexColor("#fff4d6")

#: What a missing number prints as.

#: In the spirit of the seeds' own notices (IBM Redbooks and product performance reports).
DISCLAIMER = (
    "The performance data behind this report were measured by the publishers of the sources listed, in "
    "controlled environments with the hardware, software and workloads they describe. Results obtained in "
    "other operating environments may vary significantly, and there is no guarantee that the same or "
    "similar results will be obtained elsewhere. The figures are estimates projected from published "
    "measurements with linear cost models, queueing models and LSPR ratings; they are a starting point "
    "for capacity planning, not a commitment. Users should verify them for their own environment, for "
    "example with RMF data from a test of the real workload."
)


@cache
def register_fonts() -> str:
    """Register the embedded font family once per process; return the regular font's name."""
    folder = Path(reportlab.__file__).resolve().parent / "fonts"
    for name, file_name in _FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(folder / file_name)))
    registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT_ITALIC, boldItalic=FONT_BOLD_ITALIC)
    return FONT


@dataclass(frozen=True)
class Styles:
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle
    cell_num: ParagraphStyle
    head_cell: ParagraphStyle
    compact: ParagraphStyle
    compact_num: ParagraphStyle
    compact_head: ParagraphStyle
    title: ParagraphStyle
    subtitle: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle
    caption: ParagraphStyle


@cache
def styles() -> Styles:
    register_fonts()
    body = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=12, textColor=INK, spaceAfter=4)
    small = ParagraphStyle("small", parent=body, fontSize=7.5, leading=9.5, textColor=MUTED)
    cell = ParagraphStyle("cell", parent=body, fontSize=7.5, leading=9.2, spaceAfter=0)
    return Styles(
        body=body,
        small=small,
        cell=cell,
        cell_num=ParagraphStyle("cell_num", parent=cell, alignment=TA_RIGHT),
        head_cell=ParagraphStyle("head_cell", parent=cell, fontName=FONT_BOLD),
        compact=ParagraphStyle("compact", parent=cell, fontSize=6.5, leading=8),
        compact_num=ParagraphStyle("compact_num", parent=cell, fontSize=6.5, leading=8, alignment=TA_RIGHT),
        compact_head=ParagraphStyle("compact_head", parent=cell, fontName=FONT_BOLD, fontSize=6.5, leading=8),
        title=ParagraphStyle("title", parent=body, fontName=FONT_BOLD, fontSize=17, leading=21, spaceAfter=2),
        subtitle=ParagraphStyle("subtitle", parent=body, textColor=MUTED, spaceAfter=8),
        # keepWithNext: a heading never ends a page without what it heads
        h1=ParagraphStyle(
            "h1", parent=body, fontName=FONT_BOLD, fontSize=12.5, leading=16, spaceBefore=10, keepWithNext=1
        ),
        h2=ParagraphStyle(
            "h2", parent=body, fontName=FONT_BOLD, fontSize=10, leading=13, spaceBefore=6, keepWithNext=1
        ),
        caption=ParagraphStyle("caption", parent=small, spaceBefore=2, spaceAfter=8),
    )


# -- numbers as the report prints them ---------------------------------------------------------


# One set of number rules for the pages and the PDF (sizing.presentation).
num = number


def pct(value: Any, digits: int = 0) -> str:
    v = finite(value)
    return DASH if v is None else num(v * 100, digits) + "%"


def span(low: Any, high: Any, digits: int = 0, unit: str = "") -> str:
    """``low..high`` as the report prints ranges (the engine's low..high)."""
    lo, hi = finite(low), finite(high)
    if lo is None or hi is None:
        return DASH
    text = f"{num(lo, digits)}..{num(hi, digits)}"
    return f"{text} {unit}" if unit else text


def escape(text: Any) -> str:
    """Text for a Paragraph (which reads a little XML)."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# -- building blocks -------------------------------------------------------------------------


def para(text: str, style: ParagraphStyle | None = None) -> Paragraph:
    """A paragraph of already-escaped text (use :func:`escape` on anything a user typed)."""
    return Paragraph(text, style or styles().body)


def heading(text: str, level: int = 1) -> list[Flowable]:
    """A heading kept with what follows (no heading alone at the foot of a page)."""
    s = styles()
    return [CondPageBreak(30 * mm), Paragraph(escape(text), s.h1 if level == 1 else s.h2)]


def _cell(value: Any, numeric: bool, compact: bool = False) -> Paragraph:
    s = styles()
    if compact:
        return Paragraph(escape(value), s.compact_num if numeric else s.compact)
    return Paragraph(escape(value), s.cell_num if numeric else s.cell)


def fitted_widths(header: Sequence[str], rows: Sequence[Sequence[Any]], *, compact: bool = False) -> list[float]:
    """Column widths (fractions of the frame) that hold each column's longest word, header and
    cells alike, so no word breaks inside itself ("utili-sation"); the width left over goes to
    the columns in proportion.  Where even the words do not fit, the widths are shared the same
    way (and a word that cannot fit breaks)."""
    s = styles()
    head, body = (s.compact_head, s.compact) if compact else (s.head_cell, s.cell)
    pad = 6.0  # the cell's left and right padding (data_table)

    def longest(text: Any, style: ParagraphStyle) -> float:
        words = str(text).split() or [""]
        return max(pdfmetrics.stringWidth(w, style.fontName, style.fontSize) for w in words) + pad

    needs = [longest(h, head) for h in header]
    for row in rows:
        for i, v in enumerate(row[: len(needs)]):
            needs[i] = max(needs[i], longest(v, body))
    total = sum(needs) or 1.0
    return [n / total for n in needs]


def data_table(
    header: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    widths: Sequence[float] | None = None,
    numeric: Sequence[bool] | None = None,
    compact: bool = False,
) -> LongTable:
    """A table whose header row repeats on every page it spills onto.

    ``widths`` are fractions of the frame width (default: equal); ``numeric`` right-aligns
    columns; ``compact`` sets a smaller type for wide tables.  Cells are paragraphs, so long text wraps inside its column.
    """
    s = styles()
    n = len(header)
    right = list(numeric) if numeric is not None else [False] * n
    fractions = list(widths) if widths is not None else [1.0 / n] * n
    body = [[_cell(v, right[i], compact) for i, v in enumerate(row)] for row in rows]
    head = s.compact_head if compact else s.head_cell
    table = LongTable(
        [[Paragraph(escape(h), head) for h in header], *body],
        colWidths=[f * FRAME_WIDTH for f in fractions],
        repeatRows=1,
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 7.5),
                ("BACKGROUND", (0, 0), (-1, 0), HEAD_FILL),
                ("LINEBELOW", (0, 0), (-1, 0), 0.6, RULE),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return table


def key_values(rows: Iterable[tuple[str, str]], *, key_width: float = 0.32) -> LongTable:
    """Two columns: a label and its (already formatted) value."""
    return data_table(["", ""], rows, widths=[key_width, 1.0 - key_width])


def warning_list(warnings: Sequence[WarningText]) -> list[Flowable]:
    """Every warning in one plain sentence, decision-level first, with its level; the engine's
    reasoning is printed once, with the sources (:func:`warning_reasons`)."""
    s = styles()
    if not warnings:
        return [para("No warnings.", s.small)]
    out: list[Flowable] = []
    for w in warnings:
        color = {"decision": DECISION, "caveat": CAVEAT}.get(w.level, MUTED)
        label = {"decision": "Decision", "caveat": "Caveat", "note": "Note"}.get(w.level, w.level)
        out.append(para(f'<font color="{color.hexval()}"><b>{escape(label)}</b></font> {escape(w.sentence)}'))
    return out


def warning_reasons(warnings: Sequence[WarningText]) -> list[Flowable]:
    """The engine's reasoning and citations behind the warnings, each text once."""
    seen: set[str] = set()
    out: list[Flowable] = []
    for w in warnings:
        if not w.details or w.details in seen:
            continue
        seen.add(w.details)
        out.append(para("\u2022 " + escape(w.details), styles().small))
    return [*heading("Why: the reasoning behind the warnings", 2), *out] if out else []


def figure(drawing: Flowable, caption: str) -> KeepTogether:
    return KeepTogether([drawing, para(caption, styles().caption)])


@dataclass(frozen=True)
class Meta:
    """What the page furniture prints: the report's title, its author and when it was made."""

    title: str
    author: str
    created: datetime
    subject: str = "zsizer sizing report"
    #: Who the report is prepared for ("" when no customer was named).
    customer: str = ""


def _furniture(meta: Meta) -> Any:
    def draw(canvas: Canvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont(FONT, 7)
        canvas.setFillColor(MUTED)
        head = f"zsizer \u00b7 {meta.title}"[: 110 - len(meta.customer)]
        canvas.drawString(MARGIN, PAGE[1] - 10 * mm, head + (f" \u00b7 for {meta.customer}" if meta.customer else ""))
        canvas.drawRightString(PAGE[0] - MARGIN, PAGE[1] - 10 * mm, meta.created.strftime("%Y-%m-%d %H:%M UTC"))
        canvas.drawString(MARGIN, 9 * mm, "Estimates from published measurements: results in other environments vary.")
        canvas.drawRightString(PAGE[0] - MARGIN, 9 * mm, f"page {doc.page}")
        canvas.restoreState()

    return draw


def render(story: list[Flowable], meta: Meta) -> bytes:
    """Lay the story out on A4 pages with header and footer; the PDF as bytes."""
    register_fonts()
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=PAGE,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=meta.title,
        author=meta.author,
        subject=f"{meta.subject} for {meta.customer}" if meta.customer else meta.subject,
        creator="zsizer",
        # Every font in the file is an embedded one, the canvas's first font included.
        initialFontName=FONT,
        initialFontSize=9,
    )
    furniture = _furniture(meta)
    doc.build(story, onFirstPage=furniture, onLaterPages=furniture)
    return buffer.getvalue()


def title_block(
    *, title: str, scenario: str, author: str, created: datetime, lines: Sequence[str] = (), customer: str = ""
) -> list[Flowable]:
    """The title, who the report is prepared for and by (:func:`sizing.presentation.prepared_line`),
    the scenario and the date."""
    s = styles()
    prepared = escape(prepared_line(customer, author))
    sub = " \u00b7 ".join([f"Scenario: {escape(scenario)}", created.strftime("%Y-%m-%d %H:%M UTC")])
    out: list[Flowable] = [para(escape(title), s.title), para(f"<b>{prepared}</b>", s.body), para(sub, s.subtitle)]
    out.extend(para(line, s.small) for line in lines)
    out.append(Spacer(1, 4))
    return out


def disclaimer() -> list[Flowable]:
    return [*heading("Disclaimer"), para(escape(DISCLAIMER), styles().small)]
