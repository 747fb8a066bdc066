"""Fixtures of the browser tests: the app served by uvicorn on 127.0.0.1 (free port) in a thread, and Debian's
Chromium (``/usr/bin/chromium``, installed by ``scripts/install_browser.sh``) driven by Playwright, headless, with
background networking off and a fresh profile. No browser is downloaded (``playwright install`` is never run).

``served`` is parametrised by pipeline: ``fake`` (``tests/ui/ui_fake.py``) always; ``real`` (the project's
``Pipeline`` over the built index) is added by tests marked ``slow`` that request it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
ARTIFACTS = ROOT / "test-artifacts"


from browser_helpers import Served, make_settings, serve  # noqa: E402,F401


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def chromium(tmp_path_factory):
    """A Playwright browser context over Debian's Chromium, fresh profile, downloads accepted."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/install_browser.sh (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(CHROMIUM), headless=True,
            args=CHROMIUM_ARGS, accept_downloads=True, viewport={"width": 1400, "height": 1000})
        ctx.set_default_timeout(60_000)
        yield ctx
        ctx.close()


@pytest.fixture(scope="module", params=["fake"])
def served(request, tmp_path_factory):
    """The app over a pipeline (``fake`` unless a test parametrises ``served`` indirectly with ``real``)."""
    from tests.ui.ui_fake import FakePipeline

    if request.param == "real":
        pipeline = request.getfixturevalue("real_pipeline")  # the session's real-corpus index (tests/conftest.py)
        # the server's own files (exports, uploads) in a temporary folder, where Gradio serves files from; the
        # pipeline keeps reading its index from its own settings
        settings = pipeline.settings.model_copy(update={"upload_max_mb": 1,
                                                        "data_dir": tmp_path_factory.mktemp("ui-real")})
    else:
        settings = make_settings(tmp_path_factory.mktemp("ui-data"))
        pipeline = FakePipeline(settings)
    s = serve(settings, pipeline)
    yield s
    s.stop()


@pytest.fixture
def page(chromium, served):
    pg = chromium.new_page()
    pg.goto(served.url + "/")
    pg.wait_for_selector("#lr-question textarea")
    yield pg
    pg.close()


@pytest.fixture
def sized(chromium, served):
    """Pages of the app at the viewport size a test gives (``sized({"width": 390, "height": 844})``), each opened
    and ready for a question; closed after the test."""
    pages = []

    def make(viewport: dict):
        pg = chromium.new_page()
        pg.set_viewport_size(viewport)
        pg.goto(served.url + "/")
        pg.wait_for_selector("#lr-question textarea")
        pages.append(pg)
        return pg

    yield make
    for pg in pages:
        pg.close()
