"""Section suggestions through the real pipeline (real index, the session's sampled case base): the field case
BL-58 (a job scam) is answered with BNS 318(4) first, cited at the sub-section, with why; a short question that names
an offence keeps the statute text's order. Expectations are legal facts (IPC 420 -> BNS 318(4), BPR&D table)."""

from __future__ import annotations

import pytest

from legal_rag.types import StatuteRef

from tests.statutes import BNS_318_4

pytestmark = pytest.mark.slow

JOB_SCAM = ("My client was cheated of Rs 5 lakh by someone who promised a government job. Which sections apply "
            "and what is the maximum punishment?")


@pytest.fixture(scope="module")
def job_scam(real_pipeline):
    if real_pipeline.casebase is None:
        pytest.fail("the real build made no case base")
    return real_pipeline.ask(JOB_SCAM)


def test_bl58_job_scam_leads_with_bns_318_4(job_scam):
    first = job_scam.passages[0]
    assert first.stage == "evidence"
    assert (first.chunk.ref.act, first.chunk.ref.section) == ("BNS", "318")
    assert "4" in dict(first.chunk.meta)["subs"].split(",")      # the chunk that prints sub-section (4)
    assert "BNS 318(4)" in job_scam.text.splitlines()[0]  # the composed head names it first
    body = job_scam.text.split("\n\n", 1)[1] if job_scam.head else job_scam.text  # after the composed head
    assert body.startswith("BNS 318")
    first_quote = body.split("\n")[1]
    assert first_quote.startswith(f"“{BNS_318_4.upto('dishonestly induces')}")  # quote starts at (4)


def test_bl58_suggestion_says_why(job_scam):
    from legal_rag.ui.html import citations_panel

    top = job_scam.suggestions[0]
    assert top.cited_as == StatuteRef("BNS", "318", ("4",))
    assert StatuteRef("IPC", "420") in top.counterparts
    assert top.n_cases >= 1 and len(top.titles) == len(top.cases)
    html = citations_panel(job_scam)
    assert "BNS 318(4)" in html and "most similar judgments" in html


def test_short_offence_question_leads_with_its_section(real_pipeline):
    hits = real_pipeline.search("What is the punishment for dowry death?")
    assert hits[0].chunk.ref is not None and (hits[0].chunk.ref.act, hits[0].chunk.ref.section) == ("BNS", "80")


def test_a_judgments_only_filter_gets_no_suggestion(real_pipeline):
    hits, suggestions = real_pipeline.search_with_suggestions(JOB_SCAM, filters={"kind": "judgment"})
    assert suggestions == () and all(h.chunk.kind != "statute" for h in hits)


def test_the_judgments_behind_a_suggestion_open(real_pipeline, job_scam):
    """Each suggestion's judgments are links the user can open: GET /case/<id> shows that judgment as text."""
    from fastapi.testclient import TestClient

    from legal_rag.ui.app import create_server
    from legal_rag.ui.html import case_url, citations_panel

    top = next(s for s in job_scam.suggestions if s.cases)       # the first suggestion with judgments behind it
    assert case_url(top.cases[0]) in citations_panel(job_scam)
    with TestClient(create_server(real_pipeline.settings, real_pipeline)) as c:
        r = c.get(case_url(top.cases[0]))
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
        judgment = real_pipeline.casebase.judgment(top.cases[0])
        first = real_pipeline.casebase.paragraphs(top.cases[0])[0].text
        from html import escape

        assert escape(judgment.title) in r.text and escape(first)[:80] in r.text
        assert c.get("/case/NO-SUCH-CASE").status_code == 404


@pytest.mark.xfail(strict=True, reason="known fault, issue of choosing the provision: a question that dates its FIR "
                   "('the FIR was filed on ...') is led by what its procedural words match (BNSS 290 plea bargaining, "
                   "BNSS 234 the charge) above the offence it states (BNS 318); on the product index it is fact set "
                   "F-BL-31A, led by BNSS 290 before the classifier and after")
def test_bl31a_which_section_leads_with_statute_text(real_pipeline):
    """BL-31 A: cheating on 20 June 2024, FIR on 5 July 2024, "which section applies?". The answer leads with
    statute text (a judgment about an FIR shares the words, not the question), and the offence date keeps the IPC
    governing with BNS 318(4) named as its successor."""
    a = real_pipeline.ask("I was cheated on 20 June 2024 and the FIR was filed on 5 July 2024. Which section applies?")
    assert a.passages[0].chunk.kind == "statute"
    top = {(h.chunk.ref.act, h.chunk.ref.section) for h in a.passages[:3] if h.chunk.ref}
    assert top & {("IPC", "415"), ("IPC", "417"), ("IPC", "420"), ("BNS", "318")}, top
    f420 = [f for f in a.flags if str(f.old) == "IPC 420"]
    assert f420 and all(f.applies == "IPC" and f.kind != "superseded" for f in f420)
    assert any(str(n) == "BNS 318(4)" for f in f420 for n in f.new)


def test_bl61_dowry_death_before_july_2024_leads_with_ipc_304b(real_pipeline):
    """BL-61: offence date 2024-05-10, "Which section applies to a dowry death?": IPC 304B governs (BNS 358) and
    leads; BNS 80 is named as its successor, the IPC flagged as governing (not superseded)."""
    a = real_pipeline.ask("Which section applies to a dowry death?", offence_date="2024-05-10")
    first = a.passages[0].chunk
    assert (first.ref.act, first.ref.section) == ("IPC", "304B")
    f = [x for x in a.flags if str(x.old) == "IPC 304B"]
    assert f and all(x.applies == "IPC" and x.kind != "superseded" for x in f)
    assert any(str(n) == "BNS 80" for x in f for n in x.new)


def test_bl31b_old_sections_for_an_offence_on_1_july_2024_are_flagged(real_pipeline):
    """BL-31 B: trespass and insult on 1 July 2024 registered under IPC 447 and 504: both are flagged superseded,
    with BNS 329(3) and BNS 352 from the table, and the BNS text is among the passages."""
    a = real_pipeline.ask("Someone trespassed on my land and insulted me on 1 July 2024; police registered it under "
                          "IPC 447 and 504. Which sections should apply?")
    new = {str(x.old): {str(n) for n in x.new} for x in a.flags if x.kind == "superseded"}
    assert new.get("IPC 447") == {"BNS 329(3)"} and new.get("IPC 504") == {"BNS 352"}
    assert {(h.chunk.ref.act, h.chunk.ref.section) for h in a.passages if h.chunk.ref} >= {("BNS", "329"),
                                                                                            ("BNS", "352")}


def test_api_ask_returns_the_suggestions_and_json_round_trips(real_pipeline, job_scam):
    """POST /api/ask (the JSON export) carries each suggestion with why; the JSON export reads back equal."""
    from fastapi.testclient import TestClient

    from legal_rag.export.formats import build_doc, doc_from_json, to_json
    from legal_rag.ui.app import create_server

    doc = build_doc(job_scam)
    assert doc_from_json(to_json(doc)).suggestions == doc.suggestions == job_scam.suggestions
    with TestClient(create_server(real_pipeline.settings, real_pipeline)) as c:
        r = c.post("/api/ask", json={"question": JOB_SCAM})
        assert r.status_code == 200
        top = r.json()["suggestions"][0]
        assert top["cited_as"] == {"act": "BNS", "section": "318", "sub": ["4"]}
        assert "most similar judgments" in top["why"] and len(top["cases"]) == len(top["titles"])
