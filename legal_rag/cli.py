"""Command line: ``legal-rag ingest|search|lookup|ask|eval|export``. Holds no logic of its own: it calls
``pipeline`` and ``export``. A :class:`LegalRagError` becomes one line on stderr and exit code 1."""

from __future__ import annotations

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


if __name__ == "__main__":
    app()
