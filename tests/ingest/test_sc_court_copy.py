"""The Supreme Court's own judgment copies (2026 INSC prints): what their layout puts where the page stage and the
header reader must still find it (synthetic pages, no corpus needed).

* paragraphs set with a hanging indent (``25. In the result ...`` at the text's left, the next lines indented):
  on a page where the number lines are few, the body edge is the indented one, and the opener must stay body;
* the neutral citation (``2026 INSC 12``) printed in the first page's margin;
* the place and date at the foot set at the left edge, so kept among the last page's margin notes;
* a party's role on a line of its own (``SHRIKRISHNA`` / ``...APPELLANT(S)``), or set beside a name that wraps
  (``THE STATE OF MADHYA`` / ``.... RESPONDENT(S)`` / ``PRADESH AND ANOTHER``);
* the parties printed in the first page's margin (``MD IMRAN`` / ``VERSUS`` / ``THE STATE OF JHARKHAND``).
"""

from __future__ import annotations

from legal_rag.ingest.judgment_header import read_header
from legal_rag.ingest.judgments import parse_judgment
from legal_rag.ingest.layout import hanging_opener, split_page
from legal_rag.types import Page

HEAD = """REPORTABLE
IN THE SUPREME COURT OF INDIA
CRIMINAL APPELLATE JURISDICTION
CRIMINAL APPEAL NO. 1533 OF 2011
{parties}
J U D G M E N T
N.V. ANJARIA, J.
1. Leave granted.
2. This appeal is directed against the judgment of the High Court under Section 483 of the
Bharatiya Nagarik Suraksha Sanhita, 2023 by which bail was refused to the appellant.
"""


def _page(text: str, number: int = 1, margin: tuple = ()) -> Page:
    return Page("x.pdf", number, text, margin=margin)


def test_a_hanging_paragraph_number_stays_in_the_body():
    # page 15 of 2026 INSC 12: two continuation lines at 106.9, the paragraph opener and the foot at 72
    lines = [("passport to the Trial Court and will not leave India without", 106.9, -768.1, 14.0),
             ("permission of the Trial Court and shall report as directed.", 106.9, -735.2, 14.0),
             ("25. In the result, the appeal is allowed.", 72.0, -702.3, 14.0),
             ("NEW DELHI;", 72.0, -513.5, 14.0),
             ("2026 INSC 12", 31.2, -753.2, 12.0)]
    body, margin = split_page(lines)
    assert "25. In the result, the appeal is allowed." in [ln[0] for ln in body]
    assert {ln[0] for ln in margin} == {"NEW DELHI;", "2026 INSC 12"}  # not a numbered paragraph


def test_running_heads_and_notes_are_no_hanging_openers():
    for text in ("972 [2024] 3 S.C.R.", "570 SUPREME COURT REPORTS [2017] 10 S.C.R.", "Short title.", "NEW DELHI;"):
        assert not hanging_opener((text, 72.0, 0.0, 14.0), 106.9, 14.0), text
    assert hanging_opener(("4.1 In this case, we are concerned", 72.0, 0.0, 14.0), 106.9, 14.0)
    assert not hanging_opener(("4.1 In this case, we are concerned", 72.0, 0.0, 9.0), 106.9, 14.0)  # a footnote
    assert not hanging_opener(("1. Leave granted.", 20.0, 0.0, 14.0), 106.9, 14.0)  # far out: a margin


def test_the_neutral_citation_and_the_date_are_read_from_the_margins():
    parties = "Arvind Dham ... Appellant\nVersus\nDirectorate of Enforcement ... Respondent"
    first = _page(HEAD.format(parties=parties), 1, ((-753.25, "2026 INSC 12"),))
    last = _page("3. The appeal is allowed.\n........................J.\n[ALOK ARADHE]", 2,
                 ((-702.3, "4. Nothing more."), (-513.55, "NEW DELHI; JANUARY 6, 2026.")))
    judgment, paras, problems = parse_judgment((first, last), "x.pdf")
    assert judgment.citations == ("2026 INSC 12",) and judgment.case_id == "2026-INSC-12"
    assert judgment.date == "2026-01-06"
    assert judgment.title == "Arvind Dham v. Directorate of Enforcement"
    assert not [p for p in problems if p.kind in {"no_date", "no_title"}]


def test_a_role_on_its_own_line_keeps_the_name_above_it():
    parties = "SHRIKRISHNA\n...APPELLANT(S)\nVERSUS\nTHE STATE OF MADHYA PRADESH\n...RESPONDENT(S)"
    assert read_header((_page(HEAD.format(parties=parties)),)).title == "Shrikrishna v. The State of Madhya Pradesh"
    parties = "Bernard Lyngdoh Phawa\n...Appellant\nVersus\nThe State of Meghalaya\n...Respondent"
    assert read_header((_page(HEAD.format(parties=parties)),)).title == "Bernard Lyngdoh Phawa v. The State of Meghalaya"


def test_a_name_that_wraps_past_its_role_is_read_whole():
    parties = ("ABHIJIT PANDEY .... APPELLANT(S)\nVERSUS\nTHE STATE OF MADHYA\n.... RESPONDENT(S)\n"
               "PRADESH AND ANOTHER")
    title = read_header((_page(HEAD.format(parties=parties)),)).title
    assert title == "Abhijit Pandey v. The State of Madhya Pradesh and Another"


def test_parties_printed_in_the_margin():
    text = HEAD.format(parties="Appellant(s)\nRespondent(s)").replace("CRIMINAL APPEAL NO. 1533 OF 2011",
                                                                       "Criminal Appeal No. /2026")
    margin = ((-753.25, "2026 INSC 36"), (-673.49, "MD IMRAN @ D.C. GUDDU"), (-632.69, "VERSUS"),
              (-605.49, "THE STATE OF JHARKHAND"))
    header = read_header((_page(text, 1, margin),))
    assert header.title == "Md Imran @ D.C. Guddu v. The State of Jharkhand"
    assert header.citations == ("2026 INSC 36",)
