"""Phone layout (issue 31, kind 7), in Chromium over the real pipeline, at a desktop size (1280x800) and a phone
size (390x844):

1. every column of the citation table can be read without the page scrolling sideways (on a phone each citation is
   a stacked card, each field labelled with its column head; on a desktop it stays a table);
2. the supersession banner follows the answer: on a phone above the question box and the filter form, on a
   desktop beside the answer, in the right-hand column;
3. the Section look-up's tables wrap their words: no cell overflows (scrollWidth <= clientWidth), no ordinary word
   is broken across lines, nothing lies off the right edge.

Layout facts are asserted from element boxes. Screenshots go to ``$LEGAL_RAG_SHOTS`` (default
``/tmp/legal_rag-phone``) for a person to look at; they are never committed."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from browser_helpers import ask  # noqa: E402  (tests/browser is on sys.path: conftest)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
#: a question that names a repealed section, so the answer has a supersession banner (IPC 506 -> BNS 351)
QUESTION = "What is the punishment for criminal intimidation under IPC 506?"
#: a section with a long text, several correspondence rows and First Schedule rows
LONG_SECTION = "BNS 318(4)"
SHOTS = Path(os.environ.get("LEGAL_RAG_SHOTS") or Path(tempfile.gettempdir()) / "legal_rag-phone")

PAGE_WIDTH = "[document.documentElement.scrollWidth, window.innerWidth]"




def shot(page, name: str, viewport: dict, full_page: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{viewport['width']}x{viewport['height']}.png"), full_page=full_page)


def box(locator) -> dict:
    b = locator.bounding_box()
    assert b is not None, f"{locator} is not displayed"
    return b


def assert_page_fits(page) -> None:
    scroll, inner = page.evaluate(PAGE_WIDTH)
    assert scroll <= inner, f"the page itself scrolls sideways: {scroll}px wide in a {inner}px window"


def assert_across_in_view(b: dict, viewport: dict, what: str) -> None:
    """The box lies within the viewport from left to right (a page scrolled down is fine, sideways is not)."""
    assert b["x"] >= -0.5 and b["x"] + b["width"] <= viewport["width"] + 0.5, (what, b)


#: per cell of a table: its column head as shown on screen (the th, or on a phone the label drawn before the cell)
CELL_LABELS = """rows => rows.map(tr => [...tr.querySelectorAll('td')].map(td => {
    const before = getComputedStyle(td, '::before').content;
    return before && before !== 'none' ? JSON.parse(before) : null; }))"""


@SIZES
@pytest.mark.parametrize("served", ["real"], indirect=True)
def test_citation_table_reachable_and_banner_after_answer(sized, served, viewport):
    page = sized(viewport)
    ask(page, QUESTION)
    page.wait_for_selector("#lr-banner .lr-banner")  # a repealed section named: the banner is drawn
    rows = page.locator("#lr-citations tr.lr-cite")
    assert rows.count() >= 1
    shot(page, "phone-layout-ask", viewport)
    assert_page_fits(page)

    # 1. the source, quote and Check cells of every citation lie within the screen, each with its text
    heads = [h.strip() for h in page.locator("#lr-citations th").all_inner_texts()]
    phone = viewport is PHONE
    labels = page.locator("#lr-citations tr.lr-cite").evaluate_all(CELL_LABELS)
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        for name in ("Source (page)", "Quoted passage", "Check"):
            cell = cells.nth(heads.index(name))
            cell.scroll_into_view_if_needed()
            assert_across_in_view(box(cell), viewport, (i, name))
            assert cell.inner_text().strip(), (i, name)
        if phone:  # a card: each field labelled with its column head, the fields one under another
            assert labels[i] == ["Citation", *heads[1:]], labels[i]
            quote, check = box(cells.nth(heads.index("Quoted passage"))), box(cells.nth(heads.index("Check")))
            assert quote["y"] + quote["height"] <= check["y"] + 0.5, (quote, check)
        else:  # a table: no labels drawn, the cells side by side
            assert labels[i] == [None] * len(heads), labels[i]
            quote, check = box(cells.nth(heads.index("Quoted passage"))), box(cells.nth(heads.index("Check")))
            assert quote["x"] + quote["width"] <= check["x"] + 0.5 and abs(quote["y"] - check["y"]) < 1, (quote, check)
    page.evaluate("window.scrollTo(0, 0)")

    # 2. the banner follows the answer
    answer = box(page.locator("#lr-chat .message.bot").last)
    chat, banner = box(page.locator("#lr-chat")), box(page.locator("#lr-banner"))
    question, filters = box(page.locator("#lr-question-row")), box(page.locator("#lr-filters"))
    if phone:  # one column: answer, banner, question box, filter form, the banner full width
        assert answer["y"] + answer["height"] <= chat["y"] + chat["height"] <= banner["y"] + 0.5, (chat, banner)
        assert banner["y"] + banner["height"] <= question["y"] + 0.5, (banner, question)
        assert question["y"] + question["height"] <= filters["y"] + 0.5, (question, filters)
        assert_across_in_view(banner, viewport, "banner")
        assert banner["width"] >= viewport["width"] * 0.8, banner
    else:  # two columns: the banner beside the answer, above the fold, the filters under the question box
        assert banner["x"] >= chat["x"] + chat["width"], (chat, banner)
        assert banner["y"] < viewport["height"] and banner["y"] <= answer["y"] + answer["height"], (banner, answer)
        assert question["y"] + question["height"] <= filters["y"] + 0.5, (question, filters)
    if phone:  # the screenshot a person looks at: the answer and the banner under it, then the first card
        shot(page, "phone-layout-top", viewport, full_page=False)
        rows.first.scroll_into_view_if_needed()
        shot(page, "phone-layout-first-card", viewport, full_page=False)


#: every element of the look-up output wider inside than its box ([tag, text, scrollWidth, clientWidth]); a table's
#: head row hidden on a phone (a 1-pixel box kept for screen readers: the cards label their fields) is left out
OVERFLOWING = """root => [root, ...root.querySelectorAll('*')]
    .filter(e => !(e.closest('thead') && e.closest('thead').getBoundingClientRect().width <= 1))
    .filter(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)
    .map(e => [e.tagName, e.textContent.slice(0, 60), e.scrollWidth, e.clientWidth])"""

#: every ordinary word (letters only) of a look-up table cell that is drawn on more than one line
BROKEN_WORDS = """root => { const out = [];
    for (const td of root.querySelectorAll('table td')) {
        const walk = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        for (let node = walk.nextNode(); node; node = walk.nextNode()) {
            for (const m of node.data.matchAll(/(?<![\\w#.])[A-Za-z]{2,}(?![\\w#])/g)) {
                const r = document.createRange();
                r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
                const lines = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
                if (lines.size > 1) out.push(m[0]);
            } } }
    return out; }"""


@SIZES
@pytest.mark.parametrize("served", ["real"], indirect=True)
def test_section_lookup_tables_wrap_words(sized, served, viewport):
    page = sized(viewport)
    page.get_by_role("tab", name="Section look-up").click()
    page.fill("#lr-lookup-input textarea", LONG_SECTION)
    page.click("#lr-lookup-btn")
    page.wait_for_selector("#lr-lookup-out .lr-lookup")
    out = page.locator("#lr-lookup-out")
    assert out.locator("table.lr-rows:not(.lr-classification) td").count() >= 5  # a correspondence row
    assert out.locator("table.lr-classification td").count() >= 7  # and a First Schedule row
    assert out.locator("pre.lr-text").count() >= 2  # the section and its counterpart, side by side
    shot(page, "phone-layout-lookup", viewport)
    assert_page_fits(page)
    assert out.evaluate(OVERFLOWING) == []
    assert out.evaluate(BROKEN_WORDS) == []
    cells = out.locator("table td, pre.lr-text")
    for i in range(cells.count()):
        assert_across_in_view(box(cells.nth(i)), viewport, cells.nth(i).inner_text()[:60])
    if viewport is PHONE:  # each look-up row a card whose fields are labelled with their column heads
        for table in out.locator("table.lr-rows").all():
            heads = [h.strip() for h in table.locator("th").all_inner_texts()]
            for labels in table.locator("tbody tr").evaluate_all(CELL_LABELS):
                assert labels == heads, (labels, heads)


#: the question box's placeholder: its rendered width and the width the box gives it on one line, and its lines
PLACEHOLDER_FIT = """() => {
  const t = document.querySelector('#lr-question textarea');
  const cs = getComputedStyle(t);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = cs.font;
  const avail = t.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const lines = (t.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom)) / parseFloat(cs.lineHeight);
  return [ctx.measureText(t.placeholder).width, avail, lines, t.placeholder];
}"""


@SIZES
def test_the_question_box_shows_its_whole_placeholder(sized, viewport):
    """The example question in the empty box is read whole: it fits the lines the box shows (a textarea wraps its
    placeholder, so a phone's narrow box needs as many lines as the words take)."""
    page = sized(viewport)
    width, avail, lines, text = page.evaluate(PLACEHOLDER_FIT)
    assert text, "no placeholder"
    assert width <= avail * max(1, int(lines + 0.01)), (text, width, avail, lines)
