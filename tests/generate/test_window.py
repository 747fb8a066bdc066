"""Compact passage windows for the LLM prompt (legal_rag.generate.window, issue 17): verbatim sub-section windows
chosen by the question, chunk overlap shown once, a passage showing one sub-section labelled with it; on inline
passages and on the real BNS / IPC prints."""

import pytest

from legal_rag.config import load_settings
from legal_rag.generate.prompt import build_prompt
import dataclasses

from legal_rag.generate.prompt import passage_label
from legal_rag.types import StatuteRef
from legal_rag.generate.window import WINDOW_GAP, passage_window, shown_sub, shown_texts

from .fakes import BNS_103, BNS_318, IPC_420, cheating_hits, judgment, statute
from tests.statutes import BNS_318_2, BNS_318_4

CHEAT_318 = statute("BNS", "318", "Cheating.", BNS_318)


def pieces(window: str) -> list[str]:
    return [p.strip() for p in window.replace(WINDOW_GAP, "\n").split("\n") if p.strip()]


def test_punishment_question_keeps_the_punishing_sub_section_verbatim():
    w = passage_window(CHEAT_318, "punishment for cheating and dishonestly inducing delivery of property")
    assert BNS_318_4.upto("dishonestly induces") in w and "seven years" in w
    assert BNS_318_2.upto("shall be punished") not in w  # two of three: (1) and (4) match best
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


# BNS 109 as the real chunker splits it: the second chunk opens with the tail of (1), repeated from the first
OPEN_109 = ("109. (1) Whoever does any act with such intention or knowledge, and under such circumstances that, if he "
            "by that act caused death, he would be guilty of murder, shall be punished with imprisonment of either "
            "description for a term which may extend to ten years, and shall also be liable to fine; and if hurt is\n"
            "caused to any person by such act, the offender\nshall be liable either to imprisonment for life, or to "
            "such punishment as is hereinbefore\nmentioned.")
TAIL_109 = ("caused to any person by such act, the offender\nshall be liable either to imprisonment for life, or to such "
            "punishment as is hereinbefore\nmentioned.")
SUB2_109 = ("\n(2) When any person offending under sub-section (1) is under sentence of imprisonment for life, he may, "
            "if hurt is caused, be punished with death or with imprisonment for life.")


def part(c, k, open_="", start=0):
    """``c`` as part ``k`` of its section, beginning at ``start`` of the section text (its ``span``)."""
    return dataclasses.replace(c, id=f"{c.ref.act}-{c.ref.section}-{k}-test", part=k,
                               meta=(("open", open_),) if open_ else (), span=(start, start + len(c.text)))


def test_chunk_overlap_is_shown_once_and_a_passage_with_nothing_else_is_left_out():
    first = part(statute("BNS", "109", "Attempt to murder.", OPEN_109), 0)
    at = OPEN_109.index(TAIL_109)  # the chunker's overlap: the second chunk begins inside (1)
    tail_only = part(statute("BNS", "109", "Attempt to murder.", TAIL_109), 1, "1", at)
    tail_and_2 = part(statute("BNS", "109", "Attempt to murder.", TAIL_109 + SUB2_109), 1, "1", at)
    q = "attempt to commit murder"
    assert shown_texts([tail_only, first], q) == ["", OPEN_109]
    shown = shown_texts([tail_and_2, first], q)
    assert shown[0].startswith("(2) When any person") and "caused to any person" not in shown[0]
    # alone, or beside another section's passage, nothing is left out: the model sees the tail nowhere else
    other = statute("BNS", "110", "Attempt to commit culpable homicide.", TAIL_109)
    assert shown_texts([tail_only], q) == [TAIL_109] and shown_texts([tail_only, other], q)[0] == TAIL_109
    # the same words printed elsewhere in the section (not where the chunk begins) are no repeat
    elsewhere = part(statute("BNS", "109", "Attempt to murder.", "(3) " + TAIL_109), 2, "", at + 2000)
    assert shown_texts([tail_only, elsewhere], q)[0] == TAIL_109
    # the prompt numbers only what it shows, and says what it left out
    from legal_rag.types import Hit
    build = build_prompt(q, [Hit(tail_only, 1.0, "rrf", 1), Hit(first, 0.9, "rrf", 2)], load_settings().prompts_dir)
    assert [h.chunk.id for h in build.passages] == [first.id] and build.numbers == (1,)
    assert [h.chunk.id for h in build.repeats] == [tail_only.id] and "[2]" not in build.messages[1][1]


def test_a_passage_showing_one_sub_section_is_labelled_with_it():
    w = passage_window(CHEAT_318, "What does BNS 318(2) provide?")
    assert shown_sub(CHEAT_318, w) == "2"
    assert passage_label(CHEAT_318, "2").startswith("BNS 318(2) (Bharatiya Nyaya Sanhita")
    both = passage_window(CHEAT_318, "punishment for cheating and dishonestly inducing delivery of property")
    assert shown_sub(CHEAT_318, both) is None  # two sub-sections shown: the section alone labels it
    tail = part(statute("BNS", "109", "Attempt to murder.", TAIL_109 + SUB2_109), 1, "1")
    assert shown_sub(tail, tail.text) is None  # the tail of (1) and (2): not one sub-section
    assert shown_sub(tail, SUB2_109.strip()) == "2"
    assert shown_sub(tail, TAIL_109) == "1"  # the chunk opens inside (1): its tail is (1)'s, not unlabelled
    # a proviso of the sub-section the chunk opens in, then the next sub-section: not one sub-section
    proviso = part(statute("BNS", "109", "Attempt to murder.", "Provided that the offender is a public servant.\n"
                           + SUB2_109.strip()), 1, "1,-")
    assert shown_sub(proviso, proviso.text) is None
    assert shown_sub(statute("IPC", "420", "Cheating.", IPC_420), IPC_420) is None  # no sub-sections printed
    # the section's number, a gap, then one sub-section: that sub-section ("115.\n[…]\n(2) Whoever ...", dev D13)
    text_115 = "115. (1) Whoever does any act with the intention of thereby causing hurt is said to cause hurt.\n(2) " \
               "Whoever voluntarily causes hurt shall be punished with imprisonment which may extend to one year."
    c115 = statute("BNS", "115", "Voluntarily causing hurt.", text_115)
    assert shown_sub(c115, "115." + WINDOW_GAP + text_115[text_115.index("(2)"):]) == "2"
    assert shown_sub(statute("BNS", "103", "Murder.", BNS_103), BNS_103) is None  # (1) and (2)


def test_a_weak_further_sub_section_is_not_shown_even_in_a_short_passage():
    text = ("(4) In every Part of this Sanhita, except where a contrary intention appears from the context, words "
            "which refer to acts done extend also to illegal omissions.\n(5) When a criminal act is done by several "
            "persons in furtherance of the common intention of all, each of such persons is liable for that act in "
            "the same manner as if it were done by him alone.")
    c = part(statute("BNS", "3", "General explanations.", text), 1, "")
    w = passage_window(c, "acts done by several persons in furtherance of common intention")
    assert w.startswith("(5) When a criminal act") and "(4)" not in w and shown_sub(c, w) == "5"
    # adjacent windows keep the printed space between them: "103. (1)", not "103.\n(1)"
    assert passage_window(statute("BNS", "103", "Murder.", BNS_103), "punishment for murder").startswith(BNS_103[:12])


@pytest.mark.slow
def test_real_bns_109_3_and_238_chunk_overlap_and_labels(real_index):
    """The dev questions whose prompts showed a repeated tail (109, 238) or a sub-section number the model took
    for a section (316(5): "section 5 of the BNS 316"; 3(5): "section 4 of the BNS")."""
    c109 = real_index.by_ref("BNS", "109")
    shown = shown_texts([c109[1], c109[0]], "attempt to commit murder")
    assert not shown[0].startswith("caused to any person")  # the tail of (1) is shown once, in the first chunk
    assert "if hurt is caused" in shown[1]
    c238 = real_index.by_ref("BNS", "238")
    s238 = shown_texts(c238[:2], "causing disappearance of evidence of an offence to screen the offender")
    assert s238[1].startswith("(c) if the offence") and "(b) if the offence" in s238[0]
    c3 = real_index.by_ref("BNS", "3")
    q = "acts done by several persons in furtherance of common intention"
    s3 = shown_texts([c3[2], c3[1]], q)
    assert [shown_sub(c, t) for c, t in zip([c3[2], c3[1]], s3)] == ["6", "5"]
    c316 = next(c for c in real_index.by_ref("BNS", "316") if "(5) Whoever, being in any manner entrusted" in c.text)
    w = shown_texts([c316], "criminal breach of trust committed by a public servant or banker or agent",
                    focus=(StatuteRef("BNS", "316", ("5",)),))[0]  # the composed head's provision
    assert w.startswith("(5) Whoever") and passage_label(c316, shown_sub(c316, w)).startswith("BNS 316(5) ")


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
