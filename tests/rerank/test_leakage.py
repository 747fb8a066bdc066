"""Train/test leakage guard: AILA test queries Q11-Q50 and every dev question never reach training."""

from __future__ import annotations

import json

import pytest

from legal_rag.config import Settings
from legal_rag.eval.aila import TEST_QUERIES, TRAIN_QUERIES, load_queries
from legal_rag.rerank.training.data import Group, LeakageError, assert_no_leak, devset_files, leaks, load_forbidden


@pytest.fixture(scope="module")
def corpus():
    return Settings().corpus_path


@pytest.fixture(scope="module")
def forbidden(corpus):
    return load_forbidden(corpus)


def test_forbidden_holds_every_test_query_and_dev_question(corpus, forbidden):
    queries = load_queries(corpus)
    files = devset_files()
    assert any(f.name == "devset.jsonl" and f.parent.name == "bench" for f in files)
    dev = [json.loads(x)["question"] for f in files for x in f.read_text().splitlines() if x.strip()]
    assert len(dev) >= 40
    for q in TEST_QUERIES:
        assert leaks(queries[q], forbidden), q
    for d in dev:
        assert leaks(d, forbidden), d
    assert forbidden.aila_ids == frozenset(TEST_QUERIES)


def test_training_queries_and_near_copies(corpus, forbidden):
    queries = load_queries(corpus)
    # AILA_Q2 (training) and AILA_Q50 (test) describe the same appeal (word-set Jaccard 0.89): Q2 must go too; and
    # every training query that a dev file uses as a question (the fact-pattern set bench/factset.jsonl takes
    # AILA Q1, Q3-Q10 as long statements) is held out of training from then on
    dev = [json.loads(x)["question"] for f in devset_files() for x in f.read_text().splitlines() if x.strip()]
    in_dev = {q for q in TRAIN_QUERIES if any(" ".join(d.split()[:60]) in " ".join(queries[q].split()) for d in dev)}
    assert [q for q in TRAIN_QUERIES if leaks(queries[q], forbidden)] == sorted(
        {"AILA_Q2"} | in_dev, key=TRAIN_QUERIES.index)
    window = " ".join(queries["AILA_Q23"].split()[40:140])  # a window of a test query
    assert leaks(window, forbidden)
    dev = json.loads((devset_files()[0]).read_text().splitlines()[0])["question"]
    assert leaks(dev.upper() + "?", forbidden)
    assert leaks("the " + dev, forbidden)
    assert leaks("Punishment for murder", forbidden)  # a dev question
    assert not leaks("Sense of expression once explained", forbidden)


def test_assert_no_leak_raises_on_test_query_or_test_source(corpus, forbidden):
    queries = load_queries(corpus)
    ok = Group("The accused took the land of his brother by a forged sale deed", "p", ("n",), "charge:x")
    assert_no_leak([ok], forbidden)
    with pytest.raises(LeakageError):
        assert_no_leak([ok, Group(queries["AILA_Q11"], "p", ("n",), "x")], forbidden)
    with pytest.raises(LeakageError):
        assert_no_leak([Group("harmless words here", "p", ("n",), "aila:AILA_Q40:S2")], forbidden)


@pytest.mark.slow
def test_built_groups_use_no_held_out_query(corpus, forbidden):
    from legal_rag.rerank.training.groups import build_groups

    groups = build_groups(corpus, limits={"aila": 1000, "charge": 0, "title": 0, "illustration": 0, "bprd": 1000})
    srcs = {g.source.split(":")[1] for g in groups if g.source.startswith("aila:")}
    assert srcs and srcs <= set(TRAIN_QUERIES)
    assert any(g.source.startswith("bprd:") for g in groups)
    assert not any(leaks(g.query, forbidden) for g in groups)
    rows = {g.source.split(":")[1] for g in groups if g.source.startswith("bprd:")}
    assert not rows & forbidden.rows  # BPR&D rows the dev set was written from are skipped
