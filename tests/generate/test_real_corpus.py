"""The answer stage on the real BNS text (Gazette PDF, parsed by legal_rag.ingest) with the official
correspondence tables (legal_rag.law): extractive answers verify fully, with correct section and page; a
wrong punishment or section is removed; a planted instruction stays data."""

import dataclasses

import pytest

from legal_rag.config import load_settings
from legal_rag.generate import generate
from legal_rag.types import Chunk, Draft, Hit, StatuteRef
from legal_rag.verify import Failure, law_equivalents, to_answer, verify

from .fakes import PLANTED_420, judgment

pytestmark = pytest.mark.slow
BNS_PDF = "statutes/pdf/BNS_2023_gazette_Act45.pdf"


@pytest.fixture(scope="module")
def bns():
    from legal_rag.ingest.pdf import extract_pages
    from legal_rag.ingest.statutes import parse_statute

    path = load_settings().corpus_path / BNS_PDF
    if not path.exists():
        pytest.skip(f"{path} not present")
    sections, _ = parse_statute("BNS", extract_pages(path).pages, path.name)
    return {s.ref.section: s for s in sections}


@pytest.fixture(scope="module")
def equivalents():
    eq = law_equivalents()
    if eq is None:
        pytest.skip("legal_rag.law tables unavailable")
    return eq


def hit(section, rank=1, page_map=False) -> Hit:
    """A whole section as one passage; ``page_map``: with the page map ingest keeps (meta ``pages_at``)."""
    from legal_rag.ingest.chunk import _pages_at

    meta = (("pages_at", _pages_at(section.page_starts, 0, len(section.text))),) if page_map else ()
    c = Chunk(id=f"BNS-{section.ref.section}-0-real", kind="statute", text=section.text, title=section.title,
              source=section.source, pages=section.pages, ref=section.ref, meta=meta)
    return Hit(c, 1.0 / (60 + rank), "rrf", rank)


def test_extractive_answer_on_the_real_bns_cites_section_sub_section_and_page(bns, equivalents):
    hits = [hit(bns[n], i) for i, n in enumerate(("318", "316", "319"), 1)]
    d = generate("What is the punishment for cheating?", hits, load_settings())
    v = verify(d, equivalents=equivalents)
    a = to_answer(d, v)
    assert v.supported_share == 1.0 and not v.removed, v.problems
    # one heading per sub-section quoted (issue 14): "BNS 318(4) - Cheating [1]" above the seven-year quote
    assert "seven years" in a.text and "BNS 318(4) - Cheating [1]" in a.text.splitlines()
    assert not any(line.startswith("BNS 318 -") for line in a.text.splitlines())
    four = [c for c in a.citations if c.ref == StatuteRef("BNS", "318", ("4",))]
    assert four and four[0].source == "BNS_2023_gazette_Act45.pdf" and four[0].pages == bns["318"].pages
    assert four[0].pages[0] in (86, 87)  # the Gazette prints s.318 on pp. 86-87
    # with the page map kept at ingest, the page where (4) is printed: p. 87
    d = generate("What is the punishment for cheating?", [hit(bns[n], i, page_map=True) for i, n in
                                                           enumerate(("318", "316", "319"), 1)], load_settings())
    a = to_answer(d, verify(d, equivalents=equivalents))
    assert {c.pages for c in a.citations if c.ref == StatuteRef("BNS", "318", ("4",))} == {(87, 87)}


def test_paraphrase_with_the_old_section_is_checked_through_the_official_table(bns, equivalents):
    passages = (hit(bns["318"]),)
    good = Draft("q", "Cheating that induces delivery of property, formerly IPC 420, is punishable under BNS "
                      "318(4) with imprisonment up to seven years and fine [1].", passages=passages)
    bad = Draft("q", "Cheating under BNS 318 is punishable with imprisonment up to ten years [1]. "
                     "It was formerly IPC 302 [1].", passages=passages)
    assert verify(good, equivalents=equivalents).supported_share == 1.0
    v = verify(bad, equivalents=equivalents)
    assert v.supported_share == 0.0 and len(v.removed) == 2
    failed = [f for c in v.removed for f in c.failures]
    assert any(f.check == "punishment" and "10 year" in f.detail.split(", ") for f in failed), failed
    assert Failure("section", "section IPC 302") in failed


def test_murder_answer_and_planted_instruction(bns, equivalents):
    hits = [hit(bns["103"]), Hit(judgment("c-1", "Commentary on murder", "Murder after the new codes. "
                                          + PLANTED_420), 0.01, "rrf", 2)]
    d = generate("What is the punishment for murder?", hits, load_settings())
    v = verify(d, equivalents=equivalents)
    assert d.flagged == ("c-1-p1-test",) and "remains in force" not in v.text
    assert "death or imprisonment for life" in " ".join(v.text.split()) and v.supported_share == 1.0


def test_an_illustration_never_stands_alone_on_the_real_text(bns, equivalents):
    """BNS 307's Illustrations end "A has committed the offence defined in this section.": a question that shares
    only "offence" with the section is answered with the operative words first, never with that sentence alone,
    and the check keeps every sentence of the quoted Illustration."""
    q = "A man stopped me on the road, showed a knife and took my phone. What offence is this?"
    d = generate(q, [dataclasses.replace(hit(bns["307"]), stage="evidence")], load_settings())  # a ranked candidate
    v = verify(d, equivalents=equivalents)
    assert v.supported_share == 1.0 and not v.removed, v.problems
    text = to_answer(d, v).text
    quotes = [line for line in text.splitlines() if line.startswith("\u201c")]
    assert quotes and quotes[0].startswith("\u201cWhoever commits theft"), text
    # the Illustration's verdict is quoted right after its facts ("(a) A commits theft ..."), never alone
    verdicts = [i for i, line in enumerate(quotes) if line.startswith("\u201cA has committed the offence")]
    assert all(quotes[i - 1].startswith(("\u201c(a)", "\u201c(b)")) for i in verdicts), text
