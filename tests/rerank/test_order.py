"""The shortlist order changes where the evidence says it should (real BNS text, MaxSim over MiniLM tokens)."""

from __future__ import annotations

import pytest

from .conftest import chunk_of, fused

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("query,keys,want", [
    # the theft definition word for word, fused behind cheating and criminal breach of trust
    ("taking movable property out of a person's possession without consent dishonestly",
     ["BNS 318", "BNS 316", "BNS 303"], "303"),
    # a wife treated with cruelty by her husband's relatives: BNS 85, fused behind dowry death and abetment
    ("husband or relative of the husband of a woman subjecting her to cruelty",
     ["BNS 80", "BNS 108", "BNS 85"], "85"),
])
def test_maxsim_moves_the_right_section_up(bns, maxsim, query, keys, want):
    hits = fused([chunk_of(bns[k]) for k in keys])
    assert hits[-1].chunk.ref.section == want
    out = maxsim.rerank(query, hits, top_k=3, rerank_candidates=3)
    assert out[0].chunk.ref.section == want
    assert [h.rank for h in out] == [1, 2, 3]
