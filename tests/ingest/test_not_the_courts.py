"""PDF text that is not the court's (issue 16, kind 4): found by its drawing state, kept apart, flagged.

Generated PDFs (``pdf_factory.not_the_courts_pdf``) plant, over a small judgment, each kind of text a court did not
write: a 45-degree watermark and a 30-degree stamp drawn between body lines, render-mode-3 and white text, 1 pt
text, text right of the MediaBox, and a watermark inside a rotated Form XObject. Before this change the
watermark, the invisible, the white and the tiny text were merged into paragraph 3. The court's own text set in
synthetic italics (a sheared text matrix) and a page whose whole content is turned by 90 degrees stay body text.
The real judgment and statute PDFs have no such text: nothing of theirs is kept apart.
"""

from __future__ import annotations

import pytest

from legal_rag.ingest.judgment_header import read_header
from legal_rag.ingest.judgments import parse_judgment
from legal_rag.ingest.pdf import extract_pages
from legal_rag.types import Page

from . import pdf_factory as f

REASON = {"angled": "angled", "stamp": "angled", "invisible": "invisible", "white": "white", "tiny": "tiny",
          "off_page": "off_page", "form_angled": "angled"}
KIND = {"angled": "angled_text", "invisible": "hidden_text", "white": "hidden_text", "tiny": "tiny_text",
        "off_page": "off_page_text"}


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    path = f.not_the_courts_pdf(tmp_path_factory.mktemp("planted") / "order.pdf")
    res = extract_pages(path, cache_dir=None)
    judgment, paras, _ = parse_judgment(res.pages, res.source)
    return res, judgment, paras


def test_each_kind_is_kept_apart_with_its_reason(planted):
    res, _, _ = planted
    got = {text: (page, reason) for page, reason, text in res.apart}
    assert got == {f.PLANTED[k]: (1, REASON[k]) for k in f.PLANTED}


def test_nothing_planted_reaches_a_page_or_a_paragraph(planted):
    res, judgment, paras = planted
    body = "\n".join(p.text for p in res.pages) + "\n".join(p.text for p in paras)
    for text in f.PLANTED.values():
        assert text.split()[0] not in body, text
    assert [p.number for p in paras if p.number] == ["1", "2", "3", "4", "5", "6"]
    third = next(p for p in paras if p.number == "3")
    assert third.text.endswith("weighed that evidence correctly before convicting.")  # nothing glued on


def test_the_courts_own_slanted_and_turned_text_stays(planted, tmp_path):
    res, _, paras = planted
    assert "Hon'ble Ramesh Sinha, J." in res.pages[0].text  # synthetic italics: a 15-degree shear
    turned = extract_pages(f.not_the_courts_pdf(tmp_path / "turned.pdf", planted=(), rotated_page=True),
                           cache_dir=None)
    assert turned.apart == ()  # page 2 drawn at 90 degrees throughout: that is the page's own direction
    assert "witness number 6" in turned.pages[1].text


def test_the_ingest_report_names_file_page_and_kind(planted):
    res, _, _ = planted
    flagged = [p for p in res.problems if p.kind in set(KIND.values())]
    assert {(p.source, p.page, p.kind) for p in flagged} == {("order.pdf", 1, k) for k in KIND.values()}
    assert all(p.severity == "warning" and "kept apart from the body" in p.message for p in flagged)
    angled = next(p for p in flagged if p.kind == "angled_text")
    assert angled.message.startswith("3 pieces of text drawn at an angle")


@pytest.mark.parametrize("kind", list(f.PLANTED))
def test_one_kind_alone(tmp_path, kind):
    res = extract_pages(f.not_the_courts_pdf(tmp_path / "one.pdf", planted=(kind,)), cache_dir=None)
    assert [(t, r) for _, r, t in res.apart] == [(f.PLANTED[kind], REASON[kind])]


def test_a_court_line_that_wraps_keeps_its_seat(planted):
    _, judgment, paras = planted
    assert judgment.court == "High Court of Judicature at Allahabad"
    assert judgment.title == "Ram Kumar Yadav v. State of U.P." and judgment.date == "2024-03-12"
    cases = {
        ("IN THE HIGH COURT OF JUDICATURE AT", "ALLAHABAD"): "High Court of Judicature at Allahabad",
        ("HIGH COURT OF JUDICATURE AT BOMBAY, NAGPUR BENCH",): "High Court of Judicature at Bombay",
        ("IN THE HIGH COURT OF", "PUNJAB AND HARYANA AT CHANDIGARH"): "High Court of Punjab and Haryana",
        ("HIGH COURT OF JUDICATURE FOR RAJASTHAN", "BENCH AT JAIPUR"): "High Court of Judicature for Rajasthan",
        ("IN THE HIGH COURT OF DELHI AT NEW DELHI",): "High Court of Delhi",
        ("IN THE HIGH COURT OF JUDICATURE AT", "RAM KUMAR YADAV ...APPELLANT"): "High Court of Judicature",
    }
    for court, want in cases.items():
        text = "\n".join([*court, "Ram Kumar Yadav", "Versus", "State of U.P.", "Date of judgment: 12 March 2024",
                          "JUDGMENT", "1. The appeal is against a conviction recorded by the trial court for cheating."])
        header = read_header((Page("a.pdf", 1, text),))
        assert header.court == want, court
        assert header.title.endswith("Ram Kumar Yadav v. State of U.P."), (court, header.title)
        assert not header.title.startswith(("ALLAHABAD", "PUNJAB")), header.title


@pytest.mark.slow
def test_the_real_judgments_have_no_text_kept_apart():
    """Nothing of the corpus's 24 judgment PDFs is kept apart, so they parse to the same lines, and so the same
    paragraphs, as before (checked against the previous layout code when this was written: no difference)."""
    from legal_rag.config import Settings

    root = Settings().corpus_path / "judgments" / "pdf"
    if not root.is_dir():
        pytest.skip("real corpus not found")
    pdfs = sorted(root.glob("*.pdf"))
    assert len(pdfs) == 24
    for pdf in pdfs:
        res = extract_pages(pdf, timeout_s=600)
        assert res.apart == (), (pdf.name, res.apart[:5])
        assert not [p for p in res.problems if p.kind in set(KIND.values())], pdf.name


@pytest.mark.slow
def test_the_statute_prints_keep_apart_only_the_signature_block(parsed_acts):
    """The Gazette prints end with the digital signature's appearance (signer, X.509 distinguished name) set in
    type under 2 pt: that, and nothing else, is kept apart. It used to end BNS s. 358's text; the Legislative
    Counsel's signature above it is no section's text either (:mod:`legal_rag.ingest.schedule_text`)."""
    for act, parsed in parsed_acts.items():
        apart = parsed.result.apart
        last = parsed.result.page_count
        assert all(page == last and reason == "tiny" for page, reason, _ in apart), (act, apart[:5])
        if act in ("BNS", "BSA"):
            assert apart and apart[0][2] == "Digitally signed by Kshitiz Mohan", (act, apart[:3])
        else:
            assert apart == (), act
    s358 = next(s for s in parsed_acts["BNS"].sections if s.ref.section == "358")
    assert "pseudonym=" not in s358.text and "Minto Road" not in s358.text
    assert s358.text.rstrip().endswith("with regard to the\neffect of the repeal.") and "Joint Secretary" not in s358.text
