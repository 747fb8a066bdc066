"""Check ``reversed verdict``: a sentence without a negation does not state as an offence what a cited statute
passage says is *not* that offence (BNS 309 Illustration (d): "This is extortion, and punishable as such; but it is
not robbery, unless Z is put in fear of the instant death of his child").
"""

from __future__ import annotations

import re

from ..law import GENERIC_WORDS
from ..text import content_terms
from .claim import Claim, Evidence
from .result import Failure

#: a negative verdict as the Acts print it in Illustrations: "but it is not robbery, unless ...", "A has not
#: committed criminal breach of trust", "A is not guilty of theft"
NOT_VERDICT = re.compile(r"\b(?:is|was|has|have)\s+not\s+(?:committed\s+|been\s+guilty\s+of\s+|guilty\s+of\s+)?"
                         r"(?:the\s+offence\s+of\s+|an?\s+)?([a-z][a-z\s-]{2,40}?)\s*(?=[,.;:]|\bunless\b|\bbut\b|"
                         r"\bif\b|\bas\b|$)", re.I)
#: a positive verdict ("... has committed theft", "This is extortion")
VERDICT = re.compile(r"\b(?:is|was|has|have)\s+(?:committed\s+|been\s+guilty\s+of\s+|guilty\s+of\s+)"
                     r"(?:the\s+offence\s+of\s+|an?\s+)?([a-z][a-z\s-]{2,40}?)\s*(?=[,.;:]|\bunless\b|\bbut\b|$)",
                     re.I)
#: where one Illustration (or sub-section) of a statute passage begins: "(d) A obtains property ..."
ITEM = re.compile(r"\n\s*\((?:[a-z]|\d+)\)\s")


def reversed_verdict(claim: Claim, evidence: Evidence) -> tuple[Failure, ...]:
    """The cited statute passages' items (Illustrations "(a)", "(b)", sub-sections) that name an offence of the
    sentence in a verdict are compared with the sentence; when the item sharing most of its words (at least half)
    says "not", a sentence without a negation fails. An item that also states the offence positively is no negative
    verdict (BNS 303 Explanation 1: "is not the subject of theft; but it becomes capable of being the subject of
    theft as soon as it is severed"); of two items sharing as many words, the positive one counts."""
    if claim.negated:
        return ()
    mine = claim.content
    if not mine:
        return ()
    out = []
    for text in evidence.statute_texts:
        starts = [0, *(m.start() for m in ITEM.finditer(text)), len(text)]
        items = [text[a:b] for a, b in zip(starts, starts[1:]) if text[a:b].strip()]
        verdicts = []  # (share of the sentence's words in the item, negative?, offence words, item)
        for item in items:
            terms = set(content_terms(item))
            share = len(mine & terms) / len(mine)
            flat = " ".join(item.lower().split())
            for rx, neg in ((NOT_VERDICT, True), (VERDICT, False)):
                for m in rx.finditer(item):
                    offence = set(content_terms(m.group(1))) - GENERIC_WORDS
                    phrase = " ".join(m.group(1).lower().split())
                    if neg and flat.count(phrase) > sum(" ".join(x.group(1).lower().split()) == phrase
                                                        for x in NOT_VERDICT.finditer(item)):
                        continue  # the item also says it positively
                    if offence and offence <= mine:
                        verdicts.append((share, neg, m.group(1).strip(), item))
        if verdicts:
            share, neg, offence, item = max(verdicts, key=lambda v: (v[0], not v[1]))  # a tie: not reversed
            if neg and share >= 0.5:
                out.append(Failure("reversed verdict", " ".join(offence.split()), " ".join(item.split())[:90]))
    return tuple(out)
