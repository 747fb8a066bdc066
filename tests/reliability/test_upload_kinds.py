"""Uploads that are not judgments (issue 16, kind 5; field case BL-63), through the real upload path:
``Pipeline.ingest_upload`` into a real index (tiny embedder), then an answer citing the upload, its exports and the
UI's report and citation panel. A private note is indexed as an "other document" and never called a judgment; an
Act's print is refused with the reason; a judgment is still a judgment."""

from __future__ import annotations

import csv
import io
import json

import pytest

from legal_rag.config import Settings, load_settings
from legal_rag.export import build_doc, export_answer
from legal_rag.export.records import DOCUMENT_LABEL
from legal_rag.pipeline import Pipeline, build

from ingest import pdf_factory as f  # tests/ is on sys.path
from .conftest import write_manifest
from .hostile import good_judgment


@pytest.fixture
def pipe(tmp_path, tiny_model):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("mappings", "statutes"):  # the law core's tables and section lists, for ask()
        (corpus / name).symlink_to(Settings().corpus_path / name)
    good_judgment(corpus / "a.pdf")
    manifest = write_manifest(tmp_path / "manifest.toml", corpus, [dict(name="a", kind="judgment", path="a.pdf")])
    s = load_settings(data_dir=tmp_path / "data", corpus_path=corpus, manifest_path=manifest,
                      embed_model=str(tiny_model), generator="extractive")
    report, _ = build(s, progress=False)
    assert (report.judgments, report.documents) == (1, 0)
    p = Pipeline(s)
    yield p
    p.index.close()


def test_a_private_note_is_uploaded_as_another_document(pipe, tmp_path):
    from legal_rag.ui import html as fmt

    report = pipe.ingest_upload(f.note_pdf(tmp_path / "note.pdf"))
    assert not report.failed and report.paragraphs >= 1
    assert (report.judgments, report.documents) == (0, 1)
    assert [p.kind for p in report.problems] == ["other_document"]
    shown = fmt.ingest_report_html(report, "note.pdf")
    assert "0 judgments" in shown and "1 other documents (not judgments)" in shown
    chunks = [c for c in pipe.index.store.all_chunks() if c.source == "note.pdf"]
    assert chunks and {c.kind for c in chunks} == {"document"}
    assert {c.title for c in chunks} == {"Section 420 IPC: my own notes"}
    # a search restricted to judgments never returns it; an unrestricted one does
    assert not [h for h in pipe.search("my own notes receipts government job", filters={"kind": "judgment"})
                if h.chunk.source == "note.pdf"]
    answer = pipe.ask("What do my own notes say about the receipts and the promise of a government job?")
    cited = [c for c in answer.citations if c.source == "note.pdf"]
    assert cited, answer.text
    assert "(other document, not a judgment)" in answer.text  # the extractive heading labels it
    doc = build_doc(answer, include_unverified=True)
    (rec,) = [r for r in doc.records if r.source == "note.pdf"]
    assert rec.kind == "document" and rec.citation == f"Section 420 IPC: my own notes [{DOCUMENT_LABEL}]"
    assert not rec.court and "judgment" not in rec.citation.replace("not a judgment", "")
    assert any(i["type"] == "document" for i in json.loads(export_answer(answer, "csl-json", True)))
    assert "TY  - GEN" in export_answer(answer, "ris", True).decode()
    assert "@misc{" in export_answer(answer, "bibtex", True).decode()
    rows = list(csv.DictReader(io.StringIO(export_answer(answer, "csv", True).decode("utf-8-sig"))))
    assert {r["kind"] for r in rows if r["source"] == "note.pdf"} == {"document"}
    panel = fmt.citations_panel(answer)
    assert "<td>other document</td>" in panel
    # it stays a document when the corpus is indexed again (uploads are kept)
    build(pipe.settings, progress=False)
    pipe.__dict__.pop("index", None)
    assert {c.kind for c in pipe.index.store.all_chunks() if c.source == "note.pdf"} == {"document"}


def test_an_acts_print_is_refused_with_the_reason(pipe, tmp_path):
    report = pipe.ingest_upload(f.act_pdf(tmp_path / "act.pdf"))
    assert report.failed == ("act.pdf",) and (report.judgments, report.documents) == (0, 0)
    (p,) = [p for p in report.problems if p.severity == "error"]
    assert p.kind == "statute_upload" and "print of an Act" in p.message and "manifest" in p.message
    assert not any(c.source == "act.pdf" for c in pipe.index.store.all_chunks())


def test_a_judgment_upload_is_still_a_judgment(pipe, tmp_path):
    report = pipe.ingest_upload(good_judgment(tmp_path / "up.pdf", "Sita Devi v. State of Bihar", "dowry death"))
    assert (report.judgments, report.documents) == (1, 0) and not report.failed
    assert {c.kind for c in pipe.index.store.all_chunks() if c.source == "up.pdf"} == {"judgment"}
