"""The chat's own state and judgment citations over the real ``Pipeline`` on the real index (issue 31, kinds 6 and
8), driven through the Ask tab's own handler (``ui_drive.py``) and the server's ``/case`` page.

Slow: the session's real-corpus index (``real_pipeline`` in ``tests/conftest.py``)."""

from __future__ import annotations

import re
from html import escape

import pytest

from tests.ui.test_names import DOUBLED, banner_text
from tests.ui.ui_drive import handlers, run_ask

pytestmark = pytest.mark.slow

SECTION_Q = "What is the BNS equivalent of IPC 420?"
FORGED_DEED = "The accused cheated the complainant of Rs 5 lakh by a forged sale deed. Which sections apply?"
CIRCUMSTANTIAL = "What did the Supreme Court hold about circumstantial evidence in murder cases?"


def test_an_empty_question_changes_nothing(demo):
    """Ask (or Enter) on an empty or blank box: every output of the conversation left as it is, one note."""
    for blank in ("", "   \n", "\u200b"):
        outs = list(handlers(demo)["ask"](blank, [{"role": "user", "content": "q"}], "", [], "both", True, None,
                                          False, None))
        assert len(outs) == 1
        *conversation, box, note = outs[0]
        assert all(o == {"__type__": "update"} for o in conversation) and box == {"__type__": "update"}
        assert "Type a question first" in note


def test_a_too_long_question_stays_in_the_box_with_its_reason(demo):
    long_q = "Whether the accused can be convicted of cheating. " * 200
    v = run_ask(demo, long_q)
    assert v.answer is None and v.box == long_q  # the very text typed, to shorten
    assert "Not asked" in v.note and "limit is" in v.note and "limit is" in v.reply


def test_a_bad_date_keeps_the_question(demo):
    v = run_ask(demo, SECTION_Q, offence_date="20/06/2024")
    assert v.box == SECTION_Q and "is not a date" in v.note and v.answer is None


def test_filters_that_match_nothing_keep_the_question(demo, real_pipeline):
    """A filter the index cannot match is refused by the pipeline after the box was emptied: the question is put
    back with the reason."""
    from legal_rag.errors import LegalRagError

    with pytest.raises(LegalRagError) as err:
        real_pipeline.resolve_filters({"act": ["CrPC"], "code": "new"})
    v = run_ask(demo, SECTION_Q, acts=["CrPC"], codes="new")
    assert v.answer is None and v.box == SECTION_Q and str(err.value)[:40] in v.note


def test_an_accepted_question_empties_the_box_and_the_note(demo):
    v = run_ask(demo, SECTION_Q)
    assert v.answer is not None and v.box == "" and v.note == ""


@pytest.mark.parametrize("date, code", [("", "Bharatiya Nyaya Sanhita, 2023"), ("2024-06-20", "Indian Penal Code, 1860")])
def test_the_banner_names_each_act_once_and_no_internal_name(demo, date, code):
    v = run_ask(demo, SECTION_Q, offence_date=date)
    text = banner_text(v.banner)
    assert "IPC 420 → BNS 318(4)" in text and f"Governing code here: {code}." in text
    assert not DOUBLED.search(text), DOUBLED.search(text).group(0)
    assert not re.search(r"\.(csv|pdf|txt)\b", text) and "passage:" not in text
    assert not any(h.chunk.id in v.banner for h in v.answer.passages)
    assert "Found in the question; the passage IPC s. 420 (Cheating and dishonestly inducing delivery of property)" \
        in text


def test_include_judgments_off_draws_nothing_from_judgments(demo):
    on = run_ask(demo, FORGED_DEED)
    assert on.answer.suggestions and any(s.cases for s in on.answer.suggestions)  # the case base does speak here
    assert "lr-case-link" in on.citations and "most similar judgments" in on.citations
    off = run_ask(demo, FORGED_DEED, judgments=False)
    a = off.answer
    assert a.suggestions and all(not s.cases and not s.titles and not s.n_cases for s in a.suggestions)
    assert {h.chunk.kind for h in a.passages} == {"statute"}
    for shown in (off.citations, off.reply, off.banner, off.source_view):
        assert "lr-case-link" not in shown and "judgment" not in shown.lower(), shown[:300]


def test_a_judgment_citation_shows_its_case_and_opens_at_its_paragraph(demo, real_pipeline):
    from fastapi.testclient import TestClient

    from legal_rag.ui.app import create_server

    v = run_ask(demo, CIRCUMSTANTIAL)
    judged = [h.chunk for h in v.answer.passages if h.chunk.kind == "judgment"]
    assert judged, "the question is answered from judgments"
    for chunk in judged:
        assert chunk.source not in v.citations and chunk.source not in v.reply and chunk.source not in v.source_view
        assert not any(chunk.source in label for label, _ in v.source_pick["choices"])
    links = re.findall(r'class="lr-source-link" href="(/case/[^"#]+#para-[^"]+)"[^>]*>([^<]+)<', v.citations)
    assert links, v.citations[:500]
    with TestClient(create_server(real_pipeline.settings, real_pipeline)) as c:
        for href, label in links:
            case, anchor = href[len("/case/"):].split("#")
            judgment = real_pipeline.casebase.judgment(case)
            chunk = next(c for c in judged if c.case == case)
            assert label.startswith(escape(chunk.title, quote=False))
            page = c.get(href.split("#")[0])
            assert page.status_code == 200 and f'id="{anchor}"' in page.text and judgment.source not in page.text
            number = anchor[len("para-"):]
            para = next(p for p in real_pipeline.casebase.paragraphs(case) if p.number == number)
            at = page.text.index(f'id="{anchor}"')
            assert escape(para.text[:40]) in page.text[at:at + 400]  # the anchor is that paragraph's
