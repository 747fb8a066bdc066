"""Training data built from real sources: charge -> IPC -> BNS, illustrations, passages."""

from __future__ import annotations

import pytest

from legal_rag.config import Settings
from legal_rag.law import load_concordance
from legal_rag.rerank.training.data import ipc_docs, split_illustrations
from legal_rag.rerank.training.groups import charge_sections, query_windows, successors


@pytest.fixture(scope="module")
def corpus():
    return Settings().corpus_path


def test_charges_map_to_their_ipc_sections_and_bns_successors(corpus):
    charge = charge_sections(corpus, ipc_docs(corpus))
    assert charge["theft"][0] == "IPC 378"
    assert charge["cheating"][0] == "IPC 415"
    assert charge["cruelty by husband"] == ["IPC 498A"]
    assert "IPC 141" in charge["unlawful assembly"]
    conc = load_concordance(corpus)
    assert successors(["IPC 420"], conc) == ["BNS 318"]  # BPR&D row #453: 420 -> 318(4)
    assert successors(["IPC 498A"], conc) == ["BNS 85", "BNS 86"]


def test_illustrations_are_split_from_the_body(bns):
    body, ills = split_illustrations(bns["BNS 303"].text)
    assert len(ills) >= 5 and "Illustration" not in body
    assert ills[0].startswith("A cuts down a tree")
    assert split_illustrations("no illustrations here")[1] == []


def test_passage_masks_title_and_caps_words(bns):
    d = bns["BNS 318"]
    assert d.passage().startswith("BNS 318 (Bharatiya Nyaya Sanhita, 2023): Cheating")
    assert d.passage(mask_title=True).split("\n")[0] == "BNS 318 (Bharatiya Nyaya Sanhita, 2023)"
    assert len(d.passage().split("\n", 1)[1].split()) <= 150


def test_query_windows_cover_long_fact_statements():
    text = " ".join(f"w{i}" for i in range(250))
    wins = query_windows(text, size=100, overlap=20)
    assert wins[0].split()[0] == "w0" and wins[-1].split()[-1] == "w249"
    assert all(len(w.split()) <= 100 for w in wins)
