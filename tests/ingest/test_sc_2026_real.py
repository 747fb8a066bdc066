"""The Supreme Court judgments of January 2026 (``judgments/pdf_sc_2026_criminal``) are sources of the default corpus
and parse through the one judgment path (:func:`legal_rag.ingest.corpus._ingest_one`, as the index build does):
court, date, neutral citation and parties agree with the folder's ``index.csv``, the paragraphs carry page numbers,
and where a judgment cites a BNSS or BNS section the paragraphs' statute references include it."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from legal_rag.config import Settings
from legal_rag.ingest.corpus import _ingest_one, load_manifest, sha256_of

pytestmark = pytest.mark.slow

FOLDER = "judgments/pdf_sc_2026_criminal/"
_SMALL = {"the", "of", "and", "v", "anr", "ors", "another", "others", "etc", "govt", "nct"}
#: an independent witness (on the page text, not the citation grammar) that a section of the Act is cited
_CITED = {"BNSS": r"(?:Section|Sections|s\.|u/s)\s*\d{1,3}[A-Z]?\b[^.;]{0,80}?(?:BNSS|Bharatiya\s+Nagarik)",
          "BNS": r"(?:Section|Sections|s\.|ss\.|u/s)\s*\d{1,3}[A-Z]?\b[^.;]{0,80}?(?:\bBNS\b|Bharatiya\s+Nyaya)"}


def _settings() -> Settings:
    s = Settings()
    if not (s.corpus_path / FOLDER).is_dir():
        pytest.skip(f"real corpus not found at {s.corpus_path}")
    return s


def _sources():
    return [s for s in load_manifest(Settings().manifest_path) if s.path.startswith(FOLDER)]


def _index() -> dict[str, dict]:
    with open(_settings().corpus_path / FOLDER / "index.csv", encoding="utf-8", newline="") as fh:
        return {r["file"]: r for r in csv.DictReader(fh)}


def _words(title: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", title.lower().replace("@", " ")) if w not in _SMALL}


def test_the_manifest_lists_the_twelve_as_court_pdfs():
    sources = _sources()
    assert len(sources) == 12
    index = _index()
    assert {s.file_name for s in sources} == set(index)
    for s in sources:
        meta = dict(s.meta)
        row = index[s.file_name]
        assert (s.kind, s.format, s.name) == ("judgment", "pdf", Path(s.file_name).stem)
        assert meta["court"] == row["court"] == "Supreme Court of India" and meta["date"] == row["date"]
        assert meta["official_source"] == "Supreme Court of India" and "s.52(1)(q)(iv)" in meta["licence"]
        assert s.sha256 == row["sha256"] == sha256_of(_settings().corpus_path / s.path), s.name


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    settings = _settings().model_copy(update={"data_dir": tmp_path_factory.mktemp("sc2026") / "data"})
    return {s.file_name: _ingest_one(s, settings) for s in _sources()}


@pytest.mark.parametrize("source", _sources(), ids=lambda s: s.name.split("_")[2])
def test_each_parses_with_the_index_csv_metadata(source, parsed):
    row = _index()[source.file_name]
    sections, judgments, paragraphs, problems, pages, schedules = parsed[source.file_name]
    assert not schedules
    assert not sections and len(judgments) == 1
    assert not [p for p in problems if p.severity == "error" or p.kind.startswith("no_") or p.kind == "not_a_judgment"]
    j = judgments[0]
    assert j.kind == "judgment" and j.court == row["court"] and j.date == row["date"]
    assert row["neutral_citation"] in j.citations
    assert j.case_id == row["neutral_citation"].replace(" ", "-")
    assert _words(row["title"]) <= _words(j.title), (j.title, row["title"])  # both parties, whole
    assert pages == int(row["pages"]) == j.pages
    numbered = [p for p in paragraphs if p.number]
    assert len(numbered) >= 0.8 * len(paragraphs) and len(paragraphs) >= 10
    assert all(1 <= p.pages[0] <= p.pages[1] <= pages for p in paragraphs)
    assert max(p.pages[1] for p in paragraphs) == pages  # the text runs to the last page


@pytest.mark.parametrize("source", _sources(), ids=lambda s: s.name.split("_")[2])
def test_bnss_and_bns_sections_are_found_where_cited(source, parsed):
    row = _index()[source.file_name]
    _, _, paragraphs, _, _, _ = parsed[source.file_name]
    acts = {r.act for p in paragraphs for r in p.cites}
    text = " ".join(p.text for p in paragraphs)
    for act, column in (("BNSS", "mentions_BNSS"), ("BNS", "mentions_BNS")):
        mentioned = int(row[column]) > 0
        cited = re.search(_CITED[act], text) is not None
        if mentioned and cited:
            assert act in acts, (act, sorted(acts))
        if not mentioned:
            assert act not in acts, (act, sorted(acts))  # a judgment that never names the Act cites none of it


def test_the_new_codes_are_cited_by_the_judgments_that_apply_them(parsed):
    index = _index()
    bnss = {f for f, (_, _, paras, _, _, _) in parsed.items() if any(r.act == "BNSS" for p in paras for r in p.cites)}
    bns = {f for f, (_, _, paras, _, _, _) in parsed.items() if any(r.act == "BNS" for p in paras for r in p.cites)}
    # SOURCES.md: five of the twelve cite the new codes; one (2026 INSC 37) names the BNSS without a section
    assert len(bnss) >= 4 and bnss <= {f for f, r in index.items() if int(r["mentions_BNSS"]) > 0}
    assert bns == {f for f, r in index.items() if int(r["mentions_BNS"]) > 0}


def test_court_date_citation_form_and_bench_are_read_as_for_every_other_decision(parsed):
    """The same metadata the Indian Kanoon archive and the orders of the day carry (legal_rag.ingest.many), read the
    same way: court, ISO date and year, the neutral citation, the decision's form as the text calls itself (2026
    INSC 36 is an order: "O R D E R"), the bench where the signatures print names (2026 INSC 88 prints none), and
    each chunk's meta."""
    from legal_rag.ingest.chunk import judgment_meta

    index = _index()
    for name, (_, judgments, *_) in parsed.items():
        j = judgments[0]
        meta = judgment_meta(j)
        assert (meta["court"], meta["date"], meta["year"]) == ("Supreme Court of India", index[name]["date"],
                                                               index[name]["date"][:4])
        assert index[name]["neutral_citation"] in meta["citations"].split("; ") and j.case_numbers, name
        assert j.decision == ("order" if "INSC36_" in name else "judgment"), name
        assert bool(j.bench) == ("INSC88_" not in name), (name, j.bench)
    bench = {n.split("_")[2]: j[0].bench for n, (_, j, *_) in parsed.items()}
    assert bench["2026INSC12"] == ("SANJAY KUMAR", "ALOK ARADHE") and bench["2026INSC45"] == ("K. VINOD CHANDRAN",
                                                                                            "N.V. ANJARIA")
