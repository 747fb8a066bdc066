"""Relevance of the quoted provisions: does a cited provision answer the question asked, or is it only related?

Fidelity (:mod:`legal_rag.verify`) says a quote is printed in its passage; relevance says it answers the question.
A passage can be quoted faithfully and still answer another question: "Is 316(2) bailable?" retrieves IPC 316 and
CrPC 316 (same number, other Acts) and an illustration of BNS 316(1); a job-scam question retrieves BNS 111
(organised crime) beside BNS 318(4).

**Anchors** (:func:`anchors`): the provisions that answer, in the order the answer leads with them --

1. the provisions the composed head names (:class:`~legal_rag.types.HeadLine` ``ref``, in head order: today's law
   first when it leads), each line's followed by its official pair (``HeadLine.counterparts``, the BPR&D
   correspondence tables) before the next line's (the quotes of reading 1 of a bare number before reading 2's);
2. the pairs of their whole
   section when the question did not write the sub-section (a head at BNS 318(4) answers with all of BNS 318, so
   IPC 415, 417, 418 and 420 answer too) and, one step back, the pair's own counterparts by the same tables
   (IPC 498A -> BNS 85 and BNS 86: the definition of cruelty answers a question governed by BNS 85);
3. the sections the question names with their Act (``QuestionRef.how`` ``named``, ``premise`` or ``idiom``) and their
   official successors/predecessors; a bare number ("316(2)") counts only in the reading the head chose, or, when
   there is no head, in every reading.

A cited provision **answers** when its Act and section are an anchor's; when the question itself wrote the
anchor's sub-section ("316(2)"), a quote pinned to another sub-section of that section (BNS 316(1)) does not. With
no anchor (no head, no section named) nothing is judged: every provision is kept as it was.

**Arrangement** (:func:`arrange`): the answer body's blocks (an extractive heading line with its quote lines, or one
line of a model's prose) that answer come first, ordered by their anchor (the head's leading provision first; a
model's prose keeps its own order), then blocks citing no statute (judgments, notes) in their order, then a
"Related provisions" part: for an extractive answer the related provisions' heading lines only (their quotes are
withheld, not quoted as the answer) -- with their quotes when the anchors rest only on a suggestion from the facts
(``Anchors.firm`` false: such a head is often wrong, so nothing is withheld on its word) -- and for a model's prose
its related lines as written. Deterministic: no question-specific strings, only the question analysis
(:mod:`legal_rag.law.question`), the head and the concordance.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..law import Concordance, QuestionAnalysis, find_refs
from ..text import MARKER, parse_marker
from ..types import HeadLine, Hit, StatuteRef

#: how a head line found from the facts by precedents opens (:func:`legal_rag.generate.head.compose_head`)
SUGGESTED = "Suggested from the facts"
#: the line that opens the related part of an answer
RELATED_HEADING = "Related provisions (retrieved, but not the answer to the question asked):"


@dataclass(frozen=True)
class Anchors:
    """The provisions that answer a question (module docstring), leading one first. ``strict`` holds the anchors
    whose sub-section the question wrote: a quote of another sub-section of their section does not answer.
    ``firm``: read from the question (a section named, an offence named, the head's own provisions); ``False`` when
    they rest only on a suggestion from the facts (precedents), which is often wrong: the related provisions are
    then moved with their quotes, not withheld."""

    refs: tuple[StatuteRef, ...] = ()
    strict: frozenset[StatuteRef] = frozenset()
    firm: bool = True

    def rank(self, ref: StatuteRef | None) -> int | None:
        """The position of the first anchor ``ref`` answers by (0 leads), ``None`` when it answers none (and for
        ``None``, a judgment)."""
        if ref is None:
            return None
        for i, a in enumerate(self.refs):
            if (a.act, a.section) != (ref.act, ref.section):
                continue
            if a in self.strict and ref.sub and ref.sub[:len(a.sub)] != a.sub:
                continue
            return i
        return None

    def answers(self, ref: StatuteRef | None) -> bool:
        """Whether ``ref`` answers (always, when there are no anchors: nothing to judge against)."""
        return not self.refs or self.rank(ref) is not None


def anchors(analysis: QuestionAnalysis | None, head: Sequence[HeadLine] = (),
            concordance: Concordance | None = None) -> Anchors:
    """The :class:`Anchors` of a question from its analysis, its composed head and the official tables (module
    docstring). ``concordance`` adds the pairs of the head's sections (a head provision the question did not name
    at its sub-section answers with its whole section, so its section's official pairs answer too: BNS 318(4) ->
    IPC 415, 417, 418, 420) and the head pair's own counterparts; without it only ``HeadLine.counterparts`` count.
    The anchors are ``firm`` unless the only head lines are suggestions from the facts (:data:`SUGGESTED`) and the
    question names no section."""
    out: list[StatuteRef] = []

    def add(refs) -> None:
        out.extend(r for r in refs if r not in out)

    def pair(ref: StatuteRef) -> tuple[StatuteRef, ...]:
        return concordance.counterparts(ref) if concordance is not None else ()

    strict: set[StatuteRef] = set()
    refs = analysis.refs if analysis is not None else ()
    for r in refs:
        if r.ref.sub and r.how in ("named", "bare"):
            strict.add(r.ref)
    for h in head:  # line by line: a line's official pair before the next line (reading 1 before reading 2)
        add([h.ref, *h.counterparts])
    for h in head:
        if h.ref.sub and h.ref not in strict:
            add(pair(h.ref.base))
        for c in h.counterparts:
            add(pair(c))
    bare_pool = set(out) if head else None
    named = False
    for r in refs:
        if r.how == "bare" and bare_pool is not None and r.ref not in bare_pool:
            continue
        named = True
        add([r.ref, *r.successors, *r.predecessors])
    strict &= set(out)
    firm = named or any(not h.line.startswith(SUGGESTED) for h in head)
    return Anchors(tuple(out), frozenset(strict), firm)


@dataclass(frozen=True)
class Block:
    """One block of an answer body: ``lines`` (a heading with its quotes, or one line), the ``[n]`` markers in them,
    the provisions it cites (``refs``; ``()`` for judgments and notes) and whether it is an extractive heading
    block (``heading``)."""

    lines: tuple[str, ...]
    markers: tuple[int, ...]
    refs: tuple[StatuteRef, ...]
    heading: bool


_QUOTE_LINE = re.compile(r"\s*[\u201c\"]")


def blocks(text: str, passages: Sequence[Hit], extractive: bool) -> list[Block]:
    """``text`` cut into :class:`Block` s. Extractive: a heading line (``BNS 318(4) - Cheating [1]``) and the quote
    lines after it are one block, its provision read from the heading by the citation grammar (the sub-section the
    quote is pinned to); a model's prose: one block per line, its provisions those of the passages its markers
    name (section level)."""
    out: list[list[str]] = []
    heads: list[bool] = []
    for line in text.splitlines():
        if extractive and out and heads[-1] and _QUOTE_LINE.match(line):
            out[-1].append(line)
            continue
        is_head = extractive and not _QUOTE_LINE.match(line) and bool(MARKER.search(line))
        out.append([line])
        heads.append(is_head)
    result = []
    for lines, is_head in zip(out, heads):
        markers = tuple(dict.fromkeys(n for ln in lines for m in MARKER.finditer(ln) for n in parse_marker(m.group(1))
                                      if 1 <= n <= len(passages)))
        refs: tuple[StatuteRef, ...] = ()
        if is_head and markers and passages[markers[0] - 1].chunk.ref is not None:
            own = passages[markers[0] - 1].chunk.ref
            label = MARKER.sub("", lines[0]).split(" - ", 1)[0]
            read = [f.ref for f in find_refs(label) if f.status == "ok" and f.ref is not None
                    and (f.ref.act, f.ref.section) == (own.act, own.section)]
            refs = (read[0] if read else own.base,)
        elif markers:
            refs = tuple(dict.fromkeys(passages[n - 1].chunk.ref.base for n in markers
                                       if passages[n - 1].chunk.ref is not None))
        result.append(Block(tuple(lines), markers, refs, is_head))
    return result


@dataclass(frozen=True)
class Arranged:
    """The body as arranged: ``text``; ``related_from`` the offset in ``text`` where the related part begins
    (``len(text)`` when there is none); ``related`` the provisions moved there, in order."""

    text: str
    related_from: int
    related: tuple[StatuteRef, ...] = ()


def arrange(text: str, passages: Sequence[Hit], marks: Anchors, *, extractive: bool = True) -> Arranged:
    """The answer body ``text`` with its answering blocks first (by anchor rank), blocks citing no statute next, and
    the related ones under :data:`RELATED_HEADING` (module docstring); a model's prose (``extractive=False``) keeps
    the order of the lines it does not move. Unchanged when ``marks`` has no anchors or
    nothing is related and the order already follows the anchors."""
    if not marks.refs or not text.strip():
        return Arranged(text, len(text))
    bs = blocks(text, passages, extractive)
    k = 0
    while k < len(bs) and not bs[k].markers:  # lines before the first cited block (a note, a notice) stay first
        k += 1
    opening = bs[:k]
    lead: list[tuple[int, int, Block]] = []
    plain: list[Block] = []
    related: list[Block] = []
    for i, b in enumerate(bs[k:]):
        if not b.refs:
            plain.append(b)
            continue
        ranks = [r for r in (marks.rank(ref) for ref in b.refs) if r is not None]
        if ranks:
            lead.append((min(ranks), i, b))
        else:
            related.append(b)
    if extractive:  # quotes: the leading provision's first; a model's prose keeps its own order
        kept = [*[b for _, _, b in sorted(lead, key=lambda t: (t[0], t[1]))], *plain]
    else:
        kept = [b for b in bs[k:] if b not in related]
    lines = [ln for b in (*opening, *kept) for ln in b.lines]
    body = "\n".join(lines)
    if not related:
        return Arranged(body, len(body))
    shown = [ln for b in related for ln in (b.lines[:1] if b.heading and marks.firm else b.lines)]
    start = len(body) + (1 if body else 0)
    full = "\n".join(([body] if body else []) + [RELATED_HEADING, *shown])
    moved = tuple(dict.fromkeys(r for b in related for r in b.refs))
    return Arranged(full, start, moved)


__all__ = ["RELATED_HEADING", "SUGGESTED", "Anchors", "Arranged", "Block", "anchors", "arrange", "blocks"]
