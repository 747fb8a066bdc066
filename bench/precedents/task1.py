"""AILA 2019 Task 1 with precedent search (:mod:`bench.precedents.search`): signals cached per query, weights
chosen on the training queries Q1 and Q3-Q10 only (Q2 is an 80% copy of test Q50), then scored once on Q11-Q50.

* Pool: the 2,914 AILA judgments (all of them, as in the task: the case base's leakage guard does not apply to the
  pool), read by :func:`legal_rag.eval.aila.load_casedocs`; their cited sections come from the case base
  (:class:`legal_rag.index.casebase.CaseBase`, the statute-citation grammar of
  :mod:`legal_rag.ingest.statute_cites`) and, for the few judgments the case
  base dropped as copies of a test query, from the same grammar run here.
* Query sections: :func:`bench.precedents.search.section_profile` over the case base (leak-guarded), old
  codes (AILA's judgments predate the new codes; new-code cites map back by the official table).
* Cache: ``<work>/pool`` (the :class:`PrecedentIndex`) and ``<work>/signals.json.gz`` (per query and term cut-off,
  the text signals; per query, the section profile), so a re-run with other weights is seconds.
* Choice (:func:`choose`): the grid :func:`grid` on the 9 training queries by MAP; ties go to the simpler setting
  (fewer signals with weight, then fewer query-term cuts, then the grid's order).
* The fused grids with the chunk list and the citation prior: :mod:`bench.precedents.fusion`; citation
  propagation and RM3 feedback: :mod:`bench.precedents.propagation`.
"""

from __future__ import annotations

import gzip
import itertools
import json
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Mapping, Sequence

from .search import DOC_B, PrecedentIndex, PrecedentWeights, fuse_signals, pool_cites, section_profile
from legal_rag.eval.aila import TEST_QUERIES, AilaResult, load_casedocs, load_qrels, load_queries, score
from legal_rag.types import StatuteRef

#: training queries used for the choice (Q2 left out: an 80% copy of test Q50)
TUNE_QUERIES = ("AILA_Q1",) + tuple(f"AILA_Q{i}" for i in range(3, 11))
ALL_QUERIES = tuple(f"AILA_Q{i}" for i in range(1, 51))
TERMS = (None, 25, 50, 100, 200)
#: the weight grid (doc, para, sections) x paragraph aggregation x query terms x the doc index's BM25 b (DOC_B)
GRID_WEIGHTS = (0.0, 0.25, 0.5, 1.0)
GRID_AGG = ("max", "sum")
SIGNALS_VERSION = 2

def build_pool(settings, casebase, *, concordance=None, log: Callable[[str], None] = print) -> PrecedentIndex:
    """The :class:`PrecedentIndex` of the 2,914 AILA judgments (module docstring)."""
    from legal_rag.ingest.statute_cites import find_statute_refs_by_paragraph

    t0 = time.perf_counter()
    judgments, paras = load_casedocs(settings.corpus_path)
    held = set(casebase.cases)
    missing = [j.case_id for j in judgments if j.case_id not in held]
    own = []
    for c in missing:
        ps = [p for p in paras if p.case == c]
        found = find_statute_refs_by_paragraph([p.text for p in ps], articles=True)
        own += [replace(p, cites=f) for p, f in zip(ps, found)]
    cites = pool_cites([j.case_id for j in judgments], casebase, own, concordance=concordance, era="old")
    pool = PrecedentIndex.build(judgments, paras, cites)
    log(f"task1 pool: {len(judgments)} judgments, {len(paras)} paragraphs, cites read here for {missing}, "
        f"{time.perf_counter() - t0:.0f}s")
    return pool


def compute_signals(pool: PrecedentIndex, casebase, texts: Mapping[str, str], queries: Sequence[str], *,
                    concordance=None, terms: Sequence[int | None] = TERMS, log: Callable[[str], None] = print
                    ) -> dict:
    """``{"text": {qid: {str(terms): signals}}, "profile": {qid: [[act, section, w], ...]}, "seconds": ...}``."""
    out: dict = {"version": SIGNALS_VERSION, "text": {}, "profile": {}, "seconds": {}}
    for q in queries:
        t0 = time.perf_counter()
        out["text"][q] = {str(n): pool.text_signals(texts[q], terms=n, top_k=3) for n in terms}
        t1 = time.perf_counter()
        prof = section_profile(texts[q], casebase, concordance=concordance, era="old", n=20)
        out["profile"][q] = [[r.act, r.section, w] for r, w in prof.items()]
        out["seconds"][q] = [t1 - t0, time.perf_counter() - t1]
        log(f"  {q}: text {t1 - t0:.1f}s, sections {time.perf_counter() - t1:.1f}s")
    return out


def load_or_compute(settings, work: Path, *, casebase_dir: Path, log: Callable[[str], None] = print
                    ) -> tuple[PrecedentIndex, dict]:
    """The cached pool and signals under ``work`` (built when absent)."""
    from legal_rag.index.casebase import CaseBase
    from legal_rag.law import load_concordance

    work = Path(work)
    conc = load_concordance(settings.corpus_path)
    cb = None
    try:
        pool = PrecedentIndex.open(work / "pool")
    except (FileNotFoundError, ValueError):  # absent or of another format: build it
        cb = CaseBase.open(casebase_dir)
        build_pool(settings, cb, concordance=conc, log=log).save(work / "pool")
        pool = PrecedentIndex.open(work / "pool")
    sig_path = work / "signals.json.gz"
    if sig_path.exists():
        with gzip.open(sig_path, "rt", encoding="utf-8") as fh:
            sig = json.load(fh)
        if sig.get("version") == SIGNALS_VERSION:
            return pool, sig
    cb = cb or CaseBase.open(casebase_dir)
    sig = compute_signals(pool, cb, load_queries(settings.corpus_path), ALL_QUERIES, concordance=conc, log=log)
    tmp = sig_path.with_suffix(".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as fh:
        json.dump(sig, fh)
    tmp.replace(sig_path)
    return pool, sig


CHUNKS_VERSION = 1
CITATIONS_VERSION = 1


def chunk_signals(settings, texts: Mapping[str, str], queries: Sequence[str], *, depth: int = 1000, embedder=None,
                  log: Callable[[str], None] = print) -> dict:
    """The "ours BM25" list of ``bench/results.md`` (:func:`legal_rag.eval.runners.run_task1`'s ``sparse`` mode:
    BM25 over every fixed-size chunk of every judgment, the whole query text, its ``depth`` best chunks) as a
    judgment signal: ``{"version", "chunk": {qid: {case: best chunk score}}, "seconds": {...}}``. Ranking
    judgments by this signal alone is that row's ranking (judgments by their best chunk)."""
    from legal_rag.index import Embedder, SparseIndex
    from legal_rag.ingest.chunk import chunk_corpus
    from legal_rag.injection import index_text

    t0 = time.perf_counter()
    embedder = embedder or Embedder.from_settings(settings)
    judgments, paras = load_casedocs(settings.corpus_path)
    chunks = chunk_corpus((), paras, embedder, judgments={j.case_id: j for j in judgments},
                          chunk_tokens=settings.chunk_tokens, overlap=settings.chunk_overlap)  # as run_task1's
    case_of = {c.id: c.case for c in chunks}
    t1 = time.perf_counter()
    sparse = SparseIndex.build([c.id for c in chunks], [index_text(c) for c in chunks])
    t2 = time.perf_counter()
    log(f"task1 chunks: {len(chunks)} chunks in {t1 - t0:.0f}s, BM25 built in {t2 - t1:.0f}s")
    out: dict = {"version": CHUNKS_VERSION, "chunk": {}, "seconds": {"chunk": t1 - t0, "build": t2 - t1}}
    for q in queries:
        best: dict[str, float] = {}
        for cid, s in sparse.search(texts[q], depth):
            best.setdefault(case_of[cid], float(s))  # best first: the first chunk of a case is its best
        out["chunk"][q] = best
    out["seconds"]["queries"] = time.perf_counter() - t2
    return out


def load_or_compute_chunks(settings, work: Path, *, log: Callable[[str], None] = print) -> dict:
    """:func:`chunk_signals` for :data:`ALL_QUERIES`, cached as ``<work>/chunks.json.gz``."""
    path = Path(work) / "chunks.json.gz"
    if path.exists():
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            got = json.load(fh)
        if got.get("version") == CHUNKS_VERSION:
            return got
    got = chunk_signals(settings, load_queries(settings.corpus_path), ALL_QUERIES, log=log)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as fh:
        json.dump(got, fh)
    tmp.replace(path)
    return got


def titles_and_texts(settings) -> tuple[dict[str, str], dict[str, str]]:
    """``({case: title}, {case: whole text})`` of the 2,914 AILA judgments, the input of the citation rules."""
    judgments, paras = load_casedocs(settings.corpus_path)
    texts: dict[str, list[str]] = {}
    for p in paras:
        texts.setdefault(p.case, []).append(p.text)
    return {j.case_id: j.title for j in judgments}, {c: "\n".join(t) for c, t in texts.items()}


def load_or_compute_citations(settings, work: Path, *, log: Callable[[str], None] = print) -> dict[str, int]:
    """In-citations of each of the 2,914 judgments from the other judgments' text
    (:func:`bench.precedents.citations.citation_counts`: titles matched on both parties), cached as
    ``<work>/citations.json``; ``{case: count}``."""
    from .citations import citation_counts

    path = Path(work) / "citations.json"
    if path.exists():
        got = json.loads(path.read_text(encoding="utf-8"))
        if got.get("version") == CITATIONS_VERSION:
            return got["counts"]
    t0 = time.perf_counter()
    counts = citation_counts(*titles_and_texts(settings))
    log(f"task1 citations: {sum(1 for v in counts.values() if v)} of {len(counts)} judgments cited "
        f"({sum(counts.values())} citing pairs), {time.perf_counter() - t0:.0f}s")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": CITATIONS_VERSION, "counts": counts}), encoding="utf-8")
    return counts


def load_or_compute_citation_pairs(settings, work: Path, *, log: Callable[[str], None] = print
                                   ) -> dict[str, list[str]]:
    """Who cites whom among the 2,914 judgments (:func:`bench.precedents.citations.citation_pairs`, the rule of
    :func:`load_or_compute_citations`), cached as ``<work>/citation_pairs.json``; ``{cited: [citing, ...]}``
    (sorted), only cited judgments."""
    from .citations import citation_pairs

    path = Path(work) / "citation_pairs.json"
    if path.exists():
        got = json.loads(path.read_text(encoding="utf-8"))
        if got.get("version") == CITATIONS_VERSION:
            return got["cited_by"]
    t0 = time.perf_counter()
    pairs = citation_pairs(*titles_and_texts(settings))
    cited_by = {c: sorted(v) for c, v in sorted(pairs.items())}
    log(f"task1 citation pairs: {len(cited_by)} judgments cited, {sum(map(len, cited_by.values()))} citing pairs, "
        f"{time.perf_counter() - t0:.0f}s")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"version": CITATIONS_VERSION, "cited_by": cited_by}), encoding="utf-8")
    tmp.replace(path)
    return cited_by


def ranking(pool: PrecedentIndex, sig: dict, q: str, w: PrecedentWeights, limit: int = 1000) -> list[str]:
    """The fused judgment ranking of query ``q`` from the cached signals."""
    text = {k: v for k, v in sig["text"][q][str(w.terms)].items()}
    if w.agg == "sum" and w.top_k != 3:
        raise ValueError("cached paragraph sums are of the top 3 paragraphs")
    if w.chunk or (w.prop and w.prop_base == "chunk"):
        text["chunk"] = sig["chunk"][q]  # KeyError: the chunk signal was not loaded (with_extras)
    if w.prior and "prior" not in sig:
        raise KeyError("prior weight without a loaded citation prior (with_extras)")
    if w.prop and "cites" not in sig:
        raise KeyError("propagation weight without loaded citation pairs (with_extras)")
    sec = section_signal(pool, sig, q, w.n_sections) if w.sections else {}
    return [c for c, _ in fuse_signals(text, sec, w, sig.get("prior"), sig.get("cites"))[:limit]]


def with_extras(sig: dict, chunks: dict | None = None, counts: Mapping[str, int] | None = None,
                cited_by: Mapping[str, Sequence[str]] | None = None, rm3: Mapping | None = None) -> dict:
    """``sig`` with the chunk-BM25 signal (``chunks`` from :func:`load_or_compute_chunks`) as ``sig["chunk"]``,
    the citation prior (:func:`bench.precedents.citations.citation_prior` of ``counts``) as ``sig["prior"]``
    and the citation graph (``cited_by`` from :func:`load_or_compute_citation_pairs`, inverted by
    :func:`bench.precedents.citations.citing_map`) as ``sig["cites"]`` (``{citing: [cited]}``)."""
    from .citations import citation_prior, citing_map

    out = dict(sig)
    if chunks is not None:
        out["chunk"] = chunks["chunk"]
    if counts is not None:
        out["prior"] = citation_prior(counts)
    if cited_by is not None:
        out["cites"] = citing_map(cited_by)
    if rm3 is not None:  # ``rm3["rm3"][qid]``: {rm3_key: {case: score}}, merged into the every-term text signals
        out["text"] = {q: {**tq, "None": {**tq["None"], **rm3["rm3"].get(q, {})}} for q, tq in sig["text"].items()}
    return out


SECTION_MEMO: dict = {}


def section_signal(pool, sig, q: str, n: int) -> dict[str, float]:
    key = (id(pool), id(sig), q, n)
    if key not in SECTION_MEMO:
        SECTION_MEMO[key] = pool.section_signal({StatuteRef(a, s): x for a, s, x in sig["profile"][q][:n]})
    return SECTION_MEMO[key]


def evaluate(pool, sig, w: PrecedentWeights, queries: Sequence[str], qrels, name: str = "precedents"
             ) -> AilaResult:
    return score("task1", name, {q: ranking(pool, sig, q, w) for q in queries}, qrels, queries)


def grid() -> list[PrecedentWeights]:
    """Every setting of the grid, simplest first (see module docstring)."""
    out = []
    for terms in TERMS:
        for d, p, s in itertools.product(GRID_WEIGHTS, repeat=3):
            if d == p == 0:
                continue
            for agg in (GRID_AGG if p else ("max",)):
                for b in (DOC_B if d else (0.75,)):
                    out.append(PrecedentWeights(doc=d, para=p, sections=s, agg=agg, top_k=3, terms=terms, doc_b=b))
    return sorted(out, key=simplicity)


def simplicity(w: PrecedentWeights) -> tuple:
    return (sum(1 for x in (w.doc, w.para, w.sections, w.chunk, w.prior, w.prop, w.rm3) if x), w.terms is not None,
            w.doc_b != 0.75, w.prior, w.sections, w.para, w.prop, w.prop_k, w.prop_agg != "sum",
            w.prop_base != "doc@0.75", w.rm3, w.rm3_docs, w.rm3_terms, -w.rm3_orig)


@dataclass(frozen=True)
class Choice:
    weights: PrecedentWeights
    train_map: float
    tried: int
    top: tuple[tuple[PrecedentWeights, float], ...]


def choose(pool, sig, qrels, queries: Sequence[str] = TUNE_QUERIES, candidates: Sequence[PrecedentWeights] | None
           = None) -> Choice:
    """The setting with the best training MAP; ties (to 1e-9) go to the earlier, simpler one."""
    best, best_v, rows = None, -1.0, []
    for w in candidates or grid():
        v = evaluate(pool, sig, w, queries, qrels).metrics["map"]
        rows.append((w, v))
        if v > best_v + 1e-9:
            best, best_v = w, v
    rows.sort(key=lambda r: -r[1])
    return Choice(best, best_v, len(rows), tuple(rows[:10]))


@dataclass(frozen=True)
class Task1Report:
    """What :func:`run_precedents` measured: the ``choice`` (on :data:`TUNE_QUERIES`), the chosen system's training
    figures and test figures (``results[0]``, Q11-Q50), reference rows at fixed settings read after the choice
    (``results[1:]``, each signal alone and the chosen text fusion with the section bonus), and ``seconds``
    (``pool``: build or open; ``signals``: compute or load; ``choose``; ``query_p50`` of the text signals)."""

    choice: Choice
    train: AilaResult
    results: tuple[AilaResult, ...]
    seconds: Mapping[str, float]


def describe(w: PrecedentWeights) -> str:
    """One line naming a setting: ``doc(b=0.75) 1 + para(max) 0.25 + sections 0 (top 10), all query terms``."""
    agg = "max" if w.agg == "max" else f"sum top {w.top_k}"
    terms = "all query terms" if w.terms is None else f"top {w.terms} idf query terms"
    extra = (f" + chunk {w.chunk:g}" if w.chunk else "") + (f" + prior {w.prior:g}" if w.prior else "")
    return (f"doc(b={w.doc_b:g}) {w.doc:g} + para({agg}) {w.para:g} + sections {w.sections:g} (top {w.n_sections})"
            f"{extra}, {terms}")


def run_precedents(settings, work: Path, *, casebase_dir: Path, log: Callable[[str], None] = print) -> Task1Report:
    """Choose on Q1, Q3-Q10 (:func:`choose`), then score the choice once on Q11-Q50 (module docstring)."""
    t0 = time.perf_counter()
    pool, sig = load_or_compute(settings, work, casebase_dir=casebase_dir, log=log)
    t_load = time.perf_counter() - t0
    qrels = load_qrels(settings.corpus_path, "task1")
    t0 = time.perf_counter()
    choice = choose(pool, sig, qrels)
    t_choose = time.perf_counter() - t0
    log(f"task1 precedents: chose {describe(choice.weights)} (train MAP {choice.train_map:.4f}, {choice.tried} "
        f"settings, {t_choose:.0f}s)")
    w = choice.weights
    train = evaluate(pool, sig, w, TUNE_QUERIES, qrels, "precedents (chosen)")
    refs = [("precedents (chosen): " + describe(w), w),
            ("whole-judgment BM25 alone (b=0.75)", PrecedentWeights(doc=1.0, para=0.0, doc_b=0.75)),
            ("whole-judgment BM25 alone (b=0)", PrecedentWeights(doc=1.0, para=0.0, doc_b=0.0)),
            ("paragraph BM25, max, alone", PrecedentWeights(doc=0.0, para=1.0)),
            ("paragraph BM25, sum of top 3, alone", PrecedentWeights(doc=0.0, para=1.0, agg="sum")),
            ("chosen + section bonus 0.25 (not chosen)", replace(w, sections=0.25))]
    results = tuple(evaluate(pool, sig, x, TEST_QUERIES, qrels, name) for name, x in refs)
    text_s = sorted(v[0] / len(TERMS) for v in sig["seconds"].values())
    return Task1Report(choice, train, results, {"load": t_load, "choose": t_choose,
                                                "query_p50": text_s[len(text_s) // 2]})



def per_query(pool, sig, qrels, queries: Sequence[str], candidates: Sequence[PrecedentWeights]
              ) -> list[dict[str, dict[str, float]]]:
    """For each setting, ``{qid: {metric: value}}`` (:data:`legal_rag.eval.metrics.AILA_METRICS`, one query at a
    time)."""
    from legal_rag.eval.metrics import AILA_METRICS, evaluate_run

    return [{q: evaluate_run({q: qrels[q]}, {q: ranking(pool, sig, q, w)}, AILA_METRICS) for q in queries}
            for w in candidates]


def cross_validate(table: Sequence[Mapping[str, Mapping[str, float]]], queries: Sequence[str], folds: int = 5
                   ) -> tuple[dict[str, dict[str, float]], list[int]]:
    """K-fold cross-validation over ``queries`` (fold ``i % folds`` by position): each fold's queries are scored
    with the setting (index into ``table``, from :func:`per_query`) of best mean MAP on the other folds, ties to
    the earlier. Returns ``({qid: metrics}, [chosen index per fold])``. A diagnostic protocol: a query never
    chooses its own weights, but test queries choose weights for one another."""
    out: dict[str, dict[str, float]] = {}
    picks = []
    for k in range(folds):
        held = [q for j, q in enumerate(queries) if j % folds == k]
        rest = [q for q in queries if q not in held]
        if not held or not rest:
            raise ValueError(f"fold {k} of {folds} leaves nothing to choose on or to score")
        best = max(range(len(table)), key=lambda i: (round(sum(table[i][q]["map"] for q in rest) / len(rest), 12),
                                                      -i))
        picks.append(best)
        out.update({q: dict(table[best][q]) for q in held})
    return out, picks


__all__ = ["ALL_QUERIES", "CHUNKS_VERSION", "CITATIONS_VERSION", "Choice", "GRID_AGG", "GRID_WEIGHTS", "SIGNALS_VERSION",
           "TERMS", "TUNE_QUERIES", "Task1Report", "build_pool", "choose", "chunk_signals", "compute_signals",
           "cross_validate", "describe", "evaluate", "grid", "load_or_compute", "load_or_compute_chunks",
           "load_or_compute_citation_pairs", "load_or_compute_citations", "per_query", "ranking", "run_precedents",
           "section_signal", "simplicity", "titles_and_texts", "with_extras"]
