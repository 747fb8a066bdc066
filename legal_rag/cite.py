"""``[n]`` markers in an answer -> :class:`~legal_rag.types.Citation` objects naming the passage, its act and
section (to sub-section precision where the quote or sentence shows it), source file, pages and quoted span.

Contract (stated to the model in ``prompts/system.txt``): markers name the passages given to the generator,
``[n]`` = ``Draft.passages[n-1]``. A marker that names no given passage (``[7]`` with five passages, ``[0]``)
is a problem, reported and removed from the text, and never becomes a citation. ``[1, 2]`` and ``[1-3]`` are
read as lists and ranges.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .law import find_refs
from .text import MARKER, content_terms, normalise, parse_marker, split_sentences, unwrap
from .types import Citation, Hit, StatuteRef

QUOTE = re.compile(r"[\"“]([^\"“”]{3,}?)[\"”]")


def strip_markers(text: str) -> str:
    """``text`` without its ``[n]`` markers (and the spaces before them)."""
    return re.sub(r"\s*" + MARKER.pattern, "", text).strip()


def quotes_in(sentence: str) -> list[str]:
    """Quoted spans of at least three words in ``sentence`` (straight or curly double quotes)."""
    return [m.group(1).strip() for m in QUOTE.finditer(sentence) if len(m.group(1).split()) >= 3]


@dataclass(frozen=True)
class CitedSentence:
    """One sentence of the answer: ``text`` as written (markers included), ``[start, end)`` in the answer,
    ``markers`` that resolve to given passages and ``bad_markers`` that do not."""

    text: str
    start: int
    end: int
    markers: tuple[int, ...]
    bad_markers: tuple[int, ...] = ()

    @property
    def claim(self) -> str:
        """The sentence without markers or list bullets."""
        return re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", strip_markers(self.text))


@dataclass(frozen=True)
class Cited:
    """The answer split into sentences, the citations of its valid markers (``support="unchecked"``) and the
    problems found (markers naming passages not given)."""

    sentences: tuple[CitedSentence, ...]
    citations: tuple[Citation, ...]
    problems: tuple[str, ...] = ()


_SUB_AT_LINE = re.compile(r"(?m)^\s*\((\d+[A-Z]?)\)")


def _best_span(claim: str, text: str) -> tuple[str, int]:
    """The sentence of ``text`` sharing most content words with ``claim``, and its offset (-1 if none)."""
    want = set(content_terms(claim))
    best, where, score = "", -1, 0
    for a, b in split_sentences(unwrap(text)):
        s = len(want & set(content_terms(text[a:b])))
        if s > score:
            best, where, score = re.sub(r"\s+", " ", text[a:b]).strip(), a, s
    return best, where


def _refine(ref: StatuteRef | None, claim: str, text: str, offset: int) -> StatuteRef | None:
    """Add the sub-section when the sentence names one of the passage's section (``318(4)``) or the quoted
    span lies in a numbered sub-section of the passage text."""
    if ref is None or ref.sub:
        return ref
    for f in find_refs(claim):  # "BNS 318(4)", "section 318(4)": the passage's section, in its Act or in none named
        if f.section == ref.section and f.act in (None, ref.act) and f.sub \
                and re.search(rf"\({re.escape(f.sub[0])}\)", text):
            return StatuteRef(ref.act, ref.section, f.sub[:1])
    lead = re.match(r"[\s\u201c\"\u2026.]*\((\d+[A-Z]?)\)\s", claim)  # a quote that opens a sub-section: “(4) Whoever…”
    if lead and any(m.group(1) == lead.group(1) for m in _SUB_AT_LINE.finditer(text)):
        return StatuteRef(ref.act, ref.section, (lead.group(1),))
    if offset >= 0:
        subs = [m.group(1) for m in _SUB_AT_LINE.finditer(text) if m.start() <= offset]
        if subs:
            return StatuteRef(ref.act, ref.section, (subs[-1],))
    return ref


def _locate(quote: str, text: str) -> int:
    frag = normalise(re.split(r"\s*(?:…|\.\.\.)\s*", quote.strip("…. "))[0])[:60]
    if not frag:
        return -1
    flat = normalise(text)
    i = flat.find(frag)
    if i < 0:
        return -1
    # map the offset in the normalised text back to the original by counting non-space characters
    target = len(flat[:i].replace(" ", ""))
    seen = 0
    for j, ch in enumerate(text):
        if ch.isspace():
            continue
        if seen == target:
            return j
        seen += 1
    return -1


def cite(text: str, passages: Sequence[Hit]) -> Cited:
    """Split ``text`` into sentences and resolve their markers against ``passages`` (``[n]`` = passages[n-1]).

    Each valid (sentence, marker) pair gives one :class:`Citation` whose ``quote`` is the sentence's quoted
    span when it has one, else the passage sentence that best matches the claim.
    """
    sentences, citations, problems = [], [], []
    for a, b in split_sentences(text):
        raw = text[a:b]
        nums = [n for m in MARKER.finditer(raw) for n in parse_marker(m.group(1))]
        good = tuple(dict.fromkeys(n for n in nums if 1 <= n <= len(passages)))
        bad = tuple(dict.fromkeys(n for n in nums if not 1 <= n <= len(passages)))
        for n in bad:
            problems.append(f"marker [{n}] names no passage given to the model (1..{len(passages)}): "
                            f"{strip_markers(raw)[:80]!r}")
        cs = CitedSentence(raw, a, b, good, bad)
        sentences.append(cs)
        claim = cs.claim
        for n in good:
            chunk = passages[n - 1].chunk
            quotes = quotes_in(claim)
            if quotes:
                quote, offset = quotes[0], _locate(quotes[0], chunk.text)
            else:  # the supporting span; too uncertain to narrow the reference to a sub-section
                quote, offset = _best_span(claim, chunk.text)[0], -1
            citations.append(Citation(marker=n, chunk_id=chunk.id, ref=_refine(chunk.ref, claim, chunk.text, offset),
                                      source=chunk.source, pages=chunk.pages, sentence=claim,
                                      support="unchecked", quote=quote))
    return Cited(tuple(sentences), tuple(citations), tuple(problems))


def remove_bad_markers(text: str, passages: Sequence[Hit]) -> str:
    """``text`` with every marker naming a passage not given removed (valid markers in a list are kept)."""
    def fix(m: re.Match) -> str:
        keep = [n for n in parse_marker(m.group(1)) if 1 <= n <= len(passages)]
        return "[" + ", ".join(map(str, dict.fromkeys(keep))) + "]" if keep else ""

    return MARKER.sub(fix, text)
