"""Unit tests of precedent search's fusion, aggregation, term cut-off and section overlap, and of a small pool."""

from __future__ import annotations

import math

import pytest

from legal_rag.types import Judgment, Paragraph, StatuteRef

from bench.precedents import (PrecedentIndex, PrecedentWeights, aggregate, combsum, fuse_signals, max_normalise,
                              pool_cites, section_overlap, top_idf_terms, weighted_rrf)

IPC302, IPC34, IPC420 = StatuteRef("IPC", "302"), StatuteRef("IPC", "34"), StatuteRef("IPC", "420")


def test_max_normalise_best_is_one_and_drops_non_positive():
    assert max_normalise({"a": 4.0, "b": 2.0, "c": 0.0, "d": -1.0}) == {"a": 1.0, "b": 0.5}
    assert max_normalise({"a": 0.0}) == {}


def test_combsum_weight_zero_signal_changes_nothing():
    strong = {"a": 10.0, "b": 5.0, "c": 1.0}
    weak = {"c": 100.0, "z": 50.0}
    assert combsum([strong, weak], [1.0, 0.0]) == combsum([strong], [1.0])
    assert [k for k, _ in combsum([strong, weak], [1.0, 0.0])] == ["a", "b", "c"]


def test_combsum_is_scale_free_and_weighted():
    a, b = {"x": 1.0, "y": 0.5}, {"y": 300.0, "x": 30.0}
    got = dict(combsum([a, b], [1.0, 1.0]))
    assert got["x"] == pytest.approx(1.0 + 0.1) and got["y"] == pytest.approx(0.5 + 1.0)
    # scaling one signal by a constant changes nothing
    scaled = combsum([a, {k: v / 7 for k, v in b.items()}], [1.0, 1.0])
    assert [k for k, _ in scaled] == ["y", "x"] and dict(scaled) == pytest.approx(got)
    # a small weight on the second lets the first lead
    assert combsum([a, b], [1.0, 0.25])[0][0] == "x"


def test_combsum_ties_by_key_and_errors():
    assert [k for k, _ in combsum([{"b": 1.0, "a": 1.0}], [1.0])] == ["a", "b"]
    with pytest.raises(ValueError):
        combsum([{"a": 1.0}], [1.0, 2.0])
    with pytest.raises(ValueError):
        combsum([{"a": 1.0}], [-1.0])


def test_weighted_rrf():
    got = dict(weighted_rrf([["a", "b"], ["b"]], [1.0, 2.0], rrf_k=60))
    assert got["a"] == pytest.approx(1 / 61) and got["b"] == pytest.approx(1 / 62 + 2 / 61)
    # weight 0: the list does not vote
    assert weighted_rrf([["a", "b"], ["b", "c"]], [1.0, 0.0]) == weighted_rrf([["a", "b"]], [1.0])
    with pytest.raises(ValueError):
        weighted_rrf([["a"]], [1.0], rrf_k=0)


def test_aggregate_max_and_sum_of_top_k():
    hits = [("C1", 5.0), ("C2", 4.0), ("C1", 3.0), ("C1", 2.0), ("C2", 0.0), ("C1", 1.0)]
    assert aggregate(hits, "max") == {"C1": 5.0, "C2": 4.0}
    assert aggregate(hits, "sum", top_k=3) == {"C1": 10.0, "C2": 4.0}
    assert aggregate(hits, "sum", top_k=1) == aggregate(hits, "max")
    with pytest.raises(ValueError):
        aggregate(hits, "mean")
    with pytest.raises(ValueError):
        aggregate(hits, "sum", top_k=0)


def test_top_idf_terms_keeps_rarest_distinct_terms_with_repeats():
    idf = {"murder": 3.0, "court": 0.1, "knife": 2.0, "appeal": 0.5}
    toks = ["court", "murder", "knife", "court", "murder", "unknown", "appeal"]
    assert top_idf_terms(toks, idf, 2) == ["murder", "knife", "murder"]
    assert top_idf_terms(toks, idf, None) == ["court", "murder", "knife", "court", "murder", "appeal"]


def test_section_overlap():
    idf = {IPC302: 2.0, IPC34: 0.5}
    assert section_overlap({IPC302: 1.0}, {IPC302: 4, IPC34: 4}, idf) == pytest.approx(2.0)
    # a section cited once among many counts sqrt(1/4)
    assert section_overlap({IPC302: 1.0}, {IPC302: 1, IPC34: 4}, idf) == pytest.approx(1.0)
    assert section_overlap({IPC420: 1.0}, {IPC302: 3}, idf) == 0.0
    assert section_overlap({}, {IPC302: 3}, idf) == 0.0


def _pool():
    js = [Judgment(case_id=c, title=c, court="SC", date="", source=f"{c}.txt") for c in ("C1", "C2", "C3")]
    ps = [Paragraph("C1", "1", "the accused stabbed the deceased with a knife", "x", (0, 0), cites=(IPC302,)),
          Paragraph("C1", "2", "conviction under section 302 upheld", "x", (0, 0), cites=(IPC302, IPC34)),
          Paragraph("C2", "1", "the cheque was dishonoured and money was cheated", "x", (0, 0), cites=(IPC420,)),
          Paragraph("C3", "1", "a land dispute over a boundary wall", "x", (0, 0)),
          Paragraph("C3", "2", "the knife was not recovered", "x", (0, 0))]
    return js, ps


def test_pool_build_search_and_round_trip(tmp_path):
    js, ps = _pool()
    pool = PrecedentIndex.build(js, ps)
    assert pool.cites["C1"] == {IPC302: 2, IPC34: 1} and pool.cites["C3"] == {}
    assert pool.section_idf[IPC302] == pytest.approx(math.log(1 + 3 / 1))
    got = pool.search("stabbed with a knife", PrecedentWeights(doc=1.0, para=0.0, doc_b=0.75))
    assert got[0][0] == "C1" and {c for c, _ in got} == {"C1", "C3"}
    sig = pool.text_signals("stabbed with a knife")
    assert set(sig) == {"doc@0", "doc@0.3", "doc@0.75", "para_max", "para_sum"}
    assert sig["para_sum"]["C1"] >= sig["para_max"]["C1"]
    # the section signal re-orders only judgments a text signal found
    ranked = fuse_signals(sig, pool.section_signal({IPC420: 1.0, IPC302: 0.5}), PrecedentWeights(doc=1.0,
                                                                                              sections=1.0))
    assert "C2" not in [c for c, _ in ranked]
    pool.save(tmp_path / "p")
    again = PrecedentIndex.open(tmp_path / "p")
    assert again.cases == pool.cases and again.cites == pool.cites
    assert again.search("stabbed with a knife") == pool.search("stabbed with a knife")


def test_section_weight_lifts_the_judgment_citing_the_query_sections():
    js, ps = _pool()
    pool = PrecedentIndex.build(js, ps)
    q = "knife"  # both C1 and C3 hold it
    base = [c for c, _ in pool.search(q, PrecedentWeights(doc=1.0, para=0.0, doc_b=0.75))]
    lifted = [c for c, _ in pool.search(q, PrecedentWeights(doc=1.0, para=0.0, sections=1.0, doc_b=0.75), profile={IPC302: 1.0})]
    assert set(base) == {"C1", "C3"} and lifted[0] == "C1"


def test_pool_cites_maps_new_code_cites_to_old_era_by_the_table():
    from legal_rag.law import load_concordance

    conc = load_concordance()
    ps = [Paragraph("X", "1", "convicted under section 103 BNS", "x", (0, 0), cites=(StatuteRef("BNS", "103"),))]
    got = pool_cites(["X"], None, ps, concordance=conc, era="old")
    assert IPC302 in got["X"], got


def test_doc_b_zero_does_not_normalise_by_length():
    js = [Judgment(case_id=c, title=c, court="SC", date="", source=f"{c}.txt") for c in ("S", "L")]
    filler = " ".join(f"word{i}" for i in range(200))
    ps = [Paragraph("S", "1", "bail granted", "x", (0, 0)),
          Paragraph("L", "1", f"bail granted {filler} bail", "x", (0, 0))]
    pool = PrecedentIndex.build(js, ps)
    sig = pool.text_signals("bail")
    # full normalisation favours the short judgment, none favours the one that says "bail" twice
    assert sig["doc@0.75"]["S"] > sig["doc@0.75"]["L"] and sig["doc@0"]["L"] > sig["doc@0"]["S"]
    assert pool.search("bail", PrecedentWeights(doc=1.0, para=0.0, doc_b=0.0))[0][0] == "L"
