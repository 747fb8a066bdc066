"""Reading the judgments themselves for a question's judgment task (:mod:`legal_rag.generate.judgment_answer`): a
citation to look up, a quotation to check, a holding to find, the judgments that applied a section
(:mod:`legal_rag.generate.applied`); and the check of citations named beside a section.

The court and years a question asks for (``JudgmentTask.constraint``, :func:`legal_rag.law.read_constraint`)
narrow the judgments searched for a holding and those listed for a section, together with the request's own court
and year filters (:func:`legal_rag.retrieve.filters.constrained`); the answer says what it applied, and when
nothing is of that court and those years it says so (a ``filters`` notice), never answering from other courts or
years instead.
"""

from __future__ import annotations

import dataclasses

from ..errors import FilterError
from ..law import Question
from ..types import Judgment, Notice
from .context import Context


def _judgment_filters(question: Question, ctx: Context):
    """The request's filters narrowed to the court and years the question asks for, judgments only (Acts, codes
    and kind dropped: a judgment has none of them); ``None`` when the two keep nothing together."""
    from ..retrieve.filters import Filters, constrained

    c = question.task.constraint
    base = dataclasses.replace(ctx.filters, act=(), code=None, kind=None) if ctx.filters is not None else Filters()
    try:
        return constrained(base, c.court, c.year_from, c.year_to)
    except FilterError:
        return None


def _holding(question: Question, ctx: Context):
    """(ranked judgments, notices) for a holding question within the court and years asked for."""
    from ..generate.applied import constraint_notice
    from ..retrieve.filters import resolve
    from ..retrieve.judgment_lookup import rank_for_holding

    res, c = ctx.resources, question.task.constraint
    notices = [Notice("filters", c.note)] if c.note else []
    filters = ctx.filters
    if c:
        got = _judgment_filters(question, ctx)
        try:
            if got is None:
                raise FilterError("the request's filters and the question's court or years keep nothing together")
            filters = resolve(dataclasses.replace(got, kind="judgment"), res.index.metadata(),
                              allowed=res.index.allowed_ids)
        except FilterError:
            return [], [*notices, Notice("filters", constraint_notice(c, False))]
        notices.append(Notice("filters", constraint_notice(c, True)))
    text = c.strip(question.text) if c else question.text
    ranked = [(r.case, r.hits) for r in rank_for_holding(text or question.text, res.index, ctx.settings, filters,
                                                          question.analysis)]
    return ranked, notices


def _applied(question: Question, ctx: Context):
    """The answer to "which judgments applied <section>?" from the case base."""
    from ..generate.applied import applied_answer, constraint_notice
    from ..generate.applying import judgments_applying
    from ..generate.judgment_answer import JudgmentAnswer

    res, task = ctx.resources, question.task
    cb = res.casebase
    if cb is None:
        msg = ("No case base is built, so the judgments citing a section cannot be listed (`legal-rag index` builds "
               "it from the corpus's judgments).")
        return JudgmentAnswer(msg, (), (msg,))
    filters = _judgment_filters(question, ctx)
    if filters is None:
        msg = "The request's court or year filters and the question's own keep no judgment together."
        return JudgmentAnswer(msg, (), (msg,), notices=(Notice("filters", constraint_notice(task.constraint, False)),))

    def keep(j: Judgment) -> bool:
        year = j.date[:4]
        return filters.matches({"kind": "judgment", "court": j.court, "year": int(year) if year.isdigit() else None})

    lists = [judgments_applying(ref, cb, res.concordance, None if filters.is_empty() else keep) for ref in task.refs]
    return applied_answer(lists, res.judgment_chunks, constraint=task.constraint, cases=len(cb))


def judged(question: Question, ctx: Context):
    """:func:`legal_rag.generate.judgment_answer.judgment_answer` of ``question``'s task; a holding question ranks
    whole judgments by their passages, never single sentences; an ``applied`` task lists the case base's
    judgments citing the section (:func:`legal_rag.generate.applied.applied_answer`)."""
    from ..generate.judgment_answer import judgment_answer

    res, task = ctx.resources, question.task
    if task.kind == "applied":
        return _applied(question, ctx)
    ranked: list = []
    notices: list[Notice] = []
    if task.kind == "holding":
        ranked, notices = _holding(question, ctx)
    meta = res.sc_metadata
    got = judgment_answer(task, question.text, question.analysis.citations, res.case_records, res.judgment_chunks,
                          meta=meta.by_citation if meta else None, meta_covers=meta.covers if meta else None,
                          meta_titles=meta.by_title if meta else None, ranked=ranked, top_k=ctx.settings.top_k,
                          titles=question.analysis.cases)
    return dataclasses.replace(got, notices=(*got.notices, *notices)) if notices else got


def citation_check(question: Question, ctx: Context) -> str:
    """What the checks of the citations named beside a section say (a citation absent from the index is left to the
    answer's own abstention, :func:`legal_rag.generate.abstain.missing_cases`); "" when there is nothing to say."""
    return " ".join(c.message for c in judged(question, ctx).checks if c.status != "absent")


__all__ = ["citation_check", "judged"]
