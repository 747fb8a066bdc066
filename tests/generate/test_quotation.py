"""The quotation check (legal_rag.generate.quotation): verbatim, with changes (word diff), not found."""

from legal_rag.generate.quotation import check_quotation, quotation_text, where, word_changes, words
from legal_rag.types import Chunk

PARA_1 = ("1. The appellant was convicted under Section 302 of the Indian Penal Code. The High Court confirmed the "
          "conviction and the sentence of imprisonment for life.")
PARA_2 = ("16. Mere production of photocopy of an OPD card and statement of mother on affidavit have little, if "
          "any, evidentiary value. In order to successfully claim defence of mental unsoundness under Section 84 "
          "of IPC, the accused must show by preponderance of probabilities that he suffered from a serious-enough "
          "mental disease.")
PARA_3 = "19. The appeal is accordingly dismissed. The appellant shall surrender within four weeks."


def chunk(i, text, paras="", source="x.pdf"):
    meta = (("case", "X"),) + ((("paras", paras),) if paras else ())
    return Chunk(f"X-{i}", "judgment", text, "A v. B", source, (i + 1, i + 1), part=i, parts=3, case="X", meta=meta)


CHUNKS = [chunk(0, PARA_1, "1"), chunk(1, PARA_2, "16"), chunk(2, PARA_3, "19")]


def test_verbatim_ignores_case_punctuation_and_line_breaks():
    got = check_quotation("the accused must show\nby preponderance of probabilities that he suffered from a "
                          "Serious enough mental disease", CHUNKS)
    assert got.verdict == "verbatim" and got.chunk.id == "X-1" and got.changes == ()


def test_changed_word_is_shown():
    got = check_quotation("Mere production of photocopy of an OPD card and statement of father on affidavit have "
                          "little, if any, evidentiary value.", CHUNKS)
    assert got.verdict == "changed" and got.chunk.id == "X-1"
    assert got.changes == ("'father' -> 'mother'",)
    assert got.found.startswith("Mere production") and "mother" in got.found
    text = quotation_text("A v. B", "[2020] 7 S.C.R. 150", got)
    assert "with changes" in text and "'father' -> 'mother'" in text and "para 16" in text


def test_dropped_and_added_words():
    assert word_changes(words("the appeal is dismissed"), words("the appeal is accordingly dismissed")) == \
        ("missing: 'accordingly'",)
    assert word_changes(words("the appeal is never dismissed"), words("the appeal is dismissed")) == \
        ("added: 'never'",)


def test_fabricated_quotation_is_absent():
    got = check_quotation("The right to plead insanity is absolute and the prosecution must always disprove it "
                          "beyond every possible doubt.", CHUNKS)
    assert got.verdict == "absent" and got.found == "" and got.coverage < 0.3
    assert "not found" in quotation_text("A v. B", "", got)


def test_quotation_over_a_chunk_boundary():
    got = check_quotation("mental disease. 19. The appeal is accordingly dismissed", CHUNKS)
    assert got.verdict == "verbatim"


def test_where_prefers_printed_pages_and_hides_pseudo_pages():
    printed = Chunk("Y", "judgment", "t", "T", "r.pdf", (3, 4), case="Y",
                    meta=(("paras", "16"), ("printed_pages", "3:156,4:157")))
    assert where(printed) == "para 16, pp. 156-157"
    assert where(chunk(1, "t", "15-16")) == "paras 15-16, PDF p. 2"
    assert where(chunk(1, "t", "", source="C117.txt")) == ""


def test_omission_marks_are_not_changes():
    got = check_quotation("Mere production of photocopy of an OPD card ... have little, if any, evidentiary value",
                          CHUNKS)
    assert got.verdict == "verbatim" and got.changes == ()
    assert got.found.startswith("Mere production") and got.found.endswith("evidentiary value")
    swapped = check_quotation("have little, if any, evidentiary value ... Mere production of photocopy", CHUNKS)
    assert swapped.verdict != "verbatim"  # fragments out of the passage's order


# a law report: the reporter's headnote (unnumbered, pointing "[Para 13]") before the court's numbered paragraphs
HEADNOTE = ("Dismissing the appeal, the Court HELD: 1. The refusal to participate in the TIP proceedings undoubtedly "
            "establishes the appellant's guilty conscience. The delay in registration of the FIR is devoid of "
            "factual basis. [Para 13][155-G-H] 2. Pleas of unsoundness of mind ought to be raised during the trial.")
COURT_13 = ("The refusal to participate in the TIP proceedings undoubtedly establishes the appellant's guilty "
            "conscience. 1 The delay in registration of the FIR, as projected by the appellant, is devoid of factual "
            "basis.")
FILLER = "The appellant was tried by the Sessions Court at Karkardooma and convicted of robbery."


def test_the_court_paragraph_the_headnote_points_to_is_pinned_not_the_headnote():
    from legal_rag.generate.quotation import is_headnote, pointed_paras

    chunks = [chunk(0, HEADNOTE), chunk(1, FILLER, "12"), chunk(2, COURT_13, "13")]
    assert is_headnote(chunks[0], chunks) and not is_headnote(chunks[2], chunks)
    assert pointed_paras(HEADNOTE) == ("13",)
    got = check_quotation("The refusal to participate in the TIP proceedings undoubtedly establishes the appellant's "
                          "guilty conscience. The delay in registration of the FIR is devoid of factual basis.", chunks)
    assert got.chunk.id == "X-2" and got.verdict == "changed"  # the court's words: "as projected by the appellant"
    got = check_quotation("The refusal to participate in the TIP proceedings undoubtedly establishes the appellant's "
                          "guilty conscience. The delay in registration", chunks)
    assert got.chunk.id == "X-2" and got.verdict == "verbatim"  # the court's footnote mark "1" is no change


def test_a_judgment_without_numbered_paragraphs_has_no_headnote():
    from legal_rag.generate.quotation import is_headnote

    chunks = [chunk(0, HEADNOTE), chunk(1, FILLER)]
    assert not is_headnote(chunks[0], chunks)
    assert check_quotation("Pleas of unsoundness of mind ought to be raised during the trial", chunks).chunk.id == "X-0"
