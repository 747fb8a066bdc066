"""The question set kept for the ranker's next fit (``bench/ranker/train_charges.jsonl``)
stays fit to join ``legal_rag/rank/data/``: each line reads as an example, every gold names a provision the Acts
hold, and none retells a story a measured question was written from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.ranker.leakage import shares_a_story
from legal_rag.config import Settings
from legal_rag.law import load_concordance
from legal_rag.rank import OTHER, read_examples

WAITING = (Path(__file__).resolve().parents[2] / "bench" / "ranker" / "train_charges.jsonl",)


@pytest.mark.parametrize("path", WAITING, ids=lambda p: p.name)
def test_a_waiting_set_reads_and_names_real_provisions(path):
    examples = read_examples([path])
    assert len(examples) >= 100
    sections = load_concordance(Settings().corpus_path).sections
    for e in examples:
        for g in e.gold:
            assert sections.exists(g.act, g.section), (e.id, str(g))
    # an asked set holds questions outside the corpus too; a set written from charged facts holds none
    assert any(e.label.startswith(OTHER) for e in examples) == path.name.startswith("ask_")


@pytest.mark.parametrize("path", WAITING, ids=lambda p: p.name)
def test_a_waiting_set_retells_no_measured_story(path):
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    assert not shares_a_story(rows)
