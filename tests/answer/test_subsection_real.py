"""Sub-section precision end to end on the real index (issue 14; field case BL-59): the answer's heading, the
citations, the citation panel and every export format name the sub-section a quote is taken from, with the PDF
page where it is printed; quotes begin with their operative words.

The pages are checked against the PDF itself: the words a citation quotes must be printed on the page it names
(the page texts read by :func:`legal_rag.ingest.pdf.extract_pages`, cached per session).

Slow: the session's real-corpus index (``real_pipeline`` in ``tests/conftest.py``)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from legal_rag.cite import quote_spans
from legal_rag.export import build_doc, docx_footnotes, export_doc
from legal_rag.generate import generate
from legal_rag.text import normalise
from legal_rag.types import Answer, StatuteRef
from legal_rag.ui.html import citations_panel
from legal_rag.verify import to_answer, verify

from tests.generate.fakes import FakeBackend
from tests.statutes import BNS_318_4, IPC_420

pytestmark = pytest.mark.slow

BL59 = "What is the BNS equivalent of IPC 420?"
BNS_PDF = "BNS_2023_gazette_Act45.pdf"


@pytest.fixture(scope="module")
def page_text(real_settings):
    """``page_text(source, n)``: the normalised text of page ``n`` of a statute PDF of the corpus."""
    from legal_rag.ingest import corpus_file
    from legal_rag.ingest.pdf import extract_pages

    cache: dict[str, dict[int, str]] = {}

    def get(source: str, n: int) -> str:
        if source not in cache:
            pages = extract_pages(corpus_file(source, real_settings)).pages
            cache[source] = {p.number: normalise(p.text) for p in pages}
        return cache[source].get(n, "")

    return get


@pytest.fixture(scope="module")
def bl59(real_pipeline) -> Answer:
    return real_pipeline.ask(BL59)


def _printed_on(page_text, source: str, page: int, words: str, letters: bool = False) -> bool:
    """Whether ``words`` are printed on ``page`` (``letters``: compared by their letters only, as the Legislative
    Department prints carry footnote markers, ``1[imprisonment``, that the parsed text drops)."""
    if letters:
        only = lambda s: re.sub(r"[^a-z]+", " ", s).strip()  # noqa: E731
        return only(normalise(words)) in only(page_text(source, page))
    return normalise(words) in page_text(source, page)


def _opening(quote: str, n: int = 8) -> str:
    """The first ``n`` words of a quote's first fragment."""
    first = re.split(r"\s*\u2026\s*", quote.strip("\u201c\u201d\" "))[0]
    return " ".join(first.split()[:n])


def _quote_lines(answer: Answer) -> list[str]:
    return [line for line in answer.text.splitlines() if line.startswith("\u201c")]


# ---- BL-59: the answer, the citations, the panel and every export -------------------------------------------------
def test_bl59_answer_heading_and_quotes(bl59):
    lines = bl59.text.splitlines()
    assert any(re.fullmatch(r"BNS 318\(4\) - Cheating \[\d\]", line) for line in lines), bl59.text
    assert not any(line.startswith("BNS 318 -") for line in lines)  # no heading at the section alone
    quotes = _quote_lines(bl59)
    assert any(q.startswith(f"\u201c{BNS_318_4.upto('the person deceived')}") for q in quotes)
    # the IPC 420 quote begins with its operative words, not with the title or mid-sentence
    ipc = [q for q in quotes if "Whoever cheats and thereby" in q and not q.startswith("\u201c(4)")]
    assert ipc and ipc[0].startswith(f"\u201c{IPC_420.upto('dishonestly induces')}"), quotes
    assert all(not q.startswith("\u201c\u2026") for q in quotes)


def test_bl59_citations_name_318_4_on_page_87_where_it_is_printed(bl59, page_text):
    bns = [c for c in bl59.citations if c.chunk_id.startswith("BNS-318")]
    assert bns and all(c.support == "supported" for c in bns)
    assert {c.ref for c in bns} == {StatuteRef("BNS", "318", ("4",))}
    assert {c.pages for c in bns} == {(87, 87)}
    assert _printed_on(page_text, BNS_PDF, 87, BNS_318_4.upto("the person deceived"))
    assert not _printed_on(page_text, BNS_PDF, 86, BNS_318_4.upto("dishonestly induces"))
    ipc = [c for c in bl59.citations if c.chunk_id.startswith("IPC-420")]
    assert ipc and {c.ref for c in ipc} == {StatuteRef("IPC", "420")}


def test_bl59_citation_panel_reads_318_4_and_opens_page_87(bl59):
    html = citations_panel(bl59)
    row = next(r for r in re.findall(r'<tr class="lr-cite".*?</tr>', html, re.S) if "Bharatiya Nyaya" in r)
    assert "<td>318(4)</td>" in row and "s. 318(4)" in row
    assert f"/source/{BNS_PDF}#page=87" in row and "p. 87" in row
    assert "(4) Whoever cheats" in row


def test_bl59_every_export_format_reads_318_4_p87(bl59):
    doc = build_doc(bl59)
    rec = next(r for r in doc.records if r.act == "BNS")
    assert (rec.section, rec.pages, rec.citation) == ("318(4)", (87, 87), "Bharatiya Nyaya Sanhita, 2023, s. 318(4)")
    out = {f: export_doc(doc, f) for f in ("markdown", "json", "csv", "ris", "bibtex", "csl-json", "docx")}
    md = out["markdown"].decode()
    assert f"Bharatiya Nyaya Sanhita, 2023, s. 318(4) [{BNS_PDF}, p. 87]" in md
    assert re.search(r"\bs\. 318(?!\()", md) is None  # nowhere the section alone
    js = json.loads(out["json"])
    jr = next(r for r in js["citations"] if r["act"] == "BNS")
    assert (jr["section"], jr["pages"]) == ("318(4)", [87, 87])
    rows = list(csv.DictReader(io.StringIO(out["csv"].decode("utf-8-sig"))))
    cr = next(r for r in rows if r["act"] == "BNS")
    assert (cr["section"], cr["first_page"], cr["last_page"], cr["pages"]) == ("318(4)", "87", "87", "p. 87")
    ris = out["ris"].decode()
    block = next(b for b in ris.split("ER  -") if "Bharatiya Nyaya" in b)
    assert re.search(r"^SE  - 318\(4\)$", block, re.M) and re.search(r"^SP  - 87$", block, re.M)
    assert re.search(r"^EP  - 87$", block, re.M)
    bib = out["bibtex"].decode()
    entry = next(e for e in bib.split("@")[1:] if "Bharatiya Nyaya" in e)
    assert re.search(r"number = \{s\. 318\(4\)\}", entry) and re.search(r"pages = \{87--87\}", entry)
    assert "lr" in entry and "BNS_318_4" in entry
    csl = json.loads(out["csl-json"])
    item = next(i for i in csl if i.get("title-short") == "BNS")
    assert (item["section"], item["page"]) == ("s. 318(4)", "87")
    notes = docx_footnotes(out["docx"])
    assert any("Bharatiya Nyaya Sanhita, 2023, s. 318(4)" in t and "p. 87" in t for t in notes.values()), notes


# ---- more sections with sub-sections ------------------------------------------------------------------------------
@pytest.mark.parametrize("question, ref, opening", [
    ("What is the punishment for theft?", StatuteRef("BNS", "303", ("2",)), "(2) Whoever commits theft shall be punished"),
    ("BNSS 482", StatuteRef("BNSS", "482", ("1",)), "(1) When any person has reason to believe"),
    ("What is the punishment for rape by a police officer under BNS 64?", StatuteRef("BNS", "64", ("2",)),
     "(2) Whoever,— (a) being a police officer, commits rape"),
])
def test_subsection_quotes_are_cited_at_the_subsection_and_its_page(real_pipeline, page_text, question, ref, opening):
    a = real_pipeline.ask(question)
    assert any(line.startswith(f"{ref} - ") for line in a.text.splitlines()), a.text
    quote = next(q for q in _quote_lines(a) if q.startswith("\u201c" + opening))
    cits = [c for c in a.citations if c.ref == ref and c.quote and c.quote in quote]
    assert cits, [(str(c.ref), c.quote[:40]) for c in a.citations]
    c = cits[0]
    assert _printed_on(page_text, c.source, c.pages[0], _opening(c.quote), letters=True)
    recs = build_doc(a).records
    rec = next(r for r in recs if r.marker and ref.act == r.act and str(ref).split(" ")[1] in r.section.split(", "))
    assert rec.pages[0] <= c.pages[0] and c.pages[1] <= rec.pages[1]
    html = citations_panel(a)
    assert f"#page={rec.pages[0]}" in html


def test_quotes_are_printed_on_the_pages_cited_and_pinned_only_to_printed_markers(real_pipeline, page_text):
    """Over questions of several kinds: every statute citation whose quote is located in its passage names pages on
    which the quote's opening words are printed, and a sub-section it names has its marker printed in the passage
    or the passage begins inside it (meta ``open``)."""
    questions = ["What is the BNS equivalent of IPC 420?", "punishment for voluntarily causing grievous hurt",
                 "punishment for criminal intimidation by threatening injury", "punishment for dacoity",
                 "What is the punishment for murder?", "anticipatory bail under BNSS 482", "punishment for extortion"]
    checked = 0
    for q in questions:
        a = real_pipeline.ask(q)
        chunks = {h.chunk.id: h.chunk for h in a.passages}
        for c in a.citations:
            chunk = chunks[c.chunk_id]
            if chunk.ref is None or not c.quote or c.quote not in c.sentence or not quote_spans(c.quote, chunk.text):
                continue
            assert _printed_on(page_text, c.source, c.pages[0], _opening(c.quote, 6), letters=True), \
                (q, str(c.ref), c.pages, c.quote)
            if c.ref.sub:
                opens = dict(chunk.meta).get("open", "").split(",")[0]
                assert f"({c.ref.sub[0]})" in chunk.text or opens == c.ref.sub[0], (q, str(c.ref), chunk.id)
            checked += 1
    assert checked >= 10


def test_a_model_answer_is_pinned_the_same_way(real_pipeline):
    """An LLM generator's answer (a fake chat backend over the real passages) gets the same precision: the quote's
    sub-section and its page, through verification, the records and the exports."""
    hits = real_pipeline.search(BL59)
    n = next(i for i, h in enumerate(hits[:5], 1) if h.chunk.id.startswith("BNS-318-4"))
    words = BNS_318_4.upto("to any person").removeprefix("(4) ")
    reply = f"IPC 420 is now BNS 318 [{n}]. It reads: \u201c{words}\u201d [{n}]."
    settings = real_pipeline.settings.model_copy(update={"relevance_floor": 0.0})
    d = generate(BL59, hits, settings, backend=FakeBackend(reply))
    a = to_answer(d, verify(d))
    quoted = [c for c in a.citations if c.quote and c.quote in c.sentence]
    assert quoted and quoted[0].ref == StatuteRef("BNS", "318", ("4",)) and quoted[0].pages == (87, 87)
    rec = next(r for r in build_doc(a).records if r.act == "BNS")
    assert (rec.section, rec.pages) == ("318(4)", (87, 87))
