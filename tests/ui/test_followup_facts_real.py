"""Issue 31 on the real index: a follow-up after a fact pattern ("can he get bail, and which court hears it?") is
answered for the provision that governed the previous answer (its head, at its sub-section), with that provision's
First Schedule classification, through the pipeline, the chat's own handler and the JSON API alike; a follow-up
with no previous answer says there is no previous question; and the follow-up's banner heads no section the user
never mentioned (kind 6: "IPC 318 → BNS 94" from the follow-up's "BNS 318(4)").

Slow: the session's real-corpus index (``real_pipeline`` in ``tests/conftest.py``)."""

from __future__ import annotations

import json
import re

import pytest

from legal_rag.export import answer_text, export_answer
from legal_rag.law import NO_PREVIOUS
from legal_rag.law.followup import followup_note
from legal_rag.ui import html as fmt
from tests.ui.ui_drive import run_ask

pytestmark = pytest.mark.slow

FACTS = (
    "Late at night someone broke the lock of my shop and carried away the cash box with Rs 40,000. "
    "Which offence is this?",
    "A man took Rs 2 lakh from my neighbour promising him a railway job, then switched off his phone and vanished. "
    "What offence is this?",
)
FOLLOWS = ("And can he get bail for it? Which court will hear the case?",
           "Is that bailable, and which court tries it?")


@pytest.fixture(scope="module")
def facts(real_pipeline):
    """Each fact pattern's answer; each governed by a provision of the head (else the follow-up has none)."""
    answers = {q: real_pipeline.ask(q) for q in FACTS}
    for q, a in answers.items():
        assert a.head, f"no governing provision for {q!r}"
    return answers


def follow_notices(answer) -> list[str]:
    return [n.text for n in answer.notices if n.kind == "follow-up"]


def assert_classified_head(follow, governing) -> None:
    """``follow`` is answered for ``governing`` (a StatuteRef), its head line naming the provision's First Schedule
    classification: bail and the court that tries it."""
    assert follow_notices(follow) == [followup_note((governing,))]
    assert answer_text(follow).startswith(followup_note((governing,)))
    assert [h.ref for h in follow.head] == [governing]
    line = follow.head[0]
    assert line.rows, f"no First Schedule row for {governing}"
    assert re.search(r"\b(?:non-)?bailable\b", line.line) and "triable by" in line.line, line.line
    assert any(s.startswith("First Schedule") for s in line.sources)


def assert_no_unmentioned_flag(follow) -> None:
    """No flag of the question's own (the user named no section) and every section the banner heads is one the
    answer shows (its text or a passage given to it)."""
    assert not [f for f in follow.flags if f.found_in == "query"], follow.flags
    banner = fmt.supersession_banner(follow.flags, follow.problems).split("<details", 1)[0]  # what is shown
    shown_text = answer_text(follow)
    passages = {h.chunk.ref.base for h in follow.passages if h.chunk.ref is not None}
    for f in follow.flags:
        if f"<b>{f.old} → " in banner or f"<b>{f.old.base} → " in banner:
            assert str(f.old.base) in shown_text or f.old.base in passages, (f.old, shown_text[:300])


@pytest.mark.parametrize("follow_q", FOLLOWS)
@pytest.mark.parametrize("fact_q", FACTS)
def test_a_follow_up_after_a_fact_pattern_is_about_the_governing_provision(real_pipeline, facts, fact_q, follow_q):
    first = facts[fact_q]
    governing = first.head[0].ref
    follow = real_pipeline.ask(follow_q, previous=first)
    assert follow.query == follow_q  # the user's words kept as the question asked
    assert_classified_head(follow, governing)
    assert_no_unmentioned_flag(follow)


def test_a_follow_up_with_no_previous_answer_says_so(real_pipeline):
    for follow_q in FOLLOWS:
        alone = real_pipeline.ask(follow_q)
        assert follow_notices(alone) == [NO_PREVIOUS]
        assert answer_text(alone).startswith(NO_PREVIOUS)
        assert not any(n.startswith("Taking this as a question about") for n in follow_notices(alone))


def test_a_fact_pattern_alone_cannot_be_followed_and_says_why(real_pipeline):
    """The previous question without its answer names no provision: said, never answered silently on its own."""
    alone = real_pipeline.ask(FOLLOWS[0], previous=FACTS[0])
    (note,) = follow_notices(alone)
    assert note.startswith("Not read as a follow-up:") and "named no provision" in note


def test_the_chat_and_the_api_resolve_it_alike_and_clearing_forgets_it(demo, real_pipeline, facts):
    from fastapi.testclient import TestClient

    from legal_rag.ui.app import create_server

    fact_q = FACTS[1]
    governing = facts[fact_q].head[0].ref
    first = run_ask(demo, fact_q)
    second = run_ask(demo, FOLLOWS[1], history=first.chat, previous=first.answer)
    assert_classified_head(second.answer, governing)
    assert second.reply.startswith(followup_note((governing,)))
    assert_no_unmentioned_flag(second.answer)
    cleared = run_ask(demo, FOLLOWS[1], history=[], previous=second.answer)  # after Clear: an empty chat
    assert cleared.reply.startswith(NO_PREVIOUS)

    with TestClient(create_server(real_pipeline.settings, real_pipeline)) as api:
        r = api.post("/api/ask", json={"question": fact_q})
        assert r.status_code == 200, r.text
        r = api.post("/api/ask", json={"question": FOLLOWS[0], "previous_answer": r.json()})
        assert r.status_code == 200, r.text
        doc = r.json()
        assert doc["answer"].startswith(followup_note((governing,)))
        assert [(h["ref"]["act"], h["ref"]["section"], tuple(h["ref"]["sub"])) for h in doc["head"]] == \
            [(governing.act, governing.section, governing.sub)]
        assert not [f for f in doc["supersession"] if f["found_in"] == "query"]
        r = api.post("/api/ask", json={"question": FOLLOWS[0]})  # a conversation started afresh
        assert r.status_code == 200 and r.json()["answer"].startswith(NO_PREVIOUS)


def test_the_json_export_carries_the_turn(real_pipeline, facts):
    from legal_rag.export import turn_of_json

    first = facts[FACTS[0]]
    turn = turn_of_json(export_answer(first, "json"))
    assert turn.refs == (first.head[0].ref,) and turn.question == first.query


def test_a_follow_up_keeps_the_offence_date_of_the_facts_before_it(real_pipeline):
    """A dated fact pattern, then "and the punishment?": the follow-up is about the same offence, so it is answered
    with the same offence date, the code in force on it named, and its notice says the date was taken over."""
    facts = real_pipeline.ask("On 12.03.2024 my tenant forged my signature on a rent agreement to get a bank loan. "
                              "What offence is this?")
    assert facts.offence_date is not None and facts.head
    follow = real_pipeline.ask("And what is the punishment for it?", previous=facts)
    governing = facts.head[0].ref
    assert follow.offence_date == facts.offence_date
    assert [h.ref for h in follow.head] == [governing]
    assert follow_notices(follow) == [followup_note((governing,), facts.offence_date)]
    assert f"{facts.offence_date:%d}" in follow_notices(follow)[0]
    assert "before 1 July 2024" in follow.text  # the era sentence of a dated offence, as the facts' answer had
    # the JSON API: the previous answer sent back as its JSON export carries the same date
    from fastapi.testclient import TestClient

    from legal_rag.ui.app import create_server

    with TestClient(create_server(real_pipeline.settings, real_pipeline)) as api:
        doc = json.loads(export_answer(facts, "json"))
        assert doc["offence_date"] == facts.offence_date.isoformat()
        r = api.post("/api/ask", json={"question": "And what is the punishment for it?", "previous_answer": doc})
        assert r.status_code == 200, r.text
        assert r.json()["answer"].startswith(followup_note((governing,), facts.offence_date))
        assert r.json()["offence_date"] == facts.offence_date.isoformat()
