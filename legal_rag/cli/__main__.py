"""``python -m legal_rag.cli <command>``: the same as the ``legal-rag`` console script."""

from . import app

app()
