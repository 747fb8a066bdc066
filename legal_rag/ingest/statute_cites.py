"""Statute sections cited in a judgment paragraph, read by the project's citation grammar
(:func:`legal_rag.law.find_refs`).

Only references naming one of the six Acts of :data:`legal_rag.types.ACTS` are kept (status ``ok``): a number with
no Act, one of another Act ("Section 138 of the Negotiable Instruments Act"), an Article of the Constitution and a
section the Act does not have (above its last one: IPC 511, CrPC 484, IEA 167, BNS 358, BNSS 531, BSA 170; or a
lettered one it never had, IPC 302A) are left out.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Sequence

from ..law import find_refs, refs_of
from ..law.refs_patterns import ALIAS_RE
from ..types import StatuteRef

_DIGIT = re.compile(r"[0-9]")


def find_statute_refs(text: str) -> tuple[StatuteRef, ...]:
    """Distinct :class:`StatuteRef` cited in ``text`` (status ``ok`` only: an Act is named), in order of first
    mention. ``find_statute_refs("offence under Section 420 read with Section 120B IPC") ->
    (StatuteRef("IPC", "420"), StatuteRef("IPC", "120B"))``.
    """
    return refs_of(find_refs(text))


#: between paragraphs read as one text: a line of its own with a mark no Act name, list or keyword contains, so
#: that no citation runs from one paragraph into the next
PARAGRAPH_BREAK = "\n\u00b6\n"


def find_statute_refs_by_paragraph(texts: Sequence[str]) -> tuple[tuple[StatuteRef, ...], ...]:
    """:func:`find_statute_refs` of each of a judgment's paragraphs, read as one text when a short name is defined
    in it, so that the definition reaches later paragraphs (the grammar's own rule, :mod:`legal_rag.law.refs`: "the
    Code"/"the Act" resolve through a definition earlier in the same text): 'Code of Criminal Procedure, 1973 (for
    short "the Code")' in paragraph 2 makes "Section 482 of the Code" in paragraph 30 ``CrPC 482``. Without such a
    definition each paragraph is read alone (the same result, faster). One tuple per text, in order."""
    texts = list(texts)
    joined = PARAGRAPH_BREAK.join(texts)
    if not ALIAS_RE.search(joined):
        return tuple(find_statute_refs(t) if _DIGIT.search(t) else () for t in texts)
    starts, pos = [], 0
    for t in texts:
        starts.append(pos)
        pos += len(t) + len(PARAGRAPH_BREAK)
    per: list[list] = [[] for _ in texts]
    for f in find_refs(joined):
        per[bisect_right(starts, f.span[0]) - 1].append(f)
    return tuple(refs_of(fs) for fs in per)
