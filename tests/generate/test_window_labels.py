"""``legal_rag.generate.window`` (``shown_texts``, ``shown_sub``) and ``build_prompt``'s labels and numbering: once the
repeated lead of a chunk is cut, a proviso, Explanation or clause of the open sub-section left in front of the next
marker is not labelled with the next sub-section ("BNSS 479(2)" over 479(1)'s third proviso); a repeat whose
showing passage is dropped for the token budget is still shown or dropped with it; a lead is not cut because another
sub-section prints the same words (BNSS 419); every [n] of the prompt is the n-th of ``build.passages``.

The ``real_`` tests read chunks of the session's real-corpus index (``real_index``, slow)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from legal_rag.config import load_settings
from legal_rag.generate.prompt import build_prompt, passage_label
from legal_rag.generate.window import shown_sub, shown_texts
from legal_rag.types import Hit

from tests.generate.fakes import BNS_304, hits, judgment, statute
from tests.real_chunks import part


# (act, section, the chunk shown, the chunk before it, question or None for whole passages, the wrong label)
MISLABELS = [
    # 479(1)'s third proviso (detention never beyond the maximum term) and Explanation, then (2): labelled 479(2)
    pytest.param("BNSS", "479", 1, 0, None, "2", id="BNSS-479(1)-proviso-as-(2)"),
    # 480(1)'s proviso (no bail without hearing the Public Prosecutor for death/life/7 years), then (2)
    pytest.param("BNSS", "480", 2, 1, None, "2", id="BNSS-480(1)-proviso-as-(2)"),
    # 189(1)(e) and 189(1)'s Explanation, then (2): labelled 189(2)
    pytest.param("BNS", "189", 1, 0, "Unlawful assembly.", "2", id="BNS-189(1)(e)-as-(2)"),
    # 8(5)(c) "one year in any other case", then (6): labelled 8(6)
    pytest.param("BNS", "8", 3, 2, None, "6", id="BNS-8(5)(c)-as-(6)"),
]

@pytest.mark.slow
@pytest.mark.parametrize("act, section, k, prev, question, wrong", MISLABELS)
def test_real_the_mislabelled_passages_show_text_of_the_sub_section_before(real_index, act, section, k, prev,
                                                                          question, wrong):
    """Precondition of the test below: what the passage shows (its repeated lead cut) begins with text printed
    before its marker ``(wrong)``: a proviso, Explanation or clause of the sub-section before."""
    c, p = part(real_index, act, section, k), part(real_index, act, section, prev)
    shown = shown_texts([c, p], question)[0]
    marker = re.search(rf"(?m)^\({wrong}\)\s", shown)
    assert marker and shown[:marker.start()].strip(), shown[:200]
    assert shown[:marker.start()].strip()[:60] in c.text

@pytest.mark.slow
@pytest.mark.parametrize("act, section, k, prev, question, wrong", MISLABELS)
def test_real_a_passage_showing_two_sub_sections_gets_no_single_label(real_index, act, section, k, prev, question,
                                                                    wrong):
    c, p = part(real_index, act, section, k), part(real_index, act, section, prev)
    shown = shown_texts([c, p], question)[0]
    assert shown_sub(c, shown) != wrong, passage_label(c, shown_sub(c, shown))

@pytest.mark.slow
def test_real_the_prompt_no_longer_labels_479_1_s_proviso_as_2(real_index):
    """Guard (end to end, through ``shown_sub``): BNSS 479's second chunk, its lead cut, shows
    479(1)'s third proviso and (2): it is labelled "BNSS 479", so rule 7 gives the model no "(2)" to copy."""
    c, p = part(real_index, "BNSS", "479", 1), part(real_index, "BNSS", "479", 0)
    build = build_prompt("How long can an undertrial be detained?", [Hit(c, 1.0, "rrf", 1), Hit(p, 0.9, "rrf", 2)],
                         load_settings().prompts_dir, compact=False)
    assert "[1] BNSS 479(2) " not in build.messages[1][1] and "[1] BNSS 479 " in build.messages[1][1]

@pytest.mark.slow
def test_real_passages_of_one_sub_section_or_none_are_labelled_right(real_index):
    """Guards: BNS 316's last chunk (the tail of (3), then (4) and (5)) shown whole is labelled BNS 316, not
    316(5); shown for a (4)-and-(5) question, neither; a judgment and an IPC section without sub-sections never get
    a sub-section label; BNS 308's chunk that opens in (5) and prints (6) gets none."""
    c6 = part(real_index, "BNS", "316", 6)
    assert shown_sub(c6, c6.text) is None
    t = shown_texts([c6], "criminal breach of trust by a clerk or servant or by a banker or agent punishment")[0]
    assert "(4) Whoever" in t and "(5) Whoever" in t and shown_sub(c6, t) is None
    c308 = part(real_index, "BNS", "308", 3)
    assert shown_sub(c308, c308.text) is None
    for act, section in (("IPC", "420"), ("IPC", "302"), ("IPC", "307")):
        for c in real_index.by_ref(act, section):
            assert shown_sub(c, c.text) is None and passage_label(c, shown_sub(c, c.text)).startswith(f"{act} {section} ")
    j = judgment("caseA", "A v. State", "(1) The appellant was convicted.\n(2) The appeal is dismissed.")
    assert shown_sub(j, j.text) is None

TAIL_109 = ("caused to any person by such act, the offender\nshall be liable either to imprisonment for life, or to such "
            "punishment as is hereinbefore\nmentioned.")
OPEN_109 = ("109. (1) Whoever does any act with such intention or knowledge, and under such circumstances that, if he "
            "by that act caused death, he would be guilty of murder, shall be punished with imprisonment of either "
            "description for a term which may extend to ten years, and shall also be liable to fine; and if hurt is\n"
            + TAIL_109)

def _tail_and_first():
    at = OPEN_109.index(TAIL_109)  # the chunker's overlap, by position in the section (Chunk.span)
    tail = dataclasses.replace(statute("BNS", "109", "Attempt to murder.", TAIL_109), id="BNS-109-1-test", part=1,
                               meta=(("open", "1"),), span=(at, at + len(TAIL_109)))
    first = dataclasses.replace(statute("BNS", "109", "Attempt to murder.", OPEN_109), span=(0, len(OPEN_109)))
    return tail, first, statute("BNS", "304", "Snatching.", BNS_304)

def _words(messages):
    return sum(len(c.split()) for _, c in messages)

def test_a_repeat_whose_showing_passage_is_dropped_for_the_budget_is_shown_or_dropped():
    tail, first, other = _tail_and_first()
    q, pdir = "attempt to commit murder", load_settings().prompts_dir
    whole = build_prompt(q, hits(tail, other, first), pdir)
    assert [h.chunk.id for h in whole.repeats] == [tail.id]  # the rule works when nothing is dropped
    build = build_prompt(q, hits(tail, other, first), pdir, count_tokens=_words, budget=_words(whole.messages) - 5)
    assert [h.chunk.id for h in build.dropped] == [first.id]
    shown_ids = {h.chunk.id for h in build.passages}
    assert all(any(s.chunk.ref.section == r.chunk.ref.section and s.chunk.id in shown_ids for s in build.passages)
               for r in build.repeats)

@pytest.mark.slow
def test_real_a_lead_printed_by_another_sub_section_is_not_cut(real_index):
    c, other = part(real_index, "BNSS", "419", 2), part(real_index, "BNSS", "419", 0)
    assert c.text.startswith("any Court other than a High Court")
    shown = shown_texts([c, other], None)
    assert shown[0].startswith("any Court other than a High Court"), shown[0][:80]

@pytest.mark.slow
def test_real_prompt_numbers_follow_build_passages_with_repeats_and_budget(real_index):
    """Guard: with a repeat left out and passages dropped for the budget, every [n] of the prompt is the n-th of
    ``build.passages``, labelled as that chunk, and ``build.numbers`` is 1..n."""
    c109 = real_index.by_ref("BNS", "109")
    pool = [c109[1], part(real_index, "BNS", "305", 0), c109[0], part(real_index, "BNS", "316", 6),
            part(real_index, "BNS", "318", 4), part(real_index, "IPC", "420", 0)]
    pdir = load_settings().prompts_dir
    for q in ("attempt to commit murder", "criminal breach of trust by a banker", None):
        for budget in (None, 400, 250):
            kw = {} if budget is None else {"count_tokens": _words, "budget": budget}
            build = build_prompt(q or "cheating", [Hit(c, 1.0, "rrf", i) for i, c in enumerate(pool, 1)], pdir,
                                 compact=q is not None, **kw)
            user = build.messages[1][1]
            heads = re.findall(r"(?m)^\[(\d+)\] (.*?) - ", user)
            assert [int(n) for n, _ in heads] == list(range(1, len(build.passages) + 1)) == list(build.numbers)
            for (n, label), h in zip(heads, build.passages):
                assert label.startswith(str(h.chunk.ref)), (n, label, h.chunk.id)
            assert len(build.passages) + len(build.dropped) + len(build.repeats) == len(pool)
