"""Follow-up questions (issue 14, BL-60; issue 31): which questions have no legal words of their own, which provision
of the previous turn they inherit (the provision of the previous answer's head, structured, with its Act; for a
question alone, the successor by the real BPR&D table, read from ``conc``, never typed in as the answer), the note
the answer opens with, and the notice when no provision can be taken, with why."""

import pytest

from legal_rag.law.followup import (NO_HEAD, NO_PREVIOUS, NOT_NAMED, OUTSIDE, Turn, answer_turn, followup_note,
                                    is_followup, previous_turn, resolve_followup, turn_of, turn_refs, unresolved_note)
from legal_rag.law.question import analyse
from legal_rag.types import Answer, Citation, HeadLine, Notice, SectionSuggestion
from legal_rag.types import StatuteRef as S


@pytest.mark.parametrize("question", [
    "and what about the punishment?",
    "And what is the punishment?",
    "is it bailable?",
    "is it cognizable?",
    "what about the sentence for that?",
    "which court tries it?",
    "does this section need intention?",
    "Is it bailable, and which court tries it?",
    "And can he get bail for it? Which court will hear the case?",
    "Can the accused get bail, and which court tries it?",
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
    ("Can he be arrested without a warrant?", "a procedure of its own"),
    ("Who can grant bail to an accused in a non-bailable offence?", "an offence of its own"),
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


def test_a_fact_pattern_without_its_answer_gives_no_provision_and_says_why(conc):
    a = analyse("my neighbour took my money promising a job", concordance=conc)
    assert turn_refs(a) == ()
    assert previous_turn(a) == Turn(a.question, (), NOT_NAMED)


def test_an_answer_turn_is_its_head_never_its_text():
    lead, other = S("BNS", "318", ("4",)), S("BNS", "217")
    head = (HeadLine(lead, "Candidate: BNS 318(4) ..."), HeadLine(other, "Candidate: BNS 217 ..."))
    assert answer_turn("facts", head, ranked=True).refs == (lead,)  # the ranker's lead only
    assert answer_turn("IPC 420 and IPC 182?", head).refs == (lead, other)  # provisions the question named
    assert answer_turn("facts", ()) == Turn("facts", (), NO_HEAD)
    assert answer_turn("NI Act 138?", head, outside=True) == Turn("NI Act 138?", (), OUTSIDE)
    strange = answer_turn("q", (HeadLine(S("NIA", "138"), "x"),))
    assert strange.refs == () and "NIA 138" in strange.why and "outside" in strange.why


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


def test_a_follow_up_that_cannot_be_resolved_says_so_and_why(conc):
    q = analyse("so is this offence bailable?", concordance=conc)
    alone = resolve_followup(q, None)
    assert alone is not None and not alone.resolved and alone.note == NO_PREVIOUS
    assert alone.question == q.question and alone.refs == ()
    assert "no earlier question" in alone.note and "cleared" in alone.note
    headless = resolve_followup(q, Turn("hello", (), NO_HEAD))
    assert headless.note == unresolved_note(NO_HEAD) and "named no governing provision" in headless.note
    assert resolve_followup(q, Turn("hello")).note == unresolved_note(NO_HEAD)  # no reason kept: no head


def test_a_question_of_its_own_is_no_follow_up_whatever_came_before(conc):
    own = analyse("What is the punishment for murder?", concordance=conc)
    assert resolve_followup(own, Turn("x", (S("BNS", "318", ("4",)),))) is None
    assert resolve_followup(own, None) is None


def test_turn_of_every_kind_of_previous(conc):
    def read(q):
        return analyse(q, concordance=conc)

    ref = S("BNS", "318", ("4",))
    assert turn_of(None, read) is None
    assert turn_of(Turn("q", (ref,)), read).refs == (ref,)
    assert turn_of("What does BNS 318(4) say?", read).refs == (ref,)
    assert turn_of(read("What does BNS 318(4) say?"), read).refs == (ref,)
    # an answer: its head's provision, at its sub-section; its text and citations are never re-read (a bare
    # "318(4)" there is no IPC 318, and a supported citation of another section is not the governing one)
    cit = Citation(1, "IPC-302-0-x", S("IPC", "302"), "IPC.pdf", (1, 1), "s [1].", "supported")
    text = "Under 318(4) the accused ... IPC 302 [1]."
    ans = Answer("and what about the punishment?", text, citations=(cit,), head=(HeadLine(ref, "BNS 318(4) ..."),),
                 suggestions=(SectionSuggestion(S("BNS", "318"), 0.4, 2, (), 10, None, (), ref),))
    assert turn_of(ans, read) == Turn(ans.query, (ref,))
    assert turn_of(Answer("q", text, citations=(cit,)), read) == Turn("q", (), NO_HEAD)
    scoped = Answer("NI Act 138?", "...", notices=(Notice("scope", "outside"),))
    assert turn_of(scoped, read).why == OUTSIDE


def test_a_follow_up_inherits_the_previous_answers_offence_date(conc):
    """The same facts, the same offence: a resolved follow-up is read with the offence date its previous answer
    applied (the code in force on it governs), and its note says so; an unresolved one inherits nothing."""
    import datetime as dt

    from legal_rag.law.classify import Schedule
    from legal_rag.law.read import read_question

    ref, when = S("IPC", "420"), dt.date(2024, 5, 10)
    ans = Answer("He cheated me of Rs 3 lakh on 10.05.2024 by a fake land sale.", "...",
                 head=(HeadLine(ref, "IPC 420 ..."),), offence_date=when)
    assert turn_of(ans, lambda q: analyse(q, concordance=conc)).offence_date == when
    follow = resolve_followup(analyse("Is it bailable?", concordance=conc), turn_of(ans, None))
    assert follow.offence_date == when and follow.note == followup_note((ref,), when)
    assert "with the offence date 10.05.2024" in follow.note
    read = read_question("Is it bailable?", concordance=conc, schedule=Schedule(()), limit=2000, previous=ans)
    assert read.assumed == (ref,) and read.analysis.offence_date == when
    given = read_question("Is it bailable?", concordance=conc, schedule=Schedule(()), limit=2000, previous=ans,
                          offence_date="2024-08-01")  # a date the user gives wins
    assert given.analysis.offence_date == dt.date(2024, 8, 1)
    assert resolve_followup(analyse("Is it bailable?", concordance=conc), Turn("q", (), NO_HEAD)).offence_date is None


@pytest.mark.parametrize("question", [
    "Which Supreme Court decisions have held that bail is the rule?",
    "Which judgments have held this?",
    "Is there a judgment holding that the accused must be produced within a day?",
])
def test_a_question_for_the_judgments_is_no_follow_up(conc, question):
    """"held that", "the accused", "this" point nowhere when the question asks the judgments something."""
    assert not is_followup(analyse(question, concordance=conc))
