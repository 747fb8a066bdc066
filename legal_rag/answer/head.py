"""The answer's composed head: the governing provisions, their First Schedule classification and the date rule, from
structured data only (:func:`legal_rag.generate.head.compose_head`), and the chunks of the sections it names."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..resources import Resources
from ..types import Chunk, HeadLine, Notice, SectionSuggestion, StatuteRef

if TYPE_CHECKING:
    from ..law import BareNumber, QuestionAnalysis
    from ..retrieve import Filters


def _exists(res: Resources) -> Callable[[StatuteRef], bool]:
    """False for a sub-section the section prints no division for and no table row names ("IPC 316(2)")."""
    from ..law import missing_division

    sections = res.sections()
    return lambda ref: not missing_division(ref, sections.get(ref.base), res.concordance)


def bare_of(res: Resources, analysis: QuestionAnalysis) -> tuple[BareNumber, ...]:
    """The numbers ``analysis`` reads without their Act, each with its readings narrowed and ordered
    (:func:`legal_rag.law.bare.bare_numbers`): counted in the case base (judgments citing each reading's section,
    ``CaseBase.section_df``; uncounted when none was built)."""
    from ..law import bare_numbers

    if not any(r.how == "bare" for r in analysis.refs):
        return ()
    cb = res.casebase
    return bare_numbers(analysis, res.schedule, exists=_exists(res), usage=cb.section_df if cb is not None else None)


def bare_notices(res: Resources, bare: Sequence[BareNumber]) -> tuple[Notice, ...]:
    """A ``reading`` notice per ambiguous number of ``bare`` (:meth:`legal_rag.law.bare.BareNumber.notice`)."""
    return tuple(Notice("reading", b.notice(res.title_of)) for b in bare if b.ambiguous)


def compose(res: Resources, analysis: QuestionAnalysis, lead: tuple[SectionSuggestion, ...] = (),
            bare: Sequence[BareNumber] = ()) -> tuple[HeadLine, ...]:
    """The head of an answer to ``analysis``; ``()`` when no provision governs. ``lead``: the section ranker's
    candidates that lead the answer (:func:`legal_rag.answer.passages.lead_of`), each a line at its chosen limb,
    for a question that names no provision. ``bare``: its bare numbers (:func:`bare_of`): every reading of an
    ambiguous one is a line, in order. A sub-section the section prints no division for and no table row names
    ("IPC 316(2)") is never a head line."""
    from ..generate.head import compose_head

    return compose_head(analysis, lead, concordance=res.concordance, schedule=res.schedule, title_of=res.title_of,
                        exists=_exists(res), derived=res.derived_division, bare=bare)


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


__all__ = ["bare_notices", "bare_of", "compose", "head_chunks"]
