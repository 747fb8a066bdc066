"""PDF page -> printed report page (legal_rag.ingest.printed_pages) and the judgment chunk meta keys
(citations, case_numbers, printed_pages) built from the header parsed once."""

from __future__ import annotations

import pytest

from legal_rag.ingest.chunk import chunk_judgment, judgment_meta
from legal_rag.ingest.judgments import parse_judgment
from legal_rag.ingest.printed_pages import (format_para_map, format_printed, paragraph_at, parse_printed,
                                            printed_pages, printed_range)
from legal_rag.types import Page, Paragraph


def _page(n: int, text: str, margin: tuple[str, ...] = ()) -> Page:
    return Page("x.pdf", n, text, margin=tuple((0.0, t) for t in margin))


def test_digital_scr_heads_even_and_odd_pages():
    pages = (_page(1, "[2024] 7 S.C.R. 97 : 2024 INSC 479\nFrank Vitus\nv.\nNCB"),
             _page(2, "98 [2024] 7 S.C.R.\nbody text"),
             _page(3, "body text only, no head on this page"),
             _page(4, "body\n[2024] 7 S.C.R.  100"))
    assert printed_pages(pages, "[2024] 7 S.C.R. 97") == ((1, 97), (2, 98), (3, 99), (4, 100))


def test_printed_scr_head_in_the_margin_and_cited_reports_ignored():
    pages = (_page(1, "[2020] 7 S.C.R. 150\nMOHD. ANWAR", ("150 SUPREME COURT REPORTS [2020] 7 S.C.R.", "A")),
             _page(2, "[2008] 17 SCR 588 relied on Para 3.18\n[2015] 4 SCR 27 relied on Para 3.18"),
             _page(3, "text", ("152 SUPREME COURT REPORTS [2020] 7 S.C.R.", "B")))
    assert printed_pages(pages, "[2020] 7 S.C.R. 150") == ((1, 150), (2, 151), (3, 152))


def test_a_head_of_another_volume_or_a_misread_head_is_outvoted():
    pages = (_page(1, "[2020] 7 S.C.R. 150"), _page(2, "151 [2020] 7 S.C.R."), _page(3, "999 [2020] 7 S.C.R."),
             _page(4, "[2021] 3 S.C.R.  12"))
    assert printed_pages(pages, "[2020] 7 S.C.R. 150") == ((1, 150), (2, 151), (3, 152), (4, 153))


def test_a_print_without_heads_has_no_printed_pages():
    assert printed_pages((_page(1, "IN THE SUPREME COURT OF INDIA\nA v. B"), _page(2, "1. Leave granted."))) == ()


def test_meta_spelling_round_trips():
    assert format_printed([(3, 152), (4, 153)]) == "3:152,4:153"
    assert parse_printed("3:152,4:153") == {3: 152, 4: 153} and parse_printed("") == {}
    assert printed_range("3:152,4:153", (3, 4)) == (152, 153) and printed_range("", (3, 4)) is None
    pm = format_para_map([(0, "15", (7, 7)), (412, "16", (7, 8)), (900, "", (8, 8))])
    assert pm == "0:15:7-7;412:16:7-8;900::8-8"
    assert paragraph_at(pm, 0) == ("15", (7, 7)) and paragraph_at(pm, 500) == ("16", (7, 8))
    assert paragraph_at(pm, 950) is None and paragraph_at("", 3) is None  # unnumbered prose; no map


class _Words:
    """A whitespace tokenizer standing in for the embedder (chunking only counts tokens)."""

    window = 512

    def count_tokens(self, text: str) -> int:
        return len(text.split()) + 2

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        import re
        return [m.span() for m in re.finditer(r"\S+", text)]


def test_judgment_chunks_carry_citations_case_numbers_and_printed_pages():
    p1 = ("[2024] 7 S.C.R. 97 : 2024 INSC 479\nFrank Vitus\nv.\nNarcotics Control Bureau & Ors.\n"
          "(Criminal Appeal No. 2814-2815 of 2024)\n08 July 2024\nJudgment / Order of the Supreme Court\nOrder\n"
          "1. Leave granted and the appeal is heard on the question of the bail condition imposed here.")
    p2 = "98 [2024] 7 S.C.R.\n2. The condition is deleted from the order granting bail to the appellant here."
    j, paras, _ = parse_judgment((_page(1, p1), _page(2, p2)), "x.pdf")
    assert j.printed_pages == ((1, 97), (2, 98))
    meta = judgment_meta(j)
    assert meta["citations"] == "[2024] 7 S.C.R. 97; 2024 INSC 479"
    assert meta["case_numbers"] == "Criminal Appeal No. 2814-2815 of 2024"
    chunks = chunk_judgment(paras, _Words(), judgment=j, chunk_tokens=40, overlap=0)
    metas = [dict(c.meta) for c in chunks]
    assert all(m["citations"] == meta["citations"] and m["case_numbers"] == meta["case_numbers"] for m in metas)
    last = chunks[-1]
    assert dict(last.meta)["printed_pages"] == format_printed((k, k + 96) for k in range(last.pages[0], last.pages[1] + 1))
    # each chunk maps its text offsets to the printed paragraph and its pages
    numbered = [c for c in chunks if "paras" in dict(c.meta)]
    assert numbered and all("para_at" not in dict(c.meta) for c in chunks if c not in numbered)
    for c in numbered:
        m = dict(c.meta)
        for number in m["paras"].split("-"):
            p = next(p for p in paras if p.number == number)
            off = c.text.find(p.text[:30])
            assert off >= 0 and paragraph_at(m["para_at"], off) == (number, p.pages)


def test_text_judgment_chunks_have_no_printed_pages():
    j, paras, _ = parse_judgment((_page(1, "A v. B\nSupreme Court of India\n1 May 2000\n1. Body text here."),),
                                 "t.txt", "text")
    assert j.printed_pages == ()
    assert all("printed_pages" not in dict(c.meta) for c in chunk_judgment(paras, _Words(), judgment=j))
