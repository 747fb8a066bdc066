"""The text that ships and its citations' support, built from the verdicts on a draft's sentences.

Nothing that fails is shipped silently: with ``mode="remove"`` a sentence that fails leaves the text and is listed
in ``removed`` and ``problems``; with ``"mark"`` it stays, followed by ``⟨unsupported: reasons⟩``, and its citations
say ``support="unsupported"``. A heading written as a sentence is dropped. When nothing of a model's draft is left, the
reader is told the answer was withheld.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from ..cite import Cited, remove_bad_markers
from ..generate.abstain import NOT_IN_SOURCES
from ..types import Draft
from .result import SentenceCheck, Verification

#: what ships when no sentence of a draft that did not abstain is left
WITHHELD = (f"{NOT_IN_SOURCES} (The generated answer was withheld: none of its statements could be verified "
            f"against the cited passages.)")


def ship(draft: Draft, cited: Cited, checks: Sequence[SentenceCheck], problems: Sequence[str],
         mode: str) -> Verification:
    """The :class:`Verification` of ``draft``, whose sentences (``cited.sentences``) got ``checks`` (one each, in
    order): the text without headings and (``mode="remove"``) unsupported sentences, or with those marked
    (``"mark"``); markers naming no given passage removed; spacing tidied; each citation's ``support`` (and
    ``weight``, the draft's posterior for its passage) set from its sentence's status. ``problems``: those found
    so far, to which a line per dropped, removed or marked sentence is added."""
    problems = list(problems)
    text, removed = draft.text, []
    for s, c in sorted(zip(cited.sentences, checks), key=lambda p: -p[0].start):
        if c.status == "heading":
            problems.append(f"dropped a heading written as a sentence (no statement to check): {c.sentence[:80]!r}")
            text = text[:s.start] + text[s.end:]
            continue
        if c.status != "unsupported":
            continue
        reasons = "; ".join(c.reasons)
        problems.append(f"{'removed' if mode == 'remove' else 'marked'} unsupported sentence "
                        f"{c.sentence[:80]!r}: {reasons}")
        if mode == "remove":
            removed.append(c)
            text = text[:s.start] + text[s.end:]
        else:
            text = text[:s.end] + f" \u27e8unsupported: {reasons}\u27e9" + text[s.end:]
    text = remove_bad_markers(text, draft.passages)
    text = "\n".join(re.sub(r"[ \t]{2,}", " ", line).strip() for line in text.splitlines())
    text = re.sub(r"\n{2,}", "\n", text).strip()
    status = {s.start: c.status for s, c in zip(cited.sentences, checks)}
    by_sentence = {s.claim: status[s.start] for s in cited.sentences}
    citations = []
    for cit in cited.citations:
        st = by_sentence.get(cit.sentence, "unchecked")
        if (mode == "remove" and st == "unsupported") or st == "heading":
            continue
        w = draft.weights[cit.marker - 1] if len(draft.weights) >= cit.marker else None
        citations.append(dataclasses.replace(cit, support=st if st in ("supported", "unsupported") else "unchecked",
                                             weight=w))
    withheld = not text.strip() and bool(checks) and not draft.abstained
    return Verification(WITHHELD if withheld else text, tuple(citations), tuple(checks), tuple(reversed(removed)),
                        tuple(problems), withheld)
