"""Export: verified-only filtering, the records, and round trips through every format's own parser; a .docx
whatever control characters the text holds (BL-54).

The supersession flags come from the real law core (``legal_rag.law.flag_superseded`` over the BPR&D tables),
so the "(now BNS ...)" clauses are checked against the official rows, not against values typed here.
"""

from __future__ import annotations

import csv
import io
import json

import bibtexparser
import pytest
import rispy
from docx import Document

from legal_rag.errors import LegalRagError
from legal_rag.export import (FORMATS, build_doc, citation_records, doc_from_json, docx_footnotes, export_answer,
                              write_exports, xml_safe)
from legal_rag.export.formats import CSV_COLUMNS, bibtex_key, tex, to_markdown
from legal_rag.law import flag_superseded, load_concordance
from legal_rag.types import Answer, Chunk, Citation, Hit, StatuteRef

from tests.statutes import IPC_420

IPC420, BNS318_4 = StatuteRef("IPC", "420"), StatuteRef("BNS", "318", ("4",))


@pytest.fixture(scope="module")
def conc():
    return load_concordance()


def _chunk(cid, ref=None, case=None, title="", source="x.pdf", pages=(1, 1), meta=()):
    return Chunk(id=cid, kind="statute" if ref else "judgment", text="text of " + cid, title=title, source=source,
                 pages=pages, ref=ref, case=case, meta=meta)


@pytest.fixture(scope="module")
def answer(conc):
    """An answer citing BNS 318(4) [1], IPC 420 [2], a judgment [3] (with a quote full of special characters)
    and an unsupported claim [4]; marker 1 is cited by a supported and an unsupported sentence."""
    bns = _chunk("BNS-318-3-aaaa1111", BNS318_4, title="Cheating", source="BNS_2023_gazette_Act45.pdf", pages=(87, 87))
    ipc = _chunk("IPC-420-0-bbbb2222", IPC420, title="Cheating and dishonestly inducing delivery of property",
                 source="IPC_1860_legislative_dept_2019.pdf", pages=(96, 96))
    jud = _chunk("arnab-2-cccc3333", case="arnab", title="Arnab Manoranjan Goswami v. State of Maharashtra",
                 source="SCR_2020-11-27_ArnabGoswami_v_StateOfMaharashtra_2020-11-SCR-896.pdf", pages=(30, 31),
                 meta=(("citations", "[2020] 11 S.C.R. 896"), ("court", "Supreme Court of India"),
                       ("date", "2020-11-27"), ("paras", "64-66"), ("printed_pages", "30:925,31:926")))
    odd = _chunk("IPC-498A-0-dddd4444", StatuteRef("IPC", "498A"), title="Cruelty", source="IPC.pdf", pages=(80, 81))
    quote = 'Liberty {is} "precious" & 100% — 50$ #1 _x_ ~ ^ \\ , ;\nnew line'
    cits = (
        Citation(1, bns.id, BNS318_4, bns.source, bns.pages, "Cheating is punished under BNS 318(4) [1].",
                 "supported", quote="shall be punished with imprisonment ... seven years", weight=0.61),
        Citation(1, bns.id, BNS318_4, bns.source, bns.pages, "It also covers forgery [1].", "unsupported"),
        Citation(2, ipc.id, IPC420, ipc.source, ipc.pages, "The old law was IPC 420 [2].", "supported",
                 quote=IPC_420.upto("dishonestly induces"), weight=0.3),
        Citation(3, jud.id, None, jud.source, jud.pages, "Liberty matters [3].", "supported", quote=quote),
        Citation(4, odd.id, odd.ref, odd.source, odd.pages, "Cruelty is bailable [4].", "unsupported"),
    )
    flags = flag_superseded([IPC420, StatuteRef("IPC", "498A")], "answer", concordance=conc)
    text = ("Cheating is punished under BNS 318(4) [1]. It also covers forgery [1]. The old law was IPC 420 [2].\n"
            "Liberty matters [3]. Cruelty is bailable [4].")
    hits = tuple(Hit(c, 1.0 / (i + 1), "rrf", i + 1) for i, c in enumerate((bns, ipc, jud, odd)))
    return Answer("What is the BNS equivalent of IPC 420?", text, cits, flags, ("'302' names no Act",), hits,
                  model="fake", index_id="idx1")





def test_only_verified_citations_unless_asked(answer):
    recs = citation_records(answer)
    assert [r.marker for r in recs] == [1, 2, 3]
    assert recs[0].sentences == ("Cheating is punished under BNS 318(4) [1].",)
    assert all(r.verified for r in recs)
    everything = citation_records(answer, include_unverified=True)
    assert [r.marker for r in everything] == [1, 2, 3, 4]
    assert everything[0].support == "unsupported" and len(everything[0].sentences) == 2
    assert everything[3].citation == "Indian Penal Code, 1860, s. 498A (now BNS ss. 85 and 86)"


def test_records_carry_judgment_metadata_and_weights(answer):
    r1, r2, r3 = citation_records(answer)
    assert (r1.kind, r1.act, r1.section, r1.weight, r1.page_label) == ("statute", "BNS", "318(4)", 0.61, "p. 87")
    assert r2.now == ("BNS 318(4)",) and r2.source_row.endswith("#453")
    assert r3.kind == "judgment" and r3.court == "Supreme Court of India" and r3.reporters == ("[2020] 11 S.C.R. 896",)
    assert r3.citation == ("Arnab Manoranjan Goswami v. State of Maharashtra, [2020] 11 S.C.R. 896, at 925-926, "
                           "paras 64-66 (Supreme Court of India, 27 November 2020)")
    assert (r3.printed, r3.pinpoint, r3.page_label) == ((925, 926), "at 925-926", "PDF pp. 30-31")
    assert r3.year == "2020" and r1.year == "2023" and r3.weight is None


@pytest.mark.parametrize("include", [False, True])
def test_json_round_trip(answer, include):
    doc = build_doc(answer, include)
    assert doc_from_json(export_answer(answer, "json", include).decode()) == doc


def test_json_refuses_other_files():
    with pytest.raises(LegalRagError, match="notes.json"):
        doc_from_json('{"format": "something"}', "notes.json")
    with pytest.raises(LegalRagError, match="x.json"):
        doc_from_json("not json", "x.json")


def test_csv_round_trip(answer):
    doc = build_doc(answer, include_unverified=True)
    rows = list(csv.DictReader(io.StringIO(export_answer(answer, "csv", True).decode("utf-8-sig"))))
    assert tuple(rows[0]) == CSV_COLUMNS  # two weights given: the weight column is there
    assert len(rows) == len(doc.records)
    for row, r in zip(rows, doc.records):
        assert row["citation"] == r.citation and row["quote"] == r.quote and row["support"] == r.support
        assert int(row["marker"]) == r.marker and row["pages"] == r.page_label
        assert (int(row["first_page"]), int(row["last_page"])) == r.pages
        assert row["sentences"].split(" | ") == list(r.sentences)


def test_ris_round_trip(answer):
    doc = build_doc(answer)
    entries = rispy.loads(export_answer(answer, "ris").decode())
    assert [e["type_of_reference"] for e in entries] == ["STAT", "STAT", "CASE"]
    for e, r in zip(entries, doc.records):
        assert r.citation in e["notes"]
        assert e["start_page"] == str((r.printed or r.pages)[0])  # a report's printed page, else the PDF's
        assert e.get("abstract", "") == " ".join(r.quote.split())  # RIS is line-based: newlines folded
    assert entries[0]["section"] == "318(4)" and entries[0]["title"] == "Bharatiya Nyaya Sanhita, 2023"
    assert entries[2]["publisher"] == "Supreme Court of India"


def test_bibtex_round_trip(answer):
    doc = build_doc(answer)
    lib = bibtexparser.parse_string(export_answer(answer, "bibtex").decode())
    assert not lib.failed_blocks
    assert [e.entry_type for e in lib.entries] == ["legislation", "legislation", "jurisdiction"]
    assert [e.key for e in lib.entries] == [bibtex_key(r) for r in doc.records]
    assert len({e.key for e in lib.entries}) == 3
    by_key = {e.key: e for e in lib.entries}
    assert by_key["lr1_BNS_318_4"]["number"] == "s. 318(4)"
    assert by_key["lr3_Arnab_Manoranjan_Goswami"]["abstract"] == tex(doc.records[2].quote)
    assert tex("{a}%&") == r"(a)\%\&"


def test_csl_json_round_trip(answer):
    items = json.loads(export_answer(answer, "csl-json"))
    assert [i["type"] for i in items] == ["legislation", "legislation", "legal_case"]
    assert items[0]["section"] == "s. 318(4)" and items[2]["issued"] == {"date-parts": [[2020, 11, 27]]}
    assert items[2]["authority"] == "Supreme Court of India" and items[2]["page"] == "925-926"  # the report's printed pages
    assert len({i["id"] for i in items}) == len(items)


def test_docx_has_footnotes_and_notes(answer):
    data = export_answer(answer, "docx")
    d = Document(io.BytesIO(data))
    body = "\n".join(p.text for p in d.paragraphs)
    assert answer.query in body and "Supersession notes" in body and "IPC 420 → BNS 318(4)" in body
    assert "bailable [unverified]" in body  # an unverified marker has no footnote and says so
    notes = docx_footnotes(data)
    assert sorted(notes) == [1, 2, 3]
    assert notes[2].startswith("Indian Penal Code, 1860, s. 420 (now BNS s. 318(4))")
    refs = d.element.body.findall(".//{http://schemas.openxmlformats.org/wordprocessingml/2006/main}footnoteReference")
    # both [1] in the text point at footnote 1, [2] and [3] once each, the unverified [4] at none
    assert sorted(int(r.get(f"{{{r.nsmap['w']}}}id")) for r in refs) == [1, 1, 2, 3]


def test_docx_is_written_whatever_control_characters_the_text_holds():
    """BL-54: a question or passage holding characters XML cannot hold (Word's vertical tab, pdftotext's form feed,
    NUL) still gives a .docx; python-docx refuses them ("All strings must be XML compatible")."""
    ref = StatuteRef("BNS", "85")
    chunk = Chunk("BNS-85-0-aaaa", "statute", "Whoever\x0c being the husband\x0b subjects\x00 a woman to cruelty",
                  "Cruelty\x1f", "BNS_2023_gazette_Act45.pdf", (25, 25), 0, 1, ref)
    answer = Answer("What replaced Section 498A IPC?\x0bThe wife was harassed for dowry.\x0c",
                    "BNS 85 punishes cruelty\x0b by the husband [1].",
                    (Citation(1, chunk.id, ref, chunk.source, chunk.pages, "BNS 85 punishes cruelty [1].",
                              "supported", "subjects\x00 a woman to cruelty"),),
                    problems=("odd\x01 problem",), passages=(Hit(chunk, 1.0, "lookup", 1),))
    data = export_answer(answer, "docx")
    body = "\n".join(p.text for p in Document(io.BytesIO(data)).paragraphs)
    assert "What replaced Section 498A IPC? The wife was harassed for dowry." in body
    assert "cruelty  by the husband" in body and "odd  problem" in body
    doc = xml_safe(build_doc(answer))
    assert "\x00" not in repr(doc) and doc.records[0].quote == "subjects  a woman to cruelty"


def test_markdown_footnotes(answer):
    md = to_markdown(build_doc(answer))
    assert "BNS 318(4) [^1]." in md and "bailable [unverified]." in md
    assert "[^2]: Indian Penal Code, 1860, s. 420 (now BNS s. 318(4)) [IPC_1860_legislative_dept_2019.pdf, p. 96]" in md
    assert "## Supersession notes" in md and "BPRD_correspondence_BNS_to_IPC_clean.csv#453" in md
    assert "[^4]:" not in md


def test_write_exports_every_format(answer, tmp_path):
    paths = write_exports(answer, tmp_path / "out")
    assert set(paths) == set(FORMATS)
    for name, p in paths.items():
        assert p.parent == tmp_path / "out" and p.name == "legal-rag-answer" + FORMATS[name].ext
        assert p.stat().st_size > 0


def test_unknown_format():
    with pytest.raises(LegalRagError, match="unknown export format"):
        export_answer(Answer("q", "a"), "pdf")


def test_empty_answer_exports_cleanly():
    a = Answer("q", "The sources do not answer the question.")
    assert a.text in export_answer(a, "markdown").decode()
    assert rispy.loads(export_answer(a, "ris").decode()) == []
    assert bibtexparser.parse_string(export_answer(a, "bibtex").decode()).entries == []
    assert list(csv.reader(io.StringIO(export_answer(a, "csv").decode("utf-8-sig")))) == [
        [c for c in CSV_COLUMNS if c != "weight"]]
    assert json.loads(export_answer(a, "csl-json")) == []
    assert docx_footnotes(export_answer(a, "docx")) == {}


def _cli():
    import typer

    from legal_rag.cli.export import export

    app = typer.Typer()
    app.command("export")(export)
    app.command("noop")(lambda: None)  # two commands, so "export" is addressed by name as in legal_rag.cli
    return app


def test_cli_reexports_a_json_answer(answer, tmp_path):
    from typer.testing import CliRunner

    src = tmp_path / "answer.json"
    src.write_bytes(export_answer(answer, "json"))
    run = CliRunner().invoke(_cli(), ["export", "--from-json", str(src), "-f", "bib"])
    assert run.exit_code == 0, run.output
    assert len(bibtexparser.parse_string(run.stdout).entries) == 3
    run = CliRunner().invoke(_cli(), ["export", "--from-json", str(src), "-f", "all", "-o", str(tmp_path / "all")])
    assert run.exit_code == 0, run.output
    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == sorted(
        "legal-rag-answer" + f.ext for f in FORMATS.values())
    assert docx_footnotes((tmp_path / "all" / "legal-rag-answer.docx").read_bytes())[1].startswith("Bharatiya")
    # one format into an existing directory (new-user trial: "-o exports/" with -f md raised IsADirectoryError)
    (tmp_path / "one").mkdir()
    run = CliRunner().invoke(_cli(), ["export", "--from-json", str(src), "-f", "csv", "-o", str(tmp_path / "one")])
    assert run.exit_code == 0, run.output
    assert [p.name for p in (tmp_path / "one").iterdir()] == ["legal-rag-answer.csv"]
    # a directory named with a trailing slash that does not exist yet is made, never written as a file
    run = CliRunner().invoke(_cli(), ["export", "--from-json", str(src), "-f", "ris", "-o", f"{tmp_path / 'new'}/"])
    assert run.exit_code == 0, run.output
    assert [p.name for p in (tmp_path / "new").iterdir()] == ["legal-rag-answer.ris"]
    run = CliRunner().invoke(_cli(), ["export", "--from-json", str(src), "-f", "md", "-o",
                                      str(tmp_path / "missing" / "a.md")])
    assert run.exit_code == 1 and run.stderr.startswith("error: --out ") and run.stderr.count("\n") == 1


def test_cli_errors_are_one_line(tmp_path):
    from typer.testing import CliRunner

    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    for args in (["export"], ["export", "--from-json", str(bad)], ["export", "--from-json", str(tmp_path / "no.json")],
                 ["export", "--from-json", str(bad), "-f", "pdf"]):
        run = CliRunner().invoke(_cli(), args)
        assert run.exit_code == 1 and run.stderr.startswith("error: ") and run.stderr.count("\n") == 1, args
