"""AILA 2019 Task 1, precedent search with citation propagation (:func:`bench.precedents.search.propagate`) or RM3
feedback (:func:`bench.precedents.search.rm3_weights`) as a further CombSUM signal (:func:`run_prop`).

Protocol: the grid chosen on the training queries Q1, Q3-Q10 only (MAP, ties to the simpler), then scored once on
Q11-Q50; reference rows, k-fold cross-validation over Q1, Q3-Q50 and a post-hoc oracle come after the choice and
choose nothing (``bench/results.md``).
"""

from __future__ import annotations

import gzip
import itertools
import json
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Mapping, Sequence

from legal_rag.eval.aila import TEST_QUERIES, AilaResult, load_casedocs, load_qrels, load_queries

from .fusion import fused_grid, map_table
from .search import PrecedentIndex, PrecedentWeights
from .task1 import (ALL_QUERIES, GRID_WEIGHTS, TUNE_QUERIES, describe, evaluate, load_or_compute,
                    load_or_compute_chunks, load_or_compute_citation_pairs, simplicity, with_extras)


#: citation propagation variants of :func:`prop_grid`: base text signal, how many of its best judgments pass their
#: score on, sum or max over the citing judgments
PROP_BASES = ("doc@0.75", "doc@0", "chunk")
PROP_K = (20, 50, 100)
PROP_AGG = ("sum", "max")


def prop_grid(weights: Sequence[float] = GRID_WEIGHTS[1:]) -> list[PrecedentWeights]:
    """The citation-propagation grid: every setting of :func:`fused_grid` with the section
    bonus and prior at 0 (279 text settings, the chunk list alone among them), each with propagation off and with
    every propagation variant (:data:`PROP_BASES` x :data:`PROP_K` x :data:`PROP_AGG` x ``weights``); plus each
    propagation variant alone. Simplest first."""
    text = fused_grid(sections=(0.0,))
    variants = [dict(prop=pw, prop_base=b, prop_k=k, prop_agg=a)
                for b, k, a, pw in itertools.product(PROP_BASES, PROP_K, PROP_AGG, weights)]
    out = list(text)
    for v in variants:
        out += [replace(w, **v) for w in text]
        out.append(PrecedentWeights(doc=0.0, para=0.0, doc_b=0.75, **v))
    return sorted(out, key=simplicity)


RM3_VERSION = 1
#: RM3 variants (feedback judgments, feedback terms, original query weight) of :func:`rm3_signals`
RM3_DOCS = (5, 10)
RM3_TERMS = (20, 50)
RM3_ORIG = (0.5, 0.7)


def rm3_signals(settings, pool: PrecedentIndex, sig: dict, queries: Sequence[str], *,
                log: Callable[[str], None] = print) -> dict:
    """Whole-judgment BM25 (b = 0.75) with the RM3-expanded query
    (:func:`bench.precedents.search.rm3_weights`) for every variant of :data:`RM3_DOCS` x :data:`RM3_TERMS` x
    :data:`RM3_ORIG`: the feedback judgments are the best of the cached whole-judgment BM25 (b = 0.75, every query
    term) with their scores; feedback terms are tokens of three or more letters. ``{"version", "rm3": {qid:
    {rm3_key: {case: score}}}, "seconds"}``."""
    import re

    from legal_rag.index import legal_tokenize
    from .search import rm3_key, rm3_weights, top_idf_terms

    t0 = time.perf_counter()
    texts = load_queries(settings.corpus_path)
    fb_of = {q: sorted(sig["text"][q]["None"]["doc@0.75"].items(), key=lambda kv: (-kv[1], kv[0]))[:max(RM3_DOCS)]
             for q in queries}
    need = {c for fb in fb_of.values() for c, _ in fb}
    _, paras = load_casedocs(settings.corpus_path)
    body: dict[str, list[str]] = {}
    for p in paras:
        if p.case in need:
            body.setdefault(p.case, []).append(p.text)
    toks = {c: legal_tokenize("\n".join(t)) for c, t in body.items()}
    word = re.compile(r"[a-z]{3,}")
    keep = lambda t: word.fullmatch(t) is not None  # noqa: E731
    idf = pool.term_idf()
    t1 = time.perf_counter()
    out: dict = {"version": RM3_VERSION, "rm3": {}, "seconds": {"feedback_docs": t1 - t0}}
    for q in queries:
        qt = top_idf_terms(legal_tokenize(texts[q]), idf, None)
        memo: dict = {}
        out["rm3"][q] = {}
        for nd, nt, lam in itertools.product(RM3_DOCS, RM3_TERMS, RM3_ORIG):
            wts = rm3_weights(qt, [(toks.get(c, []), s) for c, s in fb_of[q][:nd]], nt, lam, keep)
            out["rm3"][q][rm3_key(nd, nt, lam)] = pool.weighted_doc_bm25(wts, 0.75, memo=memo)
    out["seconds"]["queries"] = time.perf_counter() - t1
    log(f"task1 rm3: {len(queries)} queries, {len(need)} feedback judgments tokenised in {t1 - t0:.0f}s, signals "
        f"{time.perf_counter() - t1:.0f}s")
    return out


def load_or_compute_rm3(settings, work: Path, pool: PrecedentIndex, sig: dict, *,
                        log: Callable[[str], None] = print) -> dict:
    """:func:`rm3_signals` for :data:`ALL_QUERIES`, cached as ``<work>/rm3.json.gz``."""
    path = Path(work) / "rm3.json.gz"
    if path.exists():
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            got = json.load(fh)
        if got.get("version") == RM3_VERSION:
            return got
    got = rm3_signals(settings, pool, sig, ALL_QUERIES, log=log)
    tmp = path.with_suffix(".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as fh:
        json.dump(got, fh)
    tmp.replace(path)
    return got


def rm3_grid(weights: Sequence[float] = GRID_WEIGHTS[1:]) -> list[PrecedentWeights]:
    """The 279 text settings of :func:`prop_grid` (no propagation), each without RM3 and with every RM3 variant
    (:data:`RM3_DOCS` x :data:`RM3_TERMS` x :data:`RM3_ORIG`) at each of ``weights``; plus each variant alone.
    Simplest first."""
    text = fused_grid(sections=(0.0,))
    variants = [dict(rm3=rw, rm3_docs=nd, rm3_terms=nt, rm3_orig=lam)
                for nd, nt, lam, rw in itertools.product(RM3_DOCS, RM3_TERMS, RM3_ORIG, weights)]
    out = list(text)
    for v in variants:
        out += [replace(w, **v) for w in text]
        out.append(PrecedentWeights(doc=0.0, para=0.0, doc_b=0.75, **v))
    return sorted(out, key=simplicity)


@dataclass(frozen=True)
class PropReport:
    """:func:`run_prop`: the setting ``chosen`` on :data:`TUNE_QUERIES` (``train_map``, ``top`` five), ``test``
    (Q11-Q50, read once after the choice), ``refs`` (fixed settings scored after the choice: the choice without
    propagation, propagation alone), ``cv`` (secondary: k-fold over Q1, Q3-Q50, ``{metric: mean over Q11-Q50}``,
    with the folds' ``cv_picks``), ``oracle`` (post-hoc: the best setting on Q11-Q50 itself), ``graph`` (judgments
    cited, citing pairs), ``seconds``."""

    grid: int
    chosen: PrecedentWeights
    train_map: float
    top: tuple[tuple[PrecedentWeights, float], ...]
    test: AilaResult
    refs: tuple[AilaResult, ...]
    cv: Mapping[str, float]
    cv_picks: tuple[PrecedentWeights, ...]
    oracle: AilaResult
    graph: tuple[int, int]
    seconds: Mapping[str, float]


def describe_prop(w: PrecedentWeights) -> str:
    """:func:`describe` with the propagation term (``+ prop(doc@0.75, k=50, sum) 0.5``)."""
    text = describe(w) if (w.doc or w.para or w.chunk) else "no text signal"
    return (text + (f" + prop({w.prop_base}, k={w.prop_k}, {w.prop_agg}) {w.prop:g}" if w.prop else "")
            + (f" + rm3(docs={w.rm3_docs}, terms={w.rm3_terms}, orig={w.rm3_orig:g}) {w.rm3:g}" if w.rm3 else ""))


def run_prop(settings, work: Path, *, casebase_dir: Path, folds: int = 5, kind: str = "prop",
             log: Callable[[str], None] = print) -> PropReport:
    """Citation propagation (:func:`bench.precedents.search.propagate`; ``kind =
    "prop"``, grid :func:`prop_grid`) or RM3 feedback (``kind = "rm3"``, :func:`rm3_signals`, grid
    :func:`rm3_grid`) as a further CombSUM signal. The grid on Q1, Q3-Q10 (:func:`map_table`, best MAP, ties to the
    simpler), then the choice scored once on Q11-Q50; after that, reference rows, ``folds``-fold cross-validation
    over Q1, Q3-Q50 (secondary) and the post-hoc oracle on Q11-Q50 (a diagnostic, not a result)."""
    import numpy as np

    if kind not in ("prop", "rm3"):
        raise ValueError(f"unknown kind {kind!r}")
    t0 = time.perf_counter()
    pool, sig = load_or_compute(settings, work, casebase_dir=casebase_dir, log=log)
    chunks = load_or_compute_chunks(settings, work, log=log)
    cited_by = load_or_compute_citation_pairs(settings, work, log=log)
    rm3 = load_or_compute_rm3(settings, work, pool, sig, log=log) if kind == "rm3" else None
    sig = with_extras(sig, chunks, cited_by=cited_by, rm3=rm3)
    qrels = load_qrels(settings.corpus_path, "task1")
    t_load = time.perf_counter() - t0
    g = prop_grid() if kind == "prop" else rm3_grid()
    t1 = time.perf_counter()
    table, qs = map_table(pool, sig, qrels, TUNE_QUERIES, g)
    mean = np.round(table.mean(axis=1), 12)
    i = int(np.argmax(mean))  # the first best: ties go to the simpler
    t_choose = time.perf_counter() - t1
    w = g[i]
    top = tuple((g[j], float(mean[j])) for j in sorted(range(len(g)), key=lambda j: (-mean[j], j))[:5])
    log(f"task1 prop: chose {describe_prop(w)} (train MAP {mean[i]:.4f}, {len(g)} settings, {t_choose:.0f}s)")
    train = evaluate(pool, sig, w, TUNE_QUERIES, qrels, "train")
    if abs(train.metrics["map"] - float(table[i].mean())) > 1e-6:
        raise AssertionError(f"fast MAP {table[i].mean()} != ranx MAP {train.metrics['map']}")
    what = "citation propagation" if kind == "prop" else "RM3"
    test = evaluate(pool, sig, w, TEST_QUERIES, qrels, f"precedents + {what} (chosen): {describe_prop(w)}")
    refs = []
    if w.prop or w.rm3:
        refs.append(evaluate(pool, sig, replace(w, prop=0.0, rm3=0.0), TEST_QUERIES, qrels,
                             f"the choice without {what} (reference)"))
        alone = replace(w, doc=0.0, para=0.0, chunk=0.0, doc_b=0.75, agg="max", prop=1.0 if w.prop else 0.0,
                        rm3=1.0 if w.rm3 else 0.0)
        refs.append(evaluate(pool, sig, alone, TEST_QUERIES, qrels, f"its {what} alone (reference)"))
    else:  # not chosen: the default variant alone, for reference
        alone = PrecedentWeights(doc=0.0, para=0.0, doc_b=0.75, **({"prop": 1.0} if kind == "prop" else {"rm3": 1.0}))
        refs.append(evaluate(pool, sig, alone, TEST_QUERIES, qrels, f"{what} alone, not chosen (reference): "
                                                                     f"{describe_prop(alone)}"))
    t1 = time.perf_counter()
    all_q = [q for q in ALL_QUERIES if q != "AILA_Q2"]
    full, fq = map_table(pool, sig, qrels, all_q, g)
    picks, per = [], {}
    for k in range(folds):
        held = [q for j, q in enumerate(all_q) if j % folds == k]
        rest = [fq.index(q) for q in all_q if q not in held and q in fq]
        best = int(np.argmax(np.round(full[:, rest].mean(axis=1), 12)))
        picks.append(best)
        for q in held:
            per[q] = evaluate(pool, sig, g[best], [q], qrels).metrics
    cv = {m: sum(per[q][m] for q in TEST_QUERIES) / len(TEST_QUERIES) for m in test.metrics}
    t_cv = time.perf_counter() - t1
    tcols = [fq.index(q) for q in TEST_QUERIES if q in fq]
    # a test query without a relevant judgment scores 0 in every setting: the mean over the 40 orders as ranx's
    o = int(np.argmax(np.round(full[:, tcols].sum(axis=1), 12)))
    oracle = evaluate(pool, sig, g[o], TEST_QUERIES, qrels, f"oracle (post-hoc): {describe_prop(g[o])}")
    from .search import propagate

    t_prop = [0.0]
    for q in (TEST_QUERIES if w.prop else ()):
        base = sig["chunk"][q] if w.prop_base == "chunk" else sig["text"][q]["None"][w.prop_base]
        t2 = time.perf_counter()
        propagate(base, sig["cites"], w.prop_k, w.prop_agg)
        t_prop.append(time.perf_counter() - t2)
    graph = (len(cited_by), sum(len(v) for v in cited_by.values()))
    return PropReport(len(g), w, float(mean[i]), top, test, tuple(refs), cv, tuple(g[j] for j in picks), oracle,
                      graph, {"load": t_load, "choose": t_choose, "cv_oracle": t_cv,
                              "prop_p50_ms": sorted(t_prop)[len(t_prop) // 2] * 1000,
                              **({f"rm3_{k}": v for k, v in rm3["seconds"].items()} if rm3 else {})})


__all__ = ["PROP_AGG", "PROP_BASES", "PROP_K", "PropReport", "RM3_DOCS", "RM3_ORIG", "RM3_TERMS", "RM3_VERSION",
           "describe_prop", "load_or_compute_rm3", "prop_grid", "rm3_grid", "rm3_signals", "run_prop"]
