"""PDF page -> the page number a law report prints on it (Supreme Court Reports running heads).

A report's pages carry their own numbers, set in the running head, which the page stage keeps in the page's text
or in its margin (:attr:`legal_rag.types.Page.margin`). The prints of the corpus (``judgments/pdf``) set them as:

* printed SCR (to 2022): ``582 SUPREME COURT REPORTS [2020] 1 S.C.R.`` (even pages; odd pages print the parties);
* Digital SCR (2023-): ``98 [2024] 7 S.C.R.`` (even) and ``[2024] 7 S.C.R.  99`` (odd);
* the first page of either: the report's own citation ``[2020] 7 S.C.R. 150`` (``: 2024 INSC 479`` may follow).

Only a line that is nothing but such a head counts (a cited report inside the text, ``[2008] 17 SCR 588 relied on``,
does not), and when the judgment's own SCR citation is known only heads of its year and volume count. A page
without a head of its own takes the number its nearest page with a head implies (a report's pages are
consecutive: printed = PDF page + offset). A print without any head (a court-issued copy, a text judgment) has
no printed pages: ``()``, and is cited by paragraph only.

``printed_pages(pages) -> ((1, 150), (2, 151), ...)``; :func:`format_printed` / :func:`parse_printed` spell the
chunk meta ``printed_pages`` (``"3:152,4:153"``: PDF page ``:`` printed page).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..types import Page

_VOL = r"\[(?P<y>\d{4})\]\s*(?:Supp\.?\s*)?(?P<v>\d{1,2})\s*S\.\s?C\.\s?R\.?"
_HEADS = (
    re.compile(rf"^\s*(?P<n>\d{{1,4}})\s+SUPREME\s+COURT\s+REPORTS\s+{_VOL}\s*$", re.I),
    re.compile(rf"^\s*(?P<n>\d{{1,4}})\s+{_VOL}\s*$"),
    re.compile(rf"^\s*{_VOL}\s+(?P<n>\d{{1,4}})\s*(?::\s*\d{{4}}\s+INSC\s+\d+\s*)?$"),
)


def _head_number(page: Page, year: str, volume: str) -> int | None:
    """The printed number of ``page`` read from a running head among its first and last three text lines and
    its margin lines, or ``None``."""
    lines = [ln for ln in page.text.splitlines() if ln.strip()]
    for ln in [*lines[:3], *lines[-3:], *(t for _, t in page.margin)]:
        for rx in _HEADS:
            m = rx.match(ln)
            if m and (not year or (m.group("y"), m.group("v")) == (year, volume)):
                return int(m.group("n"))
    return None


def printed_pages(pages: Sequence[Page], citation: str = "") -> tuple[tuple[int, int], ...]:
    """``((pdf page number, printed page number), ...)`` for every page of ``pages`` (1-based numbers as in
    :attr:`Page.number`), or ``()`` when no page prints a running head. ``citation`` is the judgment's SCR
    citation (``"[2020] 7 S.C.R. 150"``), which fixes the year and volume a head must name."""
    m = re.match(r"\[(\d{4})\] (?:Supp\. )?(\d{1,2}) S\.C\.R\. \d+", citation)
    year, volume = (m.group(1), m.group(2)) if m else ("", "")
    seen = [(p.number, n) for p in pages for n in [_head_number(p, year, volume)] if n is not None]
    # a head that disagrees with the others' offset (a misread line) is dropped: the most common offset wins
    offsets = [n - k for k, n in seen]
    if not offsets:
        return ()
    common = max(set(offsets), key=offsets.count)
    anchors = [(k, n) for k, n in seen if n - k == common] or seen
    out = []
    for p in pages:
        k, n = min(anchors, key=lambda a: (abs(a[0] - p.number), a[0] > p.number))
        out.append((p.number, n + (p.number - k)))
    return tuple(out)


def format_printed(pairs: Iterable[tuple[int, int]]) -> str:
    """``[(3, 152), (4, 153)] -> "3:152,4:153"`` (chunk meta ``printed_pages``)."""
    return ",".join(f"{k}:{n}" for k, n in pairs)


def parse_printed(text: str) -> dict[int, int]:
    """Inverse of :func:`format_printed`: ``"3:152,4:153" -> {3: 152, 4: 153}``; ``""`` -> ``{}``."""
    out: dict[int, int] = {}
    for part in text.split(","):
        k, _, n = part.partition(":")
        if k.strip().isdigit() and n.strip().isdigit():
            out[int(k)] = int(n)
    return out


def printed_range(text: str, pages: tuple[int, int]) -> tuple[int, int] | None:
    """The printed pages ``(first, last)`` of PDF ``pages`` by the map ``text`` (meta ``printed_pages``);
    ``None`` when the map is empty or lacks either page."""
    m = parse_printed(text)
    if pages[0] in m and pages[1] in m:
        return m[pages[0]], m[pages[1]]
    return None


def format_para_map(entries: Iterable[tuple[int, str, tuple[int, int]]]) -> str:
    """Chunk meta ``para_at``: where each paragraph of a judgment chunk begins in the chunk's text, its printed
    number and its PDF pages: ``[(0, "15", (7, 7)), (412, "16", (7, 8))] -> "0:15:7-7;412:16:7-8"``."""
    return ";".join(f"{o}:{n}:{a}-{b}" for o, n, (a, b) in entries)


def paragraph_at(text: str, offset: int) -> tuple[str, tuple[int, int]] | None:
    """The paragraph (printed number, ``(first, last)`` PDF pages) in which chunk offset ``offset`` lies, by the
    chunk's meta ``para_at`` (:func:`format_para_map`); ``None`` when the map is empty, or the paragraph there is
    unnumbered."""
    best = None
    for part in text.split(";"):
        bits = part.split(":")
        if len(bits) != 3 or not bits[0].isdigit():
            continue
        a, _, b = bits[2].partition("-")
        if int(bits[0]) <= offset and a.isdigit() and b.isdigit():
            best = (bits[1], (int(a), int(b)))
    return best if best and best[0] else None

