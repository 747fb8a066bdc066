"""Explicit section references in a query, for direct look-up by metadata, read by the project's citation grammar
(:func:`legal_rag.law.find_refs`).

A reference whose Act is named gives that Act; a section keyword without an Act (``s. 498-A``, status
``ambiguous``) gives every Act that has the section, each looked up. A bare number is never a reference; nor is a
section of another Act, an Article of the Constitution or a section the Act does not have.

``query_refs("punishment under IPC 420") -> [("IPC", "420", ())]``
``query_refs("s. 498-A") -> [("IPC", "498A", ())]`` (only the IPC has a 498A)
``query_refs("BNS 318(4)") -> [("BNS", "318", ("4",))]``
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..law import find_refs

if TYPE_CHECKING:
    from ..law import QuestionAnalysis


def query_refs(query: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """``(act, section, sub-section path)`` for each explicit reference, in order of appearance, without
    duplicates: status ``ok`` -> its Act; ``ambiguous`` -> each reading."""
    out: list[tuple[str, str, tuple[str, ...]]] = []
    for f in find_refs(query):
        if f.status == "ok" and f.ref is not None:
            cands = [(f.ref.act, f.ref.section, tuple(f.ref.sub))]
        elif f.status == "ambiguous":
            cands = [(r.act, r.section, tuple(r.sub)) for r in f.readings]
        else:
            cands = []
        out.extend(c for c in cands if c not in out)
    return out


def analysis_refs(analysis: QuestionAnalysis) -> list[tuple[str, str, tuple[str, ...]]]:
    """``(act, section, sub-section path)`` to look up for a question analysis
    (:meth:`legal_rag.law.question.QuestionAnalysis.lookup_refs`): what :func:`query_refs` gives, plus idioms
    resolved by the official table ("a 438 application" -> BNSS 482, CrPC 438), corrected premises first ("Section
    438 BNSS" for anticipatory bail -> BNSS 482, BNSS 438) and bare tokens ("498A", "318(4)") in every Act that has
    them; sections of other Acts never."""
    return [(r.act, r.section, tuple(r.sub)) for r in analysis.lookup_refs()]
