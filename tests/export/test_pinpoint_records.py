"""Export records cite the provision a quote comes from, at the precision the citation found, with the pages
where its words are printed (issue 14): one footnote per marker, the same in every format."""

from __future__ import annotations

import json

from legal_rag.export import build_doc, doc_from_json, docx_footnotes, export_doc
from legal_rag.export.records import citation_records, pinpoints, statute_citations
from legal_rag.types import Answer, Chunk, Citation, Hit, StatuteRef, SupersessionFlag

S318 = StatuteRef("BNS", "318")
S318_2, S318_3, S318_4 = (StatuteRef("BNS", "318", (n,)) for n in "234")
CHUNK = Chunk(id="BNS-318-3-test", kind="statute", text="(2) Whoever cheats ... (3) Whoever ... (4) Whoever ...",
              title="Cheating", source="BNS.pdf", pages=(86, 87), ref=S318)


def cit(ref, pages, quote="", sentence="s", marker=1) -> Citation:
    return Citation(marker, CHUNK.id, ref, CHUNK.source, pages, sentence, "supported", quote=quote)


def answer(*cits, flags=()) -> Answer:
    return Answer("q", "BNS 318(4) - Cheating [1]\n\u201c(4) Whoever cheats\u201d [1]", citations=cits,
                  passages=(Hit(CHUNK, 1.0, "lookup", 1),), flags=flags)


def test_pinpoints_keep_the_most_precise_provisions():
    assert pinpoints([cit(S318, (86, 87)), cit(S318_4, (87, 87))]) == (S318_4,)
    clause = StatuteRef("BNS", "64", ("2", "m"))
    assert pinpoints([cit(StatuteRef("BNS", "64", ("2",)), (23, 24)), cit(clause, (24, 24))]) == (clause,)
    assert pinpoints([cit(S318_2, (87, 87)), cit(S318, (86, 87)), cit(S318_3, (87, 87))]) == (S318_2, S318_3)
    assert pinpoints([cit(S318, (86, 87))]) == (S318,)


def test_a_heading_and_its_quote_make_one_record_at_the_subsection_and_its_page():
    heading = cit(S318_4, (87, 87), quote="(1) Whoever, by deceiving", sentence="BNS 318(4) - Cheating")
    quote = cit(S318_4, (87, 87), quote="(4) Whoever cheats", sentence="\u201c(4) Whoever cheats\u201d")
    (rec,) = citation_records(answer(heading, quote))
    assert (rec.citation, rec.section, rec.pages, rec.page_label) == \
        ("Bharatiya Nyaya Sanhita, 2023, s. 318(4)", "318(4)", (87, 87), "p. 87")
    assert rec.quote == "(4) Whoever cheats"  # the words the answer quotes, not the best-matching sentence
    # a section-level citation of the same marker neither widens the provision nor the pages
    (rec,) = citation_records(answer(cit(S318, (86, 87), quote="x"), quote))
    assert (rec.section, rec.pages) == ("318(4)", (87, 87))


def test_two_subsections_quoted_from_one_passage():
    (rec,) = citation_records(answer(cit(S318_2, (87, 87), "(2) Whoever"), cit(S318_3, (87, 87), "(3) Whoever")))
    assert rec.citation == "Bharatiya Nyaya Sanhita, 2023, ss. 318(2) and 318(3)" and rec.section == "318(2), 318(3)"
    flag = SupersessionFlag(StatuteRef("IPC", "420"), (S318_4,), "query", "BNS", "", "t.csv#1")
    assert statute_citations((StatuteRef("IPC", "420"),), (flag,)) == "Indian Penal Code, 1860, s. 420 (now BNS s. 318(4))"


def test_every_format_carries_the_subsection_and_page():
    doc = build_doc(answer(cit(S318_4, (87, 87), "(4) Whoever cheats", "\u201c(4) Whoever cheats\u201d")))
    md = export_doc(doc, "markdown").decode()
    assert "Bharatiya Nyaya Sanhita, 2023, s. 318(4) [BNS.pdf, p. 87]" in md
    assert "SE  - 318(4)" in export_doc(doc, "ris").decode() and "SP  - 87" in export_doc(doc, "ris").decode()
    bib = export_doc(doc, "bibtex").decode()
    assert "number = {s. 318(4)}" in bib and "pages = {87--87}" in bib and "lr1_BNS_318_4" in bib
    csl = json.loads(export_doc(doc, "csl-json"))[0]
    assert (csl["section"], csl["page"]) == ("s. 318(4)", "87")
    csv_text = export_doc(doc, "csv").decode("utf-8-sig")
    assert '"318(4)"' in csv_text and '"p. 87"' in csv_text
    assert doc_from_json(export_doc(doc, "json").decode()) == doc
    assert any("s. 318(4)" in t and "p. 87" in t for t in docx_footnotes(export_doc(doc, "docx")).values())
