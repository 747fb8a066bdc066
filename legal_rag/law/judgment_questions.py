"""Questions answered from the judgments themselves: a citation to look up, a quotation to check, or
"which judgment held X". Pure; reads the question text and its analysis (:mod:`legal_rag.law.question`).

``judgment_task(question, citations=()) -> JudgmentTask | None``, by the first rule that matches:

1. ``quotation``: the question asks to verify / check a quotation ("Verify this quotation from [case]: '...'",
   "Is this an accurate quote from 2024 INSC 363: ...", or "Did the court in [case] say '...'?" where a court,
   judgment, case title or citation is named) and carries a quoted text of at least :data:`MIN_QUOTE_WORDS` words
   (:func:`quoted_text`); a question about a statute's words that names no judgment ("Does Section 318 BNS say
   '...'?") is none;
2. ``citation``: the question names a reporter or neutral citation (``citations``, read by the caller's citation
   grammar);
3. ``case``: a judgment named by its title ("A v. B", :func:`legal_rag.law.cases.find_case_titles`) and asked
   what it held, decided or said, its ratio, or a summary ("What did Mohd. Anwar v. State hold?");
4. ``holding``: "which judgment / case / decision held (laid down, ruled, decided) X", "what did the Supreme Court
   hold on X", "is there a judgment holding X".

``None`` for every other question (a statute question keeps its own route).

Examples::

    judgment_task("Verify this quotation from Mohd. Anwar v. State: 'the plea of insanity was not raised'").kind
        -> "quotation"
    judgment_task("What did 2024 INSC 363 decide?", ("2024 INSC 363",)).kind           -> "citation"
    judgment_task("What did Arnab Goswami v. State of Maharashtra hold?").kind          -> "case"
    judgment_task("Which judgment held that arrest is not mandatory?").kind             -> "holding"
    judgment_task("What is the punishment for theft?")                                 -> None
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .cases import find_case_titles
from .refs import find_refs

TaskKind = Literal["quotation", "citation", "case", "holding"]
#: a quotation shorter than this (in words) is too short to check
MIN_QUOTE_WORDS = 4

_QUOTE_ASK = re.compile(
    r"\b(?:verify|check|confirm|validate|authenticate)\b.{0,60}\bquot\w*|\bquot\w*\b.{0,60}\b(?:accurate|correct|"
    r"genuine|verbatim|real|exist\w*|authentic)\b|\b(?:accurate|correct|genuine|verbatim|real|authentic)\b.{0,20}"
    r"\bquot\w*|\bquotation\s+from\b", re.I | re.S)
#: "did the court in X say '...'": a quotation check only where a court or judgment is what said it
_SAID_ASK = re.compile(r"\b(?:did|does|has)\b.{1,120}\b(?:say|said|write|wrote|observe|observed|state|hold|held)\b",
                       re.I | re.S)
_COURT_WORD = re.compile(r"\b(?:court|judgment|judges?|bench|justice|j\.|ratio|case|decision)\b", re.I)
_HOLDING_ASK = re.compile(
    r"\b(?:which|what)\s+(?:\w+\s+){0,3}?(?:judgments?|cases?|decisions?|precedents?|rulings?|authority|"
    r"authorities)\b.{0,40}?\b(?:held|holds|hold|decided|decides|ruled|rules|laid\s+down|lays\s+down|"
    r"establish\w*|answered|says?|said)\b|\bwhat\s+did\s+the\s+(?:supreme\s+)?court\s+hold\b|"
    r"\b(?:is|are)\s+there\s+(?:a|any)\s+(?:judgments?|cases?|decisions?|precedents?|rulings?)\s+(?:that\s+)?"
    r"(?:holding|held|holds|ruling|saying|which\s+held)\b|\bcase\s+law\s+(?:on|holding|for)\b",
    re.I | re.S)
#: what a judgment named by its title held ("What did A v. B hold?", "the ratio of A v. B", "Summarise A v. B")
_CASE_ASK = re.compile(
    r"\b(?:what|which)\b.{0,60}?\b(?:hold|held|decide|decided|rule|ruled|say|said|find|found|lay\s+down|laid\s+down)"
    r"\b|\bratio(?:\s+decidendi)?\s+(?:of|in)\b|\bsummari[sz]\w*\b|\b(?:holding|decision|judgment)\s+(?:of|in)\b|"
    r"\bwhat\s+(?:was|is)\s+(?:decided|held)\s+in\b|\bdecided\s+in\b|\bheld\s+in\b", re.I | re.S)
#: a quoted text: "..." (straight, after normal form) or '...' opened after a space, colon or bracket and closed
#: before a space, punctuation or the end
_DOUBLE = re.compile(r'"([^"]{10,})"', re.S)
_SINGLE = re.compile(r"(?:(?<=[\s:(\[])|^)'(.{10,}?)'(?=[\s.,;:?!)\]]|$)", re.S)


@dataclass(frozen=True)
class JudgmentTask:
    """What to do: ``kind``; ``quote`` the quoted text for a quotation check ("" otherwise); ``rest`` the question
    without the quotation (where the judgment is named)."""

    kind: TaskKind
    quote: str = ""
    rest: str = ""


def quoted_text(question: str) -> tuple[str, str]:
    """``(quotation, rest)``: the longest quoted span of ``question`` ("..." or '...'), else the text after the
    first colon when the question asks for a quotation check; ``("", question)`` when none.

    ``quoted_text("Verify from X v. Y: 'a b c d'") -> ("a b c d", "Verify from X v. Y: ")``."""
    spans = [(m.start(), m.end(), m.group(1)) for rx in (_DOUBLE, _SINGLE) for m in rx.finditer(question)]
    if spans:
        a, b, q = max(spans, key=lambda s: (len(s[2]), -s[0]))
        return q.strip(), (question[:a] + question[b:]).strip()
    if ":" in question and _QUOTE_ASK.search(question.split(":", 1)[0]):
        head, tail = question.split(":", 1)
        return tail.strip().strip("'\""), head
    return "", question


def judgment_task(question: str, citations: tuple[str, ...] = (),
                  titles: tuple[str, ...] | None = None) -> JudgmentTask | None:
    """The judgment task of ``question`` (module docstring), or ``None``. ``citations`` and ``titles``: the case
    citations and "A v. B" titles the question names, as its analysis read them (``QuestionAnalysis.citations``,
    ``cases``); titles not given are read here (:func:`legal_rag.law.cases.find_case_titles`)."""
    quote, rest = quoted_text(question)
    if quote and len(quote.split()) >= MIN_QUOTE_WORDS:
        named_case = bool(citations or find_case_titles(rest) or _COURT_WORD.search(rest))
        statute = any(f.status == "ok" for f in find_refs(rest))
        asked = _QUOTE_ASK.search(question) or (_SAID_ASK.search(rest) and named_case)
        if asked and (named_case or not statute):  # a statute's words ("does s. 318 BNS say '...'") are not ours
            return JudgmentTask("quotation", quote, rest)
    if citations:
        return JudgmentTask("citation", rest=question)
    if (find_case_titles(question) if titles is None else titles) and _CASE_ASK.search(question):
        return JudgmentTask("case", rest=question)
    if _HOLDING_ASK.search(question):
        return JudgmentTask("holding", rest=question)
    return None


__all__ = ["JudgmentTask", "MIN_QUOTE_WORDS", "TaskKind", "judgment_task", "quoted_text"]
