"""The footnote-order check of ``bench/footnote_order.py`` finds what it is for: markers out of reading order,
a number the screen skips, an export numbered apart from the screen; and finds nothing in an answer the pipeline
numbered (:func:`legal_rag.answer.finish.in_reading_order`)."""

from __future__ import annotations

import dataclasses

from bench.footnote_order import consecutive, faults, sources_numbers
from legal_rag.answer.finish import in_reading_order
from legal_rag.types import Answer, Chunk, Citation, Hit, StatuteRef


def _answer(text: str, cited: dict[int, str], n: int = 4) -> Answer:
    """``n`` BNS passages (sections 101..); ``cited``: marker -> support, one sentence each, in ``text``."""
    chunks = [Chunk(f"BNS-{s}-0-{s:08d}", "statute", f"text of {s}", f"Section {s}", "BNS.pdf", (s, s), 0, 1,
                    StatuteRef("BNS", str(s))) for s in range(101, 101 + n)]
    cits = tuple(Citation(m, chunks[m - 1].id, chunks[m - 1].ref, "BNS.pdf", chunks[m - 1].pages, f"S{m} [{m}].",
                          sup) for m, sup in cited.items())
    return Answer("q", text, cits, passages=tuple(Hit(c, 1.0, "rrf", k) for k, c in enumerate(chunks, 1)))


def test_consecutive():
    assert consecutive([1, 2, 1, 3]) and consecutive([])
    assert not consecutive([2, 1]) and not consecutive([1, 3])


def test_an_answer_out_of_reading_order_is_found_and_renumbering_clears_it():
    a = _answer("S3 [3]. S1 [1]. S4 [4].", {3: "supported", 1: "supported", 4: "unsupported"})
    assert any(f.startswith("screen text") for f in faults(a))
    assert faults(in_reading_order(a)) == []


def test_a_skipped_number_is_found():
    a = _answer("S1 [1]. S3 [3].", {1: "supported", 3: "supported"})
    assert any(f.startswith("screen text [1, 3]") for f in faults(a))
    assert faults(in_reading_order(a)) == []


def test_a_marker_without_a_citation_row_is_found():
    a = in_reading_order(_answer("S1 [1]. S2 [2].", {1: "supported", 2: "supported"}))
    b = dataclasses.replace(a, citations=a.citations[:1])
    assert any(f.startswith("screen table [1] vs text [1, 2]") for f in faults(b))


def test_the_sources_line_is_read_by_its_numbers_not_the_years_it_names():
    line = "Sources: [1] BNS s. 103, p. 30; [2] Mohd. Anwar v. State, [2020] 7 S.C.R. 150, at 156 (unverified)"
    assert sources_numbers(line) == [1, 2]
