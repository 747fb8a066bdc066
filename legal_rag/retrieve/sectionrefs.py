"""The sections a question names, for direct look-up by metadata, read from the question's analysis
(:class:`legal_rag.law.QuestionAnalysis`, made once with the project's citation grammar).

:func:`analysis_refs`: the look-up of a question (idioms resolved by the official table, corrected premises first,
bare tokens in every Act that has them). :func:`section_refs`: only the sections written with a section keyword or
an Act: a reference whose Act is named gives that Act; a section keyword without an Act (``s. 498-A``, status
``ambiguous``) gives every Act that has the section, each looked up. A bare number is never a reference there; nor
is a section of another Act, an Article of the Constitution or a section the Act does not have.

``query_refs("punishment under IPC 420") -> [("IPC", "420", ())]``
``query_refs("s. 498-A") -> [("IPC", "498A", ())]`` (only the IPC has a 498A)
``query_refs("BNS 318(4)") -> [("BNS", "318", ("4",))]``
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..law import analyse

if TYPE_CHECKING:
    from ..law import QuestionAnalysis

#: a section to look up: ``(act, section, sub-section path)``
Ref = tuple[str, str, tuple[str, ...]]


def section_refs(analysis: QuestionAnalysis) -> list[Ref]:
    """``(act, section, sub-section path)`` for each section the question writes
    (``QuestionAnalysis.named``), in order of appearance, without duplicates: status ``ok`` -> its Act;
    ``ambiguous`` -> each reading."""
    return [(r.act, r.section, tuple(r.sub)) for r in analysis.named]


def query_refs(query: str) -> list[Ref]:
    """:func:`section_refs` of ``query``'s analysis (:func:`legal_rag.law.question.analyse`, the default tables)."""
    return section_refs(analyse(query))


def analysis_refs(analysis: QuestionAnalysis) -> list[Ref]:
    """``(act, section, sub-section path)`` to look up for a question analysis
    (``QuestionAnalysis.lookups``, :meth:`legal_rag.law.question.QuestionAnalysis.lookup_refs`): what
    :func:`section_refs` gives, plus idioms resolved by the official table ("a 438 application" -> BNSS 482, CrPC
    438), corrected premises first ("Section 438 BNSS" for anticipatory bail -> BNSS 482, BNSS 438) and bare tokens
    ("498A", "318(4)") in every Act that has them; sections of other Acts never."""
    return [(r.act, r.section, tuple(r.sub)) for r in analysis.lookups]
