"""The answer to "which judgments applied <section>?" in the chat UI and the JSON API, through the real pipeline
(the UI's own handlers, ``ui_drive.py``; the API over FastAPI's test client). Slow: the session's real index."""

from __future__ import annotations

import re

import pytest

from legal_rag.types import NEW_ACTS
from tests.ui.ui_drive import run_ask

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def ref(real_pipeline):
    """The new-code section most judgments of the case base cite."""
    cb = real_pipeline.casebase
    if cb is None:
        pytest.skip("no case base built")
    return max(sorted({r for c in cb.cases for r in cb.case_cites(c) if r.act in NEW_ACTS}, key=str),
               key=cb.section_df)


@pytest.fixture(scope="module")
def asked(ref) -> str:
    return f"which judgments applied {ref}?"


def test_the_chat_lists_them_and_opens_each_at_its_paragraph(demo, asked):
    v = run_ask(demo, asked)
    a = v.answer
    assert a.model == "judgment-lookup" and a.citations and v.reply.startswith("Judgments")
    cases = [h.chunk.case for h in a.passages]
    links = re.findall(r'class="lr-source-link" href="/case/([^"#]+)', v.citations)
    assert links == cases  # every entry opens its judgment's page of the case base
    assert all(h.chunk.title in v.reply for h in a.passages)
    assert len(v.export_paths()) == 7


def test_the_api_answers_it_as_json(real_pipeline, asked, ref):
    from fastapi.testclient import TestClient

    from legal_rag.ui.app import create_server

    with TestClient(create_server(real_pipeline.settings, real_pipeline)) as c:
        doc = c.post("/api/ask", json={"question": asked}).json()
        assert doc["answer"].startswith("Judgments") and doc["citations"]
        assert all(x["kind"] == "judgment" and x["court"] and x["date"] for x in doc["citations"])
        dates = [x["date"] for x in doc["citations"]]
        assert dates == sorted(dates, reverse=True)
        # the Delhi High Court sits from 1966 (Delhi High Court Act, 1966): none of its judgments is of 1951
        none = c.post("/api/ask", json={"question": f"which Delhi High Court judgments of 1951 applied {ref}?"}).json()
        assert "of the Delhi High Court, decided in 1951" in none["answer"] and not none["citations"]
