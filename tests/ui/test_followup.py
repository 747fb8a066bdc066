"""Conversation follow-ups and the banner in a lawyer's words (issue 14, BL-60 and BL-61), fast: the UI handler and
the API over the fake pipeline (what they pass on, what the history keeps), and the banner over real supersession
flags from the BPR&D tables (the rows are read from the flags, never typed in). The same over the real pipeline:
``test_followup_real.py``."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from legal_rag.config import load_settings
from legal_rag.law import flag_superseded, load_concordance
from legal_rag.types import StatuteRef as S
from legal_rag.ui import app as ui
from legal_rag.ui import html as fmt
from tests.ui.ui_drive import run_ask, shown
from tests.ui.ui_fake import FakePipeline

Q = "What is the BNS equivalent of IPC 420?"
FOLLOW = "and what about the punishment?"
VERIFIER = "removed unsupported sentence 'Explanation.-' : section 2 of the Dowry Prohibition Act, 1961 is not the cited"


def visible(banner: str) -> str:
    """The banner as shown before anyone opens "Details"."""
    return banner.split("<details", 1)[0]


@pytest.fixture(scope="module")
def conc():
    return load_concordance()


@pytest.fixture
def fake(tmp_path):
    s = load_settings(data_dir=tmp_path / "data")
    return s, FakePipeline(s)


# ------------------------------------------------------------------------------------------------------ the banner


def bl61_flags(conc, when=dt.date(2024, 5, 10)):
    """The flags the pipeline raises for BL-61 (IPC 304B in a passage, 304B(1) and (2) in the answer, BNS 80(1) in
    the answer for a 2024 offence, IPC 316 in another passage)."""
    return (flag_superseded([S("IPC", "304B")], "passage:IPC-304B-0-716137b1", when, concordance=conc)
            + flag_superseded([S("IPC", "304B", ("1",)), S("IPC", "304B", ("2",)), S("BNS", "80", ("1",))], "answer",
                              when, concordance=conc)
            + flag_superseded([S("IPC", "316")], "passage:IPC-316-0-4dc83f0e", when, concordance=conc))


def test_bl61_banner_each_flag_once_no_ids_no_verifier_messages(conc):
    flags = bl61_flags(conc)
    assert sum(f.old.base == S("IPC", "304B") for f in flags) >= 3  # the same fact raised several times
    html = fmt.supersession_banner(flags, (VERIFIER,), offence_date=dt.date(2024, 5, 10))
    shown_part = visible(html)
    assert shown_part.count("<b>IPC 304B → ") == 1 and shown_part.count("<b>IPC 316 → ") == 1
    assert shown_part.count('class="lr-flag') == 2
    row = next(f.source_row for f in flags if f.old.base == S("IPC", "304B")).split("#")[1]
    assert f"BPR&amp;D table, row {row}" in shown_part
    for internal in ("passage:", "IPC-304B-0-", "removed unsupported", "relevance floor", ".csv#"):
        assert internal not in shown_part, internal
    assert "IPC 304B governs here: the offence date is before 1 July 2024 (BNS s.358)" in shown_part
    assert "BNS 80 applies to offences committed on or after 1 July 2024" in shown_part
    # which date decides for each Act
    assert "Offence date 10 May 2024 (2024-05-10) decides the substantive code: the IPC governs" in shown_part
    assert "procedure and evidence follow the proceeding" in shown_part and "BSA s.170(2)" in shown_part
    # what was taken out of the banner is in the collapsed details
    details = html[len(shown_part):]
    assert details.startswith('<details class="lr-details"><summary>Details</summary>')
    assert "Found in a retrieved passage" in details and "removed unsupported sentence" in details
    assert "IPC-304B-0-716137b1" not in details  # the Details name places as a reader does, never by chunk id


def test_banner_date_per_act_and_row_links(conc):
    flags = flag_superseded([S("IPC", "420")], "query", concordance=conc)
    plain = fmt.supersession_banner(flags)
    assert "IPC 420 is replaced by BNS 318(4) for offences committed on or after 1 July 2024" in visible(plain)
    assert "decides" not in plain  # no date known: no date sentence
    both = fmt.supersession_banner(flags, offence_date=dt.date(2024, 8, 1), proceeding_date=dt.date(2024, 6, 3))
    assert "the BNS governs" in both and "the CrPC and the Evidence Act continue" in both
    row = flags[0].source_row.split("#")[1]
    linked = fmt.supersession_banner(flags, row_link=lambda name, r: f"/table-row/{name}/{r}" if name.endswith(".csv")
                                     else None)
    assert f'<a class="lr-row" href="/table-row/BPRD_correspondence_BNS_to_IPC_clean.csv/{row}"' in linked
    assert '<a class="lr-row"' not in fmt.supersession_banner(flags, row_link=lambda name, r: None)


def test_banner_escapes_and_keeps_problems_out_of_sight():
    html = fmt.supersession_banner((), ("<img src=x onerror=alert(1)>",))
    assert "<img" not in html and "&lt;img" in html and "lr-flag" not in visible(html)


# ---------------------------------------------------------------------------------------- the chat and the API


def test_follow_up_gets_the_previous_answer_and_the_history_keeps_each_turns_sources(fake):
    s, pipe = fake
    demo = ui.create_app(s, pipe)
    first = run_ask(demo, Q)
    assert pipe.calls[-1]["previous"] is None
    assert "Sources: [1] BNS s. 318(4), p. 87; [2] IPC s. 420, p. 96 (unsupported)" in first.reply
    second = run_ask(demo, FOLLOW, history=first.chat, previous=first.answer)
    assert pipe.calls[-1]["previous"] is first.answer  # the answer state, passed on unchanged
    assert len(second.chat) == 4 and second.chat[:2] == first.chat
    assert "Sources: [1] BNS s. 318(4)" in shown(second.chat[1]["content"])  # the first turn's own citations stay


def test_sources_line_is_escaped_text(fake):
    s, pipe = fake
    ans = pipe.ask("someone cheated me")
    line = fmt.sources_line(ans)
    assert line.startswith("Sources: [1] BNS s. 318(4), p. 87; [2] Sushil Sethi v. State of Arunachal Pradesh")
    assert fmt.sources_line(None) == ""


def test_api_previous_question(fake):
    from fastapi.testclient import TestClient

    s, pipe = fake
    with TestClient(ui.create_server(s, pipe)) as api:
        r = api.post("/api/ask", json={"question": FOLLOW, "previous_question": Q})
        assert r.status_code == 200 and pipe.calls[-1]["previous"] == Q
        r = api.post("/api/ask", json={"question": Q, "previous_question": ""})
        assert r.status_code == 200 and pipe.calls[-1]["previous"] is None
        r = api.post("/api/ask", json={"question": Q, "previous_question": "x" * (s.question_max_chars + 1)})
        assert r.status_code == 413
        r = api.post("/api/ask", json={"question": Q, "previous_question": 5})
        assert r.status_code == 400 and "previous_question" in r.text


def test_the_clear_button_drops_the_previous_answer(fake):
    """The Chatbot's Clear event resets the answer state (and what the answer showed); a chat sent back empty
    never passes the previous answer on, whatever the state still holds."""
    s, pipe = fake
    demo = ui.create_app(s, pipe)
    chat = next(b for b in demo.blocks.values() if getattr(b, "elem_id", None) == "lr-chat")
    state = next(b for b in demo.blocks.values() if type(b).__name__ == "State")
    on_clear = [d for d in demo.fns.values()
                if any(t[0] == chat._id and t[1] == "clear" for t in d.targets)]
    assert len(on_clear) == 1 and state._id in [o._id for o in on_clear[0].outputs]
    cites, banner, kept, *_ = on_clear[0].fn()
    assert kept is None and cites == "" and banner == ""
    first = run_ask(demo, Q)
    run_ask(demo, FOLLOW, history=[], previous=first.answer)  # the chat was cleared, the state not yet
    assert pipe.calls[-1]["previous"] is None


def test_api_previous_answer_and_bad_bodies(fake):
    from fastapi.testclient import TestClient

    from legal_rag.export import export_answer
    from legal_rag.law import Turn

    s, pipe = fake
    first = pipe.ask(Q)
    doc = json.loads(export_answer(first, "json"))
    with TestClient(ui.create_server(s, pipe)) as api:
        r = api.post("/api/ask", json={"question": FOLLOW, "previous_answer": doc})
        assert r.status_code == 200, r.text
        sent = pipe.calls[-1]["previous"]
        assert isinstance(sent, Turn) and sent.question == Q
        assert sent.refs == tuple(h.ref for h in first.head)[:1 if first.suggestions else 2]
        r = api.post("/api/ask", json={"question": FOLLOW})
        assert r.status_code == 200 and pipe.calls[-1]["previous"] is None
        r = api.post("/api/ask", json={"question": FOLLOW, "previous_answer": {"answer": "x"}})
        assert r.status_code == 400 and "previous_answer" in r.text
        r = api.post("/api/ask", json={"question": FOLLOW, "previous_answer": doc, "previous_question": Q})
        assert r.status_code == 400 and "not both" in r.text
