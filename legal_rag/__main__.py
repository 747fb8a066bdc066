"""``python -m legal_rag <command>``: the same as the ``legal-rag`` console script."""

from .cli import app

app()
