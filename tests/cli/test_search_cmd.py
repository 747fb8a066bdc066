"""`legal-rag search` prints ranked passages with act, section, title, page and scores; errors are one line."""

from __future__ import annotations

import typer
from typer.testing import CliRunner

from legal_rag.cli.search import search_cmd


def _app():
    app = typer.Typer()
    app.command("search")(search_cmd)
    app.command("noop")(lambda: None)
    return app


def test_search_prints_passages(small_index, monkeypatch):
    idx, s = small_index
    monkeypatch.setenv("LEGAL_RAG_DATA_DIR", str(s.data_dir))
    r = CliRunner().invoke(_app(), ["search", "IPC 420", "-n", "3"])
    assert r.exit_code == 0, r.output
    first = [ln for ln in r.output.splitlines() if " 1. [" in ln][0]  # model-loading progress may share the line
    assert "[lookup 1.0000] IPC 420" in first and "Cheating" in first and "p." in first and "id=IPC-420-0-" in first


def test_missing_index_is_one_line_error(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGAL_RAG_DATA_DIR", str(tmp_path / "none"))
    r = CliRunner().invoke(_app(), ["search", "IPC 420"])
    assert r.exit_code == 1 and "error: no index" in r.output


def test_search_reads_the_query_and_filters_at_the_front_door(small_index, monkeypatch):
    """"IPC ४२०" is IPC 420 (BL-43); a filter value the index cannot take is one line naming it, exit 1."""
    idx, s = small_index
    monkeypatch.setenv("LEGAL_RAG_DATA_DIR", str(s.data_dir))
    r = CliRunner().invoke(_app(), ["search", "IPC ४२०", "-n", "3"])
    assert r.exit_code == 0 and "[lookup 1.0000] IPC 420" in r.output, r.output
    r = CliRunner().invoke(_app(), ["search", "cheating", "--code", "newest"])
    assert r.exit_code == 1 and "code='newest'" in r.output
    r = CliRunner().invoke(_app(), ["search", "cheating", "--code", "new", "-n", "5"])
    assert r.exit_code == 0 and " IPC " not in r.output and "BNS" in r.output, r.output
