"""``legal-rag uploads list|add|remove``: the command line's own uploads, or the shared library's (``--shared``).

The command line's owner is the account running it (:func:`legal_rag.uploads.local_owner`), and ``legal-rag ask``
answers it from those uploads; ``--shared`` writes the operator's shared library, which every user of ``serve`` is
answered from when ``uploads_shared = true``. ``--user NAME`` manages a login user's uploads (the operator's
tool, e.g. to remove a document on request).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..config import load_settings
from ..errors import LegalRagError
from .common import fail, print_report

uploads_app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)


def _owner(shared: bool, user: Optional[str]):
    from ..uploads import SHARED_OWNER, Owner, local_owner

    if shared and user:
        fail(LegalRagError("--shared and --user name two owners: give one"))
    return SHARED_OWNER if shared else Owner.of("user", user, user) if user else local_owner()


SHARED_OPT = typer.Option(False, "--shared", help="the operator's shared library")
USER_OPT = typer.Option(None, "--user", help="a login user's uploads")


@uploads_app.command("list")
def list_cmd(shared: bool = SHARED_OPT, user: Optional[str] = USER_OPT) -> None:
    """List the uploads: id, file, pages, what it reads as, when."""
    from ..pipeline import Pipeline

    owner = _owner(shared, user)
    docs = Pipeline(load_settings()).uploads.list(owner)
    for d in docs:
        typer.echo(f"{d.doc_id}  {d.name}  {d.pages} pages  reads as {d.classified}  {d.uploaded}  {d.title}")
    typer.echo(f"{len(docs)} upload(s) of {owner.label}")


@uploads_app.command("add")
def add_cmd(files: list[Path] = typer.Argument(..., help="PDF files"), shared: bool = SHARED_OPT,
            user: Optional[str] = USER_OPT) -> None:
    """Add PDFs (the same reading as the corpus; an Act's print is refused; cited as an uploaded document)."""
    from ..pipeline import Pipeline

    owner = _owner(shared, user)
    pipe = Pipeline(load_settings())
    bad = 0
    for f in files:
        if not f.is_file():
            typer.echo(f"error: {f}: no such file", err=True)
            bad += 1
            continue
        try:
            report, doc = pipe.add_upload(owner, f)
        except LegalRagError as exc:
            fail(exc)
        print_report(report)
        if doc is None:
            bad += 1
        else:
            typer.echo(f"added {doc.doc_id}  {doc.name}  ({doc.chunks} passages) to the uploads of {owner.label}")
    if bad:
        raise typer.Exit(1)


@uploads_app.command("remove")
def remove_cmd(doc_id: str = typer.Argument(..., help="the id `legal-rag uploads list` shows"),
               shared: bool = SHARED_OPT, user: Optional[str] = USER_OPT) -> None:
    """Remove an upload: it is no longer searched, cited or served."""
    from ..pipeline import Pipeline

    owner = _owner(shared, user)
    try:
        doc = Pipeline(load_settings()).remove_upload(owner, doc_id)
    except LegalRagError as exc:
        fail(exc)
    typer.echo(f"removed {doc.doc_id}  {doc.name}")


__all__ = ["uploads_app"]
