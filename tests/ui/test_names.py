"""The UI's user-facing names (issue 31, kinds 6 and 8): the banner never runs two Act names together and names no
chunk id or file; a judgment citation reads as its case name and citation and opens at its paragraph."""

from __future__ import annotations

import re

import pytest

from legal_rag.export import citation_records
from legal_rag.law import flag_superseded, load_concordance
from legal_rag.types import Answer, Chunk, Citation, Hit, Judgment, Paragraph, StatuteRef
from legal_rag.ui import html as fmt

ACT = r"(?:IPC|BNS|BNSS|CrPC|IEA|BSA)"
#: two Act abbreviations with nothing but spaces or punctuation between them ("BNS IPC 420", "IPC IPC")
DOUBLED = re.compile(rf"\b{ACT}[\s:;,.]+{ACT}\b")


def banner_text(html: str) -> str:
    """The banner as read: tags dropped (each a space), entities decoded, spaces folded."""
    import html as h

    return re.sub(r"\s+", " ", h.unescape(re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture(scope="module")
def conc():
    return load_concordance()


def test_the_doubling_check_catches_the_old_banner():
    assert DOUBLED.search("IPC 420 → BNS 318(4) Applies: BNS IPC 420 is replaced")
    assert DOUBLED.search("Applies: IPC IPC 420 governs here")
    assert not DOUBLED.search("IPC 420 → BNS 318(4) IPC 420 is replaced (BPR&D table, row 453). Governing code here: "
                              "Bharatiya Nyaya Sanhita, 2023.")


@pytest.mark.parametrize("date", [None, "2024-06-20"])
def test_the_banner_never_doubles_act_names(conc, date):
    flags = flag_superseded([StatuteRef("IPC", "420"), StatuteRef("CrPC", "438")], "query", date, concordance=conc)
    text = banner_text(fmt.supersession_banner(flags))
    assert "IPC 420 → BNS 318(4)" in text and not DOUBLED.search(text), text
    code = "Indian Penal Code, 1860" if date else "Bharatiya Nyaya Sanhita, 2023"
    assert f"Governing code here: {code}." in text


def test_governing_words():
    assert fmt.governing_words("BNSS") == "Governing code here: Bharatiya Nagarik Suraksha Sanhita, 2023."
    assert fmt.governing_words("") == "" and fmt.governing_words("unknown") == ""


def test_readable_names_no_file_or_chunk_id():
    names = {"IPC-420-0-8fe98508": "IPC s. 420 (Cheating)"}
    text = fmt.readable("BPRD_correspondence_BNS_to_IPC_clean.csv#453: see IPC-420-0-8fe98508 in "
                        "IPC_1860_legislative_dept_2019.pdf; DERIVED_division.csv#7", names)
    assert text == ("BPR&D table, row 453: see IPC s. 420 (Cheating) in the source document; BPR&D table, row 7 "
                    "(derived, not official)")
    assert fmt.found_words("query") == "the question" and fmt.found_words("answer") == "the answer"
    assert fmt.found_words("passage:IPC-420-0-8fe98508", names) == "the passage IPC s. 420 (Cheating)"
    assert fmt.found_words("passage:X-1-2", names) == "a retrieved passage"


def test_para_anchor_and_case_url():
    assert fmt.para_anchor("18") == "para-18" and fmt.para_anchor("32-33") == "para-32"
    assert fmt.para_anchor("7.2") == "para-7.2" and fmt.para_anchor("") == "" and fmt.para_anchor("x<y") == ""
    assert fmt.case_url("C20", "18") == "/case/C20#para-18" and fmt.case_url("C20") == "/case/C20"


JUDGMENT = Chunk("C20-29-0a3415b0", "judgment", "In a case based on circumstantial evidence the circumstances must "
                 "be fully established.", "Padala Veera Reddy v. State of Andhra Pradesh and Others", "C20.txt",
                 (6, 6), 29, 36, case="C20", meta=(("citations", "(1989) Supp 2 SCC 706"),
                                                    ("court", "Supreme Court of India"), ("date", "1989-10-26"),
                                                    ("paras", "18")))


def judgment_answer() -> Answer:
    cite = Citation(1, JUDGMENT.id, None, JUDGMENT.source, JUDGMENT.pages, "The circumstances must be proved [1].",
                    "supported", "the circumstances must be fully established")
    return Answer("circumstantial evidence", "The circumstances must be proved [1].", (cite,),
                  passages=(Hit(JUDGMENT, 1.0, "fused", 1),))


def test_a_judgment_citation_shows_its_case_and_opens_at_its_paragraph():
    a = judgment_answer()
    panel = fmt.citations_panel(a)
    assert "C20.txt" not in panel and "/source/" not in panel
    assert 'href="/case/C20#para-18"' in panel
    assert "Padala Veera Reddy v. State of Andhra Pradesh and Others, (1989) Supp 2 SCC 706, para 18" in panel
    choices = fmt.source_choices(a)
    assert choices == [("[1] " + citation_records(a, True)[0].citation, 1)] and "C20.txt" not in choices[0][0]
    view = fmt.source_view_html(a, 1)
    assert "C20.txt" not in view and 'src="/case/C20#para-18"' in view and "open the judgment at para 18" in view
    assert "Padala Veera Reddy" in fmt.sources_line(a) and "C20.txt" not in fmt.sources_line(a)


def test_a_judgment_the_server_does_not_show_opens_at_its_page():
    a = judgment_answer()
    panel = fmt.citations_panel(a, served=lambda case: False)
    assert 'href="/source/C20.txt#page=6"' in panel and ">C20.txt<" not in panel


def test_the_case_page_anchors_printed_paragraphs():
    j = Judgment("C20", "A v. B", "Supreme Court of India", "1989-10-26", "C20.txt", citations=("(1989) 2 SCC 1",))
    paras = [Paragraph("C20", "", "26 October 1989", "C20.txt", (0, 0)),
             Paragraph("C20", "1", "1. First.", "C20.txt", (1, 1)),
             Paragraph("C20", "18", "18. <b>Held</b>.", "C20.txt", (6, 6)),
             Paragraph("C20", "18", "18. A repeat.", "C20.txt", (6, 6))]
    page = fmt.case_page_html(j, paras)
    assert page.count('id="para-18"') == 1 and 'id="para-1"' in page and "&lt;b&gt;Held" in page
    assert "C20.txt" not in page and "(1989) 2 SCC 1" in page and "26 October 1989" in page


def test_passage_name():
    assert fmt.passage_name(JUDGMENT) == "Padala Veera Reddy v. State of Andhra Pradesh and Others, (1989) Supp 2 " \
                                         "SCC 706, para 18"
    statute = Chunk("IPC-420-0-x", "statute", "Whoever cheats ...", "Cheating and dishonestly inducing delivery of "
                    "property", "IPC.pdf", (96, 96), 0, 1, StatuteRef("IPC", "420"))
    assert fmt.passage_name(statute) == "IPC s. 420 (Cheating and dishonestly inducing delivery of property)"


def test_ask_note_escapes():
    assert fmt.ask_note("") == "" and "&lt;b&gt;" in fmt.ask_note("<b>")
