"""Where an Act's last section ends, and what comes after it: Schedules (a heading in the text or among the margin
notes), a Schedule of forms, an appendix and the closing signature, on inline pages printed like the real ones."""

from __future__ import annotations

from legal_rag.ingest.schedule_text import ends_sections, schedule_units
from legal_rag.ingest.statutes import parse_act, parse_statute
from legal_rag.types import Page, ScheduleText

BODY = "BE it enacted by Parliament as follows:—"
LAST_WORDS = "made in this Sanhita for the extension of time."
ROWS = ["49 Abetment of any offence, Same as for offence According as offence",
        "318(4) Cheating. Imprisonment for 7 years Cognizable. Non-bailable. Magistrate of the first class.",
        "357 Being bound to attend on Imprisonment for 3 Non-cognizable. Bailable. Any Magistrate."]


def _gazette(lines: list[str], number: int, margin=()) -> Page:
    """A Gazette-print page: one line every 12 units from y = -700, margin notes at the given positions."""
    return Page("bnss.pdf", number, "\n".join(lines) + "\n", line_y=tuple(-700.0 + 12 * i for i in range(len(lines))),
                margin=tuple(margin))


def _act(schedule_page: Page) -> list[Page]:
    toc = Page("bnss.pdf", 1, "ARRANGEMENT OF SECTIONS\n530. Trial in electronic mode.\n531. Repeal and savings.\n"
                              "THE FIRST SCHEDULE\nTHE SECOND SCHEDULE\n")
    body = _gazette([BODY, "530. All trials may be held in electronic mode, as the Second Schedule,",
                     "with such variations as the circumstances require, provides.",
                     "531. (1) The Code of Criminal Procedure, 1973 is hereby repealed.",
                     "(3) Nothing in this Sanhita shall be construed as enabling an application to be",
                     LAST_WORDS], 2)
    return [toc, body, schedule_page]


def test_a_schedule_heading_among_the_margin_notes_ends_the_last_section() -> None:
    # the BNSS Gazette print: "THE FIRST SCHEDULE" / "CLASSIFICATION OF OFFENCES" read as margin notes above the notes
    sched = _gazette(["EXPLANATORY NOTES: (1) In regard to offences under the Bharatiya Nyaya Sanhita,",
                      "I.—OFFENCES UNDER THE BHARATIYA NYAYA SANHITA", *ROWS], 3,
                     margin=[(-730.0, "THE FIRST SCHEDULE"), (-715.0, "CLASSIFICATION OF OFFENCES")])
    act = parse_act("BNSS", _act(sched), "bnss.pdf")
    last = act.sections[-1]
    assert [s.ref.section for s in act.sections] == ["530", "531"]
    assert last.text.endswith(LAST_WORDS) and last.pages == (2, 2)
    assert "Cognizable" not in last.text and "Second Schedule" in act.sections[0].text  # a mention ends nothing
    (unit,) = act.schedules
    assert unit.citation == "BNSS, First Schedule (Classification of offences), p. 3"
    assert unit.text.startswith("THE FIRST SCHEDULE\nCLASSIFICATION OF OFFENCES\nEXPLANATORY NOTES")
    assert unit.text.endswith(ROWS[-1])
    (note,) = [p for p in act.problems if p.kind == "set_apart"]
    assert note.severity == "info" and note.message.startswith("after section 531: BNSS, First Schedule")
    assert parse_statute("BNSS", _act(sched), "bnss.pdf") == (act.sections, act.problems)


def test_a_schedule_heading_in_the_text_mid_page_ends_the_section_on_that_line() -> None:
    page = _gazette(["170. (1) The Indian Evidence Act, 1872 is hereby repealed.",
                     "(2) Pending proceedings continue as if this Adhiniyam had not come into force.",
                     "THE SCHEDULE", "[See section 63(4)(c)]", "CERTIFICATE", "PART A", "(To be filled by the Party)",
                     "I state that the HASH value/s of the electronic/digital record/s is ____."], 45)
    nxt = _gazette(["PART B", "(To be filled by the Expert)", "(Name, designation and signature)",
                    "DIWAKAR SINGH,", "Joint Secretary & Legislative Counsel to the Govt. of India.",
                    "AND PUBLISHED BY THE CONTROLLER OF PUBLICATIONS, DELHI–110054."], 46)
    act = parse_act("BSA", [_gazette([BODY], 44), page, nxt], "bsa.pdf")
    (sec,) = act.sections
    assert sec.text.endswith("had not come into force.") and sec.pages == (45, 45)
    (unit,) = act.schedules
    assert (unit.part, unit.title, unit.see, unit.pages) == ("Schedule", "Certificate", "section 63(4)(c)", (45, 46))
    assert unit.citation == "BSA, Schedule (Certificate), pp. 45-46"
    assert unit.text.endswith("(Name, designation and signature)")  # the signature and the imprint are dropped


def test_the_closing_signature_is_no_part_of_the_last_section() -> None:
    page = _gazette([BODY, "358. (1) The Indian Penal Code is hereby repealed.",
                     "(4) Nothing here affects section 6 of the General Clauses Act, 1897 with regard to the",
                     "effect of the repeal.", "DIWAKAR SINGH,",
                     "Joint Secretary & Legislative Counsel to the Govt. of India.",
                     "AND PUBLISHED BY THE CONTROLLER OF PUBLICATIONS, DELHI–110054."], 102)
    act = parse_act("BNS", [page], "bns.pdf")
    assert act.sections[-1].text.endswith("effect of the repeal.") and not act.schedules
    assert not [p for p in act.problems if p.kind == "set_apart"]


def test_a_schedule_of_forms_gives_one_unit_per_form() -> None:
    lines = [(190, "THE SECOND SCHEDULE"), (190, "(See section 522)"), (190, "FORM No.1"),
             (190, "NOTICE FOR APPEARANCE BY THE POLICE"), (190, "[See section 35(3)]"), (190, "To, [Name]"),
             (191, "FORM No. 26"), (191, "MAGISTRATE'S ORDER DECLARING PARTY ENTITLED TO RETAIN POSSESSION OF LAND, "
                                      "ETC., IN"), (191, "DISPUTE"), (191, "(See section 164)"), (191, "It appears..."),
             (192, "1[FORM No. 44A"), (192, "BOND FOR APPEARANCE OF OFFENDER"),
             (192, "[See sections 436, 2[436A,] 437 and 441]"), (192, "WHEREAS I, ... (Signature).]"),
             (193, "APPENDIX"), (193, "EXTRACTS FROM THE AMENDMENT ACT, 2005"), (193, "NO. 25 OF 2005"),
             (194, "42. Amendment of the First Schedule.—In the First Schedule ...")]
    units = schedule_units("BNSS", lines, "bnss.pdf")
    assert [(u.part, u.form) for u in units] == [("Second Schedule", "1"), ("Second Schedule", "26"),
                                                  ("Second Schedule", "44A"), ("Appendix", "")]
    one, two, three, appendix = units
    assert one.text.startswith("THE SECOND SCHEDULE\n(See section 522)\nFORM No.1") and one.see == "section 35(3)"
    assert one.citation == "BNSS, Second Schedule, Form No. 1 (Notice for appearance by the police), p. 190"
    assert two.title == "Magistrate's order declaring party entitled to retain possession of land, etc., in dispute"
    assert three.see == "sections 436, 436A, 437 and 441" and three.title == "Bond for appearance of offender"
    assert appendix.citation == "BNSS, Appendix (Extracts from the amendment act, 2005), pp. 193-194"


def test_what_ends_the_sections() -> None:
    assert ends_sections("THE FIRST SCHEDULE") == ends_sections("THE SCHEDULE") == "schedule"
    assert ends_sections("1[FORM No. 47") == ends_sections("FORM No.1") == "form"
    assert ends_sections("APPENDIX") == "appendix"
    assert ends_sections("Secretary to the Government of India.") == "signature"
    for line in ("forth in the Second Schedule, with such variations as the circumstances of each case",
                 "(2) In this Schedule, (i) the expression", "shall be in the form specified in the Schedule.",
                 "THE FIRST SCHEDULE TO THE ACT", "Form No. 1 shall be used"):
        assert ends_sections(line) is None, line


def test_schedule_text_is_cited_as_itself() -> None:
    first = ScheduleText("BNSS", "First Schedule", "Classification of offences", "...", "bnss.pdf", (158, 189))
    form = ScheduleText("BNSS", "Second Schedule", "Summons to an accused person", "...", "bnss.pdf", (191, 191),
                        form="2", see="section 63")
    assert first.citation == "BNSS, First Schedule (Classification of offences), pp. 158-189"
    assert form.citation == "BNSS, Second Schedule, Form No. 2 (Summons to an accused person), p. 191"
    assert ScheduleText("CrPC", "Appendix", "", "...", "crpc.pdf", (235, 237)).label == "CrPC, Appendix"
