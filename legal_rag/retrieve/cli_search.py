"""``legal-rag search`` and ``legal-rag eval`` as plain typer commands; cli.py registers them with
``app.command("search")(search_cmd)`` and ``app.command("eval")(eval_cmd)``. A :class:`LegalRagError` becomes one
line on stderr and exit code 1."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..config import load_settings
from ..errors import LegalRagError


def _fail(exc: LegalRagError) -> None:
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(1)


def search_cmd(
    query: str = typer.Argument(..., help='e.g. "IPC 420" or "punishment for cheating"'),
    limit: int = typer.Option(10, "--limit", "-n", help="passages to print"),
    mode: str = typer.Option("hybrid", help="hybrid | dense | sparse"),
    act: Optional[list[str]] = typer.Option(None, "--act", help="filter: IPC, BNS, ... (repeatable)"),
    code: Optional[str] = typer.Option(None, help="filter: old | new"),
    kind: Optional[str] = typer.Option(None, help="filter: statute | judgment"),
) -> None:
    """Print ranked passages with act, section, title, page and scores."""
    from ..index import open_index
    from .search import search

    try:
        settings = load_settings()
        index = open_index(settings)
        filters = {k: v for k, v in (("act", tuple(act or ())), ("code", code), ("kind", kind)) if v}
        hits = search(query, index, settings, mode=mode, filters=filters or None, limit=limit)
    except LegalRagError as exc:
        _fail(exc)
    if not hits:
        typer.echo("no passage found")
    for h in hits:
        c = h.chunk
        where = f"{c.ref.act} {c.ref.section}" if c.ref else f"{c.case}"
        pages = f"p.{c.pages[0]}" + (f"-{c.pages[1]}" if c.pages[1] != c.pages[0] else "")
        typer.echo(f"{h.rank:>3}. [{h.stage} {h.score:.4f}] {where} — {c.title} ({c.source}, {pages}) id={c.id}")
        typer.echo("     " + " ".join(c.text.split())[:300])


def eval_cmd(
    task: str = typer.Argument("task2", help="task2 | task1 | bns | dev"),
    work: Path = typer.Option(None, help="directory for evaluation indexes (default: <data_dir>/eval)"),
    task1_chunks: int = typer.Option(1, help="Task 1: judgment chunks embedded per document"),
) -> None:
    """Run an evaluation and print its table (AILA 2019 beside the best 2019 runs; the dev set)."""
    from ..config import Settings
    from ..eval.aila import format_table
    from ..eval.runners import (build_aila_statutes, load_devset, run_bns_variant, run_devset, run_task1,
                                run_task2)

    try:
        s = load_settings()
        root = Path(work) if work else Path(s.data_dir) / "eval"
        sub = lambda name: Settings(**{**s.model_dump(), "data_dir": root / name})  # noqa: E731
        if task == "task2":
            idx = build_aila_statutes(sub("aila_task2"))
            typer.echo(format_table(run_task2(idx, sub("aila_task2"))))
        elif task == "task1":
            res, _ = run_task1(sub("aila_task1"), dense_chunks_per_doc=task1_chunks, log=typer.echo)
            typer.echo(format_table(res))
        elif task in ("bns", "dev"):
            from ..eval.acts import load_sections
            from ..index import Embedder, build_index
            from ..ingest.chunk import chunk_section

            sa = sub("acts")
            emb = Embedder.from_settings(sa)
            secs, origin = load_sections(s)
            chunks = [c for x in secs for c in chunk_section(x, emb, chunk_tokens=sa.chunk_tokens,
                                                             overlap=sa.chunk_overlap)]
            idx = build_index(chunks, sa, embedder=emb)
            typer.echo(f"sections from {origin}: {len(secs)}; chunks {len(chunks)}")
            if task == "bns":
                typer.echo(format_table(run_bns_variant(idx, sa)))
            else:
                path = Path(__file__).resolve().parents[2] / "bench" / "devset.jsonl"
                for mode, m in run_devset(idx, sa, path).items():
                    typer.echo(f"{mode}: " + ", ".join(f"{k} {v:.3f}" for k, v in m.items()) + f" ({len(load_devset(path))} questions)")
        else:
            raise typer.BadParameter(f"unknown task {task!r}")
    except LegalRagError as exc:
        _fail(exc)
