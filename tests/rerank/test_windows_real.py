"""Max over windows on a long real section: BNS s.2 (Definitions, ~3,000 model tokens, from
``statutes/structured/bns_sections_kaggle_cmrit.csv``). Its clause (31) "valuable security" sits ~83% of the way
in, far past the first 512-token window, so a scorer that truncates cannot see it."""

from __future__ import annotations

import logging

import pytest

from legal_rag.types import passage_text

from .conftest import chunk_of, fused

pytestmark = pytest.mark.slow
QUERY = "what is the meaning of valuable security"


def test_bns2_is_long_and_the_definition_is_late(bns, fresh_ce):
    text = passage_text(chunk_of(bns["BNS 2"]))
    n = len(fresh_ce.model.tokenizer(text, add_special_tokens=False)["input_ids"])
    assert n > 2500
    assert "valuable security" not in fresh_ce.model.tokenizer.decode(
        fresh_ce.model.tokenizer(text, add_special_tokens=False)["input_ids"][:1000])


def test_ce_pairs_fit_the_window_and_cover_the_passage(bns, fresh_ce):
    text = passage_text(chunk_of(bns["BNS 2"]))
    pairs, owner = fresh_ce.pairs(QUERY, [text, "short passage"])
    tok = fresh_ce.model.tokenizer
    assert owner.count(0) >= 6 and owner.count(1) == 1
    for q, p in pairs:
        assert q == QUERY  # the query is never cut
        assert len(tok(q, p)["input_ids"]) <= fresh_ce.window
    pieces = [p for (q, p), o in zip(pairs, owner) if o == 0]
    assert any("valuable security" in p and "legal right is created" in p for p in pieces)
    assert text.startswith(pieces[0]) and text.endswith(pieces[-1])


def test_ce_score_is_the_max_over_windows(bns, fresh_ce):
    text = passage_text(chunk_of(bns["BNS 2"]))
    pairs, owner = fresh_ce.pairs(QUERY, [text])
    per_window = fresh_ce.score(QUERY, [p for _, p in pairs])
    whole = fresh_ce.score(QUERY, [text])[0]
    assert whole == pytest.approx(max(per_window), abs=1e-4)


def test_long_query_is_windowed_with_a_warning_not_cut(fresh_ce, caplog):
    query = " ".join(f"fact{i} happened" for i in range(400))  # ~1,200 tokens
    with caplog.at_level(logging.WARNING, logger="legal_rag.rerank"):
        pairs, _ = fresh_ce.pairs(query, ["BNS 303: Theft"])
    assert len(pairs) >= 4 and "max over" in caplog.text
    qs = [q for q, _ in pairs]
    assert qs[0].startswith("fact0 ") and qs[-1].endswith("fact399 happened")


def test_maxsim_ranks_the_long_definition_section_first(bns, maxsim):
    """The shortlist a retriever gives for the query: sections that *use* the term (forgery of a valuable
    security, cheating) and the definitions section that *defines* it, last in the fused order."""
    keys = ["BNS 338", "BNS 318", "BNS 336", "BNS 3", "BNS 2"]
    hits = fused([chunk_of(bns[k]) for k in keys])
    out = maxsim.rerank(QUERY, hits, top_k=5, rerank_candidates=5)
    assert out[0].chunk.ref.section == "2"
    assert out[0].stage.startswith("rerank:maxsim")


def test_maxsim_truncated_section_would_not_be_found(bns, maxsim):
    """Evidence that the windows matter: BNS 2 cut to its first window scores below the whole section."""
    doc = bns["BNS 2"]
    first = " ".join(doc.text.split()[:150])
    whole = maxsim.score(QUERY, fused([chunk_of(doc)])).scores[0]
    cut = maxsim.score(QUERY, fused([chunk_of(doc, first)])).scores[0]
    assert whole > cut
