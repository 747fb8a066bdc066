"""The chat's own state and judgment citations in Debian's Chromium over the real pipeline (issue 31, kinds 6 and
8), on a laptop (1280x800) and a phone (390x844): an empty Ask after an answer, a too-long question kept in the box
with its reason, "Include judgments" off, and a judgment citation by case name opening at its paragraph. Every wait
is on an observed state; screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from browser_helpers import ask  # noqa: E402  (tests/browser is on sys.path: conftest)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.parametrize("served", ["real"], indirect=True)]

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280x800", "390x844"])
SECTION_Q = "What is the BNS equivalent of IPC 420?"
FORGED_DEED = "The accused cheated the complainant of Rs 5 lakh by a forged sale deed. Which sections apply?"
CIRCUMSTANTIAL = "What did the Supreme Court hold about circumstantial evidence in murder cases?"




def name(viewport: dict) -> str:
    return f"{viewport['width']}x{viewport['height']}"


def no_error_badges(page) -> None:
    assert page.get_by_text("Error", exact=True).count() == 0
    assert page.locator("#lr-chat .error, #lr-citations .error, #lr-banner .error").count() == 0


@SIZES
def test_an_empty_ask_after_an_answer_changes_nothing(sized, served, artifacts, viewport):
    page = sized(viewport)
    ask(page, SECTION_Q)
    chat, banner = page.inner_text("#lr-chat"), page.inner_text("#lr-banner")
    n = page.locator("#lr-chat .message").count()
    note = page.locator("#lr-ask-note")
    page.fill("#lr-question textarea", "")
    page.click("#lr-ask")
    expect(note).to_contain_text("Type a question first.")  # the event's last output has arrived
    no_error_badges(page)
    assert page.locator("#lr-chat .message").count() == n
    assert page.inner_text("#lr-chat") == chat and page.inner_text("#lr-banner") == banner
    # a new answer clears the note; then Enter on a blank box is the same no-op
    ask(page, SECTION_Q)
    expect(note).to_have_text("")
    chat, n = page.inner_text("#lr-chat"), page.locator("#lr-chat .message").count()
    page.fill("#lr-question textarea", "   ")
    page.press("#lr-question textarea", "Enter")
    expect(note).to_contain_text("Type a question first.")
    no_error_badges(page)
    assert page.locator("#lr-chat .message").count() == n and page.inner_text("#lr-chat") == chat
    assert page.inner_text("#lr-banner") == banner and page.locator("#lr-citations .lr-cite").count() >= 1
    page.screenshot(path=str(artifacts / f"empty-ask-{name(viewport)}.png"), full_page=True)


@SIZES
def test_a_too_long_question_stays_in_the_box_with_its_reason(sized, served, artifacts, viewport):
    page = sized(viewport)
    limit = served.settings.question_max_chars
    long_q = "Whether the accused can be convicted of cheating when " * (limit // 40)
    page.fill("#lr-question textarea", long_q)
    page.click("#lr-ask")
    note = page.locator("#lr-ask-note")
    expect(note).to_contain_text(f"the limit is {limit:,} characters")
    assert page.input_value("#lr-question textarea") == long_q  # kept, to be shortened
    no_error_badges(page)
    page.screenshot(path=str(artifacts / f"too-long-kept-{name(viewport)}.png"), full_page=True)
    # shortened and asked: the note goes, no old warning covers the new answer's banner
    ask(page, SECTION_Q)
    expect(note).to_have_text("")
    assert page.locator(".toast-body, .toast-wrap .toast").count() == 0
    assert "IPC 420 → BNS 318(4)" in page.inner_text("#lr-banner")
    assert page.input_value("#lr-question textarea") == ""


@SIZES
def test_include_judgments_off_shows_nothing_from_judgments(sized, served, artifacts, viewport):
    page = sized(viewport)
    page.get_by_label("Include judgments").uncheck()
    ask(page, FORGED_DEED)
    cites, reply = page.inner_text("#lr-citations"), page.locator("#lr-chat .message").last.inner_text()
    assert page.locator("#lr-citations .lr-suggestion").count() >= 1  # suggestions, from the statutes alone
    assert page.locator("#lr-citations .lr-case-link").count() == 0
    assert page.locator('#lr-citations .lr-cite[data-kind="judgment"]').count() == 0
    for shown in (cites, reply, page.inner_text("#lr-banner")):
        assert "judgment" not in shown.lower(), shown[:400]
    page.screenshot(path=str(artifacts / f"judgments-off-{name(viewport)}.png"), full_page=True)


@SIZES
def test_a_judgment_citation_shows_its_case_and_opens_at_its_paragraph(sized, served, artifacts, viewport):
    page = sized(viewport)
    ask(page, CIRCUMSTANTIAL)
    row = page.locator('#lr-citations .lr-cite[data-marker="1"]')
    assert row.get_attribute("data-kind") == "judgment"  # the example: this question is answered from judgments
    link = row.locator(".lr-source-link")
    label = link.inner_text()
    assert re.search(r" v\.? .+, para \d", label), label
    assert not re.search(r"\.(txt|pdf)\b", row.inner_text() + page.inner_text("#lr-chat")), row.inner_text()
    href = link.get_attribute("href")
    assert re.fullmatch(r"/case/[^#]+#para-[\w.]+", href), href
    with page.expect_popup() as pop:
        link.click()
    popup = pop.value
    popup.set_viewport_size(viewport)
    popup.wait_for_load_state()
    anchor = urlparse(popup.url).fragment
    target = popup.locator(f'[id="{anchor}"]')
    expect(target).to_be_visible()
    number = anchor[len("para-"):]
    assert target.locator(".lr-para-no").inner_text() == number
    # opened at the paragraph, not at the top: the paragraph starts inside the window
    popup.wait_for_function(f"""() => {{ const r = document.getElementById({anchor!r}).getBoundingClientRect();
        return r.top >= -2 && r.top < window.innerHeight; }}""")
    assert popup.evaluate("window.scrollY") > 0  # the page was scrolled to it (the title and earlier paragraphs above)
    assert not re.search(r"\.(txt|pdf)\b", popup.inner_text("h1") + popup.inner_text("body > div"))
    popup.screenshot(path=str(artifacts / f"judgment-at-para-{name(viewport)}.png"))
    popup.close()
    # the Source tab names it by its citation too
    page.get_by_role("tab", name="Source").click()
    view = page.locator("#lr-source-view")
    expect(view).to_contain_text("open the judgment at para")
    assert not re.search(r"\.(txt|pdf)\b", view.inner_text())
    assert view.locator("iframe").get_attribute("src") == href
