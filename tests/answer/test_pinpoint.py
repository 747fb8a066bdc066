"""Sub-section and clause boundaries, quote location and pages on small fixtures (issue 14, "sub-section precision
end to end"; :mod:`legal_rag.law.pinpoint`, the page map kept at ingest, :func:`legal_rag.cite.pinpoint`).

The texts follow the Gazette prints (BNS 318, BNS 64) line for line, shortened."""

from __future__ import annotations

import pytest

from legal_rag.cite import cite, pinpoint, quote_spans
from legal_rag.ingest.chunk import _pages_at
from legal_rag.ingest.statutes import parse_statute
from legal_rag.law.pinpoint import (format_page_map, layout, locate, open_state, page_map, pages_of, pin, printed,
                                    span_pages)
from legal_rag.types import Chunk, Hit, Page, StatuteRef

S318 = (
    "318. (1) Whoever, by deceiving any person, fraudulently or dishonestly induces the\n"
    "person so deceived to deliver any property to any person, is said to cheat.\n"
    "Explanation.—A dishonest concealment of facts is a deception within the meaning of\n"
    "this section.\n"
    "Illustrations.\n"
    "(a) A, by falsely pretending to be in the Civil Service, intentionally deceives Z. A cheats.\n"
    "(b) A, by putting a counterfeit mark on an article, intentionally deceives Z. A cheats.\n"
    "(2) Whoever cheats shall be punished with imprisonment of either description for a\n"
    "term which may extend to three years, or with fine, or with both.\n"
    "(3) Whoever cheats with the knowledge that he is likely thereby to cause wrongful loss, in the\n"
    "cases referred to in sub-section\n"
    "(1) of this section, shall be punished with imprisonment which may extend to five years.\n"
    "(4) Whoever cheats and thereby dishonestly induces the person deceived to deliver\n"
    "any property to any person, shall be punished with imprisonment of either description for a term\n"
    "which may extend to seven years, and shall also be liable to fine."
)
S64 = (
    "64. (1) Whoever, except in the cases provided for in sub-section (2), commits rape,\n"
    "shall be punished with rigorous imprisonment for a term which shall not be less than ten years.\n"
    "(2) Whoever,—\n"
    "(a) being a police officer, commits rape,—\n"
    "(i) within the limits of the police station to which such police officer is\n"
    "appointed; or\n"
    "(ii) in the premises of any station house; or\n"
    "(b) being a public servant, commits rape on a woman in such public servant’s\n"
    "custody; or\n"
    "(c) commits rape on a woman knowing her to be pregnant; or\n"
    "(d) commits rape repeatedly on the same woman,\n"
    "shall be punished with rigorous imprisonment for a term which shall not be less than ten\n"
    "years, and shall also be liable to fine.\n"
    "Explanation.—For the purposes of this sub-section,—\n"
    "(a) “armed forces” means the naval, army and air forces;\n"
    "(b) “hospital” means the precincts of the hospital."
)
S63 = ("63. A man is said to commit rape if he—\n"
       "(a) penetrates his penis, to any extent, into the vagina of a woman; or\n"
       "(b) inserts, to any extent, any object into the vagina of a woman,\n"
       "under the circumstances falling under any of the following seven descriptions.")
BNS318, BNS64, BNS63 = StatuteRef("BNS", "318"), StatuteRef("BNS", "64"), StatuteRef("BNS", "63")


def at(text: str, words: str) -> tuple[int, int]:
    i = text.index(words)
    return i, i + len(words)


# ---- sub-sections and clauses ---------------------------------------------------------------------------------------
def test_subsections_in_order_and_a_wrapped_cross_reference_opens_none():
    lay = layout(S318)
    assert [d.sub for d in lay.subs] == ["1", "2", "3", "4"]
    # "sub-section\n(1)" inside (3) starts a line but does not follow (3): it is no boundary
    assert lay.sub_at(S318.index("of this section, shall")) == "3"
    assert S318[lay.subs[3].start:].startswith("(4) Whoever cheats")
    assert lay.sub_at(0) == "" and lay.sub_at(S318.index("Whoever, by")) == "1"
    # illustrations (a), (b) belong to (1) and are no clauses of it
    assert lay.sub_at(S318.index("A, by falsely")) == "1" and not lay.clauses


def test_amended_subsection_in_brackets_and_lettered_subsection():
    text = "12. (1) First rule applies.\n[(2) Second rule, as amended.]\n(2A) Inserted rule applies.\n(3) Last."
    assert [d.sub for d in layout(text).subs] == ["1", "2", "2A", "3"]


def test_clauses_in_letter_order_roman_subclauses_explanations_and_the_common_ending():
    lay = layout(S64)
    assert [d.label for d in lay.clauses] == [("2", "a"), ("2", "b"), ("2", "c"), ("2", "d")]
    # (i) and (ii) under (a) are sub-clauses of (a)
    assert lay.clause_at(S64.index("in the premises of any station")).label == ("2", "a")
    # the common ending after the last clause belongs to (2), not to (d)
    assert lay.clause_at(S64.index("shall be punished with rigorous imprisonment for a term which shall not be less "
                                   "than ten\nyears")) is None
    assert lay.sub_at(S64.index("“armed forces”")) == "2"  # the Explanation's (a) is no clause


def test_a_list_going_on_after_its_last_clause_is_no_part_of_it():
    lay = layout(S63)
    assert [d.label for d in lay.clauses] == [("", "a"), ("", "b")]
    assert lay.clause_at(S63.index("under the circumstances")) is None
    assert pin(BNS63, lay, [at(S63, "under the circumstances falling under")]) == BNS63


def test_letter_i_after_h_is_a_clause_not_a_roman_numeral():
    text = "9. (1) Whoever,—\n" + "".join(f"({c}) does act {c}; or\n" for c in "abcdefghij") + "shall be fined."
    assert [d.clause for d in layout(text).clauses] == list("abcdefghij")


def test_pin_quotes_to_the_subsection_and_clause_they_lie_in():
    lay = layout(S318)
    assert pin(BNS318, lay, [at(S318, "(4) Whoever cheats and thereby dishonestly induces")]) == \
        StatuteRef("BNS", "318", ("4",))
    # a quote spanning (3) and (4) stays at the section: nothing narrower is shown by the text
    assert pin(BNS318, lay, [at(S318, "may extend to five years.\n(4) Whoever")]) == BNS318
    assert pin(BNS318, lay, [at(S318, "318. (1)")[0:1] + (3,)]) == BNS318  # the number before any marker
    lay = layout(S64)
    head, clause, tail = at(S64, "(2) Whoever,—"), at(S64, "(c) commits rape on a woman knowing"), \
        at(S64, "shall be punished with rigorous imprisonment for a term which shall not be less than ten\nyears")
    assert pin(BNS64, lay, [head, clause, tail]) == StatuteRef("BNS", "64", ("2", "c"))
    assert pin(BNS64, lay, [head, tail]) == StatuteRef("BNS", "64", ("2",))
    assert pin(BNS64, lay, [head, clause, at(S64, "(d) commits rape repeatedly")]) == StatuteRef("BNS", "64", ("2",))
    assert pin(BNS64, lay, [at(S64, "within the limits of the police station")]) == StatuteRef("BNS", "64", ("2", "a"))
    # a section without sub-sections: its clause
    assert pin(BNS63, layout(S63), [at(S63, "(b) inserts, to any extent")]) == StatuteRef("BNS", "63", ("b",))
    # a ref already precise is kept
    assert pin(StatuteRef("BNS", "318", ("2",)), layout(S318), [at(S318, "(4) Whoever")]) == \
        StatuteRef("BNS", "318", ("2",))


@pytest.mark.parametrize("text", [S318, S64, S63])
def test_a_chunk_reads_its_divisions_as_the_whole_section_does(text):
    """For every place a chunk could begin, the layout of the rest of the section read from ``open_state`` gives
    each offset the same sub-section and clause as the whole section's layout."""
    whole = layout(text)
    for start in range(1, len(text) - 1):
        part = layout(text[start:], open_state(text, start))
        for off in range(start, len(text), 7):
            assert part.sub_at(off - start) == whole.sub_at(off), (start, off)
            c, w = part.clause_at(off - start), whole.clause_at(off)
            assert (c.label if c else None) == (w.label if w else None), (start, off, open_state(text, start))


def test_printed_needs_the_marker_or_a_chunk_that_begins_inside():
    assert printed(layout(S318), ("4",)) == (layout(S318).subs[3].start, len(S318))
    assert printed(layout(S318), ("5",)) is None
    tail = S318[S318.index("(2) Whoever"):]
    lay = layout(tail[20:], open_state(tail, 20))  # begins inside (2) (as open state "")
    assert printed(lay, ("4",)) is not None
    lay = layout(S318[S318.index("term which may extend to three"):], "2")
    assert printed(lay, ("2",)) == (0, lay.subs[0].start)


# ---- locating quotes ------------------------------------------------------------------------------------------------
def test_locate_reads_quotes_as_the_verifier_does():
    text = "(4) Whoever cheats and thereby\ndishonestly induces the person “deceived”—to deliver\nany property."
    spans = locate("Whoever cheats and thereby dishonestly induces … to deliver any property", text)
    assert [text[a:b] for a, b in spans] == ["Whoever cheats and thereby\ndishonestly induces", "to deliver\nany property"]
    assert locate('the person "deceived"-to deliver', text)
    assert locate("not in the text", text) == ()
    assert locate("any property … Whoever cheats", text) == ()  # fragments in order only


def test_an_ambiguous_quote_pins_nothing():
    assert quote_spans("shall be punished with imprisonment of either description", S318) == ()
    assert quote_spans("(4) Whoever cheats and thereby", S318)


# ---- pages -----------------------------------------------------------------------------------------------------------
def chunk(text: str, pages=(86, 87), meta=(), ref=BNS318) -> Chunk:
    return Chunk(id="BNS-318-0-test", kind="statute", text=text, title="Cheating.", source="BNS.pdf", pages=pages,
                 ref=ref, meta=tuple(sorted(meta)))


def test_page_map_round_trip_and_pages_of_offsets():
    pm = ((0, 86), (412, 87))
    assert page_map(chunk("x", meta=(("pages_at", format_page_map(pm)),))) == pm
    c = chunk("a" * 600, meta=(("pages_at", "0:86,412:87"),))
    assert pages_of(c, 0, 10) == (86, 86) and pages_of(c, 412, 420) == (87, 87) and pages_of(c, 400, 420) == (86, 87)
    assert span_pages(c, [(0, 5), (500, 510)]) == (86, 87)
    assert pages_of(chunk("a" * 600), 500, 510) == (86, 87)  # no page map: the chunk's own pages


def test_chunk_page_map_from_section_page_starts():
    starts = ((0, 86), (1000, 87), (2500, 88))
    assert _pages_at(starts, 0, 800) == "0:86"
    assert _pages_at(starts, 900, 1700) == "0:86,100:87"
    assert _pages_at(starts, 1000, 2600) == "0:87,1500:88"
    assert _pages_at((), 0, 10) == ""


def test_parsed_section_knows_where_each_page_begins():
    body = Page("x.pdf", 1, "WHEREAS it is expedient; It is enacted as follows:—\n"
                            "1. (1) Whoever does a thing shall be punished with fine.\n"
                            "(2) Whoever does it again shall be punished with\n", line_y=(1, 2, 3))
    nxt = Page("x.pdf", 2, "imprisonment for one year.\n(3) Whoever abets it shall be fined.\n"
                           "2. Nothing is an offence which is done by accident.", line_y=(1, 2, 3))
    secs, _ = parse_statute("BNS", [body, nxt], "x.pdf")
    s1 = secs[0]
    assert s1.pages == (1, 2) and s1.page_starts[0] == (0, 1)
    off, page = s1.page_starts[1]
    assert page == 2 and s1.text[off:].startswith("imprisonment for one year.")
    assert secs[1].page_starts == ((0, 2),)


# ---- citations: the provision and the page --------------------------------------------------------------------------
def test_cite_pins_quotes_and_stated_subsections_with_their_pages():
    i = S318.index("(2) Whoever")
    c = chunk(S318, meta=(("pages_at", f"0:86,{i}:87"),))
    hits = [Hit(c, 1.0, "rrf", 1)]
    got = cite("BNS 318(4) - Cheating [1]\n“(4) Whoever cheats and thereby dishonestly induces the person deceived "
               "to deliver any property to any person, …” [1]\n“A, by falsely pretending to be in the Civil Service, "
               "intentionally deceives Z.” [1]", hits)
    refs = [(str(x.ref), x.pages) for x in got.citations]
    assert refs == [("BNS 318(4)", (87, 87)), ("BNS 318(4)", (87, 87)), ("BNS 318(1)", (86, 86))]
    # a sub-section the sentence names but the passage does not print is never taken
    assert pinpoint(c, "BNS 318(7) is about cheating", ())[0] == BNS318
    # no quote and nothing named: the section, with the pages of the passage's own text
    assert pinpoint(c, "Cheating is punishable", ()) == (BNS318, (86, 87))
    assert pinpoint(chunk(S318[:100], meta=(("pages_at", "0:86"),)), "Cheating", ()) == (BNS318, (86, 86))


def test_layout_units_cover_the_text_in_order():
    """``Layout.units``: the part before the first marker (the open sub-section, or "" for a heading or a section
    without sub-sections), then each sub-section; shared by the model's windows and re-attribution."""
    assert layout("(1) A. (2) B.").units() == [("1", 0, 7), ("2", 7, 13)]
    assert layout("318. Cheating.\n(1) A.\n(2) B.").units() == [("", 0, 15), ("1", 15, 22), ("2", 22, 28)]
    assert layout("continues. (3) C.", "2").units() == [("2", 0, 11), ("3", 11, 17)]
    assert layout("No subs here.").units() == [("", 0, 13)]
