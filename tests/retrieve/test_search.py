"""Hybrid search over a real small index: section look-ups, filters, field cases BL-19 and BL-20."""

from __future__ import annotations

import pytest

from legal_rag.retrieve import Filters, query_refs, retrieve, search


@pytest.mark.parametrize("query,act,section", [
    ("IPC 420", "IPC", "420"), ("s. 498-A", "IPC", "498A"), ("BNS 318(4)", "BNS", "318"),
    ("what does Section 406 IPC say", "IPC", "406")])
def test_named_section_comes_first(small_index, query, act, section):
    idx, s = small_index
    top = retrieve(query, idx, s)[0]
    assert (top.chunk.ref.act, top.chunk.ref.section, top.stage) == (act, section, "lookup")


def test_subsection_lookup_prefers_the_chunk_holding_it(small_index):
    idx, s = small_index
    top = retrieve("BNS 318(4)", idx, s)[0]
    assert "4" in dict(top.chunk.meta).get("subs", "").split(",")


def test_natural_language_question_finds_the_section(small_index):
    idx, s = small_index
    hits = retrieve("punishment for cheating and dishonestly inducing delivery of property", idx, s)
    refs = [(h.chunk.ref.act, h.chunk.ref.section) for h in hits[:5] if h.chunk.ref]
    assert ("IPC", "420") in refs or ("BNS", "318") in refs


def test_identical_text_of_two_acts_keeps_both_with_their_acts(small_index):
    """BL-19 end to end: the two chunks carry the same words; both come back, each with its own Act."""
    idx, s = small_index
    hits = search("husband subjecting his wife to cruelty", idx, s, limit=10)
    got = {(h.chunk.ref.act, h.chunk.ref.section) for h in hits if h.chunk.ref}
    assert {("IPC", "498A"), ("BNS", "85")} <= got
    by_act = {h.chunk.ref.act: h.chunk for h in hits if h.chunk.ref and h.chunk.ref.section in ("498A", "85")}
    assert by_act["IPC"].source == "ipc.pdf" and by_act["BNS"].source == "bns.pdf"


def test_long_judgment_does_not_drown_the_statute(small_index):
    """BL-20: 12 judgment chunks mention Section 420; the statute still ranks at or near the top, even without
    the section look-up, and the judgment holds at most MAX_PER_DOC places per list."""
    idx, s = small_index
    hits = search("conviction for cheating under section 420", idx, s, lookup=False, limit=10)
    ids = [h.chunk.id for h in hits]
    statute = [i for i, h in enumerate(hits) if h.chunk.ref and h.chunk.ref.section in ("420", "318")]
    assert statute and statute[0] <= 3, ids
    assert sum(1 for h in hits if h.chunk.case == "C900") <= 6  # at most 3 from each of the two lists


def test_filters_apply_to_every_route(small_index):
    idx, s = small_index
    for mode in ("dense", "sparse", "hybrid"):
        hits = search("cheating punishment", idx, s, mode=mode, filters={"act": "BNS"}, limit=20)
        assert hits and all(h.chunk.ref and h.chunk.ref.act == "BNS" for h in hits), mode
    old = search("IPC 420 cheating", idx, s, filters=Filters(code="new"), limit=20)
    assert all(h.chunk.ref.act == "BNS" for h in old if h.chunk.ref)  # the look-up obeys the filter too
    judg = search("appellant convicted", idx, s, filters={"kind": "judgment", "year_from": 1990}, limit=5)
    assert judg and all(h.chunk.case == "C900" for h in judg)
    assert search("appellant convicted", idx, s, filters={"kind": "judgment", "year_from": 2000}) == ()


def test_modes_and_stages(small_index):
    idx, s = small_index
    for mode, stage in (("dense", "dense"), ("sparse", "sparse"), ("hybrid", "rrf")):
        hits = search("theft of movable property", idx, s, mode=mode, lookup=False, limit=5)
        assert hits and {h.stage for h in hits} == {stage} and [h.rank for h in hits] == list(range(1, len(hits) + 1))
        assert all(a.score >= b.score for a, b in zip(hits, hits[1:]))


def test_mmr_keeps_the_same_hits_in_another_order(small_index):
    idx, s = small_index
    plain = search("cruelty by husband", idx, s, lookup=False, limit=8)
    div = search("cruelty by husband", idx, s, lookup=False, limit=8, mmr_lambda=0.3)
    assert {h.chunk.id for h in div} <= {h.chunk.id for h in search("cruelty by husband", idx, s, lookup=False, limit=50)}
    assert div[0].chunk.id == plain[0].chunk.id


def test_query_refs_read_by_the_law_grammar():
    assert query_refs("punishment under IPC 420") == [("IPC", "420", ())]
    assert query_refs("s. 498-A") == [("IPC", "498A", ())]  # no Act named: every Act that has a 498A
    assert query_refs("BNS 318(4)") == [("BNS", "318", ("4",))]
    assert query_refs("a fine of 1,000 rupees") == [] and query_refs("what is 302") == []
    assert query_refs("Article 21 of the Constitution") == []  # an Article, not a section of any Act


def test_hyde_text_feeds_the_dense_retriever_only(small_index):
    """HyDE (Gao et al. 2022) embeds a hypothetical passage; a section number it invents ("IPC 506") must never be
    looked up or BM25-matched: look-up and BM25 read the question itself."""
    idx, s = small_index
    question = "punishment for murder"
    invented = question + "\nUnder IPC 506 and BNS 351 whoever commits criminal intimidation shall be punished."
    plain = retrieve(question, idx, s)
    hyde = retrieve(question, idx, s, dense_query=invented)
    assert not [h for h in hyde if h.stage == "lookup"]
    wrong = retrieve(invented, idx, s)  # what the old wiring did: the invented sections come first, as look-ups
    assert {(h.chunk.ref.act, h.chunk.ref.section) for h in wrong if h.stage == "lookup"} >= {("IPC", "506")}
    assert [h.chunk.id for h in hyde] != [h.chunk.id for h in plain]  # the dense list did change
