"""Statute parser: unit cases on inline pages, then the five real Acts against the structured references."""

from __future__ import annotations

import csv
import difflib
import json
import re
from collections import Counter

import pytest

from legal_rag.ingest.statutes import load_iea_json, parse_statute
from legal_rag.types import Page

# --- unit: table of contents, footnote markers, omitted sections, bare numbers ----------------------------


def _pages() -> list[Page]:
    toc = Page("x.pdf", 1, "THE TEST CODE\nARRANGEMENT OF SECTIONS\n1. Short title.\n2. Definitions.\n"
                          "2A. New thing.\n13. [Omitted.].\n14. “Servant”.\n")
    body = Page("x.pdf", 2, "WHEREAS it is expedient to provide a Code; It is enacted as follows:—\n"
                            "CHAPTER I\nINTRODUCTION\n"
                            "1. Short title.—This Act may be called the Test Code.\n"
                            "2. Definitions.—In this Code the word “person” includes a company;\n"
                            "1[2A. New thing.—A new thing means a thing made 2[after 1950].]\n"
                            "13. [Definition of “Queen”.] Omitted by the A. O. 1950.\n",
                footnotes="1. Ins. by Act 5 of 2009, s. 2 (w.e.f. 31-12-2009).\n2. Subs. by Act 3 of 1951, s. 3.")
    nxt = Page("x.pdf", 3, "14. “Servant”.—The words “servant of Government” denote any officer\n17\n"
                           "employed by the Government.\n")
    return [toc, body, nxt]


def test_parse_skips_toc_moves_footnotes_marks_omitted() -> None:
    sections, _ = parse_statute("IPC", _pages(), "x.pdf")
    by = {s.ref.section: s for s in sections}
    assert list(by) == ["1", "2", "2A", "13", "14"]
    assert by["1"].title == "Short title" and by["1"].pages == (2, 2) and by["1"].chapter.startswith("CHAPTER I")
    assert "1[" not in by["2A"].text and "[after 1950]" in by["2A"].text
    assert by["2A"].notes == ("1. Ins. by Act 5 of 2009, s. 2 (w.e.f. 31-12-2009).", "2. Subs. by Act 3 of 1951, s. 3.")
    assert by["13"].status == "omitted" and by["13"].title == "Definition of “Queen”."
    assert by["14"].pages == (3, 3) and "17" not in by


def test_load_iea_json(corpus_path) -> None:
    sections = load_iea_json(corpus_path / "statutes" / "structured" / "iea_civictech.json")
    nums = [s.ref.section for s in sections]
    assert len(nums) == len(set(nums)) and {"1", "65A", "65B", "167"} <= set(nums)
    assert all(s.pages == (0, 0) and s.ref.act == "IEA" for s in sections)


# --- real Acts ------------------------------------------------------------------------------------------------

def norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def words(text: str) -> set[str]:
    return set(norm(text).split())


@pytest.mark.slow
@pytest.mark.parametrize("act,last", [("BNS", 358), ("BNSS", 531), ("BSA", 170)])
def test_new_codes_every_section_exactly_once(parsed_acts, act: str, last: int) -> None:
    parsed = parsed_acts[act]
    print(f"{act}: {parsed.result.page_count} pages, extract {parsed.extract_s:.1f} s, parse {parsed.parse_s:.2f} s")
    nums = [s.ref.section for s in parsed.sections]
    assert Counter(nums) == Counter(str(n) for n in range(1, last + 1))
    assert all(s.title for s in parsed.sections), [s.ref.section for s in parsed.sections if not s.title]
    # sections never run into each other: each text starts with its own number
    assert all(s.text.startswith(f"{s.ref.section}.") for s in parsed.sections)


def _reference(act: str, corpus_path) -> dict[str, tuple[str, str]]:
    base = corpus_path / "statutes" / "structured"
    if act == "BNS":
        with open(base / "bns_sections_kaggle_cmrit.csv", encoding="utf-8") as fh:
            return {r["Section"].strip(): (r["Section _name"], r["Description"]) for r in csv.DictReader(fh)}
    rows = json.loads((base / f"{act.lower()}_civictech.json").read_text(encoding="utf-8"))
    return {str(r.get("Section", r.get("section"))).strip().upper(): (r["section_title"], r["section_desc"])
            for r in rows}


@pytest.mark.slow
@pytest.mark.parametrize("act", ["IPC", "CrPC", "BNS"])
def test_agreement_with_structured_references(parsed_acts, corpus_path, act: str) -> None:
    parsed = parsed_acts[act]
    ref = _reference(act, corpus_path)
    got = {s.ref.section: s for s in parsed.sections}
    missing = sorted(set(ref) - set(got), key=lambda n: (int(re.match(r"\d+", n).group()), n))
    extra = sorted(set(got) - set(ref), key=lambda n: (int(re.match(r"\d+", n).group()), n))
    exact = near = text_ok = 0
    shared = [n for n in ref if n in got]
    for n in shared:
        a, b = norm(ref[n][0]), norm(got[n].title)
        ratio = difflib.SequenceMatcher(None, a, b).ratio()
        exact += a == b
        near += ratio >= 0.9
        if a != b:
            print(f"  title {act} {n}: reference {ref[n][0]!r} | parsed {got[n].title!r} ({ratio:.2f})")
        ref_words = words(ref[n][1])
        cover = len(ref_words & words(got[n].text)) / len(ref_words) if ref_words else 1.0
        text_ok += cover >= 0.8 or got[n].status != "in_force"
        if cover < 0.8 and got[n].status == "in_force":
            print(f"  text  {act} {n}: {cover:.2f} of the reference words found")
    rate_numbers = len(shared) / len(ref)
    rate_exact, rate_near, rate_text = exact / len(shared), near / len(shared), text_ok / len(shared)
    print(f"{act}: {len(parsed.sections)} sections parsed, {len(ref)} in the reference; numbers {rate_numbers:.2%} "
          f"(missing {missing}, not in the reference {extra}); titles exact {rate_exact:.2%}, near (ratio>=0.9) "
          f"{rate_near:.2%}; text (80% of reference words) {rate_text:.2%}; extract {parsed.extract_s:.1f} s, "
          f"parse {parsed.parse_s:.2f} s; statuses {Counter(s.status for s in parsed.sections)}")
    assert rate_numbers >= 0.99
    assert rate_near >= 0.95
    assert rate_text >= 0.90


@pytest.mark.slow
def test_old_codes_repealed_and_omitted_marked_not_invented(parsed_acts) -> None:
    ipc = {s.ref.section: s for s in parsed_acts["IPC"].sections}
    assert ipc["13"].status == "omitted" and ipc["15"].status == "repealed"
    assert ipc["138A"].status == "repealed" and len(ipc["138A"].text) < 300
    assert {"120B", "304B", "376AB", "498A"} <= set(ipc)
    assert ipc["420"].title.startswith("Cheating and dishonestly inducing delivery of property")
    assert any("Act" in n for n in ipc["498A"].notes)  # "Ins. by Act 46 of 1983" goes to notes
    assert not re.search(r"^\d+\. (Subs|Ins)\. by", ipc["498A"].text, re.M)
    crpc = {s.ref.section: s for s in parsed_acts["CrPC"].sections}
    assert {"41A", "125", "154", "438", "482"} <= set(crpc)


def _page_text(parsed, number: int) -> str:
    return next(p.text for p in parsed.result.pages if p.number == number)


@pytest.mark.slow
def test_bns_spot_checks_with_pages(parsed_acts) -> None:
    bns = parsed_acts["BNS"]
    by = {s.ref.section: s for s in bns.sections}
    s316, s318, s103 = by["316"], by["318"], by["103"]
    assert s316.title == "Criminal breach of trust." and s316.pages == (84, 85)
    assert "316. (1) Whoever, being in any manner entrusted with property" in _page_text(bns, 84)
    assert s103.title == "Punishment for murder." and s103.pages == (34, 34)
    assert "103. (1) Whoever commits murder shall be punished with death" in _page_text(bns, 34)
    sub4 = s318.text[s318.text.index("\n(4) "):]
    flat = " ".join(sub4.split())
    assert flat.startswith("(4) Whoever cheats and thereby dishonestly induces the person deceived to deliver any "
                           "property")
    assert "seven years" in flat and "fine" in flat
    assert s318.title == "Cheating." and s318.pages[0] == 86
    assert by["85"].chapter.startswith("CHAPTER V")
