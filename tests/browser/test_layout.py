"""The chat UI on a laptop (1366x768) and a phone (390x844), and user text shown as text (issue 16, kind 6;
BL-62, BL-64). Layout facts are asserted from element boxes; screenshots at both sizes go to ``test-artifacts/``
(gitignored) for a person to look at."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect
from browser_helpers import ask  # noqa: E402  (tests/browser is on sys.path: conftest)

pytestmark = pytest.mark.browser

SECTION_Q = "What is the BNS equivalent of IPC 420?"
EVIL = "<img src=x onerror=alert(1)> **bold**"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def box(page, selector: str) -> dict:
    b = page.locator(selector).first.bounding_box()
    assert b is not None, f"{selector} is not displayed"
    return b


def in_view(b: dict, viewport: dict) -> bool:
    """The box starts inside the viewport and a useful part of it can be read there: its top-left corner and at
    least 60 px of it (or all of it, if smaller) across and down are on screen without scrolling."""
    w, h = min(b["width"], 60), min(b["height"], 20)
    return -2 <= b["x"] and b["x"] + w <= viewport["width"] + 1 and -2 <= b["y"] and b["y"] + h <= viewport["height"] + 1




#: how far the chat's own boxes can scroll inside themselves (0: the chat grows with its answers)
#: true once the page has done what it does after an answer (ui.app.SHOW_NEWEST_JS): with more than one question,
#: the newest is scrolled to 8 px below the top, unless the page is too short to scroll that far
NEWEST_SHOWN = """() => { const asked = document.querySelectorAll('#lr-chat .message.user');
    if (asked.length <= 1) return true;
    const top = asked[asked.length - 1].getBoundingClientRect().top;
    return Math.abs(top - 8) <= 2 || window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1; }"""


def wait_shown(page) -> None:
    """Wait for the observed end of the after-answer scroll (never a fixed pause; Playwright's timeout is the hang
    guard)."""
    page.wait_for_function(NEWEST_SHOWN)


CHAT_INNER_SCROLL = """() => { const els = [document.querySelector('#lr-chat'), ...document.querySelectorAll('#lr-chat *')];
    return Math.max(0, ...els.map(e => (getComputedStyle(e).overflowY.match(/auto|scroll|hidden/) ?
                                        e.scrollHeight - e.clientHeight : 0))); }"""


def check_laptop(page, artifacts, name: str) -> None:
    for turn, question in enumerate((SECTION_Q, "And what is the punishment under IPC 420?")):
        ask(page, question)
        wait_shown(page)  # the page brings the newest question to the top after the answer
        page.screenshot(path=str(artifacts / f"{name}-1366x768-turn{turn + 1}.png"))
        asked = box(page, "#lr-chat .message.user >> nth=-1")
        answer = box(page, "#lr-chat .message.bot >> nth=-1")
        assert in_view(asked, LAPTOP) and in_view(answer, LAPTOP), (turn, asked, answer)  # the newest answer
        first_row = box(page, "#lr-citations .lr-cite")
        assert in_view(first_row, LAPTOP), (turn, first_row)  # and its citations, beside it
        assert in_view(box(page, "#lr-export-docx"), LAPTOP), turn  # and the export buttons
        if turn == 0:
            assert page.evaluate("window.scrollY") == 0  # the first answer needs no scrolling at all
        inner = page.evaluate(CHAT_INNER_SCROLL)
        assert inner <= 2, f"the chat scrolls inside a box of its own by {inner}px (the newest answer is hidden)"


def check_phone(page, artifacts, name: str) -> None:
    ask(page, SECTION_Q)
    wait_shown(page)
    page.screenshot(path=str(artifacts / f"{name}-390x844-full.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the page itself is {width}px wide on a 390px screen"
    heads = [h.strip() for h in page.locator("#lr-citations th").all_inner_texts()]
    row = page.locator("#lr-citations tr.lr-cite").first
    for label in ("Source (page)", "Quoted passage", "Check"):
        # a stacked card on a phone (issue 31): each cell within the screen, under the label of its column
        cell = row.locator("td").nth(heads.index(label))
        cell.scroll_into_view_if_needed()
        b = cell.bounding_box()
        assert b and b["x"] >= -1 and b["x"] + b["width"] <= PHONE["width"] + 1, (label, b)
        assert cell.inner_text().strip(), label  # the cell has its text
        shown = cell.evaluate("td => getComputedStyle(td, '::before').content")
        assert shown == f'"{label}"', (label, shown)
    page.locator("#lr-citations tr.lr-cite").first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"{name}-390x844-citations-scrolled.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page itself is {width}px wide on a 390px screen"


def test_laptop_shows_answer_citations_and_exports_without_scrolling(sized, artifacts):
    check_laptop(sized(LAPTOP), artifacts, "layout")


def test_phone_reaches_every_citation_column(sized, artifacts):
    check_phone(sized(PHONE), artifacts, "layout")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_user_text_is_shown_as_text(sized, artifacts, viewport):
    page = sized(viewport)
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    ask(page, f"{EVIL} {SECTION_Q}")
    chat = page.locator("#lr-chat")
    assert chat.locator("img[src=x], strong, b").count() == 0
    assert f"{EVIL} {SECTION_Q}" in chat.inner_text()
    page.fill("#lr-date textarea, #lr-date input", EVIL)
    page.fill("#lr-question textarea", SECTION_Q)
    page.click("#lr-ask")
    expect(chat).to_contain_text(f"'{EVIL}' is not a date")  # waits for the refusal to be drawn, then:
    assert page.locator("img[src=x]").count() == 0 and page.locator("#lr-chat strong").count() == 0
    assert not dialogs
    page.screenshot(path=str(artifacts / f"escaping-{viewport['width']}x{viewport['height']}.png"))


def test_length_limit_is_stated_and_enforced(sized, served):
    page = sized(LAPTOP)
    limit = served.settings.question_max_chars
    assert f"At most {limit:,} characters." in page.inner_text("#lr-question")
    n = len(getattr(served.pipeline, "calls", []))
    page.fill("#lr-question textarea", "What is cheating? " * (limit // 10))
    page.click("#lr-ask")
    refusal = page.locator("#lr-chat .message").last
    expect(refusal).to_contain_text(f"the limit is {limit:,} characters")
    assert len(getattr(served.pipeline, "calls", [])) == n
    # the question is shown cut (with its length), so the refusal is in sight without scrolling (issue 16 (b))
    assert "not asked: the limit is" in page.locator("#lr-chat").inner_text()
    box = refusal.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= LAPTOP["height"], box


def test_an_error_clears_the_previous_answers_exports(sized):
    page = sized(LAPTOP)
    ask(page, SECTION_Q)
    assert page.locator("#lr-export-json:not([disabled])").count() == 1
    page.fill("#lr-date textarea, #lr-date input", "20/06/2024")
    page.fill("#lr-question textarea", SECTION_Q)
    before = page.locator("#lr-chat .message").count()
    page.click("#lr-ask")
    try:  # hang guard only: a click landing while the previous answer's event chain still settles is dropped
        page.wait_for_function(f"document.querySelectorAll('#lr-chat .message').length >= {before + 2}",
                               timeout=20_000)
    except PlaywrightTimeout:
        page.click("#lr-ask")
    page.wait_for_selector("#lr-export-json[disabled]")
    assert page.locator("#lr-citations .lr-cite").count() == 0
    last = page.locator("#lr-chat .message").last.inner_text()
    assert "is not a date" in last  # never an empty reply


def test_the_135m_test_model_is_not_offered(chromium, tmp_path_factory):
    from browser_helpers import make_settings, serve
    from tests.ui.ui_fake import FakePipeline

    settings = make_settings(tmp_path_factory.mktemp("gen"))
    s = serve(settings, FakePipeline(settings, generators=("extractive", "transformers")))
    pg = chromium.new_page()
    try:
        pg.goto(s.url + "/")
        pg.wait_for_selector("#lr-question textarea")
        assert not pg.locator("#lr-generator").is_visible()
        assert "transformers" not in pg.content()
    finally:
        pg.close()
        s.stop()


@pytest.mark.slow
@pytest.mark.parametrize("served", ["real"], indirect=True)
def test_real_answer_on_a_laptop_and_a_phone(sized, served, artifacts):
    """The same layout facts over the real pipeline (a real answer's citation table is wider and longer)."""
    check_laptop(sized(LAPTOP), artifacts, "real-layout")
    check_phone(sized(PHONE), artifacts, "real-layout")


@pytest.mark.slow
@pytest.mark.parametrize("served", ["real"], indirect=True)
def test_real_codes_filter_in_the_browser(sized, served, artifacts):
    """BL-53 end to end: the Codes radio set to "new" in Chromium, the real pipeline, only new-code citations."""
    page = sized(LAPTOP)
    page.get_by_label("new", exact=True).check()
    ask(page, "What is the punishment for cheating?")
    acts = [page.locator("#lr-citations tr.lr-cite").nth(i).locator("td").nth(1).inner_text().strip()
            for i in range(page.locator("#lr-citations tr.lr-cite").count())]
    assert acts and set(acts) <= {"BNS", "BNSS", "BSA"}, acts
    assert "No answer" not in page.locator("#lr-chat .message").last.inner_text()
    page.screenshot(path=str(artifacts / "real-codes-new-1366x768.png"))
