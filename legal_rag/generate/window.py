"""Compact passages for an LLM prompt (issue 17): each passage is shown to the model as the few verbatim windows
that bear on the question, not whole, so a 1.5B model on 2 cores prefills hundreds of prompt tokens, not 1,100-1,800.

* A **statute** passage is cut at its printed sub-sections (:func:`legal_rag.law.pinpoint.chunk_layout`; the Gazette
  and Legislative Department prints' ``(1)``, ``(2)`` markers). The sub-sections the question names for this
  section (``"BNS 318(4)"``, :func:`legal_rag.law.find_refs`) are kept; otherwise the ``max_subs`` sub-sections
  with the largest overlap of content words with the question (:func:`legal_rag.text.content_terms`), a
  sub-section that states a punishment counting one word more when the question asks about punishment (the
  extractive generator's rule, :mod:`.extractive`). The text before the first sub-section (the section's number and
  title) is kept when the chunk starts the section. A section without sub-sections, or a passage of at most
  ``SHORT_CHARS`` characters, is shown whole.
* A **judgment** or other document passage keeps its ``max_sentences`` best sentences by the same overlap, in
  printed order.

Windows are verbatim slices of ``chunk.text`` in printed order, joined by ``WINDOW_GAP`` where text was left out,
so every quote the model takes from them is a quote of the passage: :mod:`legal_rag.verify` still checks each
sentence against the whole passage (``Draft.passages`` keep their chunks whole), and a citation is pinned to its
sub-section in the full text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..law import find_refs
from ..law.pinpoint import chunk_layout
from ..text import content_terms, split_sentences
from ..types import Chunk, StatuteRef

#: a passage this short is shown whole
SHORT_CHARS = 600
#: between two windows of one passage (the model is told what it means: prompts/answer.txt)
WINDOW_GAP = "\n[…]\n"
_PUNISH_Q = frozenset(content_terms("punishment punish penalty sentence jail prison imprisonment fine term years"))
_PUNISH = re.compile(r"\bpunish|\bliable\s+to\b", re.I)


def _score(text: str, q: set[str], punish_q: bool) -> float:
    return len(q & set(content_terms(text))) + (1.0 if punish_q and _PUNISH.search(text) else 0.0)


def _join(text: str, spans: list[tuple[int, int]]) -> str:
    spans = sorted(spans)
    out, last = [], None
    for a, b in spans:
        piece = text[a:b].strip()
        if not piece:
            continue
        if out and last is not None and text[last:a].strip():
            out.append(WINDOW_GAP)
        elif out:
            out.append("\n")
        out.append(piece)
        last = b
    return "".join(out)


def statute_windows(chunk: Chunk, question: str, max_subs: int = 2,
                    focus: Sequence[StatuteRef] = ()) -> list[tuple[int, int]]:
    """``[start, end)`` spans of ``chunk.text`` to show for ``question`` (module docstring); the whole text as one
    span when the chunk has fewer than two sub-sections. ``focus``: provisions the answer is about beside those the
    question names (the composed head's, issue 17): their sub-sections of this section are the ones kept."""
    text = chunk.text
    lay = chunk_layout(chunk)
    units = [u for u in lay.units() if u[0]]  # the heading before "(1)" is added back below
    first = lay.subs[0].start if lay.subs else len(text)
    if len(units) < 2:
        return [(0, len(text))]
    named = {r.ref.sub[0] for r in find_refs(question) if r.status == "ok" and r.ref is not None and chunk.ref
             and (r.ref.act, r.ref.section) == (chunk.ref.act, chunk.ref.section) and r.ref.sub}
    named |= {r.sub[0] for r in focus if chunk.ref and r.sub and (r.act, r.section) == (chunk.ref.act, chunk.ref.section)}
    keep = [(a, b) for label, a, b in units if label in named]
    if not keep:
        q = set(content_terms(question))
        punish_q = bool(q & _PUNISH_Q)
        ranked = sorted(units, key=lambda u: (-_score(text[u[1]:u[2]], q, punish_q), u[1]))
        keep = [(a, b) for _, a, b in ranked[:max_subs]]
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


def passage_window(chunk: Chunk, question: str, *, max_subs: int = 2, max_sentences: int = 3,
                   focus: Sequence[StatuteRef] = ()) -> str:
    """The text of ``chunk`` to show the model for ``question``: verbatim windows joined by :data:`WINDOW_GAP`
    (module docstring); the whole text when it is short or has nothing to leave out. ``focus``: see
    :func:`statute_windows` (a sub-section in focus is kept even in a short passage's section)."""
    named_here = any(chunk.ref and r.sub and (r.act, r.section) == (chunk.ref.act, chunk.ref.section) for r in focus)
    if len(chunk.text) <= SHORT_CHARS and not named_here:
        return chunk.text
    if chunk.kind == "statute":
        spans = statute_windows(chunk, question, max_subs, focus)
    else:
        spans = sentence_windows(chunk, question, max_sentences)
    if spans == [(0, len(chunk.text))]:
        return chunk.text
    return _join(chunk.text, spans)
