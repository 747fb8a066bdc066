"""Verify a draft sentence by sentence (:func:`verify`): the statuses of :mod:`.status`, the checks of
:data:`.checks.CHECKS`, re-attribution (:mod:`.reattribute`) when asked, and the text that ships (:mod:`.ship`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..cite import Cited, cite
from ..types import Draft
from .checks import failures
from .claim import MIN_OVERLAP, Claim, Equivalents, Evidence, Sections
from .equivalents import law_equivalents
from .reattribute import moves, remark
from .result import SentenceCheck, Verification
from .ship import ship
from .status import status

#: the problem listed when the official correspondence tables cannot be read
NO_TABLES = "official correspondence tables unavailable: sections checked against the cited passage only"


def verify(draft: Draft, *, equivalents: Equivalents | None = None, on_unsupported: str = "remove",
           min_overlap: float = MIN_OVERLAP, reattribute: bool = False,
           sections: Sections | None = None) -> Verification:
    """Check ``draft`` sentence by sentence (:mod:`legal_rag.verify`) and build the text that ships.

    ``equivalents(ref)`` returns the official successors/predecessors of ``ref``; default: the law module's
    (:func:`~legal_rag.verify.equivalents.law_equivalents`), or none (then only the cited passage's own section
    counts, and ``problems`` says so). ``reattribute``: move a failing sentence's marker to the chunks of its section
    that support it (:mod:`legal_rag.verify.reattribute`; never for a draft that abstained). ``sections``: every chunk
    of a section (``ChunkStore.by_ref``), from which the part a sentence describes is read; default: the cited
    chunks alone. ``on_unsupported``: ``"remove"`` or ``"mark"`` (:mod:`legal_rag.verify.ship`).
    Raises ``ValueError`` for an unknown ``on_unsupported``.
    """
    if on_unsupported not in ("remove", "mark"):
        raise ValueError(f"on_unsupported must be 'remove' or 'mark', got {on_unsupported!r}")
    problems: list[str] = []
    if equivalents is None:
        equivalents = law_equivalents()
        if equivalents is None:
            problems.append(NO_TABLES)
            equivalents = lambda ref: set()  # noqa: E731
    cited: Cited = cite(draft.text, draft.passages)
    problems += cited.problems
    if reattribute and not draft.abstained:
        moved = moves(draft, cited, equivalents, min_overlap, sections)
        if moved:
            text = draft.text
            for k, new in sorted(moved.items(), reverse=True):
                s = cited.sentences[k]
                text = text[:s.start] + remark(s.text, new) + text[s.end:]
                problems.append(f"citation moved from {list(s.markers)} to {list(new)} (the chunk that prints "
                                f"what it states): {s.claim[:80]!r}")
            draft = dataclasses.replace(draft, text=text)
            recited = cite(text, draft.passages)  # a marker is inside its sentence: the same sentences, in order
            ver = checked(draft, recited, equivalents, min_overlap, problems, on_unsupported, sections)
            return dataclasses.replace(ver, checks=tuple(
                dataclasses.replace(c, moved_from=cited.sentences[k].markers if k in moved else ())
                for k, c in enumerate(ver.checks)))
    return checked(draft, cited, equivalents, min_overlap, problems, on_unsupported, sections)


def checked(draft: Draft, cited: Cited, equivalents: Equivalents, min_overlap: float, problems: Sequence[str],
            on_unsupported: str, sections: Sections | None = None) -> Verification:
    """The verdict on each sentence of ``draft`` as ``cited`` splits it (its status, or the failures of the checks
    against the passages its markers name), shipped (:func:`~legal_rag.verify.ship.ship`)."""
    checks: list[SentenceCheck] = []
    for s in cited.sentences:
        st = status(s, draft)
        if st is not None:
            checks.append(SentenceCheck(s.claim, s.markers, st))
            continue
        evidence = Evidence(tuple(draft.passages[n - 1] for n in s.markers), equivalents, min_overlap, sections,
                            not_given=s.bad_markers)
        found = failures(Claim.of(s.claim), evidence)
        checks.append(SentenceCheck(s.claim, s.markers, "unsupported" if found else "supported", found))
    return ship(draft, cited, checks, problems, on_unsupported)
