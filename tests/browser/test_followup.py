"""Issue 31 in Chromium over the real pipeline, on a desktop (1366x768) and a phone (390x844): a fact pattern, then a
follow-up answered for the provision that governed it (with its classification); the chat's Clear button, then the
same follow-up says there is no previous question. Screenshots go to ``test-artifacts/`` (gitignored)."""

from __future__ import annotations

import pytest
from browser_helpers import ask, serve  # noqa: E402  (tests/browser is on sys.path: conftest)

from legal_rag.law import NO_PREVIOUS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FACT = ("A man took Rs 2 lakh from my neighbour promising him a railway job, then switched off his phone and "
        "vanished. What offence is this?")
FOLLOW = "Is that bailable, and which court tries it?"
SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def served(real_pipeline, tmp_path_factory):
    """The app over the real pipeline, its export files in a temporary folder (Gradio serves files only from the
    working directory or the system's temporary one; the test index may lie elsewhere, through a link)."""
    s = serve(real_pipeline.settings.model_copy(update={"data_dir": tmp_path_factory.mktemp("followup-ui")}),
              real_pipeline)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def governing(served) -> str:
    """The provision that governs the fact pattern's answer (its head), as the pipeline reads it."""
    head = served.pipeline.ask(FACT).head
    assert head, "the fact pattern has no governing provision"
    return str(head[0].ref)


def last_reply(page) -> str:
    return page.locator("#lr-chat .message").last.inner_text()


@pytest.mark.parametrize("size", list(SIZES))
def test_follow_up_then_clear(chromium, served, governing, size, artifacts):
    page = chromium.new_page()
    try:
        page.set_viewport_size(SIZES[size])
        page.goto(served.url + "/")
        page.wait_for_selector("#lr-question textarea")
        ask(page, FACT)
        ask(page, FOLLOW)
        reply = last_reply(page)
        assert reply.startswith(f"Taking this as a question about {governing}, from your previous question:"), reply
        assert "triable by" in reply and "bailable" in reply
        page.screenshot(path=str(artifacts / f"followup-{size}.png"), full_page=True)

        clear = page.locator("#lr-chat").get_by_role("button", name="Clear")
        assert clear.is_visible()
        clear.click()
        page.wait_for_function("document.querySelectorAll('#lr-chat .message').length === 0")
        page.wait_for_selector("#lr-export-json[disabled]")  # the cleared answer's exports go with it
        ask(page, FOLLOW)
        reply = last_reply(page)
        assert reply.startswith(NO_PREVIOUS), reply
        assert "Taking this as a question about" not in reply
        assert page.locator("#lr-chat .message.user").count() == 1  # only the question asked after Clear
        page.screenshot(path=str(artifacts / f"followup-cleared-{size}.png"), full_page=True)
    finally:
        page.close()
