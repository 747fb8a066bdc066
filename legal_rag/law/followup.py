"""Conversation follow-ups: a short question with no legal words of its own ("and what
about the punishment?") is read as a question about the provision of the previous turn.

* ``Turn(question, refs)``: what a follow-up inherits from the previous turn -- the question asked then and the
  provisions it was about (``refs``, best first). Built by :func:`previous_turn` from the previous
  :class:`~legal_rag.law.question.QuestionAnalysis`, or from the previous answer's question re-read (the caller
  analyses it) with the answer's own cited sections as the fallback.
* ``is_followup(analysis) -> bool``: the rules below, on the question analysis only (no model, no index).
* ``resolve_followup(analysis, turn) -> FollowUp | None``: the question rewritten to name the provision, and the
  sentence the answer opens with ("Taking this as a question about BNS 318(4), from your previous question:").

A question is a follow-up when **all** of these hold (the analysis of :mod:`legal_rag.law.question`):

1. it names no section of ours or of another Act, no case and no citation (``refs``, ``other_refs``, ``cases``,
   ``citations`` are empty);
2. it names no offence of its own (no offence noun such as "cheating", "murder", "dowry": ``_CRIME``), no
   procedure of its own ("arrest", "FIR", "procedure": the procedure cues of :func:`question_kind`, less the
   aspects of a provision a lawyer asks about next, :data:`ASPECTS`: cognizable, bailable, triable, punishment)
   and asks no "which sections" question;
3. it is short (at most :data:`MAX_WORDS` words) and either opens like a continuation ("and ...", "what about",
   "how about", "is it", "is that", "does it", "can it", "what is the punishment" ...) or points back with a
   pronoun ("it", "that", "this section", "the same", "its").

Examples::

    is_followup(analyse("and what about the punishment?"))        -> True
    is_followup(analyse("is it bailable?"))                       -> True
    is_followup(analyse("What is the punishment for cheating?"))  -> False (an offence of its own)
    is_followup(analyse("and what about IPC 302?"))               -> False (a section of its own)
    is_followup(analyse("and what is the procedure for arrest?")) -> False (a procedure of its own)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from typing import Callable

from ..types import NEW_ACTS, OLD_ACTS, Answer, StatuteRef
from .question import _CRIME, _PROCEDURE_STRONG, _PROCEDURE_WEAK, ASKS_FOR_SECTIONS, QuestionAnalysis

#: the longest question (in words) still read as a follow-up
MAX_WORDS = 12
#: how many provisions of the previous turn a follow-up is asked about
MAX_REFS = 2
_OPENERS = re.compile(r"^\s*(?:and|also|but|so|then|what about|how about|what of|is it|is that|is this|are they|"
                      r"does it|does that|can it|can that|would it|will it|what is the punishment|what's the "
                      r"punishment|what are the (?:ingredients|punishments?)|and if)\b", re.I)
_POINTERS = re.compile(r"\b(?:it|its|that|this|these|those|they|them|the same|said|above|previous|same section|"
                       r"this section|that section|that offence|this offence)\b", re.I)
_WORD = re.compile(r"\w+")
#: aspects of one provision (its classification and punishment) that a follow-up may ask about
ASPECTS = re.compile(r"\b(?:non-)?(?:cognizable|cognisable|bailable|compoundable|triable|trial|court|punish\w*|"
                     r"sentence\w*|fine|imprisonment|ingredients?)\b", re.I)


@dataclass(frozen=True)
class Turn:
    """The previous turn as a follow-up needs it: ``question`` as asked then, ``refs`` the provisions it was about
    (best first; ``()`` when none could be named)."""

    question: str
    refs: tuple[StatuteRef, ...] = ()


@dataclass(frozen=True)
class FollowUp:
    """A follow-up resolved: ``question`` is the text to retrieve and answer with (the follow-up, naming the
    provision), ``refs`` the provisions assumed, ``note`` the sentence the answer opens with."""

    question: str
    refs: tuple[StatuteRef, ...]
    note: str


def is_followup(analysis: QuestionAnalysis) -> bool:
    """Whether ``analysis`` is a follow-up with no legal words of its own (rules in the module docstring)."""
    a, text = analysis, analysis.question
    if a.refs or a.other_refs or a.cases or a.citations or any(f.status != "other_act" for f in a.found):
        return False
    if _CRIME.search(text) or ASKS_FOR_SECTIONS.search(text):
        return False
    rest = ASPECTS.sub(" ", text)
    if _PROCEDURE_STRONG.search(rest) or _PROCEDURE_WEAK.search(rest):
        return False
    if len(_WORD.findall(text)) > MAX_WORDS:
        return False
    return bool(_OPENERS.search(text) or _POINTERS.search(text))


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


def previous_turn(analysis: QuestionAnalysis, cited: tuple[StatuteRef, ...] = ()) -> Turn:
    """The :class:`Turn` of a previous question (its analysis), falling back to ``cited`` (the previous answer's
    statute citations or suggestions, best first) when the question named no provision (a fact pattern, or
    itself a follow-up)."""
    refs = turn_refs(analysis)
    if not refs:
        refs = tuple(dict.fromkeys(r for r in cited if r.act in OLD_ACTS or r.act in NEW_ACTS))[:1]
    return Turn(analysis.question, refs)


def turn_of(previous: Answer | QuestionAnalysis | Turn | str, analyse: Callable[[str], QuestionAnalysis]) -> Turn:
    """The :class:`Turn` of whatever the caller kept of the previous turn: a ``Turn`` as it is; an analysis; a
    question (``str``, read with ``analyse``); or an :class:`Answer` (its question read with ``analyse``, its
    supported statute citations and section suggestions as the fallback, so a follow-up of a follow-up still
    finds the provision)."""
    if isinstance(previous, Turn):
        return previous
    if isinstance(previous, QuestionAnalysis):
        return previous_turn(previous)
    if isinstance(previous, str):
        return previous_turn(analyse(previous))
    cited = tuple(c.ref for c in previous.citations if c.ref is not None and c.support == "supported")
    cited += tuple(s.cited_as or s.ref for s in previous.suggestions)
    return previous_turn(analyse(previous.query), cited)


def followup_note(refs: tuple[StatuteRef, ...]) -> str:
    """``followup_note((BNS 318(4),)) -> "Taking this as a question about BNS 318(4), from your previous
    question:"``."""
    return f"Taking this as a question about {' and '.join(map(str, refs))}, from your previous question:"


def resolve_followup(analysis: QuestionAnalysis, turn: Turn | None) -> FollowUp | None:
    """``analysis`` as a follow-up to ``turn``, or ``None`` when it is not one (:func:`is_followup`) or the previous
    turn named no provision. The rewritten question keeps the user's words and names the provision after them
    ("and what about the punishment?" -> "what about the punishment? (BNS 318(4))"), so the one citation grammar
    reads the provision from it."""
    if turn is None or not turn.refs or not is_followup(analysis):
        return None
    words = re.sub(r"^\s*(?:and|also|but|so|then)\b[\s,]*", "", analysis.question, flags=re.I).strip() \
        or analysis.question.strip()
    return FollowUp(f"{words} ({', '.join(map(str, turn.refs))})", turn.refs, followup_note(turn.refs))


__all__ = ["MAX_REFS", "MAX_WORDS", "FollowUp", "Turn", "followup_note", "is_followup", "previous_turn",
           "resolve_followup", "turn_of", "turn_refs"]
