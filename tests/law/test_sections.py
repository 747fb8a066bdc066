"""The packaged table of sections equals what the corpus's section lists give (regenerate LETTERED if not)."""

from legal_rag.law import default_section_sets
from legal_rag.law.sections import LETTERED, load_section_sets


def test_packaged_lettered_sections_equal_the_corpus(corpus):
    assert load_section_sets(corpus).lettered == LETTERED
    assert default_section_sets().lettered == LETTERED


def test_the_grammar_reads_no_corpus_file(tmp_path, monkeypatch):
    """The grammar works wherever corpus_path points (a user's own judgments, a test's tiny corpus)."""
    from legal_rag.law import find_refs

    monkeypatch.setenv("LEGAL_RAG_CORPUS_PATH", str(tmp_path))
    assert [str(f.ref) for f in find_refs("Section 498A IPC and s. 41A CrPC")] == ["IPC 498A", "CrPC 41A"]
