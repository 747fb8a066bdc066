"""Chunking follows the legal structure and fits the embedder's window (BL-24 as far as chunk windows go)."""

from __future__ import annotations

import csv
import re

import pytest

from legal_rag.config import Settings
from legal_rag.ingest.chunk import chunk_judgment, chunk_section, safe_id
from legal_rag.types import Paragraph, Section, StatuteRef, passage_text


@pytest.fixture(scope="module")
def bns_rows():
    path = Settings().corpus_path / "statutes" / "structured" / "bns_sections_kaggle_cmrit.csv"
    with open(path, encoding="utf-8", newline="") as fh:
        return {r["Section"].strip(): r for r in csv.DictReader(fh)}


def _section(rows, num) -> Section:
    r = rows[num]
    return Section(StatuteRef("BNS", num), r["Section _name"].strip(), r["Description"].strip(),
                   "bns_sections_kaggle_cmrit.csv", (3, 5))


def test_long_definitions_section_fits_window_and_keeps_its_text(bns_rows, minilm):
    sec = _section(bns_rows, "2")  # BNS s.2: definitions, several thousand tokens
    chunks = chunk_section(sec, minilm, chunk_tokens=240, overlap=32)
    assert len(chunks) > 5
    for c in chunks:
        assert minilm.count_tokens(passage_text(c)) <= min(240, minilm.window - 2)
        assert sec.text[c.span[0]:c.span[1]] == c.text
        assert c.ref == sec.ref and c.pages == (3, 5) and c.parts == len(chunks)
        assert re.fullmatch(r"BNS-2-\d+-[0-9a-f]{8}", c.id)
    # consecutive parts overlap a little and together cover the whole text
    for a, b in zip(chunks, chunks[1:]):
        assert b.span[0] <= a.span[1] and b.span[0] > a.span[0]
    assert chunks[0].span[0] == 0 and chunks[-1].span[1] == len(sec.text.rstrip())
    # a definition deep in the section (far past token 600) sits in a chunk of its own window
    late = [c for c in chunks if "“will” means any testamentary document" in c.text]
    assert late and late[0].part > 3


def test_split_prefers_subsection_boundaries(bns_rows, minilm):
    chunks = chunk_section(_section(bns_rows, "318"), minilm, chunk_tokens=240, overlap=0)
    # with no overlap every part opens at a sub-section or clause/illustration marker, never mid-sentence
    assert all(re.match(r"\(\w{1,4}\) |Illustration|Explanation", c.text) for c in chunks), [c.text[:6] for c in chunks]
    assert any(c.text.startswith("(4) ") for c in chunks)
    subs4 = [c for c in chunks if "4" in dict(c.meta).get("subs", "").split(",")]
    assert subs4 and "dishonestly induces the person deceived" in subs4[0].text


def test_ids_are_deterministic_and_change_only_with_text(bns_rows, minilm):
    sec = _section(bns_rows, "318")
    a = chunk_section(sec, minilm)
    b = chunk_section(sec, minilm)
    assert [c.id for c in a] == [c.id for c in b]
    edited = Section(sec.ref, sec.title, sec.text.replace("seven years", "ten years"), sec.source, sec.pages)
    c = chunk_section(edited, minilm)
    changed = {x.id for x in c} - {x.id for x in a}
    assert changed and len(changed) < len(c)


def test_short_and_empty_sections(minilm):
    s = Section(StatuteRef("IPC", "498A"), "Cruelty", "Whoever, being the husband ... shall be punished.", "x", (1, 1))
    (only,) = chunk_section(s, minilm)
    assert only.text == s.text and only.parts == 1 and only.id.startswith("IPC-498A-0-")
    assert chunk_section(Section(StatuteRef("IPC", "1"), "", "  \n", "x", (1, 1)), minilm) == ()


def test_judgment_paragraph_groups(minilm):
    paras = [Paragraph("C/12\\x", str(i), f"{i}. " + ("The appellant was convicted under Section 420. " * (3 if i != 4 else 60)),
                       "C12.txt", (i, i + 1)) for i in range(1, 8)]
    chunks = chunk_judgment(paras, minilm, chunk_tokens=240, overlap=16)
    joined = "\n\n".join(p.text for p in paras)
    for c in chunks:
        assert "/" not in c.id and "\\" not in c.id and c.id.startswith(safe_id("C/12\\x") + "-")
        assert joined[c.span[0]:c.span[1]] == c.text
        assert minilm.count_tokens(passage_text(c)) <= 240
    long = [c for c in chunks if dict(c.meta).get("paras") == "4"]
    assert len(long) >= 2  # the long paragraph 4 is split inside itself
    assert all("\n\n" not in c.text for c in long)
    grouped = [c for c in chunks if "-" in dict(c.meta).get("paras", "")]
    assert grouped and grouped[0].pages[1] > grouped[0].pages[0]
    with pytest.raises(ValueError):
        chunk_judgment([paras[0], Paragraph("C13", "1", "x", "C13.txt", (1, 1))], minilm)
