"""What every command module shares: one-line errors, atomic JSON writes and the embedding progress bar.

Command modules import this module, never ``legal_rag.cli`` itself (so there is no circle inside ``cli/``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import typer


def fail(message: object) -> NoReturn:
    """Print ``error: <message>`` on stderr and exit with code 1 (a :class:`~legal_rag.errors.LegalRagError` is
    passed as is; anything else is a bug and keeps its traceback)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(1)


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as indented UTF-8 JSON to ``path`` through a temporary file and ``os.replace``, so a reader
    never sees a half-written file."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def embed_bar(enabled: bool = True) -> Callable[[int, int], None] | None:
    """A ``progress(done, total)`` callback drawing a tqdm bar for chunks embedded (the shape
    :func:`legal_rag.index.build_index` calls); ``None`` when ``enabled`` is false."""
    if not enabled:
        return None
    from tqdm import tqdm

    state: dict = {}

    def update(done: int, total: int) -> None:
        if "bar" not in state:
            state["bar"] = tqdm(total=total, desc="embedding chunks", unit="chunk")
        state["bar"].n = done
        state["bar"].refresh()
        if done >= total:
            state["bar"].close()

    return update


def decision_lines(report, top: int = 8) -> list[str]:
    """The court decisions of an ingest report in a few lines: per source holding many, decisions read, taken and
    skipped with each reason; then the decisions taken by court (the ``top`` first, the rest summed), by year and by
    form (judgment / order)."""
    facets: dict[str, list[tuple[str, int]]] = {}
    for facet, value, n in getattr(report, "counts", ()):
        facets.setdefault(facet, []).append((value, n))
    taken = dict(facets.get("source", []))
    lines = []
    for source, n in facets.get("read", []):
        lines.append(f"decisions {source}: read {n}, taken {taken.get(source, 0)}")
        lines += [f"  skipped {k}: {reason}" for s, reason, k in getattr(report, "skipped", ()) if s == source]
    for facet, label in (("court", "court"), ("year", "year"), ("decision", "form")):
        values = facets.get(facet, [])
        if facet == "year":  # newest first, undated last
            values = sorted(values, key=lambda kv: (not kv[0].isdigit(), -int(kv[0]) if kv[0].isdigit() else 0))
        shown = values[:top] if facet == "court" else values
        rest = sum(n for _, n in values[len(shown):])
        if values:
            lines.append(f"decisions by {label}: " + ", ".join(f"{v} {n}" for v, n in shown)
                         + (f", {len(values) - len(shown)} more {rest}" if rest else ""))
    return lines


def print_report(report) -> None:
    """An ingest report on stdout: counts, sections per Act, every warning and error, failed files."""
    typer.echo(f"files: {len(report.files)}  pages: {report.pages}  judgments: {report.judgments}  "
               + (f"other documents: {report.documents}  " if report.documents else "")
               + f"paragraphs: {report.paragraphs}  failed: {len(report.failed)}")
    for act, n in report.sections:
        typer.echo(f"sections {act}: {n}")
    for p in report.problems:  # Schedules, forms, appendices: no section's text, not indexed
        if p.kind == "set_apart":
            typer.echo(f"set apart {p.source}: {p.message}")
    for line in decision_lines(report):
        typer.echo(line)
    by_sev: dict[str, int] = {}
    for p in report.problems:
        by_sev[p.severity] = by_sev.get(p.severity, 0) + 1
        if p.severity != "info":
            typer.echo(str(p))
    typer.echo("problems: " + (", ".join(f"{k} {v}" for k, v in sorted(by_sev.items())) or "none"))
    for f in report.failed:
        typer.echo(f"failed: {f}")
