"""AILA 2019 Task 2 and its BNS-era variant with section finding (:mod:`legal_rag.retrieve.sectionfind`): evidence
from the case base fused with direct retrieval over statute text. The weights are chosen on the training queries Q1
and Q3-Q10 by the benchmark (``bench/tuning.py``, ``bench/run.py --only sectionfind``).

* **Which real section is each AILA statute?** The 197 statutes are anonymised (``S1``..``S200``). To score
  case-base evidence (which cites ``IPC 302``), :func:`aila_statute_map` reads
  ``benchmarks/aila2019/DERIVED_aila_statute_to_section_and_successor.csv`` (58 rows) and, for the others, matches
  the AILA title exactly (lower-cased words) against the section titles of the IPC, CrPC and IEA
  (:func:`legal_rag.eval.acts.structured_sections`); a title shared by several sections is kept only when one
  section's text is clearly closest (word Jaccard >= 0.5 and 0.1 ahead). For the rest,
  :func:`quoted_text_map` (``origin "quoted-text"``) reads the case base, no relevance judgment: the paragraphs
  that quote a statute's description (``Desc:`` of ``Object_statutes.tar.gz``) are found by long word runs shared
  with it, and the reference those quoting paragraphs cite (an Article of the Constitution, which the case base
  keeps as ``Constitution <n>``, or a section of the six codes) is taken when it clearly dominates. Statutes still
  unmatched get direct-retrieval scores only.
* **Task 2**: evidence (``era="old"``) mapped to S-ids, fused with the direct ranking of the 197 statutes over the
  AILA statute index (:func:`legal_rag.eval.runners.build_aila_statutes`).
* **BNS era**: :func:`legal_rag.retrieve.sectionfind.rank_sections` with ``era="new"`` over a product index of the
  six Acts (direct search over statute chunks of both eras, bridged), gold = successors
  (:func:`legal_rag.eval.runners.successor_qrels`), pool = every BNS, BNSS and BSA section.
* Leakage: the case base of :func:`legal_rag.ingest.casebase.load_casebase` already drops the documents that copy a
  test query (its ``LeakReport``); ``exclude`` adds more per query.
"""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Collection, Iterable, Mapping, Sequence

from ..config import Settings
from ..retrieve.evidence import EvidenceParams, section_evidence
from ..retrieve.sectionfind import FusionWeights, fuse, rank_sections
from ..types import NEW_ACTS, StatuteRef
from .aila import TEST_QUERIES, TRAIN_QUERIES, AilaResult, doc_ranking, load_qrels, load_queries, load_statutes, score

DERIVED_CSV = Path("benchmarks") / "aila2019" / "DERIVED_aila_statute_to_section_and_successor.csv"


@dataclass(frozen=True)
class StatuteMap:
    """AILA statute id -> real section or Article (section level). ``origin[sid]``: ``"derived_csv"``,
    ``"title"``, ``"title+text"`` or ``"quoted-text"``; ``unmatched``: the ids with no reference."""

    refs: Mapping[str, StatuteRef]
    origin: Mapping[str, str]
    unmatched: tuple[str, ...]

    def by_ref(self) -> dict[StatuteRef, tuple[str, ...]]:
        out: dict[StatuteRef, list[str]] = defaultdict(list)
        for sid, r in self.refs.items():
            out[r].append(sid)
        return {r: tuple(v) for r, v in out.items()}


def _norm_title(t: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", t.lower()))


def _words(t: str) -> set[str]:
    return set(re.findall(r"[a-z]+", t.lower()))


def aila_statute_map(corpus_path: Path, casebase=None) -> StatuteMap:
    """The mapping described in the module docstring: DERIVED csv, then exact titles, then (only when a
    ``casebase`` is given) :func:`quoted_text_map` for the statutes still unmatched."""
    from .acts import structured_sections

    derived: dict[str, StatuteRef] = {}
    with open(Path(corpus_path) / DERIVED_CSV, encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            if r["old_act"] and r["old_section"]:
                derived[r["aila_statute_id"]] = StatuteRef(r["old_act"], r["old_section"].strip().upper())
    by_title: dict[str, list] = defaultdict(list)
    for s in structured_sections(corpus_path):
        if s.ref.act in ("IPC", "CrPC", "IEA") and s.title:
            by_title[_norm_title(s.title)].append(s)
    refs, origin, unmatched = {}, {}, []
    for st in load_statutes(corpus_path):
        sid = st.ref.section
        if sid in derived:
            refs[sid], origin[sid] = derived[sid], "derived_csv"
            continue
        cands = by_title.get(_norm_title(st.title), [])
        if len(cands) == 1:
            refs[sid], origin[sid] = cands[0].ref.base, "title"
            continue
        if cands:
            w = _words(st.text)
            sims = sorted(((len(w & _words(c.text)) / max(1, len(w | _words(c.text))), c.ref.base) for c in cands),
                          key=lambda t: (-t[0], t[1]))
            if sims[0][0] >= 0.5 and (len(sims) == 1 or sims[1][0] <= sims[0][0] - 0.1):
                refs[sid], origin[sid] = sims[0][1], "title+text"
                continue
        unmatched.append(sid)
    smap = StatuteMap(refs, origin, tuple(unmatched))
    if casebase is not None:
        smap = quoted_text_map(smap, load_statutes(corpus_path), casebase)[0]
    return smap


# ---- statutes identified by the paragraphs that quote them (no gold labels) --------------------------------------
#: word n-gram length of a quoted run (words = ``[a-z]+`` runs, lower-cased: footnote numbers and clause labels
#: such as "1 [imprisonment for life]" or "(2)" are not words, so they do not break a run)
QUOTE_N = 8
#: distinct n-grams a paragraph must share with one description to quote it (3 8-grams: at least 10 words in a row)
QUOTE_MIN_SHARED = 3
#: a reference is taken when at least this many quoting paragraphs cite it ...
QUOTE_MIN_PARAS = 3
#: ... and at least this share of the quoting paragraphs cite it (one vote per paragraph and ref; a paragraph with no
#: cite counts against), strictly more than the runner-up. Chosen on coverage and a spot-check of the titles (no
#: relevance judgment): 0.6 keeps "Equality before law" (13 of 15 -> Art. 14) and drops "Power to make orders
#: detaining certain persons" (11 of 25 cite Art. 22: the detention Act's section is quoted beside Art. 22).
QUOTE_MIN_SHARE = 0.6


def _alpha_words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


def _ngrams(words: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return set(zip(*(words[i:] for i in range(n)))) if len(words) >= n else set()


@dataclass(frozen=True)
class QuoteVotes:
    """What :func:`quote_votes` found for one statute: ``paragraphs`` quoting it (``(case, para)``), ``votes``
    ``{ref: paragraphs citing it}`` (section/Article level; a quoting paragraph with no cite of its own lends the
    previous paragraph's, where "Article 21 reads:" usually stands), best first."""

    sid: str
    paragraphs: tuple[tuple[str, int], ...]
    votes: tuple[tuple[StatuteRef, int], ...]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.votes)

    def winner(self, min_paras: int = QUOTE_MIN_PARAS, min_share: float = QUOTE_MIN_SHARE) -> StatuteRef | None:
        """The most voted ref when it has ``>= min_paras`` votes, is cited by ``>= min_share`` of the quoting
        paragraphs and has strictly more votes than the next ref (a tie names nothing), else None."""
        if not self.votes:
            return None
        ref, n = self.votes[0]
        if len(self.votes) > 1 and self.votes[1][1] == n:
            return None
        return ref if n >= min_paras and n / len(self.paragraphs) >= min_share else None


def quote_votes(descriptions: Mapping[str, str], casebase, *, n: int = QUOTE_N, min_shared: int = QUOTE_MIN_SHARED
                ) -> dict[str, QuoteVotes]:
    """For each ``{sid: description}``: the case-base paragraphs sharing ``>= min_shared`` distinct word
    ``n``-grams with that description (n-grams found in two or more descriptions are boilerplate -- "shall be
    punished with imprisonment of either description" -- and do not count), and the references they cite.
    ``casebase``: anything with ``cases``, ``paragraphs(case)`` (objects with ``.text`` and ``.cites``). A
    paragraph quoting several descriptions votes for each. Deterministic: votes by count, then ref."""
    owner: dict[tuple[str, ...], str | None] = {}
    for sid, text in descriptions.items():
        for g in _ngrams(_alpha_words(text), n):
            owner[g] = sid if owner.get(g, sid) == sid else None
    owner = {g: s for g, s in owner.items() if s is not None}
    paras: dict[str, list[tuple[str, int]]] = defaultdict(list)
    votes: dict[str, dict[StatuteRef, int]] = defaultdict(lambda: defaultdict(int))
    for case in casebase.cases:
        ps = casebase.paragraphs(case)
        for i, p in enumerate(ps):
            shared: dict[str, int] = defaultdict(int)
            for g in _ngrams(_alpha_words(p.text), n):
                sid = owner.get(g)
                if sid is not None:
                    shared[sid] += 1
            hit = [sid for sid, k in shared.items() if k >= min_shared]
            if not hit:
                continue
            cites = p.cites or (ps[i - 1].cites if i else ())
            refs = list(dict.fromkeys(r.base for r in cites))
            for sid in hit:
                paras[sid].append((case, i))
                for r in refs:
                    votes[sid][r] += 1
    return {sid: QuoteVotes(sid, tuple(paras[sid]), tuple(sorted(votes[sid].items(), key=lambda kv: (-kv[1],
                                                                                                       str(kv[0])))))
            for sid in descriptions}


def quoted_text_map(smap: StatuteMap, statutes: Sequence, casebase, *, min_paras: int = QUOTE_MIN_PARAS,
                    min_share: float = QUOTE_MIN_SHARE) -> tuple[StatuteMap, dict[str, QuoteVotes]]:
    """``smap`` plus the unmatched statutes (``statutes``: :func:`legal_rag.eval.aila.load_statutes`) whose quoting
    paragraphs' winner (:meth:`QuoteVotes.winner`) exists, origin ``"quoted-text"``. Boilerplate is judged against
    every statute's description (mapped ones too). Returns the new map and the votes of every statute."""
    qv = quote_votes({st.ref.section: st.text for st in statutes}, casebase)
    refs, origin = dict(smap.refs), dict(smap.origin)
    still = []
    for sid in smap.unmatched:
        w = qv[sid].winner(min_paras, min_share) if sid in qv else None
        if w is None:
            still.append(sid)
        else:
            refs[sid], origin[sid] = w, "quoted-text"
    return StatuteMap(refs, origin, tuple(still)), qv


def coverage(smap: StatuteMap, qrels: Mapping[str, Mapping[str, int]], queries: Sequence[str]) -> tuple[int, int]:
    """``(gold statutes mapped to a section, gold statutes)`` over ``queries``."""
    gold = [d for q in queries for d, r in qrels.get(q, {}).items() if r > 0]
    return sum(g in smap.refs for g in gold), len(gold)


# ---- Task 2 over the 197 AILA statutes ---------------------------------------------------------------------------
@dataclass
class Task2Inputs:
    """Per query: the direct S-id ranking by mode (computed once) and the query text."""

    texts: Mapping[str, str]
    direct: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # mode -> qid -> [S-id]


def aila_direct(index, settings: Settings, texts: Mapping[str, str], queries: Iterable[str], mode: str
                ) -> dict[str, list[str]]:
    """Every AILA statute ranked by its best chunk (all chunks retrieved), per query."""
    from ..retrieve.search import search

    depth = len(index.sparse)
    return {q: doc_ranking(search(texts[q], index, settings, mode=mode, candidates=depth, limit=depth,
                                  lookup=False, max_per_doc=None)) for q in queries}


def task2_run(text: str, direct: Sequence[str], casebase, smap: StatuteMap, weights: FusionWeights,
              params: EvidenceParams, concordance=None, exclude: Collection[str] = ()) -> list[str]:
    """S-ids best first: evidence (old era, sections mapped to every S-id that is that section) fused with the
    direct ranking ``direct``; S-ids neither list reaches are not returned."""
    by_ref = smap.by_ref()
    ev: dict[str, float] = {}
    if casebase is not None and weights.evidence:
        for e in section_evidence(text, casebase, concordance=concordance, era="old", exclude=exclude, params=params):
            for sid in by_ref.get(e.ref, ()):
                ev[sid] = ev.get(sid, 0.0) + e.score
    d = {sid: 1.0 / (weights.rrf_k + i + 1) for i, sid in enumerate(direct)} if weights.direct else {}
    fused = [sid for sid, _ in fuse(ev, d, weights)]
    return fused + [s for s in direct if s not in set(fused)]


def run_task2_sectionfind(casebase, settings: Settings, direct: Mapping[str, Sequence[str]], smap: StatuteMap,
                          weights: FusionWeights, params: EvidenceParams, queries: Sequence[str] = TEST_QUERIES,
                          system: str = "sectionfind", concordance=None) -> AilaResult:
    texts, qrels = load_queries(settings.corpus_path), load_qrels(settings.corpus_path, "task2")
    runs = {q: task2_run(texts[q], direct[q], casebase, smap, weights, params, concordance) for q in queries}
    return score("task2", system, runs, qrels, queries)


# ---- BNS era over the new-code pool ------------------------------------------------------------------------------
def bns_qrels(index, settings: Settings, queries: Sequence[str]) -> dict[str, dict[str, int]]:
    """Successor gold for ``queries`` with every other new-code section of ``index`` judged 0 (as
    :func:`legal_rag.eval.runners.run_bns_variant`)."""
    from .runners import successor_qrels

    new = {f"{m['act']} {m['section']}" for m in index.metadata().values() if m.get("code") == "new"}
    return {q: {**{s: 0 for s in new}, **d} for q, d in successor_qrels(settings).items() if q in set(queries)}


def bns_direct(index, settings: Settings, texts: Mapping[str, str], queries: Iterable[str], mode: str, depth: int
               ) -> dict[str, list[StatuteRef]]:
    """Direct section ranking over the statute chunks of both eras, per query (section look-up off: AILA
    statements name no section of the gold)."""
    from ..retrieve.filters import Filters
    from ..retrieve.sectionfind import direct_sections

    return {q: direct_sections(texts[q], index, settings, mode=mode, filters=Filters(kind="statute"), depth=depth,
                               lookup=False) for q in queries}


def bns_run(text: str, ranked: Sequence[StatuteRef], casebase, concordance, weights: FusionWeights,
            params: EvidenceParams, exclude: Collection[str] = ()) -> list[str]:
    ev = section_evidence(text, casebase, concordance=concordance, era="new", exclude=exclude, params=params) \
        if casebase is not None and weights.evidence else ()
    out = rank_sections(ev, ranked if weights.direct else (), concordance, allowed=NEW_ACTS, weights=weights)
    return [f"{s.ref.act} {s.ref.section}" for s in out]


def run_bns_sectionfind(casebase, settings: Settings, index, direct: Mapping[str, Sequence[StatuteRef]],
                        concordance, weights: FusionWeights, params: EvidenceParams,
                        queries: Sequence[str] = TEST_QUERIES, system: str = "sectionfind") -> AilaResult:
    texts = load_queries(settings.corpus_path)
    qrels = bns_qrels(index, settings, queries)
    runs = {q: bns_run(texts[q], direct[q], casebase, concordance, weights, params) for q in qrels}
    return score("task2-bns", system, runs, qrels, list(qrels))


__all__ = ["QUOTE_MIN_PARAS", "QUOTE_MIN_SHARE", "QUOTE_MIN_SHARED", "QUOTE_N", "QuoteVotes", "StatuteMap",
           "quote_votes", "quoted_text_map", "TRAIN_QUERIES", "aila_direct", "aila_statute_map", "bns_direct",
           "bns_qrels", "bns_run", "coverage", "run_bns_sectionfind", "run_task2_sectionfind", "task2_run"]
