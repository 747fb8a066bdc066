"""The source set written from the charge-identification training facts (``bench/ranker/train_charges.jsonl``,
``bench/ranker/charge_questions.py``): every row is the builder's, its gold is its fact's labels through the BPR&D
tables, and nothing of the benchmark's test facts is in it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "bench" / "ranker" / "train_charges.jsonl"


@pytest.fixture(scope="module")
def built():
    sys.path.insert(0, str(ROOT / "bench"))
    from bench.ranker import charge_questions as cq
    from build_factset import _Sources

    src = _Sources()
    retold = [json.loads(x) for x in cq.RETELLINGS.read_text(encoding="utf-8").splitlines() if x.strip()]
    return cq, src, cq.rows(src, retold)


def _shipped() -> list[dict]:
    return [json.loads(x) for x in SHIPPED.read_text(encoding="utf-8").splitlines() if x.strip()]


def test_every_shipped_row_is_the_builders(built):
    _, _, rows = built
    made = {r["id"]: r for r in rows}
    shipped = _shipped()
    assert len(shipped) >= 200
    for r in shipped:  # the leakage guard may only leave rows out, never change one
        assert made[r["id"]] == r


def test_the_gold_is_the_facts_labels_through_the_tables(built):
    cq, src, _ = built
    facts = {fid: rec for (name, fid), (_, rec) in src.facts.items() if name == cq.TRAIN}
    murder = [r for r in _shipped() if "murder" in facts[r["source"].split()[-1]]["doc_labels"]]
    assert murder and all({"BNS 101", "BNS 103(1)"} <= set(r["gold"]) for r in murder)  # IPC 300 and 302
    for r in _shipped():
        rec = facts[r["source"].split()[-1]]
        gold, _ = cq.gold_of(src, rec)
        assert r["gold"] == gold and r["act"] == "BNS" and not r["out_of_corpus"]


def test_printed_facts_are_whole_and_never_a_case_base_copy(built):
    cq, src, _ = built
    from build_factset import CASEBASE_COPIES

    facts = {fid: rec for (name, fid), (_, rec) in src.facts.items() if name == cq.TRAIN}
    printed = [r for r in _shipped() if r["length"] == "printed"]
    assert len(printed) >= 50
    for r in printed:
        fid = r["source"].split()[-1]
        assert fid not in CASEBASE_COPIES and r["question"] == " ".join(facts[fid]["text"])
    retold = [r for r in _shipped() if r["length"] != "printed"]
    assert not {r["source"].split()[-1] for r in retold} & set(cq.NOT_RETOLD)
    assert all(len(r["question"].split()) <= cq.SHORT_WORDS for r in retold if r["length"] == "short")


def test_only_training_facts_are_used(built):
    _, src, _ = built
    test_ids = {fid for name, fid in src.facts if name == "Test-Doc.jsonl"}
    assert len(test_ids) > 50
    for r in _shipped():
        assert r["source"].startswith("charge_identification Train-Sent factid ")
        assert r["source"].split()[-1] not in test_ids
