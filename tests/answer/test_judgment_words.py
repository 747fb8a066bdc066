"""A statute's words quoted in a judgment are the judgment's words of its date (legal_rag.law.judgment_words,
legal_rag.cite.judgment_statement, legal_rag.answer.finish.mark_judgment_words, export records); supersession flags
only for sections the answer relies on (legal_rag.answer.finish.relied_flags, legal_rag.verify.answer_refs)."""

import pytest

from legal_rag.answer.finish import mark_judgment_words, relied_flags
from legal_rag.cite import cite
from legal_rag.export.formats import build_doc, to_csv, to_json, to_markdown, to_ris
from legal_rag.law import judgment_words, quoted_act, statute_wording
from legal_rag.types import NO_PRINT_NOTE, Answer, Chunk, Citation, Hit, StatuteRef, SupersessionFlag
from legal_rag.verify import answer_refs

PCA = ("3. S. 5(2) of the Prevention of Corruption Act, 1947, as it stood before its amendment, read as follows: "
       "\"(2) Any public servant who commits criminal misconduct in the discharge of his duty shall be punishable "
       "with imprisonment for a term which shall not be less than one year but which may extend to seven years and "
       "shall also be liable to fine.\" The appellant was convicted under s. 5(2) of the Act.")
FIR = ("4. An FIR was registered under Sections 302, 307, 324 and 34 IPC. The trial court acquitted the accused "
       "of every charge.")


def judgment(text, cid="J-3", date="1968-10-15"):
    return Chunk(cid, "judgment", text, "Nani Gopal Mitra v. State of Bihar", "C236.txt", (2, 3), case="C236",
                 meta=(("case", "C236"), ("date", date), ("paras", "3")))


def statute(ref, text, pages=(87, 87), source="x.pdf"):
    return Chunk(f"{ref.act}-{ref.section}-0-aaaa", "statute", text, "T", source, pages, ref=ref)


def hit(c):
    return Hit(c, 1.0, "dense", 1)


@pytest.mark.parametrize("text, rule", [
    ("(2) Any public servant who commits criminal misconduct shall be punishable with imprisonment", "punishment clause"),
    ("Whoever, being the husband of a woman, subjects her to cruelty", "whoever"),
    ("498A. Husband or relative of husband of a woman subjecting her to cruelty.\u2014Whoever", "section heading"),
    ("Provided that the court may, for special reasons, impose a lesser sentence.", "proviso"),
    ("(4) The provisions of this section shall be in addition to any other law.", "sub-section"),
])
def test_statute_wording_rules_fire_by_name(text, rule):
    assert rule in statute_wording(text)


@pytest.mark.parametrize("text", ["The High Court rightly held that the appellant was guilty.",
                                  "(2) The High Court erred in reading the evidence.",
                                  "An FIR was registered under Sections 302 and 34 IPC."])
def test_court_prose_is_no_statute_wording(text):
    assert statute_wording(text) == ()


def test_quoted_act_is_the_act_named_last_before_the_words():
    at = PCA.index("(2) Any")
    assert quoted_act(PCA, at) == "Prevention of Corruption Act, 1947"
    assert quoted_act("Section 498A of the IPC reads as under: Whoever", 40) == "IPC"
    assert quoted_act("The appellant appealed.", 10) == ""


def test_label_names_the_judgment_its_date_and_an_act_not_in_the_sources():
    label = judgment_words(judgment(PCA), "shall be punishable with imprisonment for a term which shall not be less "
                                          "than one year")
    assert label.startswith("the judgment's words of 15 October 1968 (Nani Gopal Mitra v. State of Bihar)")
    assert "Prevention of Corruption Act, 1947" in label and "not in the sources" in label
    held = judgment_words(judgment("Section 498A of the IPC reads: \"Whoever, being the husband, subjects her to "
                                   "cruelty shall be punished with imprisonment\""), "Whoever, being the husband")
    assert "Indian Penal Code, 1860" in held and "not in the sources" not in held


def test_label_only_for_a_judgment_passage_and_statute_words():
    assert judgment_words(judgment(PCA), "The appellant was convicted under s. 5(2) of the Act.") == ""
    bns = statute(StatuteRef("BNS", "318"), "Whoever cheats shall be punished with imprisonment")
    assert judgment_words(bns, "Whoever cheats shall be punished with imprisonment") == ""


def test_cite_labels_a_quote_and_a_prose_statement_of_the_judgment_but_not_a_statute_quote():
    bns = statute(StatuteRef("BNS", "318"), "(4) Whoever cheats shall be punished with imprisonment for seven years.")
    text = ("\u201cAny public servant who commits criminal misconduct in the discharge of his duty shall be punishable "
            "with imprisonment for a term which shall not be less than one year\u201d [1]\n"
            "Section 5(2) of the Act provides imprisonment of not less than one year [1].\n"
            "The appellant was convicted [1].\n"
            "\u201cWhoever cheats shall be punished with imprisonment for seven years.\u201d [2]")
    cits = cite(text, [hit(judgment(PCA)), hit(bns)]).citations
    labelled = [bool(c.judgment_words) for c in cits]
    assert labelled == [True, True, False, False]


def _answer(text, chunks, citations=(), flags=()):
    return Answer("q", text, citations=tuple(citations), flags=tuple(flags), passages=tuple(hit(c) for c in chunks))


def test_the_shown_text_marks_the_sentence_once_after_its_marker():
    j = judgment(PCA)
    text = ("Nani Gopal Mitra v. State of Bihar, para 3 [1]\n\u201c(2) Any public servant who commits criminal "
            "misconduct in the discharge of his duty shall be punishable with imprisonment\u201d [1]")
    ans = _answer(text, [j], cite(text, [hit(j)]).citations)
    marked = mark_judgment_words(ans)
    line = marked.text.splitlines()[1]
    assert line.startswith("\u201c(2) Any") and "[1] (The judgment's words of 15 October 1968" in line
    assert "(The judgment's words" not in marked.text.splitlines()[0]
    assert mark_judgment_words(marked).text == marked.text  # idempotent


def test_exports_carry_the_judgment_words_label():
    j = judgment(PCA)
    quote = "(2) Any public servant who commits criminal misconduct in the discharge of his duty shall be punishable"
    text = f"\u201c{quote}\u201d [1]"
    cits = [Citation(1, j.id, None, j.source, j.pages, text[:-4], "supported", quote,
                     judgment_words=judgment_words(j, quote))]
    doc = build_doc(_answer(text, [j], cits))
    (rec,) = doc.records
    assert rec.judgment_words and "the judgment's words of 15 October 1968" in rec.citation
    for out in (to_markdown(doc), to_csv(doc), to_json(doc), to_ris(doc)):
        assert "the judgment's words of 15 October 1968" in out


def test_a_statute_without_an_official_print_is_cited_with_the_note_never_page_0():
    iea = statute(StatuteRef("IEA", "65B"), "Notwithstanding anything contained in this Act, any information",
                  pages=(0, 0), source="iea_civictech.json")
    cits = [Citation(1, iea.id, iea.ref, iea.source, (0, 0), "s", "supported", "Notwithstanding anything")]
    doc = build_doc(_answer("s [1]", [iea], cits))
    (rec,) = doc.records
    assert rec.page_label == "" and rec.page_note == NO_PRINT_NOTE and NO_PRINT_NOTE in rec.citation
    for out in (to_markdown(doc), to_csv(doc), to_json(doc), to_ris(doc)):
        assert NO_PRINT_NOTE in out and "p. 0" not in out
    printed = statute(StatuteRef("BNS", "318"), "Whoever cheats")
    doc = build_doc(_answer("s [1]", [printed], [Citation(1, printed.id, printed.ref, "x.pdf", (87, 87), "s",
                                                         "supported", "Whoever cheats")]))
    assert doc.records[0].page_label == "p. 87" and not doc.records[0].page_note


def _flag(act, section, found_in):
    return SupersessionFlag(StatuteRef(act, section), (), found_in, "BNS", "", "", kind="superseded")


def test_a_judgment_passage_flags_only_sections_relied_on_elsewhere():
    j, s = judgment(FIR, "J-4"), statute(StatuteRef("IPC", "302"), "Whoever commits murder")
    flags = [_flag("IPC", "302", "passage:J-4"), _flag("IPC", "307", "passage:J-4"), _flag("IPC", "324", "passage:J-4"),
             _flag("IPC", "302", f"passage:{s.id}")]
    kept = relied_flags(flags, [hit(j), hit(s)])
    assert [(f.old.section, f.found_in) for f in kept] == [("302", "passage:J-4"), ("302", f"passage:{s.id}")]


def test_sections_inside_a_quoted_judgment_are_not_the_answers():
    j = judgment(FIR, "J-4")
    text = ("\u201cAn FIR was registered under Sections 302, 307, 324 and 34 IPC.\u201d [1]\n"
            "The accused was charged under Section 302 IPC [1].")
    found = {f.ref.section for f in answer_refs(text, [hit(j)]) if f.ref is not None}
    assert found == {"302"}
