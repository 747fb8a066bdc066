"""The AILA side of section finding on the real corpus: which real section each anonymised AILA statute is (the
DERIVED csv, then exact titles of the IPC/CrPC/IEA), and how a case-base evidence list becomes an S-id ranking."""

from __future__ import annotations

import pytest

from legal_rag.config import Settings
from legal_rag.eval.sectionfind import StatuteMap, aila_statute_map, task2_run
from legal_rag.retrieve.evidence import EvidenceParams
from legal_rag.retrieve.sectionfind import FusionWeights
from legal_rag.types import StatuteRef

from tests.casebase_fake import OneCase


@pytest.fixture(scope="module")
def smap():
    s = Settings()
    if not (s.corpus_path / "benchmarks" / "aila2019").is_dir():
        pytest.skip("AILA 2019 data not found")
    return aila_statute_map(s.corpus_path)


def test_statute_map_from_csv_and_exact_titles(smap):
    assert smap.refs["S20"] == StatuteRef("IPC", "420") and smap.origin["S20"] == "derived_csv"
    assert smap.refs["S2"] == StatuteRef("IPC", "302")
    # "Murder" is IPC 300's title and no other section's; "Definitions" (S67) is shared by several: left out
    assert smap.refs["S43"] == StatuteRef("IPC", "300") and smap.origin["S43"] == "title"
    assert "S67" in smap.unmatched
    assert "S1" in smap.unmatched  # Article 226 of the Constitution: not one of the six codes
    assert sum(v == "derived_csv" for v in smap.origin.values()) == 58
    assert len(smap.refs) + len(smap.unmatched) == 197


def test_task2_run_puts_evidence_first_then_direct():
    m = StatuteMap({"S20": StatuteRef("IPC", "420")}, {"S20": "derived_csv"}, ("S1",))
    cb = OneCase()
    direct = ["S1", "S7", "S20"]
    run = task2_run("facts", direct, cb, m, FusionWeights(direct=0.3, rrf_k=5), EvidenceParams())
    assert run[0] == "S20" and sorted(run) == sorted(direct)
    assert task2_run("facts", direct, cb, m, FusionWeights(evidence=0.0), EvidenceParams()) == direct
