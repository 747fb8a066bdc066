"""``legal-rag export``: ask a question (or read an exported JSON answer) and write it in any export format.

Registered by ``legal_rag.cli`` with ``app.command("export")(export)``. Holds no logic: it calls
``Pipeline.ask`` and :mod:`legal_rag.export`.

    legal-rag export "What is the BNS equivalent of IPC 420?" -f bibtex -o answer.bib
    legal-rag export "..." -f all -o exports/          # every format into a directory
    legal-rag export --from-json answer.json -f docx -o answer.docx
"""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path
from typing import Optional

import typer

from ..errors import LegalRagError
from ..export import FORMATS, build_doc, doc_from_json, export_doc, get_format, write_exports
from .common import fail


def export(
    question: Optional[str] = typer.Argument(None, help="the question to answer and export"),
    fmt: str = typer.Option("markdown", "--format", "-f",
                            help=f"one of {', '.join(FORMATS)}, or 'all' (needs --out DIR)"),
    out_arg: Optional[str] = typer.Option(None, "--out", "-o", help="file, or directory (an existing one, or a name "
                                          "ending in '/'; needed for 'all'); stdout if absent"),
    from_json: Optional[Path] = typer.Option(None, "--from-json", help="re-export a JSON answer written earlier"),
    offence_date: Optional[str] = typer.Option(None, "--offence-date", help="YYYY-MM-DD; decides IPC vs BNS"),
    include_unverified: bool = typer.Option(False, "--include-unverified",
                                            help="also export citations that verification did not support"),
) -> None:
    """Export an answer with its footnoted citations (Indian style) and supersession notes."""
    out = Path(out_arg) if out_arg else None
    # "-o exports/" names a directory even before it exists (a Path forgets the trailing slash)
    into_dir = out is not None and (out.is_dir() or out_arg.endswith(("/", os.sep)))
    try:
        if (question is None) == (from_json is None):
            fail("give either a QUESTION or --from-json FILE")
        if from_json is not None:
            try:
                doc = doc_from_json(from_json.read_text(encoding="utf-8"), str(from_json))
            except OSError as exc:
                raise LegalRagError(f"{from_json}: {exc.strerror}") from None
        else:
            from ..config import load_settings
            from ..law import normalise_input
            from ..pipeline import Pipeline

            try:
                when = dt.date.fromisoformat(normalise_input(offence_date)) if offence_date else None
            except ValueError:
                raise LegalRagError(f"--offence-date {offence_date!r} is not a date (YYYY-MM-DD)") from None
            answer = Pipeline(load_settings()).ask(question, offence_date=when)
            doc = build_doc(answer, include_unverified)
        if fmt == "all":
            if out is None:
                fail("--format all needs --out DIRECTORY")
            for name, path in write_exports(doc, out).items():
                typer.echo(f"{name}: {path}")
            return
        if into_dir:  # "-o exports/" with one format: the file goes inside, as with all
            for name, path in write_exports(doc, out, formats=(get_format(fmt).name,)).items():
                typer.echo(f"{name}: {path}")
            return
        data = export_doc(doc, get_format(fmt).name)
        if out is not None:
            try:
                out.write_bytes(data)
            except OSError as exc:
                raise LegalRagError(f"--out {out}: {exc.strerror}") from None
            typer.echo(f"{get_format(fmt).name}: {out}")
        elif get_format(fmt).name == "docx":
            fail("docx is binary: give --out FILE")
        else:
            sys.stdout.buffer.write(data)
    except LegalRagError as exc:
        fail(str(exc))


__all__ = ["export"]
