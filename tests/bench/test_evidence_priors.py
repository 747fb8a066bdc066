"""The grid of ``bench/evidence_priors.py``: which questions it measures and how it scores the evidence."""

from __future__ import annotations

import json

import pytest

from legal_rag.retrieve.evidence import EvidenceParams
from legal_rag.types import StatuteRef

from bench.evidence_priors import questions, score, section_of
from tests.casebase_fake import OneCase


def test_questions_keep_new_code_golds_at_section_level(tmp_path):
    f = tmp_path / "set.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in [
        {"question": "a", "gold": ["BNS 303(2)"]},
        {"question": "b", "gold": ["BNS 82(1)", "IPC 494"], "gold_new": ["BNS 82(1)"]},
        {"question": "c", "gold": []},  # outside the corpus: not measured
        {"question": "d", "gold": ["IPC 420"]},  # no new-code gold: not measured
    ]) + "\n")
    assert questions(f) == [("a", frozenset({StatuteRef("BNS", "303")})), ("b", frozenset({StatuteRef("BNS", "82")}))]
    assert section_of("BNSS 187(3)") == StatuteRef("BNSS", "187")


class Table:
    """IPC 420 -> BNS 318 (the one row the fake case base's cite needs)."""

    def successors(self, ref):
        return type("C", (), {"targets": (StatuteRef("BNS", "318", ("4",)),)})()


def test_score_is_the_reciprocal_rank_of_the_first_gold_and_splits_offences_from_procedure():
    items = [("cheated me", frozenset({StatuteRef("BNS", "318")})),  # the evidence's first section: RR 1
             ("no bail", frozenset({StatuteRef("BNSS", "480")}))]    # not in the evidence: RR 0
    got = score(items, OneCase(), Table(), EvidenceParams())
    assert got["n"] == 2 and got["mrr"] == pytest.approx(0.5) and got["hit5"] == pytest.approx(0.5)
    assert got["BNS mrr"] == 1.0 and got["BNSS+BSA mrr"] == 0.0 and got["BNSS+BSA n"] == 1
