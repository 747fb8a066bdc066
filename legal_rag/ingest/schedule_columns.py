"""Column boundaries of a First Schedule page (:mod:`legal_rag.ingest.schedule_table` reads the cells with them).

Neither print has vertical rules. The CrPC's India Code print draws the rule under the column numbers as one
rectangle per column: the joints between them are the boundaries (:func:`joints`), and a block of rows printed with
other column widths gets its own (:func:`repair`). The BNSS Gazette print draws one unbroken line: the boundaries
are the gutters, the strips of the page between two column numbers that the fewest characters cross
(:func:`gutters`). Positions are PDF points, x growing to the right.
"""

from __future__ import annotations

COLUMNS = 6


def rules(page) -> list[tuple[float, list[tuple[float, float]]]]:
    """Horizontal rules as ``(top, [(x0, x1) segments])``, top to bottom: lines and flat rectangles (< 2 pt
    high) grouped by their top (within 1 pt)."""
    segs = [(o["top"], o["x0"], o["x1"]) for o in (*page.lines, *page.rects)
            if o["bottom"] - o["top"] < 2 and o["x1"] - o["x0"] > 0.2]
    rules: list[tuple[float, list[tuple[float, float]]]] = []
    for top, x0, x1 in sorted(segs):
        if rules and top - rules[-1][0] < 1:
            rules[-1][1].append((x0, x1))
        else:
            rules.append((top, [(x0, x1)]))
    return [(t, sorted(s)) for t, s in rules]


def width(segs: list[tuple[float, float]]) -> float:
    return max(s[1] for s in segs) - min(s[0] for s in segs)


def joints(segs: list[tuple[float, float]]) -> list[float] | None:
    """Column boundaries from a rule drawn as one segment per column (slivers under 3 pt are the joints
    themselves): the midpoints between consecutive cell segments, or None unless there are exactly six."""
    cells = [s for s in segs if s[1] - s[0] >= 3]
    if len(cells) != COLUMNS:
        return None
    return [(a[1] + b[0]) / 2 for a, b in zip(cells, cells[1:])]


def runs(chars: list[dict], lo: float, hi: float, step: float = 0.25) -> list[tuple[float, float, int]]:
    """Runs of x in [lo, hi] that the fewest of ``chars`` cover, as ``(x0, x1, cover)``, left to right."""
    n = max(1, int((hi - lo) / step))
    cover = [0] * n
    for c in chars:
        a, b = max(0, int((c["x0"] - lo) / step)), min(n, int((c["x1"] - lo) / step) + 1)
        for i in range(a, b):
            cover[i] += 1
    least, out, start = min(cover), [], None
    for i, v in enumerate([*cover, min(cover) + 1]):
        if v == least and start is None:
            start = i
        elif v != least and start is not None:
            out.append((lo + start * step, lo + i * step, least))
            start = None
    return out


def gutters(chars: list[dict], numerals: list[dict]) -> list[float]:
    """Column boundaries from whitespace: between the centres of column numbers k and k+1, the widest run of x
    positions that the fewest of ``chars`` cover. A run under 6 pt wide (the Gazette's narrow gutters, where the
    offence text can touch the punishment column: "restoratio|n", BNSS p.166) gives the boundary 0.8 pt right of
    its end, i.e. just inside the next column's left text edge: pdfplumber puts a character in the cell holding its
    centre, so a last letter that runs into the gutter stays left and the next column's first letter goes right;
    a wider run gives its middle."""
    centres = [(n["x0"] + n["x1"]) / 2 for n in numerals]
    out = []
    for lo, hi in zip(centres, centres[1:]):
        a, b, _ = max(runs(chars, lo, hi), key=lambda r: r[1] - r[0])
        out.append(b + 0.8 if b - a < 6 else (a + b) / 2)
    return out


def crossed(words: list[dict], x: float) -> bool:
    """Whether a word runs across ``x``."""
    return any(w["x0"] < x < w["x1"] for w in words)


def repair(columns: list[float], words: list[dict], chars: list[dict]) -> list[float]:
    """A block of lines printed with its own column widths (the CrPC's India Code print changes them for some
    rows). The inner boundaries that a word of the block crosses move into empty strips of the block (no character
    of it, at least 4 pt wide), each to the strip's point nearest where it was and at most 45 pt away: the strips
    are chosen together, left to right and one per boundary, to undo as many crossings as possible, then to
    prefer wide strips (gutters, not spaces between words: width counted up to 30 pt) and short moves; a boundary
    with no such strip stays where it was."""
    cols = list(columns)
    moved = [k for k in range(1, len(cols) - 1) if crossed(words, cols[k])]
    if not moved:
        return cols
    strips = [(a, b) for a, b, cover in runs(chars, cols[0], cols[-1]) if cover == 0 and b - a >= 4]

    def place(k: int, strip: tuple[float, float]) -> tuple[float, float]:
        """(position, gain): the point of ``strip`` nearest boundary ``k``; 100 (a crossing undone) + min(width,
        30) - distance moved."""
        a, b = strip
        x = min(max(cols[k], a + 1), b - 1)
        return x, 100 + min(b - a, 30) - abs(x - cols[k])

    best: tuple[float, dict[int, float]] = (0.0, {})

    def search(i: int, lo: float, first_strip: int, total: float, chosen: dict[int, float]) -> None:
        nonlocal best
        if i == len(moved):
            if total > best[0]:
                best = (total, dict(chosen))
            return
        k = moved[i]
        hi = min([cols[j] for j in range(k + 1, len(cols)) if j not in moved] or [cols[-1]])
        search(i + 1, lo, first_strip, total, chosen)  # this boundary stays
        for n in range(first_strip, len(strips)):
            x, g = place(k, strips[n])
            if lo < x < hi and abs(x - cols[k]) <= 45 and not crossed(words, x):
                chosen[k] = x
                search(i + 1, x, n + 1, total + g, chosen)  # strips left to right, each used once
                del chosen[k]

    first = moved[0]
    search(0, max([cols[j] for j in range(first) if j not in moved] or [cols[0]]), 0, 0.0, {})
    for k, x in best[1].items():
        cols[k] = x
    return cols


__all__ = ["rules", "width", "joints", "runs", "gutters", "crossed", "repair"]
