"""Command line: ``legal-rag ingest|search|lookup|ask|eval|export``. Holds no logic of its own: it calls
``pipeline`` and ``export``. A :class:`LegalRagError` becomes one line on stderr and exit code 1."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

import typer

from .config import load_settings
from .errors import LegalRagError

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)


@app.callback()
def main() -> None:
    """legal-rag: grounded answers and citations for Indian criminal law (IPC/CrPC/IEA -> BNS/BNSS/BSA)."""


def _fail(exc: LegalRagError) -> None:
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(1)


@app.command()
def settings() -> None:
    """Print the effective settings (after legal_rag.toml and LEGAL_RAG_* variables)."""
    try:
        s = load_settings()
    except LegalRagError as exc:
        _fail(exc)
    for k, v in s.model_dump().items():
        typer.echo(f"{k} = {v}")


def _print_report(report) -> None:
    typer.echo(f"files: {len(report.files)}  pages: {report.pages}  judgments: {report.judgments}  "
               f"paragraphs: {report.paragraphs}  failed: {len(report.failed)}")
    for act, n in report.sections:
        typer.echo(f"sections {act}: {n}")
    by_sev: dict[str, int] = {}
    for p in report.problems:
        by_sev[p.severity] = by_sev.get(p.severity, 0) + 1
        if p.severity != "info":
            typer.echo(str(p))
    typer.echo("problems: " + (", ".join(f"{k} {v}" for k, v in sorted(by_sev.items())) or "none"))
    for f in report.failed:
        typer.echo(f"failed: {f}")


@app.command()
def ingest(
    json_path: Optional[Path] = typer.Option(None, "--json", help="also write the report as JSON to this path"),
    only: Optional[list[str]] = typer.Option(None, "--only", help="a source name, act or kind (repeatable)"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="show a progress bar"),
) -> None:
    """Verify and parse the corpus of the manifest; print the report (files, pages, sections per Act,
    judgments, paragraphs, warnings and errors by file and page)."""
    from .ingest import load_corpus
    from .ingest.corpus import report_dict

    try:
        s = load_settings()
        corpus = load_corpus(s, only=only or None, progress=progress)
    except LegalRagError as exc:
        _fail(exc)
    _print_report(corpus.report)
    if json_path is not None:
        tmp = json_path.with_name(json_path.name + ".tmp")
        tmp.write_text(json.dumps(report_dict(corpus.report), indent=2, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, json_path)  # never a half-written report
        typer.echo(f"report written to {json_path}")


if __name__ == "__main__":
    app()
