"""Sources that hold many court decisions in one file, read in place through the one judgment path.

A manifest source of kind ``judgment`` whose ``format`` is one of :data:`READERS` holds many decisions:

* ``indiankanoon`` -- a tar of Indian Kanoon texts (:mod:`legal_rag.ingest.indiankanoon`); each member is one
  decision, cut into pseudo-pages (:func:`~legal_rag.ingest.judgments.pages_from_text`) and read by
  :func:`~legal_rag.ingest.judgments.parse_judgment` with the ``indiankanoon`` layout; case id ``IK-<doc id>``, its
  Indian Kanoon address among its citations;
* ``sc_orders`` -- the Supreme Court's orders of the day, one day's log (``.md``) or a tar of them
  (:mod:`legal_rag.ingest.sc_orders`); each order (one record per order, copies counted) is read by
  ``parse_judgment`` from its own lines with their page numbers in the day's log; case id
  :func:`~legal_rag.ingest.sc_orders.order_case_id`; always ``decision="order"``, court the Supreme Court, dated by
  the order's own date.

What a reader takes, and what it skips with the reason, counted (:class:`ManyRead`):

* ``duplicate`` -- the same text as a member read before (Indian Kanoon: one document filed under two queries);
  a copy of an order already taken (the signed order and its record, the same order in a later day's log, or in
  another source of the manifest read before);
* ``already in the corpus`` -- a decision whose neutral or reporter citation names one read before from another
  source, or, where the source's derived index names a candidate (``hints``: a CSV the manifest names beside the
  source, read as a hint, never as gold), whose text is that of a judgment read before (word 8-gram containment
  ``>= SAME_TEXT``);
* ``not a court's decision`` -- Indian Kanoon files some reports under a court name of its own ("Law Commission
  Report"); a Registrar's record of proceedings in the orders of the day (listing and service, no bench's order);
* ``civil matter`` -- no rule of :data:`legal_rag.ingest.scope.SCOPE_RULES` takes it;
* ``beyond the sample`` -- past ``Settings.archive_limit`` decisions taken (tests' fixed sample).

Problems of single decisions (``no_title``, ``no_date``, ``unnumbered``) are summarised per kind (one Problem
naming how many and the first case ids), not listed one per decision.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..config import Settings
from ..types import Judgment, Paragraph, Problem
from .judgments import pages_from_text, parse_judgment
from .scope import CIVIL_REASON, criminal_rule
from .shingles import contained

#: containment of a decision's word 8-grams in a candidate's at or above which both are the same judgment
SAME_TEXT = 0.5
DUPLICATE = "duplicate"
SAME_JUDGMENT = "already in the corpus"
NOT_A_COURT = "not a court's decision"
SAMPLE = "beyond the sample (Settings.archive_limit)"
REGISTRAR = "a Registrar's record of proceedings (listing and service of a matter), no order of a bench"
_PROBLEM_IDS = 5  # case ids named in a summarised problem


@dataclass
class Seen:
    """What the sources read so far hold, so that a later source does not take them again: neutral / reporter
    citations (citation -> case id), order keys (:class:`~legal_rag.ingest.sc_orders.OrderKey` -> case id), and
    the text of each single-decision source by file stem (``"C545"`` -> its paragraphs joined)."""

    citations: dict[str, str] = field(default_factory=dict)
    orders: dict = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)

    def add(self, judgment: Judgment) -> None:
        for c in judgment.citations:
            if not c.startswith("indiankanoon.org"):
                self.citations.setdefault(c, judgment.case_id)


@dataclass(frozen=True)
class ManyRead:
    """What one many-decision source gave: the decisions taken, their paragraphs, problems (summarised), ``read``
    (decisions found in it, copies included) and ``skipped`` ``(reason, count)``."""

    judgments: tuple[Judgment, ...] = ()
    paragraphs: tuple[Paragraph, ...] = ()
    problems: tuple[Problem, ...] = ()
    read: int = 0
    skipped: tuple[tuple[str, int], ...] = ()


def _summarise(source: str, probs: list[tuple[str, Problem]]) -> tuple[Problem, ...]:
    """One Problem per (kind, severity) over many decisions, its message ``"3 decision(s): IK-1, IK-2, IK-3"``."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for case, p in probs:
        groups[(p.kind, p.severity)].append(case)
    out = []
    for (kind, sev), cases in sorted(groups.items()):
        ids = ", ".join(cases[:_PROBLEM_IDS]) + (", ..." if len(cases) > _PROBLEM_IDS else "")
        out.append(Problem(source, kind, f"{len(cases)} decision(s): {ids}", severity=sev))  # type: ignore[arg-type]
    return tuple(out)


def _sampled(taken: int, settings: Settings) -> bool:
    """Whether the sample of ``Settings.archive_limit`` decisions is full."""
    return settings.archive_limit is not None and taken >= settings.archive_limit


def read_indiankanoon(path: Path, source: str, hints: dict[str, dict[str, str]], settings: Settings,
                      seen: Seen) -> ManyRead:
    """The ``indiankanoon`` reader (module docstring). ``hints``: the rows of the source's derived index by file
    name; its ``aila_casedoc_overlap`` (``"C545.txt:0.85"``) names a candidate twin, taken as one only when the
    corpus holds that judgment (a source read before, by file stem) and the texts agree (:data:`SAME_TEXT`). With
    ``Settings.archive_limit`` the members after the sample is full are not read, only counted."""
    from .indiankanoon import read_archive

    docs = read_archive(path)
    overlaps = {}
    for d in docs:
        m = re.match(r"(C\d+)\.txt:([0-9.]+)", hints.get(Path(d.member).name, {}).get("aila_casedoc_overlap", ""))
        if m and float(m.group(2)) >= SAME_TEXT:
            overlaps[d.doc_id] = m.group(1)
    skipped: Counter[str] = Counter()
    taken: list[tuple[Judgment, tuple[Paragraph, ...]]] = []
    probs: list[tuple[str, Problem]] = []
    first_of: set[str] = set()
    for k, doc in enumerate(docs):
        if _sampled(len(taken), settings):
            skipped[SAMPLE] += len(docs) - k
            break
        if doc.sha256 in first_of:
            skipped[f"{DUPLICATE}: the same text as another member (Indian Kanoon files one document under two "
                    "queries)"] += 1
            continue
        first_of.add(doc.sha256)
        pages, _ = pages_from_text(source, doc.text)
        j, paras, found = parse_judgment(pages, source, "indiankanoon", case=f"IK-{doc.doc_id}")
        j = dataclasses.replace(j, citations=j.citations + (doc.citation,), within=doc.member)
        if "court" not in j.court.lower():
            skipped[f"{NOT_A_COURT} (Indian Kanoon files it under {j.court or 'no court'!r})"] += 1
            continue
        twin = next((seen.citations[c] for c in j.citations if c in seen.citations), "")
        cand = overlaps.get(doc.doc_id, "")
        if not twin and cand in seen.texts and contained(seen.texts[cand], doc.text) >= SAME_TEXT:
            twin = f"{cand}.txt"
        if twin:
            skipped[f"{SAME_JUDGMENT}: the same judgment as one read before ({twin})"] += 1
            continue
        body = "\n".join(p.text for p in paras)
        if not criminal_rule(j.case_numbers, pages[0].text if pages else "", body):
            skipped[CIVIL_REASON] += 1
            continue
        taken.append((j, paras))
        probs += [(j.case_id, p) for p in found]
    return _finish(source, len(docs), taken, skipped, probs, seen)


def _finish(source: str, read: int, taken: list[tuple[Judgment, tuple[Paragraph, ...]]], skipped: Counter[str],
            probs: list[tuple[str, Problem]], seen: Seen) -> ManyRead:
    for j, _ in taken:
        seen.add(j)
    return ManyRead(tuple(j for j, _ in taken), tuple(p for _, ps in taken for p in ps),
                    _summarise(source, probs), read, tuple(sorted((r, n) for r, n in skipped.items() if n)))


#: the copies of one order in a source, kept once (:func:`legal_rag.ingest.sc_orders.dedupe`)
COPY_REASON = (f"{DUPLICATE}: a copy of an order kept once (its record beside the signed order, the matter listed "
               "twice, the order printed again in a later day's log)")


def read_sc_orders(path: Path, source: str, hints: dict[str, dict[str, str]], settings: Settings,
                   seen: Seen) -> ManyRead:
    """The ``sc_orders`` reader (module docstring); ``hints`` are not read."""
    from .pdf import clean_text
    from .sc_orders import (SC, before_registrar, dedupe, order_case_id, order_case_numbers, order_lines, read_logs,
                            split_day)

    segs = []
    for day, text in read_logs(path):
        segs += split_day(day, text).segments
    kept, copies = dedupe(segs)
    skipped: Counter[str] = Counter({COPY_REASON: sum(copies.values())})
    chosen = []
    for seg, key in kept:
        if key in seen.orders:
            skipped[f"{DUPLICATE}: an order already taken from another source of the manifest"] += 1
            continue
        if before_registrar(seg):
            skipped[REGISTRAR] += 1
            continue
        lines = order_lines(seg)
        numbers = order_case_numbers(seg)
        if not criminal_rule(numbers, "\n".join(t for _, t in seg.lines[:15]), "\n".join(t for _, t in lines)):
            skipped[CIVIL_REASON] += 1
            continue
        if _sampled(len(chosen), settings):
            skipped[SAMPLE] += 1
            continue
        chosen.append((seg, key, lines, numbers))
    taken: list[tuple[Judgment, tuple[Paragraph, ...]]] = []
    probs: list[tuple[str, Problem]] = []
    for seg, key, lines, numbers in chosen:
        by_page: dict[int, list[str]] = defaultdict(list)
        for n, t in lines:
            by_page[n].append(t)
        pages = tuple(clean_text(source, n, "\n".join(ts))[0] for n, ts in by_page.items())
        cid = order_case_id(key)
        j, paras, found = parse_judgment(pages, source, "sc", case=cid)
        j = dataclasses.replace(j, court=SC, date=key.date or j.date, decision="order",
                                case_numbers=numbers or j.case_numbers, title=j.title or _listed_parties(seg.listing),
                                within=f"{seg.day}, item {seg.item}")
        taken.append((j, paras))
        probs += [(cid, p) for p in found if not ({"no_title": j.title, "no_date": j.date, "no_court": j.court}
                                                  .get(p.kind))]
        seen.orders[key] = cid
    return _finish(source, len(segs), taken, skipped, probs, seen)


def _listed_parties(listing: str) -> str:
    """The parties of a table-of-contents row (``"Isha Malhotra vs. Abha Arora T.P.(Crl.) No. 745/2025"`` ->
    ``"Isha Malhotra v. Abha Arora"``): the words before the case reference, as the row prints them (cut)."""
    parties = re.split(r"\s(?:SLP|Crl\.|C\.A\.|T\.P\.|W\.P\.|MA\s|R\.P\.|CONMT|Diary|- -)", listing, maxsplit=1)[0]
    return re.sub(r"\s+vs\.?\s+", " v. ", parties, flags=re.I).strip()


#: the readers of sources holding many decisions, by the manifest's ``format``
READERS: dict[str, Callable[[Path, str, dict[str, dict[str, str]], Settings, Seen], ManyRead]] = {
    "indiankanoon": read_indiankanoon,
    "sc_orders": read_sc_orders,
}

__all__ = ["ManyRead", "READERS", "SAME_TEXT", "Seen", "read_indiankanoon", "read_sc_orders"]
