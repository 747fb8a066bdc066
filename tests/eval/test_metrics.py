"""Metric wrappers (ranx) against values worked out by hand with trec_eval definitions."""

from __future__ import annotations

import pytest

from legal_rag.eval.metrics import evaluate_run


def test_trec_definitions_by_hand():
    qrels = {"q1": {"a": 1, "b": 0, "c": 1}, "q2": {"x": 1}}
    run = {"q1": ["b", "a", "d"], "q2": []}
    m = evaluate_run(qrels, run, ["map", "precision@10", "bpref", "mrr", "recall@5"])
    # q1: AP = (1/2)/2 = 0.25, q2 retrieves nothing: 0
    assert m["map"] == pytest.approx(0.125)
    assert m["precision@10"] == pytest.approx(0.05)
    assert m["mrr"] == pytest.approx(0.25)
    assert m["recall@5"] == pytest.approx(0.25)
    # q1: a is preceded by one judged non-relevant (b), R = 2, N = 1 -> 1 - 1/1 = 0; c not retrieved
    assert m["bpref"] == pytest.approx(0.0)


def test_perfect_run_and_query_without_relevant_docs():
    qrels = {"q1": {"a": 1, "b": 1}, "q0": {"z": 0}}
    m = evaluate_run(qrels, {"q1": ["a", "b"]}, ["map", "ndcg@10", "mrr"])
    assert m == {"map": 1.0, "ndcg@10": 1.0, "mrr": 1.0}  # q0 has no relevant doc: dropped as in trec_eval
    with pytest.raises(ValueError):
        evaluate_run({"q0": {"z": 0}}, {}, ["map"])
