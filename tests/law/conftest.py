"""Session fixtures over the real correspondence tables (read once: ~1 s)."""

import pytest

from legal_rag.config import Settings
from legal_rag.law import default_section_sets, load_concordance


@pytest.fixture(scope="session")
def corpus():
    path = Settings().corpus_path
    if not (path / "mappings").is_dir():
        pytest.skip(f"shared corpus not found at {path}")
    return path


@pytest.fixture(scope="session")
def conc(corpus):
    return load_concordance(corpus)


@pytest.fixture(scope="session")
def sets(corpus):
    return default_section_sets()
