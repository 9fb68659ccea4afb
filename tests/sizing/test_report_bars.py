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
    assert len(drawn) == len(labels)
    slot = (width - 52.0 - 10.0) / len(labels)  # draw_bars's plot width over the categories
    for label, s in zip(labels, drawn, strict=True):
        assert stringWidth(s.text, FONT, s.fontSize) <= slot, s.text
        assert s.text == label or (s.text.endswith("\u2026") and label.startswith(s.text[:-1]))
    assert drawn[0].text == "1. Branch A"  # a label that fits is drawn whole
    assert math.isclose(drawn[1].x + slot, drawn[2].x)
