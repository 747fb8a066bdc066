"""Sentences that are no claim to check: ``empty`` (no word), ``abstention`` (our own "the sources do not contain
it") and ``heading`` (a cited passage's heading written as a sentence). The checks of :mod:`.checks` are asked of
every other sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..cite import CitedSentence
from ..generate.abstain import is_abstention_sentence
from ..text import MARKER
from ..types import Draft, Hit
from .claim import words
from .result import SentenceStatus

#: the block labels of the Gazette prints (an Explanation, Illustration, Exception, proviso)
BLOCK_WORDS = frozenset({"explanation", "explanations", "illustration", "illustrations", "exception",
                         "exceptions", "provided", "proviso"})


def is_empty(claim: str) -> bool:
    """Whether ``claim`` has no word of two letters or more (a stray bullet, a lone marker)."""
    return not re.search(r"\w\w", claim)


def is_abstention(claim: str, draft: Draft) -> bool:
    """Whether ``claim`` (a sentence of ``draft``) is our own abstention, not a statement: every sentence of a draft
    that abstained (written by :mod:`legal_rag.generate.abstain`, "... Please check the citation." included), and the
    abstention sentence itself, whole (:func:`legal_rag.generate.abstain.is_abstention_sentence`), which a model is
    told to write when its passages do not answer. A sentence that only begins with those words states something
    and is checked."""
    return draft.abstained or is_abstention_sentence(claim)


def is_heading(claim: str, cited: Sequence[Hit]) -> bool:
    """Whether ``claim`` (markers aside) is no statement but a heading copied from its cited passages: a block label
    of a statute passage ("Explanation."), or a cited judgment's or document's title or case name ("Dr. Sohail Malik
    v. Union of India & Anr."), compared word for word. A statute section's title is not: it may state a rule (BSA
    53 "Facts admitted need not be proved", BNSS 58 "Person arrested not to be detained more than twenty-four
    hours") and is checked as a statement. Asked of a model's draft only: the extractive answer heads each quoted
    passage with its label on purpose ("Commentary on the new codes [2]")."""
    said = " ".join(words(MARKER.sub(" ", claim)))
    if not said:
        return False
    if said in BLOCK_WORDS and any(h.chunk.kind == "statute" for h in cited):
        return True
    for h in cited:
        if h.chunk.kind == "statute":  # a section's title may state a rule ("Facts admitted need not be proved")
            continue
        for t in (h.chunk.title, h.chunk.case):
            if t and said == " ".join(words(t)):
                return True
    return False


def status(sentence: CitedSentence, draft: Draft) -> SentenceStatus | None:
    """The status of a ``sentence`` of ``draft`` that is no claim (``empty``, then ``abstention``, then ``heading``:
    a model's sentence with markers, :func:`is_heading` of its cited passages), or ``None`` for a claim."""
    claim = sentence.claim
    if is_empty(claim):
        return "empty"
    if is_abstention(claim, draft):
        return "abstention"
    if sentence.markers and not draft.extractive and \
            is_heading(claim, [draft.passages[n - 1] for n in sentence.markers]):
        return "heading"
    return None
