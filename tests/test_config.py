import pytest

from legal_rag.config import load_settings
from legal_rag.errors import ConfigError


def test_env_overrides_and_names_bad_field(monkeypatch, tmp_path):
    monkeypatch.setenv("LEGAL_RAG_TOP_K", "7")
    assert load_settings().top_k == 7
    monkeypatch.setenv("LEGAL_RAG_TOP_K", "-3")
    with pytest.raises(ConfigError) as exc:
        load_settings()
    assert "top_k" in str(exc.value) and "-3" in str(exc.value)


def test_toml_file_is_read(monkeypatch, tmp_path):
    cfg = tmp_path / "legal_rag.toml"
    cfg.write_text('rrf_k = 42\nhnsw_space = "cosine"\n')
    monkeypatch.setenv("LEGAL_RAG_CONFIG", str(cfg))
    assert load_settings().rrf_k == 42
    cfg.write_text('hnsw_space = "manhattan"\n')
    with pytest.raises(ConfigError, match="hnsw_space='manhattan'"):
        load_settings()


def test_overlap_must_be_below_chunk_size():
    with pytest.raises(ConfigError, match="chunk_overlap"):
        load_settings(chunk_tokens=64, chunk_overlap=64)


def test_corpus_path_defaults_to_shared():
    s = load_settings()
    assert (s.corpus_path / "statutes").is_dir(), s.corpus_path
