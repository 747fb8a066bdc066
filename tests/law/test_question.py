"""The question analysis (issue 13): refs and idioms by the official table, dates and their roles, the kind, the era
and the Acts searched first. Successors are read from the real BPR&D tables (``conc``), never typed in here as the
thing being tested: each expectation names the table's answer and the test checks the analysis carries it."""

from datetime import date

import pytest

from legal_rag.law.question import acts_for, analyse, find_dates, question_kind
from legal_rag.types import StatuteRef as S


def _refs(a, how=None):
    return [str(r.ref) for r in a.refs if how is None or r.how == how]


def _succ(conc, ref):
    return conc.successors(ref).targets


# ---- idioms: the old CrPC number named alone, resolved by the table and the kind --------------------------------

@pytest.mark.parametrize("question, old, kind", [
    ("a 438 application for my client", S("CrPC", "438"), "bail"),
    ("we will move a 438 petition tomorrow", S("CrPC", "438"), "bail"),
    ("can the wife file a 125 petition for maintenance?", S("CrPC", "125"), "procedure"),
    ("a 156(3) application before the magistrate", S("CrPC", "156", ("3",)), "procedure"),
    ("should I file a 482 petition to quash the FIR?", S("CrPC", "482"), "procedure"),
    ("Section 438 anticipatory bail conditions", S("CrPC", "438"), "bail"),
])
def test_idiom_resolves_to_the_old_section_and_its_table_successor(conc, question, old, kind):
    a = analyse(question, concordance=conc)
    idioms = [r for r in a.refs if r.how == "idiom"]
    assert [r.ref for r in idioms] == [old]
    assert idioms[0].successors == _succ(conc, old) and idioms[0].successors
    assert a.kind == kind and a.era == "new"
    # the law in force today leads: the successor is looked up before the old section
    assert a.lookup_refs()[:2] == (*_succ(conc, old), old)


def test_438_application_is_bnss_482_not_the_bnss_438_revision_power(conc):
    a = analyse("a 438 application for my client", concordance=conc)
    assert _succ(conc, S("CrPC", "438")) == (S("BNSS", "482"),)  # the table's pair
    assert a.lookup_refs()[0] == S("BNSS", "482")
    assert S("BNSS", "438") not in a.lookup_refs()
    assert a.acts_first == ("BNSS", "CrPC")


def test_idiom_number_without_its_noun_or_subject_is_not_an_idiom(conc):
    assert analyse("he paid 438 rupees for the phone", concordance=conc).refs == ()
    assert analyse("the 125 witnesses were examined", concordance=conc).refs == ()


# ---- BL-48: a false premise is corrected, and the correction recorded ----------------------------------------------

def test_bl48_anticipatory_bail_under_bnss_438_is_corrected_to_bnss_482(conc):
    a = analyse("What are the conditions for anticipatory bail under Section 438 BNSS?", concordance=conc)
    assert conc.predecessors(S("BNSS", "438")).targets == (S("CrPC", "397"),)  # revision, by the pairs file
    assert [(str(r.ref), r.how) for r in a.refs] == [("BNSS 438", "named"), ("BNSS 482", "premise")]
    assert a.lookup_refs()[0] == S("BNSS", "482")
    assert len(a.premises) == 1
    note = a.premises[0]
    assert "BNSS 438" in note and "BNSS 482" in note and "CrPC 397" in note and "CrPC 438" in note
    assert all(r.premise == note for r in a.refs)
    assert a.kind == "bail"


def test_a_right_new_code_reference_has_no_premise_note(conc):
    a = analyse("What are the conditions for anticipatory bail under Section 482 BNSS?", concordance=conc)
    assert a.premises == () and _refs(a) == ["BNSS 482"]


# ---- bare tokens (BL-25) and named references ------------------------------------------------------------------

def test_bare_lettered_token_is_looked_up_in_every_act_that_has_it(conc):
    a = analyse("498A", concordance=conc)
    assert _refs(a, "bare") == [str(r) for r in ("IPC 498A",) if conc.sections.exists("IPC", "498A")]
    assert a.kind == "lookup"


def test_bare_subsection_token_reads_every_act_that_has_the_section(conc):
    a = analyse("318(4)", concordance=conc)
    want = [f"{act} 318(4)" for act in ("IPC", "CrPC", "IEA", "BNS", "BNSS", "BSA") if conc.sections.exists(act, "318")]
    assert _refs(a, "bare") == want and "BNS 318(4)" in want


def test_bl44_fir_string_keeps_pocso_apart_from_the_ipc(conc):
    a = analyse("u/s 376(2)(n), 354, 147, 452, 504, 506 IPC and Section 4 POCSO Act", "2024-06-28", concordance=conc)
    assert _refs(a) == ["IPC 376(2)(n)", "IPC 354", "IPC 147", "IPC 452", "IPC 504", "IPC 506"]
    assert "IPC 4" not in _refs(a)
    assert [(str(f.ref), f.act_text) for f in a.other_refs] == [("OTHER 4", "POCSO Act")]
    for r in a.refs:
        assert r.successors == _succ(conc, r.ref)
    assert dict((str(r.ref), [str(t) for t in r.successors]) for r in a.refs)["IPC 504"] == ["BNS 352"]
    assert a.offence_date == date(2024, 6, 28) and a.era == "old" and a.acts_first == ("IPC", "BNS")


def test_named_reference_and_equivalence_question_is_a_lookup(conc):
    a = analyse("What is the BNS equivalent of IPC 420?", concordance=conc)
    assert a.kind == "lookup" and _refs(a) == ["IPC 420"] and a.refs[0].successors == _succ(conc, S("IPC", "420"))
    assert a.acts_first == ("IPC", "BNS")


# ---- cases and citations ------------------------------------------------------------------------------------------

def test_case_titles_and_citations():
    from legal_rag.retrieve.route import analyse_question

    a = analyse_question("Did Ramesh Kumar v. State of Punjab, (2019) 5 SCC 9999, hold that? See also 2024 INSC 479.")
    assert a.cases == ("Ramesh Kumar v. State of Punjab",)
    assert a.citations == ("(2019) 5 SCC 9999", "2024 INSC 479")
    assert a.kind == "precedent" and a.acts_first == ()


def test_the_judgments_named_are_read_once_as_written():
    """``case_refs``: what an answer must find among its passages, titles and citations as written, in order."""
    from legal_rag.law import CaseReference

    a = analyse("Did Ramesh Kumar v. State of Punjab, (2019) 5 SCC 9999, hold that?")
    assert a.case_refs == (CaseReference("title", "Ramesh Kumar v. State of Punjab"),
                           CaseReference("citation", "(2019) 5 SCC 9999"))
    assert analyse("IPC vs BNS: what changed for cheating?").case_refs == ()


# ---- what later stages read instead of the text -------------------------------------------------------------------

def test_sections_named_numbers_and_sections_that_do_not_exist(conc):
    a = analyse("What does section 999 of the BNS say, and s. 498-A, and IPC 420?", concordance=conc)
    assert a.invalid_notes == ("BNS has no section 999 (its last section is 358)",)
    assert S("IPC", "420") in a.named and S("IPC", "498A") in a.named and all(r.section != "999" for r in a.named)
    assert a.numbers == ("999", "498", "420")  # "498-A": the number before the hyphen, as any number is read
    assert analyse("a 438 application", concordance=conc).named == ()  # an idiom is no section written


def test_derived_fields_follow_a_copy_with_other_refs(conc):
    """``lookups`` is derived from ``refs`` at construction: ``dataclasses.replace`` (a plain number read as a
    section) recomputes it."""
    import dataclasses

    a = analyse("a 438 application for my client", concordance=conc)
    b = dataclasses.replace(a, refs=a.refs[:0])
    assert a.lookups == a.lookup_refs() and a.lookups and b.lookups == ()


# ---- dates --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value, role", [
    ("the accused cheated him on 3 March 2024", date(2024, 3, 3), "offence"),
    ("FIR dated 12.09.2024", date(2024, 9, 12), "proceeding"),
    ("the incident occurred on 2024-06-20", date(2024, 6, 20), "offence"),
    ("a charge-sheet was filed on 20 Jun 2024", date(2024, 6, 20), "proceeding"),
    ("FIR on 5 July 2024", date(2024, 7, 5), "proceeding"),
    ("on the night of 02/06/2024 he was stabbed", date(2024, 6, 2), "offence"),
    ("what happened on August 2, 2023?", date(2023, 8, 2), "offence"),
    ("see 05.03.2024", date(2024, 3, 5), "unknown"),  # day first: 5 March, not 3 May
])
def test_each_date_form_and_its_role(text, value, role):
    (d,) = find_dates(text)
    assert (d.value, d.role) == (value, role)


def test_impossible_date_is_skipped():
    assert find_dates("on 31.02.2024") == ()


def test_bl31a_offence_before_cutoff_fir_after(conc):
    a = analyse("My client was cheated on 20 Jun 2024 and the FIR was registered on 5 Jul 2024. Which section applies?",
                concordance=conc)
    assert (a.offence_date, a.proceeding_date) == (date(2024, 6, 20), date(2024, 7, 5))
    assert a.kind == "offence"
    assert (a.substantive_era, a.procedural_era, a.era) == ("old", "new", "old")
    assert a.acts_first == ("IPC", "BNS")


def test_bl31b_offence_on_cutoff_day_is_new_code(conc):
    a = analyse("Trespass and insult on 1 Jul 2024, registered under IPC 447/504", concordance=conc)
    assert a.offence_date == date(2024, 7, 1) and a.era == "new"
    assert [t for r in a.refs for t in r.successors] == [*_succ(conc, S("IPC", "447")), *_succ(conc, S("IPC", "504"))]


def test_explicit_offence_date_wins_over_the_text(conc):
    a = analyse("he cheated me on 3 March 2024; which section?", offence_date="2024-08-01", concordance=conc)
    assert a.offence_date == date(2024, 8, 1) and a.era == "new"


def test_undated_question_follows_the_law_in_force(conc):
    a = analyse("punishment for cheating", concordance=conc)
    assert a.offence_date is None and a.era == "new" and a.acts_first == ("BNS", "IPC")


def test_date_without_cue_is_the_offence_date_of_an_offence_question(conc):
    a = analyse("Which sections apply to a theft on 20 June 2024?", concordance=conc)
    assert a.offence_date == date(2024, 6, 20) and a.era == "old"


def test_procedure_follows_the_proceeding_date(conc):
    old = analyse("procedure for filing a charge-sheet; the FIR was registered on 10.05.2024", concordance=conc)
    assert old.kind == "procedure" and old.era == "old" and old.acts_first == ("CrPC", "BNSS")
    new = analyse("procedure for filing a charge-sheet; the FIR was registered on 10.08.2024", concordance=conc)
    assert new.era == "new" and new.acts_first == ("BNSS", "CrPC")


# ---- kinds --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("question, kind, first", [
    ("My client was cheated of Rs 5 lakh by someone who promised a government job. Which sections apply?",
     "offence", ("BNS", "IPC")),
    ("what is the procedure for recording a confession", "procedure", ("BNSS", "CrPC")),
    ("Is a confession made to a police officer admissible in evidence?", "evidence", ("BSA", "IEA")),
    ("What did the Supreme Court hold on the ratio of last seen evidence?", "precedent", ()),
    ("definition of rape", "definition", ("BNS", "IPC")),
    ("punishment for murder", "punishment", ("BNS", "IPC")),
    ("can he get bail for a non-bailable offence?", "bail", ("BNSS", "CrPC")),
    ("IPC 420", "lookup", ("IPC", "BNS")),
    ("punishment for giving false evidence in a judicial proceeding", "punishment", ("BNS", "IPC")),
    ("causing disappearance of evidence of an offence to screen the offender", "offence", ("BNS", "IPC")),
    ("how long can the police keep him in custody before producing him before a magistrate?", "procedure",
     ("BNSS", "CrPC")),
])
def test_each_kind_and_its_acts(conc, question, kind, first):
    a = analyse(question, concordance=conc)
    assert (a.kind, a.acts_first) == (kind, first)


def test_a_fact_statement_never_routes_to_procedure_first(conc):
    a = analyse("He broke into my house at night, beat my father and took the gold; the police registered an FIR. "
                "Which sections apply?", concordance=conc)
    assert a.kind == "offence" and a.acts_first[0] == "BNS" and "BNSS" not in a.acts_first


def test_acts_for_old_era():
    assert acts_for("offence", "old", "new") == ("IPC", "BNS")
    assert acts_for("evidence", "new", "old") == ("IEA", "BSA")
    assert acts_for("precedent", "new", "new") == ()


def test_question_kind_without_refs():
    assert question_kind("who can issue a summons?") == "procedure"
    assert question_kind("stalking") == "offence"


def test_analysis_is_frozen(conc):
    a = analyse("punishment for theft", concordance=conc)
    with pytest.raises(AttributeError):
        a.kind = "bail"  # type: ignore[misc]


@pytest.mark.parametrize("question, kind", [
    ("dishonest intention at the time of making the promise in a complaint of cheating", "offence"),
    ("can the police arrest without a warrant in a theft case?", "procedure"),
    ("who can issue a summons?", "procedure"),
])
def test_procedure_cues_against_offence_nouns(conc, question, kind):
    assert analyse(question, concordance=conc).kind == kind
