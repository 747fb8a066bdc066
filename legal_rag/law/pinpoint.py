"""Pinpoints inside a statute text: the sub-section (and clause) whose printed marker opens the words quoted, the
place where a quote begins, and the PDF page where an offset is printed.

Offsets are 0-based and half-open ``[start, end)`` in the text given (a :class:`~legal_rag.types.Section`'s text or
a statute :class:`~legal_rag.types.Chunk`'s); pages are 1-based, as a PDF viewer numbers them.

**Divisions** (how the Acts print them: the Gazette prints of the BNS/BNSS/BSA, 2023 and the Legislative Department
prints of the IPC 1860 / CrPC 1973):

* a *sub-section* opens with its number in brackets at the start of a line or after a sentence end or a dash
  (``318. (1) Whoever``, ``\\n(4) Whoever``, ``\\n[(2)`` for an amended one), and numbers run in order (``(1)``,
  ``(2)``, ``(2A)``, ``(3)``): a bracketed number that does not follow the open one (``sub-section\\n(1)`` wrapped to
  a line start inside ``(3)``) opens nothing. It runs to the next sub-section or the end of the section;
* a *clause* opens with a letter in brackets at a line start (``\\n(a) being a police officer``) inside a sub-section
  or a section without sub-sections, letters in order from ``(a)`` (a roman ``(i)``, ``(ii)`` under ``(a)`` is a
  sub-clause and stays in ``(a)``; ``(i)`` after ``(h)`` is clause ``(i)``). No clause opens inside an
  Explanation, Illustration, Exception or proviso (their lettered items are not clauses of the section): from such a
  heading to the next sub-section the text belongs to the sub-section only. A clause list's common ending (``,
  shall be punished ...`` or a line going on in lower case after a comma, ``,\nunder the circumstances ...``, after
  the last clause) belongs to the sub-section, not to the last clause: where a comma merely ends a printed line of
  the last clause, the words after it are read as the ending too, so a quote of them alone is pinned to the
  sub-section only (the safe side).

A quote is pinned to a sub-section only when all its words lie in that one sub-section, and to a clause only when
they touch exactly one clause of it (its opening words and the common ending may be quoted too): nothing is ever
narrowed further than the printed markers show (``BNS 318`` stays ``BNS 318`` for a quote spanning (3) and (4)).

A chunk that begins inside a sub-section carries that state in its meta (``open``, :func:`open_state`), and the page
of each offset in ``pages_at`` (:func:`page_map`), both written at ingest (:mod:`legal_rag.ingest.chunk`).

    divisions("318. (1) Whoever ... fine.\\n(2) Whoever cheats ...")[1].label  -> ("2",)
    pin(StatuteRef("BNS", "318"), text, [(a, b)])                              -> StatuteRef("BNS", "318", ("4",))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..text import normalise
from ..types import Chunk, StatuteRef

#: a sub-section marker: ``(4)``, ``(4A)``, ``[(2)``, at a line start or after a sentence end / dash and a space
SUB = re.compile(r"(?:^|(?<=\n)|(?<=[.;:\u2014\u2013-]\s)|(?<=[\u2014\u2013]))[ \t]*\[?(\((\d{1,3}[A-Z]{0,2})\))\s")
#: a clause marker: ``(a)``, ``(m)``, ``(ii)``, at a line start or after a dash
CLAUSE = re.compile(r"(?:^|(?<=\n)|(?<=[\u2014\u2013]\s)|(?<=[:\u2014\u2013]))[ \t]*\[?(\(([a-z]{1,4})\))\s")
#: a block whose lettered items are no clauses of the section (to the next sub-section)
BLOCK = re.compile(r"(?:^|(?<=\n)|(?<=[.;:]\s))[ \t]*\[?(?:Explanations?\b|Illustrations?\b|Exceptions?\b|Provided\b)")
#: where the common ending of a clause list begins (after its last clause): ", shall be punished", "; shall also",
#: or a line after a comma that goes on in lower case (",\nunder the circumstances falling under ...")
TAIL = re.compile(r"[,;\u2014\u2013]\s*(?=(?:he\s+)?shall\s+(?:be|also|on)\b|is\s+said\s+to\b)|[,;:]\s*\n(?=[a-z])")
_SUB_KEY = re.compile(r"(\d+)([A-Z]*)$")


def _sub_key(label: str) -> tuple[int, str]:
    m = _SUB_KEY.match(label)
    return (int(m.group(1)), m.group(2)) if m else (0, label)


def _follows_sub(prev: str | None, label: str) -> bool:
    """Whether sub-section ``label`` may follow ``prev`` (``None``: none seen yet): forward, at most three numbers on
    (a sub-section omitted by amendment leaves a gap), or the same number with a later letter (``(2)`` -> ``(2A)``)."""
    if prev is None:
        return True
    (pn, pl), (n, ll) = _sub_key(prev), _sub_key(label)
    return (n == pn and ll > pl) or (pn < n <= pn + 3)


def _follows_clause(prev: str | None, label: str) -> bool:
    """Whether clause ``label`` may follow ``prev`` in one list: ``(a)`` opens a list, then each letter follows
    the last (``(h)`` -> ``(i)``); a roman sub-clause (``(i)`` after ``(a)``) follows nothing."""
    if len(label) != 1:
        return False
    if prev is None:
        return label == "a"
    return len(prev) == 1 and ord(label) == ord(prev) + 1


@dataclass(frozen=True)
class Division:
    """A sub-section (``label == ("4",)``) or clause (``("2", "m")``; a clause of a section without sub-sections is
    ``("", "a")``) printed in a text. ``start`` is the offset of its marker's ``(``;
    ``end`` where the next division of the same or a higher level starts (a clause: where the list's common ending
    begins, for the last one) or the text ends."""

    label: tuple[str, ...]
    start: int
    end: int

    @property
    def sub(self) -> str:
        return self.label[0]

    @property
    def clause(self) -> str:
        return self.label[1] if len(self.label) > 1 else ""


@dataclass(frozen=True)
class Layout:
    """The divisions of a text: ``subs`` (sub-sections, in order) and ``clauses``; ``open`` is the sub-section
    running at offset 0 (from a chunk's meta), ``""`` when none."""

    text_len: int
    subs: tuple[Division, ...]
    clauses: tuple[Division, ...]
    open: str = ""

    def sub_at(self, offset: int) -> str:
        """The sub-section label running at ``offset`` (``""``: before any marker and none open)."""
        label = self.open
        for d in self.subs:
            if d.start <= offset:
                label = d.sub
            else:
                break
        return label

    def clause_at(self, offset: int) -> Division | None:
        return next((d for d in self.clauses if d.start <= offset < d.end), None)

    def units(self) -> list[tuple[str, int, int]]:
        """``(sub-section label, start, end)`` of every part of the text in order: the part before the first marker
        (labelled with the open sub-section, ``""`` when none: a section's heading, or a section without
        sub-sections), then each sub-section. ``layout("(1) A. (2) B.").units() -> [("1", 0, 7), ("2", 7, 13)]``."""
        first = self.subs[0].start if self.subs else self.text_len
        head = [(self.open, 0, first)] if first > 0 else []
        return head + [(d.sub, d.start, d.end) for d in self.subs]

    def sub_span(self, label: str) -> tuple[int, int] | None:
        """``[start, end)`` of sub-section ``label`` in the text (from 0 when it is the open one)."""
        for i, d in enumerate(self.subs):
            if d.sub == label:
                return d.start, d.end
        if label and label == self.open:
            return 0, self.subs[0].start if self.subs else self.text_len
        return None


def _parse_open(state: str) -> tuple[str, str | None, bool]:
    """``"2"`` / ``"2,b"`` / ``"1,-"`` (in a block or past a clause list) / ``""`` -> (sub, clause, no clauses)."""
    sub, _, rest = state.partition(",")
    return sub, (rest if rest and rest != "-" else None), rest == "-"


def layout(text: str, open: str = "") -> Layout:
    """Sub-sections and clauses of ``text`` (module docstring). ``open`` is the state at offset 0 of a chunk that
    begins inside a section (:func:`open_state`: ``"2"``, ``"2,b"``, ``"1,-"``); ``""`` for a whole section."""
    sub0, clause0, closed0 = _parse_open(open)
    subs: list[tuple[str, int]] = []
    prev = sub0 or None
    for m in SUB.finditer(text):
        label = m.group(2)
        if _follows_sub(prev, label):
            subs.append((label, m.start(1)))
            prev = label
    sub_divs = tuple(Division((lab,), a, subs[i + 1][1] if i + 1 < len(subs) else len(text))
                     for i, (lab, a) in enumerate(subs))
    blocks = [m.start() for m in BLOCK.finditer(text)]
    clauses: list[Division] = []
    # each stretch run by one sub-section (the open one, before the first marker): its clause list, if any
    stretches = [(sub0, 0, sub_divs[0].start if sub_divs else len(text), clause0, closed0)]
    stretches += [(d.sub, d.start, d.end, None, False) for d in sub_divs]
    for label, a, b, last, closed in stretches:
        if closed or a >= b:
            continue
        limit = next((x for x in blocks if a <= x < b), b)
        found = [(last, a)] if last else []
        for m in CLAUSE.finditer(text, a, limit):
            if _follows_clause(last, m.group(2)):
                found.append((m.group(2), m.start(1)))
                last = m.group(2)
        for i, (c, ca) in enumerate(found):
            end = found[i + 1][1] if i + 1 < len(found) else limit
            if i + 1 == len(found):
                t = TAIL.search(text, ca, end)
                end = t.start() + 1 if t else end
            clauses.append(Division((label, c), ca, end))
    return Layout(len(text), sub_divs, tuple(clauses), sub0)


def open_state(text: str, offset: int) -> str:
    """The division state of a section's ``text`` at ``offset`` (where a chunk begins), kept in the chunk's meta
    ``open``: ``"2"`` (inside sub-section (2), before or without a clause list), ``"2,b"`` (inside its clause (b)),
    ``"2,-"`` (inside an Explanation/Illustration/Exception/proviso of (2), or past its clause list: no clause opens
    there), ``""`` (before any sub-section, or at a marker). ``layout(text[offset:], open_state(text, offset))``
    reads the rest of the section as ``layout(text)`` does."""
    if offset <= 0:
        return ""
    lay = layout(text)
    if any(d.start == offset for d in lay.subs):
        return ""
    sub = lay.sub_at(offset - 1)
    c = lay.clause_at(offset)
    if c is not None and c.start < offset:
        return f"{sub},{c.clause}"
    if c is not None:  # the chunk begins at a clause marker: the list runs on from the clause before it
        before = [d for d in lay.clauses if d.sub == c.sub and d.end <= offset]
        return f"{sub},{before[-1].clause}" if before else sub
    a = next((d.start for d in reversed(lay.subs) if d.start < offset), 0)
    if any(a <= m.start() < offset for m in BLOCK.finditer(text)) or \
            any(d.sub == sub and a <= d.start and d.end <= offset for d in lay.clauses):
        return f"{sub},-"
    return sub


def chunk_layout(chunk: Chunk) -> Layout:
    """:func:`layout` of a statute chunk's text, from the state its meta ``open`` records."""
    return layout(chunk.text, dict(chunk.meta).get("open", ""))


def pin(ref: StatuteRef, lay: Layout, spans: Sequence[tuple[int, int]]) -> StatuteRef:
    """``ref`` narrowed to the sub-section (and clause) that the quoted ``spans`` belong to (module docstring);
    ``ref`` itself when they are not all in one sub-section or no marker precedes them. A ``ref`` that already
    names a sub-section is returned unchanged."""
    if ref.sub or not spans:
        return ref
    subs = {lay.sub_at(a) for a, _ in spans} | {lay.sub_at(max(a, b - 1)) for a, b in spans}
    if len(subs) != 1:
        return ref
    sub = subs.pop()
    touched = {d.clause for d in lay.clauses for a, b in spans if d.sub == sub and d.start < b and a < d.end}
    clause = (touched.pop(),) if len(touched) == 1 else ()
    path = ((sub,) if sub else ()) + clause
    return StatuteRef(ref.act, ref.section, path) if path else ref


def printed(lay: Layout, path: tuple[str, ...]) -> tuple[int, int] | None:
    """``[start, end)`` in the text of the division ``path`` (``("4",)``, ``("2", "m")``) when its marker is
    printed in the text or the text begins inside it; ``None`` otherwise (never assumed)."""
    if not path:
        return None
    label = path if len(path) == 2 else ("", path[0])
    if len(path) == 1 and lay.sub_span(path[0]) is not None:
        return lay.sub_span(path[0])
    return next(((d.start, d.end) for d in lay.clauses if d.label == label), None)


# ---- locating quotes ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    """One character in :func:`legal_rag.text.normalise`'s form (``" "`` for any space)."""
    return " " if ch.isspace() else (normalise(ch) or " ")


@lru_cache(maxsize=256)
def _folded(text: str) -> tuple[str, tuple[int, ...]]:
    """``text`` in :func:`legal_rag.text.normalise`'s form (NFKC, straight quotes and dashes, lower case, single
    spaces) with, for each character of the result, the offset in ``text`` it came from."""
    out: list[str] = []
    where: list[int] = []
    space = True
    for i, ch in enumerate(text):
        for c in _fold_char(ch):
            if c == " ":
                if space:
                    continue
                space = True
            else:
                space = False
            out.append(c)
            where.append(i)
    return "".join(out), tuple(where)


def _fragments(quote: str) -> list[str]:
    frags = [_folded(f)[0].strip(" .,;:\"'") for f in re.split(r"\s*(?:\u2026|\.\.\.)\s*", quote)]
    return [f for f in frags if f]


def locate(quote: str, text: str, after: int = -1) -> tuple[tuple[int, int], ...]:
    """``[start, end)`` in ``text`` of each fragment of ``quote`` (split at ``…`` / ``...``, as the verifier reads
    quotes), found in order after normalising both (:func:`legal_rag.text.normalise`), the first fragment starting
    after offset ``after``; ``()`` when a fragment is not found."""
    flat, where = _folded(text)
    frags = _fragments(quote)
    pos = next((k for k, w in enumerate(where) if w > after), len(flat)) if after >= 0 else 0
    spans = []
    for f in frags:
        i = flat.find(f, pos)
        if i < 0:
            return ()
        spans.append((where[i], where[i + len(f) - 1] + 1))
        pos = i + len(f)
    return tuple(spans)


# ---- pages ---------------------------------------------------------------------------------------------------------
def page_map(chunk: Chunk) -> tuple[tuple[int, int], ...]:
    """``((offset, page), ...)`` from the chunk's meta ``pages_at`` (``"0:86,412:87"``: ``text[412:]`` is printed
    from p. 87 on), ascending; ``()`` when the chunk has none (judgments, the structured IEA, an index built before
    the page map was kept)."""
    raw = dict(chunk.meta).get("pages_at", "")
    out = []
    for item in raw.split(","):
        off, _, page = item.partition(":")
        if off.strip().isdigit() and page.strip().isdigit():
            out.append((int(off), int(page)))
    return tuple(sorted(out))


def format_page_map(pairs: Iterable[tuple[int, int]]) -> str:
    """Inverse of :func:`page_map`: ``[(0, 86), (412, 87)] -> "0:86,412:87"``."""
    return ",".join(f"{o}:{p}" for o, p in pairs)


def pages_of(chunk: Chunk, start: int, end: int) -> tuple[int, int]:
    """``(first, last)`` pages where ``chunk.text[start:end]`` is printed; ``chunk.pages`` when the chunk has no
    page map (:func:`page_map`)."""
    pm = page_map(chunk)
    if not pm:
        return chunk.pages
    end = max(start + 1, end)

    def at(offset: int) -> int:
        page = pm[0][1]
        for o, p in pm:
            if o <= offset:
                page = p
            else:
                break
        return page

    return at(start), at(end - 1)


def span_pages(chunk: Chunk, spans: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """``(first, last)`` pages of all ``spans`` of ``chunk`` (``chunk.pages`` when none or no page map)."""
    if not spans:
        return chunk.pages
    got = [pages_of(chunk, a, b) for a, b in spans]
    return min(p for p, _ in got), max(q for _, q in got)


__all__ = ["BLOCK", "CLAUSE", "Division", "Layout", "SUB", "TAIL", "chunk_layout", "format_page_map", "layout",
           "locate", "open_state", "page_map", "pages_of", "pin", "printed", "span_pages"]
