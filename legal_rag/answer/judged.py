"""Reading the judgments themselves for a question's judgment task (:mod:`legal_rag.generate.judgment_answer`): a
citation to look up, a quotation to check, a holding to find; and the check of citations named beside a section."""

from __future__ import annotations

from ..law import Question
from .context import Context


def judged(question: Question, ctx: Context):
    """:func:`legal_rag.generate.judgment_answer.judgment_answer` of ``question``'s task; a holding question ranks
    whole judgments by their passages, never single sentences."""
    from ..generate.judgment_answer import judgment_answer
    from ..retrieve.judgment_lookup import rank_for_holding

    res, task = ctx.resources, question.task
    ranked: list = []
    if task.kind == "holding":
        ranked = [(r.case, r.hits) for r in rank_for_holding(question.text, res.index, ctx.settings, ctx.filters,
                                                              question.analysis)]
    meta = res.sc_metadata
    return judgment_answer(task, question.text, question.analysis.citations, res.case_records, res.judgment_chunks,
                           meta=meta.by_citation if meta else None, meta_covers=meta.covers if meta else None,
                           meta_titles=meta.by_title if meta else None, ranked=ranked, top_k=ctx.settings.top_k,
                           titles=question.analysis.cases)


def citation_check(question: Question, ctx: Context) -> str:
    """What the checks of the citations named beside a section say (a citation absent from the index is left to the
    answer's own abstention, :func:`legal_rag.generate.abstain.missing_cases`); "" when there is nothing to say."""
    return " ".join(c.message for c in judged(question, ctx).checks if c.status != "absent")


__all__ = ["citation_check", "judged"]
