"""Every control of the chat UI and every field of the JSON API driven through the real ``Pipeline`` on the real
index (issue 16, kinds 1, 2 and 6; field cases BL-43, BL-53, BL-54, BL-57, BL-64). The UI's own handlers are
called with the values the controls send (``ui_drive.py``); the API is called over HTTP.

Slow: the session's real-corpus index (``real_pipeline`` in ``tests/conftest.py``)."""

from __future__ import annotations

import io
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from legal_rag.types import NEW_ACTS, OLD_ACTS
from tests.ui.ui_drive import handlers, run_ask

pytestmark = pytest.mark.slow

SECTION_Q = "What is the BNS equivalent of IPC 420?"
CHEATING_Q = "What is the punishment for cheating?"


def acts_of(answer) -> set[str]:
    return {h.chunk.ref.act for h in answer.passages if h.chunk.ref is not None}


def kinds_of(answer) -> set[str]:
    return {h.chunk.kind for h in answer.passages}


# ------------------------------------------------------------------------------------------------ the UI's controls


def test_question_in_devanagari_digits_gives_the_successor(demo):
    """BL-43: "IPC ४२०" is IPC 420 -> BNS 318(4); the system never says IPC 420 has no counterpart."""
    v = run_ask(demo, "What is the BNS equivalent of IPC ४२०?")
    a = v.answer
    assert a.query == SECTION_Q
    flag = next(f for f in a.flags if str(f.old) == "IPC 420" and f.found_in == "query")
    assert [str(r) for r in flag.new] == ["BNS 318(4)"]
    assert "IPC 420 → BNS 318(4)" in v.banner and "318" in v.reply
    assert "no counterpart" not in v.reply.lower() and "no BNS counterpart" not in v.banner
    assert len(v.export_paths()) == 7


def test_lookup_control(demo):
    lookup = handlers(demo)["lookup"]
    for text in ("IPC ४२०", "आईपीसी 420", "Section ४२० IPC"):
        html = lookup(text)
        assert "IPC 420 → BNS 318(4)" in html and html.count('class="lr-section"') == 2, text
        assert "Text not in the index" not in html  # the real index has both sections' texts
    assert "limit is" in lookup("IPC 420 " * 400)


def test_offence_date_control(demo):
    v = run_ask(demo, SECTION_Q, offence_date="२०२४-०६-२०")  # Devanagari digits in the date field too
    assert 'data-applies="IPC"' in v.banner and "2024-06-20" in v.banner  # BNS s.358: the IPC governs that offence
    later = run_ask(demo, SECTION_Q, offence_date="2024-08-01")
    assert 'data-applies="BNS"' in later.banner
    bad = run_ask(demo, SECTION_Q, offence_date="20/06/2024")
    assert "is not a date" in bad.reply and bad.exports_cleared and bad.answer is None


@pytest.mark.parametrize("codes, acts", [("new", NEW_ACTS), ("old", OLD_ACTS)])
def test_codes_control(demo, codes, acts):
    """BL-53: the Codes radio crashed every ask (``codes`` vs ``code``); now it keeps one code's passages."""
    v = run_ask(demo, CHEATING_Q, codes=codes)
    a = v.answer
    assert a is not None and a.passages and v.reply
    assert acts_of(a) <= acts and kinds_of(a) == {"statute"}, (acts_of(a), kinds_of(a))
    assert all(c.ref is None or c.ref.act in acts for c in a.citations)


def test_acts_control(demo):
    v = run_ask(demo, "anticipatory bail", acts=["BNSS"])
    assert v.answer.passages and acts_of(v.answer) == {"BNSS"} and kinds_of(v.answer) == {"statute"}
    two = run_ask(demo, CHEATING_Q, acts=["IPC", "BNS"])
    assert acts_of(two.answer) <= {"IPC", "BNS"} and kinds_of(two.answer) == {"statute"}


def test_judgments_toggle(demo):
    q = "dishonest intention at the time of making the promise in a complaint of cheating"
    with_j = run_ask(demo, q, judgments=True)
    assert "judgment" in kinds_of(with_j.answer)
    without = run_ask(demo, q, judgments=False)
    assert without.answer.passages and kinds_of(without.answer) == {"statute"}


def test_generator_control(demo, real_pipeline):
    from legal_rag.ui.app import offered_generators

    offered = offered_generators(real_pipeline, real_pipeline.settings)
    assert offered[0] == "extractive" and "transformers" not in offered  # the 135M test model is never offered
    v = run_ask(demo, SECTION_Q, generator="extractive")
    assert v.answer.model.startswith("extractive")
    sneaked = run_ask(demo, SECTION_Q, generator="transformers")  # a value the UI never offers is ignored
    assert not sneaked.answer.model.startswith("transformers")


def test_include_unverified_control(demo):
    v = run_ask(demo, SECTION_Q, include_unverified=True)
    doc = json.loads(v.export_paths()["json"].read_text(encoding="utf-8"))
    assert doc["include_unverified"] is True and doc["query"] == SECTION_Q
    redo = handlers(demo)["_exports"](v.answer, False)
    assert json.loads(Path(redo[1]["value"]).read_text(encoding="utf-8"))["include_unverified"] is False


def test_control_characters_give_an_answer_and_a_docx(demo):
    """BL-54: a vertical tab (Word) or form feed (pdftotext) in a pasted question: the answer and the DOCX."""
    from docx import Document

    for sep in ("\x0b", "\x0c"):
        v = run_ask(demo, f"What replaced Section 498A IPC?{sep}The wife was harassed for dowry.")
        assert v.answer is not None and v.reply and "85" in v.reply + v.banner
        assert v.answer.query == "What replaced Section 498A IPC? The wife was harassed for dowry."
        body = "\n".join(p.text for p in Document(str(v.export_paths()["docx"])).paragraphs)
        assert "What replaced Section 498A IPC? The wife was harassed for dowry." in body


def test_a_hindi_question_is_told_its_language_is_not_supported(demo):
    v = run_ask(demo, "धोखाधड़ी की सजा क्या है?")
    assert "not supported" in v.reply and "Devanagari" in v.reply and "English" in v.reply
    assert "not contain" not in v.reply.lower() and v.answer.problems
    mixed = run_ask(demo, "आईपीसी ४२० की सजा क्या है?")
    assert "not supported" in mixed.reply and "318" in mixed.reply + mixed.banner
    assert any(str(f.old) == "IPC 420" for f in mixed.answer.flags)


def test_length_limit(demo, real_pipeline):
    limit = real_pipeline.settings.question_max_chars
    q = "What is cheating? " * (limit // 10)
    v = run_ask(demo, q)
    assert f"the limit is {limit:,} characters" in v.reply and v.exports_cleared
    # the refused question is shown cut, with its length, so the refusal stays in sight (issue 16 (b))
    shown = v.chat[-2]["content"]
    assert len(shown) < 400 and f"{len(q):,} characters, not asked: the limit is {limit:,}" in shown
    assert shown.startswith("What is cheating? What is cheating?")


def test_user_text_is_text_on_the_real_pipeline(demo):
    evil = "<img src=x onerror=alert(1)> **bold** What is the BNS equivalent of IPC 420?"
    v = run_ask(demo, evil)
    assert "<img" not in v.chat[-2]["content"] and "<img" not in v.chat[-1]["content"]
    assert "<img" not in v.citations and "<img" not in v.banner


def test_upload_control_on_a_copy_of_the_real_index(real_pipeline, tmp_path):
    """The upload control through the real Pipeline: a copy of the real index, so the session's stays as it is."""
    import shutil

    from types import SimpleNamespace

    from gradio.utils import get_upload_folder

    from legal_rag.pipeline import Pipeline
    from legal_rag.ui.app import create_app
    from legal_rag.ui.guard import owner_of

    src = real_pipeline.settings
    shutil.copytree(src.data_dir, tmp_path / "data", ignore=shutil.ignore_patterns("exports", "*.lock"))
    settings = src.model_copy(update={"data_dir": tmp_path / "data"})
    pipe = Pipeline(settings)
    demo = create_app(settings, pipe)
    pdf = src.corpus_path / "judgments/pdf/SC_2024-06-14_RecordOfProceedings-Diary26519-2024.pdf"
    folder = Path(get_upload_folder()) / f"lr-test-{tmp_path.name}"  # where Gradio itself writes an upload
    folder.mkdir(parents=True, exist_ok=True)
    upload = folder / "my_upload.pdf"
    shutil.copyfile(pdf, upload)
    me = SimpleNamespace(username=None, headers={"cookie": "lr_owner=" + "r" * 32})
    h = handlers(demo)
    report = list(h["upload"]([str(upload)], me))[-1]
    assert "my_upload.pdf" in report and "Added to your documents" in report
    rows, pick = h["listed"](me)  # the "Your uploads" table and the Remove picker, through the real pipeline
    assert [r[0] for r in rows] == ["my_upload.pdf"] and len(pick["choices"]) == 1
    assert h["listed"](SimpleNamespace(username=None, headers={"cookie": "lr_owner=" + "s" * 32}))[0] == []
    assert h["cancel_uploads"](me) == "<p>Nothing to cancel.</p>"  # the job is over
    mine = pipe.for_owner(owner_of(me))
    assert any(c.source.endswith("/my_upload.pdf") for c in mine.index.chunks().values())
    # the corpus index itself is unchanged: another caller does not see it
    assert not any(c.source.endswith("/my_upload.pdf") for c in pipe.index.store.all_chunks())
    assert "Removed my_upload.pdf" in h["remove"](pick["choices"][0][1], me)
    assert h["listed"](me)[0] == [] and not pipe.list_uploads(owner_of(me))
    shutil.rmtree(folder, ignore_errors=True)
    pipe.index.close()


# ------------------------------------------------------------------------------------------------ the JSON API


@pytest.fixture(scope="module")
def api(real_pipeline):
    from fastapi.testclient import TestClient

    from legal_rag.ui.app import create_server

    with TestClient(create_server(real_pipeline.settings, real_pipeline)) as c:
        yield c


def ask_api(api, **body) -> dict:
    r = api.post("/api/ask", json=body)
    assert r.status_code == 200, (body, r.status_code, r.text)
    return r.json()


def test_api_question_and_offence_date(api):
    doc = ask_api(api, question="What is the BNS equivalent of IPC ४२०?", offence_date="2024-06-20")
    assert doc["query"] == SECTION_Q and doc["answer"] and doc["citations"]
    flag = next(f for f in doc["supersession"] if f["old"]["section"] == "420" and "query" in f["found_in"].split(", "))
    assert "IPC" in flag["applies"] and [n["section"] for n in flag["new"]] == ["318"]


@pytest.mark.parametrize("filters, ok", [
    ({"codes": "new"}, lambda c: c["act"] in NEW_ACTS),  # BL-53: the key the pipeline's docstring named
    ({"code": "old"}, lambda c: c["act"] in OLD_ACTS),
    ({"act": "BNS"}, lambda c: c["act"] == "BNS"),
    ({"acts": ["IPC", "BNS"]}, lambda c: c["act"] in ("IPC", "BNS")),
    ({"kind": "statute"}, lambda c: c["kind"] == "statute"),
])
def test_api_statute_filters(api, filters, ok):
    doc = ask_api(api, question=CHEATING_Q, filters=filters)
    assert doc["citations"] and all(ok(c) for c in doc["citations"]), [c["act"] for c in doc["citations"]]


@pytest.mark.parametrize("filters, ok", [
    ({"kind": "judgment"}, lambda c: c["kind"] != "statute"),
    ({"kind": "judgment", "court": "Supreme Court of India"}, lambda c: c["court"] == "Supreme Court of India"),
    ({"kind": "judgment", "year_from": 2024}, lambda c: c["date"][:4] >= "2024"),
    ({"kind": "judgment", "year_to": 2020}, lambda c: c["date"][:4] <= "2020"),
    ({"kind": "judgment", "year": 2020}, lambda c: c["date"][:4] == "2020"),
])
def test_api_judgment_filters(api, filters, ok):
    doc = ask_api(api, question="cheating dishonest intention at the time of the promise", filters=filters)
    assert doc["citations"] and all(ok(c) for c in doc["citations"]), [(c["court"], c["date"]) for c in doc["citations"]]
    assert doc["answer"]


def test_filters_that_match_nothing_say_so_on_the_real_index(api, real_pipeline):
    """Issue 16 (c): a court typed in another case is the index's court; a court or years no indexed judgment has
    are refused with the reason (400 from the API, "No answer: ..." in the chat), never "not in the sources"."""
    doc = ask_api(api, question="cheating dishonest intention at the time of the promise",
                  filters={"kind": "judgment", "court": "supreme court of india"})
    assert doc["citations"] and all(c["court"] == "Supreme Court of India" for c in doc["citations"])
    r = api.post("/api/ask", json={"question": CHEATING_Q, "filters": {"court": "Supreme Court of Narnia"}})
    assert r.status_code == 400 and "no indexed judgment is of that court" in r.json()["detail"]
    assert "Supreme Court of India" in r.json()["detail"]  # the courts held are named
    r = api.post("/api/ask", json={"question": CHEATING_Q, "filters": {"year_from": 1800, "year_to": 1801}})
    assert r.status_code == 400 and "years 1800-1801" in r.json()["detail"], r.text
    assert "keeps judgments only" in r.json()["detail"]
    with pytest.raises(Exception, match="no indexed judgment is of that court"):
        real_pipeline.search(CHEATING_Q, {"court": "Supreme Court of Narnia"})


def test_api_refuses_what_it_cannot_take(api, real_pipeline):
    limit = real_pipeline.settings.question_max_chars
    for body, status, named in (
            ({"question": CHEATING_Q, "filters": {"cdoe": "new"}}, 400, "'cdoe'"),
            ({"question": CHEATING_Q, "filters": {"code": "newest"}}, 400, "code='newest'"),
            ({"question": CHEATING_Q, "top_k": 3}, 400, "top_k"),
            ({"question": CHEATING_Q, "offence_date": "yesterday"}, 400, "yesterday"),
            ({"question": "x" * (limit + 1)}, 413, f"the limit is {limit:,} characters")):
        r = api.post("/api/ask", json=body)
        assert r.status_code == status and named in r.json()["detail"], (body, r.status_code, r.text)


def test_api_hindi_and_control_characters(api):
    doc = ask_api(api, question="धोखाधड़ी की सजा क्या है?")
    assert "not supported" in doc["answer"]
    doc = ask_api(api, question="What replaced Section 498A IPC?\x0cThe wife was harassed for dowry.")
    assert doc["query"] == "What replaced Section 498A IPC? The wife was harassed for dowry." and doc["answer"]
    r = api.get("/api/lookup", params={"q": "आईपीसी ४२०"})
    assert r.status_code == 200 and r.json()["correspondence"]["targets"][0] == {"act": "BNS", "section": "318",
                                                                                  "sub": ["4"]}


EIGHT = ["What is the BNS equivalent of IPC 420?", "What replaced Section 498A IPC?",
         "What is the punishment for murder?", "What is the BNSS section for anticipatory bail?",
         "What is the punishment for theft?", "Is a confession to a police officer admissible in evidence?",
         "What is dowry death?", "What is the punishment for criminal intimidation?"]


def test_concurrent_api_asks_match_sequential_ones(real_pipeline):
    """BL-57: eight different questions sent at once from eight threads give the answers and citations they give
    one after another; no 5xx, no deadlock (every request is bounded)."""
    import urllib.request

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
    from browser_helpers import serve

    served = serve(real_pipeline.settings, real_pipeline)

    def post(q: str) -> dict:
        req = urllib.request.Request(served.url + "/api/ask", data=json.dumps({"question": q}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=300) as resp:
            assert resp.status == 200
            doc = json.load(io.TextIOWrapper(resp, encoding="utf-8"))
        return {"answer": doc["answer"], "citations": [(c["marker"], c["chunk_id"], c["support"], c["quote"])
                                                       for c in doc["citations"]],
                "flags": [(f["old"]["act"], f["old"]["section"], f["found_in"]) for f in doc["supersession"]]}

    try:
        one_by_one = [post(q) for q in EIGHT]
        with ThreadPoolExecutor(max_workers=8) as pool:
            futures = [pool.submit(post, q) for q in EIGHT]
            at_once = [f.result(timeout=600) for f in futures]  # a hang guard, never a verdict on speed
    finally:
        served.stop()
    for q, a, b in zip(EIGHT, one_by_one, at_once):
        assert a == b, q
    assert len({json.dumps(a["answer"]) for a in at_once}) == 8  # eight different answers, none mixed up
