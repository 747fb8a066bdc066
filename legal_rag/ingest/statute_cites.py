"""Statute sections cited in a judgment paragraph, read by the project's citation grammar
(:func:`legal_rag.law.find_refs`).

Only references naming one of the six Acts of :data:`legal_rag.types.ACTS` are kept (status ``ok``): a number with
no Act, one of another Act ("Section 138 of the Negotiable Instruments Act"), an Article of the Constitution and a
section the Act does not have (above its last one: IPC 511, CrPC 484, IEA 167, BNS 358, BNSS 531, BSA 170; or a
lettered one it never had, IPC 302A) are left out.

Option ``articles=True`` (the case base only, :mod:`legal_rag.ingest.casebase`; the product index's paragraph cites
keep the default): an Article of the Constitution is kept too, as ``StatuteRef("Constitution", "<n>")`` at Article
level (no clause: "Art. 20(1)" -> ``Constitution 20``), when the grammar reads it as an Article of the Constitution
(``kind="article"``, Act "Constitution of India": the grammar's rule for a bare "Article 21") and its number is
within the Constitution's Articles 1-395 (the Constitution of India as enacted ends at Article 395; inserted
Articles carry letters, "21A", "243ZH"). "Article 137 of the Limitation Act" is another Act's and stays out.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Sequence

from ..law import ALIAS_RE, CONSTITUTION, find_refs, refs_of
from ..types import ACTS, StatuteRef

_DIGIT = re.compile(r"[0-9]")
_OUR = frozenset(ACTS)
#: the act name of an Article of the Constitution in the case base's cites (``articles=True``)
CONSTITUTION_ACT = "Constitution"
#: the last Article of the Constitution of India (Part XXII, Art. 395 "Repeals")
LAST_ARTICLE = 395
_ART_NUM = re.compile(r"([0-9]{1,3})[A-Z]{0,3}")


def _keep(found, articles: bool) -> tuple[StatuteRef, ...]:
    """``refs_of(found)``, plus the Articles of the Constitution (article level) when ``articles``, in order of
    first mention."""
    if not articles:
        return refs_of(found)
    seen, out = set(), []
    for f in found:
        if f.status == "ok":
            r = f.ref if f.ref is not None and f.ref.act in _OUR else None
        elif f.status == "other_act" and f.kind == "article" and f.act_text == CONSTITUTION:
            m = _ART_NUM.fullmatch(f.section)
            r = StatuteRef(CONSTITUTION_ACT, f.section) if m and 1 <= int(m.group(1)) <= LAST_ARTICLE else None
        else:
            r = None
        if r is not None and r not in seen:
            seen.add(r)
            out.append(r)
    return tuple(out)


def find_statute_refs(text: str, *, articles: bool = False) -> tuple[StatuteRef, ...]:
    """Distinct :class:`StatuteRef` cited in ``text`` (status ``ok`` only: an Act is named), in order of first
    mention. ``find_statute_refs("offence under Section 420 read with Section 120B IPC") ->
    (StatuteRef("IPC", "420"), StatuteRef("IPC", "120B"))``. ``articles``: keep Articles of the Constitution too
    (module docstring): ``find_statute_refs("Articles 14 and 21", articles=True) -> (StatuteRef("Constitution",
    "14"), StatuteRef("Constitution", "21"))``.
    """
    return _keep(find_refs(text), articles)


#: between paragraphs read as one text: a line of its own with a mark no Act name, list or keyword contains, so
#: that no citation runs from one paragraph into the next
PARAGRAPH_BREAK = "\n\u00b6\n"


def find_statute_refs_by_paragraph(texts: Sequence[str], *, articles: bool = False
                                   ) -> tuple[tuple[StatuteRef, ...], ...]:
    """:func:`find_statute_refs` of each of a judgment's paragraphs, read as one text when a short name is defined
    in it, so that the definition reaches later paragraphs (the grammar's own rule, :mod:`legal_rag.law.refs`: "the
    Code"/"the Act" resolve through a definition earlier in the same text): 'Code of Criminal Procedure, 1973 (for
    short "the Code")' in paragraph 2 makes "Section 482 of the Code" in paragraph 30 ``CrPC 482``. Without such a
    definition each paragraph is read alone (the same result, faster). One tuple per text, in order. ``articles``:
    as :func:`find_statute_refs`."""
    texts = list(texts)
    joined = PARAGRAPH_BREAK.join(texts)
    if not ALIAS_RE.search(joined):
        return tuple(find_statute_refs(t, articles=articles) if _DIGIT.search(t) else () for t in texts)
    starts, pos = [], 0
    for t in texts:
        starts.append(pos)
        pos += len(t) + len(PARAGRAPH_BREAK)
    per: list[list] = [[] for _ in texts]
    for f in find_refs(joined):
        per[bisect_right(starts, f.span[0]) - 1].append(f)
    return tuple(_keep(fs, articles) for fs in per)
