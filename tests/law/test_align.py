"""Clause alignment derived from the texts (legal_rag.law.align): the clause splitter and the similarity, on small
texts written for the test (the real-index cases are in test_align_real.py)."""

from __future__ import annotations

from legal_rag.law.align import clauses, similarity

LIST = ("(2) Whoever,—\n(a) being a police officer, commits rape—\n(i) within the limits of the police station; or\n"
        "(ii) in the premises of any station house; or\n(b) being a public servant, commits rape; or\n"
        "(c) commits rape on a woman knowing her to be pregnant; or\n* * * * *\n"
        "(e) commits rape repeatedly on the same woman,\nshall be punished with rigorous imprisonment.\n"
        "Explanation.—For the purposes of this sub-section,—\n(a) “armed forces” means the naval, military and air "
        "forces;")


def test_clauses_skip_an_omitted_letter_but_not_roman_sub_clauses_or_an_explanation():
    found = clauses(LIST, 0, len(LIST))
    assert [c for c, _, _ in found] == ["a", "b", "c", "e"]
    last = found[-1]
    assert LIST[last[1]:last[2]].rstrip(",\n") == "(e) commits rape repeatedly on the same woman"
    assert "(ii) in the premises" in LIST[found[0][1]:found[0][2]]  # the roman items stay in (a)


def test_clauses_need_an_a_to_open_a_list_and_stop_at_a_long_gap():
    text = "(b) not a list opener\n(c) nor this"
    assert clauses(text, 0, len(text)) == []
    text = "(a) first;\n(b) second;\n(f) too far on"
    assert [c for c, _, _ in clauses(text, 0, len(text))] == ["a", "b"]


def test_similarity_ignores_the_division_marker_and_case():
    assert similarity("(n) commits rape repeatedly on the same woman,", "(m) Commits rape repeatedly on the same "
                      "woman,") == 1.0
    assert similarity("(a) being a police officer", "(b) being a public servant") < 0.6
    assert similarity("", "(a) anything") == 0.0
