"""Uploads of every kind (field case BL-63), through the real upload path: ``Pipeline.add_upload`` into the owner's
own store beside a real index (tiny embedder), then an answer citing the upload, its exports and the UI's report
and citation panel. Every upload is cited as an "uploaded document (unverified)", never as a judgment, whatever
it prints; what it reads as (a judgment or another document) is kept and reported; an Act's print is refused with
the reason; another owner never sees it."""

from __future__ import annotations

import csv
import io
import json

import pytest

from legal_rag.config import Settings, load_settings
from legal_rag.export import build_doc, export_answer
from legal_rag.pipeline import Pipeline, build
from legal_rag.types import UPLOAD_LABEL
from legal_rag.uploads import Owner

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


ME, OTHER = Owner.of("session", "me-" + "x" * 24), Owner.of("session", "other-" + "y" * 24)


def _upload_chunks(pipe, owner):
    return [c for c in pipe.for_owner(owner).index.chunks().values() if c.kind == "upload"]


def test_a_private_note_is_uploaded_as_another_document(pipe, tmp_path):
    from legal_rag.ui import html as fmt

    report = pipe.ingest_upload(f.note_pdf(tmp_path / "note.pdf"), owner=ME)
    assert not report.failed and report.paragraphs >= 1
    assert (report.judgments, report.documents) == (0, 1)
    assert [p.kind for p in report.problems] == ["other_document"]
    shown = fmt.ingest_report_html(report, "note.pdf")
    assert "0 judgments" in shown and "1 other documents (not judgments)" in shown
    (doc,) = pipe.list_uploads(ME)
    assert doc.name == "note.pdf" and doc.classified == "document"
    chunks = _upload_chunks(pipe, ME)
    assert chunks and {c.source for c in chunks} == {doc.source} and {c.kind for c in chunks} == {"upload"}
    assert {dict(c.meta)["classified"] for c in chunks} == {"document"}
    assert {c.title for c in chunks} == {"Section 420 IPC: my own notes"}
    assert not any(c.kind == "upload" for c in pipe.index.store.all_chunks())  # the corpus index is not written
    mine = pipe.for_owner(ME)
    # a search restricted to judgments never returns it; an unrestricted one does
    assert not [h for h in mine.search("my own notes receipts government job", filters={"kind": "judgment"})
                if h.chunk.kind == "upload"]
    answer = mine.ask("What do my own notes say about the receipts and the promise of a government job?")
    cited = [c for c in answer.citations if c.source == doc.source]
    assert cited, answer.text
    assert f"({UPLOAD_LABEL}, not a judgment)" in answer.text  # the extractive heading labels it
    out = build_doc(answer, include_unverified=True)
    (rec,) = [r for r in out.records if r.source == doc.source]
    assert rec.kind == "upload" and rec.citation == f"Section 420 IPC: my own notes [{UPLOAD_LABEL}]"
    assert not rec.court and "judgment" not in rec.citation
    assert any(i["type"] == "document" and i.get("genre") == UPLOAD_LABEL
               for i in json.loads(export_answer(answer, "csl-json", True)))
    assert "TY  - GEN" in export_answer(answer, "ris", True).decode()
    assert "@misc{" in export_answer(answer, "bibtex", True).decode()
    rows = list(csv.DictReader(io.StringIO(export_answer(answer, "csv", True).decode("utf-8-sig"))))
    assert {r["kind"] for r in rows if r["source"] == doc.source} == {"upload"}
    assert f"<td>{UPLOAD_LABEL}</td>" in fmt.citations_panel(answer)
    # another owner is answered from the corpus alone
    other = pipe.for_owner(OTHER).ask("What do my own notes say about the receipts and the promise of a government job?")
    assert not [c for c in other.citations if c.source.startswith("uploads/")]
    # it stays when the corpus is indexed again (uploads live apart), and goes when its owner removes it
    build(pipe.settings, progress=False)
    assert {c.kind for c in _upload_chunks(pipe, ME)} == {"upload"}
    pipe.remove_upload(ME, doc.doc_id)
    assert not _upload_chunks(pipe, ME) and pipe.list_uploads(ME) == ()


def test_an_acts_print_is_refused_with_the_reason(pipe, tmp_path):
    report = pipe.ingest_upload(f.act_pdf(tmp_path / "act.pdf"), owner=ME)
    assert report.failed == ("act.pdf",) and (report.judgments, report.documents) == (0, 0)
    (p,) = [p for p in report.problems if p.severity == "error"]
    assert p.kind == "statute_upload" and "print of an Act" in p.message and "manifest" in p.message
    assert pipe.list_uploads(ME) == () and not _upload_chunks(pipe, ME)


def test_a_judgment_upload_reads_as_a_judgment_and_is_cited_as_an_upload(pipe, tmp_path):
    report = pipe.ingest_upload(good_judgment(tmp_path / "up.pdf", "Sita Devi v. State of Bihar", "dowry death"),
                                owner=ME)
    assert (report.judgments, report.documents) == (1, 0) and not report.failed
    chunks = _upload_chunks(pipe, ME)
    assert {c.kind for c in chunks} == {"upload"} and {dict(c.meta)["classified"] for c in chunks} == {"judgment"}
    from legal_rag.export.records import citation_records

    answer = pipe.for_owner(ME).ask("dowry death of Sita Devi and the demand for money by the husband")
    recs = [r for r in citation_records(answer, include_unverified=True) if r.source.startswith("uploads/")]
    assert recs and all(r.kind == "upload" and r.citation.endswith(f"[{UPLOAD_LABEL}]") for r in recs)
    # a court or year filter keeps judgments only: never an upload, whatever court it prints
    assert not [h for h in pipe.for_owner(ME).search("dowry death", filters={"court": "Supreme Court of India"})
                if h.chunk.kind == "upload"]


def test_an_upload_whose_header_names_no_title_is_cited_by_its_file_name(pipe, tmp_path):
    pdf = good_judgment(tmp_path / "appeal_notes.pdf", "Criminal Appeal No. 12 of 2024", "dowry death")
    report, doc = pipe.add_upload(ME, pdf, "appeal_notes.pdf")
    assert doc is not None and any(p.kind == "no_title" for p in report.problems)
    chunks = _upload_chunks(pipe, ME)
    assert chunks and {c.title for c in chunks} == {"appeal_notes.pdf"}  # never its internal id ("upload-…")
    from legal_rag.export.records import citation_records

    answer = pipe.for_owner(ME).ask("dowry death appeal: was the finding interfered with?")
    recs = [r for r in citation_records(answer, include_unverified=True) if r.source.startswith("uploads/")]
    assert recs and {r.citation for r in recs} == {f"appeal_notes.pdf [{UPLOAD_LABEL}]"}
