"""RRF and list hygiene: edge cases and field cases BL-19, BL-20, BL-22."""

from __future__ import annotations

import pytest

from legal_rag.retrieve.fusion import cap_per_doc, dedupe, rrf
from legal_rag.types import Chunk, Hit, StatuteRef

from tests.statutes import BNS_85

CRUELTY = str(BNS_85)


def chunk(cid, text="t", act="BNS", section="1", case=None):
    if case:
        return Chunk(id=cid, kind="judgment", text=text, title=case, source=f"{case}.txt", pages=(1, 1), case=case)
    return Chunk(id=cid, kind="statute", text=text, title="", source=f"{act}.pdf", pages=(1, 1), ref=StatuteRef(act, section))


def hits(chunks, stage="dense", scores=None):
    return [Hit(c, (scores[i] if scores else 1.0 - i / 100), stage, i + 1) for i, c in enumerate(chunks)]


def test_empty_and_single_lists():
    assert rrf([]) == [] and rrf([[], []]) == []
    a, b = chunk("A"), chunk("B")
    out = rrf([hits([a, b])], rrf_k=60)
    assert [h.chunk.id for h in out] == ["A", "B"]
    assert out[0].score == pytest.approx(1 / 61) and out[1].score == pytest.approx(1 / 62)
    assert [h.rank for h in out] == [1, 2] and {h.stage for h in out} == {"rrf"}


def test_ranks_are_one_based_and_sum_over_lists():
    a, b, c = chunk("A"), chunk("B"), chunk("C")
    out = rrf([hits([a, b]), hits([b, c], "sparse")], rrf_k=60)
    assert out[0].chunk.id == "B" and out[0].score == pytest.approx(1 / 62 + 1 / 61)


def test_list_without_positive_evidence_does_not_vote():
    a, b = chunk("A"), chunk("B")
    zero = hits([b, a], "sparse", scores=[0.0, 0.0])  # BM25 with no query term in any document
    assert [h.chunk.id for h in rrf([hits([a, b]), zero])] == ["A", "B"]
    assert rrf([zero]) == []


def test_duplicate_ids_in_one_list_count_once():
    a, b = chunk("A"), chunk("B")
    out = rrf([hits([a, a, a, b])])
    assert [h.chunk.id for h in out] == ["A", "B"] and out[1].score == pytest.approx(1 / 62)
    assert [h.chunk.id for h in dedupe(hits([a, a, b]))] == ["A", "B"]


def test_ties_break_deterministically_and_order_of_lists_does_not_matter():
    a, b = chunk("A"), chunk("B")
    l1, l2 = hits([a]), hits([b], "sparse")
    assert [h.chunk.id for h in rrf([l1, l2])] == [h.chunk.id for h in rrf([l2, l1])] == ["A", "B"]


def test_identical_text_in_two_acts_stays_two_hits_with_their_metadata():
    """BL-19: IPC 498A and BNS 85 word for word; BM25 finds one, the vector search the other."""
    ipc, bns = chunk("IPC-498A-0-aaaa", CRUELTY, "IPC", "498A"), chunk("BNS-85-0-bbbb", CRUELTY, "BNS", "85")
    out = rrf([hits([ipc], "sparse"), hits([bns], "dense")])
    assert {(h.chunk.ref.act, h.chunk.ref.section, h.chunk.id) for h in out} == {
        ("IPC", "498A", "IPC-498A-0-aaaa"), ("BNS", "85", "BNS-85-0-bbbb")}


def test_full_copy_wins_over_stub_whatever_the_order():
    """BL-22: the same id arrives as full text from BM25 and as a heading-only stub from the vector search."""
    full, stub = chunk("BNS-318-0-x", "(4) Whoever cheats and thereby dishonestly induces ..."), chunk("BNS-318-0-x", "Cheating.")
    a = rrf([hits([full], "sparse"), hits([stub], "dense")])
    b = rrf([hits([stub], "dense"), hits([full], "sparse")])
    assert a == b and a[0].chunk.text.startswith("(4) Whoever")


def test_many_chunks_of_one_judgment_do_not_drown_the_statute():
    """BL-20: a judgment with 12 chunks all citing Section 420 against the single statute chunk."""
    judgment = [chunk(f"C1-{i}-x", "convicted under Section 420", case="C1") for i in range(12)]
    statute = chunk("IPC-420-0-y", "Whoever cheats ...", "IPC", "420")
    dense = hits(judgment[:6] + [statute] + judgment[6:])
    sparse = hits(judgment + [statute], "sparse")
    capped = [cap_per_doc(dedupe(l), 3) for l in (dense, sparse)]
    fused = rrf(capped)
    assert [h.chunk.id for h in fused].index("IPC-420-0-y") <= 3
    assert sum(1 for h in capped[0] if h.chunk.case == "C1") == 3


def test_bad_arguments():
    with pytest.raises(ValueError):
        rrf([[]], rrf_k=0)
    with pytest.raises(ValueError):
        rrf([[], []], weights=[1.0])
