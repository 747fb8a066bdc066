"""Session-wide set-up shared by every test package.

* No network: the Hugging Face hub, Gradio analytics and Chroma telemetry are switched off before any import.
* PDF layout is cached by file content hash (``LEGAL_RAG_PAGE_CACHE``) under ``.legal_rag-test/`` at the repo
  root, so the session reads each real PDF with pypdf once, however many test packages parse it; so are the
  parsed First Schedules (``LEGAL_RAG_SCHEDULE_CACHE``, keyed by the PDF's sha256 and the parser version).
* ``real_index`` / ``real_pipeline``: the default corpus (every source of ``corpora/manifest.toml``; of the case
  base's AILA judgments and of each source holding many decisions a fixed sample) ingested, chunked, embedded with
  the shipped MiniLM and indexed ONCE per session. The data directory is keyed by the
  settings that shape the index; the SQLite store caches embeddings by chunk content hash, so a later session
  on the same checkout embeds only chunks whose text changed.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEST_CACHE = ROOT / ".legal_rag-test"
if str(ROOT) not in sys.path:  # the root shim `app.py` (python app.py) is importable however pytest was started
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("LEGAL_RAG_PAGE_CACHE", str(TEST_CACHE / "pages"))
# the First Schedules parsed once (keyed by PDF sha256 and parser version), whatever data_dir a test uses
os.environ.setdefault("LEGAL_RAG_SCHEDULE_CACHE", str(TEST_CACHE / "schedules"))
# the ranker's classifier fitted once per set of question embeddings, whatever data_dir a test uses
os.environ.setdefault("LEGAL_RAG_CLASSIFIER_CACHE", str(TEST_CACHE / "classifier"))


#: decisions taken from each source of the default corpus that holds many (``Settings.archive_limit``) in the real
#: index the tests build
ARCHIVE_SAMPLE = 40


def _real_settings():
    from legal_rag.config import load_settings

    base = load_settings()
    key = hashlib.sha256(
        "|".join(str(v) for v in (base.embed_model, base.chunk_tokens, base.chunk_overlap, base.hnsw_ef_construction,
                                  base.hnsw_ef_search, base.hnsw_max_neighbors, base.manifest_path.read_bytes()))
        .encode()).hexdigest()[:12]
    # the case base samples the first 300 of AILA's 2,914 judgments here (the benchmark uses all of them), and each
    # source holding many decisions its first 40 (the Indian Kanoon archive, each orders-of-the-day source:
    # tests/ingest/test_many_real.py reads them whole)
    return base.model_copy(update={"data_dir": TEST_CACHE / f"index-{key}", "casebase_limit": 300,
                                   "archive_limit": ARCHIVE_SAMPLE})


@pytest.fixture(scope="session")
def minilm():
    """The shipped MiniLM embedder (tokenizer and model), loaded once per session."""
    from legal_rag.config import Settings
    from legal_rag.index.embed import Embedder

    return Embedder.from_settings(Settings())


@pytest.fixture
def settings(tmp_path):
    """Default settings with the data directory in this test's tmp_path."""
    from legal_rag.config import Settings

    return Settings(data_dir=tmp_path / "data")


@pytest.fixture(scope="session")
def real_settings():
    s = _real_settings()
    if not (s.corpus_path / "statutes" / "pdf").is_dir():
        pytest.skip(f"real corpus not found at {s.corpus_path}")
    return s


@pytest.fixture(scope="session")
def conc():
    """The official correspondence tables (:func:`legal_rag.law.load_concordance`), read once per session; the test
    is skipped when the shared corpus's ``mappings/`` is not there. A test module may define its own."""
    from legal_rag.config import Settings
    from legal_rag.law import load_concordance

    if not (Settings().corpus_path / "mappings").is_dir():
        pytest.skip("shared corpus (correspondence tables) not found")
    return load_concordance()


@pytest.fixture(scope="session")
def real_schedules():
    """Both First Schedules of the real corpus as parsed (``SchedulePrint`` for BNSS, then CrPC), read once per
    session from the cache under ``.legal_rag-test/schedules`` (parsed when the PDFs or the parser changed)."""
    from legal_rag.config import Settings
    from legal_rag.ingest.schedules import load_schedule_prints

    settings = Settings()
    if not (settings.corpus_path / "statutes" / "pdf").is_dir():
        pytest.skip(f"real corpus not found at {settings.corpus_path}")
    return load_schedule_prints(settings)


@pytest.fixture(scope="session")
def real_build(real_settings):
    """(IngestReport, build stats) of the session's real-corpus index build."""
    from legal_rag.pipeline import build

    return build(real_settings, progress=False)


@pytest.fixture(scope="session")
def real_pipeline(real_settings, real_build):
    from legal_rag.pipeline import Pipeline

    return Pipeline(real_settings)


@pytest.fixture(scope="session")
def real_index(real_pipeline):
    return real_pipeline.index


@pytest.fixture(scope="session")
def real_casebase(real_pipeline):
    """The case base of the session's real build (skips a test when the build made none)."""
    cb = real_pipeline.casebase
    if cb is None:
        pytest.skip("the real build made no case base (settings.casebase off)")
    return cb


from tests.statutes import BNS_85  # noqa: E402  (the repo root is on sys.path above)

SMALL_CRUELTY = str(BNS_85)
SMALL_WANT = {"IPC": {"302", "304B", "379", "406", "415", "420", "506"},
              "BNS": {"103", "80", "303", "316", "318", "351"}}


@pytest.fixture(scope="session")
def small_index(tmp_path_factory):
    """A small real index (real MiniLM vectors) built once per session in a temporary directory (used by
    ``tests/retrieve`` and ``tests/cli``): a few IPC/BNS sections from the structured copies of the Acts, two
    sections whose bodies are word for word identical (IPC 498A / BNS 85, BL-19), and one long judgment whose
    paragraphs all cite Section 420 (BL-20). Yields ``(index, settings)``."""
    from legal_rag.config import Settings
    from legal_rag.eval.acts import structured_sections
    from legal_rag.index import Embedder, build_index
    from legal_rag.ingest.chunk import chunk_judgment, chunk_section
    from legal_rag.types import Judgment, Paragraph, Section, StatuteRef

    settings = Settings(data_dir=tmp_path_factory.mktemp("retrieve") / "data")
    emb = Embedder.from_settings(settings)
    secs = [s for s in structured_sections(settings.corpus_path) if s.ref.section in SMALL_WANT.get(s.ref.act, ())]
    secs += [Section(StatuteRef("IPC", "498A"), "Husband or relative of husband of a woman subjecting her to cruelty",
                     SMALL_CRUELTY, "ipc.pdf", (80, 80)),
             Section(StatuteRef("BNS", "85"), "Husband or relative of husband of a woman subjecting her to cruelty",
                     SMALL_CRUELTY, "bns.pdf", (25, 25))]
    paras = [Paragraph("C900", str(i), f"{i}. The trial court convicted the appellant under Section 420 of the "
                       "Indian Penal Code for the transaction of the year in question; " * 9, "C900.txt", (i, i))
             for i in range(1, 13)]
    judgment = Judgment("C900", "A v State", "Supreme Court of India", "1999-01-01", "C900.txt")
    chunks = [c for s in secs for c in chunk_section(s, emb)] + list(chunk_judgment(paras, emb, judgment=judgment))
    idx = build_index(chunks, settings, embedder=emb)
    yield idx, settings
    idx.close()


#: the session fixtures that read the real corpus (``real_pipeline`` / ``real_index`` build it through ``real_build``)
REAL_CORPUS_FIXTURES = frozenset({"real_settings", "real_schedules", "real_build", "real_pipeline", "real_index",
                                  "real_casebase"})


def pytest_collection_modifyitems(config, items):
    """Every test that uses a real-corpus fixture (:data:`REAL_CORPUS_FIXTURES`, directly or through another
    fixture) is ``slow``, whether or not it is marked by hand: ``-m "not slow"`` never reads or builds the corpus."""
    for item in items:
        if REAL_CORPUS_FIXTURES & set(getattr(item, "fixturenames", ())) and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
