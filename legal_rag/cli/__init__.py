"""Command line: ``legal-rag settings|ingest|index|check|search|lookup|ask|uploads|export|eval|train-reranker|train-ranker|train-followup|serve``.
Holds no logic of its own: it calls ``pipeline``, ``export`` and the stages' front doors. A :class:`LegalRagError`
becomes one line on stderr and exit code 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional, get_args

import typer

from ..config import load_settings
from ..errors import LegalRagError
from ..types import GeneratorName
from .common import embed_bar, fail, print_report as _print_report, write_json
from .eval import eval_cmd
from .export import export as export_cmd
from .ranker import train_followup_command, train_ranker_command
from .rerank import train_reranker_command
from .search import search_cmd
from .uploads import uploads_app

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)


@app.callback()
def main() -> None:
    """legal-rag: grounded answers and citations for Indian criminal law (IPC/CrPC/IEA -> BNS/BNSS/BSA)."""


@app.command()
def settings() -> None:
    """Print the effective settings (after legal_rag.toml and LEGAL_RAG_* variables)."""
    try:
        s = load_settings()
    except LegalRagError as exc:
        fail(exc)
    for k, v in s.model_dump().items():
        typer.echo(f"{k} = {v}")


@app.command()
def ingest(
    json_path: Optional[Path] = typer.Option(None, "--json", help="also write the report as JSON to this path"),
    only: Optional[list[str]] = typer.Option(None, "--only", help="a source name, act or kind (repeatable)"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="show a progress bar"),
) -> None:
    """Verify and parse the corpus of the manifest; print the report (files, pages, sections per Act,
    judgments, paragraphs, warnings and errors by file and page)."""
    from ..ingest import load_corpus
    from ..ingest.corpus import report_dict

    try:
        s = load_settings()
        corpus = load_corpus(s, only=only or None, progress=progress)
    except LegalRagError as exc:
        fail(exc)
    _print_report(corpus.report)
    if json_path is not None:
        write_json(json_path, report_dict(corpus.report))  # never a half-written report
        typer.echo(f"report written to {json_path}")


def _warm_ranker(settings) -> dict:
    """The section ranker's memory and section summaries embedded and its classifier fitted now (cached under the
    index), not on the first question: ``{"memory": n, "seconds": s}``, or ``{"skipped": why}``."""
    import time

    from ..resources import Resources

    t0 = time.perf_counter()
    try:
        sr = Resources(settings).section_ranker
    except LegalRagError as exc:
        return {"skipped": f"no section ranker: {exc}"}
    return {"memory": len(sr.memory or ()), "seconds": time.perf_counter() - t0}


@app.command("index")
def index_cmd(
    only: Optional[list[str]] = typer.Option(None, "--only", help="a source name, act or kind (repeatable)"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="show progress bars"),
    json_path: Optional[Path] = typer.Option(None, "--json", help="also write the ingest report as JSON"),
) -> None:
    """Ingest the corpus and build (or incrementally update) the index: unchanged chunks are not embedded again."""
    from ..ingest.corpus import report_dict
    from ..pipeline import build
    from ..rerank.training import ensure_reranker

    try:
        settings = load_settings()
        # the ingest report as soon as the corpus is read, before the embedding and the case base
        report, stats = build(settings, only=only or None, progress=progress, embed_progress=embed_bar(progress),
                              on_report=_print_report)
        # rerank_model = "legal" on a fresh machine: train it now, offline, with a progress bar (~7 min idle)
        ensure_reranker(settings, progress=progress, log_fn=typer.echo)
    except LegalRagError as exc:
        fail(exc)
    ranker = _warm_ranker(settings) if not only else None
    cb = stats.pop("casebase", None)
    sched = stats.pop("schedules", None)
    typer.echo("index: " + ", ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}"
                                     for k, v in sorted(stats.items())))
    if cb and cb.get("skipped"):
        typer.echo(f"case base: {cb['skipped']} (fact patterns are answered from the statute text alone)")
    elif cb:
        how = "opened (built before for the same inputs)" if cb.get("cached") else \
            f"built in {cb.get('seconds', {}).get('total', 0.0):.0f} s"
        typer.echo(f"case base: {cb.get('cases', '?')} judgments, {cb.get('paragraphs', '?')} paragraphs, "
                   f"{cb.get('cites', '?')} section citations; {how}")
    if sched and sched.get("skipped"):
        typer.echo(f"First Schedules: {sched['skipped']} (look-ups show no cognizable/bailable/court)")
    elif sched:
        typer.echo(f"First Schedules: {sched['rows']} offence classification rows (BNSS and CrPC), ready in "
                   f"{sched['seconds']:.1f} s")
    if ranker and ranker.get("skipped"):
        typer.echo(f"section ranker: {ranker['skipped']}")
    elif ranker:
        typer.echo(f"section ranker: memory of {ranker['memory']} questions and section summaries embedded, ready in "
                   f"{ranker['seconds']:.1f} s")
    if json_path is not None:
        write_json(json_path, report_dict(report))


@app.command()
def check() -> None:
    """Check the served index (chunk store, Chroma, bm25s and manifest agree; a canary query answers); print the
    report as JSON (with a ``hint`` on how to build one when there is no index yet) and exit 1 when it is not
    ok."""
    from ..index.check import check_index

    try:
        settings = load_settings()
        from ..ingest import load_manifest

        want = {s.file_name for s in load_manifest(settings.manifest_path) if s.kind in ("statute", "judgment")}
        rep = check_index(settings, embedder="settings", manifest_sources=want)
    except LegalRagError as exc:
        fail(exc)
    out = {"ok": rep.ok, "built": rep.built, "build_id": rep.build_id, "counts": rep.counts, "canary": rep.canary,
           "problems": list(rep.problems), "orphans": list(rep.orphans)}
    if not rep.built:  # ok, but nothing to serve: say how to build it
        out["hint"] = (f"no index yet in {settings.data_dir}: build it with `legal-rag index` (or `make run`, which "
                       f"also opens the chat)")
    typer.echo(json.dumps(out, indent=1))
    if not rep.ok:
        raise typer.Exit(1)


@app.command()
def lookup(text: str = typer.Argument(..., help='a section reference, e.g. "IPC 420" or "BNS 318(4)"')) -> None:
    """Section look-up: the old section, its successor(s) with their text, the table row and change summary.
    Exits 1 (the reason on stderr) when the text names no section that exists: a number beyond the Act ("BNS
    999"), an Act the tables do not cover, or no reference at all; an answer from the table, including "no
    successor" and a number that several Acts have, exits 0."""
    from ..law import format_lookup
    from ..pipeline import Pipeline

    try:
        result = Pipeline(load_settings()).lookup(text)
    except LegalRagError as exc:
        fail(exc)
    if result.status not in ("ok", "ambiguous"):
        fail(format_lookup(result))
    typer.echo(format_lookup(result))


@app.command()
def ask(
    question: str = typer.Argument(...),
    offence_date: Optional[str] = typer.Option(None, "--offence-date", help="YYYY-MM-DD"),
    as_json: bool = typer.Option(False, "--json", help="print the answer as JSON"),
    generator: Optional[str] = typer.Option(None, "--generator", help=" | ".join(get_args(GeneratorName))),
    previous: Optional[Path] = typer.Option(None, "--previous", help="the previous answer of the conversation, as "
                                            "`ask --json` wrote it: a follow-up (\"is it bailable?\") is answered "
                                            "for the provision that governed it"),
) -> None:
    """Answer from the indexed sources with per-passage citations, verification and supersession flags. Without
    ``--previous`` a follow-up says there is no previous question."""
    import datetime as dt

    from ..export import export_answer, turn_of_json
    from ..law import normalise_input
    from ..pipeline import Pipeline

    try:
        when = dt.date.fromisoformat(normalise_input(offence_date)) if offence_date else None
    except ValueError:
        fail(LegalRagError(f"--offence-date must be YYYY-MM-DD, got {offence_date!r}"))
    from ..uploads import local_owner

    try:  # answered from the corpus and the command line's own uploads (`legal-rag uploads add`)
        turn = turn_of_json(previous.read_bytes(), str(previous)) if previous is not None else None
        answer = Pipeline(load_settings()).for_owner(local_owner()).ask(question, offence_date=when,
                                                                         generator=generator, previous=turn)
    except OSError as exc:
        fail(LegalRagError(f"--previous: cannot read {previous}: {exc.strerror or exc}"))
    except LegalRagError as exc:
        fail(exc)
    typer.echo(export_answer(answer, "json" if as_json else "markdown").decode("utf-8"))


@app.command()
def serve() -> None:
    """Open the chat UI on settings.host:settings.port (127.0.0.1:7860 by default; never a public link)."""
    typer.echo("starting the chat UI (loading Gradio and the index; up to a minute on a busy 2-core machine)…",
               err=True)
    from ..ui.app import main as serve_ui  # gradio loads here, not when the CLI starts

    serve_ui()


app.command("export")(export_cmd)
app.command("train-reranker")(train_reranker_command)
app.command("train-ranker")(train_ranker_command)
app.command("train-followup")(train_followup_command)
app.command("search")(search_cmd)
app.command("eval")(eval_cmd)
app.add_typer(uploads_app, name="uploads")

__all__ = ["app"]
