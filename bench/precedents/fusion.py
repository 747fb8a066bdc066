"""AILA 2019 Task 1, precedent search with the chunk-BM25 list and the citation prior as further CombSUM signals
(:func:`run_fusion`), and the vectorised grid evaluation every grid run uses (:class:`Matrix`, :func:`setting_table`,
:func:`map_table`: the same rankings as :func:`bench.precedents.task1.ranking`, tested so).

Protocol: each grid chosen on the training queries Q1, Q3-Q10 only (MAP, ties to the simpler), then scored once on
Q11-Q50; k-fold cross-validation over Q1, Q3-Q50 is a secondary figure (``bench/results.md``).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Mapping, Sequence

from legal_rag.eval.aila import TEST_QUERIES, AilaResult, load_qrels

from .search import DOC_B, PrecedentWeights
from .task1 import (ALL_QUERIES, GRID_AGG, GRID_WEIGHTS, TUNE_QUERIES, cross_validate, describe, evaluate,
                    load_or_compute, load_or_compute_chunks, load_or_compute_citations, section_signal, simplicity,
                    with_extras)


def fused_grid(sections: Sequence[float] = GRID_WEIGHTS, prior: Sequence[float] = (0.0,)) -> list[PrecedentWeights]:
    """The fused grid: every query term, weights :data:`GRID_WEIGHTS` for the whole judgment (each ``b`` of
    :data:`DOC_B`), the paragraphs (max or sum of 3) and the chunk-BM25 list, ``sections`` and ``prior`` weights as
    given; at least one text signal weighted. Holds the chunk list alone and every every-term setting of
    :func:`grid`. Simplest first."""
    out = []
    for d, p, c, sw, pw in itertools.product(GRID_WEIGHTS, GRID_WEIGHTS, GRID_WEIGHTS, sections, prior):
        if d == p == c == 0:
            continue
        for agg in (GRID_AGG if p else ("max",)):
            for b in (DOC_B if d else (0.75,)):
                out.append(PrecedentWeights(doc=d, para=p, sections=sw, agg=agg, top_k=3, terms=None, doc_b=b,
                                            chunk=c, prior=pw))
    return sorted(out, key=simplicity)


def map_table(pool, sig: dict, qrels, queries: Sequence[str], candidates: Sequence[PrecedentWeights]):
    """Average precision (trec_eval's, over the 1,000 best) of every setting on every query with a relevant
    judgment: ``(numpy array [setting, query], [qid])``; rankings from :class:`Matrix` (every query term, equal to
    :func:`ranking`), AP computed here (fast, for grids of ~15,000 settings; equal to ranx's MAP, tested)."""
    import numpy as np

    mat = Matrix(pool, sig, queries)
    qs = [q for q in queries if any(v > 0 for v in qrels[q].values())]
    rel = {q: [mat.pos[c] for c, v in qrels[q].items() if v > 0 and c in mat.pos] for q in qs}
    n_rel = {q: sum(1 for v in qrels[q].values() if v > 0) for q in qs}
    idx = np.arange(len(mat.cases))
    out = np.zeros((len(candidates), len(qs)))
    for i, w in enumerate(candidates):
        for j, q in enumerate(qs):
            total, keep = mat.scores(q, w)
            ranks = []
            for r in rel[q]:  # rank of r in mat.order: cases kept above it (higher score, or equal and before it)
                if keep[r]:
                    ahead = keep & ((total > total[r]) | ((total == total[r]) & (idx < r)))
                    rank = int(ahead.sum()) + 1
                    if rank <= 1000:
                        ranks.append(rank)
            ranks.sort()
            out[i, j] = sum((n + 1) / rk for n, rk in enumerate(ranks)) / n_rel[q]
    return out, qs


class Matrix:
    """Per query, every signal of :func:`ranking` as a max-normalised vector over one case order, so a setting's
    ranking is a weighted sum and one sort (the same CombSUM, signals added in the same order, ties by case id)."""

    def __init__(self, pool, sig: dict, queries: Sequence[str], n_sections: int = 10):
        from .search import max_normalise

        import numpy as np

        self.np = np
        self.cases = sorted(pool.cases)
        self.pos = {c: i for i, c in enumerate(self.cases)}
        self.sig, self.vec = sig, {}
        for q in queries:
            text = sig["text"][q]["None"]
            sigs = {k: v for k, v in text.items()}
            if "chunk" in sig:
                sigs["chunk"] = sig["chunk"][q]
            sigs["sections"] = section_signal(pool, sig, q, n_sections)
            self.vec[q] = {k: self.vector(max_normalise(v)) for k, v in sigs.items()}
        self.prior = sig.get("prior", {})
        self.prop_memo: dict = {}

    def prop_vector(self, q: str, w: PrecedentWeights):
        """:func:`bench.precedents.search.propagate` of the query's ``w.prop_base`` signal, max-normalised,
        as a vector (memoised per query, base, k and aggregation)."""
        from .search import max_normalise, propagate

        key = (q, w.prop_base, w.prop_k, w.prop_agg)
        if key not in self.prop_memo:
            base = self.sig["chunk"][q] if w.prop_base == "chunk" else self.sig["text"][q]["None"][w.prop_base]
            self.prop_memo[key] = self.vector(max_normalise(propagate(base, self.sig["cites"], w.prop_k, w.prop_agg)))
        return self.prop_memo[key]

    def vector(self, scores: Mapping[str, float]):
        v = self.np.zeros(len(self.cases))
        for c, x in scores.items():
            v[self.pos[c]] = x
        return v

    def ranking(self, q: str, w: PrecedentWeights, limit: int = 1000) -> list[str]:
        return [self.cases[i] for i in self.order(q, w, limit)]

    def order(self, q: str, w: PrecedentWeights, limit: int = 1000):
        """:meth:`ranking` as indexes into ``self.cases`` (numpy array)."""
        total, keep = self.scores(q, w)
        idx = self.np.flatnonzero(keep)
        return idx[self.np.lexsort((idx, -total[idx]))][:limit]  # cases are sorted by str: index order = str order

    def scores(self, q: str, w: PrecedentWeights):
        """``(fused score per case, mask of the cases ranked)``, both over ``self.cases``."""
        np = self.np
        if w.terms is not None or w.n_sections != 10:
            raise ValueError("the matrix holds every query term and the 10 best sections only")
        v = self.vec[q]
        doc, para = v[f"doc@{w.doc_b:g}"], v["para_max" if w.agg == "max" else "para_sum"]
        chunk = v["chunk"] if w.chunk else np.zeros(len(self.cases))
        found = (doc > 0) | (para > 0) | (chunk > 0)
        parts = [(doc, w.doc), (para, w.para)]
        if w.sections:
            parts.append((renorm(np.where(found, v["sections"], 0.0)), w.sections))
        if w.chunk:
            parts.append((chunk, w.chunk))
        if w.prior:
            pr = np.where(found, self.vector(self.prior), 0.0) if self.prior else np.zeros(len(self.cases))
            parts.append((renorm(pr), w.prior))
        if w.prop:
            parts.append((self.prop_vector(q, w), w.prop))
        if w.rm3:
            from .search import rm3_key

            parts.append((v[rm3_key(w.rm3_docs, w.rm3_terms, w.rm3_orig)], w.rm3))
        total, keep = np.zeros(len(self.cases)), np.zeros(len(self.cases), dtype=bool)
        for x, wt in parts:
            if wt:
                total = total + wt * x
                keep |= x > 0
        return total, keep


def renorm(v):
    top = v.max() if len(v) else 0.0
    return v / top if top > 0 else v * 0.0


def setting_table(pool, sig: dict, qrels, queries: Sequence[str], candidates: Sequence[PrecedentWeights]
                  ) -> list[dict[str, dict[str, float]]]:
    """As :func:`per_query` (``{qid: {metric: value}}`` per setting, ranx's trec_eval metrics), fast: rankings from
    :class:`Matrix` (every query term only) and one ranx call per setting."""
    from ranx import Qrels, Run, evaluate

    from legal_rag.eval.metrics import AILA_METRICS

    mat = Matrix(pool, sig, queries)
    qr = Qrels({q: dict(qrels[q]) for q in queries if any(v > 0 for v in qrels[q].values())})
    out = []
    for w in candidates:
        run_scores = {}
        for q in qr.keys():
            docs = mat.ranking(q, w)
            run_scores[q] = {d: float(len(docs) - i) for i, d in enumerate(docs)} or {"__none__": 0.0}
        run = Run(run_scores)
        evaluate(qr, run, list(AILA_METRICS), make_comparable=True)
        out.append({q: {m: float(run.scores[m][q]) for m in AILA_METRICS} for q in qr.keys()})
    return out


def choose_from_table(table: Sequence[Mapping[str, Mapping[str, float]]], queries: Sequence[str]) -> int:
    """Index of the setting of best mean MAP over ``queries`` in ``table``; ties (to 1e-9) to the earlier."""
    best, best_v = 0, -1.0
    for i, row in enumerate(table):
        v = sum(row[q]["map"] for q in queries) / len(queries)
        if v > best_v + 1e-9:
            best, best_v = i, v
    return best


@dataclass(frozen=True)
class FusionStep:
    """One candidate system of :func:`run_fusion`: its ``grid`` size, the setting ``chosen`` on
    :data:`TUNE_QUERIES` with its ``train`` figures, and ``test`` (Q11-Q50, read once after the choice)."""

    name: str
    grid: int
    chosen: PrecedentWeights
    train: Mapping[str, float]
    test: AilaResult
    top: tuple[tuple[PrecedentWeights, float], ...]


@dataclass(frozen=True)
class FusionReport:
    """:func:`run_fusion`: the ``steps`` in order; ``cv`` (secondary, k-fold over Q1, Q3-Q50 on the last step's
    grid: ``{metric: mean over Q11-Q50}``, the folds' ``cv_picks``); ``cited``: judgments with an in-citation and
    citing pairs; ``seconds``."""

    steps: tuple[FusionStep, ...]
    cv: Mapping[str, float]
    cv_picks: tuple[PrecedentWeights, ...]
    cited: tuple[int, int]
    seconds: Mapping[str, float]


def mean_of(table_row: Mapping[str, Mapping[str, float]], queries: Sequence[str], m: str = "map") -> float:
    return sum(table_row[q][m] for q in queries) / len(queries)


def run_fusion(settings, work: Path, *, casebase_dir: Path, folds: int = 5, log: Callable[[str], None] = print
               ) -> FusionReport:
    """The fusion runs, in order, each chosen on Q1, Q3-Q10 (:func:`choose_from_table`, ties to the simpler)
    and only then scored on Q11-Q50: (1) :func:`fused_grid` with the chunk-BM25 list (its weight may be the only
    one); (2) the same with the citation prior (weights :data:`GRID_WEIGHTS`; the
    section bonus at 0, plus step 1's choice with each prior weight); then ``folds``-fold cross-validation over
    Q1, Q3-Q50 on step 2's grid (:func:`cross_validate`; a query never chooses its own weights)."""
    t0 = time.perf_counter()
    pool, sig = load_or_compute(settings, work, casebase_dir=casebase_dir, log=log)
    chunks = load_or_compute_chunks(settings, work, log=log)
    counts = load_or_compute_citations(settings, work, log=log)
    sig = with_extras(sig, chunks, counts)
    qrels = load_qrels(settings.corpus_path, "task1")
    t_load = time.perf_counter() - t0
    g1 = fused_grid()
    g2 = fused_grid(sections=(0.0,), prior=GRID_WEIGHTS)
    steps = []
    for name, g in (("+ chunk BM25", g1), ("+ chunk BM25 + citation prior", g2)):
        if steps:  # the previous choice stays in the grid, with every prior weight
            extra = [replace(steps[-1].chosen, prior=p) for p in GRID_WEIGHTS]
            g = sorted(dict.fromkeys(g + extra), key=simplicity)
        t1 = time.perf_counter()
        table = setting_table(pool, sig, qrels, TUNE_QUERIES, g)
        i = choose_from_table(table, TUNE_QUERIES)
        top = sorted(range(len(g)), key=lambda j: (-mean_of(table[j], TUNE_QUERIES), j))[:5]
        w = g[i]
        train = {m: mean_of(table[i], TUNE_QUERIES, m) for m in ("map", "precision@10", "mrr")}
        log(f"task1 fusion {name}: chose {describe(w)} (train MAP {train['map']:.4f}, {len(g)} settings, "
            f"{time.perf_counter() - t1:.0f}s)")
        test = evaluate(pool, sig, w, TEST_QUERIES, qrels, f"precedents {name} (chosen): {describe(w)}")
        steps.append(FusionStep(name, len(g), w, train, test,
                                tuple((g[j], mean_of(table[j], TUNE_QUERIES)) for j in top)))
    t1 = time.perf_counter()
    qs = [q for q in ALL_QUERIES if q != "AILA_Q2"]
    table = setting_table(pool, sig, qrels, qs, g)
    cv, picks = cross_validate(table, qs, folds=folds)
    cv_mean = {m: sum(cv[q][m] for q in TEST_QUERIES) / len(TEST_QUERIES) for m in ("map", "precision@10", "bpref", "mrr")}
    cited = (sum(1 for v in counts.values() if v), sum(counts.values()))
    return FusionReport(tuple(steps), cv_mean, tuple(g[i] for i in picks), cited,
                        {"load": t_load, "cv": time.perf_counter() - t1})


__all__ = ["FusionReport", "FusionStep", "Matrix", "choose_from_table", "fused_grid", "map_table", "run_fusion",
           "setting_table"]
