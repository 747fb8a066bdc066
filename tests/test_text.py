"""Sentence splitting: abbreviations, initials and case names do not end a sentence."""

import pytest

from legal_rag.text import is_abbreviation, split_sentences


def sentences(text):
    return [text[a:b] for a, b in split_sentences(text)]


@pytest.mark.parametrize("text", [
    "Mohd. Yusuf v. State of U.P. held so.",
    "Col. Ram Singh (Retd.) deposed.",
    "C. V. Raman v. State of Kerala held so.",
    "Ramesh Vs. State of M.P. held so.",
    "The appeal of Smt. Kamla Devi & Ors. was allowed.",
    "Under s. 420 I.P.C. the offence is made out.",
    "Under Section 161 Cr.P.C. the statement was recorded.",
    # issue 18 / BL-49: whole case titles, as the corpus prints them
    "Mohd. Anwar v. The State (N.C.T. of Delhi) held so.",
    "Shambhoo Nath Misra v. State of U. P. held so.",
    "C. V. Govindappa and Others v. State of Karnataka held so.",
    "Justice K S Puttaswamy (Retd.), and Anr. v. Union of India and Ors. held so.",
    "Smt. Kamla w/o Sh. Ram v. M/s. Legacy Foods Pvt. Ltd. held so.",
    "From the Judgment and Order Dt. 8 February 1990 of the High Court it appealed.",
    "The dying declaration Ex. P-7 was recorded.",
    "Suraj Lamp And Industries (P) Ltd. Thru. Dir v. State Of Haryana held so.",
    "Vinod Jaswantray Vyas (Dead) Through Lrs. v. The State of Gujarat held so.",
    "Mohd. Anwar v. The State (N.C.T. of Delhi), [2020] 7 S.C.R. 150, at 156, para 16 held so.",
])
def test_names_and_abbreviations_do_not_end_a_sentence(text):
    assert sentences(text + " The ratio is clear.") == [text, "The ratio is clear."]


def test_markers_stay_and_sentences_still_end():
    assert sentences("Theft. [1] Cheating [2].") == ["Theft. [1]", "Cheating [2]."]
    assert sentences("The appeal was allowed. The State appealed.") == ["The appeal was allowed.", "The State appealed."]


@pytest.mark.parametrize("word, ok", [("Mohd", True), ("U.P", True), ("C", True), ("Retd", True), ("v", True),
                                      ("i.e", True), ("Cr.P.C", True), ("held", False), ("State", False), ("302", False)])
def test_is_abbreviation(word, ok):
    assert is_abbreviation(word) is ok


def test_trimmed_drops_outer_whitespace_and_empty_spans():
    from legal_rag.text import trimmed

    assert trimmed(" ab  c ", [(0, 4), (4, 7), (5, 5), (3, 5)]) == [(1, 3), (5, 6)]
    assert trimmed("   ", [(0, 3)]) == []


def test_excerpt_cuts_around_a_position_at_word_boundaries():
    from legal_rag.text import excerpt

    text = " ".join(f"w{i}" for i in range(100))
    assert excerpt("short text", 3, 50) == "short text"
    cut = excerpt(text, text.index("w50"), 60)
    assert cut.startswith("...") and cut.endswith("...") and "w50" in cut
    assert len(cut) <= 60 + 6 and not cut[3:].startswith(" ")
    assert excerpt(text, 0, 60).startswith("w0 ") and excerpt(text, len(text), 60).endswith("w99")
