"""When to answer "the sources do not contain it" instead of generating.

Two tests, both run before any model sees the question:

1. **Judgments that are not in the index.** A question that names a judgment, by reporter citation
   ("(2019) 5 SCC 9999", "925 F.3d 1339") or by title only ("X w/o Y v. Elegant Associates"), is answered only
   when that judgment is among the passages (or ``known_case`` says the index holds it). Matching is exact
   after normalising punctuation and spacing, never fuzzy: a look-alike title is a different case. Field cases
   BL-37 (Mata v. Avianca, fabricated citations) and BL-39 (Bombay HC, 7 Jan 2026, fabricated title).
2. **The relevance floor.** A passage clears it when its stage has a floor in ``floors`` (stage prefix ->
   minimum score, e.g. ``{"dense": 0.25}`` for cosine similarity) and its score reaches it; ``lookup`` hits (an
   exact section the user named) always clear it. Scores of stages without a named floor (RRF ranks, a reranker
   without a calibrated threshold) carry no absolute relevance, so such a passage clears the floor only when it
   shares a distinctive content word, or a section the question names, with the question. A passage that is
   the judgment the question names always clears it.

The question is read once, before either test (:func:`legal_rag.law.question.analyse`): the judgments it names
(``case_refs``), the numbers that may name a section (``numbers``) and the sections it names that do not exist
(``invalid_notes``) come from its analysis; no test here reads the question's text for them again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from ..injection import without_instructions
from ..law import CaseReference, case_references, title_in
from ..types import Hit
from .prompt import passage_label
from ..text import content_terms, normalise

if TYPE_CHECKING:
    from ..law import QuestionAnalysis

NOT_IN_SOURCES = "The indexed sources do not contain the answer to this question."


def is_abstention_sentence(text: str) -> bool:
    """Whether ``text`` is, whole, the abstention sentence :data:`NOT_IN_SOURCES` (compared after
    :func:`legal_rag.text.normalise`, the final full stop optional); a sentence that only begins with its words
    ("The indexed sources do not contain a definition, but ...") is not."""
    return normalise(text).rstrip(". ") == normalise(NOT_IN_SOURCES).rstrip(". ")


_GENERIC = frozenset(content_terms("section sections act acts code offence offences offense punish punishment "
                                   "punishable penalty court case person persons provide provided legal under "
                                   "indian india bharatiya sanhita nyaya nagarik suraksha sakshya adhiniyam "
                                   "penal procedure criminal evidence new old mean means define definition "
                                   "what which happen happens someone anyone given give apply applies"))


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", normalise(text))


def _haystack(hit: Hit) -> str:
    c = hit.chunk
    return " ".join([c.title, c.case or "", *(v for _, v in c.meta), c.text])


def reference_found(ref: CaseReference, hits: Sequence[Hit]) -> bool:
    """True when a passage among ``hits`` is (or cites) the judgment ``ref`` names, by exact normalised match:
    a citation must occur with the same digits and reporter; both parties of a title must occur, whole-word,
    in one passage's case title."""
    if ref.kind == "citation":
        key = _squash(ref.text)
        return any(key in _squash(_haystack(h)) for h in hits)
    return any(title_in(ref.text, h.chunk.title + " " + (h.chunk.case or "")) for h in hits if h.chunk.kind == "judgment")


def missing_case_message(ref: CaseReference) -> str:
    if ref.kind == "citation":
        return (f"The indexed sources do not contain the judgment cited as \u201c{ref.text}\u201d, so it cannot be "
                f"verified or summarised. Please check the citation.")
    return (f"No judgment titled \u201c{ref.text}\u201d is in the indexed sources, so its ratio cannot be stated. "
            f"Please give a citation (neutral or law-report) for the judgment.")


def missing_cases(analysis: QuestionAnalysis, hits: Sequence[Hit],
                  known_case: Callable[[CaseReference], bool] | None = None) -> tuple[CaseReference, ...]:
    """The judgments the question names (``analysis.case_refs``) that neither ``hits`` nor ``known_case`` (a look-up
    in the whole index, supplied by the pipeline) contain."""
    return tuple(r for r in analysis.case_refs
                 if not reference_found(r, hits) and not (known_case is not None and known_case(r)))


def clears_floor(analysis: QuestionAnalysis, hit: Hit, floors: Mapping[str, float]) -> bool:
    """Whether ``hit`` is relevant enough to be given to the generator for the question read as ``analysis`` (see
    the module docstring; a section the question names is one of ``analysis.numbers``)."""
    if hit.stage in ("lookup", "evidence") or any(reference_found(r, [hit]) for r in analysis.case_refs):
        return True
    for prefix, floor in floors.items():
        if hit.stage == prefix or hit.stage.startswith(prefix + ":"):
            return hit.score >= floor
    c = hit.chunk
    if c.ref is not None and c.ref.section in analysis.numbers:
        return True
    asked = set(content_terms(analysis.question)) - _GENERIC
    have = set(content_terms(passage_label(c) + " " + c.title + " " + without_instructions(c.text)))
    return bool(asked & have)


def relevant(analysis: QuestionAnalysis, hits: Sequence[Hit], floors: Mapping[str, float]) -> tuple[Hit, ...]:
    """The hits that clear the relevance floor (:func:`clears_floor`), in their given order."""
    return tuple(h for h in hits if clears_floor(analysis, h, floors))
