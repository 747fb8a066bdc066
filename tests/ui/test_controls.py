"""The UI's controls and the JSON API's fields over the fake pipeline (fast; the same over the real pipeline is in
``test_controls_real.py``): what each control sends, errors that leave nothing stale, the length limit, escaping, and
which answer engines are offered (issue 16, kinds 2 and 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from legal_rag.config import load_settings
from legal_rag.retrieve import Filters
from legal_rag.ui import app as ui
from tests.ui.ui_drive import handlers, run_ask, shown
from tests.ui.ui_fake import FakePipeline

Q = "What is the BNS equivalent of IPC 420?"


@pytest.fixture
def fake(tmp_path):
    s = load_settings(data_dir=tmp_path / "data", question_max_chars=300)
    return s, FakePipeline(s)


@pytest.fixture
def demo(fake):
    s, pipe = fake
    return ui.create_app(s, pipe)


def test_every_ask_control_reaches_the_pipeline(demo, fake):
    _, pipe = fake
    v = run_ask(demo, "  What is the BNS equivalent of IPC ४२०?\x0b ", offence_date="२०२४-०६-२०", acts=["BNS", "IPC"],
                codes="new", judgments=False, generator="qwen2.5-1.5b")
    call = pipe.calls[-1]
    assert call["question"] == Q  # normalised at the front door
    assert call["filters"] == Filters(act=("BNS", "IPC"), code="new", kind="statute")  # a Filters, never "codes"
    assert str(call["offence_date"]) == "2024-06-20" and call["generator"] == "qwen2.5-1.5b"
    assert "BNS 318(4)" in v.reply and v.answer is not None and len(v.export_paths()) == len(ui.FORMATS)
    run_ask(demo, Q, codes="old")
    assert pipe.calls[-1]["filters"] == Filters(code="old")
    run_ask(demo, Q, codes="both", judgments=True, generator="not-offered")
    assert pipe.calls[-1]["filters"] is None and pipe.calls[-1]["generator"] is None


def test_an_error_leaves_a_reply_and_no_stale_exports(demo, fake):
    _, pipe = fake
    good = run_ask(demo, Q)
    assert good.export_paths()
    n = len(pipe.calls)
    bad = run_ask(demo, Q, history=good.chat, offence_date="20/06/2024")
    assert len(pipe.calls) == n  # never asked
    assert bad.reply.startswith("Not asked:") and "is not a date" in bad.reply
    assert bad.exports_cleared and bad.citations == "" and bad.banner == "" and bad.answer is None
    assert bad.chat[:len(good.chat)] == good.chat and all(m["content"] for m in bad.chat)

    def broken(*a, **k):
        raise ui.LegalRagError("the index is being rebuilt")
        yield  # pragma: no cover

    pipe.ask_stream = broken
    failed = run_ask(demo, Q, history=good.chat)
    assert failed.reply == "No answer: the index is being rebuilt" and failed.exports_cleared and failed.answer is None


def test_the_length_limit_is_stated_and_enforced(demo, fake):
    s, pipe = fake
    n = len(pipe.calls)
    v = run_ask(demo, "What is cheating? " * 40)
    assert len(pipe.calls) == n and "the limit is 300 characters" in v.reply and v.exports_cleared
    config = demo.get_config_file() if hasattr(demo, "get_config_file") else demo.config
    infos = [c.get("props", {}).get("info") for c in config["components"]]
    assert "At most 300 characters." in infos


def test_user_text_is_shown_as_text(demo):
    evil = "<img src=x onerror=alert(1)> **bold** What is the BNS equivalent of IPC 420?"
    v = run_ask(demo, evil)
    user = v.chat[-2]["content"]
    assert "<img" not in user and "&lt;img src=x onerror=alert\\(1\\)&gt;" in user and "\\*\\*bold\\*\\*" in user
    assert shown(user) == evil
    bad = run_ask(demo, Q, offence_date="<img src=x onerror=alert(1)>")
    assert "<img" not in bad.chat[-1]["content"] and "&lt;img" in bad.chat[-1]["content"]
    assert "'<img src=x onerror=alert(1)>' is not a date" in bad.reply
    assert ui.as_text("a_b [1] #x\n- y") == "a\\_b \\[1\\] \\#x\n\\- y"


def test_lookup_and_upload_controls(demo, fake, tmp_path):
    h = handlers(demo)
    html = h["lookup"]("IPC ४२०")
    assert "IPC 420 → BNS 318(4)" in html
    assert "limit is 300" in h["lookup"]("IPC 420 " * 60)
    from reportlab.pdfgen import canvas

    from types import SimpleNamespace

    from gradio.utils import get_upload_folder

    folder = Path(get_upload_folder()) / f"lr-test-{tmp_path.name}"
    folder.mkdir(parents=True, exist_ok=True)
    pdf = folder / "notes.pdf"  # where Gradio itself writes an upload
    c = canvas.Canvas(str(pdf))
    c.drawString(72, 720, "Section 420 IPC: my own notes")
    c.showPage()
    c.save()
    me = SimpleNamespace(username=None, headers={"cookie": "lr_owner=" + "m" * 32})
    shown = list(h["upload"]([str(pdf)], me))[-1]
    assert "notes.pdf" in shown and "Added to your documents" in shown and fake[1].uploads[-1].suffix == ".pdf"
    rows, pick = h["listed"](me)
    assert [r[0] for r in rows] == ["notes.pdf"] and pick["choices"]
    # a file outside Gradio's upload folder is refused, whatever the client names
    outside = tmp_path / "other.pdf"
    outside.write_bytes(pdf.read_bytes())
    n = len(fake[1].uploads)
    refused = list(h["upload"]([str(outside)], me))[-1]
    assert "not a file uploaded through this page" in refused and str(tmp_path) not in refused
    assert len(fake[1].uploads) == n
    assert "Removed notes.pdf" in h["remove"](pick["choices"][0][1], me)
    assert h["listed"](me)[0] == []


def test_the_135m_test_model_is_never_offered(tmp_path):
    s = load_settings(data_dir=tmp_path)
    pipe = FakePipeline(s, generators=("extractive", "transformers"))
    assert ui.offered_generators(pipe, s) == ("extractive",)
    mine = load_settings(data_dir=tmp_path, generator="transformers", generator_model="/models/my-7b")
    assert ui.offered_generators(FakePipeline(mine, generators=("extractive", "transformers")), mine) == \
        ("extractive", "transformers")


@pytest.fixture
def client(fake):
    from fastapi.testclient import TestClient

    s, pipe = fake
    with TestClient(ui.create_server(s, pipe)) as c:
        yield c, pipe


def test_api_fields_are_validated(client):
    c, pipe = client
    r = c.post("/api/ask", json={"question": Q, "filters": {"codes": "new"}, "offence_date": "2024-06-20"})
    assert r.status_code == 200 and pipe.calls[-1]["filters"] == Filters(code="new")
    assert str(pipe.calls[-1]["offence_date"]) == "2024-06-20"
    for body, status, named in (
            ({"question": Q, "filters": {"cdoe": "new"}}, 400, "'cdoe'"),
            ({"question": Q, "filters": {"code": "newest"}}, 400, "code='newest'"),
            ({"question": Q, "filters": {"act": "XYZ"}}, 400, "act='XYZ'"),
            ({"question": Q, "filters": "new"}, 400, "filters"),
            ({"question": Q, "offence_date": "20/06/2024"}, 400, "20/06/2024"),
            ({"question": Q, "generator": "x"}, 400, "generator"),
            ({"filters": {}}, 400, "question"),
            ({"question": " \x0b "}, 400, "question is empty"),
            ({"question": "x" * 301}, 413, "the limit is 300 characters")):
        n = len(pipe.calls)
        r = c.post("/api/ask", json=body)
        assert r.status_code == status and named in r.json()["detail"], (body, r.status_code, r.text)
        assert len(pipe.calls) == n
    r = c.get("/api/lookup", params={"q": "IPC ४२०"})
    assert r.status_code == 200 and r.json()["correspondence"]["targets"][0]["section"] == "318"
    assert c.get("/api/lookup", params={"q": "4" * 301}).status_code == 413
