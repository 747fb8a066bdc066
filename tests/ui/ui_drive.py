"""Drive the chat UI's own event handlers (the functions Gradio calls when a control is used) without a browser, so a
test sends exactly what the UI sends -- the Codes radio's value, the Acts picked, the judgments toggle -- through
the UI code to a pipeline (the fake of ``ui_fake.py`` or the real ``Pipeline``). The browser tests in
``tests/browser`` drive the same handlers through Chromium."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from legal_rag.export import FORMATS


def handlers(demo) -> dict[str, Callable]:
    """Event handlers of a ``create_app`` Blocks by function name (``ask``, ``lookup``, ``upload``, ``_exports``)."""
    return {fn.fn.__name__: fn.fn for fn in demo.fns.values() if getattr(fn, "fn", None) is not None}


@dataclass
class AskView:
    """What the Ask tab shows after an ``ask`` event: the chat history, the citation panel and banner HTML, the
    Answer kept in state (None after an error), the source view HTML and one update per export button."""

    chat: list[dict]
    citations: str
    banner: str
    answer: object
    source_pick: dict
    source_view: str
    exports: list[dict]
    steps: int
    #: what the question box is set to at the end (a ``gr.update()`` dict when it was left as it was)
    box: object = None
    #: the note under the question box (why the question was not asked; "" when it was)
    note: str = ""

    @property
    def reply(self) -> str:
        """The last reply as the user reads it (the Markdown source is escaped text, :func:`legal_rag.ui.app.as_text`)."""
        return shown(self.chat[-1]["content"])

    def export_paths(self) -> dict[str, Path]:
        return {name: Path(u["value"]) for name, u in zip(FORMATS, self.exports) if u.get("value")}

    @property
    def exports_cleared(self) -> bool:
        return all(u.get("value") is None and u.get("interactive") is False for u in self.exports)


def shown(markdown: str) -> str:
    """What an escaped chat message (:func:`legal_rag.ui.app.as_text`) displays."""
    return html.unescape(re.sub(r"\\(.)", r"\1", markdown))


def run_ask(demo, question: str, *, history: list | None = None, offence_date: str = "", acts: list | None = None,
            codes: str = "both", judgments: bool = True, generator: str | None = None,
            include_unverified: bool = False, previous=None) -> AskView:
    """Run the Ask button's handler with these control values to the end; the last outputs as an :class:`AskView`.
    ``previous`` is what the answer state holds (the last turn's Answer, as the UI passes it)."""
    outs = list(handlers(demo)["ask"](question, history or [], offence_date, acts or [], codes, judgments, generator,
                                      include_unverified, previous))
    chat, cites, banner, answer, pick, view, *rest = outs[-1]
    exports, (box, note) = rest[:len(FORMATS)], rest[len(FORMATS):]
    # the box and the note show what the last output that sets them set (the others leave them as they are)
    box = next((o[-2] for o in reversed(outs) if not _unchanged(o[-2])), box)
    note = next((o[-1] for o in reversed(outs) if not _unchanged(o[-1])), note)
    return AskView(chat, cites, banner, answer, pick, view, exports, len(outs), box, note)


def _unchanged(value) -> bool:
    """Whether an output value is Gradio's "leave it as it is" (``gr.update()`` with nothing set)."""
    return isinstance(value, dict) and value.get("__type__") == "update" and set(value) == {"__type__"}
