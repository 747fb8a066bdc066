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
    assert {"BNS_318_2", "BNS_318_4", "IPC_420", "BNS_85", "BNS_104"} <= set(statutes.ALL)
    assert all(s.act in statutes.PDFS and s.page > 0 and len(s) > 40 for s in statutes.ALL.values())


def test_upto_is_the_snippet_s_opening_words_through_the_phrase_named():
    got = statutes.BNS_318_4.upto("dishonestly induces")
    assert got == "(4) Whoever cheats and thereby dishonestly induces" and statutes.BNS_318_4.startswith(got)
    assert (got.act, got.section, got.page) == ("BNS", "318", 87)
    with pytest.raises(ValueError):
        statutes.BNS_318_4.upto("ten years")


def test_a_snippet_survives_pickle_and_deepcopy():
    import copy
    import pickle

    for got in (pickle.loads(pickle.dumps(statutes.BNS_104)), copy.deepcopy(statutes.BNS_104)):
        assert got == statutes.BNS_104 and (got.act, got.section, got.page) == ("BNS", "104", 34)


@pytest.mark.parametrize("name", sorted(statutes.ALL))
def test_each_snippet_is_the_printed_text_of_its_section_and_page(printed, name):
    snippet = statutes.ALL[name]
    sections, pages = printed[snippet.act]
    section = sections[snippet.section]
    assert _words(snippet) in _words(section.text), f"{name} is not {snippet.act} {snippet.section}'s text"
    assert section.pages[0] <= snippet.page <= section.pages[1], (name, section.pages)
    assert _words(snippet) in _words(pages[snippet.page]), f"{name} is not on page {snippet.page}"
