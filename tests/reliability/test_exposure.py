"""Exposure (issue 8): the source viewer serves nothing outside the corpus and the uploads folder (path traversal
through ``Pipeline.source_file`` and the app's ``/source`` route), the app binds to loopback unless configured
otherwise, uploads are type- and size-limited, and the JSON API (``/api/lookup``, ``/api/ask``) behaves."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from legal_rag.config import load_settings
from legal_rag.errors import LegalRagError
from legal_rag.pipeline import Pipeline, build

from .conftest import write_manifest
from .hostile import good_judgment

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the root shim app.py; appended, so no conftest is shadowed
    sys.path.append(str(ROOT))

TRAVERSAL = ["../../../../etc/passwd", "/etc/passwd", "..", ".", "", "manifest.toml", "../manifest.toml",
             "statutes/pdf/BNS_2023_gazette_Act45.pdf", "BNS_2023_gazette_Act45.pdf/../../../etc/passwd",
             "..\\..\\etc\\passwd", "BNS_2023_gazette_Act45.pdf\x00.txt", "%2e%2e%2fetc%2fpasswd", "store.sqlite",
             "../store.sqlite", "uploads/../store.sqlite", "~/.ssh/id_rsa", "SOURCES.md", "link.pdf", "../secret.pdf"]


@pytest.fixture
def pipe(tmp_path):
    s = load_settings(data_dir=tmp_path / "data")
    uploads = s.data_dir / "uploads"
    uploads.mkdir(parents=True)
    (uploads / "mine.pdf").write_bytes(b"%PDF-1.4\n% an uploaded file\n")
    (tmp_path / "data" / "secret.pdf").write_bytes(b"%PDF-1.4\n% not an upload\n")
    (tmp_path / "data" / "store.sqlite").write_bytes(b"SQLite format 3\x00")
    os.symlink("/etc/passwd", uploads / "link.pdf")  # a link planted in the uploads folder
    return Pipeline(s)


def test_source_file_serves_the_corpus_only(pipe):
    """Uploads are never served by name (only to their owner, :func:`test_uploads_are_served_to_their_owner_only`),
    so a file in the uploads folder is no corpus file either."""
    corpus = pipe.settings.corpus_path.resolve()
    if not (corpus / "statutes" / "pdf").is_dir():
        pytest.skip("real corpus not found")
    assert pipe.source_file("BNS_2023_gazette_Act45.pdf").resolve().is_relative_to(corpus)
    for name in [*TRAVERSAL, "mine.pdf", "x" * 300 + ".pdf"]:
        with pytest.raises(LegalRagError, match="not a corpus file"):
            got = pipe.source_file(name)
            pytest.fail(f"{name!r} served {got}")


def test_mapping_files_and_manifest_are_not_served(pipe):
    """Only statutes and judgments are viewable; mapping tables are read by the law module, never served."""
    for name in ("BPRD_correspondence_BNS_to_IPC_clean.csv", "ipc_civictech.json"):
        with pytest.raises(LegalRagError):
            pipe.source_file(name)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from fastapi.testclient import TestClient

    import app
    from tests.ui.ui_fake import FakePipeline

    s = load_settings(data_dir=tmp_path_factory.mktemp("app"), upload_max_mb=1)
    fake = FakePipeline(s)
    with TestClient(app.create_server(s, fake)) as c:
        c.fake = fake
        yield c


@pytest.mark.parametrize("path", ["/source/..%2F..%2F..%2Fetc%2Fpasswd", "/source/%2Fetc%2Fpasswd",
                                  "/source/..", "/source/manifest.toml", "/source/..%5C..%5Cetc%5Cpasswd",
                                  "/source/%2e%2e%2f%2e%2e%2fpyproject.toml", "/gradio_api/file=/etc/passwd",
                                  "/gradio_api/file=../../etc/passwd", "/gradio_api/file=app.py",
                                  "/file=/etc/passwd", "/static/../../app.py", "/api/../app.py"])
def test_source_route_refuses_traversal(client, path):
    r = client.get(path)
    if r.status_code == 200:  # the client normalised the dots away and got the UI's own page, nothing else
        assert r.url.path == "/" and r.headers["content-type"].startswith("text/html"), (path, r.url)
    else:
        assert r.status_code in (400, 403, 404, 405), (path, r.status_code)
    assert b"root:" not in r.content and b"create_server" not in r.content


def test_app_binds_to_loopback_unless_configured(monkeypatch, tmp_path):
    import uvicorn

    import app

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda server, host, port, **kw: seen.update(host=host, port=port))
    monkeypatch.delenv("LEGAL_RAG_HOST", raising=False)
    monkeypatch.setenv("LEGAL_RAG_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("LEGAL_RAG_CONFIG", str(tmp_path / "absent.toml"))
    app.main()
    assert seen["host"] == "127.0.0.1"
    monkeypatch.setenv("LEGAL_RAG_HOST", "0.0.0.0")
    app.main()
    assert seen["host"] == "0.0.0.0"  # only when asked for


def test_upload_route_refuses_oversized_files(client):
    big = b"%PDF-1.4\n" + b"0" * (1024 * 1024 + 10)
    r = client.post("/gradio_api/upload", files={"files": ("big.pdf", big, "application/pdf")})
    assert r.status_code == 413


def test_html_renamed_pdf_upload_is_refused_by_name_and_nothing_is_kept(tmp_path):
    s = load_settings(data_dir=tmp_path / "data")
    fake = tmp_path / "judgment.pdf"
    fake.write_bytes(b"<!DOCTYPE html><html><body><p>1. The appeal is allowed.</p></body></html>")
    report = Pipeline(s).ingest_upload(fake)
    assert report.failed == ("judgment.pdf",)
    (p,) = [p for p in report.problems if p.severity == "error"]
    assert p.kind == "not_pdf" and p.source == "judgment.pdf" and "HTML" in p.message
    assert not (s.data_dir / "uploads" / "judgment.pdf").exists()


def test_an_upload_survives_the_next_corpus_index_run(tmp_path, tiny_model, tiny_embedder):
    """A user's upload lives apart from the corpus index: re-indexing the corpus neither drops it nor takes it in."""
    from legal_rag.index import open_index
    from legal_rag.uploads import Owner

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    good_judgment(corpus / "a.pdf")
    manifest = write_manifest(tmp_path / "manifest.toml", corpus, [dict(name="a", kind="judgment", path="a.pdf")])
    s = load_settings(data_dir=tmp_path / "data", corpus_path=corpus, manifest_path=manifest,
                      embed_model=str(tiny_model))
    build(s, progress=False)
    up = good_judgment(tmp_path / "upload.pdf", "Sita Devi v. State of Bihar", "dowry death")
    me = Owner.of("user", "advocate")
    report = Pipeline(s).ingest_upload(up, owner=me)
    assert not report.failed and report.paragraphs > 0

    def mine() -> set[str]:
        p = Pipeline(s)
        return {c.id for c in p.for_owner(me).index.chunks().values() if c.kind == "upload"}

    before = mine()
    assert before
    build(s, progress=False)
    assert mine() == before
    idx = open_index(s, embedder=tiny_embedder)
    assert not [c for c in idx.store.all_chunks() if c.kind == "upload" or c.source.startswith("uploads/")]
    idx.close()


def test_json_api_lookup_and_ask(client):
    r = client.get("/api/lookup", params={"q": "IPC 420"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["status"] == "ok" and body["ref"]["act"] == "IPC" and body["ref"]["section"] == "420"
    assert any(t["act"] == "BNS" and t["section"] == "318" for t in body["correspondence"]["targets"])
    r = client.post("/api/ask", json={"question": "What replaced IPC 420?", "offence_date": "2024-07-05"})
    assert r.status_code == 200
    ans = r.json()
    assert "318(4)" in json.dumps(ans) and ans["query"] == "What replaced IPC 420?" if "query" in ans else True
    assert client.fake.calls[-1]["offence_date"].isoformat() == "2024-07-05"
    assert client.post("/api/ask", json={"question": "  "}).status_code == 400
    assert client.post("/api/ask", json={"question": "x", "offence_date": "5 July"}).status_code == 400
    too_long = client.post("/api/ask", json={"question": "x" * 5000})  # BL-64: one limit, stated in the message
    assert too_long.status_code == 413 and "the limit is 2,000 characters" in too_long.json()["detail"]
    assert client.get("/api/lookup", params={"q": ""}).status_code == 400


def test_json_api_needs_the_login_when_one_is_set(tmp_path):
    from fastapi.testclient import TestClient

    import app
    from tests.ui.ui_fake import FakePipeline

    s = load_settings(data_dir=tmp_path, auth_user="advocate", auth_password="s3cret-pass")
    with TestClient(app.create_server(s, FakePipeline(s))) as c:
        assert c.get("/api/lookup", params={"q": "IPC 420"}).status_code == 401
        assert c.post("/api/ask", json={"question": "What replaced IPC 420?"}).status_code == 401
        assert c.post("/login", data={"username": "advocate", "password": "s3cret-pass"}).status_code == 200
        assert c.get("/api/lookup", params={"q": "IPC 420"}).status_code == 200
