"""Page stage: field cases BL-01..BL-08 (shared/cases/field-cases.md, category a) and bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from legal_rag.ingest.clean import clean_text
from legal_rag.ingest.pdf import extract_pages
from legal_rag.ingest.statutes import parse_statute

from . import pdf_factory as f

S85 = ["85. Whoever, being the husband or the relative of the husband of a woman,",
       "subjects such woman to cruelty shall be punished with imprisonment for a",
       "term which may extend to three years and shall also be liable to fine."]
S86 = ["86. For the purposes of section 85, cruelty means any wilful conduct which",
       "is of such a nature as is likely to drive the woman to commit suicide or",
       "to cause grave injury or danger to life, limb or health of the woman."]


def kinds(result) -> set[str]:
    return {p.kind for p in result.problems}


# --- BL-01: two columns, right column first in the content stream --------------------------------------

def test_bl01_two_columns_read_in_order_and_sections_kept_apart(tmp_path: Path) -> None:
    # page 1: left column s.85 (first half), right column s.85 (rest) + s.86 start; page 2: rest of s.86
    left = [S85[0], S85[1], "wilfully and without any lawful excuse whatsoever in", "each and every case"]
    right = [S85[2], S86[0], S86[1]]
    page2 = ([S86[2]], [])
    pdf = f.two_column_pdf(tmp_path / "bl01.pdf", [(left, right), page2], right_first=True)
    res = extract_pages(pdf, timeout_s=60)
    text1 = res.pages[0].text
    assert text1.index("85. Whoever") < text1.index("three years") < text1.index("86. For the purposes")
    sections, _ = parse_statute("BNS", res.pages, res.source)
    by = {s.ref.section: s for s in sections}
    assert set(by) == {"85", "86"}
    assert "cruelty means" not in by["85"].text and "suicide" not in by["85"].text
    assert "three years" in by["85"].text and by["85"].pages == (1, 1)
    assert by["86"].pages == (1, 2) and "grave injury" in by["86"].text


# --- BL-02: hyphenation ---------------------------------------------------------------------------------

def test_bl02_soft_hyphen_joined_hard_hyphen_kept() -> None:
    raw = ("Whoever does so shall be pun-\nishable with fine; the offence is non-\nbailable and falls under "
           "Section 498-\nA of the Code.")
    page, _ = clean_text("x.pdf", 4, raw)
    flat = " ".join(page.text.split())
    assert "punishable with fine" in flat
    assert "non-bailable" in flat
    assert "498-A of the Code" in flat
    assert page.text.count("\n") == raw.count("\n") + 1  # line count kept for line_y


def test_bl02_hyphenation_through_a_pdf(tmp_path: Path) -> None:
    pdf = f.text_pdf(tmp_path / "bl02.pdf", [["shall be pun-", "ishable with fine; it is non-", "bailable under Section 498-",
                                             "A and sub-", "section (2) applies; sub-section (3) too."]])
    text = " ".join(extract_pages(pdf, timeout_s=60).pages[0].text.split())
    assert "punishable" in text and "non-bailable" in text and "498-A" in text and "sub-section (2)" in text


# --- BL-03: running header, bare page number, footer; section across the page break ---------------------

def test_bl03_headers_and_page_numbers_stripped_section_runs_on(tmp_path: Path) -> None:
    p1 = ["BE it enacted by Parliament as follows:—", "16. Whoever commits the offence of theft shall",
          "be punished with imprisonment of either description for a term which"]
    p2 = ["may extend to three years, or with fine, or with both.",
          "18. Whoever commits criminal trespass shall be punished with fine."]
    p3 = ["(2) Whoever commits house-trespass shall be punished with imprisonment."]
    pdf = f.text_pdf(tmp_path / "bl03.pdf", [p1, p2, p3], header=f.GAZETTE, page_numbers={1: "16", 2: "17", 3: "18"},
                     footer="CG-DL-E-25122023-250883")
    res = extract_pages(pdf, timeout_s=60)
    for page in res.pages:
        assert "GAZETTE" not in page.text and "CG-DL-E" not in page.text
        assert not any(line.strip() in {"16", "17", "18"} for line in page.text.splitlines())
    sections, _ = parse_statute("BNS", res.pages, res.source)
    assert [s.ref.section for s in sections] == ["16", "18"]
    assert "a term which\nmay extend to three years" in sections[0].text
    assert sections[0].pages == (1, 2)
    assert "house-trespass" in sections[1].text and sections[1].pages == (2, 3)


# --- BL-04: ligatures, NUL and private-use code points -----------------------------------------------------

def test_bl04_ligatures_normalised_and_bad_characters_reported(tmp_path: Path) -> None:
    pdf = f.tounicode_pdf(tmp_path / "bl04.pdf",
                          ["The oÇence is punishable with Æne.", "An aÈdavit was speciÆed in the order.",
                           "Every offence needs an affidavit."],
                          {"Æ": "\ufb01", "Ç": "\x00", "È": "\ue000"})
    res = extract_pages(pdf, timeout_s=60)
    text = res.pages[0].text
    assert "fine" in text.split() or "fine." in text.split()
    assert "specified" in text and "offence" in text.split()[1:3] and "affidavit" in text
    assert "\ufb01" not in text and "\x00" not in text and "\ue000" not in text
    bad = [p for p in res.problems if p.kind == "bad_char"]
    assert bad and bad[0].page == 1 and "U+0000" in bad[0].message and "U+E000" in bad[0].message
    import bm25s

    tokens = bm25s.tokenize([text], stopwords=None, show_progress=False)
    vocab = tokens.vocab if hasattr(tokens, "vocab") else tokens[1]
    assert "fine" in vocab


def test_bl04_clean_text_nfkc() -> None:
    page, problems = clean_text("j.txt", 1, "The \ufb01ne and the o\ufb00ence.")
    assert "fine" in page.text and "offence" in page.text and not problems


# --- BL-05: legacy-font Hindi and Unicode Devanagari --------------------------------------------------------

def test_bl05_legacy_hindi_page_skipped_unicode_devanagari_kept(tmp_path: Path) -> None:
    legacy = f.text_pdf(tmp_path / "bl05a.pdf", [["Hkkjr dk jkti=", "vlk/kkj.k Hkkx II — [k.M 1",
                                                 "izkf/kdkj ls izdkf'kr", "lañ 53] ubZ fnYyh] lkseokj] fnlEcj 25] 2023"]])
    res = extract_pages(legacy, timeout_s=60)
    assert res.pages[0].skipped and res.pages[0].text == ""
    msg = [p for p in res.problems if p.kind == "legacy_hindi"]
    assert msg and msg[0].page == 1 and "needs OCR or font conversion" in msg[0].message
    # Unicode Devanagari; the pre-base matra ि drawn (and mapped) before its consonant: visual order
    deva = f.tounicode_pdf(tmp_path / "bl05b.pdf", ["ABCDE FGIH JK"],
                           {"A": "\u093f", "B": "\u0939", "C": "\u0928", "D": "\u094d", "E": "\u0926",
                            "F": "\u092a", "G": "\u0941", "H": "\u0947", "I": "\u0923", "J": "\u092d", "K": "\u093e"})
    page = extract_pages(deva, timeout_s=60).pages[0]
    assert not page.skipped
    assert "\u0939\u093f\u0928\u094d\u0926" in page.text  # हिन्द: ि after ह (logical order)
    assert "\u092a\u0941\u0923\u0947" in page.text  # पुणे


# --- BL-06: scanned pages -------------------------------------------------------------------------------------

def test_bl06_image_only_pages_reported_and_skipped(tmp_path: Path) -> None:
    pdf = f.image_page_pdf(tmp_path / "bl06.pdf", [["ORDER", "The appeal is allowed and the conviction set aside."]],
                           {1, 2})
    res = extract_pages(pdf, timeout_s=60)
    assert [p.skipped for p in res.pages] == [True, True, False]
    scans = [p for p in res.problems if p.kind == "no_text_layer"]
    assert [p.page for p in scans] == [1, 2]
    summary = [p for p in res.problems if p.kind == "skipped_pages"]
    assert summary and "1–2" in summary[0].message
    assert all(p.text.strip() == "" for p in res.pages if p.skipped)


# --- BL-08 and bad input ----------------------------------------------------------------------------------------

@pytest.fixture
def good_pdf(tmp_path: Path) -> Path:
    words = "appeal conviction evidence witness sentence order court bail custody trial".split()
    return f.text_pdf(tmp_path / "good.pdf", [[f"{words[(i + j) % 10]} {words[(i * j) % 10]} {'x' * j} {i}-{j}"
                                               for j in range(30)] for i in range(6)])


def test_bl08_truncated_and_self_referencing_files_quarantined_batch_continues(tmp_path: Path, good_pdf: Path) -> None:
    truncated = f.truncated_pdf(tmp_path / "truncated.pdf", good_pdf, 0.6)
    loop = f.self_referencing_xobject_pdf(tmp_path / "loop.pdf")
    results = [extract_pages(p, timeout_s=60) for p in (truncated, loop, good_pdf)]
    trunc, looped, good = results
    # truncated: whatever pages pypdf recovers are kept, and the file is reported by name
    assert trunc.problems and all(p.source == "truncated.pdf" for p in trunc.problems)
    assert not trunc.ok or len(trunc.pages) < 6 or any(p.skipped for p in trunc.pages)
    assert looped.problems and looped.problems[0].source == "loop.pdf" and looped.problems[0].page == 1
    assert good.ok and len(good.pages) == 6 and "5-29" in good.pages[5].text


def test_timeout_kills_the_child_and_reports(good_pdf: Path) -> None:
    res = extract_pages(good_pdf, timeout_s=0.001)
    assert not res.ok and "timeout" in kinds(res)
    assert "good.pdf" in str(res.problems[0])


def test_encrypted_empty_password_opens_real_password_errors(tmp_path: Path, good_pdf: Path) -> None:
    opened = extract_pages(f.encrypted_pdf(tmp_path / "empty.pdf", good_pdf, user_password=""), timeout_s=60)
    assert opened.ok and len(opened.pages) == 6
    locked = extract_pages(f.encrypted_pdf(tmp_path / "locked.pdf", good_pdf, user_password="secret"), timeout_s=60)
    assert not locked.ok and kinds(locked) == {"encrypted"} and "password" in locked.problems[0].message
    assert locked.problems[0].source == "locked.pdf"


@pytest.mark.parametrize("name,data,kind", [
    ("empty.pdf", b"", "empty_file"),
    ("page.pdf", b"<!DOCTYPE html><html><body>Judgment</body></html>", "not_pdf"),
])
def test_not_a_pdf(tmp_path: Path, name: str, data: bytes, kind: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    res = extract_pages(path, timeout_s=60)
    assert not res.ok and res.pages == () and kinds(res) == {kind} and res.problems[0].source == name


def test_too_many_pages(good_pdf: Path) -> None:
    res = extract_pages(good_pdf, timeout_s=60, max_pages=3)
    assert not res.ok and kinds(res) == {"too_many_pages"} and res.page_count == 6


def test_margin_notes_kept_apart_from_the_body(tmp_path: Path) -> None:
    pdf = f.margin_note_pdf(tmp_path / "m.pdf", [
        ("1", "Short title and commencement.", ["This Act may be called the Test Sanhita, 2023, and it shall",
                                               "come into force at once in the whole of the territory."]),
        ("2", "Definitions.", ["In this Sanhita, unless the context otherwise requires, words have",
                               "the meanings given to them in the General Clauses Act, 1897 always."])])
    res = extract_pages(pdf, timeout_s=60)
    page = res.pages[0]
    assert "Definitions" not in page.text and "Short title" not in page.text
    assert [t for _, t in page.margin] == ["Short title and commencement.", "Definitions."]
    assert len(page.line_y) == len(page.text.rstrip("\n").split("\n"))
    sections, _ = parse_statute("BNS", res.pages, res.source)
    assert [(s.ref.section, s.title) for s in sections] == [("1", "Short title and commencement."),
                                                            ("2", "Definitions.")]
