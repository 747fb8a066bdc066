"""The ``Literal`` kinds of :mod:`legal_rag.types` and :mod:`legal_rag.config` list exactly the values the code
produces and accepts (finding 4 of notes/restructure.md): a kind added in one place and not the other fails here.

What the code produces is read from the source (an AST walk over ``legal_rag/``): every string constant given as a
flag's ``kind=``, a citation's ``support=`` or a hit's stage, and every constant those fields are compared with."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import get_args

import pytest

from legal_rag.config import HnswSpace, load_settings
from legal_rag.errors import ConfigError
from legal_rag.generate.backends import LLM_GENERATORS, available_generators, get_backend
from legal_rag.types import (FlagKind, GeneratorName, Stage, Support, SupersessionFlag, StatuteRef,
                             UnsupportedClaims, rerank_stage)

PACKAGE = Path(__file__).resolve().parent.parent / "legal_rag"


def _trees() -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in sorted(PACKAGE.rglob("*.py"))}


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def produced(field: str, positional: dict[str, int] | None = None, files: dict | None = None) -> set[str]:
    """String constants passed as keyword ``field=`` to any call, or as argument ``positional[callee]``."""
    out: set[str] = set()
    positional = positional or {}
    for path, tree in (files or _trees()).items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            out |= {s for kw in node.keywords if kw.arg == field for s in _strings(kw.value)}
            i = positional.get(_name(node.func))
            if i is not None and len(node.args) > i:
                out |= _strings(node.args[i])
    return out


def compared(field: str) -> set[str]:
    """String constants compared with (``==``, ``!=``, ``in``) an attribute named ``field``."""
    out: set[str] = set()
    for tree in _trees().values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(isinstance(s, ast.Attribute) and s.attr == field for s in sides):
                    out |= {v for s in sides if not isinstance(s, ast.Attribute) for v in _strings(s)}
    return out


def test_flag_kinds_are_exactly_what_supersede_emits():
    supersede = PACKAGE / "law" / "supersede.py"
    emitted = produced("kind", files={supersede: ast.parse(supersede.read_text(encoding="utf-8"))})
    assert emitted == set(get_args(FlagKind))
    # nobody else invents a kind, and every kind a reader tests for exists
    from legal_rag.export.records import _NOW_KINDS
    from legal_rag.ui.html import _PROBLEM_KINDS

    assert set(_NOW_KINDS) | set(_PROBLEM_KINDS) <= set(get_args(FlagKind))
    assert SupersessionFlag(StatuteRef("IPC", "420"), (), "query", "", "", "").kind in get_args(FlagKind)


def test_support_values_are_exactly_what_cite_and_verify_set():
    assert produced("support") == set(get_args(Support))
    assert compared("support") <= set(get_args(Support))
    from legal_rag.ui.html import MARKS

    assert set(MARKS) == set(get_args(Support))


def test_stages_are_exactly_what_the_retrievers_and_pipeline_set():
    made = produced("stage", {"Hit": 2, "_hits": 2})
    assert made == set(get_args(Stage)), made
    assert compared("stage") <= set(get_args(Stage))
    assert rerank_stage("legal-minilm-ce@1a2b3c4d") == "rerank:legal-minilm-ce@1a2b3c4d"
    # the one maker of rerank:<model> stages is rerank_stage
    makers = [p.relative_to(PACKAGE) for p, tree in _trees().items() for n in ast.walk(tree)
              if isinstance(n, ast.JoinedStr) and n.values and isinstance(n.values[0], ast.Constant)
              and str(n.values[0].value).startswith("rerank:")]
    assert makers == [Path("types.py")], makers


def test_every_generator_name_is_accepted_and_has_a_backend(tmp_path):
    names = get_args(GeneratorName)
    assert set(LLM_GENERATORS) == set(names) - {"extractive"}
    for name in names:
        s = load_settings(generator=name, generator_model=str(tmp_path), generator_base_url="http://127.0.0.1:9/v1")
        assert s.generator == name
        if name == "extractive":
            with pytest.raises(ConfigError, match="no language model"):
                get_backend(s)
        else:  # constructed, nothing loaded
            assert get_backend(s).name.startswith(f"{name}:")
    assert available_generators(load_settings(generator_base_url="http://x/v1"))[0] == "extractive"
    assert set(available_generators(load_settings(generator_base_url="http://x/v1"))) <= set(names)
    with pytest.raises(ConfigError, match="generator='gpt-9'"):
        load_settings(generator="gpt-9")


def test_a_pipeline_refuses_an_unknown_generator_by_name(tmp_path):
    from legal_rag.pipeline import Pipeline

    pipe = Pipeline(load_settings(data_dir=tmp_path))
    with pytest.raises(ConfigError, match="generator='gpt-9'"):
        next(pipe.ask_stream("What is IPC 420?", generator="gpt-9"))


def test_unsupported_claims_are_what_verify_accepts():
    from legal_rag.types import Draft
    from legal_rag.verify import verify

    for mode in get_args(UnsupportedClaims):
        verify(Draft("q", ""), on_unsupported=mode)
    with pytest.raises(ValueError):
        verify(Draft("q", ""), on_unsupported="hide")


def test_hnsw_spaces_are_chromas():
    types = pytest.importorskip("chromadb.api.types")
    assert set(get_args(HnswSpace)) == set(get_args(types.Space))
