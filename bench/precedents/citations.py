"""The citation graph of a pool of judgments, read from their text: who names whom by title (AILA 2019 Task 1's
citation prior and citation propagation, :mod:`bench.precedents.search`).

AILA's case files carry no reporter citations, so a citation is a case title found in another judgment's text
(:func:`legal_rag.law.find_case_titles`) whose two parties have the same normal form (:func:`party_key`) as a pool
judgment's title.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from typing import Iterable, Mapping

from legal_rag.law import find_case_titles, split_title


def citing_map(cited_by: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """``{cited: [citing]}`` (:func:`citation_pairs`) -> ``{citing: [cited]}`` (sorted), the form of
    :func:`bench.precedents.search.propagate`."""
    out: dict[str, list[str]] = defaultdict(list)
    for c, ds in cited_by.items():
        for d in ds:
            out[d].append(c)
    return {d: sorted(set(v)) for d, v in sorted(out.items())}


#: state names that law reports abbreviate in titles ("State of U.P."), read in both spellings
_STATE_ABBR = {"u p": "uttar pradesh", "up": "uttar pradesh", "m p": "madhya pradesh", "mp": "madhya pradesh",
               "a p": "andhra pradesh", "ap": "andhra pradesh", "h p": "himachal pradesh", "hp": "himachal pradesh",
               "j k": "jammu kashmir", "t n": "tamil nadu", "w b": "west bengal", "uoi": "union of india",
               "nct of delhi": "delhi", "govt": "government"}
#: what ends a party's distinctive name: co-parties and representatives ("and Others", "& Anr.", "Etc.", "(Dead)
#: through LRs"), a comma (a designation follows: "Supdt., West Bengal") or a bracket ("Umadevi (3)")
_PARTY_END = re.compile(r"\s+(?:and|&)\s+(?:others|ors|another|anr)\b|\s+etc\b|,|\(|\[|\s+through\b|\s+thr\b", re.I)


def party_key(party: str) -> str:
    """The normal form two spellings of one party share: cut at :data:`_PARTY_END`, lower-cased, letters and digits
    only (dots of initials dropped: "S.D.S." -> "sds", "U. P." -> "u p" -> "uttar pradesh" by
    :data:`_STATE_ABBR`), "the" dropped. ``party_key("The State Of U.P. & Ors.") -> "state of uttar pradesh"``."""
    p = _PARTY_END.split(party, maxsplit=1)[0]
    p = re.sub(r"(?<=\b[a-z])\.(?=\s*[a-z]\b)", "", p.lower())  # "s.d.s." -> "sds."
    p = re.sub(r"\b([a-z])\.\s*(?=[a-z]\.)", r"\1", p)
    p = re.sub(r"[^a-z0-9]+", " ", p).split()
    p = " ".join(w for w in p if w != "the")
    for short, full in _STATE_ABBR.items():
        p = re.sub(rf"(?<![a-z]){short}(?![a-z])", full, p)
    return p


def title_key(left: str, right: str) -> tuple[str, str] | None:
    """``(party_key(left), party_key(right))``, or None when either side is empty after normalising."""
    a, b = party_key(left), party_key(right)
    return (a, b) if a and b else None


def citation_counts(titles: Mapping[str, str], texts: Mapping[str, str]) -> dict[str, int]:
    """For each case of ``titles`` (``{case: "Left v Right"}``, split by
    :func:`legal_rag.law.cases.split_title`), how many *other* cases of ``texts`` (``{case: full text}``) name it:
    a title found in the text (:func:`legal_rag.law.find_case_titles`) with the same :func:`title_key` on
    both sides (appellant and respondent; order kept). A citing case counts once per cited case; a case never cites
    itself; cases whose titles share a key are each counted. Cases without a readable title score 0."""
    citers = citation_pairs(titles, texts)
    return {c: len(citers.get(c, ())) for c in titles}


def citation_pairs(titles: Mapping[str, str], texts: Mapping[str, str]) -> dict[str, set[str]]:
    """``{cited case: {citing cases}}`` by the rule of :func:`citation_counts` (a case of ``titles`` is cited by
    another case of ``texts`` naming it with the same :func:`title_key`; never by itself); only cited cases appear."""
    by_key: dict[tuple[str, str], list[str]] = defaultdict(list)
    for c, t in titles.items():
        sides = split_title(t or "")
        k = title_key(*sides) if sides else None
        if k:
            by_key[k].append(c)
    citers: dict[str, set[str]] = defaultdict(set)
    for src, text in texts.items():
        for found in find_case_titles(text):
            for c in by_key.get(title_key(found.left, found.right) or ("", ""), ()):
                if c != src:
                    citers[c].add(src)
    return {c: set(v) for c, v in citers.items() if c in titles}


def citation_prior(counts: Mapping[str, int]) -> dict[str, float]:
    """``{case: log(1 + in-citations)}`` for cases cited at least once (others absent: 0 in a CombSUM)."""
    return {c: math.log1p(n) for c, n in counts.items() if n > 0}


__all__ = ["citation_counts", "citation_pairs", "citation_prior", "citing_map", "party_key", "title_key"]
