"""A bar chart's category labels each fit their bar's slot (a batch's scenarios with their status
were drawn over each other in the job's PDF)."""

from __future__ import annotations

import math

from reportlab.graphics.shapes import String
from reportlab.pdfbase.pdfmetrics import stringWidth

from sizing.reports.document import FONT, register_fonts
from sizing.reports.plots import PALETTE, Bars, draw_bars


def test_long_category_labels_are_cut_to_their_slot_and_short_ones_kept() -> None:
    labels = [
        "1. Branch A",
        "5. HostBridge (no CPU data)",
        "6. Peak (does not fit)",
        "7. Typo (refused)",
        "8. Gateway",
        "9. Catalog in the west data centre",
        "10. Branch B",
    ]
    register_fonts()
    width = 451.0
    drawing = draw_bars(
        Bars(labels, [("CPs required", [4, 0, 0, 0, 1, 2, 2], PALETTE[0])], "CPs required"), width=width
    )
    drawn = [s for s in drawing.contents if isinstance(s, String) and s.fontSize == 6.2]
    slot = (width - 52.0 - 10.0) / len(labels)  # draw_bars's plot width over the categories
    # each label on one or two lines under its bar's centre, a gap to its neighbours' (a label cut
    # to the full slot touched the next one: "3. Gateway (no CPU da\u20264. Peak on the z10 (d\u2026")
    lines: dict[float, list[String]] = {}
    for s in drawn:
        lines.setdefault(round(s.x, 3), []).append(s)
    assert len(lines) == len(labels) and all(len(ls) <= 2 for ls in lines.values())
    for label, (_, ls) in zip(labels, sorted(lines.items()), strict=True):
        assert all(stringWidth(s.text, FONT, s.fontSize) <= slot - 4 for s in ls), [s.text for s in ls]
        text = " ".join(s.text for s in sorted(ls, key=lambda s: -s.y))
        assert text == label or (text.endswith("\u2026") and label.startswith(text[:-1])), (label, text)
    whole = {" ".join(s.text for s in sorted(ls, key=lambda s: -s.y)) for ls in lines.values()}
    # a label that fits is drawn whole, on one line; a status in brackets on a line of its own
    assert [s.text for s in lines[round(drawn[0].x, 3)]] == ["1. Branch A"]
    assert "5. HostBridge (no CPU data)" in whole
    # a label longer than two lines: the second cut with an ellipsis
    catalog = next(ls for ls in lines.values() if ls[0].text.startswith("9. "))
    assert len(catalog) == 2 and catalog[1].text.endswith("\u2026")
    drawn = [ls[0] for _, ls in sorted(lines.items())]
    assert math.isclose(drawn[1].x + slot, drawn[2].x)
