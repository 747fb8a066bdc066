"""A small First Schedule printed as a PDF (reportlab), laid out as the Gazette and India Code prints are: headings,
the column numbers "1 2 3 4 5 6", then rows of six left-aligned columns with no vertical rules.

``schedule_pdf(path, rows, joints=False)``: ``rows`` is a list of six-tuples, each cell a list of lines ("" or []
for an empty cell), optionally with a seventh item, the six x positions that row is printed at (a row with its
own column widths, as the CrPC print has on p.172); rows are drawn top-aligned, 10 pt between lines, 16 pt
between rows. ``joints=True`` draws the rule under the column numbers as one segment per column (as the CrPC's
India Code print does) and puts the columns at other x positions. A cell line starting with "^1" prints a 5-pt
superscript "1" before the rest (an amendment mark, "¹[166A"). Part II's heading follows the rows on the last page.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

W, H = A4
GUTTER_X = (58, 94, 193, 298, 384, 462)   # the Gazette's columns (BNSS p.160)
JOINT_X = (64, 97, 258, 357, 438, 516)    # the CrPC's (p.168)
JOINTS = (58, 91.7, 252.7, 351.6, 432.7, 504.7, 558.7)


def schedule_pdf(path: Path, rows: list[tuple], *, joints: bool = False, act: str = "BHARATIYA NYAYA SANHITA",
                 rows_per_page: int = 100, size: float = 8) -> Path:
    xs = JOINT_X if joints else GUTTER_X
    c = canvas.Canvas(str(path), pagesize=A4)

    def head(first: bool) -> float:
        y = H - 60
        c.setFont("Helvetica", size)
        if first:
            for line in ("THE FIRST SCHEDULE", "CLASSIFICATION OF OFFENCES", "EXPLANATORY NOTES: (1) ...",
                         f"I.\u2014OFFENCES UNDER THE {act}"):
                c.drawString(120, y, line)
                y -= 14
        for k, x in enumerate(xs, 1):
            c.drawString(x + 8, y, str(k))
        y -= 5
        if joints:
            for a, b in zip(JOINTS, JOINTS[1:]):
                c.rect(a + 0.5, y, b - a - 1, 0.5, stroke=0, fill=1)
        else:
            c.line(xs[0], y, 540, y)
        return y - 10

    y = head(True)
    for i, row in enumerate(rows):
        if i and i % rows_per_page == 0:
            c.showPage()
            y = head(False)
        cells, row_xs = (row[:6], row[6]) if len(row) == 7 else (row, xs)
        height = max(len(cell) if isinstance(cell, list) else 1 for cell in cells)
        for x, cell in zip(row_xs, cells):
            lines = cell if isinstance(cell, list) else [cell]
            for j, text in enumerate(lines):
                if text.startswith("^1"):
                    c.setFont("Helvetica", 5)
                    c.drawString(x, y - 10 * j + 3, "1")
                    c.setFont("Helvetica", size)
                    c.drawString(x + 3, y - 10 * j, text[2:])
                else:
                    c.drawString(x, y - 10 * j, text)
        y -= 10 * height + 6
    c.drawString(120, y - 20, "II.\u2014CLASSIFICATION OF OFFENCES AGAINST OTHER LAWS")
    c.showPage()
    c.save()
    return path
