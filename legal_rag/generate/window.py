"""Compact passages for an LLM prompt: each passage is shown to the model as the few verbatim windows
that bear on the question, not whole, so a small model on a CPU prefills a few hundred prompt tokens per passage
rather than the whole section.

* A **statute** passage is cut at its printed sub-sections (:func:`legal_rag.law.pinpoint.chunk_layout`; the Gazette
  and Legislative Department prints' ``(1)``, ``(2)`` markers). The sub-sections the question names for this
  section (``"BNS 318(4)"``, read once in the question's analysis: ``QuestionAnalysis.found``) are kept;
  otherwise the ``max_subs`` sub-sections with the largest overlap of content words with the question
  (:func:`legal_rag.text.content_terms`), a sub-section that states a punishment counting one word more when the
  question asks about punishment (the extractive generator's rule, :mod:`.extractive`); a further one only when it
  scores more than :data:`FURTHER_SHARE` of the best (BNS 3(4) "acts done ... extend also to illegal omissions"
  shares three words with a question about common intention, 3(5) six: only 3(5) is shown, so the model cannot
  cite the wrong one). The text before the first sub-section (the section's number and title) is kept when the
  chunk starts the section. A section without sub-sections is shown whole, and so is a passage of at most
  ``SHORT_CHARS`` characters, less any sub-section scoring at most :data:`FURTHER_SHARE` of the best.
* A **judgment** or other document passage keeps its ``max_sentences`` best sentences by the same overlap, in
  printed order.

* **Chunk overlap is shown once** (:func:`shown_texts`): a chunk that begins inside a sub-section or clause repeats
  the end of the chunk before it (the chunker's overlap). When that leading text, up to its first printed marker,
  is printed at the same place in the section by another given chunk (by ``Chunk.span``) and shown whole there,
  it is left out; a passage with nothing else
  shown is left out of the prompt (BNS 109's second chunk, the tail of (1)'s "... if hurt is caused ...
  imprisonment for life", is not given beside the whole of (1): alone it reads as a punishment without its
  condition).
* **A passage showing one sub-section is labelled with it** (:func:`shown_sub`; every piece shown lies in that
  sub-section as the chunk's layout reads it): "BNS 316(5)", so the model names the provision as printed, not
  "section 5 of the BNS 316" from "(5) Whoever ..." under the label "BNS 316".

Windows are verbatim slices of ``chunk.text`` in printed order, joined by ``WINDOW_GAP`` where text was left out,
so every quote the model takes from them is a quote of the passage: :mod:`legal_rag.verify` still checks each
sentence against the whole passage (``Draft.passages`` keep their chunks whole), and a citation is pinned to its
sub-section in the full text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..law import BLOCK, analyse, chunk_layout
from ..text import content_terms, split_sentences
from ..types import Chunk, StatuteRef

if TYPE_CHECKING:
    from ..law import QuestionAnalysis

#: a passage this short is shown whole
SHORT_CHARS = 600
#: between two windows of one passage (the model is told what it means: prompts/answer.txt)
WINDOW_GAP = "\n[…]\n"
#: a sub-section beyond the best one is shown only when it scores more than this share of the best one's score
FURTHER_SHARE = 0.5
_PUNISH_Q = frozenset(content_terms("punishment punish penalty sentence jail prison imprisonment fine term years"))
_PUNISH = re.compile(r"\bpunish|\bliable\s+to\b", re.I)


def _score(text: str, q: set[str], punish_q: bool) -> float:
    return len(q & set(content_terms(text))) + (1.0 if punish_q and _PUNISH.search(text) else 0.0)


def _join(text: str, spans: list[tuple[int, int]]) -> str:
    spans = sorted(spans)
    out: list[str] = []
    last = None
    for a, b in spans:
        seg = text[a:b]
        start, end = a + len(seg) - len(seg.lstrip()), b - (len(seg) - len(seg.rstrip()))
        if start >= end:
            continue
        if last is not None:  # the printed whitespace between adjacent windows ("103. (1)"), else the gap mark
            between = text[last:start] if start >= last else ""
            out.append(WINDOW_GAP if between.strip() else (between or "\n"))
        out.append(text[start:end])
        last = end
    return "".join(out)


def statute_windows(chunk: Chunk, question: QuestionAnalysis, max_subs: int = 2,
                    focus: Sequence[StatuteRef] = ()) -> list[tuple[int, int]]:
    """``[start, end)`` spans of ``chunk.text`` to show for the question read as ``question`` (module docstring);
    the whole text as one span when the chunk has fewer than two sub-sections. ``focus``: provisions the answer is
    about beside those the question names (the composed head's): their sub-sections of this section are the ones
    kept."""
    text = chunk.text
    lay = chunk_layout(chunk)
    units = [u for u in lay.units() if u[0]]  # the heading before "(1)" is added back below
    first = lay.subs[0].start if lay.subs else len(text)
    if len(units) < 2:
        return [(0, len(text))]
    named = {r.ref.sub[0] for r in question.found if r.status == "ok" and r.ref is not None and chunk.ref
             and (r.ref.act, r.ref.section) == (chunk.ref.act, chunk.ref.section) and r.ref.sub}
    named |= {r.sub[0] for r in focus if chunk.ref and r.sub and (r.act, r.section) == (chunk.ref.act, chunk.ref.section)}
    keep = [(a, b) for label, a, b in units if label in named]
    if not keep:
        q = set(content_terms(question.question))
        punish_q = bool(q & _PUNISH_Q)
        scored = sorted(((_score(text[a:b], q, punish_q), a, b) for _, a, b in units), key=lambda u: (-u[0], u[1]))
        keep = [(a, b) for sc, a, b in scored[:max_subs] if sc > FURTHER_SHARE * scored[0][0] or sc == scored[0][0]]
    if not lay.open and first > 0:  # "318. Cheating.—" before "(1)": the section's number and title
        keep.append((0, first))
    return sorted(keep)


def sentence_windows(chunk: Chunk, question: str, max_sentences: int = 3) -> list[tuple[int, int]]:
    """The ``max_sentences`` sentences of a judgment or document chunk that best match ``question``, in order."""
    spans = split_sentences(chunk.text)
    if len(spans) <= max_sentences:
        return [(0, len(chunk.text))]
    q = set(content_terms(question))
    ranked = sorted(spans, key=lambda s: (-_score(chunk.text[s[0]:s[1]], q, False), s[0]))
    return sorted(ranked[:max_sentences])


def _spans(chunk: Chunk, question: QuestionAnalysis, max_subs: int, max_sentences: int,
           focus: Sequence[StatuteRef]) -> list[tuple[int, int]]:
    named_here = any(chunk.ref and r.sub and (r.act, r.section) == (chunk.ref.act, chunk.ref.section) for r in focus)
    if len(chunk.text) <= SHORT_CHARS and not named_here:
        if chunk.kind == "statute":  # whole, less a sub-section scoring at most FURTHER_SHARE of the best
            return statute_windows(chunk, question, len(chunk.text), focus)
        return [(0, len(chunk.text))]
    if chunk.kind == "statute":
        return statute_windows(chunk, question, max_subs, focus)
    return sentence_windows(chunk, question.question, max_sentences)


def passage_window(chunk: Chunk, question: QuestionAnalysis | str, *, max_subs: int = 2, max_sentences: int = 3,
                   focus: Sequence[StatuteRef] = ()) -> str:
    """The text of ``chunk`` to show the model for ``question`` (its analysis, :func:`legal_rag.law.question.analyse`,
    or its text, analysed here): verbatim windows joined by :data:`WINDOW_GAP` (module docstring); the whole
    text when it is short or has nothing to leave out. ``focus``: see :func:`statute_windows` (a sub-section in focus
    is kept even in a short passage's section)."""
    spans = _spans(chunk, analyse(question) if isinstance(question, str) else question, max_subs, max_sentences,
                   focus)
    if spans == [(0, len(chunk.text))]:
        return chunk.text
    return _join(chunk.text, spans)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _lead_end(chunk: Chunk) -> int:
    """End of the text a statute chunk repeats from the chunk before it: up to its first printed sub-section,
    clause or Explanation/Illustration/Exception/proviso marker (the whole text when it prints none); 0 for a
    chunk that begins its section or at a marker."""
    if chunk.kind != "statute" or chunk.part == 0:
        return 0
    lay = chunk_layout(chunk)
    marks = [d.start for d in (*lay.subs, *lay.clauses) if d.start > 0] + \
        [m.start() for m in BLOCK.finditer(chunk.text) if m.start() > 0]  # a division "at 0" is the open one, run on
    end = min(marks, default=len(chunk.text))
    return end if chunk.text[:end].strip() else 0


def _prints_lead(other: Chunk, chunk: Chunk, end: int) -> bool:
    """Whether ``other`` prints ``chunk``'s first ``end`` characters at the same place in their section (by the
    chunks' ``span`` in the section text: the chunker's overlap), not merely the same words elsewhere (the
    end of BNSS 419(2)(b) is printed word for word in 419(1)(b); a lead "and" occurs in any passage)."""
    return (other.ref is not None and chunk.ref is not None and other.id != chunk.id
            and (other.ref.act, other.ref.section) == (chunk.ref.act, chunk.ref.section)
            and other.span != (0, 0) and other.span[0] <= chunk.span[0]
            and other.span[1] >= chunk.span[0] + len(chunk.text[:end].rstrip()))


def shown_texts(chunks: Sequence[Chunk], question: QuestionAnalysis | str | None, *, max_subs: int = 2,
                max_sentences: int = 3, focus: Sequence[StatuteRef] = ()) -> list[str]:
    """The text shown to the model for each of ``chunks`` (given together, in order): its windows
    (:func:`passage_window`; the whole text when ``question`` is ``None``), less the leading text it repeats from
    the chunk before it (:func:`_lead_end`) when another of ``chunks`` prints that text at the same place in the
    section (:func:`_prints_lead`) and shows it whole; ``""`` when nothing else is left (the caller leaves the passage out). Same length as ``chunks``."""
    if isinstance(question, str):  # analysed once, for every chunk
        question = analyse(question)
    full = [c.text if question is None else passage_window(c, question, max_subs=max_subs,
                                                           max_sentences=max_sentences, focus=focus)
            for c in chunks]
    out = []
    for i, c in enumerate(chunks):
        end = _lead_end(c)
        text = full[i]
        if end and text.startswith(c.text[:end].rstrip()):
            lead = _flat(c.text[:end])
            if any(j != i and _prints_lead(o, c, end) and lead in _flat(full[j]) for j, o in enumerate(chunks)):
                text = text[len(c.text[:end].rstrip()):]
                text = text[len(WINDOW_GAP):] if text.startswith(WINDOW_GAP) else text
                text = text.strip()
        out.append(text)
    return out


def shown_sub(chunk: Chunk, text: str) -> str | None:
    """The one sub-section a statute passage shows, when every piece of ``text`` (what it shows, :func:`shown_texts`;
    windows joined by :data:`WINDOW_GAP`) lies in one sub-section of ``chunk`` as the chunk's layout reads it (its
    meta ``open`` included, so a proviso or clause of the sub-section a chunk opens in is that sub-section's, not the
    next one's): ``"5"`` for BNS 316's "(5) Whoever, being in any manner entrusted ..."; ``None`` otherwise (two
    sub-sections, a section without sub-sections, a piece not found verbatim)."""
    if chunk.kind != "statute" or chunk.ref is None or chunk.ref.sub:
        return None
    lay = chunk_layout(chunk)
    labels: set[str] = set()
    at = 0
    for piece in (p.strip() for p in text.split(WINDOW_GAP.strip())):
        if not piece:
            continue
        a = chunk.text.find(piece, at)
        if a < 0:
            return None
        b, at = a + len(piece), a + len(piece)
        inside = {d.sub for d in lay.subs if a <= d.start < b}
        first = lay.sub_at(a)
        if first or not (chunk.part == 0 and a == 0):  # "115." (the section's number and title) is no sub-section's
            labels.add(first)
        labels |= inside
    return labels.pop() if len(labels) == 1 and "" not in labels else None
