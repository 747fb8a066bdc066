"""The `legal-rag ingest` command on a tiny manifest in tmp_path (typer's CliRunner)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from legal_rag.cli import app
from tests.ingest.test_corpus import SMALL, tiny_corpus


def test_ingest_prints_report_and_writes_json(tmp_path, monkeypatch):
    root = tiny_corpus(tmp_path)
    monkeypatch.setenv("LEGAL_RAG_CORPUS_PATH", str(root))
    monkeypatch.setenv("LEGAL_RAG_MANIFEST_PATH", str(tmp_path / "manifest.toml"))
    out = tmp_path / "report.json"
    res = CliRunner().invoke(app, ["ingest", "--json", str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "files: 2" in res.output and "judgments: 2" in res.output
    rep = json.loads(out.read_text())
    assert rep["judgments"] == 2 and rep["paragraphs"] > 0 and rep["failed"] == []
    assert sorted(rep["files"]) == sorted(SMALL)


def test_ingest_only_and_errors_are_one_line(tmp_path, monkeypatch):
    root = tiny_corpus(tmp_path)
    monkeypatch.setenv("LEGAL_RAG_CORPUS_PATH", str(root))
    monkeypatch.setenv("LEGAL_RAG_MANIFEST_PATH", str(tmp_path / "manifest.toml"))
    res = CliRunner().invoke(app, ["ingest", "--only", "C82"])
    assert res.exit_code == 0 and "files: 1" in res.output
    res = CliRunner().invoke(app, ["ingest", "--only", "nosuch"])
    assert res.exit_code == 1
    assert res.output.strip().count("\n") == 0 and res.output.startswith("error: ")


def test_settings_command_still_works():
    res = CliRunner().invoke(app, ["settings"])
    assert res.exit_code == 0 and "corpus_path" in res.output


def test_index_prints_the_ingest_report_before_the_embedding(tmp_path, monkeypatch):
    """`legal-rag index` says what was read as soon as it is read: the report comes before the index's own line,
    and `build` hands it over before any chunk is embedded."""
    from legal_rag import build as build_mod
    from legal_rag.config import load_settings

    root = tiny_corpus(tmp_path)
    monkeypatch.setenv("LEGAL_RAG_CORPUS_PATH", str(root))
    monkeypatch.setenv("LEGAL_RAG_MANIFEST_PATH", str(tmp_path / "manifest.toml"))
    monkeypatch.setenv("LEGAL_RAG_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LEGAL_RAG_CASEBASE", "false")
    import legal_rag.index as index_mod

    events = []
    original = index_mod.build_index

    def spy(*a, **kw):
        events.append("embed")
        return original(*a, **kw)
    monkeypatch.setattr(index_mod, "build_index", spy)  # build() imports it from legal_rag.index when it runs
    build_mod.build(load_settings(), progress=False, on_report=lambda r: events.append(("report", r.judgments)))
    assert events[:2] == [("report", 2), "embed"]
    monkeypatch.setattr(index_mod, "build_index", original)
    res = CliRunner().invoke(app, ["index", "--only", "C82", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert res.output.index("files: 1") < res.output.index("index: ")
