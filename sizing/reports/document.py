"""The PDF itself: embedded fonts, styles, page furniture and the building blocks of a report.

ReportLab's Platypus lays the story out; nothing here writes PDF syntax.  The fonts are the
Bitstream Vera family that ships inside the ReportLab package (``reportlab/fonts``), registered
as TrueType fonts so that ReportLab embeds (a subset of) them in every report: a report renders
the same on any machine, whatever fonts it has.
"""

from __future__ import annotations

import io
from collections import Counter
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
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    LongTable,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.doctemplate import ActionFlowable, BaseDocTemplate, NullActionFlowable

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


#: The distinct rows (the most frequent first) and the widths tried for each column that
#: :func:`fitted_widths` weighs: enough for a table's look, bounded for a 5,000-row batch.
FIT_ROWS = 200
FIT_TRIES = 4


def fitted_widths(header: Sequence[str], rows: Sequence[Sequence[Any]], *, compact: bool = False) -> list[float]:
    """Column widths (fractions of the frame) that hold each column's longest word, header and
    cells alike, so no word breaks inside itself ("utili-sation").  The width left over goes,
    a step at a time, to the column whose widening saves the table the most lines for the width
    it takes (a workload's names beside numbers with room to spare: "FiTeq Authenticator (CICS
    sockets) / Multiple regions, no Validation Log" in three lines rather than six), and what
    no column can use to every column in proportion.  Where even the words do not fit, the
    widths are shared in proportion to them (and a word that cannot fit breaks)."""
    s = styles()
    head, body = (s.compact_head, s.compact) if compact else (s.head_cell, s.cell)
    pad = 6.0  # the cell's left and right padding (data_table)
    n = len(header)

    def longest(text: str, style: ParagraphStyle) -> float:
        words = text.split() or [""]
        return max(pdfmetrics.stringWidth(w, style.fontName, style.fontSize) for w in words) + pad

    # the header once, then each distinct row with the number of times it occurs
    counted = Counter(tuple(" ".join(str(v).split()) for v in row[:n]) for row in rows)
    table = [(tuple(" ".join(str(h).split()) for h in header), head, 1)]
    table += [(row, body, times) for row, times in counted.most_common(FIT_ROWS)]
    widths = [0.0] * n
    for row, style, _ in table:
        for i, text in enumerate(row):
            widths[i] = max(widths[i], longest(text, style))
    total = sum(widths) or 1.0
    if total >= FRAME_WIDTH:
        return [w / total for w in widths]
    said: dict[tuple[str, str, float], int] = {}

    def lines(text: str, style: ParagraphStyle, width: float) -> int:
        key = (text, style.name, width)
        if key not in said:
            said[key] = max(1, len(simpleSplit(text, style.fontName, style.fontSize, width - pad)))
        return said[key]

    def height(at: Sequence[float]) -> int:
        return sum(times * max(lines(t, style, at[i]) for i, t in enumerate(row)) for row, style, times in table)

    def shorter(i: int) -> list[float]:
        """The next widths of column ``i`` at which one of its texts takes a line less."""
        found = set()
        for row, style, _ in table:
            have = lines(row[i], style, widths[i])
            if have > 1:
                low, high = widths[i], widths[i] + pdfmetrics.stringWidth(row[i], style.fontName, style.fontSize)
                for _ in range(16):
                    mid = (low + high) / 2
                    low, high = (low, mid) if lines(row[i], style, mid) < have else (mid, high)
                found.add(round(high + 0.05, 1))
        return sorted(found)[:FIT_TRIES]

    now = height(widths)
    while True:
        spare = FRAME_WIDTH - sum(widths)
        best: tuple[float, int, float, int] | None = None  # (lines saved a point, column, width, height)
        for i in range(n):
            for w in (w for w in shorter(i) if w - widths[i] <= spare):
                tried = height([*widths[:i], w, *widths[i + 1 :]])
                gain = (now - tried) / (w - widths[i])
                if tried < now and (best is None or gain > best[0]):
                    best = (gain, i, w, tried)
        if best is None:
            break
        _, i, widths[i], now = best
    total = sum(widths)
    return [w / total for w in widths]


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


#: What an empty list of warnings says where the decisions were said before it.
NONE_BESIDES_DECISIONS = "No caveats or notes besides the decisions above."


def warning_list(warnings: Sequence[WarningText], empty: str = "No warnings.") -> list[Flowable]:
    """Every warning in one plain sentence, decision-level first, with its level; the engine's
    reasoning is printed once, with the sources (:func:`warning_reasons`); ``empty`` where there
    is none."""
    s = styles()
    if not warnings:
        return [para(empty, s.small)]
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
        # a reasoning that is the sentence itself (a does-not-fit's) was said with the warning
        if not w.details or w.details in seen or " ".join(w.details.split()) == " ".join(w.sentence.split()):
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


#: The least of the frame's height a page after the first holds, unless a deliberate break
#: (:class:`NewSection`, ``PageBreak``) starts the page after it: below a quarter of the frame a
#: page holds at most about 15 lines of body text (12 pt leading on a 739 pt frame), a leftover
#: rather than a page (issue 30 item 6: "no near-empty page").
MIN_FILL = 0.25
#: What a page that was near-empty is filled to by the content moved onto it: a margin over
#: :data:`MIN_FILL`, so that one more pass is rarely needed.
TARGET_FILL = 0.32
#: The frame's cursor stands below the last printed line by the line's space after it and the
#: leading below its descent (about 8 pt): a page is measured against :data:`MIN_FILL` with this
#: much more, so that its printed words reach the quarter too.
CURSOR_SLACK = 0.02
#: Layout passes at most: the first, and up to two that move content onto a near-empty page.
MAX_PASSES = 3


class NewSection(CondPageBreak):
    """A deliberate break: a new page unless ``height`` points are still free.  The page before it
    may end short (it ends a section); a page that simply overflows may not (:data:`MIN_FILL`)."""


class _Balance(PageBreak):
    """A page break the layout inserted to move content onto a page that would be near-empty."""


@dataclass(frozen=True)
class Layout:
    """Where a pass put things: each page's fill (the fraction of the frame's height used, from
    the frame's own cursor), whether a deliberate break started it, and for each story index that
    was drawn the page and height (points above the frame's foot) where it began."""

    fills: tuple[float, ...]
    deliberate: tuple[bool, ...]
    starts: dict[int, tuple[int, float]]
    #: the frame's usable height and its top, points
    height: float
    top: float

    def near_empty(self) -> list[int]:
        """The pages (1-based) below :data:`MIN_FILL`: not the first (the title and summary), not
        one that a deliberate break started (a section that is short), and not one before a
        deliberate break (it ends a section)."""
        out = []
        for page in range(2, len(self.fills) + 1):
            ends_section = page < len(self.fills) and self.deliberate[page]
            if self.fills[page - 1] < MIN_FILL + CURSOR_SLACK and not self.deliberate[page - 1] and not ends_section:
                out.append(page)
        return out


class _KeepWithNext(KeepTogether):
    """What ReportLab bundles for a heading kept with what follows it.  ReportLab moves the whole
    bundle to the next page when it does not fit, a long table under its heading included, which
    left a page with a few lines on it (a batch's question above an empty page).  Where more than
    :data:`MIN_FILL` of the frame is still free and the table or paragraph under the heading splits
    there, the heading stays and what it heads splits under it (a table's header row repeats)."""

    def split(self, aW: float, aH: float) -> list[Flowable]:
        parts: list[Flowable] = super().split(aW, aH)
        frame = getattr(self, "_frame", None)
        content: list[Flowable] = self.__dict__["_content"]
        last = content[-1]
        # KeepTogether begins its parts with a frame break where it moves, else with a no-op
        moved = bool(parts) and isinstance(parts[0], ActionFlowable) and not isinstance(parts[0], NullActionFlowable)
        splits = isinstance(last.inner if isinstance(last, _Shorten) else last, (Table, Paragraph))
        if not moved or frame is None or aH < MIN_FILL * frame._height or not splits:
            return parts
        head = sum(f.wrap(aW, aH)[1] + f.getSpaceAfter() for f in content[:-1]) + last.getSpaceBefore()
        last.wrapOn(self.canv, aW, aH - head)
        if len(last.splitOn(self.canv, aW, aH - head)) < 2:
            return parts
        return list(content)


class _Shorten(Flowable):
    """A table that splits ``less`` points higher on page ``page`` than it would: the rows below
    go onto the next page, which would otherwise be near-empty (:func:`render`)."""

    def __init__(self, inner: Flowable, page: int, less: float) -> None:
        super().__init__()
        self.inner, self.page, self.less = inner, page, less

    def _on_page(self) -> bool:
        doc = getattr(getattr(self, "canv", None), "_doctemplate", None)  # as Flowable._doctemplateAttr
        return bool(getattr(doc, "page", None) == self.page)

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        w, h = self.inner.wrap(aW, aH)
        self.width, self.height = w, h
        if self._on_page() and h > self.less:
            return w, aH + 1  # taller than the space: the frame splits it (split below)
        return w, h

    def getSpaceBefore(self) -> float:
        return float(self.inner.getSpaceBefore())

    def getSpaceAfter(self) -> float:
        return float(self.inner.getSpaceAfter())

    def split(self, aW: float, aH: float) -> list[Flowable]:
        h = self.inner.wrap(aW, aH)[1]
        if self._on_page():
            cut = min(h, aH) - self.less
            self.inner.wrap(aW, cut)
            shorter: list[Flowable] = self.inner.split(aW, cut)
            if len(shorter) >= 2:  # the rows below the cut on the next page, not under it
                return [shorter[0], _Balance(), *shorter[1:]]
            self.inner.wrap(aW, aH)
        parts: list[Flowable] = self.inner.split(aW, aH)
        return [*parts[:-1], _Shorten(parts[-1], self.page, self.less)] if parts else parts

    def draw(self) -> None:
        self.inner.drawOn(self.canv, 0, 0)


def _extent(frame: Any) -> tuple[float, float]:
    """Where a frame's content may begin and must end, points above the page's foot (ReportLab's
    Frame keeps them as private attributes: its top less the padding, its padded foot)."""
    return float(frame._y2 - frame._topPadding), float(frame._y1p)


def _cursor(frame: Any) -> float:
    """Where the frame's next flowable would begin, points above the page's foot."""
    return float(frame._y)


class _Measured(SimpleDocTemplate):
    """A document that records its layout (:class:`Layout`) as it builds."""

    def __init__(self, *args: Any, story: Sequence[Flowable], edits: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # what the layout changes on the story's flowables (a heading's keepWithNext, a
        # postponed flowable's mark), to be undone before another pass, as ReportLab's own
        # multiBuild does
        self._multiBuildEdits = edits.append
        self.keepTogetherClass = _KeepWithNext
        self._index = {id(f): i for i, f in enumerate(story)}
        self._current: int | None = None
        self._before: tuple[int, float] = (1, 0.0)
        self._last_top: Flowable | None = None
        self.fills: list[float] = []
        self.deliberate: list[bool] = []
        self.starts: dict[int, tuple[int, float]] = {}

    def handle_pageBegin(self) -> None:
        last = self._last_top
        self.deliberate.append(isinstance(last, (NewSection, PageBreak)) and not isinstance(last, _Balance))
        super().handle_pageBegin()

    def handle_pageEnd(self) -> None:
        top, foot = _extent(self.frame)
        self.fills.append((top - _cursor(self.frame)) / (top - foot))
        super().handle_pageEnd()

    def handle_flowable(self, flowables: list[Flowable]) -> None:
        frame = getattr(self, "frame", None)  # none yet while the first page is begun
        if flowables and frame is not None:
            front = flowables[0]
            index = self._index.get(id(front))
            if index is not None:
                self._current, self._last_top = index, front
            self._before = (self.page, _cursor(frame))
        super().handle_flowable(flowables)

    def afterFlowable(self, flowable: Flowable) -> None:
        # a break (a KeepTogether that moves begins with one) is not where the content begins
        if isinstance(flowable, ActionFlowable):
            return
        if self._current is not None and self._current not in self.starts:
            self.starts[self._current] = self._before

    def layout(self) -> Layout:
        top, foot = _extent(self.pageTemplate.frames[0])
        return Layout(tuple(self.fills), tuple(self.deliberate), dict(self.starts), top - foot, top)


def _keeps_with_next(flowable: Flowable) -> bool:
    """A heading (kept with what follows) or the break that keeps room for one."""
    keep = getattr(flowable, "keepWithNext", None)  # as Flowable.getKeepWithNext reads it
    if keep is None:
        keep = getattr(getattr(flowable, "style", None), "keepWithNext", 0)
    return isinstance(flowable, CondPageBreak) or bool(keep)


def balance_break(story: Sequence[Flowable], layout: Layout, page: int) -> int | None:
    """Where to break the page before ``page`` so that ``page`` holds :data:`TARGET_FILL` of the
    frame and the page before it keeps :data:`MIN_FILL`: the story index of the last flowable
    that begins on the page before and moves enough; one that starts a section (a heading) is
    preferred while the page before keeps half of itself.  None: no such place."""
    need = (TARGET_FILL - layout.fills[page - 1]) * layout.height
    end = layout.top - layout.fills[page - 2] * layout.height  # where the page before ends
    fits: list[tuple[int, float]] = []
    for i, (on, y) in layout.starts.items():
        if on != page - 1 or i == 0 or _keeps_with_next(story[i - 1]) or isinstance(story[i], PageBreak):
            continue
        moved, kept = y - end, (layout.top - y) / layout.height
        if moved >= need and kept >= MIN_FILL + CURSOR_SLACK:
            fits.append((i, kept))
    if not fits:
        return None
    sections = [(i, kept) for i, kept in fits if isinstance(story[i], CondPageBreak) and kept >= 0.5]
    return max(sections or fits, key=lambda f: f[1])[0]


def shorten_table(story: Sequence[Flowable], layout: Layout, page: int) -> list[Flowable] | None:
    """Where no flowable begins on the page before ``page`` that could move (a long table fills
    it): the story with the table that ends that page (it, then perhaps a note under it) split
    higher, so that enough of its rows move onto ``page`` (:class:`_Shorten`).  None: no such
    table."""
    need = (TARGET_FILL - layout.fills[page - 1]) * layout.height
    if layout.fills[page - 2] - need / layout.height < MIN_FILL + CURSOR_SLACK:
        return None
    later = [i for i, (on, _) in layout.starts.items() if on >= page]
    at = (min(later) if later else len(story)) - 1  # the last story index begun before ``page``
    # the table, or a table followed by a few short flowables on the page before (its note)
    while at >= 0 and not isinstance(story[at], (Table, _Shorten)):
        if layout.starts.get(at, (page - 1, 0.0))[0] != page - 1:
            return None
        at -= 1
    if at < 0:
        return None
    # what follows the table on that page moves with its rows
    end = layout.top - layout.fills[page - 2] * layout.height
    on, y = layout.starts.get(at + 1, (page, end))
    less = need - (y - end if on == page - 1 else 0.0)
    found = story[at]
    if isinstance(found, _Shorten):  # shortened on a pass before: more
        return [*story[:at], _Shorten(found.inner, page - 1, found.less + max(less, 1.0)), *story[at + 1 :]]
    return [*story[:at], _Shorten(found, page - 1, max(less, 1.0)), *story[at + 1 :]]


def _build(story: Sequence[Flowable], meta: Meta, edits: list[Any]) -> tuple[bytes, Layout]:
    buffer = io.BytesIO()
    doc = _Measured(
        buffer,
        story=story,
        edits=edits,
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
    doc.build(list(story), onFirstPage=furniture, onLaterPages=furniture)
    return buffer.getvalue(), doc.layout()


def _undo(edits: list[Any]) -> None:
    """Undo what a pass changed on the story's flowables (ReportLab's multiBuild does the same)."""
    while edits:
        change, *args = edits.pop(0)
        change(*args)


def render_with_layout(story: list[Flowable], meta: Meta) -> tuple[bytes, Layout]:
    """:func:`render`, with the layout of the last pass."""
    register_fonts()
    edits: list[Any] = []
    pdf, layout = _build(story, meta, edits)
    for _ in range(MAX_PASSES - 1):
        pages = layout.near_empty()
        _undo(edits)  # the headings kept with what follows again, before looking for a break
        if not pages:
            break
        at = balance_break(story, layout, pages[0])
        shorter = shorten_table(story, layout, pages[0]) if at is None else [*story[:at], _Balance(), *story[at:]]
        if shorter is None:
            break
        story = shorter
        pdf, layout = _build(story, meta, edits)
    _undo(edits)  # the flowables as they were given
    return pdf, layout


def render(story: list[Flowable], meta: Meta) -> bytes:
    """Lay the story out on A4 pages with header and footer; the PDF as bytes.

    No page after the first is near-empty (:data:`MIN_FILL`): where a pass leaves one (the last
    lines of a section, the disclaimer alone on the last page), the next pass breaks the page
    before it earlier, at a section's heading where one is near enough, so that the near-empty
    page holds :data:`TARGET_FILL` of the frame (:func:`balance_break`); where a long table
    fills the page before, the table splits higher (:func:`shorten_table`).  A heading and a
    long table under it split in place rather than leave a page with a few lines
    (:class:`_KeepWithNext`).  Nothing is dropped or shrunk.
    """
    return render_with_layout(story, meta)[0]


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
