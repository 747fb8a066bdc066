"""``[n]`` markers in an answer -> :class:`~legal_rag.types.Citation` objects naming the passage, its act and
section (to sub-section precision where the quote or sentence shows it: :func:`pinpoint`), source file, the pages
where the cited words are printed, and the quoted span.

Contract (stated to the model in ``prompts/system.txt``): markers name the passages given to the generator,
``[n]`` = ``Draft.passages[n-1]``. A marker that names no given passage (``[7]`` with five passages, ``[0]``)
is a problem, reported and removed from the text, and never becomes a citation. ``[1, 2]`` and ``[1-3]`` are
read as lists and ranges.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .law import chunk_layout, find_refs, judgment_label, judgment_words, locate, pages_of, pin, printed, span_pages, statute_wording
from .text import MARKER, content_terms, parse_marker, punishment_terms, split_sentences, unwrap
from .types import Chunk, Citation, Hit, StatuteRef

#: a sentence that says what a section provides ("Section 5(2) prescribes ...", "... is punishable with ...")
_STATES_LAW = re.compile(r"\b(?:provides?|prescribes?|punishable|lays\s+down|reads?|stipulates?)\b", re.I)
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


def _best_span(claim: str, text: str) -> tuple[str, int]:
    """The sentence of ``text`` sharing most content words with ``claim``, and its offset (-1 if none)."""
    want = set(content_terms(claim))
    best, where, score = "", -1, 0
    for a, b in split_sentences(unwrap(text)):
        s = len(want & set(content_terms(text[a:b])))
        if s > score:
            best, where, score = re.sub(r"\s+", " ", text[a:b]).strip(), a, s
    return best, where


def quote_spans(quote: str, text: str) -> tuple[tuple[int, int], ...]:
    """``[start, end)`` in ``text`` of the fragments of ``quote`` (:func:`legal_rag.law.pinpoint.locate`), or ``()``
    when the quote is not in ``text`` or could be read at two places (a short quote such as "shall be punished with
    imprisonment" printed in several sub-sections pins nothing)."""
    spans = locate(quote, text)
    if spans and locate(quote, text, after=spans[0][0]):
        return ()
    return spans


def pinpoint(chunk: Chunk, claim: str, spans: Sequence[tuple[int, int]] = ()) -> tuple[StatuteRef | None,
                                                                                        tuple[int, int]]:
    """The provision and pages a citation of ``chunk`` names: ``(ref, (first page, last page))``.

    * a quote located in the passage (``spans``, :func:`quote_spans`): the sub-section (and clause) its words belong
      to (:func:`legal_rag.law.pinpoint.pin`: a sub-section only when its marker is printed at the start of the
      sub-section they lie in, in this passage or, for a passage beginning inside it, earlier in the section) and
      the pages where those words are printed;
    * else a sub-section of the passage's own section that the sentence names (``"BNS 318(4)"``, ``"section
      318(4)"``; a clause too, ``"64(2)(m)"``) when its marker is printed in the passage (or the passage begins
      inside it), with the pages of that sub-section's text in the passage;
    * else the passage's section and the pages of the passage's own text.

    Pages come from the chunk's page map (meta ``pages_at``), else its ``pages``. A judgment passage: ``(None,
    chunk.pages)``."""
    if chunk.ref is None:
        return None, chunk.pages
    lay = chunk_layout(chunk)
    if spans:
        ref = pin(chunk.ref, lay, spans)
        if ref.sub or not _stated_sub(chunk, claim):
            return ref, span_pages(chunk, spans)
    sub = _stated_sub(chunk, claim)
    for k in range(len(sub), 0, -1):  # the longest printed prefix: "64(2)(m)" -> (2)(m), else (2)
        at = printed(lay, sub[:k])
        if at is not None:
            return StatuteRef(chunk.ref.act, chunk.ref.section, sub[:k]), pages_of(chunk, *at)
    return chunk.ref, pages_of(chunk, 0, len(chunk.text)) if chunk.text else chunk.pages


def _stated_sub(chunk: Chunk, claim: str) -> tuple[str, ...]:
    """The sub-section path of the passage's own section that ``claim`` names (the passage's Act or none named)."""
    ref = chunk.ref
    if ref is None or ref.sub:
        return ()
    for f in find_refs(claim):  # "BNS 318(4)", "section 318(4)": the passage's section, in its Act or in none named
        if f.section == ref.section and f.act in (None, ref.act) and f.sub:
            return tuple(f.sub)
    return ()


def judgment_statement(chunk: Chunk, claim: str, quote: str = "") -> str:
    """The label (:func:`legal_rag.law.judgment_words`) of a citation of judgment passage ``chunk`` whose
    sentence quotes a statute's words from it (``quote``) or, quoting nothing, states a statute's words or a
    section's punishment in its own (``"Section 5(2) of the Act provides imprisonment of not less than one year"``):
    such words are the judgment's, of its date, never the statute. ``""`` for a statute passage or a sentence
    that states no statute's words."""
    if chunk.ref is not None:
        return ""
    if quote:
        return judgment_words(chunk, quote)
    if statute_wording(claim) or (find_refs(claim) and punishment_terms(claim) and _STATES_LAW.search(claim)):
        return judgment_label(chunk, _best_span(claim, chunk.text)[0])
    return ""


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
            spans: tuple[tuple[int, int], ...] = ()
            if quotes:
                quote = next((q for q in quotes if locate(q, chunk.text)), quotes[0])
                spans = quote_spans(quote, chunk.text)
            else:  # the supporting span; too uncertain to narrow the reference to a sub-section
                quote = _best_span(claim, chunk.text)[0]
            ref, pages = pinpoint(chunk, claim, spans)
            citations.append(Citation(marker=n, chunk_id=chunk.id, ref=ref, source=chunk.source, pages=pages,
                                      sentence=claim, support="unchecked", quote=quote,
                                      judgment_words=judgment_statement(chunk, claim, quote if quotes else "")))
    return Cited(tuple(sentences), tuple(citations), tuple(problems))


def reading_order(text: str, passages: Sequence[Hit], cited: Sequence[int] = ()) -> dict[int, int]:
    """Old marker -> new marker for every passage of ``passages`` (``[n]`` = ``passages[n-1]``): the passages
    ``text`` cites are numbered 1, 2, ... in the order their markers first appear (notes numbered consecutively
    through the text, as *The Bluebook* and OSCOLA number footnotes), then those only ``cited`` names (markers of
    citations whose sentence the text no longer shows), then the rest in their given order. Markers naming no
    passage are ignored.

    ``reading_order("A [3]. B [1, 3].", passages_of_4) -> {3: 1, 1: 2, 2: 3, 4: 4}``
    """
    seen = [n for m in MARKER.finditer(text) for n in parse_marker(m.group(1))]
    order = [n for n in dict.fromkeys([*seen, *cited, *range(1, len(passages) + 1)]) if 1 <= n <= len(passages)]
    return {old: new for new, old in enumerate(order, 1)}


def remove_bad_markers(text: str, passages: Sequence[Hit]) -> str:
    """``text`` with every marker naming a passage not given removed (valid markers in a list are kept)."""
    def fix(m: re.Match) -> str:
        keep = [n for n in parse_marker(m.group(1)) if 1 <= n <= len(passages)]
        return "[" + ", ".join(map(str, dict.fromkeys(keep))) + "]" if keep else ""

    return MARKER.sub(fix, text)
