"""Shim: the UI lives in :mod:`legal_rag.ui.app`; ``python app.py`` serves it and ``import app`` gives its names."""
from legal_rag.ui.app import AskRequest, create_app, create_server, main  # noqa: F401

if __name__ == "__main__":
    main()
