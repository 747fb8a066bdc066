"""Questions answered from the judgments themselves: a citation to look up, a quotation to check, "which judgment
held X", or which judgments applied a section. Pure; reads the question text and its analysis
(:mod:`legal_rag.law.question`).

``judgment_task(question, citations=(), titles=None, refs=None) -> JudgmentTask | None``, by the first rule of
:data:`RULES` that matches:

1. ``quotation``: the question asks to verify / check a quotation ("Verify this quotation from [case]: '...'",
   "Is this an accurate quote from 2024 INSC 363: ...", or "Did the court in [case] say '...'?" where a court,
   judgment, case title or citation is named) and carries a quoted text of at least :data:`MIN_QUOTE_WORDS` words
   (:func:`quoted_text`); a question about a statute's words that names no judgment ("Does Section 318 BNS say
   '...'?") is none;
2. ``citation``: the question names a reporter or neutral citation (``citations``, read by the caller's citation
   grammar);
3. ``case``: a judgment named by its title ("A v. B", :func:`legal_rag.law.cases.find_case_titles`) and asked
   what it held, decided or said, its ratio, or a summary ("What did Mohd. Anwar v. State hold?");
4. ``applied``: the judgments that applied a section named with its Act (``refs``): a judgment noun (judgments,
   cases, decisions, orders, rulings, precedents, case law) joined to the section by "applied", "citing",
   "invoking", "interpreting", "under", "on", "dealing with", ... ("which judgments applied BNS 318(4)?", "cases on
   section 480 BNSS", "any High Court decisions under BNSS 482 in 2025?", "show me orders citing BNS 103") or
   naming it first ("BNSS 480 cases"), asked for (which, any, list, show, ...; or the noun opens the question);
   never a statute question about cases ("the punishment in cases under BNS 103", "is an order under BNSS 163
   appealable?") nor one asking what was held (rule 5);
5. ``holding``: "which judgment / case / decision held (laid down, ruled, decided) X", "what did the Supreme Court
   hold on X", "is there a judgment holding X".

Every task carries the court and years the question asks for (``constraint``:
:func:`legal_rag.law.courts.read_constraint`), applied where judgments are searched (``applied``, ``holding``).
``None`` for every other question (a statute question keeps its own route).

Examples::

    judgment_task("Verify this quotation from Mohd. Anwar v. State: 'the plea of insanity was not raised'").kind
        -> "quotation"
    judgment_task("What did 2024 INSC 363 decide?", ("2024 INSC 363",)).kind           -> "citation"
    judgment_task("What did Arnab Goswami v. State of Maharashtra hold?").kind          -> "case"
    judgment_task("Which judgment held that arrest is not mandatory?").kind             -> "holding"
    judgment_task("cases on section 480 BNSS", refs=(StatuteRef("BNSS", "480"),)).kind -> "applied"
    judgment_task("What is the punishment for theft?")                                 -> None
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from ..types import StatuteRef
from .cases import find_case_titles
from .courts import JudgmentConstraint, read_constraint
from .refs import find_refs

TaskKind = Literal["quotation", "citation", "case", "applied", "holding"]
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

#: the judgments asked for (rule ``applied``)
_NOUN = r"(?:judgments?|cases?|decisions?|orders?|rulings?|precedents?|authorit(?:y|ies)|case[\s-]?law|verdicts?)"
#: what joins them to the section
_LINK = (r"(?:appl(?:y|ies|ied|ying)|cit(?:e|es|ed|ing)|invok(?:e|es|ed|ing)|interpret(?:s|ed|ing)?|"
         r"constru(?:e|es|ed|ing)|under|on|about|concerning|regarding|involving|deal(?:s|t|ing)?\s+with|"
         r"relat(?:ing|ed)\s+to|mention(?:s|ed|ing)?|discuss(?:es|ed|ing)?|that\s+(?:appl(?:y|ied)|cite[sd]?|"
         r"invoked?|mention(?:s|ed)?|interpret(?:s|ed)?|discuss(?:es|ed)?))")
#: a section after the link (a number, or an Act's or section's word)
_SECTION_AFTER = r".{0,40}?(?:\d|\b(?:IPC|BNS|BNSS|CrPC|BSA|IEA|sections?|ss?\.|u/s)\b)"
#: a section written with its Act before the noun ("BNSS 480 cases", "which BNS 103 judgments")
_ACT = r"(?:IPC|BNS|BNSS|CrPC|BSA|IEA)"
_REF = rf"(?:{_ACT}\s+\d+[A-Z]?(?:\(\w+\))*|\d+[A-Z]?(?:\(\w+\))*\s+{_ACT})"
_APPLIED_ASK = re.compile(
    rf"(?<!\bin\s)(?<!\bfor\s)\b{_NOUN}\b(?:\s+(?:of|by|from|the|a|any|passed|delivered|reported|recent|latest)){{0,3}}"
    rf"\s+{_LINK}\b{_SECTION_AFTER}|(?:^\W*|\b(?:which|any|list|show|find|give|get|recent|latest|all|me)\s+(?:the\s+)?)"
    rf"{_REF}\s+{_NOUN}\b", re.I | re.S)
#: the judgments are asked for: a listing word before them, or they open the question (not a yes/no question)
_LISTING = re.compile(r"\b(?:which|what|any|list|show|find|give|get|name|cite|recent|latest|all|search|are\s+there|"
                      r"is\s+there)\b", re.I)
_OPENS = re.compile(rf"^\W*(?:(?!(?:is|are|can|could|does|do|did|will|would|should|may|must|was|were|has|have|shall)\b)"
                    rf"[\w-]+\s+){{0,2}}?{_NOUN}\b", re.I)
#: what a holding question asks (rule ``holding``), never rule ``applied``
_HOLDING_VERB = re.compile(r"\b(?:held|holds?|holding|ruled|laid\s+down|lays\s+down|decided|decides)\b", re.I)


#: judgments asked for by their noun: a listing word (:data:`_LISTING`, or one that ranks authorities: "leading",
#: "landmark") up to three words before it ("which judgments", "any landmark rulings") or the noun opening the
#: question ("Judgments on dowry death"); "case" and "order" are left out of :data:`_NOUN` here ("what case can I
#: file", "which order applies"), and a noun that only tells a story ("the judgment of the High Court convicted
#: him") asks for none
_PRECEDENT_NOUN = r"(?:judgments?|precedents?|case[\s-]?laws?|rulings?|verdicts?|decisions?|ratio(?:\s+decidendi)?)"
_NOUN_ASKED = re.compile(
    rf"(?:{_LISTING.pattern}|\b(?:leading|landmark|relevant|important)\b)(?:\s+[\w'-]+){{0,3}}?\s+{_PRECEDENT_NOUN}\b|"
    rf"^\W*(?:[\w'-]+\s+)?{_PRECEDENT_NOUN}\s+(?:on|of|for|about|under|regarding|holding|that|in)\b", re.I)


def asks_for_judgments(question: str) -> bool:
    """Whether ``question`` asks for judgments: what a judgment held (:data:`_HOLDING_ASK`: "which judgment held
    ...", "what did the Supreme Court hold on ...", "is there a case holding ...", "case law on ...") or judgments by
    their noun (:data:`_NOUN_ASKED`). Words that tell what happened ("he held her arms", "the High Court
    dismissed the appeal", "this appeal arises from the judgment of ...") are not an ask.

    ``asks_for_judgments("landmark judgments on dowry death") -> True``;
    ``asks_for_judgments("my cousin held his arms while his friend stabbed him") -> False``."""
    return bool(_HOLDING_ASK.search(question) or _NOUN_ASKED.search(question))


@dataclass(frozen=True)
class JudgmentTask:
    """What to do: ``kind``; ``quote`` the quoted text for a quotation check ("" otherwise); ``rest`` the question
    without the quotation (where the judgment is named); ``refs`` the sections whose judgments are asked for
    (``applied``; ``()`` otherwise); ``constraint`` the court and years asked for (module docstring)."""

    kind: TaskKind
    quote: str = ""
    rest: str = ""
    refs: tuple[StatuteRef, ...] = ()
    constraint: JudgmentConstraint = field(default_factory=JudgmentConstraint)


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


@dataclass(frozen=True)
class Asked:
    """What the rules read: the ``question``, its ``quote`` and the ``rest`` without it (:func:`quoted_text`), the
    ``citations``, ``titles`` and sections with their Act (``refs``) it names, and its ``constraint``."""

    question: str
    quote: str
    rest: str
    citations: tuple[str, ...]
    titles: tuple[str, ...] | None
    refs: tuple[StatuteRef, ...]
    constraint: JudgmentConstraint


def _quotation(a: Asked) -> JudgmentTask | None:
    if not a.quote or len(a.quote.split()) < MIN_QUOTE_WORDS:
        return None
    named_case = bool(a.citations or find_case_titles(a.rest) or _COURT_WORD.search(a.rest))
    statute = any(f.status == "ok" for f in find_refs(a.rest))
    asked = _QUOTE_ASK.search(a.question) or (_SAID_ASK.search(a.rest) and named_case)
    if asked and (named_case or not statute):  # a statute's words ("does s. 318 BNS say '...'") are not ours
        return JudgmentTask("quotation", a.quote, a.rest, constraint=a.constraint)
    return None


def _citation(a: Asked) -> JudgmentTask | None:
    return JudgmentTask("citation", rest=a.question, constraint=a.constraint) if a.citations else None


def _case(a: Asked) -> JudgmentTask | None:
    titles = find_case_titles(a.question) if a.titles is None else a.titles
    return JudgmentTask("case", rest=a.question, constraint=a.constraint) \
        if titles and _CASE_ASK.search(a.question) else None


def _applied(a: Asked) -> JudgmentTask | None:
    if not a.refs:
        return None
    text = a.constraint.strip(a.question)  # "any High Court decisions under ..." -> "any decisions under ..."
    if _HOLDING_VERB.search(text):
        return None
    m = _APPLIED_ASK.search(text)
    if m is None or not (_LISTING.search(text, 0, m.end()) or _OPENS.match(text)):
        return None
    return JudgmentTask("applied", rest=a.question, refs=a.refs, constraint=a.constraint)


def _holding(a: Asked) -> JudgmentTask | None:
    return JudgmentTask("holding", rest=a.question, constraint=a.constraint) if _HOLDING_ASK.search(a.question) \
        else None


#: the rules, in the order tried (module docstring); the first that gives a task decides
RULES: tuple[tuple[TaskKind, Callable[[Asked], JudgmentTask | None]], ...] = (
    ("quotation", _quotation),
    ("citation", _citation),
    ("case", _case),
    ("applied", _applied),
    ("holding", _holding),
)


def judgment_task(question: str, citations: tuple[str, ...] = (), titles: tuple[str, ...] | None = None,
                  refs: tuple[StatuteRef, ...] | None = None) -> JudgmentTask | None:
    """The judgment task of ``question`` (module docstring), or ``None``. ``citations``, ``titles`` and ``refs``:
    the case citations, "A v. B" titles and sections written with their Act that the question names, as its
    analysis read them (``QuestionAnalysis.citations``, ``cases``, the refs read ``named``); titles and refs not
    given are read here (:func:`legal_rag.law.cases.find_case_titles`, :func:`legal_rag.law.refs.find_refs`: the
    sections found with their Act)."""
    quote, rest = quoted_text(question)
    if refs is None:
        refs = tuple(dict.fromkeys(f.ref for f in find_refs(question)
                                   if f.status == "ok" and f.ref is not None and f.act_text))
    asked = Asked(question, quote, rest, tuple(citations), titles, tuple(refs), read_constraint(question))
    return next((task for _, rule in RULES if (task := rule(asked)) is not None), None)


__all__ = ["Asked", "JudgmentTask", "MIN_QUOTE_WORDS", "RULES", "TaskKind", "asks_for_judgments", "judgment_task",
           "quoted_text"]
