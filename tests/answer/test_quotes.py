"""Quote windows and headings of the extractive generator (issue 14): a quote begins where its sentence, sub-section
or clause begins, with the operative words; a long one keeps its opening, the clauses that match and its
punishment; each heading names the provision its quotes come from, as printed in the passage."""

from __future__ import annotations

import re

from legal_rag.config import load_settings
from legal_rag.generate import generate
from legal_rag.generate.extractive import compose, window
from legal_rag.text import content_terms
from legal_rag.types import Chunk, StatuteRef
from legal_rag.verify import verify

from tests.generate.fakes import hits

IPC_420_PRINTED = (
    "420. Cheating and dishonestly inducing delivery of property.—Whoever cheats and thereby\n"
    "dishonestly induces the person deceived to deliver any property to any person, or to make, alter or destroy\n"
    "the whole or any part of a valuable security, or anything which is signed or sealed, and which is capable\n"
    "of being converted into a valuable security, shall be punished with imprisonment of either description for\n"
    "a term which may extend to seven years, and shall also be liable to fine."
)
BNS_64_PART = (
    "64. (1) Whoever, except in the cases provided for in sub-section (2), commits rape,\n"
    "shall be punished with rigorous imprisonment for a term which shall not be less than ten years.\n"
    "(2) Whoever,—\n"
    "(a) being a police officer, commits rape,—\n"
    "(i) within the limits of the police station to which such police officer is\n"
    "appointed; or\n"
    "(ii) in the premises of any station house; or\n"
    "(b) being a public servant, commits rape on a woman in such public servant’s\n"
    "custody or in the custody of a public servant subordinate to such public servant; or\n"
    "(c) being a member of the armed forces deployed in an area by the Central\n"
    "Government or a State Government commits rape in such area; or\n"
    "(d) being on the management or on the staff of a jail, remand home or other place\n"
    "of custody established by or under any law, commits rape on any inmate of such jail; or\n"
    "(e) commits rape repeatedly on the same woman,\n"
    "shall be punished with rigorous imprisonment for a term which shall not be less than ten\n"
    "years, but which may extend to imprisonment for life, and shall also be liable to fine."
)


def chunk(act, section, title, text, part=0, meta=()) -> Chunk:
    return Chunk(id=f"{act}-{section}-{part}-test", kind="statute", text=text, title=title, source=f"{act}.pdf",
                 pages=(96, 96), part=part, ref=StatuteRef(act, section), meta=meta)


def quotes(text: str) -> list[str]:
    return re.findall(r"^\u201c(.+)\u201d \[\d+\]$", text, re.M)


def test_the_section_number_and_inline_title_are_the_headings_not_the_quotes():
    c = chunk("IPC", "420", "Cheating and dishonestly inducing delivery of property", IPC_420_PRINTED)
    text = compose("What is the BNS equivalent of IPC 420?", hits(c))
    assert text.splitlines()[0] == "IPC 420 - Cheating and dishonestly inducing delivery of property [1]"
    q = quotes(text)[0]
    assert q.startswith("Whoever cheats and thereby dishonestly induces the person deceived")
    assert q.endswith("and shall also be liable to fine.")
    # a title that is not the chunk's own stays in the quote (nothing is cut on a guess)
    other = chunk("IPC", "420", "Something else", IPC_420_PRINTED)
    assert quotes(compose("cheating", hits(other)))[0].startswith("Cheating and dishonestly inducing delivery")


def test_a_long_sentence_keeps_its_opening_its_matching_clause_and_its_punishment():
    c = chunk("BNS", "64", "Punishment for rape.", BNS_64_PART)
    d = generate("rape of an inmate by the staff of a jail", hits(c), load_settings())
    two = next(q for q in quotes(d.text) if q.startswith("(2)"))
    assert two.startswith("(2) Whoever,\u2014")
    # the matching clause from its own marker, never its middle words alone
    assert "\u2026 (d) being on the management or on the staff of a jail" in two
    assert "shall be punished with rigorous imprisonment" in two and len(two.split()) <= 75
    assert "BNS 64(2)(d) - Punishment for rape [1]" in d.text.splitlines()
    v = verify(d, equivalents=lambda r: set())
    assert v.supported_share == 1.0 and not v.removed, v.problems


def test_window_never_begins_with_an_ellipsis_and_marks_what_it_leaves_out():
    text = ("Whoever does the first thing, or the second thing, or the third thing, or the fourth thing, "
            "shall be punished with fine.")
    quote, spans = window(text, 0, len(text), set(content_terms("third")), max_words=14)
    assert quote.startswith("Whoever does the first thing,") and "\u2026" in quote
    assert "the third thing," in quote and quote.endswith("shall be punished with fine.")
    assert [text[a:b] for a, b in spans][0] == "Whoever does the first thing,"
    short = "Whoever cheats shall be punished with fine."
    assert window(short, 0, len(short), set()) == (short, ((0, len(short)),))


def test_a_carried_over_tail_is_no_quote_and_a_chunk_inside_a_subsection_is_headed_by_it():
    # the second part of a section: it begins in sub-section (3) (meta "open" from ingest), then prints (4)
    text = ("legal contract, to protect, shall be punished with imprisonment of either description.\n"
            "(4) Whoever cheats and thereby dishonestly induces the person deceived to deliver any property, shall be "
            "punished with imprisonment which may extend to seven years.\n"
            "Explanation.—Property includes a valuable security within the meaning of this section.")
    c = chunk("BNS", "318", "Cheating.", text, part=4, meta=(("open", "3"),))
    d = generate("what punishment for cheating by inducing delivery of property", hits(c), load_settings())
    assert all(not q.startswith("legal contract") for q in quotes(d.text))
    assert "BNS 318(4) - Cheating [1]" in d.text.splitlines()
    v = verify(d, equivalents=lambda r: set())
    assert v.supported_share == 1.0 and not v.removed, v.problems


def test_a_heading_names_the_open_subsection_and_the_verifier_accepts_it():
    text = ("(b) A, by putting a counterfeit mark on an article, intentionally deceives Z into a belief that this "
            "article was made by a celebrated manufacturer, and thus dishonestly induces Z to buy it. A cheats.")
    c = chunk("BNS", "318", "Cheating.", text, part=1, meta=(("open", "1,-"),))
    d = generate("counterfeit mark on an article cheating", hits(c), load_settings())
    assert d.text.splitlines()[0] == "BNS 318(1) - Cheating [1]"
    v = verify(d, equivalents=lambda r: set())
    assert v.supported_share == 1.0 and not v.removed, v.problems
    # a sub-section neither printed in the passage nor open where it begins is still refused
    bad = verify(d.__class__(d.question, "BNS 318(2) - Cheating [1]", passages=d.passages),
                 equivalents=lambda r: set())
    assert bad.removed
