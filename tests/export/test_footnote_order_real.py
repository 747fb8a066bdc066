"""Footnote order on the real index (issue 31): an answer's markers first appear as [1], [2], ... with no gap, and
the screen (the chat text, the citation table, the "Sources:" line, the source picker) and every export (Word's
footnotes and Sources list read back with python-docx, the CSV with its ``role`` column, ...) number the same
citation alike. The questions are this file's own; :func:`bench.footnote_order.faults` is the bench's check of the
same rules, run here too."""

from __future__ import annotations

import csv
import importlib
import io
import re

import pytest
from docx import Document

from bench.footnote_order import faults, first_seen, sources_numbers, text_markers
from legal_rag.export import build_doc, citation_records, docx_footnotes, docx_references, export_answer
from legal_rag.export.records import answer_text
from legal_rag.export.sheet import ROLE
from legal_rag.ui.html import citations_panel, source_choices, sources_line

pytestmark = pytest.mark.slow

QUESTIONS = (
    "What is the punishment for dacoity under the new criminal code?",
    "Which provision of the BNSS replaced section 438 of the CrPC on anticipatory bail?",
    "What does the BNS say about dowry death, and what did it replace?",
    "A servant took his employer's gold chain from the almirah and sold it. Which offence has he committed?",
)
#: a question whose answer stands some provisions under "Related provisions" (the CSV's role column)
RELATED_QUESTION = "What is the punishment for kidnapping for ransom?"


@pytest.fixture(scope="module")
def answers(real_pipeline, request):
    """Each question of :data:`QUESTIONS` and :data:`RELATED_QUESTION` answered once, and how many answers the
    pipeline renumbered (:func:`legal_rag.answer.finish.in_reading_order` changed them)."""
    finish = importlib.import_module("legal_rag.answer.finish")  # the package exports its function finish

    real, changed = finish.in_reading_order, []

    def counted(answer):
        out = real(answer)
        changed.append(out is not answer)
        return out

    mp = pytest.MonkeyPatch()
    mp.setattr(finish, "in_reading_order", counted)
    try:
        got = {q: real_pipeline.ask(q) for q in (*QUESTIONS, RELATED_QUESTION)}
    finally:
        mp.undo()
    return got, sum(changed)


def _markers(answer) -> list[int]:
    """The markers of the shown text naming a passage, first seen first."""
    return first_seen(text_markers(answer_text(answer), set(range(1, len(answer.passages) + 1))))


def test_some_example_was_out_of_reading_order_before_it_was_renumbered(answers):
    """The examples exercise the renumbering: at least one answer came out of the generator and the related-
    provisions arrangement with its markers out of reading order."""
    assert answers[1] >= 1


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_answer_numbers_its_passages_in_reading_order(answers, question):
    a = answers[0][question]
    assert a.citations, a.text
    shown = _markers(a)
    assert shown == list(range(1, len(shown) + 1)), a.text
    # [n] names passages[n-1]: each citation's chunk is the passage its number names
    assert all(a.passages[c.marker - 1].chunk.id == c.chunk_id for c in a.citations)
    assert {c.marker for c in a.citations} == set(shown)


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_screen_numbers_as_the_text(answers, question):
    a = answers[0][question]
    shown = _markers(a)
    panel = citations_panel(a)
    rows = [int(x) for x in re.findall(r'data-marker="(\d+)"', panel)]
    assert rows == shown  # no number skipped, none out of order
    assert sources_numbers(sources_line(a)) == rows
    assert [v for _, v in source_choices(a)] == rows


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_export_numbers_its_notes_as_the_screen(answers, question):
    a = answers[0][question]
    assert faults(a) == []
    screen = {r.marker: r for r in citation_records(a, include_unverified=True)}
    for include in (True, False):
        doc = build_doc(a, include)
        data = export_answer(a, "docx", include)
        notes = docx_footnotes(data)
        assert sorted(notes) == [r.marker for r in doc.records]
        assert all(notes[r.marker].startswith(screen[r.marker].citation) for r in doc.records if include)
        assert all(screen[r.marker].chunk_id == r.chunk_id for r in doc.records)
        refs = docx_references(data)
        assert first_seen(n for n, _ in refs) == [r.marker for r in doc.records]
        assert all(str(n) == shown for n, shown in refs)  # Word shows the screen's number
        body = [p.text for p in Document(io.BytesIO(data)).paragraphs]
        sources = body[body.index("Sources") + 1:body.index("Sources") + 1 + len(doc.records)]
        assert [s.split(" ")[0] for s in sources] == [f"[{r.marker}]" for r in doc.records]
        rows = list(csv.DictReader(io.StringIO(export_answer(a, "csv", include).decode("utf-8-sig"))))
        assert [int(r["marker"]) for r in rows] == [r.marker for r in doc.records]


def test_csv_role_says_which_citations_are_related(answers):
    a = answers[0][RELATED_QUESTION]
    assert faults(a) == []
    rows = list(csv.DictReader(io.StringIO(export_answer(a, "csv", True).decode("utf-8-sig"))))
    related = {c.marker for c in a.citations if c.related} - {c.marker for c in a.citations if not c.related}
    assert related and len(related) < len(rows), a.text  # the example has both roles
    assert {int(r["marker"]): r["role"] for r in rows} == {
        int(r["marker"]): ROLE[int(r["marker"]) in related] for r in rows}
    # the related provisions stand after the answer, so their numbers come last
    assert sorted(related) == [int(r["marker"]) for r in rows][-len(related):]
