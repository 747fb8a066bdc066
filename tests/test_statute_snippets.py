"""Every statute snippet of ``tests/statutes.py`` is the official print's words: found in the section the
snippet names, as ``legal_rag.ingest.statutes.parse_statute`` reads it from the Act's PDF, and on the PDF page it
names. Slow: reads the real corpus (``real_settings``; the pages are cached by content hash)."""

from __future__ import annotations

import re

import pytest

from tests import statutes


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def printed(real_settings):
    """act -> (section number -> parsed Section, PDF page number -> page text) for each Act the snippets quote."""
    from legal_rag.ingest.pdf import extract_pages
    from legal_rag.ingest.statutes import parse_statute

    out = {}
    for act in sorted({s.act for s in statutes.ALL.values()}):
        res = extract_pages(real_settings.corpus_path / "statutes" / "pdf" / statutes.PDFS[act])
        sections, _ = parse_statute(act, res.pages, res.source)
        out[act] = ({s.ref.section: s for s in sections}, {p.number: p.text for p in res.pages})
    return out


def test_the_module_names_its_snippets():
    assert {"BNS_318_2", "BNS_318_4", "IPC_420", "BNS_85"} <= set(statutes.ALL)
    assert all(s.act in statutes.PDFS and s.page > 0 and len(s) > 40 for s in statutes.ALL.values())


@pytest.mark.parametrize("name", sorted(statutes.ALL))
def test_each_snippet_is_the_printed_text_of_its_section_and_page(printed, name):
    snippet = statutes.ALL[name]
    sections, pages = printed[snippet.act]
    section = sections[snippet.section]
    assert _words(snippet) in _words(section.text), f"{name} is not {snippet.act} {snippet.section}'s text"
    assert section.pages[0] <= snippet.page <= section.pages[1], (name, section.pages)
    assert _words(snippet) in _words(pages[snippet.page]), f"{name} is not on page {snippet.page}"
