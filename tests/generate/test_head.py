"""The composed head (legal_rag.generate.head): governing provisions by the date rules, each part from its source."""

from __future__ import annotations

from legal_rag.generate.head import compose_head, governing_refs, head_text, offence_named
from legal_rag.law import Schedule
from legal_rag.law.question import analyse
from legal_rag.types import ScheduleRow, SectionSuggestion, StatuteRef


def _row(act, section, sub=(), n=1, **kw) -> ScheduleRow:
    printed = section + "".join(f"({s})" for s in sub)
    base = dict(schedule="BNSS" if act == "BNS" else "CrPC", act=act, section=printed,
                ref=StatuteRef(act, section, sub), offence=f"Offence {printed}.", punishment="Imprisonment for 7 years.",
                cognizable=True, bailable=False, court="Magistrate of the first class.",
                cognizable_text="Cognizable.", bailable_text="Non-bailable.", source="x.pdf", page=100 + n, row=n)
    return ScheduleRow(**{**base, **kw})


SCHEDULE = Schedule((
    _row("BNS", "318", ("4",), 1, offence="Cheating and dishonestly inducing delivery of property."),
    _row("IPC", "420", (), 2, page=7),
    _row("BNS", "316", ("2",), 3, bailable=True, bailable_text="Bailable.", punishment="Fine."),
    _row("IPC", "304B", (), 4, offence="Dowry death.", court="Court of Session."),
    _row("BNS", "80", ("2",), 5, offence="Dowry death.", court="Court of Session."),
))
TITLES = {StatuteRef("BNS", "318"): "Cheating", StatuteRef("IPC", "420"): "Cheating and dishonestly inducing"}


def head(question, conc, offence_date=None, suggestions=()):
    a = analyse(question, offence_date, concordance=conc)
    return compose_head(a, suggestions, concordance=conc, schedule=SCHEDULE,
                        title_of=lambda r: TITLES.get(r.base, ""))


def test_no_date_the_new_code_leads_with_its_predecessor_named(conc):
    (h,) = head("What is the BNS equivalent of IPC 420?", conc)
    assert h.ref == StatuteRef("BNS", "318", ("4",)) and h.counterparts == (StatuteRef("IPC", "420"),)
    assert h.line == ("BNS 318(4) (formerly IPC 420) -- Cheating: Imprisonment for 7 years; cognizable, non-bailable, "
                      "triable by Magistrate of the first class [First Schedule, BNSS, p. 101].")
    assert "No offence date given" in h.rule and h.rule.endswith("for an offence committed before 1 July 2024, IPC 420 governs (BNS s.358).")
    assert "First Schedule, BNSS, p. 101" in h.sources and any("#" in s for s in h.sources)  # the table row


def test_an_offence_before_the_cutoff_leads_with_the_old_code(conc):
    (h,) = head("Is IPC 420 bailable?", conc, "2024-06-20")
    assert h.ref == StatuteRef("IPC", "420") and h.line.startswith("IPC 420 (now BNS 318(4)) -- ")
    assert "[First Schedule, CrPC, p. 7]" in h.line
    assert h.rule == ("Offence date 20 June 2024 is before 1 July 2024: IPC 420 governs (BNS s.358); for later "
                      "offences BNS 318(4).")


def test_after_the_cutoff_the_new_code_governs(conc):
    (h,) = head("Is IPC 420 bailable?", conc, "2024-07-05")
    assert h.ref == StatuteRef("BNS", "318", ("4",))
    assert h.rule.startswith("Offence date 5 July 2024 is on or after 1 July 2024: BNS 318(4) governs")


def test_bare_token_takes_the_reading_the_schedule_classifies(conc):
    (h,) = head("Is 316(2) bailable?", conc)
    assert h.ref == StatuteRef("BNS", "316", ("2",))
    assert "cognizable, bailable" in h.line and "[First Schedule, BNSS, p. 103]" in h.line


def test_unknown_parts_are_left_out(conc):
    (h,) = head("What is the BNS equivalent of IPC 377?", conc)  # no row, no title in this fixture
    assert h.line == "IPC 377." and h.status == "no_counterpart" and h.counterparts == ()
    assert "The official table names no BNS counterpart for IPC 377" in h.rule


def test_a_new_offence_says_the_old_code_had_none(conc):
    (h,) = head("What is the punishment under BNS 111?", conc)
    assert h.status == "new_provision" and "the IPC had no such offence" in h.rule
    assert "Constitution Art. 20(1)" in h.rule


def test_procedure_follows_the_proceeding_date(conc):
    (h,) = head("a 438 application for my client", conc)
    assert h.ref.act == "BNSS" and "No proceeding date given" in h.rule and "BNSS s.531(2)" in h.rule


def test_a_question_naming_no_provision_takes_the_rankers_lead_in_order(conc):
    """The section ranker's lead (one line per candidate, each at its limb) governs a question naming no provision;
    a First Schedule name in the question is one of the ranker's features (``schedule_name``), not a rule here."""
    at4 = SectionSuggestion(StatuteRef("BNS", "318"), 0.8, 0, (), 0, 1, cited_as=StatuteRef("BNS", "318", ("4",)),
                            p=0.8)
    at2 = SectionSuggestion(StatuteRef("BNS", "316"), 0.7, 0, (), 0, 2, cited_as=StatuteRef("BNS", "316", ("2",)),
                            p=0.7)
    a = analyse("My client was cheated by someone who promised a job. Which sections apply?", concordance=conc)
    assert governing_refs(a, (at4,), SCHEDULE) == (StatuteRef("BNS", "318", ("4",)),)
    assert governing_refs(a, (at4, at2), SCHEDULE) == (StatuteRef("BNS", "318", ("4",)), StatuteRef("BNS", "316", ("2",)))
    assert governing_refs(a, (), SCHEDULE) == ()
    named = analyse("What is the punishment under IPC 420?", concordance=conc)
    assert governing_refs(named, (at2,), SCHEDULE) == (StatuteRef("IPC", "420"),)   # a named provision governs
    assert offence_named("a dowry death", SCHEDULE, "BNS") == StatuteRef("BNS", "80", ("2",))
    assert offence_named("a death", SCHEDULE, "BNS") is None


def test_no_provision_no_head(conc):
    assert head("What is the procedure for recording a confession?", conc) == ()
    assert head_text(()) == ""


def test_json_export_carries_the_head_and_reads_it_back(conc):
    from legal_rag.export.formats import build_doc, doc_from_json, to_json
    from legal_rag.types import Answer

    lines = head("Is IPC 420 bailable?", conc, "2024-06-20")
    answer = Answer("Is IPC 420 bailable?", head_text(lines) + "\n\nbody", head=lines)
    doc = build_doc(answer)
    text = to_json(doc)
    assert '"head"' in text and "First Schedule, CrPC, p. 7" in text
    back = doc_from_json(text)
    assert back.head == lines and back == doc
    assert doc_from_json(text.replace('"head"', '"other"')).head == ()  # an older file: no head


def test_a_suggested_provision_says_it_is_suggested_and_why(conc):
    one = (SectionSuggestion(StatuteRef("BNS", "318"), 0.82, 0, (), 0, 1, cited_as=StatuteRef("BNS", "318", ("4",)),
                             p=0.82),)
    (h,) = head("My client was cheated by someone who promised a job. Which sections apply?", conc, suggestions=one)
    assert h.line.startswith("Suggested from the facts (ranker 0.82; text match 1): "
                             "BNS 318(4) (formerly IPC 420) -- Cheating: ")
    two = (*one, SectionSuggestion(StatuteRef("BNS", "316"), 0.7, 0, (), 0, 2,
                                   cited_as=StatuteRef("BNS", "316", ("2",)), p=0.7))
    h1, h2 = head("My client was cheated by someone who promised a job. Which sections apply?", conc, suggestions=two)
    assert h1.line.startswith("Candidate (ranker 0.82; text match 1): BNS 318(4)")
    assert h2.line.startswith("Candidate (ranker 0.70; text match 2): BNS 316(2)")
    (h,) = head("Which section applies to a dowry death?", conc, "2024-05-10",
                suggestions=(SectionSuggestion(StatuteRef("BNS", "80"), 0.9, 0, (), 0, 1,
                                               cited_as=StatuteRef("BNS", "80", ("2",)), p=0.9),))
    assert h.line.startswith("Suggested from the facts (ranker 0.90; text match 1): IPC 304B (now BNS 80")  # 2024: IPC leads




def test_a_month_is_said_as_the_month_in_the_date_rule(conc):
    (h,) = head("Is IPC 420 bailable? He cheated me in August 2024.", conc)
    assert h.ref == StatuteRef("BNS", "318", ("4",))
    assert h.rule.startswith("Offence date August 2024 is on or after 1 July 2024: BNS 318(4) governs")
