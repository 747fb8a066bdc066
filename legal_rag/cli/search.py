"""``legal-rag search``: ranked passages with act, section, title, page and scores. Holds no logic: it calls
:func:`legal_rag.retrieve.search`. Registered by ``legal_rag.cli`` as ``app.command("search")(search_cmd)``."""

from __future__ import annotations

from typing import Optional

import typer

from ..config import load_settings
from ..errors import LegalRagError
from .common import fail


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
    from ..law import normalise_input
    from ..retrieve import Filters, search

    try:
        settings = load_settings()
        filters = Filters.of({"act": list(act or ()), "code": code, "kind": kind})  # FilterError names a bad value
        index = open_index(settings)
        hits = search(normalise_input(query), index, settings, mode=mode,
                      filters=None if filters.is_empty() else filters, limit=limit)
    except LegalRagError as exc:
        fail(exc)
    if not hits:
        typer.echo("no passage found")
    for h in hits:
        c = h.chunk
        where = f"{c.ref.act} {c.ref.section}" if c.ref else f"{c.case}"
        pages = f"p.{c.pages[0]}" + (f"-{c.pages[1]}" if c.pages[1] != c.pages[0] else "")
        typer.echo(f"{h.rank:>3}. [{h.stage} {h.score:.4f}] {where} — {c.title} ({c.source}, {pages}) id={c.id}")
        typer.echo("     " + " ".join(c.text.split())[:300])


__all__ = ["search_cmd"]
