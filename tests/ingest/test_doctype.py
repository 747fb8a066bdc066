"""Statute, judgment or other document (issue 16, kind 5; field case BL-63): the classification of every ingested
text, from generated PDFs and the real corpus. The upload path is tested in tests/reliability/test_upload_kinds.py."""

from __future__ import annotations

import pytest

from legal_rag.ingest.doctype import classify, read_document, statute_reason
from legal_rag.ingest.pdf import extract_pages

from . import pdf_factory as f
from reliability.hostile import good_judgment  # tests/ is on sys.path


def _pages(path):
    return extract_pages(path).pages


def test_a_private_note_is_another_document(tmp_path):
    pages = _pages(f.note_pdf(tmp_path / "note.pdf"))
    got = classify(pages)
    assert got.kind == "document" and got.reason == "no court, title, date, citation or case number found"
    judgment, paras, problems = read_document(pages, "note.pdf")
    assert judgment.kind == "document" and paras
    assert judgment.title == "Section 420 IPC: my own notes" and not judgment.court and not judgment.date
    assert [p.kind for p in problems] == ["other_document"]  # no "no_court"/"no_title"/"no_date" noise
    assert "not a judgment" in problems[0].message and problems[0].severity == "info"


def test_a_judgment_stays_a_judgment(tmp_path):
    pages = _pages(good_judgment(tmp_path / "j.pdf"))
    got = classify(pages)
    assert got.kind == "judgment" and "Supreme Court of India" in got.reason
    judgment, paras, problems = read_document(pages, "j.pdf")
    assert judgment.kind == "judgment" and judgment.title.startswith("Ram Kumar") and len(paras) >= 6
    assert not any(p.kind == "other_document" for p in problems)


def test_an_acts_print_is_a_statute(tmp_path):
    pages = _pages(f.act_pdf(tmp_path / "act.pdf"))
    assert classify(pages).kind == "statute"
    assert "enacting formula and 4 numbered sections" in statute_reason(pages)
    assert statute_reason(_pages(f.act_pdf(tmp_path / "two.pdf", sections=2))) == ""  # two sections: not enough


def test_a_court_and_one_more_field_is_not_enough(tmp_path):
    """A letter that names a court and a date but no parties, citation or case number is no judgment."""
    pages = _pages(f.note_pdf(tmp_path / "letter.pdf", [
        "To the Registrar, Supreme Court of India", "Date: 12 March 2024",
        "Sir, I write about the listing of my matter, which I am told will be taken up next week.",
        "Kindly let me know the court number and the time at which I should be present. Yours faithfully."]))
    got = classify(pages)
    assert got.kind == "document", got


@pytest.mark.slow
def test_every_judgment_of_the_corpus_is_classified_a_judgment():
    from legal_rag.config import Settings
    from legal_rag.ingest.corpus import load_corpus, load_manifest
    from legal_rag.ingest.many import READERS

    # the sources that are one decision each (those holding many are read by legal_rag.ingest.many: test_many_real)
    single = [s.name for s in load_manifest(Settings().manifest_path) if s.kind == "judgment" and s.format not in READERS]
    corpus = load_corpus(Settings(), only=single, progress=False)
    assert len(corpus.judgments) == 79
    assert [j.source for j in corpus.judgments if j.kind != "judgment"] == []
    assert corpus.report.judgments == 79 and corpus.report.documents == 0
    assert not any(p.kind in ("not_a_judgment", "other_document") for p in corpus.report.problems)
