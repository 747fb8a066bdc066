"""Follow-up questions (issue 14, BL-60): which questions have no legal words of their own, which provision of the
previous turn they inherit (the successor by the real BPR&D table, read from ``conc``, never typed in as the answer)
and the note the answer opens with."""

import pytest

from legal_rag.law.followup import (Turn, followup_note, is_followup, previous_turn, resolve_followup, turn_of,
                                    turn_refs)
from legal_rag.law.question import analyse
from legal_rag.types import Answer, Citation
from legal_rag.types import StatuteRef as S


@pytest.mark.parametrize("question", [
    "and what about the punishment?",
    "And what is the punishment?",
    "is it bailable?",
    "is it cognizable?",
    "what about the sentence for that?",
    "which court tries it?",
    "does this section need intention?",
])
def test_followups_without_legal_words_of_their_own(conc, question):
    assert is_followup(analyse(question, concordance=conc))


@pytest.mark.parametrize("question, why", [
    ("and what about IPC 302?", "a section of its own"),
    ("What about section 302?", "a bare section of its own"),
    ("what about murder?", "an offence of its own"),
    ("What is the punishment for cheating?", "an offence of its own"),
    ("and what is the procedure for arrest?", "a procedure of its own"),
    ("and which sections apply?", "asks for sections"),
    ("What is dowry death?", "an offence of its own"),
    ("punishment?", "no opener, no pointer"),
    ("and what about the punishment when the accused is a public servant who took money from a widow for a job",
     "too long"),
])
def test_questions_with_legal_words_of_their_own_are_not_followups(conc, question, why):
    assert not is_followup(analyse(question, concordance=conc)), why


def test_previous_turn_is_the_official_successor_today_and_the_old_section_for_an_old_offence(conc):
    succ = conc.successors(S("IPC", "420")).targets
    assert succ  # the table names IPC 420's successor
    assert turn_refs(analyse("What is the BNS equivalent of IPC 420?", concordance=conc)) == succ
    old = analyse("What is the BNS equivalent of IPC 420?", offence_date="2024-05-10", concordance=conc)
    assert turn_refs(old) == (S("IPC", "420"),)
    assert turn_refs(analyse("What does BNS 318(4) say?", concordance=conc)) == (S("BNS", "318", ("4",)),)


def test_a_fact_pattern_falls_back_to_the_cited_sections(conc):
    a = analyse("my neighbour took my money promising a job", concordance=conc)
    assert turn_refs(a) == ()
    assert previous_turn(a, (S("BNS", "318", ("4",)), S("BNS", "316"))).refs == (S("BNS", "318", ("4",)),)
    assert previous_turn(a).refs == ()


def test_resolve_names_the_provision_and_says_so(conc):
    turn = previous_turn(analyse("What is the BNS equivalent of IPC 420?", concordance=conc))
    ref = turn.refs[0]
    follow = resolve_followup(analyse("and what about the punishment?", concordance=conc), turn)
    assert follow is not None and follow.refs == turn.refs
    assert follow.note == f"Taking this as a question about {ref}, from your previous question:"
    assert follow.note == followup_note(turn.refs)
    again = analyse(follow.question, concordance=conc)  # the rewritten question names the provision itself
    assert [r.ref for r in again.refs] == [ref] and again.kind == "punishment"
    assert not follow.question.lower().startswith("and")


def test_nothing_to_resolve(conc):
    q = analyse("and what about the punishment?", concordance=conc)
    assert resolve_followup(q, None) is None
    assert resolve_followup(q, Turn("hello", ())) is None
    own = analyse("What is the punishment for murder?", concordance=conc)
    assert resolve_followup(own, Turn("x", (S("BNS", "318", ("4",)),))) is None


def test_turn_of_every_kind_of_previous(conc):
    def read(q):
        return analyse(q, concordance=conc)

    ref = S("BNS", "318", ("4",))
    assert turn_of(Turn("q", (ref,)), read).refs == (ref,)
    assert turn_of("What does BNS 318(4) say?", read).refs == (ref,)
    assert turn_of(read("What does BNS 318(4) say?"), read).refs == (ref,)
    # an answer to a follow-up: its own question names nothing, its supported citations do
    cit = Citation(1, "BNS-318-3-x", ref, "BNS.pdf", (87, 87), "s [1].", "supported")
    bad = Citation(2, "IPC-302-0-x", S("IPC", "302"), "IPC.pdf", (1, 1), "t [2].", "unsupported")
    ans = Answer("and what about the punishment?", "text", citations=(bad, cit))
    assert turn_of(ans, read).refs == (ref,)
