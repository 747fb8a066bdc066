"""Holdings: the paragraph where a court states its conclusion, and the answer to "which judgment held
X" built from whole judgments. Pure; no model.

``conclusion(chunks, question) -> Chunk``: among one judgment's chunks, the one that states its conclusion. Each
chunk scores

* the conclusion cues it holds outside quotation marks (:func:`own_words`; :data:`CUES`: "we hold", "we answer
  the question", "the appeal is allowed / dismissed", "the reference is answered", "X is overruled", "for the
  foregoing reasons", "the conviction is set aside", ...; each distinct cue counts once, with its weight), plus
* the share of the question's content words it contains (:func:`legal_rag.text.content_terms`), times
  :data:`RELEVANCE_WEIGHT`, plus
* its position in the judgment (0 at the start, :data:`POSITION_WEIGHT` at the end: courts conclude last),
* for a chunk that opens a long quotation of another text (:data:`QUOTING`: "reads as under:"), only the cues
  before that opening count, less :data:`QUOTING_PENALTY` (what another court held there is not this court's
  conclusion).

The best score wins; ties go to the later chunk. The weights are set by hand (not fitted): a stated holding
outweighs position alone; relevance breaks ties between holdings of a judgment deciding several questions.

``holding_text(ranked, question)`` writes the answer: one entry per judgment, best first, its case name and
citation first, then the conclusion quoted (cut at :data:`QUOTE_CHARS` characters around its first cue, the cut
marked "..."), cited ``[n]`` with its paragraph and page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text import content_terms, excerpt
from ..types import Chunk
from .quotation import where

#: (pattern, weight): how plainly a sentence states the court's conclusion
CUES: tuple[tuple[re.Pattern[str], float], ...] = tuple((re.compile(p, re.I), w) for p, w in (
    (r"\bwe\s+(?:therefore\s+|accordingly\s+|thus\s+)?(?:hold|declare)\b", 3.0),
    (r"\b(?:it\s+is|is\s+hereby)\s+(?:therefore\s+)?held\b", 3.0),
    (r"\bwe\s+(?:therefore\s+)?answer\b|\bquestions?\s+(?:of\s+law\s+)?(?:is|are)\s+answered\b|"
     r"\banswer(?:ed)?\s+(?:the\s+(?:question|reference)\s+)?in\s+the\s+(?:affirmative|negative)\b", 3.0),
    (r"\b(?:appeals?|petitions?|applications?|writ\s+petitions?|references?)\s+(?:is|are|stands?)\s+(?:accordingly\s+|"
     r"therefore\s+|hereby\s+|partly\s+)?(?:allowed|dismissed|disposed\s+of|rejected|answered)\b", 2.5),
    (r"\b(?:is|are|stands?)\s+(?:hereby\s+|accordingly\s+)?overruled\b", 2.5),
    (r"\bwe\s+(?:are\s+)?(?:of\s+the\s+)?(?:considered\s+)?(?:opinion|view)\s+that\b|"
     r"\bwe\s+(?:conclude|find)\s+that\b", 2.0),
    (r"\b(?:for\s+the\s+(?:foregoing|aforesaid|above|reasons\s+stated)|in\s+view\s+of\s+the\s+(?:above|foregoing|"
     r"aforesaid|discussion))\b|\bin\s+(?:the\s+)?(?:result|conclusion)\b|\bto\s+conclude\b|\bresultantly\b", 1.5),
    (r"\b(?:conviction|sentence|order|judgment)s?\s+(?:\w+\s+){0,6}(?:is|are)\s+(?:hereby\s+)?(?:set\s+aside|"
     r"upheld|confirmed|quashed|affirmed|modified)\b|\bacquitted\b", 1.5),
    (r"\bthe\s+law\s+(?:is|on\s+the\s+point\s+is)\s+(?:well\s+)?settled\b|\blaid\s+down\s+the\s+law\b", 0.5),
))
#: a quoted span (curly or straight double quotes): another text's words, not this court's
_QUOTED = re.compile(r"\u201c[^\u201d]*\u201d?|\"[^\"]*\"?")


def own_words(text: str) -> str:
    """``text`` with every quoted span blanked (same length, so offsets hold): what the court says itself."""
    return _QUOTED.sub(lambda m: " " * len(m.group(0)), text)


#: words that open another text quoted at length ("reads as under:"): that text is not this court's conclusion
QUOTING = re.compile(r"\b(?:reads?|read|observed|held|stated|provides?|laid\s+down)\s+(?:as\s+)?(?:under|follows)\b|"
                     r"\bin\s+the\s+following\s+words\b", re.I)
QUOTING_PENALTY = 2.0
RELEVANCE_WEIGHT = 3.0
POSITION_WEIGHT = 1.0
#: characters of the conclusion quoted in the answer
QUOTE_CHARS = 700


@dataclass(frozen=True)
class Holding:
    """One judgment's entry: ``title``, ``citation`` (the first we hold, "" when none), ``court``, ``date``, the
    ``chunk`` that states its conclusion and the ``quote`` taken from it."""

    title: str
    citation: str
    court: str
    date: str
    chunk: Chunk
    quote: str


def cue_score(text: str) -> float:
    """Sum of the weights of the distinct cues (:data:`CUES`) found in ``text``."""
    return sum(w for rx, w in CUES if rx.search(text))


def conclusion(chunks: Sequence[Chunk], question: str = "") -> Chunk:
    """The chunk of ``chunks`` (one judgment, reading order; non-empty, else ``ValueError``) that states the
    conclusion (module docstring)."""
    if not chunks:
        raise ValueError("a judgment with no chunks has no conclusion")
    terms = set(content_terms(question))
    n = len(chunks)

    def score(i: int) -> tuple[float, int]:
        text = own_words(chunks[i].text)
        rel = len(terms & set(content_terms(chunks[i].text))) / len(terms) if terms else 0.0
        pos = i / (n - 1) if n > 1 else 1.0
        m = QUOTING.search(text)  # cues after "reads as under:" are the quoted text's, not this court's
        cues = cue_score(text[:m.start()]) - QUOTING_PENALTY if m else cue_score(text)
        return cues + RELEVANCE_WEIGHT * rel + POSITION_WEIGHT * pos, i

    return chunks[max(range(n), key=score)]


#: a law report's end-note after the judgment's last words: "Headnotes prepared by: [name] Result of the case:
#: Appeals dismissed." (the Digital Supreme Court Reports print it after the order); the reporter's, not the court's
END_NOTE = re.compile(r"\s*(?:†\s*)?(?:Headnotes\s+prepared\s+by|Result\s+of\s+the\s+case)\s*:", re.I)


def quote_of(chunk: Chunk, limit: int = QUOTE_CHARS) -> str:
    """The chunk's text (spaces collapsed), without a law report's end-note (:data:`END_NOTE` and what follows
    it), cut to about ``limit`` characters around its first cue at word boundaries, each cut marked "..."."""
    text = re.sub(r"\s+", " ", chunk.text).strip()
    note = END_NOTE.search(text)
    if note and note.start() > 0:
        text = text[:note.start()].rstrip()
    if len(text) <= limit:
        return text
    own = own_words(text)
    starts = [m.start() for rx, _ in CUES for m in [rx.search(own)] if m]
    return excerpt(text, min(starts) if starts else len(text) - limit, limit)


def heading(title: str, citation: str, court: str = "", date: str = "") -> str:
    """``"Mohd. Anwar v. The State (N.C.T. of Delhi), [2020] 7 S.C.R. 150 (Supreme Court of India, 2020-08-19)"``."""
    extra = ", ".join(x for x in (court, date) if x)
    return f"{title}" + (f", {citation}" if citation else "") + (f" ({extra})" if extra else "")


def holding_text(holdings: Sequence[Holding], first_marker: int = 1) -> str:
    """The answer listing ``holdings`` best first; entry ``i`` cites ``[first_marker + i]`` (module docstring)."""
    if not holdings:
        return ""
    out = ["Judgments that decide this, ranked as whole judgments by their passages; each with the paragraph where "
           "the court states its conclusion:"]
    for i, h in enumerate(holdings):
        loc = where(h.chunk)
        out.append(f"{i + 1}. {heading(h.title, h.citation, h.court, h.date)}. The court's conclusion"
                   f"{f' ({loc})' if loc else ''}: \u201c{h.quote}\u201d [{first_marker + i}]")
    return "\n".join(out)


__all__ = ["CUES", "Holding", "POSITION_WEIGHT", "QUOTE_CHARS", "QUOTING", "QUOTING_PENALTY", "RELEVANCE_WEIGHT",
           "own_words",
           "conclusion", "cue_score",
           "heading", "holding_text", "quote_of"]
