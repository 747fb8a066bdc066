"""Prompt templates as files, rendered strictly, and a prompt that fits the model's context window.

Templates live in ``settings.prompts_dir`` (``prompts/``): ``system.txt``, ``answer.txt`` ($question, $passages,
$head: the composed head or nothing),
``passage.txt`` ($n, $label, $title, $source, $pages, $text) and ``hyde.txt`` ($question). Lines starting with
``#`` at the top of a file document it (its placeholders and citation contract) and are not sent.

Rendering is strict both ways (after smolagents' prompt files): a placeholder without a value raises, and so
does a value the template never uses (a template that lost ``$passages`` would otherwise send no sources).
Substitution is single-pass, so ``$`` inside passage text is never expanded.
"""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ConfigError
from ..ingest.printed_pages import printed_range
from ..law import analyse, judgment_reference
from ..types import ACT_TITLES, UPLOAD_LABEL, Chunk, HeadLine, Hit, StatuteRef
from .window import passage_window, shown_sub, shown_texts

if TYPE_CHECKING:
    from ..law import QuestionAnalysis

Messages = tuple[tuple[str, str], ...]  # ((role, content), ...), roles "system" | "user" | "assistant"


@dataclass(frozen=True)
class Template:
    """A prompt template file: ``text`` without its ``#`` header; ``placeholders`` the ``$names`` it uses."""

    name: str
    path: Path
    text: str

    @property
    def placeholders(self) -> frozenset[str]:
        names = set()
        for m in string.Template.pattern.finditer(self.text):
            if m.group("named") or m.group("braced"):
                names.add(m.group("named") or m.group("braced"))
        return frozenset(names)


def load_template(name: str, prompts_dir: Path) -> Template:
    """Read ``<prompts_dir>/<name>.txt``. Raises :class:`ConfigError` naming the path when it is missing."""
    path = Path(prompts_dir) / f"{name}.txt"
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"prompt template {path}: cannot read ({exc.strerror or exc})") from None
    lines = raw.splitlines()
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    return Template(name, path, "\n".join(lines).strip("\n"))


def render(template: Template, **values: object) -> str:
    """Substitute ``values`` into ``template``. Raises :class:`ConfigError` naming the file when a placeholder
    has no value, a value has no placeholder, or the template has a malformed ``$``."""
    unused = set(values) - template.placeholders
    if unused:
        raise ConfigError(f"prompt template {template.path}: no placeholder for {sorted(unused)}")
    try:
        return string.Template(template.text).substitute({k: str(v) for k, v in values.items()})
    except KeyError as exc:
        raise ConfigError(f"prompt template {template.path}: missing value for ${exc.args[0]}") from None
    except ValueError as exc:
        raise ConfigError(f"prompt template {template.path}: {exc}") from None


# ------------------------------------------------------------------------------------------------ passages

def passage_label(chunk: Chunk, sub: str | None = None) -> str:
    """``"BNS 318"`` (with the Act's title when known) for statutes (``"BNS 316(5)"`` with ``sub``, the one
    sub-section the prompt shows of it: :func:`legal_rag.generate.window.shown_sub`), the case title for judgments (then its
    citations, printed page and paragraphs: :func:`legal_rag.law.cases.judgment_reference`, then court and date), the title and
    ``"(other document, not a judgment)"`` for a document that is neither (an uploaded note)."""
    if chunk.ref is not None:
        act = ACT_TITLES.get(chunk.ref.act)
        ref = dataclasses.replace(chunk.ref, sub=(sub,)) if sub and not chunk.ref.sub else chunk.ref
        return f"{ref}" + (f" ({act})" if act else "")
    if chunk.kind == "document":
        return (chunk.title or chunk.case or chunk.id) + " (other document, not a judgment)"
    if chunk.kind == "upload":
        return f"{chunk.title or chunk.case or chunk.id} ({UPLOAD_LABEL}, not a judgment)"
    meta = dict(chunk.meta)
    extra = ", ".join(x for x in (meta.get("court", ""), meta.get("date", "")) if x)
    # the case name first, then its neutral/reporter citations with the report's printed page, then the paragraphs
    ref = judgment_reference(chunk.title or chunk.case or chunk.id, meta.get("citations", "").split(";"),
                             printed_range(meta.get("printed_pages", ""), chunk.pages) or (), meta.get("paras", ""))
    return ref + (f" ({extra})" if extra else "")


def format_pages(pages: tuple[int, int]) -> str:
    """``(87, 87)`` -> ``"p. 87"``; ``(87, 88)`` -> ``"pp. 87-88"`` (1-based, as a PDF viewer numbers them)."""
    a, b = pages
    return f"p. {a}" if a == b else f"pp. {a}-{b}"


_FENCE = re.compile(r"-{3,}\s*(BEGIN|END)\s+PASSAGE", re.I)
_MARKER = re.compile(r"\[(\d{1,3})\]")


def sanitise_passage(text: str) -> str:
    """Passage text made safe to fence: fence look-alikes are broken and bracketed numbers (footnote marks
    such as ``[1]``) become ``(fn 1)`` so that a document cannot forge our passage markers."""
    return _MARKER.sub(r"(fn \1)", _FENCE.sub(lambda m: "- " + m.group(1).lower() + " passage", text))


def render_passage(template: Template, n: int, hit: Hit, question: QuestionAnalysis | str | None = None,
                   focus: Sequence[StatuteRef] = (), text: str | None = None) -> str:
    """One numbered passage; with ``question`` its text is the compact windows that bear on it (and on the
    provisions in ``focus``: :func:`legal_rag.generate.window.passage_window`), else the whole chunk; ``text``
    (what :func:`~legal_rag.generate.window.shown_texts` shows of it) overrides both. A statute passage showing one
    sub-section is labelled with it (:func:`~legal_rag.generate.window.shown_sub`)."""
    c = hit.chunk
    if text is None:
        text = c.text if question is None else passage_window(c, question, focus=focus)
    # $title, $source and $pages are optional (the shipped template leaves the file name and pages out: the model
    # cites by [n] and they cost prompt tokens); $n, $label and $text are required
    optional = {"title": c.title or "-", "source": c.source, "pages": format_pages(c.pages)}
    return render(template, n=n, label=passage_label(c, shown_sub(c, text)), text=sanitise_passage(text),
                  **{k: v for k, v in optional.items() if k in template.placeholders})


# -------------------------------------------------------------------------------------------------- prompt

@dataclass(frozen=True)
class PromptBuild:
    """An assembled chat prompt. ``passages`` were given to the model as ``numbers`` (1-based markers);
    ``dropped`` were left out, whole, from the bottom, to fit ``budget`` tokens; ``repeats`` were left out because
    another passage of their section shows all they would (chunk overlap: :func:`~.window.shown_texts`); ``tokens`` is the count of
    the final prompt by ``counter`` (``"estimate"`` when no tokenizer was available)."""

    messages: Messages
    passages: tuple[Hit, ...]
    numbers: tuple[int, ...]
    dropped: tuple[Hit, ...]
    tokens: int
    budget: int | None
    counter: str = "none"
    repeats: tuple[Hit, ...] = ()

    def as_dicts(self) -> list[dict[str, str]]:
        return [{"role": r, "content": c} for r, c in self.messages]

    @property
    def text(self) -> str:
        """The prompt as one string (for the record in ``Answer.prompt``)."""
        return "\n\n".join(f"<{r}>\n{c}" for r, c in self.messages)


def head_block(head: Sequence[HeadLine]) -> str:
    """The composed head as the model is given it (``$head`` in ``answer.txt``): each line's provision
    (:func:`head_provision`), square brackets made round so that nothing reads as a passage marker; ``""`` for no
    head."""
    if not head:
        return ""
    lines = "\n".join("- " + head_provision(h).replace("[", "(").replace("]", ")") for h in head)
    return ("Governing provision (from the official BPR&D correspondence table; the reader sees it above your "
            "answer): \n" + lines + "\nAnswer from the passage of that provision.\n\n")


def head_provision(line: HeadLine) -> str:
    """The provision a head line names, as the model is given it: ``"BNS 318(4) -- Cheating"``. Without the line's
    punishment and classification (a First Schedule row is no passage, and a small model repeated it as an uncited
    claim), its BPR&D pair ("(formerly IPC 420)": the model copied the old number into sentences citing the new
    section's passage) and the reading or suggestion it opens with."""
    text = line.line
    if " -- " not in text:
        return str(line.ref)
    title = text[text.index(" -- ") + 4:]
    return f"{line.ref} -- {title.split(': ', 1)[0].strip()}"


def head_refs(head: Sequence[HeadLine]) -> tuple[StatuteRef, ...]:
    """The provisions a head names: each line's governing provision, then its BPR&D counterparts."""
    return tuple(dict.fromkeys(r for h in head for r in (h.ref, *h.counterparts)))


def assemble(question: QuestionAnalysis | str, hits: Sequence[Hit], prompts_dir: Path,
             numbers: Sequence[int] | None = None, *, compact: bool = True,
             head: Sequence[HeadLine] = ()) -> Messages:
    """System and user messages for ``question`` (its analysis, :func:`legal_rag.law.question.analyse`, or its text,
    analysed here) over ``hits`` numbered ``numbers`` (default 1..n). ``compact``
    (the default) shows each passage as the windows that bear on the question (:mod:`.window`); the
    system message is the same for every question, so a backend can keep its prefilled state (prefix cache).
    ``head``: the composed head, given as ``$head`` (:func:`head_block`) and windowing the passages at
    its provisions' sub-sections. Raises :class:`ConfigError` when a head is given and ``answer.txt`` has no
    ``$head`` (it would be dropped silently)."""
    numbers = list(numbers) if numbers is not None else list(range(1, len(hits) + 1))
    system = render(load_template("system", prompts_dir))
    ptpl = load_template("passage", prompts_dir)
    focus = head_refs(head)
    texts = shown_texts([h.chunk for h in hits], question if compact else None, focus=focus)
    body = "\n\n".join(render_passage(ptpl, n, h, text=t)
                         for n, h, t in zip(numbers, hits, texts) if t) or "(no passages)"
    atpl = load_template("answer", prompts_dir)
    extra = {"head": head_block(head)} if head or "head" in atpl.placeholders else {}
    text = question if isinstance(question, str) else question.question
    user = render(atpl, question=text.strip(), passages=body, **extra)
    return (("system", system), ("user", user))


def build_prompt(question: QuestionAnalysis | str, hits: Sequence[Hit], prompts_dir: Path, *,
                 count_tokens: Callable[[Messages], int] | None = None, budget: int | None = None,
                 counter: str = "tokenizer", numbers: Sequence[int] | None = None,
                 compact: bool = True, head: Sequence[HeadLine] = ()) -> PromptBuild:
    """Assemble the prompt and drop whole passages from the bottom until ``count_tokens(messages) <= budget``.

    Nothing is ever truncated: a passage is in the prompt whole or listed in ``dropped`` (or, when another
    passage of its section shows all it would, in ``repeats``). When even the
    prompt without passages exceeds the budget, every passage is dropped and ``tokens`` exceeds ``budget``
    (the caller abstains and reports it). ``question``: as for :func:`assemble`.
    """
    if compact and isinstance(question, str):  # analysed once, for every passage and every try
        question = analyse(question)
    given = list(hits)
    given_nums = list(numbers) if numbers is not None else None

    def visible(candidates: list[Hit]) -> tuple[list[Hit], list[Hit]]:
        # repeats are judged among the passages still given: one whose text another shows, not one shown nowhere
        shown = shown_texts([h.chunk for h in candidates], question if compact else None, focus=head_refs(head))
        return [h for h, t in zip(candidates, shown) if t], [h for h, t in zip(candidates, shown) if not t]

    def numbered(kept: list[Hit]) -> list[int]:
        if given_nums is None:
            return list(range(1, len(kept) + 1))
        ids = [id(h) for h in kept]
        return [n for h, n in zip(given, given_nums) if id(h) in ids]

    candidates = list(given)
    kept, rep = visible(candidates)
    nums = numbered(kept)
    messages = assemble(question, kept, prompts_dir, nums, compact=compact, head=head)
    if count_tokens is None or budget is None:
        return PromptBuild(messages, tuple(kept), tuple(nums), (), 0, budget, "none", tuple(rep))
    tokens = count_tokens(messages)
    while tokens > budget and kept:
        cut = next(i for i, h in enumerate(candidates) if h is kept[-1])
        candidates = candidates[:cut]  # the last passage shown goes, and any repeat after it
        kept, rep = visible(candidates)
        nums = numbered(kept)
        messages = assemble(question, kept, prompts_dir, nums, compact=compact, head=head)
        tokens = count_tokens(messages)
    dropped = tuple(h for h in given[len(candidates):] if all(h is not r for r in rep))
    return PromptBuild(messages, tuple(kept), tuple(nums), dropped, tokens, budget, counter, tuple(rep))
