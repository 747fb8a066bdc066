"""Look-up of a judgment by its citation, and the check of the party names given with it. Pure.

A question that names a citation ("(2019) 5 SCC 9999", "2024 INSC 363", "[2020] 7 SCR 150") is resolved against
the judgments whose citations we hold (:class:`CaseRecord`: the indexed judgments; citations canonical, as
:func:`legal_rag.ingest.citations_meta.find_citations` spells them, which the caller passes in):

* ``found``: the citation is a judgment we hold, and the party names given with it (if any) agree;
* ``mismatch``: the citation is real (ours, or in the Supreme Court's judgment index) but the names given with it
  are another case's: ``"[2020] 7 S.C.R. 150 is Mohd. Anwar v. The State (N.C.T. of Delhi), not X v. Union of
  India."``;
* ``not_indexed``: not ours, but the Supreme Court's judgment index (:class:`MetaRecord`, read by
  :mod:`legal_rag.ingest.sc_metadata`) lists it: it exists, its text is not indexed here;
* ``absent``: neither holds it. For a neutral citation of a year the index covers, that means no such judgment;
  the index lists no law-report (SCR/SCC/AIR) citations, so for those the message says it cannot tell.

Names agree (:func:`names_agree`) when every distinctive word of each party given occurs in one side of the
stored title (the two sides may be given in either order; a middle name may be left out, a word may not be
spelt otherwise): ``names_agree("Mohd Anwar v. State of Delhi", "Mohd. Anwar v. The State (N.C.T. of Delhi)")
-> True``; ``names_agree("Ramesh v. Union of India", same) -> False``; ``names_agree("Ramesh Kumar v. State of
Punjab", "Baljinder Kumar v. State of Punjab") -> False``. Words every title shares ("State", "Union", "India",
"Ors.", "and", "the") decide only for a party that has no other word.

Examples::

    citation_key("[2020] 7 S.C.R. 150") == citation_key("[2020] 7 SCR 150")           -> True
    case_id_citations("2024-INSC-479")                                                -> ("2024 INSC 479",)
    case_id_citations("2020-7-SCR-150")                                               -> ("[2020] 7 S.C.R. 150",)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..text import normalise
from .cases import find_case_titles, split_title

CheckStatus = Literal["found", "mismatch", "not_indexed", "absent"]

#: words that occur in so many titles that they tell no case apart (a party made only of them is compared whole)
GENERIC_WORDS = frozenset(
    "the of and in at for by through its his her their state union india govt government ors anr others another "
    "etc m s ms mr mrs dr sh shri smt km v vs versus thru lrs l r rs d dead retd limited ltd pvt private co "
    "company nct".split())


@dataclass(frozen=True)
class CaseRecord:
    """A judgment whose citations we hold: ``case`` id in the index, ``title`` as stored, canonical
    ``citations``, ``court``, ISO ``date`` ("" when unknown)."""

    case: str
    title: str
    citations: tuple[str, ...]
    court: str = ""
    date: str = ""


@dataclass(frozen=True)
class MetaRecord:
    """One row of the Supreme Court's judgment index: parties as listed (``"A VS B"``), ISO ``date``, the case
    number and diary number as printed, neutral ``citations`` (canonical)."""

    title: str
    date: str
    case_number: str
    diary: str
    citations: tuple[str, ...]


@dataclass(frozen=True)
class CitationCheck:
    """The verdict on one citation of a question: ``citation`` canonical, ``status`` (module docstring),
    ``record`` (ours, for ``found`` and ``mismatch`` of ours), ``meta`` (the index row, when it decided),
    ``named`` the title the question gave with it ("" when none), ``message`` the sentence for the reader."""

    citation: str
    status: CheckStatus
    message: str
    record: CaseRecord | None = None
    meta: MetaRecord | None = None
    named: str = ""


def citation_key(citation: str) -> str:
    """Comparison key of a canonical citation: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", citation.lower())


def case_id_citations(case_id: str) -> tuple[str, ...]:
    """The citation a readable case id encodes (:func:`legal_rag.ingest.judgments.case_id`): ``2024-INSC-479``
    -> ``("2024 INSC 479",)``, ``2020-7-SCR-582`` -> ``("[2020] 7 S.C.R. 582",)``; ``()`` for any other id."""
    m = re.fullmatch(r"((?:19|20)\d{2})-INSC-(\d{1,5})", case_id)
    if m:
        return (f"{m.group(1)} INSC {m.group(2)}",)
    m = re.fullmatch(r"((?:18|19|20)\d{2})-(\d{1,2})-SCR-(\d{1,4})", case_id)
    if m:
        return (f"[{m.group(1)}] {m.group(2)} S.C.R. {m.group(3)}",)
    return ()


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", normalise(text))


def _sides(title: str) -> tuple[str, str]:
    sides = split_title(title)  # the case-name grammar: "C. V. Govindappa v. State" splits at "v.", not at the initial
    return sides if sides else (title, "")


def _party_agrees(given: str, stored: str) -> bool:
    words = set(_words(stored))
    mine = [w for w in _words(given) if len(w) > 1]
    special = [w for w in mine if w not in GENERIC_WORDS]
    if special:
        return all(w in words for w in special)
    plain = [w for w in mine if w not in {"the", "of", "and"}]
    return bool(plain) and all(w in words for w in plain)


def names_agree(given: str, stored: str) -> bool:
    """True when the title ``given`` ("A v. B", or one party's name) names the judgment titled ``stored`` (module
    docstring); the sides may be given in either order."""
    gl, gr = _sides(given)
    sl, sr = _sides(stored)
    if not gr:  # one name only: it must be one of the parties
        return _party_agrees(gl, sl) or _party_agrees(gl, sr)
    return ((_party_agrees(gl, sl) and _party_agrees(gr, sr)) or
            (_party_agrees(gl, sr) and _party_agrees(gr, sl)))


def index_records(records: Iterable[CaseRecord]) -> dict[str, CaseRecord]:
    """Citation key -> record, for every citation of every record (the first record wins a shared key)."""
    out: dict[str, CaseRecord] = {}
    for r in records:
        for c in r.citations:
            out.setdefault(citation_key(c), r)
    return out


def titles_for(question: str, citations: Sequence[str]) -> tuple[str, ...]:
    """The title the question gives with each citation ("" when none): titles and citations paired in order
    when their numbers agree, else the one title given with every citation (``("", ...)`` when several
    titles and citations do not pair up)."""
    titles = [t.title for t in find_case_titles(question)]
    if len(titles) == len(citations):
        return tuple(titles)
    if len(titles) == 1:
        return tuple(titles * len(citations))
    return tuple("" for _ in citations)


def _when(date: str) -> str:
    return f", decided {date}" if date else ""


def check_citation(citation: str, named: str, ours: dict[str, CaseRecord],
                   meta: Callable[[str], MetaRecord | None] | None = None,
                   meta_covers: Callable[[str], bool] | None = None) -> CitationCheck:
    """The verdict on ``citation`` (canonical) given with the title ``named`` ("" for none), against ``ours``
    (:func:`index_records`) and the Supreme Court's judgment index (``meta``: citation -> row or ``None``;
    ``meta_covers``: whether the index would list this citation if it existed, i.e. a neutral citation of a year
    it covers). See the module docstring for the four outcomes."""
    rec = ours.get(citation_key(citation))
    if rec is not None:
        who = f"{rec.title}" + (f" ({rec.court}{_when(rec.date)})" if rec.court else "")
        if named and not names_agree(named, rec.title):
            return CitationCheck(citation, "mismatch",
                                 f"{citation} is {rec.title}, not {named}: the citation and the party names given "
                                 f"with it do not belong to the same judgment.", rec, named=named)
        return CitationCheck(citation, "found", f"{citation} is {who}.", rec, named=named)
    row = meta(citation) if meta is not None else None
    if row is not None:
        if named and not names_agree(named, row.title):
            return CitationCheck(citation, "mismatch",
                                 f"{citation} is {row.title} (Supreme Court of India{_when(row.date)}, per the "
                                 f"Supreme Court's judgment index), not {named}; its text is not indexed here.",
                                 meta=row, named=named)
        return CitationCheck(citation, "not_indexed",
                             f"{citation} exists ({row.title}, Supreme Court of India{_when(row.date)}, per the "
                             f"Supreme Court's judgment index), but its text is not indexed here, so it cannot be "
                             f"quoted or summarised.", meta=row, named=named)
    if meta_covers is not None and meta_covers(citation):
        return CitationCheck(citation, "absent",
                             f"The indexed sources do not contain the judgment cited as {citation}, and no such "
                             f"judgment exists: the Supreme Court's judgment index, which lists the neutral "
                             f"citations of that year, has none. Please check the citation.", named=named)
    return CitationCheck(citation, "absent",
                         f"The indexed sources do not contain the judgment cited as {citation}, so it cannot be "
                         f"verified or summarised. (The Supreme Court's judgment index lists neutral citations only, so whether "
                         f"a judgment bears this law-report citation cannot be checked here.)", named=named)


def record_named(text: str, records: Iterable[CaseRecord]) -> CaseRecord | None:
    """The record whose title ``text`` names: a title found in ``text`` that agrees with it (:func:`names_agree`),
    else the record with most of its first party's distinctive words in ``text`` (two at least, and half of
    them: "from Arnab Goswami's case"); ``None`` when none."""
    recs = list(records)
    for t in find_case_titles(text):
        hits = [r for r in recs if names_agree(t.title, r.title)]
        if hits:
            return max(hits, key=lambda r: (len(set(_words(t.title)) & set(_words(r.title))), r.case))
    words = set(_words(text))
    best: tuple[int, str, CaseRecord] | None = None
    for r in recs:
        left = list(dict.fromkeys(w for w in _words(_sides(r.title)[0]) if w not in GENERIC_WORDS and len(w) > 2))
        n = sum(w in words for w in left)
        if n >= 2 and 2 * n >= len(left) and (best is None or n > best[0]):
            best = (n, r.case, r)
    return best[2] if best else None


__all__ = ["CaseRecord", "CheckStatus", "CitationCheck", "GENERIC_WORDS", "MetaRecord", "case_id_citations",
           "check_citation", "citation_key", "index_records", "names_agree", "record_named", "titles_for"]
