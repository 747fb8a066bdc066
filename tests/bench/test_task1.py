"""AILA Task 1 precedent search: the weight grid and the choice rule (unit), and a smoke test on the first 300 AILA
judgments (real corpus): the chosen weights are not below plain BM25 over paragraphs on the training queries."""

from __future__ import annotations

import pytest

from legal_rag.types import Judgment, Paragraph

from bench.precedents import TUNE_QUERIES, PrecedentIndex, PrecedentWeights, choose, cross_validate, grid, ranking


def test_tuning_queries_leave_out_q2_and_every_test_query():
    assert "AILA_Q2" not in TUNE_QUERIES and len(TUNE_QUERIES) == 9
    assert all(int(q.split("Q")[1]) <= 10 for q in TUNE_QUERIES)


def test_grid_is_simplest_first_and_every_setting_has_a_text_signal():
    g = grid()
    assert len(g) == len(set(g)) and all(w.doc or w.para for w in g)
    assert g[0].sections == 0 and (g[0].doc == 0 or g[0].para == 0) and g[0].terms is None
    n_signals = [sum(1 for x in (w.doc, w.para, w.sections) if x) for w in g]
    assert n_signals == sorted(n_signals)
    assert PrecedentWeights() in g


def _pool():
    js = [Judgment(case_id=c, title=c, court="SC", date="", source=f"{c}.txt") for c in ("C1", "C2", "C3")]
    ps = [Paragraph("C1", "1", "knife stab murder", "x", (0, 0)), Paragraph("C2", "1", "cheque bounce", "x", (0, 0)),
          Paragraph("C3", "1", "murder appeal knife", "x", (0, 0))]
    return PrecedentIndex.build(js, ps)


def test_choose_picks_the_better_setting_and_breaks_ties_to_the_earlier():
    pool = _pool()
    sig = {"text": {"Q": {"None": {"doc@0": {"C1": 1.0, "C3": 2.0}, "doc@0.3": {"C1": 1.0, "C3": 2.0},
                                   "doc@0.75": {"C1": 1.0, "C3": 2.0},
                                   "para_max": {"C1": 3.0, "C3": 1.0}, "para_sum": {"C1": 3.0, "C3": 1.0}}}},
           "profile": {"Q": []}}
    qrels = {"Q": {"C1": 1, "C2": 0, "C3": 0}}
    doc, para = PrecedentWeights(doc=1.0, para=0.0), PrecedentWeights(doc=0.0, para=1.0)
    assert ranking(pool, sig, "Q", doc) == ["C3", "C1"] and ranking(pool, sig, "Q", para) == ["C1", "C3"]
    c = choose(pool, sig, qrels, ["Q"], [doc, para])
    assert c.weights == para and c.train_map == pytest.approx(1.0) and c.tried == 2
    # equal figures: the earlier (simpler) one stays
    tie = choose(pool, sig, qrels, ["Q"], [para, PrecedentWeights(doc=0.0, para=0.5)])
    assert tie.weights == para


def test_cross_validation_never_lets_a_query_choose_its_own_setting():
    # setting 0 is best on q0 and q2 only, setting 1 on q1 and q3; with two folds (q0, q2) and (q1, q3) each fold
    # takes the setting the other fold prefers
    m = lambda v: {"map": v, "precision@10": 0.0, "bpref": 0.0, "mrr": v}  # noqa: E731
    table = [{"q0": m(1.0), "q1": m(0.0), "q2": m(1.0), "q3": m(0.0)},
             {"q0": m(0.0), "q1": m(0.5), "q2": m(0.0), "q3": m(0.5)}]
    got, picks = cross_validate(table, ["q0", "q1", "q2", "q3"], folds=2)
    assert picks == [1, 0]
    assert got["q0"]["map"] == 0.0 and got["q1"]["map"] == 0.0
    with pytest.raises(ValueError):
        cross_validate(table, ["q0"], folds=2)


@pytest.mark.slow
def test_chosen_weights_not_below_paragraph_bm25_on_training_queries_of_300_judgments(real_settings):
    from legal_rag.eval.aila import load_casedocs, load_qrels, load_queries, score

    judgments, paras = load_casedocs(real_settings.corpus_path, 300)
    pool = PrecedentIndex.build(judgments, paras)
    texts, qrels = load_queries(real_settings.corpus_path), load_qrels(real_settings.corpus_path, "task1")
    held = set(pool.cases)
    q300 = {q: {d: r for d, r in qrels[q].items() if d in held} for q in TUNE_QUERIES}
    assert all(any(q300[q].values()) for q in TUNE_QUERIES)  # the training gold lies in the first 300

    def run(w):
        return {q: [c for c, _ in pool.search(texts[q], w, limit=300)] for q in TUNE_QUERIES}

    chosen = score("task1", "chosen", run(PrecedentWeights()), q300, TUNE_QUERIES).metrics["map"]
    bm25 = score("task1", "bm25", run(PrecedentWeights(doc=0.0, para=1.0)), q300, TUNE_QUERIES).metrics["map"]
    assert chosen >= bm25, (chosen, bm25)


def test_fused_grid_holds_the_chunk_list_alone_and_the_earlier_every_term_settings():
    from bench.precedents import fused_grid

    g = fused_grid()
    assert len(g) == len(set(g)) and all(w.doc or w.para or w.chunk for w in g)
    assert PrecedentWeights(doc=0.0, para=0.0, chunk=0.25, doc_b=0.75) in g  # chunk BM25 alone (the 0.1504 row)
    assert {w for w in grid() if w.terms is None} <= set(g)  # chunk weight 0: the earlier grid's every-term part
    assert all(w.prior == 0 for w in g)
    gp = fused_grid(sections=(0.0,), prior=(0.0, 0.5))
    assert {w.prior for w in gp} == {0.0, 0.5} and all(w.sections == 0 for w in gp)


def test_setting_table_ranks_as_ranking_does():
    from bench.precedents import Matrix, choose_from_table, setting_table, with_extras

    pool = _pool()
    text = {"doc@0": {"C1": 1.0, "C3": 2.0}, "doc@0.3": {"C1": 1.0, "C3": 2.0}, "doc@0.75": {"C3": 2.0},
            "para_max": {"C1": 3.0, "C3": 1.0}, "para_sum": {"C1": 3.0, "C2": 0.5}}
    sig = with_extras({"text": {"Q": {"None": text}}, "profile": {"Q": []}},
                      {"chunk": {"Q": {"C2": 4.0, "C3": 1.0}}}, {"C1": 0, "C2": 3, "C3": 1})
    qrels = {"Q": {"C1": 0, "C2": 1, "C3": 0}}
    cands = [PrecedentWeights(doc=1.0, para=0.0, doc_b=0.75), PrecedentWeights(doc=0.5, para=0.5, agg="sum"),
             PrecedentWeights(doc=0.0, para=0.25, chunk=1.0), PrecedentWeights(doc=1.0, para=0.0, prior=1.0),
             PrecedentWeights(doc=0.25, para=1.0, agg="sum", chunk=0.5, prior=0.5, doc_b=0.3)]
    mat = Matrix(pool, sig, ["Q"])
    for w in cands:
        assert mat.ranking("Q", w) == ranking(pool, sig, "Q", w)
    table = setting_table(pool, sig, qrels, ["Q"], cands)
    assert table[0]["Q"]["map"] == 0.0  # C2 absent from the doc@0.75 list
    assert table[2]["Q"]["map"] == pytest.approx(1.0)  # chunk puts C2 first
    assert choose_from_table(table, ["Q"]) == 2


def _prop_sig():
    from bench.precedents import with_extras

    text = {"doc@0": {"C1": 1.0, "C3": 2.0}, "doc@0.3": {"C1": 1.0, "C3": 2.0}, "doc@0.75": {"C3": 2.0, "C1": 0.5},
            "para_max": {"C1": 3.0, "C3": 1.0}, "para_sum": {"C1": 3.0, "C2": 0.5}}
    # C3 cites C2, C1 cites C3 and C2
    return with_extras({"text": {"Q": {"None": text}}, "profile": {"Q": []}},
                       {"chunk": {"Q": {"C2": 4.0, "C3": 1.0}}}, cited_by={"C2": ["C1", "C3"], "C3": ["C1"]})


def test_map_table_with_propagation_ranks_and_scores_as_ranking_and_ranx_do():
    from bench.precedents import Matrix, map_table, setting_table

    pool, sig = _pool(), _prop_sig()
    qrels = {"Q": {"C1": 0, "C2": 1, "C3": 0}}
    cands = [PrecedentWeights(doc=1.0, para=0.0, doc_b=0.75),
             PrecedentWeights(doc=0.5, para=0.0, doc_b=0.75, prop=1.0, prop_base="doc@0.75", prop_k=1),
             PrecedentWeights(doc=0.5, para=0.5, agg="sum", prop=0.25, prop_base="chunk", prop_k=2, prop_agg="max"),
             PrecedentWeights(doc=0.0, para=0.0, doc_b=0.75, prop=1.0, prop_base="doc@0", prop_k=50),
             PrecedentWeights(doc=0.25, para=1.0, chunk=0.5, doc_b=0.3, prop=0.5, prop_base="doc@0", prop_k=1)]
    mat = Matrix(pool, sig, ["Q"])
    for w in cands:
        assert mat.ranking("Q", w) == ranking(pool, sig, "Q", w), w
    fast, qs = map_table(pool, sig, qrels, ["Q"], cands)
    slow = setting_table(pool, sig, qrels, ["Q"], cands)
    assert qs == ["Q"] and list(fast[:, 0]) == pytest.approx([row["Q"]["map"] for row in slow])
    assert fast[0, 0] == 0.0  # C2 is in no doc@0.75 list
    # the best doc@0.75 judgment, C3, cites C2: propagation (1.0) ranks C2 above C3 (0.5) and C1 (0.125)
    assert mat.ranking("Q", cands[1]) == ["C2", "C3", "C1"] and fast[1, 0] == pytest.approx(1.0)


def test_prop_grid_holds_the_text_grid_unchanged_and_propagation_alone():
    from bench.precedents import PROP_BASES, PROP_K, fused_grid, prop_grid

    g = prop_grid()
    text = fused_grid(sections=(0.0,))
    assert len(g) == len(set(g)) and set(text) <= set(g)
    assert [w for w in g if not w.prop] == text  # weight 0: the earlier grid, same order
    alone = [w for w in g if w.prop and not (w.doc or w.para or w.chunk)]
    assert len(alone) == len(PROP_BASES) * len(PROP_K) * 2 * 3
    n_signals = [sum(1 for x in (w.doc, w.para, w.chunk, w.prop) if x) for w in g]
    assert n_signals == sorted(n_signals)


@pytest.mark.slow
def test_rm3_and_propagation_on_300_aila_judgments(real_settings):
    """Real corpus, first 300 AILA judgments: the weighted BM25 of RM3 with no feedback (original weight 1) ranks as
    plain whole-judgment BM25 does; with feedback it keeps every query term, adds at most ``fb_terms`` terms and
    changes the ranking; propagation over the judgments' own citations scores only cited judgments, each by the
    scores of the judgments citing it."""
    from legal_rag.eval.aila import load_casedocs, load_queries
    from legal_rag.index.sparse import legal_tokenize
    from bench.precedents import citation_pairs, citing_map, max_normalise, propagate, rm3_weights, top_idf_terms

    judgments, paras = load_casedocs(real_settings.corpus_path, 300)
    pool = PrecedentIndex.build(judgments, paras)
    query = load_queries(real_settings.corpus_path)["AILA_Q1"]
    toks = top_idf_terms(legal_tokenize(query), pool.term_idf(), None)
    plain = pool.text_signals(query)["doc@0.75"]
    same = pool.weighted_doc_bm25(rm3_weights(toks, [], orig=1.0))
    a, b = max_normalise(plain), max_normalise(same)
    assert set(a) == set(b) and all(abs(a[c] - b[c]) < 1e-5 for c in a)
    body: dict[str, list[str]] = {}
    for p in paras:
        body.setdefault(p.case, []).append(p.text)
    top = sorted(plain, key=lambda c: -plain[c])[:5]
    wts = rm3_weights(toks, [(legal_tokenize("\n".join(body[c])), plain[c]) for c in top], fb_terms=20, orig=0.5)
    assert set(toks) <= set(wts) and len(set(wts) - set(toks)) <= 20 and sum(wts.values()) == pytest.approx(1.0)
    expanded = pool.weighted_doc_bm25(wts)
    order = lambda s: sorted(s, key=lambda c: (-s[c], c))[:20]  # noqa: E731
    assert order(expanded) != order(plain)
    cited_by = citation_pairs({j.case_id: j.title for j in judgments}, {c: "\n".join(t) for c, t in body.items()})
    assert cited_by  # some of the 300 name another
    prop = propagate(plain, citing_map(cited_by), k=300)
    norm = max_normalise(plain)
    assert prop and set(prop) <= set(cited_by)
    for c, v in prop.items():
        assert v == pytest.approx(sum(norm.get(d, 0.0) for d in cited_by[c] if d != c))
