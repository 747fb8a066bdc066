"""BSA sections are cited to the enacted text, the Gazette print of Act 47 of 2023 (issue 16, kind 7).

The manifest entry "BSA" named the Lok Sabha Bill print (Bill No. 175-C) although the Gazette print is in the
shared corpus. The Gazette print parses to all 170 sections with the same titles and the same words; the Bill's
text differs only by spacing glitches ("( 1)") and two capitals. A Bill print that is parsed anyway (another
corpus, an old manifest) is reported, and every citation of it says that it is the Bill's text.
"""

from __future__ import annotations

import difflib
import re

import pytest

from legal_rag.config import Settings
from legal_rag.export.records import BILL_LABEL, citation_records
from legal_rag.ingest.chunk import chunk_section
from legal_rag.ingest.corpus import load_manifest
from legal_rag.ingest.statutes import BILL_NOTE, bill_title, parse_statute
from legal_rag.types import Answer, Citation, Hit, Page

GAZETTE = "statutes/pdf/BSA_2023_gazette_Act47.pdf"
BILL = "statutes/pdf/BSA_2023_bill_175C_as_passed_by_LokSabha.pdf"


class WordCounter:
    """Whitespace tokens: enough for chunking a short section."""

    window = 256

    def count_tokens(self, text: str) -> int:
        return len(text.split()) + 2

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in re.finditer(r"\S+", text)]


def _pages(first_line: str) -> list[Page]:
    return [Page("x.pdf", 1, f"{first_line}\nBE it enacted by Parliament as follows:—\n"
                             "1. (1) This Act may be called the Example Adhiniyam, 2023.\n"
                             "2. In this Adhiniyam, unless the context otherwise requires, words mean what they say.")]


def test_manifest_names_the_gazette_print_as_bsa():
    bsa = next(s for s in load_manifest(Settings().manifest_path) if s.name == "BSA")
    assert (bsa.act, bsa.kind, bsa.path) == ("BSA", "statute", GAZETTE)
    assert bsa.sha256 == "13e2b6eb66add222c7262ccaa0b08d58e48ca22cdf0953f6541123ef039de239"
    assert "Act 47 of 2023" in dict(bsa.meta)["edition"]


def test_a_bill_print_is_labelled_in_every_citation():
    assert bill_title(_pages("THE BHARATIYA SAKSHYA BILL, 2023")) == "THE BHARATIYA SAKSHYA BILL, 2023"
    assert bill_title(_pages("THE BHARATIYA SAKSHYA ADHINIYAM, 2023")) == ""
    sections, problems = parse_statute("BSA", _pages("THE BHARATIYA SAKSHYA BILL, 2023"), "bill.pdf")
    assert [s.ref.section for s in sections] == ["1", "2"]
    assert all(s.notes[0].startswith(BILL_NOTE) for s in sections)
    assert [p.kind for p in problems] == ["bill_text"] and "not the enacted Act" in problems[0].message
    chunk = chunk_section(sections[0], WordCounter())[0]
    assert dict(chunk.meta)["print"] == "bill"
    answer = Answer("q", "Short title [1].", (Citation(1, chunk.id, chunk.ref, chunk.source, chunk.pages,
                                                       "Short title [1].", "supported"),),
                    passages=(Hit(chunk, 1.0, "rrf", 1),))
    assert citation_records(answer)[0].citation == "Bharatiya Sakshya Adhiniyam, 2023, s. 1" + BILL_LABEL
    enacted, problems = parse_statute("BSA", _pages("THE BHARATIYA SAKSHYA ADHINIYAM, 2023"), "act.pdf")
    assert not problems and "print" not in dict(chunk_section(enacted[0], WordCounter())[0].meta)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _glitchless(text: str) -> str:
    """Without the Bill print's spacing glitches ("( 1)", ": —") and case."""
    return re.sub(r":\s+—", ":—", re.sub(r"\(\s+", "(", text)).lower()


@pytest.mark.slow
def test_gazette_parses_to_the_bills_170_sections(parsed_acts, corpus_path):
    from legal_rag.ingest.pdf import extract_pages

    gazette = parsed_acts["BSA"]  # tests/ingest/conftest.py: the Gazette print
    assert gazette.result.source == "BSA_2023_gazette_Act47.pdf" and gazette.result.page_count == 47
    assert not [p for p in gazette.problems if p.severity != "info"], gazette.problems
    assert not any(s.notes for s in gazette.sections)
    bill_pages = extract_pages(corpus_path / BILL, timeout_s=600).pages
    bill, problems = parse_statute("BSA", bill_pages, "bill.pdf")
    assert [p.kind for p in problems] == ["bill_text", "set_apart"]  # the Bill's Schedule, too, is no clause's text
    g = {s.ref.section: s for s in gazette.sections}
    b = {s.ref.section: s for s in bill}
    assert list(g) == list(b) == [str(n) for n in range(1, 171)]
    assert {k: g[k].title for k in g} == {k: b[k].title for k in b}
    assert {k: g[k].chapter for k in g} == {k: b[k].chapter for k in b}
    differ = {}
    for k in g:
        gt, bt = _norm(g[k].text), _norm(b[k].text)
        if gt != bt:
            ratio = difflib.SequenceMatcher(None, gt, bt, autojunk=False).ratio()
            assert ratio > 0.998, (k, ratio)
            # the only differences: the Bill's "( 1)" spacing, ": —" and two capitals
            assert _glitchless(bt) == _glitchless(gt), k
            differ[k] = ratio
    assert sorted(differ, key=int) == ["2", "6", "60", "63", "64", "74", "120"]


@pytest.mark.slow
def test_the_real_pipeline_cites_bsa_to_the_gazette(real_pipeline):
    chunks = [c for c in real_pipeline.index.store.all_chunks() if c.ref is not None and c.ref.act == "BSA"]
    assert {c.source for c in chunks} == {"BSA_2023_gazette_Act47.pdf"}
    assert {c.ref.section for c in chunks} == {str(n) for n in range(1, 171)}
    assert not [c.id for c in chunks if dict(c.meta).get("print") == "bill"]
    assert all(1 <= c.pages[0] <= c.pages[1] <= 47 for c in chunks)
    answer = real_pipeline.ask("What does section 63 of the Bharatiya Sakshya Adhiniyam say about electronic records?")
    bsa = [c for c in answer.citations if c.ref is not None and c.ref.act == "BSA"]
    assert bsa and {c.source for c in bsa} == {"BSA_2023_gazette_Act47.pdf"}, answer.text
    from legal_rag.export import build_doc

    recs = [r for r in build_doc(answer, include_unverified=True).records if r.act == "BSA"]
    assert recs and all(r.citation.startswith("Bharatiya Sakshya Adhiniyam, 2023, s. ") for r in recs)
    assert not any(BILL_LABEL in r.citation for r in recs)
