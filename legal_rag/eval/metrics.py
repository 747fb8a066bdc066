"""Ranking metrics through ranx (trec_eval definitions), never home-made.

``evaluate_run(qrels, run, metrics)``: ``qrels`` ``{qid: {doc: relevance}}`` (relevance 0 = judged
non-relevant, used by BPREF), ``run`` ``{qid: [doc, ...]}`` best first. Returns ``{metric: mean over queries}``.
Metric names are ranx's: ``map``, ``precision@10``, ``bpref``, ``mrr``, ``recall@5``, ``ndcg@10``.
A query with no relevant document in ``qrels`` is dropped (as trec_eval does); a query the run misses scores 0.
"""

from __future__ import annotations

from typing import Mapping, Sequence

AILA_METRICS = ("map", "precision@10", "bpref", "mrr")
DEV_METRICS = ("recall@5", "ndcg@10", "mrr")


def evaluate_run(qrels: Mapping[str, Mapping[str, int]], run: Mapping[str, Sequence[str]],
                 metrics: Sequence[str]) -> dict[str, float]:
    from ranx import Qrels, Run, evaluate

    qrels = {q: dict(d) for q, d in qrels.items() if any(v > 0 for v in d.values())}
    if not qrels:
        raise ValueError("no query with a relevant document in qrels")
    run_scores = {}
    for q in qrels:
        docs = list(dict.fromkeys(run.get(q, ())))
        # ranx ranks by score: strictly decreasing scores keep our order; an empty run gets a dummy miss
        run_scores[q] = {d: float(len(docs) - i) for i, d in enumerate(docs)} or {"__none__": 0.0}
    res = evaluate(Qrels(qrels), Run(run_scores), list(metrics), make_comparable=True)
    if isinstance(res, float):
        res = {metrics[0]: res}
    return {m: float(res[m]) for m in metrics}
