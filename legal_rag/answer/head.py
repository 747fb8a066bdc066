"""The answer's composed head: the governing provisions, their First Schedule classification and the date rule, from
structured data only (:func:`legal_rag.generate.head.compose_head`), and the chunks of the sections it names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..resources import Resources
from ..types import Chunk, HeadLine, SectionSuggestion

if TYPE_CHECKING:
    from ..law import QuestionAnalysis
    from ..retrieve import Filters


def compose(res: Resources, analysis: QuestionAnalysis,
            lead: tuple[SectionSuggestion, ...] = ()) -> tuple[HeadLine, ...]:
    """The head of an answer to ``analysis``; ``()`` when no provision governs. ``lead``: the section ranker's
    candidates that lead the answer (:func:`legal_rag.answer.passages.lead_of`), each a line at its chosen limb,
    for a question that names no provision. A sub-section the section prints no division for and no table row
    names ("IPC 316(2)") is never a head line."""
    from ..generate.head import compose_head
    from ..law import missing_division

    sections = res.sections()

    def exists(ref):
        return not missing_division(ref, sections.get(ref.base), res.concordance)

    return compose_head(analysis, lead, concordance=res.concordance, schedule=res.schedule, title_of=res.title_of,
                        exists=exists, derived=res.derived_division)


def head_chunks(res: Resources, head: Sequence[HeadLine], filters: Filters | None = None) -> tuple[Chunk, ...]:
    """The chunks of the sections whose sub-section ``head`` names (``BNS 318(4)``: every chunk of BNS 318) that
    ``filters`` keep, for :func:`legal_rag.generate.llm_passages`; ``()`` with no such head or no index."""
    from ..generate.prompt import head_refs

    if not head or not res.has_index:
        return ()
    secs = dict.fromkeys((r.act, r.section) for r in head_refs(head) if r.sub)
    chunks = [c for act, sec in secs for c in res.index.by_ref(act, sec)]
    if filters is not None:
        allowed = res.index.allowed_ids(filters)
        chunks = [c for c in chunks if c.id in allowed]
    return tuple(chunks)


__all__ = ["compose", "head_chunks"]
