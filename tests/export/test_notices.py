"""Notices are data on the Answer (``Answer.notices``), rendered once (:func:`legal_rag.export.answer_text`) above the
verified text, the same in every export and the JSON API."""

from __future__ import annotations

import json

from legal_rag.export import answer_text, export_answer
from legal_rag.types import Answer, Notice

FOLLOW = Notice("follow-up", "Taking this as a question about BNS 318(4), from your previous question:")
DATE = Notice("date", 'Not read as a date (no such calendar date): "31.02.2024".')


def test_notices_lead_the_text_in_order_and_the_text_stays_the_verified_text():
    a = Answer("q", "BNS 318(4) punishes cheating.", notices=(DATE, FOLLOW))
    assert answer_text(a) == f"{DATE.text}\n\n{FOLLOW.text}\n\nBNS 318(4) punishes cheating."
    assert a.text == "BNS 318(4) punishes cheating."
    assert answer_text(Answer("q", "plain")) == "plain" and str(FOLLOW) == FOLLOW.text


def test_every_export_shows_the_notices_once():
    a = Answer("q", "BNS 318(4) punishes cheating.", notices=(FOLLOW,))
    doc = json.loads(export_answer(a, "json"))
    assert doc["answer"].startswith(FOLLOW.text) and doc["answer"].count(FOLLOW.text) == 1
    md = export_answer(a, "markdown").decode("utf-8")
    assert md.count(FOLLOW.text) == 1 and md.index(FOLLOW.text) < md.index("punishes cheating")
