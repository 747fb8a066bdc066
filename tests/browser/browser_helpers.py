"""Helpers of the browser tests (importable by name, unlike ``conftest``, whose module name every test folder
shares): the app served by uvicorn on 127.0.0.1 and a free port in a thread, and test settings."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Served:
    url: str
    pipeline: object
    settings: object
    server: object
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(settings, pipeline) -> Served:
    """Start ``app.create_server`` on 127.0.0.1 and a free port; returns when it accepts connections."""
    import uvicorn

    import app as app_module

    port = _free_port()
    api = app_module.create_server(settings, pipeline)
    server = uvicorn.Server(uvicorn.Config(api, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 300  # a hang guard sized for a loaded 2-core machine, never a verdict on speed
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the UI server did not start")
        time.sleep(0.1)
    return Served(f"http://127.0.0.1:{port}", pipeline, settings, server, thread)


def make_settings(tmp: Path, **kw):
    from legal_rag.config import load_settings

    return load_settings(data_dir=tmp, upload_max_mb=1, **kw)


def ask(page, question: str, date: str = "") -> None:
    """Ask ``question`` in the Ask tab (the offence-date field set to ``date``, cleared when empty) and wait for
    the observed end of the answer: two new chat messages, the citation panel filled and the exports enabled."""
    page.get_by_role("tab", name="Ask").click()
    page.fill("#lr-date textarea, #lr-date input", date)
    before = page.locator("#lr-chat .message").count()
    page.fill("#lr-question textarea", question)
    page.click("#lr-ask")
    page.wait_for_function(f"document.querySelectorAll('#lr-chat .message').length >= {before + 2}")
    page.wait_for_selector("#lr-citations .lr-cite, #lr-citations .lr-empty")
    page.wait_for_selector("#lr-export-json:not([disabled])")
