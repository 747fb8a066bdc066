"""The one stage after verification: what the answer carries besides its verified text (DESIGN.md, "The flow").

``finish(draft, verification, question, head, suggestions, ctx) -> Answer``, in this order:

1. supersession flags (:func:`legal_rag.law.flag_superseded`, date-aware per Act) of the sections the answer relies
   on or the user named, no more (:func:`relied_flags`): the sections the question names (:func:`named_refs`: a
   follow-up's provision, taken from the previous answer, is not named by the user and raises no flag of the
   question's own, such as a same-number collision), each old-code statute passage given to the generator (its own
   section), and those the verified answer states in its own words or quotes from a statute
   (:func:`legal_rag.verify.answer_refs`; a section named inside a judgment's words quoted by the answer, its FIR's
   list, is the court's mention, not the answer's reliance); a judgment passage's citations (the sentences
   addressed to a model left out, since they are data) only where one of those names the same section;
   deduplicated;
2. an answer that found nothing (``Draft.found_nothing``, or its every sentence withheld: ``withheld`` of the
   verification) under filters that keep judgments only says so (a ``filters`` notice);
3. an abstained answer carries no case-base suggestions, and its head is the one composed without them (nothing
   was answered, so nothing is suggested);
4. the cited provisions arranged against the head (:func:`legal_rag.verify.relevant`: those that answer lead, the
   rest are related), then the head opens the text; the head is not generated, so verification never removes it;
5. the markers numbered in reading order (:func:`in_reading_order`): the passages cited are ``[1]``, ``[2]``, ...
   in the order the text first cites them, so the screen and every export number their notes alike;
6. each sentence stating a statute's words from a judgment passage (``Citation.judgment_words``) is followed by
   the note that they are the judgment's words of its date, never the statute (:func:`mark_judgment_words`);
7. the question's notices (:attr:`legal_rag.law.read.Question.notices`) kept as data (``Answer.notices``), the
   question as asked, and the dates the flags were judged by (``Answer.offence_date``, ``proceeding_date``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence

from ..law import FoundRef, Question
from ..resources import Resources
from ..types import OLD_ACTS, Answer, Draft, HeadLine, Hit, Notice, SectionSuggestion, SupersessionFlag
from .context import Context
from .head import compose


def passage_flags(hit: Hit, res: Resources, offence_date: dt.date | str | None,
                  proceeding_date: dt.date | str | None = None) -> list[SupersessionFlag]:
    """The supersession flags of one passage given to the generator (step 1 of the module docstring)."""
    from ..injection import without_instructions
    from ..law import find_refs, flag_superseded

    c = hit.chunk
    where = f"passage:{c.id}"
    if c.ref is not None:
        return list(flag_superseded([c.ref], where, offence_date, proceeding_date=proceeding_date,
                                    concordance=res.concordance)) if c.ref.act in OLD_ACTS else []
    found = [f for f in find_refs(without_instructions(c.text)) if f.status == "ok" and f.ref.act in OLD_ACTS]
    return list(flag_superseded(found, where, offence_date, proceeding_date=proceeding_date,
                                concordance=res.concordance))


def relied_flags(flags: Sequence[SupersessionFlag], passages: Sequence[Hit]) -> list[SupersessionFlag]:
    """``flags`` without those found only in a judgment passage (``found_in`` ``"passage:<id>"`` of a passage
    that is no statute's) for a section no other flag names: a judgment's mentions (its FIR's list, the charges
    below) are flagged only when the question, a statute passage or the answer's own words rely on the same
    section. Order kept."""
    judgment = {f"passage:{h.chunk.id}" for h in passages if h.chunk.ref is None}
    relied = {(f.old.act, f.old.section) for f in flags if f.found_in not in judgment}
    return [f for f in flags if f.found_in not in judgment or (f.old.act, f.old.section) in relied]


def mark_judgment_words(answer: Answer) -> Answer:
    """``answer`` with each sentence whose citation carries ``judgment_words`` (a statute's words stated from a
    judgment passage: :func:`legal_rag.cite.judgment_statement`) followed by the note saying so
    (:func:`legal_rag.law.judgment_words_note`), on the same line, after its markers; each label once per
    sentence. Idempotent; ``answer`` itself when no citation carries one."""
    from ..cite import cite
    from ..law import judgment_words_note

    if not any(c.judgment_words for c in answer.citations):
        return answer
    text = answer.text
    for s in reversed(cite(text, answer.passages).sentences):
        labels = dict.fromkeys(c.judgment_words for c in answer.citations
                               if c.judgment_words and c.marker in s.markers and c.sentence == s.claim)
        notes = " ".join(judgment_words_note(label) for label in labels)
        end = s.start + len(s.text.rstrip())
        if notes and not text[end:].lstrip(" ").startswith(notes):
            text = f"{text[:end]} {notes}{text[end:]}"
    return dataclasses.replace(answer, text=text)


def in_reading_order(answer: Answer) -> Answer:
    """``answer`` with its passages renumbered by :func:`legal_rag.cite.reading_order` of its text and citations:
    the text's markers, each citation's ``marker`` and the order of ``passages`` (``[n]`` = ``passages[n-1]``)
    change together, so the markers first appear as ``[1]``, ``[2]``, ... and every screen and export numbers its
    notes by them (:mod:`legal_rag.ui.html`, :func:`legal_rag.export.build_doc`); ``prompt`` keeps the numbers the
    generator was given. Idempotent; ``answer`` itself when already in reading order."""
    from ..cite import reading_order
    from ..text import renumber

    numbers = reading_order(answer.text, answer.passages, [c.marker for c in answer.citations])
    if all(old == new for old, new in numbers.items()):
        return answer
    by_new = {new: old for old, new in numbers.items()}
    return dataclasses.replace(
        answer, text=renumber(answer.text, numbers),
        passages=tuple(answer.passages[by_new[n] - 1] for n in range(1, len(answer.passages) + 1)),
        citations=tuple(dataclasses.replace(c, marker=numbers.get(c.marker, c.marker)) for c in answer.citations))


def named_refs(question: Question) -> tuple[FoundRef, ...]:
    """The references found in ``question`` that the user named: its analysis's ``found``, less those of the
    provisions a follow-up was resolved to (``Question.assumed``)."""
    assumed = {r.base for r in question.assumed}
    return tuple(f for f in question.analysis.found if f.ref is None or f.ref.base not in assumed)


def with_notices(answer: Answer, question: Question, notices: Sequence[Notice] = ()) -> Answer:
    """``answer`` for ``question`` as asked, carrying the question's notices and ``notices`` (found while answering),
    in that order, and the dates its analysis applied; the opening notices also lead ``problems`` as one entry;
    its markers numbered in reading order (:func:`in_reading_order`)."""
    opening = (*question.notices, *notices)
    problems = ("\n\n".join(n.text for n in opening), *answer.problems) if opening else answer.problems
    answer = in_reading_order(answer)
    return dataclasses.replace(answer, query=question.asked, notices=(*opening, *answer.notices), problems=problems,
                               offence_date=question.analysis.offence_date,
                               proceeding_date=question.analysis.proceeding_date)


def finish(draft: Draft, verification, question: Question, head: tuple[HeadLine, ...],
           suggestions: tuple[SectionSuggestion, ...], ctx: Context, notices: Sequence[Notice] = ()) -> Answer:
    """The answer that ships (module docstring). ``verification``: :func:`legal_rag.verify.verify` of ``draft``;
    ``head``: composed before generation from ``suggestions``; ``notices``: found while answering (a citation's
    check), after the question's own."""
    from ..law import dedupe_flags, flag_superseded
    from ..retrieve.filters import judgments_only, judgments_only_notice
    from ..verify import answer_refs, relevant, to_answer

    res, analysis = ctx.resources, question.analysis
    off, proc = analysis.offence_date, analysis.proceeding_date
    flags = list(flag_superseded(named_refs(question), "query", off, proceeding_date=proc,
                                 concordance=res.concordance))
    for h in draft.passages:
        flags += passage_flags(h, res, off, proc)
    flags += flag_superseded(answer_refs(verification.text, draft.passages), "answer", off, proceeding_date=proc,
                             concordance=res.concordance)
    answer = to_answer(draft, verification, flags=dedupe_flags(relied_flags(flags, draft.passages)),
                       index_id=res.index.id)
    if judgments_only(ctx.filters) and (draft.found_nothing or verification.withheld):
        note = judgments_only_notice(ctx.filters)
        answer = dataclasses.replace(answer, notices=(Notice("filters", note),), problems=(*answer.problems, note))
    if draft.abstained:
        head = compose(res, analysis) if suggestions else head
        suggestions = ()
    if suggestions:
        answer = dataclasses.replace(answer, suggestions=suggestions)
    answer = relevant(answer, head, analysis, res.concordance)
    if head:
        from ..generate.head import head_text

        answer = dataclasses.replace(answer, head=head, text=f"{head_text(head)}\n\n{answer.text}")
    return with_notices(mark_judgment_words(answer), question, notices)


__all__ = ["finish", "in_reading_order", "mark_judgment_words", "named_refs", "passage_flags", "relied_flags",
           "with_notices"]
