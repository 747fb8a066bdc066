"""The chunks that open the sections chosen for a question, and statute hits first for a question asking which
provisions apply.

:func:`suggestion_hits` turns the section ranker's lead (:mod:`legal_rag.rank`; each suggestion at the limb it chose,
``cited_as``) into the first chunk of each suggested section, at that sub-section, as hits of stage ``evidence``;
:func:`statutes_first` puts statute hits ahead of judgment hits for a fact pattern asking which sections apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..types import Hit, SectionSuggestion
from .filters import Filters

if TYPE_CHECKING:
    from ..law import QuestionAnalysis

#: question kinds for which precedents are asked which sections apply (a fact statement about an offence)
FACT_KINDS = frozenset({"offence", "punishment"})


def is_fact_pattern(analysis: "QuestionAnalysis | None") -> bool:
    """True for an offence or punishment question that names no section, case or citation of its own: the
    section must be found from the facts. A question that names a section is a look-up (its section is fetched by
    metadata), never a guess."""
    return (analysis is not None and analysis.kind in FACT_KINDS and not analysis.refs and not analysis.cases
            and not analysis.citations and not analysis.other_refs)


def statutes_first(hits: Sequence[Hit], analysis: "QuestionAnalysis | None") -> list[Hit]:
    """For a fact pattern that asks which provisions apply (``analysis.asks_sections``: "which section applies?"),
    the statute hits ahead of the judgment hits, each group in its own order: the question asks for the law, and a
    judgment that shares its words ("the FIR was filed") is not the answer to it (field case BL-31 A). Any other
    question keeps ``hits`` as they are."""
    if not (is_fact_pattern(analysis) and analysis.asks_sections):
        return list(hits)
    return [h for h in hits if h.chunk.kind == "statute"] + [h for h in hits if h.chunk.kind != "statute"]


def suggestion_hits(suggestions: Sequence[SectionSuggestion], index, filters: Filters | None = None,
                    lead: int = 1) -> list[Hit]:
    """The first chunk of each of the first ``lead`` suggested sections that ``filters`` keep (the chunk that starts
    the sub-section ``cited_as`` names, when it names one), as hits of stage ``evidence`` with the suggestion's
    score."""
    from ..index import chunk_metadata

    out: list[Hit] = []
    for s in suggestions[:lead]:
        ref = s.cited_as or s.ref
        chunks = index.by_ref(ref.act, ref.section)
        if filters is not None and not filters.is_empty():
            chunks = [c for c in chunks if filters.matches(chunk_metadata(c))]
        if not chunks:
            continue
        if ref.sub:
            chunks = sorted(chunks, key=lambda c: (ref.sub[0] not in dict(c.meta).get("subs", "").split(","), c.part))
        else:
            chunks = sorted(chunks, key=lambda c: c.part)
        out.append(Hit(chunks[0], s.score, "evidence", len(out) + 1))
    return out


__all__ = ["FACT_KINDS", "is_fact_pattern", "statutes_first", "suggestion_hits"]
