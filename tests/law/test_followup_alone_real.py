"""A follow-up sent alone (no previous question) is not answered, and then no case-base suggestions stand beside
the refusal (issue 14): "and what about the punishment?" had come back with ten suggested sections. Real index."""

from __future__ import annotations

import pytest

from legal_rag.generate import NOT_IN_SOURCES
from legal_rag.law.followup import is_followup
from legal_rag.retrieve.route import analyse_question

pytestmark = pytest.mark.slow

FOLLOW = "and what about the punishment?"


def test_follow_up_alone_abstains_without_suggestions(real_pipeline):
    assert is_followup(analyse_question(FOLLOW, concordance=real_pipeline.concordance))
    answer = real_pipeline.ask(FOLLOW)
    assert NOT_IN_SOURCES in answer.text
    assert answer.suggestions == () and answer.head == ()


def test_follow_up_alone_through_the_api_has_no_suggestions(real_pipeline):
    from fastapi.testclient import TestClient

    from legal_rag.ui.app import create_server

    with TestClient(create_server(real_pipeline.settings, real_pipeline)) as api:
        r = api.post("/api/ask", json={"question": FOLLOW})
        assert r.status_code == 200, r.text
        doc = r.json()
    assert NOT_IN_SOURCES in doc["answer"] and doc["suggestions"] == []


def test_a_fact_pattern_that_is_answered_keeps_its_suggestions(real_pipeline):
    answer = real_pipeline.ask("My client was cheated of Rs 5 lakh by someone who promised a government job. "
                               "Which sections apply and what is the maximum punishment?")
    assert NOT_IN_SOURCES not in answer.text and answer.suggestions
