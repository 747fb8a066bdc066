"""`legal-rag check` and `legal-rag serve` are wired to their stages; `python -m legal_rag` runs the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from legal_rag.cli import app


def test_check_on_an_empty_data_dir_is_ok_and_not_built(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGAL_RAG_DATA_DIR", str(tmp_path / "data"))
    res = CliRunner().invoke(app, ["check"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    assert rep["ok"] is True and rep["built"] is False
    assert "legal-rag index" in rep["hint"] and str(tmp_path / "data") in rep["hint"]


def test_lookup_without_the_corpus_names_the_setting(tmp_path, monkeypatch):
    """A fresh clone away from ../shared/corpora: `lookup` said only that a CSV could not be read (new-user trial);
    it now says, as `index` does, which setting points at the corpus."""
    monkeypatch.setenv("LEGAL_RAG_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LEGAL_RAG_CORPUS_PATH", str(tmp_path / "no-corpus"))
    res = CliRunner().invoke(app, ["lookup", "IPC 498A"])
    assert res.exit_code != 0
    assert f"corpus folder {tmp_path / 'no-corpus'} not found: set LEGAL_RAG_CORPUS_PATH" in res.output


def test_serve_calls_the_ui_main(monkeypatch):
    import legal_rag.ui.app as ui_app

    called = []
    monkeypatch.setattr(ui_app, "main", lambda: called.append(True))
    res = CliRunner().invoke(app, ["serve"])
    assert res.exit_code == 0, res.output
    assert called == [True]


def test_python_dash_m_runs_the_cli():
    for mod in ("legal_rag", "legal_rag.cli"):
        out = subprocess.run([sys.executable, "-m", mod, "--help"], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        assert "serve" in out.stdout and "train-reranker" in out.stdout
