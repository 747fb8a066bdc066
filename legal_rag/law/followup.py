"""Conversation follow-ups: a short question with no legal words of its own ("and what
about the punishment?", "is it bailable, and which court tries it?") is read as a question about the provision that
governed the previous answer.

* ``Turn(question, refs, why, offence_date)``: what a follow-up inherits from the previous turn -- the question
  asked then, the provisions its answer was governed by (``refs``, best first, each a
  :class:`~legal_rag.types.StatuteRef` with its Act), when there are none ``why`` (said in the follow-up's notice),
  and the offence date that answer applied (a follow-up about the same facts is about the same offence, so the
  same substantive code governs it: BNS s.358, the IPC for an offence before 1 July 2024).
* ``answer_turn(question, head, ranked=False, outside=False) -> Turn``: the turn of a previous answer, from its
  structured head (:attr:`legal_rag.types.Answer.head`): the provision of its first head line, at its sub-section
  (every head line's, up to :data:`MAX_REFS`, when the question named them rather than the section ranker
  suggesting them, ``ranked``). The answer's text is never read again.
* ``turn_of(previous, analyse) -> Turn | None``: the turn of whatever the caller kept (an ``Answer``, a ``Turn``,
  or, without the answer, the previous question's analysis or text: the provisions that question named).
* ``is_followup(analysis) -> bool``: the rules below, on the question analysis only (no model, no index).
* ``names_its_own(analysis)``, ``own_matter(analysis)``, ``cues(analysis)``: rule 1, rules 1 and 2, and the words
  rules 2 and 3 read, as numbers.
* ``resolve_followup(analysis, turn, followup=None) -> FollowUp | None``: ``None`` for a question that is no
  follow-up (``followup`` as the caller read it, else by ``is_followup``); else the
  question rewritten to name the provision and the sentence the answer opens with ("Taking this as a question
  about BNS 318(4), from your previous question:"), or, when the provision cannot be known (no previous turn, or
  one with no provision), the question unchanged and a notice that says so and why.

``is_followup`` reads a question by the rules below. The pipeline keeps rules 1 and 2 (``own_matter``: a question
with legal matter of its own stands alone) and reads rule 3 with a model fitted on chat messages marked follow-up or
not (:mod:`legal_rag.rank.followup`), which weighs the same words (``cues``) beside the question's embedding; the
rules are the reading where no fitted model is at hand. A question is a follow-up by the rules when **all** of these
hold (the analysis of :mod:`legal_rag.law.question`):

1. it names no section of ours or of another Act, no case and no citation (``refs``, ``other_refs``, ``cases``,
   ``citations`` are empty);
2. it names no offence of its own (no offence noun such as "cheating", "murder", "dowry": ``_CRIME``), no
   procedure of its own ("arrest", "FIR", "procedure": the procedure cues of :func:`question_kind`, less the
   aspects of a provision a lawyer asks about next, :data:`ASPECTS`: cognizable, bail, triable, punishment)
   and asks no "which sections" question, nor the judgments anything of their own ("which decisions have held
   that ...": :func:`legal_rag.law.judgment_questions.judgment_task`);
3. it is short (at most :data:`MAX_WORDS` words) and either opens like a continuation ("and ...", "what about",
   "how about", "is it", "is that", "does it", "can it", "can he", "which court", "what is the punishment" ...) or
   points back ("it", "that", "this section", "the same", "its", "he", "the accused", "this case").

Examples::

    is_followup(analyse("and what about the punishment?"))        -> True
    is_followup(analyse("is it bailable?"))                       -> True
    is_followup(analyse("What is the punishment for cheating?"))  -> False (an offence of its own)
    is_followup(analyse("and what about IPC 302?"))               -> False (a section of its own)
    is_followup(analyse("and what is the procedure for arrest?")) -> False (a procedure of its own)
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from collections.abc import Callable, Sequence

from ..types import ACTS, OLD_ACTS, Answer, HeadLine, StatuteRef
from .judgment_questions import judgment_task
from .question import _CRIME, _PROCEDURE_STRONG, _PROCEDURE_WEAK, ASKS_FOR_SECTIONS, QuestionAnalysis

#: the longest question (in words) still read as a follow-up
MAX_WORDS = 16
#: how many provisions of the previous turn a follow-up is asked about
MAX_REFS = 2
_OPENERS = re.compile(r"^\s*(?:and|also|but|so|then|what about|how about|what of|is it|is that|is this|are they|"
                      r"does it|does that|can it|can that|would it|will it|can (?:he|she|they|the accused)|"
                      r"will (?:he|she|they)|which court|what is the punishment|what's the punishment|"
                      r"what are the (?:ingredients|punishments?)|and if)\b", re.I)
_POINTERS = re.compile(r"\b(?:it|its|that|this|these|those|they|them|the same|said|above|previous|same section|"
                       r"this section|that section|that offence|this offence|he|she|him|her|the accused|this case|"
                       r"here)\b", re.I)
_WORD = re.compile(r"\w+")
#: aspects of one provision (its classification and punishment) that a follow-up may ask about
ASPECTS = re.compile(r"\b(?:non-)?(?:cognizable|cognisable|bail|bailable|compoundable|triable|trial|court|punish\w*|"
                     r"sentence\w*|fine|imprisonment|ingredients?)\b", re.I)


#: why a previous turn gives a follow-up no provision (the end of :func:`unresolved_note`)
NO_HEAD = "the previous answer named no governing provision"
OUTSIDE = "the previous question was about law outside these sources"
NOT_NAMED = "the previous question named no provision, and its answer was not given"


@dataclass(frozen=True)
class Turn:
    """The previous turn as a follow-up needs it: ``question`` as asked then, ``refs`` the provisions it was about
    (best first; ``()`` when none could be named) and ``why`` none could (``""`` when ``refs`` is not empty)."""

    question: str
    refs: tuple[StatuteRef, ...] = ()
    why: str = ""
    offence_date: dt.date | None = None


@dataclass(frozen=True)
class FollowUp:
    """A follow-up: ``question`` is the text to retrieve and answer with (the follow-up naming the provision, or
    as asked when it is not resolved), ``refs`` the provisions assumed (``()``: not resolved), ``note`` the
    notice the answer opens with (the provision taken, or why none was), ``offence_date`` the previous turn's
    offence date it inherits (``None``: none; only a resolved follow-up inherits one)."""

    question: str
    refs: tuple[StatuteRef, ...]
    note: str
    offence_date: dt.date | None = None

    @property
    def resolved(self) -> bool:
        """Whether a provision of the previous turn was taken."""
        return bool(self.refs)


def names_its_own(analysis: QuestionAnalysis) -> bool:
    """Whether the question names a provision, case or citation of its own (rule 1): then it is never a follow-up,
    however it is read."""
    a = analysis
    return bool(a.refs or a.other_refs or a.cases or a.citations or any(f.status != "other_act" for f in a.found))


#: the names of :func:`cues`' values, in order
CUES = ("words", "opener", "pointer", "offence", "asks_sections", "asks_judgments", "procedure", "aspect")


def cues(analysis: QuestionAnalysis) -> tuple[float, ...]:
    """The words rules 2 and 3 read, as numbers (:data:`CUES`): the word count over :data:`MAX_WORDS` (capped at 4),
    then 1.0 or 0.0 for: a continuation opener, a pointer back, an offence noun, a "which sections" ask, a judgment
    task of its own, a procedure cue outside :data:`ASPECTS`, an aspect (bail, court, punishment). The learned
    reading (:mod:`legal_rag.rank.followup`) weighs them beside the question's embedding."""
    a, text = analysis, analysis.question
    rest = ASPECTS.sub(" ", text)
    flags = (_OPENERS.search(text), _POINTERS.search(text), _CRIME.search(text), ASKS_FOR_SECTIONS.search(text),
             judgment_task(text, a.citations, a.cases) is not None,
             _PROCEDURE_STRONG.search(rest) or _PROCEDURE_WEAK.search(rest), ASPECTS.search(text))
    return (min(len(_WORD.findall(text)) / MAX_WORDS, 4.0), *(1.0 if f else 0.0 for f in flags))


def own_matter(analysis: QuestionAnalysis) -> bool:
    """Whether the question has legal matter of its own (rules 1 and 2): a provision, case or citation it names, an
    offence noun, a "which sections" ask, a judgment task or a procedure of its own. Such a question stands alone
    however it is read further."""
    if names_its_own(analysis):
        return True
    _, _, _, offence, sections, judgments, procedure, _ = cues(analysis)
    return bool(offence or sections or judgments or procedure)


def is_followup(analysis: QuestionAnalysis) -> bool:
    """Whether ``analysis`` is a follow-up with no legal words of its own, by the rules in the module docstring:
    the reading where no fitted model is at hand (the pipeline reads rule 3 with :mod:`legal_rag.rank.followup`)."""
    if own_matter(analysis):
        return False
    words, opener, pointer, *_ = cues(analysis)
    return words <= 1.0 and bool(opener or pointer)


def turn_refs(analysis: QuestionAnalysis) -> tuple[StatuteRef, ...]:
    """The provisions a question was about, best first: each section it names (a bare number's readings only when
    nothing is named), an old-code section giving way to its official successors when the law of today governs
    (``analysis.era == "new"``: "the BNS equivalent of IPC 420" is about BNS 318(4)), an idiom read as the code
    of its era. At most :data:`MAX_REFS`."""
    named = [r for r in analysis.refs if r.how != "bare"] or list(analysis.refs)
    out: list[StatuteRef] = []
    for r in named:
        if r.how == "premise":
            group = [r.ref]
        elif r.ref.act in OLD_ACTS and r.successors and analysis.era == "new":
            group = list(r.successors)
        else:
            group = [r.ref]
        out += [g for g in group if g not in out]
    return tuple(out[:MAX_REFS])


def previous_turn(analysis: QuestionAnalysis) -> Turn:
    """The :class:`Turn` of a previous question without its answer: the provisions it named (:func:`turn_refs`);
    none for a fact pattern or a follow-up (``why``: :data:`NOT_NAMED`)."""
    refs = turn_refs(analysis)
    return Turn(analysis.question, refs, "" if refs else NOT_NAMED, analysis.offence_date)


def answer_turn(question: str, head: Sequence[HeadLine], ranked: bool = False, outside: bool = False,
                offence_date: dt.date | None = None) -> Turn:
    """The :class:`Turn` of a previous answer to ``question`` from its ``head`` (structured, never its text): the
    first head line's provision at its sub-section, or, when the question named its provisions (not ``ranked``:
    no section-ranker candidates led the answer), each head line's, up to :data:`MAX_REFS`. No provision when the
    head is empty (``why``: :data:`OUTSIDE` for an answer about law outside the sources, ``outside``, else
    :data:`NO_HEAD`) or names an Act outside the sources (``ACTS``). ``offence_date``: the one that answer
    applied (:attr:`legal_rag.types.Answer.offence_date`)."""
    refs = tuple(dict.fromkeys(h.ref for h in head))[:1 if ranked else MAX_REFS]
    if outside or not refs:
        return Turn(question, (), OUTSIDE if outside else NO_HEAD)
    strange = [r for r in refs if r.act not in ACTS]
    if strange:
        return Turn(question, (), f"the previous answer's provision ({strange[0]}) is outside these sources")
    return Turn(question, refs, offence_date=offence_date)


def turn_of(previous: Answer | QuestionAnalysis | Turn | str | None,
            analyse: Callable[[str], QuestionAnalysis]) -> Turn | None:
    """The :class:`Turn` of whatever the caller kept of the previous turn: ``None`` for none; a ``Turn`` as it is;
    an :class:`Answer` by :func:`answer_turn` (its head; a ``scope`` notice means law outside the sources);
    without the answer, a question's analysis, or its text read with ``analyse``, by :func:`previous_turn`."""
    if previous is None or isinstance(previous, Turn):
        return previous
    if isinstance(previous, Answer):
        return answer_turn(previous.query, previous.head, ranked=bool(previous.suggestions),
                           outside=any(n.kind == "scope" for n in previous.notices), offence_date=previous.offence_date)
    if isinstance(previous, str):
        previous = analyse(previous)
    return previous_turn(previous)


def followup_note(refs: tuple[StatuteRef, ...], offence_date: dt.date | None = None) -> str:
    """``followup_note((BNS 318(4),)) -> "Taking this as a question about BNS 318(4), from your previous
    question:"``; with ``offence_date`` 2024-06-15: "Taking this as a question about IPC 420, with the offence
    date 15.06.2024, from your previous question:"."""
    when = f", with the offence date {offence_date:%d.%m.%Y}" if offence_date is not None else ""
    return f"Taking this as a question about {' and '.join(map(str, refs))}{when}, from your previous question:"


#: the notice of a follow-up asked with no previous turn (none asked yet, or the conversation was cleared)
NO_PREVIOUS = ("No previous question to refer back to: this reads as a follow-up, but there is no earlier question "
               "in this conversation (none was asked, or the chat was cleared), so it is answered on its own.")


def unresolved_note(why: str) -> str:
    """``unresolved_note(NO_HEAD) -> "Not read as a follow-up: the previous answer named no governing provision, so
    this is answered on its own."``"""
    return f"Not read as a follow-up: {why}, so this is answered on its own."


def resolve_followup(analysis: QuestionAnalysis, turn: Turn | None, followup: bool | None = None
                     ) -> FollowUp | None:
    """``analysis`` as a follow-up to ``turn`` (``None``: no previous turn), or ``None`` when it is no follow-up
    (``followup``, as the caller read it; ``None``: by :func:`is_followup`). Resolved, the rewritten question
    keeps the user's words and names the provision after them ("and what about the punishment?" -> "what about the punishment? (BNS 318(4))"), so the one citation
    grammar reads the provision from it. Not resolved (no turn, or a turn with no provision), the question stays as
    asked, ``refs`` is ``()`` and the note says why (:data:`NO_PREVIOUS`, :func:`unresolved_note`)."""
    if not (is_followup(analysis) if followup is None else followup):
        return None
    if turn is None or not turn.refs:
        note = NO_PREVIOUS if turn is None else unresolved_note(turn.why or NO_HEAD)
        return FollowUp(analysis.question, (), note)
    words = re.sub(r"^\s*(?:and|also|but|so|then)\b[\s,]*", "", analysis.question, flags=re.I).strip() \
        or analysis.question.strip()
    return FollowUp(f"{words} ({', '.join(map(str, turn.refs))})", turn.refs,
                    followup_note(turn.refs, turn.offence_date), turn.offence_date)


__all__ = ["CUES", "MAX_REFS", "MAX_WORDS", "NO_HEAD", "NO_PREVIOUS", "NOT_NAMED", "OUTSIDE", "FollowUp", "Turn",
           "answer_turn", "cues", "followup_note", "is_followup", "names_its_own", "own_matter", "previous_turn",
           "resolve_followup", "turn_of", "turn_refs", "unresolved_note"]
