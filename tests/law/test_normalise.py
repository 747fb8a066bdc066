"""User text at the front door (issue 16, kind 1): digits, control characters, NFKC, quotes and dashes, the Hindi
names of the Acts, and the words of a script nothing downstream reads. Field cases BL-43 and BL-54."""

from __future__ import annotations

import pytest

from legal_rag.law import find_refs, load_concordance, lookup
from legal_rag.law.normalise import HINDI_ACTS, language_notice, normalise_input, unread_script


def refs(text: str) -> list[str]:
    return [str(f.ref) for f in find_refs(normalise_input(text)) if f.status == "ok"]


@pytest.mark.parametrize("raw, want", [
    ("IPC ४२०", "IPC 420"),  # Devanagari digits (BL-43)
    ("Section ४२० IPC", "Section 420 IPC"),
    ("IPC ৪২০", "IPC 420"),  # Bengali
    ("IPC ௪௨௦", "IPC 420"),  # Tamil
    ("IPC ４２０", "IPC 420"),  # full-width (NFKC)
    ("BNS ٣١٨(٤)", "BNS 318(4)"),  # Arabic-Indic
    ("What replaced Section 498A IPC?\x0bThe wife was harassed for dowry.",  # Word's manual line break (BL-54)
     "What replaced Section 498A IPC? The wife was harassed for dowry."),
    ("What replaced Section 498A IPC?\x0cThe wife", "What replaced Section 498A IPC? The wife"),  # form feed
    ("a\x00b\x1bc\x7fd\x85e", "a b c d\ne"),  # NUL, ESC, DEL, NEL
    ("zero\u200bwidth\ufeff marks\u200e", "zerowidth marks"),
    ("lone \ud800 surrogate \uffff", "lone \ufffd surrogate \ufffd"),
    ("“Whoever cheats”—‘s. 420’ – u/s 498‑A", "\"Whoever cheats\"-'s. 420' - u/s 498-A"),
    ("line1\r\nline2\r\n\r\n\r\n\r\nline3  ", "line1\nline2\n\nline3"),
    ("  many \t  spaces\u00a0here ", "many spaces here"),
    ("", ""),
])
def test_normal_form(raw, want):
    assert normalise_input(raw) == want
    assert normalise_input(want) == want  # idempotent


def test_every_unicode_decimal_digit_becomes_ascii():
    import sys
    import unicodedata

    digits = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Nd"]
    assert len(digits) > 600
    for d in digits:
        assert normalise_input(d) == str(unicodedata.decimal(d)), hex(ord(d))


def test_no_character_survives_that_xml_or_utf8_refuses():
    import re

    bad = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
    text = "".join(chr(c) for c in range(0x0, 0x3000)) + "\ud83d\uffff\ufffe"
    out = normalise_input(text)
    assert not bad.search(out)
    out.encode("utf-8")  # no lone surrogate left


@pytest.mark.parametrize("text, want", [
    ("IPC ४२०", ["IPC 420"]),
    ("What is the BNS equivalent of IPC ४२०?", ["IPC 420"]),
    ("आईपीसी 420", ["IPC 420"]),
    ("आईपीसी की धारा ४२०", ["IPC 420"]),
    ("धारा 302 भारतीय दंड संहिता", ["IPC 302"]),
    ("भारतीय न्याय संहिता की धारा 318(4)", ["BNS 318(4)"]),
    ("बीएनएसएस 482", ["BNSS 482"]),
    ("सीआरपीसी की धारा 438", ["CrPC 438"]),
    ("भा.दं.सं. की धारा 498A", ["IPC 498A"]),
    ("आईपीसी की धारा 420 और 406 में सजा", ["IPC 420", "IPC 406"]),
    ("भारतीय साक्ष्य अधिनियम, 2023 की धारा 63", ["BSA 63"]),
])
def test_hindi_act_names_and_digits_reach_the_grammar(text, want):
    assert refs(text) == want


def test_the_evidence_acts_hindi_name_without_a_year_is_left_unread():
    # 1872 and 2023 share the Hindi name: only the year tells them apart
    assert "भारतीय साक्ष्य अधिनियम" not in HINDI_ACTS
    assert refs("भारतीय साक्ष्य अधिनियम की धारा 65B") == []


def test_devanagari_digits_give_the_successor_never_no_counterpart():
    """BL-43: "IPC ४२०" is IPC 420 -> BNS 318(4), never "the table names no counterpart"."""
    conc = load_concordance()
    for text in ("IPC ४२०", "आईपीसी 420", "आईपीसी ४२०"):
        res = lookup(normalise_input(text), conc)
        assert [str(t) for t in res.correspondence.targets] == ["BNS 318(4)"], text
        assert "no BNS counterpart" not in res.message


def test_unread_script():
    assert unread_script("What is the BNS equivalent of IPC 420?") is None
    assert unread_script("IPC 420 § 5 — “quote” café") is None  # accents are Latin
    u = unread_script(normalise_input("आईपीसी 420 की सजा क्या है?"))
    assert u.script == "Devanagari" and u.words == ("की", "सजा", "क्या", "है?") and u.rest == "IPC 420"
    full = unread_script("धोखाधड़ी की सजा क्या है?")
    assert full.share == 1.0 and full.rest == ""
    assert unread_script("மோசடிக்கான தண்டனை என்ன?").script == "Tamil"


def test_language_notice_says_plainly_what_was_not_read():
    full = language_notice(unread_script("धोखाधड़ी की सजा क्या है?"), answered=False)
    assert "not supported" in full and "Devanagari" in full and "English" in full and "आईपीसी 420" in full
    part = language_notice(unread_script("IPC 420 की सजा क्या है?"), answered=True)
    assert "not supported" in part and 'reads only "IPC 420"' in part


def test_the_grammar_reads_ascii_digits_only():
    """Python's ``\\d`` accepts every Unicode decimal digit (HypothesisWorks/hypothesis#3590); the grammar's digit
    patterns are ``[0-9]``, so an un-normalised "IPC ४२०" is no reference at all, never IPC "४२०"."""
    for text in ("IPC ४२०", "Section ४२० IPC", "BNS ३१८(४)", "IPC ４２０"):
        assert all(f.section.isascii() for f in find_refs(text)), text
    assert refs("IPC ४२०") == ["IPC 420"]


def test_a_refused_question_is_shown_cut_with_its_length():
    from legal_rag.law.normalise import SHOWN_REFUSED, shown_refused

    ok = "What is cheating?"
    assert shown_refused(ok, 2000) == ok
    assert shown_refused("x" * 2000, 2000) == "x" * 2000  # at the limit: asked, shown whole
    long = "word " * 1000
    shown = shown_refused(long, 2000)
    assert shown.endswith(" … [5,000 characters, not asked: the limit is 2,000]")
    head = shown.split(" … [")[0]
    assert long.startswith(head) and head.endswith("word") and len(head) <= SHOWN_REFUSED
    # one unbroken run of characters is cut at the keep length, not at a word
    assert shown_refused("x" * 3000, 2000).startswith("x" * SHOWN_REFUSED + " … [3,000 characters")
