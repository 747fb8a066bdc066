"""Compact passage windows for the LLM prompt (legal_rag.generate.window, issue 17): verbatim sub-section windows
chosen by the question, on inline passages and on the real BNS / IPC prints."""

import pytest

from legal_rag.config import load_settings
from legal_rag.generate.prompt import build_prompt
from legal_rag.generate.window import WINDOW_GAP, passage_window

from .fakes import BNS_103, BNS_318, IPC_420, cheating_hits, judgment, statute

CHEAT_318 = statute("BNS", "318", "Cheating.", BNS_318)


def pieces(window: str) -> list[str]:
    return [p.strip() for p in window.replace(WINDOW_GAP, "\n").split("\n") if p.strip()]


def test_punishment_question_keeps_the_punishing_sub_section_verbatim():
    w = passage_window(CHEAT_318, "punishment for cheating and dishonestly inducing delivery of property")
    assert "(4) Whoever cheats and thereby dishonestly induces" in w and "seven years" in w
    assert "(2) Whoever cheats shall be punished" not in w  # two of three: (1) and (4) match best
    assert WINDOW_GAP in w and len(w) < len(BNS_318)
    assert all(p in BNS_318 for p in pieces(w))  # nothing rewritten: every line is the passage's own


def test_a_sub_section_the_question_names_is_the_one_shown():
    w = passage_window(CHEAT_318, "What does BNS 318(2) provide?")
    assert w.startswith("(2) Whoever cheats shall be punished") and "(4)" not in w and "(1)" not in w


def test_short_passages_and_sections_without_sub_sections_stay_whole():
    assert passage_window(statute("IPC", "420", "Cheating.", IPC_420), "punishment for cheating") == IPC_420
    assert passage_window(statute("BNS", "103", "Murder.", BNS_103), "punishment for murder") == BNS_103
    long_420 = " ".join([IPC_420] * 4)  # no printed sub-sections: nothing to cut at
    assert passage_window(statute("IPC", "420", "Cheating.", long_420), "cheating") == long_420


def test_a_judgment_keeps_its_best_sentences_in_order():
    text = " ".join(f"Sentence {i} is about the weather and the monsoon in the district." for i in range(8))
    text += " The High Court held that dishonest inducement at the inception is an ingredient of cheating."
    w = passage_window(judgment("CASE1", "A v. B", text), "is dishonest inducement an ingredient of cheating")
    assert "dishonest inducement at the inception" in w and len(w) < len(text)
    assert all(p in text for p in pieces(w))


def test_the_compact_prompt_is_shorter_and_keeps_every_passage():
    s = load_settings()
    q = "punishment for cheating and dishonestly inducing delivery of property"
    compact, whole = build_prompt(q, cheating_hits(), s.prompts_dir), build_prompt(q, cheating_hits(), s.prompts_dir,
                                                                                 compact=False)
    assert len(compact.text) < len(whole.text) and compact.passages == whole.passages
    assert compact.messages[0] == whole.messages[0]  # one system message for every question (prefix cache)


@pytest.mark.slow
def test_real_sections_are_cut_at_their_printed_sub_sections(real_index):
    from legal_rag.law.pinpoint import chunk_layout

    # the BNS 318 chunk printing (2) and (3) after the end of (1): cut for a question about (3)'s words
    c = next(c for c in real_index.by_ref("BNS", "318") if [d.sub for d in chunk_layout(c).subs][:2] == ["2", "3"])
    named = passage_window(c, "What does BNS 318(3) say?")
    assert named.lstrip().startswith("(3)") and "(2) Whoever" not in named and len(named) < len(c.text)
    assert all(p in c.text for p in pieces(named))
    # every chunk of long sections: windows are the chunk's own lines, never longer than the chunk
    for act, section, q in (("BNS", "318", "punishment for cheating"), ("BNS", "64", "punishment for rape"),
                            ("BNS", "303", "punishment for theft")):
        chunks = real_index.by_ref(act, section)
        assert len(chunks) > 1, (act, section)
        for c in chunks:
            w = passage_window(c, q)
            assert len(w) <= len(c.text) and all(p in c.text for p in pieces(w))
