"""The browser face: :mod:`.app` (Gradio UI, ``/source`` and the JSON API on FastAPI; ``create_app``,
``create_server``, ``main``) and :mod:`.html` (escaped-HTML presentation helpers). Only this package imports
``gradio`` and ``fastapi``; importing ``legal_rag.ui`` alone imports neither (``legal_rag.ui.app`` does)."""
