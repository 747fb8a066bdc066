"""Legal tokenizer and BM25 (BL-25, BL-04)."""

from __future__ import annotations

import pytest

from legal_rag.index.sparse import SparseIndex, legal_tokenize


@pytest.mark.parametrize("text,expected", [
    ("", []),
    ("5", ["5"]),
    ("498A", ["498a"]),
    ("Section 498-A", ["498a"]),
    ("498 A", ["498a"]),
    ("s. 498A", ["498a"]),
    ("318(4)", ["318", "318(4)"]),
    ("318 (4)", ["318", "318(4)"]),
    ("318(4).", ["318", "318(4)"]),
    ("s. 302(1)(b)", ["302", "302(1)", "302(1)(b)"]),
    ("3(5)", ["3", "3(5)"]),
    ("65-B", ["65b"]),
    ("(4) Whoever", ["whoever"]),  # a bare (4) is no token: it would match every section
    ("ﬁne", ["fine"]),  # NFKC folds the ligature (BL-04)
])
def test_tokenizer_edge_strings(text, expected):
    assert legal_tokenize(text) == expected


def test_devanagari_is_kept_whole():
    assert legal_tokenize("भारत की पुणे") == ["भारत", "की", "पुणे"]


VARIANTS = {
    "J1": "The accused was charged under Section 498-A for cruelty.",
    "J2": "He was convicted under 498A and the sentence was upheld.",
    "J3": "Offence under 498 A of the Code was made out.",
    "J4": "Charges framed under s. 498A were quashed.",
    "K1": "Cheating is punishable under 318(4) with seven years.",
    "K2": "The charge under 318 (4) was altered.",
    "K3": "Conviction under section 318(4). The appeal failed.",
    "N1": "Sub-section (4) of section 12 applies; see also (4) and (a).",
    "N2": "Section 4 deals with extension of code to extra-territorial offences.",
    "N3": "Section 318 (1) defines cheating.",
}


def test_every_variant_is_a_top_hit():
    idx = SparseIndex.build(list(VARIANTS), list(VARIANTS.values()))
    top = {cid for cid, _ in idx.search("498A", 4)}
    assert top == {"J1", "J2", "J3", "J4"}
    top = [cid for cid, _ in idx.search("318(4)", 3)]
    assert set(top) == {"K1", "K2", "K3"}  # N3 (318(1)) ranks below every 318(4) variant
    for q in ("498-A", "s. 498 A", "Section 498A"):
        assert {cid for cid, _ in idx.search(q, 4)} == {"J1", "J2", "J3", "J4"}


def test_search_returns_only_positive_scores_and_respects_allowed():
    idx = SparseIndex.build(list(VARIANTS), list(VARIANTS.values()))
    assert idx.search("zebra", 5) == []
    assert [c for c, _ in idx.search("498A", 10, allowed={"J2", "K1"})] == ["J2"]


def test_save_and_load(tmp_path):
    idx = SparseIndex.build(list(VARIANTS), list(VARIANTS.values()))
    idx.save(tmp_path / "bm25")
    again = SparseIndex.load(tmp_path / "bm25")
    assert again.search("318(4)", 3) == idx.search("318(4)", 3)


def test_empty_corpus_builds_saves_and_finds_nothing(tmp_path):
    """Every file of a batch failed: bm25s cannot index zero documents, the index must still build (issue 8)."""
    empty = SparseIndex.build([], [])
    assert len(empty) == 0 and empty.search("theft", 5) == []
    empty.save(tmp_path / "bm25")
    again = SparseIndex.load(tmp_path / "bm25")
    assert len(again) == 0 and again.search("theft", 5) == []
