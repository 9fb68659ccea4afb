"""Charts as vector graphics (ReportLab graphics shapes): lines, bands, markers, bars, guides.

A small plotting layer rather than ``reportlab.graphics.charts`` because the report's charts mix
things that module keeps apart (marker-only series, dashed guide lines with labels, gaps where
a value is missing), and it must place labels exactly where the page's Plotly charts put them.
The numbers always come from ``sizing.services.charts`` or a job result, never from here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from reportlab.graphics.shapes import Circle, Drawing, Group, Line, PolyLine, Rect, String
from reportlab.lib import colors
from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth

from sizing.reports.document import FONT, FRAME_WIDTH, INK, MUTED, RULE, finite

#: Series colours (colour-blind safe, as the page's Plotly palette).
PALETTE = [colors.HexColor(c) for c in ("#1f5fa8", "#d1495b", "#2a9d8f", "#e9a23b", "#6d597a", "#3d405b", "#8ab17d")]
TARGET = colors.HexColor("#d1495b")
CAPACITY = colors.HexColor("#3d405b")
BAND = colors.HexColor("#9bb7d4")

Point = tuple[float, float]
Scale = Callable[[float], float]


@dataclass
class Series:
    label: str
    x: Sequence[float | None]
    y: Sequence[float | None]
    color: Color = PALETTE[0]
    width: float = 1.4
    dash: tuple[float, float] | None = None
    markers: bool = False
    line: bool = True


@dataclass
class Guide:
    """A horizontal (``axis="y"``) or vertical (``axis="x"``) dashed line at ``value``, labelled."""

    axis: str
    value: float
    label: str
    color: Color = MUTED


@dataclass
class Plot:
    x_label: str
    y_label: str
    series: list[Series] = field(default_factory=list)
    guides: list[Guide] = field(default_factory=list)
    y_percent: bool = False
    y_min: float | None = 0.0
    y_max: float | None = None
    x_min: float | None = 0.0


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high] (1, 2 or 5 times a power of ten apart)."""
    if not high > low:
        high = low + 1.0
    raw = (high - low) / max(count, 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= raw)
    start = math.floor(low / step) * step
    ticks = []
    v = start
    while v <= high + step * 1e-9:
        ticks.append(round(v, 12))
        v += step
    return ticks


def _tick_text(v: float, percent: bool, step: float) -> str:
    if percent:
        return f"{v * 100:.0f}%"
    if step >= 1:
        return f"{v:,.0f}"
    decimals = max(0, -math.floor(math.log10(step)))
    return f"{v:,.{decimals}f}"


_Shape = TypeVar("_Shape", Line, PolyLine)


def _dashed(shape: _Shape, dash: tuple[float, float] | None) -> _Shape:
    if dash is not None:
        shape.strokeDashArray = list(dash)
    return shape


def _frame(x: float, y: float, width: float, height: float) -> Rect:
    """The plot area's outline (no fill)."""
    rect = Rect(x, y, width, height)
    rect.strokeColor, rect.strokeWidth, rect.fillColor = RULE, 0.6, None
    return rect


def _y_grid(
    d: Drawing, ticks: list[float], sy: Scale, left: float, width: float, *, percent: bool, step: float
) -> None:
    """Horizontal grid lines at the y ticks, each labelled at the left of the plot area."""
    for v in ticks:
        d.add(Line(left, sy(v), left + width, sy(v), strokeColor=RULE, strokeWidth=0.3))
        d.add(
            String(
                left - 4,
                sy(v) - 2.2,
                _tick_text(v, percent, step),
                fontName=FONT,
                fontSize=6.5,
                fillColor=MUTED,
                textAnchor="end",
            )
        )


def _bar(x: float, y: float, width: float, height: float, color: Color) -> Rect:
    rect = Rect(x, y, width, height)
    rect.fillColor, rect.strokeColor = color, None
    return rect


def _y_label(text: str, y: float) -> Group:
    """The y-axis title, turned a quarter left, centred on ``y``."""
    label = String(0, 0, text, fontName=FONT, fontSize=7.5, fillColor=INK, textAnchor="middle")
    return Group(label, transform=(0, 1, -1, 0, 10, y))


def _pairs(s: Series) -> list[list[Point]]:
    """Runs of finite (x, y) pairs: a missing value breaks the line."""
    runs: list[list[Point]] = [[]]
    for xv, yv in zip(s.x, s.y, strict=False):
        x, y = finite(xv), finite(yv)
        if x is None or y is None:
            if runs[-1]:
                runs.append([])
            continue
        runs[-1].append((x, y))
    return [r for r in runs if r]


def _extent(plot: Plot) -> tuple[float, float, float, float]:
    xs: list[float] = []
    ys: list[float] = []
    for s in plot.series:
        for run in _pairs(s):
            xs.extend(p[0] for p in run)
            ys.extend(p[1] for p in run)
    xs.extend(g.value for g in plot.guides if g.axis == "x")
    ys.extend(g.value for g in plot.guides if g.axis == "y")
    x0 = plot.x_min if plot.x_min is not None else min(xs, default=0.0)
    x1 = max(xs, default=1.0)
    y0 = plot.y_min if plot.y_min is not None else min(ys, default=0.0)
    y1 = plot.y_max if plot.y_max is not None else max(ys, default=1.0)
    return x0, max(x1, x0 + 1e-9), y0, max(y1 * 1.05 if plot.y_max is None else y1, y0 + 1e-9)


def _whole_xs(plot: Plot) -> bool:
    """Every x of every series is a whole number (a count: rows, clients)."""
    xs = [p[0] for s in plot.series for run in _pairs(s) for p in run]
    return bool(xs) and all(float(x).is_integer() for x in xs)


def draw_plot(plot: Plot, *, width: float = FRAME_WIDTH, height: float = 200.0) -> Drawing:
    """The plot as a Drawing (a flowable): axes with ticks, the series, guides, a legend."""
    d = Drawing(width, height, initialFontName=FONT)
    left, right, bottom, top = 52.0, 10.0, 34.0, 22.0
    pw, ph = width - left - right, height - bottom - top
    x0, x1, y0, y1 = _extent(plot)
    xt, yt = nice_ticks(x0, x1), nice_ticks(y0, y1)
    if len(xt) > 1 and xt[1] - xt[0] < 1 and _whole_xs(plot):
        # counts on the x axis (rows, clients): whole ticks only, never "1.5"
        xt = [float(v) for v in range(math.floor(x0), math.ceil(x1) + 1)]
    x0, x1 = min(x0, xt[0]), max(x1, xt[-1])
    y0, y1 = min(y0, yt[0]), max(y1, yt[-1])

    def sx(v: float) -> float:
        return left + (v - x0) / (x1 - x0) * pw

    def sy(v: float) -> float:
        return bottom + (min(max(v, y0), y1) - y0) / (y1 - y0) * ph

    d.add(_frame(left, bottom, pw, ph))
    x_step = xt[1] - xt[0] if len(xt) > 1 else 1.0
    y_step = yt[1] - yt[0] if len(yt) > 1 else 1.0
    for v in xt:
        d.add(Line(sx(v), bottom, sx(v), bottom - 3, strokeColor=MUTED, strokeWidth=0.5))
        d.add(
            String(
                sx(v),
                bottom - 11,
                _tick_text(v, False, x_step),
                fontName=FONT,
                fontSize=6.5,
                fillColor=MUTED,
                textAnchor="middle",
            )
        )
    _y_grid(d, yt, sy, left, pw, percent=plot.y_percent, step=y_step)
    d.add(String(left + pw / 2, 4, plot.x_label, fontName=FONT, fontSize=7.5, fillColor=INK, textAnchor="middle"))
    d.add(_y_label(plot.y_label, bottom + ph / 2))
    _draw_series(d, plot, sx, sy)
    _draw_guides(d, plot, sx, sy, (left, bottom, pw, ph), (x0, x1, y0, y1))
    _draw_legend(d, plot, left, height - 12, pw)
    return d


def _draw_series(d: Drawing, plot: Plot, sx: Scale, sy: Scale) -> None:
    for s in plot.series:
        for run in _pairs(s):
            pts = [(sx(x), sy(y)) for x, y in run]
            if s.line and len(pts) > 1:
                flat = [c for p in pts for c in p]
                d.add(_dashed(PolyLine(flat, strokeColor=s.color, strokeWidth=s.width, fillColor=None), s.dash))
            if s.markers or (s.line and len(pts) == 1):
                for px, py in pts:
                    d.add(Circle(px, py, 2.4, fillColor=s.color, strokeColor=colors.white, strokeWidth=0.5))


def _draw_guides(
    d: Drawing,
    plot: Plot,
    sx: Scale,
    sy: Scale,
    box: tuple[float, float, float, float],
    extent: tuple[float, float, float, float],
) -> None:
    """Every guide's line first, then every label on a white ground: no line or series runs
    through a label, and no label is drawn over another."""
    left, bottom, pw, ph = box
    x0, x1, y0, y1 = extent
    xs = [g for g in plot.guides if g.axis == "x" and x0 <= g.value <= x1]
    ys = [g for g in plot.guides if g.axis == "y" and y0 <= g.value <= y1]
    for g in xs:
        x = sx(g.value)
        d.add(Line(x, bottom, x, bottom + ph, strokeColor=g.color, strokeWidth=0.9, strokeDashArray=(3, 2)))
    for g in ys:
        y = sy(g.value)
        d.add(Line(left, y, left + pw, y, strokeColor=g.color, strokeWidth=0.9, strokeDashArray=(3, 2)))
    # Vertical guides' labels are staggered; those at the right end left of the leftmost guide
    # there, so that no guide line crosses them.
    right_edge = min((sx(g.value) for g in xs if sx(g.value) > left + pw * 0.7), default=left + pw)
    for shown, g in enumerate(xs):
        x = sx(g.value)
        anchor: Literal["start", "end"] = "end" if x > left + pw * 0.7 else "start"
        tx = right_edge - 2 if anchor == "end" else x + 2
        _label(d, tx, bottom + ph - 8 - 9 * shown, g.label, g.color, anchor)
    placed: list[tuple[str, float]] = []
    lines = [sy(g.value) for g in ys]
    for g in ys:
        _guide_label(d, placed, g, left, pw, sy(g.value), lines=lines)


#: Height of a guide's label, points (6.5 pt type and a little air).
_LABEL_HEIGHT = 8.5


def _label(d: Drawing, x: float, y: float, text: str, color: Color, anchor: Literal["start", "end"]) -> None:
    """A guide's label on a white ground (what it is drawn over does not run through it)."""
    width = stringWidth(text, FONT, 6.5)
    x_left = x - width if anchor == "end" else x
    ground = Rect(x_left - 1, y - 1.8, width + 2, 7.6)
    ground.fillColor, ground.strokeColor = colors.white, None
    d.add(ground)
    d.add(String(x, y, text, fontName=FONT, fontSize=6.5, fillColor=color, textAnchor=anchor))


def _guide_label(
    d: Drawing,
    placed: list[tuple[str, float]],
    g: Guide,
    left: float,
    width: float,
    y: float,
    *,
    lines: Sequence[float] = (),
) -> None:
    """A horizontal guide's label at the left of the plot, or at the right where it would overprint
    one already drawn at the left (the capacity line and its ceiling a little below it); below
    its line where another guide's line runs just above it."""
    side = "left"
    if any(s == "left" and abs(py - y) < _LABEL_HEIGHT for s, py in placed):
        side = "right"
        if any(s == "right" and abs(py - y) < _LABEL_HEIGHT for s, py in placed):
            y -= _LABEL_HEIGHT + 2  # both sides taken: below the line
    text_y = y + 2
    if any(0 < other - y < _LABEL_HEIGHT + 1 for other in lines):
        text_y = y - _LABEL_HEIGHT + 1  # another line runs through the band above: below this one
    placed.append((side, y))
    if side == "left":
        _label(d, left + 3, text_y, g.label, g.color, "start")
    else:
        _label(d, left + width - 3, text_y, g.label, g.color, "end")


def _draw_legend(d: Drawing, plot: Plot, x: float, y: float, width: float) -> None:
    for s in plot.series:
        if not s.label:
            continue
        if s.line:
            d.add(_dashed(Line(x, y + 2.5, x + 12, y + 2.5, strokeColor=s.color, strokeWidth=s.width), s.dash))
        else:
            d.add(Circle(x + 6, y + 2.5, 2.4, fillColor=s.color, strokeColor=None))
        d.add(String(x + 15, y, s.label, fontName=FONT, fontSize=6.5, fillColor=INK))
        x += 22 + 3.6 * len(s.label)
        if x > width:
            break


@dataclass
class Bars:
    """Bars per category; ``stacks`` are (label, values, colour) stacked from the bottom."""

    categories: list[str]
    stacks: list[tuple[str, list[float], Color]]
    y_label: str
    x_label: str = ""
    guides: list[Guide] = field(default_factory=list)
    y_percent: bool = False


def category_lines(text: str, room: float, size: float = 6.2) -> list[str]:
    """A bar's label on at most two lines of ``room`` points each (words kept whole where they
    fit; a status in brackets on the second where it fits there), the second cut with an ellipsis where the label is longer: labels never run into their
    neighbours' (a cut by character count did, at six scenarios of a batch)."""

    def fits(t: str) -> bool:
        return stringWidth(t, FONT, size) <= room

    head, paren, tail = text.partition(" (")
    if paren and fits(head) and fits(f"({tail}") and not fits(text):  # a status on a line of its own
        return [head, f"({tail}"]
    lines: list[str] = []
    for word in text.split():
        if lines and fits(f"{lines[-1]} {word}"):
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    out = []
    for line in lines:
        cut = line
        while not fits(cut if cut == line else cut + "\u2026") and len(cut) > 1:
            cut = cut[:-1].rstrip()
        out.append(cut if cut == line else cut + "\u2026")
    return out


def draw_bars(bars: Bars, *, width: float = FRAME_WIDTH, height: float = 190.0) -> Drawing:
    """Stacked vertical bars with a legend and horizontal guides."""
    d = Drawing(width, height, initialFontName=FONT)
    left, right, bottom, top = 52.0, 10.0, 40.0, 22.0
    pw, ph = width - left - right, height - bottom - top
    n = max(len(bars.categories), 1)
    totals = [sum(st[1][i] for st in bars.stacks) for i in range(len(bars.categories))]
    top_value = max([*totals, *(g.value for g in bars.guides)], default=1.0) * 1.08 or 1.0
    yt = nice_ticks(0.0, top_value)
    y1 = max(yt[-1], top_value)
    step = yt[1] - yt[0] if len(yt) > 1 else 1.0

    def sy(v: float) -> float:
        return bottom + v / y1 * ph

    d.add(_frame(left, bottom, pw, ph))
    _y_grid(d, yt, sy, left, pw, percent=bars.y_percent, step=step)
    slot = pw / n
    bar_w = min(slot * 0.6, 60.0)
    for i, cat in enumerate(bars.categories):
        cx = left + slot * (i + 0.5)
        base = 0.0
        for _, values, color in bars.stacks:
            v = values[i]
            if v > 0:
                d.add(_bar(cx - bar_w / 2, sy(base), bar_w, sy(base + v) - sy(base), color))
            base += v
        if n <= 24 or i % math.ceil(n / 24) == 0:
            for k, text in enumerate(category_lines(cat, slot * math.ceil(n / 24) - 4)):
                d.add(
                    String(
                        cx,
                        bottom - 10 - 7.5 * k,
                        text,
                        fontName=FONT,
                        fontSize=6.2,
                        fillColor=MUTED,
                        textAnchor="middle",
                    )
                )
    placed: list[tuple[str, float]] = []
    shown = [g for g in bars.guides if 0 <= g.value <= y1]
    for g in shown:
        d.add(
            Line(
                left, sy(g.value), left + pw, sy(g.value), strokeColor=g.color, strokeWidth=0.9, strokeDashArray=(3, 2)
            )
        )
    lines = [sy(g.value) for g in shown]
    for g in shown:
        _guide_label(d, placed, g, left, pw, sy(g.value), lines=lines)
    d.add(String(left + pw / 2, 4, bars.x_label, fontName=FONT, fontSize=7.5, fillColor=INK, textAnchor="middle"))
    d.add(_y_label(bars.y_label, bottom + ph / 2))
    _draw_legend(
        d, Plot("", "", [Series(lbl, [], [], color=c, width=6) for lbl, _, c in bars.stacks]), left, height - 12, pw
    )
    return d
