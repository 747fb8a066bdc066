"""The judgment answerer (a citation to look up, a quotation to check, "which judgment held X", the judgments that
applied a section, answered from the judgments themselves), the statute answer opened by a citation's check, and
the language refusal."""

from __future__ import annotations

from collections.abc import Iterator

from ..law import Question
from ..types import OLD_ACTS, Answer, Notice
from .context import Context
from .finish import with_notices
from .judged import citation_check, judged
from .statute import answer_statute


def answer_judgment(question: Question, ctx: Context) -> Iterator[str | Answer]:
    """The question's notices, the answer's text, then the :class:`Answer`; with no index built, the statute
    answerer answers instead."""
    if not ctx.resources.has_index:
        yield from answer_statute(question, ctx)
        return
    yield from (n.text + "\n\n" for n in question.notices)
    got = judged(question, ctx)
    yield from (n.text + "\n\n" for n in got.notices)
    flags = ()
    if question.task.kind == "applied":  # an old-code section asked for: its successor, by the table
        from ..law import flag_superseded

        a = question.analysis
        old = [r for r in question.task.refs if r.act in OLD_ACTS]
        flags = tuple(flag_superseded(old, "query", a.offence_date, proceeding_date=a.proceeding_date,
                                      concordance=ctx.resources.concordance))
    answer = Answer(question.text, got.text, citations=got.citations, flags=flags, problems=got.problems,
                    passages=got.passages, model="judgment-lookup", index_id=ctx.resources.index.id)
    yield answer.text
    yield with_notices(answer, question, got.notices)


def answer_cited_statute(question: Question, ctx: Context) -> Iterator[str | Answer]:
    """A statute question that also names a case citation: the citation's check opens the statute answer (a
    ``citation`` notice); with no index built, nothing is checked."""
    note = citation_check(question, ctx) if ctx.resources.has_index else ""
    yield from answer_statute(question, ctx, (Notice("citation", note),) if note else ())


def refuse_language(question: Question, ctx: Context) -> Iterator[str | Answer]:
    """A question in a script the sources are not written in, naming no section: the plain statement that its
    language is not supported (the last notice of the question) is the answer."""
    *before, refusal = question.notices
    yield from (n.text + "\n\n" for n in before)
    yield refusal.text
    yield Answer(question.asked, refusal.text, problems=(refusal.text,), model=ctx.settings.generator,
                 index_id=ctx.resources.index.id if ctx.resources.has_index else "",
                 offence_date=question.analysis.offence_date, proceeding_date=question.analysis.proceeding_date)


__all__ = ["answer_cited_statute", "answer_judgment", "refuse_language"]
