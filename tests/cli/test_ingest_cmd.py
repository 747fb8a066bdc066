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
