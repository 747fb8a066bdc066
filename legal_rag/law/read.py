"""Reading a question, once: everything the later stages need to know about it, in one typed :class:`Question`.

``read_question(asked, ...) -> Question`` runs, in this order, on the question in normal form
(:func:`read_input`):

1. date-shaped strings that are no calendar date ("31.02.2024") -> a ``date`` notice (said, never guessed); and,
   once the analysis is made (step 4), a ``date`` notice for each reading of a date the text did not make plain
   (:attr:`legal_rag.law.question.QuestionAnalysis.date_notes`: an unclear date's role, a month, acts on both
   sides of 1 July 2024, a date argument that differs from the text);
2. words in a script the sources are not written in (:func:`legal_rag.law.normalise.unread_script`): most of the
   question and no section named -> the ``language`` route (a plain statement that the language is not
   supported); otherwise a ``language`` notice and only the readable part is answered;
3. a follow-up ("is it bailable?", :func:`legal_rag.law.followup.resolve_followup`) -> the question rewritten to
   name the provision that governed the previous answer (``Question.assumed``) and a ``follow-up`` notice naming
   it, read with that answer's offence date when the question gives none (the same facts, the same offence); when there is no previous turn, or it gives no provision, the question as asked and a ``follow-up`` notice
   saying so and why;
4. the analysis (:func:`legal_rag.law.question.analyse`: refs, idioms, case names and citations, dates and their
   roles, kind, Acts; an ``offence_date`` argument wins over the text), with a plain number read for a
   classification question (:func:`legal_rag.law.classify.read_plain_number`);
5. the route (:data:`Route`): ``judgment`` for a citation to look up, a quotation to check, a holding to find or
   the judgments that applied a section named with its Act (:func:`legal_rag.law.judgment_questions.judgment_task`,
   with the court and years the question asks for); a citation named beside a section is a
   ``cited statute`` question (its citations checked, then the statutes answer); every other question is a
   ``statute`` question.

Each text is analysed once (the question, or its readable part, and a follow-up as rewritten); the steps after read
that analysis, never the text again (the sections the readable part names, the case titles that make a judgment task).
No index, model or network is used: the correspondence tables (``concordance``) and the First Schedules
(``schedule``) are data passed in, and so is the case-citation reader (``citation_finder``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Literal

from ..errors import InputTooLongError, LegalRagError
from ..types import Answer, Notice, StatuteRef
from .classify import Schedule, read_plain_number
from .dates import impossible_dates
from .followup import Turn, is_followup, resolve_followup, turn_of
from .judgment_questions import JudgmentTask, judgment_task
from .normalise import language_notice, normalise_input, too_long, unread_script
from .question import QuestionAnalysis, analyse

if TYPE_CHECKING:
    from .concordance import Concordance

#: which answerer answers a question: a refusal for a language the sources are not written in, the judgments
#: themselves (a citation, a quotation, a holding, the judgments that applied a section), the statutes after
#: checking a case citation named beside a section, or the statutes
Route = Literal["language", "judgment", "cited statute", "statute"]
#: a language refusal only when at least this share of the question's letters are in the unread script
REFUSE_SHARE = 0.5
#: what a caller may keep of the previous turn: its answer, its analysis, its question, or a :class:`Turn`
Previous = Answer | QuestionAnalysis | Turn | str | None


@dataclass(frozen=True)
class Question:
    """A question as read (module docstring).

    ``asked``: the question as sent, in normal form; ``text``: what is answered (the readable part, a follow-up
    rewritten to name its provision); ``analysis``: of ``text``; ``notices``: what the answer says about the reading,
    in the order found; ``task``: the judgment task (``None`` unless ``route`` is ``judgment`` or
    ``cited statute``); ``assumed``: the provisions a follow-up was resolved to (taken from the previous answer,
    not named by the user; ``()`` for any other question)."""

    asked: str
    text: str
    analysis: QuestionAnalysis
    route: Route
    notices: tuple[Notice, ...] = ()
    task: JudgmentTask | None = None
    assumed: tuple[StatuteRef, ...] = ()
    #: the question was read as a follow-up (resolved to ``assumed``, or not: then answered on its own, without a
    #: provision chosen for it)
    followup: bool = False


def read_input(text: str, limit: int) -> str:
    """``text`` in the one normal form of user text (:func:`legal_rag.law.normalise.normalise_input`). Raises
    :class:`~legal_rag.errors.InputTooLongError` above ``limit`` characters, as sent (before any work on it) and
    once normalised, stating the limit."""
    if len(text) > limit:
        raise InputTooLongError(too_long(text, limit))
    text = normalise_input(text)
    if len(text) > limit:
        raise InputTooLongError(too_long(text, limit))
    return text


def date_notice(bad: list[str]) -> str:
    """``date_notice(["31.02.2024"]) -> 'Not read as a date (no such calendar date): "31.02.2024".'``"""
    return "Not read as a date (no such calendar date): " + ", ".join(f'"{d}"' for d in bad) + "."


def read_question(text: str, *, concordance: Concordance, schedule: Schedule, limit: int,
                  offence_date: dt.date | str | None = None, previous: Previous = None,
                  citation_finder: Callable[[str], tuple[str, ...]] | None = None,
                  followup: Callable[[QuestionAnalysis], bool] = is_followup) -> Question:
    """Read the question ``text`` as sent once: put in normal form (:func:`read_input`), then the steps of the
    module docstring. ``previous``: the previous turn (``None``: there is none; a question there is put in normal
    form and checked against ``limit`` too). Raises :class:`~legal_rag.errors.InputTooLongError` for a question
    (or a previous question) above ``limit`` characters, :class:`~legal_rag.errors.LegalRagError` for an empty
    question, ``ValueError`` for an ``offence_date`` that is not ISO ``YYYY-MM-DD``. ``followup``: whether a
    question's analysis reads as a follow-up (the pipeline's learned reading, :mod:`legal_rag.rank.followup`;
    default the rules of :func:`legal_rag.law.followup.is_followup`)."""
    asked = read_input(text, limit)
    if not asked:
        raise LegalRagError("empty question")

    # one analysis per text read (the question, its readable part, a follow-up rewritten, a previous question)
    read: Callable[[str], QuestionAnalysis] = partial(analyse, offence_date=offence_date, concordance=concordance,
                                                      citation_finder=citation_finder)
    unread = unread_script(asked)
    notices: list[Notice] = []
    if bad := impossible_dates(asked):
        notices.append(Notice("date", date_notice(bad)))
    text, analysis = asked, None
    if unread is not None:  # words in a script the sources are not written in (a Hindi sentence)
        analysis = read(unread.rest) if unread.rest else None
        readable = [f for f in analysis.found if f.status == "ok"] if analysis is not None else []
        if not readable and unread.share >= REFUSE_SHARE:
            notices.append(Notice("language", language_notice(unread, answered=False)))
            return Question(asked, asked, read(asked), "language", tuple(notices))
        notices.append(Notice("language", language_notice(unread, answered=True)))
        text = unread.rest
    if analysis is None:
        analysis = read(text)
    follow = resolve_followup(analysis, turn_of(previous, lambda q: read(read_input(q, limit))), followup(analysis))
    assumed: tuple[StatuteRef, ...] = ()
    if follow is not None:
        notices.append(Notice("follow-up", follow.note))
        if follow.resolved:  # the rewritten question is read, once; any other question keeps its reading
            text, assumed = follow.question, follow.refs
            if offence_date is None and follow.offence_date is not None:  # the same facts: the previous turn's date
                read = partial(analyse, offence_date=follow.offence_date, concordance=concordance,
                               citation_finder=citation_finder)
            analysis = read(text)
    analysis = read_plain_number(analysis, schedule, concordance)
    notices += [Notice("date", n) for n in analysis.date_notes]
    task = judgment_task(text, analysis.citations, analysis.cases,
                         tuple(dict.fromkeys(r.ref for r in analysis.refs if r.how == "named")))
    if task is None:
        return Question(asked, text, analysis, "statute", tuple(notices), assumed=assumed, followup=follow is not None)
    route: Route = "cited statute" if task.kind == "citation" and any(r.how != "bare" for r in analysis.refs) \
        else "judgment"
    return Question(asked, text, analysis, route, tuple(notices), task, assumed, follow is not None)


__all__ = ["Previous", "Question", "REFUSE_SHARE", "Route", "date_notice", "read_input", "read_question"]
