"""A judgment citation in every export format carries the neutral/reporter citation and the pinpoint: the report's
printed page and the paragraph where the quoted words stand (issue 18); a plain-text judgment names no page. An
order is cited and typed as an order in every format (RIS ``T3``, biblatex ``type``, CSL ``genre``, the CSV's
``kind``), a judgment beside it exactly as a judgment."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from typing import get_args

import bibtexparser
import pytest
import rispy

from legal_rag.errors import LegalRagError
from legal_rag.export import build_doc, doc_from_json, export_doc, judgment_citation
from legal_rag.export.formats import tex
from legal_rag.export.records import DECISION_TYPES, DecisionType, citation_records, order_reference
from legal_rag.types import Answer, Chunk, Citation, Decision, Hit

P15 = "The appellant was convicted under Section 302 by the trial court."
P16 = "Mere production of photocopy of an OPD card has little evidentiary value."
ANWAR = Chunk(id="2020-7-SCR-150-3-test", kind="judgment", text=f"{P15}\n\n{P16}",
              title="Mohd. Anwar v. The State (N.C.T. of Delhi)", source="SCR_2020_MohdAnwar.pdf", pages=(6, 7),
              case="2020-7-SCR-150",
              meta=(("citations", "[2020] 7 S.C.R. 150"), ("court", "Supreme Court of India"), ("date", "2020-08-19"),
                    ("paras", "15-16"), ("printed_pages", "6:155,7:156"),
                    ("para_at", f"0:15:6-6;{len(P15) + 2}:16:7-7"), ("case_numbers", "Criminal Appeal No. 1551 of 2010")))
TEXT = Chunk(id="C82-0-test", kind="judgment", text="The accused was rightly convicted under section 420.",
             title="Shambhoo Nath Misra v. State of U. P.", source="C82.txt", pages=(2, 2), case="C82",
             meta=(("court", "Supreme Court of India"), ("date", "1997-03-14"), ("paras", "7")))


def _answer(chunk: Chunk, quote: str) -> Answer:
    c = Citation(1, chunk.id, None, chunk.source, chunk.pages, "It held so [1].", "supported", quote=quote)
    return Answer("q", "It held so [1].", citations=(c,), passages=(Hit(chunk, 1.0, "dense", 1),))


def test_judgment_citation():
    assert judgment_citation("A v. B", ("2024 INSC 479",), "Supreme Court of India", "2024-07-01", "12") == (
        "A v. B, 2024 INSC 479, para 12 (Supreme Court of India, 1 July 2024)")
    # the neutral citation first, the report last with its printed page; no page without a report that prints it
    assert judgment_citation("A v. B", ("[2024] 7 S.C.R. 97", "2024 INSC 479"), paras="4", printed=(100, 100)) == (
        "A v. B, 2024 INSC 479 : [2024] 7 S.C.R. 97, at 100, para 4")
    assert judgment_citation("A v. B", ("2024 INSC 479",), paras="4", printed=(100, 100)) == "A v. B, 2024 INSC 479, para 4"
    assert judgment_citation("Mohd. Anwar v. State (NCT of Delhi)", ("[2020] 7 S.C.R. 150",), paras="16",
                             printed=(156, 156)) == "Mohd. Anwar v. State (NCT of Delhi), [2020] 7 S.C.R. 150, at 156, para 16"
    assert judgment_citation("A v. B", date="2024-13-45") == "A v. B (2024-13-45)"
    assert judgment_citation("") == "Unnamed judgment"


def test_the_quote_pins_its_paragraph_and_printed_page():
    (r,) = citation_records(_answer(ANWAR, "photocopy of an OPD card"))
    assert r.citation == ("Mohd. Anwar v. The State (N.C.T. of Delhi), [2020] 7 S.C.R. 150, at 156, para 16 "
                          "(Supreme Court of India, 19 August 2020)")
    assert (r.paras, r.pages, r.printed, r.page_label) == ("16", (7, 7), (156, 156), "PDF p. 7")
    assert r.case_numbers == "Criminal Appeal No. 1551 of 2010"
    (whole,) = citation_records(_answer(ANWAR, "words that are not in the passage"))
    assert (whole.paras, whole.printed) == ("15-16", (155, 156))  # not found: the passage's paragraphs and pages


def test_every_format_carries_citation_and_pinpoint():
    doc = build_doc(_answer(ANWAR, "photocopy of an OPD card"))
    want = "[2020] 7 S.C.R. 150, at 156, para 16"
    md = export_doc(doc, "markdown").decode()
    assert want in md and "[SCR_2020_MohdAnwar.pdf, PDF p. 7]" in md
    (ris,) = rispy.loads(export_doc(doc, "ris").decode())
    assert ris["number"] == "[2020] 7 S.C.R. 150" and ris["start_page"] == "156" and any(want in n for n in ris["notes"])
    bib = export_doc(doc, "bibtex").decode()
    assert "number = {[2020] 7 S.C.R. 150}" in bib and "pages = {156--156}" in bib and want in bib
    (csl,) = json.loads(export_doc(doc, "csl-json"))
    assert csl["number"] == "[2020] 7 S.C.R. 150" and csl["page"] == "156" and want in csl["note"]
    csv_text = export_doc(doc, "csv").decode("utf-8-sig")
    assert want in csv_text and '"at 156"' in csv_text and '"para 16"' in csv_text
    back = doc_from_json(export_doc(doc, "json").decode())
    assert back.records[0].printed == (156, 156) and want in back.records[0].citation
    from legal_rag.export import docx_footnotes
    assert any(want in t and "PDF p. 7" in t for t in docx_footnotes(export_doc(doc, "docx")).values())


def test_a_text_judgment_is_cited_by_paragraph_only():
    doc = build_doc(_answer(TEXT, "rightly convicted"))
    (r,) = doc.records
    assert r.citation == "Shambhoo Nath Misra v. State of U. P., para 7 (Supreme Court of India, 14 March 1997)"
    assert r.page_label == "" and not r.printed
    md = export_doc(doc, "markdown").decode()
    assert "[C82.txt]" in md and "p. 2" not in md
    (ris,) = rispy.loads(export_doc(doc, "ris").decode())
    assert "start_page" not in ris
    assert "pages" not in export_doc(doc, "bibtex").decode()
    assert "page" not in json.loads(export_doc(doc, "csl-json"))[0]


ORDER = Chunk(id="SC-ORDER-2026-05-19-SLP-1592-2026-0-test", kind="judgment",
              text="In view of the above and since the parties have agreed, we quash the FIR No. 816 of 2025.",
              title="Rajesh @ Rajesh Malik v. The State of Haryana & Anr.",
              source="SC_orders_of_the_day_21days_2026-05-25_to_2026-07-01.tar.gz", pages=(559, 559),
              case="SC-ORDER-2026-05-19-SLP-1592-2026",
              meta=(("case_numbers", "Petition(s) for Special Leave to Appeal (Crl.) No(s). 1592/2026"),
                    ("court", "Supreme Court of India"), ("date", "2026-05-19"), ("decision", "order"), ("paras", "7"),
                    ("within", "archive/2026-05-25.md, item 66")))


def test_an_order_is_cited_as_an_order():
    (r,) = build_doc(_answer(ORDER, "we quash the FIR")).records
    assert r.citation == "Order of the Supreme Court dated 19.05.2026 in SLP (Crl.) No. 1592/2026, para 7"
    assert (r.kind, r.decision) == ("judgment", "order") and "judgment" not in r.citation.lower()
    assert r.citation in export_doc(build_doc(_answer(ORDER, "we quash the FIR")), "markdown").decode()
    assert doc_from_json(export_doc(build_doc(_answer(ORDER, "x")), "json").decode()).records[0].decision == "order"


ORDER_TITLE = ("Rajesh @ Rajesh Malik v. The State of Haryana & Anr., Order of the Supreme Court dated 19.05.2026 in "
               "SLP (Crl.) No. 1592/2026")


def _both():
    """An answer citing the order [1] and the judgment [2], each with its own quote."""
    order, anwar = _answer(ORDER, "we quash the FIR"), _answer(ANWAR, "photocopy of an OPD card")
    c2 = replace(anwar.citations[0], marker=2, sentence="It held so too [2].")
    return Answer("q", "It held so [1]. It held so too [2].", citations=(order.citations[0], c2),
                  passages=(*order.passages, *anwar.passages))


def test_the_decision_table_types_every_decision():
    assert set(DECISION_TYPES) == set(get_args(Decision))
    # a judgment is typed by its entry type alone: no field is written for it
    assert DECISION_TYPES["judgment"] == DecisionType(ris="", bibtex="", csl="", csv="judgment")
    assert DECISION_TYPES["order"] == DecisionType(ris="Order", bibtex="Order", csl="Order", csv="order")


def test_an_order_is_titled_by_its_parties_and_order_citation():
    order, judgment = build_doc(_both()).records
    assert order.entry_title == ORDER_TITLE and judgment.entry_title == "Mohd. Anwar v. The State (N.C.T. of Delhi)"
    # no parties held: the order's citation alone; a High Court's order is its court's
    bare = replace(order, title="", court="High Court of Judicature at Allahabad", date="2023-10-04",
                   case_numbers="CRIMINAL MISC. BAIL APPLICATION No. - 39983 of 2023; Other No. 1 of 2023")
    assert bare.entry_title == order_reference(bare.court, bare.date, bare.case_numbers)
    assert bare.entry_title.startswith("Order of the High Court of Judicature at Allahabad dated 04.10.2023 in ")


def test_ris_types_an_order_as_an_order():
    order, judgment = rispy.loads(export_doc(build_doc(_both()), "ris").decode())
    assert (order["type_of_reference"], order["tertiary_title"], order["title"]) == ("CASE", "Order", ORDER_TITLE)
    assert "type_of_work" not in order  # a CASE's M3 is the citation of reversal, not the decision's type
    assert order["publisher"] == "Supreme Court of India" and order["date"] == "2026/05/19"
    assert (judgment["type_of_reference"], judgment["title"]) == ("CASE", "Mohd. Anwar v. The State (N.C.T. of Delhi)")
    assert "tertiary_title" not in judgment and "type_of_work" not in judgment


def test_bibtex_types_an_order_as_an_order():
    order, judgment = bibtexparser.parse_string(export_doc(build_doc(_both()), "bibtex").decode()).entries
    assert (order.entry_type, order["type"]) == ("jurisdiction", "Order")
    assert order["institution"] == "Supreme Court of India"
    assert order["title"] == tex(ORDER_TITLE) and order["date"] == "2026-05-19"
    assert judgment.entry_type == "jurisdiction" and "type" not in judgment.fields_dict
    assert judgment["title"] == "Mohd. Anwar v. The State (N.C.T. of Delhi)"


def test_csl_types_an_order_as_an_order():
    order, judgment = json.loads(export_doc(build_doc(_both()), "csl-json"))
    assert (order["type"], order["genre"], order["title"]) == ("legal_case", "Order", ORDER_TITLE)
    assert order["authority"] == "Supreme Court of India" and order["issued"] == {"date-parts": [[2026, 5, 19]]}
    assert judgment["type"] == "legal_case" and "genre" not in judgment
    assert judgment["title"] == "Mohd. Anwar v. The State (N.C.T. of Delhi)"


def test_csv_markdown_docx_and_json_say_order():
    doc = build_doc(_both())
    rows = list(csv.DictReader(io.StringIO(export_doc(doc, "csv").decode("utf-8-sig"))))
    assert [(r["kind"], r["citation"].split(",")[0]) for r in rows] == [
        ("order", "Order of the Supreme Court dated 19.05.2026 in SLP (Crl.) No. 1592/2026"),
        ("judgment", "Mohd. Anwar v. The State (N.C.T. of Delhi)")]
    want = "Order of the Supreme Court dated 19.05.2026 in SLP (Crl.) No. 1592/2026, para 7"
    assert f"[^1]: {want} [" in export_doc(doc, "markdown").decode()
    from legal_rag.export import docx_footnotes
    notes = docx_footnotes(export_doc(doc, "docx"))
    assert notes[1].strip().startswith(want) and "judgment" not in notes[1].lower()
    back = doc_from_json(export_doc(doc, "json").decode())
    assert back == doc and [r.decision for r in back.records] == ["order", "judgment"]


def test_json_refuses_an_unknown_decision():
    d = json.loads(export_doc(build_doc(_both()), "json"))
    d["citations"][0]["decision"] = "decree"
    with pytest.raises(LegalRagError, match="unknown decision 'decree'"):
        doc_from_json(json.dumps(d))
