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
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..injection import without_instructions
from ..law import find_case_titles, find_refs, title_in
from ..types import Hit
from .prompt import passage_label
from ..text import content_terms, normalise

NOT_IN_SOURCES = "The indexed sources do not contain the answer to this question."


def is_abstention_sentence(text: str) -> bool:
    """Whether ``text`` is, whole, the abstention sentence :data:`NOT_IN_SOURCES` (compared after
    :func:`legal_rag.text.normalise`, the final full stop optional); a sentence that only begins with its words
    ("The indexed sources do not contain a definition, but ...") is not."""
    return normalise(text).rstrip(". ") == normalise(NOT_IN_SOURCES).rstrip(". ")


_CITATION_FORMS = tuple(re.compile(p, re.I) for p in (
    r"\(\s*(?:19|20)\d{2}\s*\)\s*(?:\(\s*\d+\s*\)\s*|\d+\s+|Supp\.?\s*\d*\s*)?(?:SCC|SCR|S\.C\.R\.|SCALE|Cri\.?\s*L\.?J\.?|"
    r"DLT|Bom\.?\s*C\.?R\.?|All\.?\s*L\.?J\.?|KLT|MLJ|CTC)(?:\s*\((?:Cri|Civ|L&S)\))?\s*(?:OnLine\s+\w+\s*)?\d+",
    r"\[\s*(?:19|20)\d{2}\s*\]\s*(?:Supp\.?\s*)?\d*\s*S\.?\s*C\.?\s*R\.?\s*\d+",
    r"\b(?:19|20)\d{2}\s+(?:SCC\s+OnLine\s+\w+|INSC|SCC\s*\(\d+\)|SCR\s*\(\d+\)|AIR|Cri\.?\s*L\.?J\.?)\s+\d+",
    r"\bAIR\s+(?:19|20)\d{2}\s+[A-Z][A-Za-z]*\s+\d+",
    r"\b\d{1,4}\s+(?:F\.\s?(?:2d|3d|4th)|F\.\s?Supp\.(?:\s?[23]d)?|U\.\s?S\.|S\.\s?Ct\.|L\.\s?Ed\.(?:\s?2d)?)\s+\d+",
))
_GENERIC = frozenset(content_terms("section sections act acts code offence offences offense punish punishment "
                                   "punishable penalty court case person persons provide provided legal under "
                                   "indian india bharatiya sanhita nyaya nagarik suraksha sakshya adhiniyam "
                                   "penal procedure criminal evidence new old mean means define definition "
                                   "what which happen happens someone anyone given give apply applies"))


@dataclass(frozen=True)
class CaseReference:
    """A judgment named in a question: ``kind`` is ``"citation"`` or ``"title"``; ``text`` as written."""

    kind: str
    text: str


def case_references(question: str) -> tuple[CaseReference, ...]:
    """Reporter citations and ``A v. B`` titles (:func:`legal_rag.law.cases.find_case_titles`) named in
    ``question``, in order.

    ``case_references("Summarise (2019) 5 SCC 9999")`` -> ``(CaseReference("citation", "(2019) 5 SCC 9999"),)``
    """
    refs: list[tuple[int, CaseReference]] = []
    for rx in _CITATION_FORMS:
        refs += [(m.start(), CaseReference("citation", m.group(0).strip())) for m in rx.finditer(question)]
    # titles by the case-name grammar ("IPC v. BNS", a comparison of codes, is none)
    refs += [(t.span[0], CaseReference("title", t.title)) for t in find_case_titles(question)]
    return tuple(r for _, r in sorted(refs, key=lambda p: p[0]))


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


def missing_cases(question: str, hits: Sequence[Hit],
                  known_case: Callable[[CaseReference], bool] | None = None) -> tuple[CaseReference, ...]:
    """The judgments named in ``question`` that neither ``hits`` nor ``known_case`` (a look-up in the whole
    index, supplied by the pipeline) contain."""
    return tuple(r for r in case_references(question)
                 if not reference_found(r, hits) and not (known_case is not None and known_case(r)))


_SECTION_NO = re.compile(r"\b(\d{1,3}[A-Z]{0,2})(?:\(\w+\))*\b")


def clears_floor(question: str, hit: Hit, floors: Mapping[str, float]) -> bool:
    """Whether ``hit`` is relevant enough to be given to the generator (see the module docstring)."""
    if hit.stage in ("lookup", "evidence") or any(reference_found(r, [hit]) for r in case_references(question)):
        return True
    for prefix, floor in floors.items():
        if hit.stage == prefix or hit.stage.startswith(prefix + ":"):
            return hit.score >= floor
    c = hit.chunk
    if c.ref is not None and any(m.group(1).upper() == c.ref.section for m in _SECTION_NO.finditer(question)):
        return True
    asked = set(content_terms(question)) - _GENERIC
    have = set(content_terms(passage_label(c) + " " + c.title + " " + without_instructions(c.text)))
    return bool(asked & have)


def relevant(question: str, hits: Sequence[Hit], floors: Mapping[str, float]) -> tuple[Hit, ...]:
    """The hits that clear the relevance floor, in their given order."""
    return tuple(h for h in hits if clears_floor(question, h, floors))


def invalid_sections(question: str) -> tuple[str, ...]:
    """Notes for each section the question names that its Act does not have (``"BNS has no section 999 (its last
    section is 358)"``; the last sections are those of :data:`legal_rag.law.refs.LAST_SECTION`: BNS 358, BNSS 531,
    BSA 170). A question resting on a section that does not exist is answered with that, never with passages
    about some other section (dev question F3, "What does section 999 of the BNS say?")."""
    return tuple(dict.fromkeys(f.note for f in find_refs(question) if f.status == "invalid"))
