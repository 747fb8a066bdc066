"""Statute sections cited in a judgment paragraph, read by the project's citation grammar
(:func:`legal_rag.law.find_refs`).

Only references naming one of the six Acts of :data:`legal_rag.types.ACTS` are kept (status ``ok``): a number with
no Act, one of another Act ("Section 138 of the Negotiable Instruments Act"), an Article of the Constitution and a
section the Act does not have (above its last one: IPC 511, CrPC 484, IEA 167, BNS 358, BNSS 531, BSA 170; or a
lettered one it never had, IPC 302A) are left out.
"""

from __future__ import annotations

from ..law import find_refs, refs_of
from ..types import StatuteRef


def find_statute_refs(text: str) -> tuple[StatuteRef, ...]:
    """Distinct :class:`StatuteRef` cited in ``text`` (status ``ok`` only: an Act is named), in order of first
    mention. ``find_statute_refs("offence under Section 420 read with Section 120B IPC") ->
    (StatuteRef("IPC", "420"), StatuteRef("IPC", "120B"))``.
    """
    return refs_of(find_refs(text))
