"""Uploads cannot read the server's files, replace the Acts, lose each other or reach another user (issue 32).

Through the real app as it is served (``create_server``: Gradio mounted in FastAPI, the request guard in front) over
a real pipeline and index: a tiny corpus and the tiny embedder for the app, the session's real-corpus index for
the Acts' chunk counts and answers.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import sys
from pathlib import Path

import pytest

from legal_rag.config import load_settings
from legal_rag.errors import IndexLockedError
from legal_rag.pipeline import Pipeline, build
from legal_rag.uploads import Owner, UploadJobs
from legal_rag.ui.guard import OWNER_COOKIE

from .conftest import write_manifest
from .hostile import good_judgment

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))


@pytest.fixture(scope="module")
def tiny_settings(tmp_path_factory, tiny_model):
    """A corpus of two judgments (with the real tables and statute lists for the law core), indexed once."""
    from legal_rag.config import Settings

    root = tmp_path_factory.mktemp("isolation")
    corpus = root / "corpus"
    corpus.mkdir()
    for name in ("mappings", "statutes"):
        (corpus / name).symlink_to(Settings().corpus_path / name)
    good_judgment(corpus / "a.pdf", "Ram Kumar v. State of Rajasthan", "cheating")
    good_judgment(corpus / "b.pdf", "Mohan Lal v. State of Punjab", "criminal breach of trust")
    manifest = write_manifest(root / "manifest.toml", corpus, [dict(name="a", kind="judgment", path="a.pdf"),
                                                               dict(name="b", kind="judgment", path="b.pdf")])
    s = load_settings(data_dir=root / "data", corpus_path=corpus, manifest_path=manifest,
                      embed_model=str(tiny_model), generator="extractive", casebase=False)
    build(s, progress=False)
    return s


@pytest.fixture(scope="module")
def server(tiny_settings):
    from fastapi.testclient import TestClient

    from legal_rag.ui.app import create_server

    pipe = Pipeline(tiny_settings)
    api = create_server(tiny_settings, pipe)
    with TestClient(api) as a, TestClient(api) as b:
        yield a, b, pipe


def _answer(client, question: str) -> dict:
    r = client.post("/api/ask", json={"question": question})
    assert r.status_code == 200, r.text
    return r.json()


def _upload(client, path: Path, wait: float = 120) -> dict:
    with open(path, "rb") as fh:
        r = client.post("/api/uploads", params={"wait": wait}, files={"file": (path.name, fh, "application/pdf")})
    assert r.status_code == 200, r.text
    return r.json()


def _gradio_event(client, api_name: str, data: list) -> str:
    """Call a Gradio event over HTTP (``/gradio_api/call/<name>``) and return its whole event stream, or the
    refusal's body when the call itself is refused."""
    r = client.post(f"/gradio_api/call/{api_name}", json={"data": data})
    if r.status_code != 200:
        assert r.status_code == 400, r.text
        return r.text
    return client.get(f"/gradio_api/call/{api_name}/{r.json()['event_id']}").text


def test_a_client_named_path_outside_the_upload_folder_is_refused(server, tmp_path):
    a, _, pipe = server
    secret = tmp_path / "secret.pdf"
    good_judgment(secret, "Secret v. Server", "theft")
    for path in (str(secret), str(tmp_path / "absent.pdf"), "/etc/passwd", f"{tmp_path}/../{tmp_path.name}/secret.pdf"):
        stream = _gradio_event(a, "upload", [[{"path": path, "meta": {"_type": "gradio.FileData"}}]])
        assert "not a file uploaded through this page" in stream, stream[-500:]
        assert str(tmp_path) not in stream and "Errno" not in stream and "/etc" not in stream
    # the same through the queue the browser uses
    r = a.post("/gradio_api/queue/join", json={"data": [[{"path": str(secret), "meta": {"_type": "gradio.FileData"}}]],
                                              "fn_index": 0, "session_hash": "s" * 11})
    assert r.status_code == 400 and str(tmp_path) not in r.text
    assert a.get("/api/uploads").json()["uploads"] == []
    assert not any(d.name == "secret.pdf" for d in pipe.list_uploads(Owner.of("session", _token(a))))


def _token(client) -> str:
    client.get("/api/uploads")
    return client.cookies.get("lr_owner")


def test_source_serves_manifest_files_and_the_callers_own_uploads_only(server, tmp_path):
    a, b, _ = server
    assert a.get("/source/a.pdf").status_code == 200  # a manifest file
    up = _upload(a, good_judgment(tmp_path / "mine.pdf", "Sita Devi v. State of Bihar", "dowry death"))
    doc = up["doc"]
    assert up["state"] == "done" and doc["source"] == f"uploads/{doc['doc_id']}/mine.pdf"
    got = a.get(f"/source/{doc['source']}")
    assert got.status_code == 200 and got.content.startswith(b"%PDF")
    for client, path in ((b, f"/source/{doc['source']}"), (a, "/source/mine.pdf"), (a, "/source/" + "x" * 300),
                         (a, f"/source/uploads/{doc['doc_id']}/../../store.sqlite"), (a, "/source/uploads")):
        r = client.get(path)
        assert r.status_code == 404, (path, r.status_code)
    assert a.delete(f"/api/uploads/{doc['doc_id']}").status_code == 200


def test_two_users_on_one_server_one_uploads_the_others_answers_are_unchanged(server, tmp_path):
    a, b, _ = server
    questions = ["What was held about the dowry death?", "cheating by a seller who took the money",
                 "criminal breach of trust by an agent"]
    before = [_answer(b, q) for q in questions]
    up = _upload(a, good_judgment(tmp_path / "dowry.pdf", "Sita Devi v. State of Bihar", "dowry death"))
    doc_id = up["doc"]["doc_id"]
    assert [_answer(b, q) for q in questions] == before  # byte for byte
    assert [d["doc_id"] for d in a.get("/api/uploads").json()["uploads"]] == [doc_id]
    assert b.get("/api/uploads").json()["uploads"] == []
    assert b.delete(f"/api/uploads/{doc_id}").status_code == 404  # not the owner
    assert [d["doc_id"] for d in a.get("/api/uploads").json()["uploads"]] == [doc_id]
    mine = _answer(a, "dowry death of Sita Devi and the demand for money by the husband")
    cited = [c for c in mine["citations"] if c["source"].startswith("uploads/")]
    assert cited and all(c["kind"] == "upload" and c["citation"].endswith("[uploaded document (unverified)]")
                         for c in cited)
    assert a.delete(f"/api/uploads/{doc_id}").status_code == 200  # the owner removes it
    assert a.get("/api/uploads").json()["uploads"] == []
    assert not [c for c in _answer(a, questions[0])["citations"] if c["source"].startswith("uploads/")]


def test_an_upload_named_like_every_manifest_file_leaves_the_acts_and_answers_as_they_were(real_pipeline,
                                                                                          tmp_path):
    """Every file name of the default manifest uploaded (a made-up judgment under each): each Act keeps its chunk
    count, `legal-rag check` stays ok, another user's answers are identical, and the uploader's statute answers
    still cite the Gazette."""
    from legal_rag.index.check import check_index
    from legal_rag.ingest import load_manifest

    settings = real_pipeline.settings
    me, other = Owner.of("session", "uploader-" + "u" * 24), Owner.of("session", "bystander-" + "b" * 24)
    names = [src.file_name for src in load_manifest(settings.manifest_path)]

    def counts() -> dict[str, int]:
        out: dict[str, int] = {}
        for c in real_pipeline.index.chunks().values():
            out[c.source] = out.get(c.source, 0) + 1
        return out

    questions = ["What is the punishment for murder under the BNS?", "What replaced section 420 IPC?"]
    before, answers = counts(), [real_pipeline.for_owner(other).ask(q).text for q in questions]
    for i, name in enumerate(names):
        report, doc = real_pipeline.add_upload(me, good_judgment(tmp_path / f"fake{i}.pdf", f"Fake {i} v. State",
                                                                 "murder"), name)
        assert doc is not None and doc.name.endswith(".pdf") and doc.source.startswith("uploads/"), report
    assert len({d.doc_id for d in real_pipeline.list_uploads(me)}) == len(names)  # none overwrote another
    assert counts() == before
    want = {s.file_name for s in load_manifest(settings.manifest_path) if s.kind in ("statute", "judgment")}
    assert check_index(settings, manifest_sources=want).ok
    assert [real_pipeline.for_owner(other).ask(q).text for q in questions] == answers
    mine = real_pipeline.for_owner(me).ask(questions[0])
    assert any(c.ref is not None and (c.ref.act, c.ref.section) == ("BNS", "103")
               and c.source == "BNS_2023_gazette_Act45.pdf" for c in mine.citations), mine.text
    for d in real_pipeline.list_uploads(me):
        real_pipeline.remove_upload(me, d.doc_id)


def _add(args) -> None:
    data_dir, corpus, manifest, model, pdf, barrier = args
    s = load_settings(data_dir=data_dir, corpus_path=corpus, manifest_path=manifest, embed_model=model,
                      casebase=False)
    barrier.wait(120)
    Pipeline(s).add_upload(Owner.of("user", "advocate"), Path(pdf))


def _index(args) -> None:
    data_dir, corpus, manifest, model, barrier = args
    s = load_settings(data_dir=data_dir, corpus_path=corpus, manifest_path=manifest, embed_model=model,
                      casebase=False)
    barrier.wait(120)
    build(s, progress=False)


def test_two_writers_keep_both_uploads_and_a_corpus_build_keeps_them_too(tiny_settings, tiny_model, tmp_path):
    """Two processes upload for one owner at the same moment while a third rebuilds the corpus index: both uploads
    are listed and searched afterwards, and the corpus index holds the manifest's sources only."""
    s = tiny_settings
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(3)
    pdfs = [good_judgment(tmp_path / f"w{i}.pdf", f"Writer {i} v. State", ["theft", "extortion"][i]) for i in (0, 1)]
    common = (str(s.data_dir), str(s.corpus_path), str(s.manifest_path), str(tiny_model))
    procs = [ctx.Process(target=_add, args=((*common, str(p), barrier),)) for p in pdfs]
    procs.append(ctx.Process(target=_index, args=((*common, barrier),)))
    for p in procs:
        p.start()
    for p in procs:
        p.join(300)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    owner = Owner.of("user", "advocate")
    pipe = Pipeline(s)
    docs = pipe.list_uploads(owner)
    assert sorted(d.name for d in docs) == ["w0.pdf", "w1.pdf"]
    view = pipe.for_owner(owner)
    assert {c.source for c in view.index.chunks().values() if c.kind == "upload"} == {d.source for d in docs}
    assert {c.source for c in pipe.index.chunks().values()} == {"a.pdf", "b.pdf"}
    for d in docs:
        pipe.remove_upload(owner, d.doc_id)


def test_a_second_writer_is_told_before_any_work_and_no_path_is_shown(tiny_settings, monkeypatch):
    from legal_rag import ingest
    from legal_rag.index.manifest import writer_lock

    read = []
    monkeypatch.setattr(ingest, "load_corpus", lambda *a, **k: read.append(1))
    ctx = mp.get_context("spawn")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold, args=(str(tiny_settings.data_dir), ready, release))
    holder.start()
    try:
        assert ready.wait(120)
        with pytest.raises(IndexLockedError) as got:
            build(tiny_settings, progress=False)
    finally:
        release.set()
        holder.join(60)
    assert read == [] and "being written by pid" in str(got.value)
    assert str(tiny_settings.data_dir) not in str(got.value)
    with writer_lock(tiny_settings):  # released
        pass


def _hold(data_dir: str, ready, release) -> None:
    from legal_rag.config import Settings
    from legal_rag.index.manifest import writer_lock

    with writer_lock(Settings(data_dir=data_dir)):
        ready.set()
        release.wait(300)


def test_check_fails_when_a_manifest_source_has_lost_its_chunks(tiny_settings, tmp_path):
    from legal_rag.index import build_index
    from legal_rag.index.check import check_index

    s = tiny_settings.model_copy(update={"data_dir": tmp_path / "data"})
    build(s, progress=False)
    want = {"a.pdf", "b.pdf"}
    assert check_index(s, manifest_sources=want).ok
    pipe = Pipeline(s)
    kept = [c for c in pipe.index.chunks().values() if c.source != "a.pdf"]
    build_index(kept, s, sources=sorted(want))  # a build that dropped a.pdf
    rep = check_index(s, manifest_sources=want)
    assert not rep.ok and any("no chunks in the served build" in p and "a.pdf" in p for p in rep.problems)
    # and the running pipeline serves the new build without a restart
    assert {c.source for c in pipe.index.chunks().values()} == {"a.pdf", "b.pdf"}
    pipe.ask("cheating")
    assert {c.source for c in pipe.index.chunks().values()} == {"b.pdf"}


def test_limits_come_before_any_work(server):
    a, _, _ = server
    big = json.dumps({"question": "a" * 10_000_000})
    r = a.post("/api/ask", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "at most" in r.json()["detail"]
    r = a.post("/api/ask", json={"question": "\u00aa" * 2_500})  # NFKC would change it: refused as sent
    assert r.status_code == 413 and "2,500 characters" in r.json()["detail"]
    r = a.get("/api/lookup", params={"q": "IPC 420 " * 400})
    assert r.status_code == 413


def test_questions_in_progress_are_bounded_per_client(server, monkeypatch):
    import threading

    a, b, pipe = server
    for client in (a, b):  # each holds its owner cookie before the concurrent requests (whatever ran before)
        assert client.get("/api/uploads").status_code == 200 and client.cookies.get(OWNER_COOKIE)
    gate, entered = threading.Event(), threading.Semaphore(0)
    real = Pipeline.ask

    def slow(self, *args, **kw):
        entered.release()
        gate.wait(60)
        return real(self, *args, **kw)

    monkeypatch.setattr(Pipeline, "ask", slow)
    out: list[int] = []
    threads = [threading.Thread(target=lambda: out.append(a.post("/api/ask", json={"question": "cheating"})
                                                          .status_code)) for _ in range(2)]
    for t in threads:
        t.start()
    assert entered.acquire(timeout=60) and entered.acquire(timeout=60)  # two in progress
    try:
        third = a.post("/api/ask", json={"question": "cheating"})
        assert third.status_code == 429 and "still being answered" in third.json()["detail"]
        # another client is not refused: it waits its turn (both answering turns are A's) and is then answered
        other: list[int] = []
        tb = threading.Thread(target=lambda: other.append(b.post("/api/ask", json={"question": "cheating"})
                                                          .status_code))
        tb.start()
        tb.join(1.0)  # a 429 would come back at once; a slow machine can only make this wait pass, never fail
        assert not other, other  # still waiting while A's two hold the turns, never a 429
        gate.set()
        tb.join(120)
        assert other == [200]
    finally:
        gate.set()
        for t in threads:
            t.join(60)
    assert out == [200, 200]


def test_at_most_answer_concurrency_questions_are_answered_at_once():
    import threading

    from legal_rag.ui.guard import Inflight

    lanes = Inflight(limit=5, running=2)
    now, most, lock, full = [0], [0], threading.Lock(), threading.Event()

    def ask(key):
        with lanes.slot(key) as got:
            assert got
            with lanes.turn():
                with lock:
                    now[0] += 1
                    most[0] = max(most[0], now[0])
                    if now[0] >= 2:
                        full.set()
                full.wait(60)  # the first turn is held until a second is taken (an observed state, not a time)
                with lock:
                    now[0] -= 1

    threads = [threading.Thread(target=ask, args=(f"client-{i % 3}",)) for i in range(9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert most[0] == 2 and now[0] == 0
    with lanes.slot("x") as a, lanes.slot("x") as b:
        assert a and b


def test_an_upload_job_can_be_cancelled_and_keeps_nothing(tmp_path):
    import threading

    started, done = threading.Event(), []

    def run(owner, path, name, progress, cancelled):
        from legal_rag.uploads import UploadCancelled

        progress("embedding", 0.5)
        started.set()
        for _ in range(600):
            if cancelled():
                raise UploadCancelled("cancelled; nothing was added")
            threading.Event().wait(0.05)
        done.append(name)
        return None, None

    jobs = UploadJobs(run, workdir=tmp_path)
    me, other = Owner.of("session", "c" * 32), Owner.of("session", "d" * 32)
    pdf = good_judgment(tmp_path / "x.pdf")
    job = jobs.submit(me, pdf, "x.pdf")
    assert started.wait(30) and jobs.get(me, job.id).step == "embedding"
    with pytest.raises(Exception, match="no such upload job"):
        jobs.cancel(other, job.id)  # only its owner may
    jobs.cancel(me, job.id)
    got = jobs.wait(me, job.id, 30)
    assert got.state == "cancelled" and not done
    assert not list(tmp_path.glob("legal-rag-incoming-*/*.pdf"))  # its private copy is gone
    jobs.close()


def test_the_chat_history_a_client_sends_back_is_bounded(tiny_settings):
    from tests.ui.ui_drive import handlers

    from legal_rag.ui.app import create_app

    s = tiny_settings.model_copy(update={"chat_history_max": 6})
    demo = create_app(s, Pipeline(s))
    history = [{"role": "user", "content": f"q{i}"} for i in range(5000)]
    *_, last = handlers(demo)["ask"]("cheating", history, "", [], "both", True, "extractive", False)
    assert len(last[0]) <= 6 + 2


def test_an_impossible_date_in_the_question_is_said_not_dropped(server):
    from legal_rag.law.dates import impossible_dates

    assert impossible_dates("cheated on 31.02.2024, FIR on 05.07.2024 and 30 February 2025") == \
        ["31.02.2024", "30 February 2025"]
    assert impossible_dates("on 2024-06-20") == []
    a, _, _ = server
    got = _answer(a, "I was cheated on 31.02.2024 by a seller")
    assert 'Not read as a date (no such calendar date): "31.02.2024".' in got["answer"]


def test_a_new_build_is_served_and_the_one_before_is_closed(tiny_settings, tmp_path):
    import sqlite3

    s = tiny_settings.model_copy(update={"data_dir": tmp_path / "data"})
    build(s, progress=False)
    pipe = Pipeline(s)
    first = pipe.index
    pipe.lookup("IPC 420")
    from legal_rag.index import build_index

    chunks = list(first.chunks().values())
    build_index(chunks[1:], s)
    pipe.lookup("IPC 420")  # the second build is served now; the first is retired
    second = pipe.index
    assert second.id != first.id and len(second.chunks()) == len(chunks) - 1
    build_index(chunks, s)
    pipe.lookup("IPC 420")  # the third is served; the first is closed
    assert pipe.index.id not in (first.id, second.id)
    with pytest.raises(sqlite3.ProgrammingError):
        first.store.count()
    assert second.store.count() == len(chunks) - 1  # still open for a question that began on it
