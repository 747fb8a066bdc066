"""Judgment pages -> :class:`~legal_rag.types.Judgment` metadata and :class:`~legal_rag.types.Paragraph` objects.

Input is the cleaned pages of one judgment: PDF pages from :func:`legal_rag.ingest.pdf.extract_pages`, or a
plain-text judgment cut into pseudo-pages by :func:`pages_from_text` (each through ``pdf.clean_text``).

* Metadata (title, court, ISO date, neutral / reporter citations, case numbers, bench, judgment or order) is read
  from the header by :mod:`legal_rag.ingest.judgment_header`; a law report's own page numbers
  (``Judgment.printed_pages``) from its running heads by :mod:`legal_rag.ingest.printed_pages`.
* Page furniture (running heads, LiveLaw watermarks, signature blocks, ``Page x of y``, Delhi HC ``$~ * % +``
  markers, SCR margin letters) is stripped by :mod:`legal_rag.ingest.furniture`.
* Paragraphs follow the printed numbering (``1.``, ``12.``, ``4.1``; ``(iii)`` where a judgment numbers only that
  way): a number starts a paragraph when it continues the sequence (next number, up to two skipped, or the next
  sub-number), or restarts at ``1.`` for a new opinion (after a judge's name line, or when ``2.`` and ``3.`` follow).
  Numbers that break the sequence (quoted statutes, lists) stay inside the paragraph. Unnumbered prose (headnotes,
  JUDIS prints) is grouped at short lines that end a sentence, and cut near :data:`MAX_UNNUMBERED` characters.
* Each paragraph lists the statute sections it cites, read by the citation grammar (:func:`legal_rag.law.find_refs`:
  "Section 302/34 IPC", "s. 437(3) CrPC", "Sections 406 and 420 of the Indian Penal Code"), an Act named.

Cost is linear in the text: the 431-page Puttaswamy print parses in about a second.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..types import Judgment, Page, Paragraph, Problem, StatuteRef
from .furniture import strip_furniture
from .judgment_header import Header, read_header
from .layout import PARA_LABEL, PARA_NUMBER
from .printed_pages import printed_pages
from .statute_cites import find_statute_refs

MAX_UNNUMBERED = 2500  # characters; unnumbered prose is cut at a sentence end near this length
PSEUDO_PAGE_CHARS = 4000  # characters per pseudo-page of a plain-text judgment

_JUDGE = re.compile(
    r"(?:,?\s*C?J\.?\s*(?:\(Oral\))?\s*:?|JJ\.|CJI\.?|J\s*U\s*D\s*G\s*M\s*E\s*N\s*T|JUDGMENT|O\s*R\s*D\s*E\s*R|ORDER|delivered\s+by.*)\s*$")
_ROMAN = {r: i for i, r in enumerate(
    "i ii iii iv v vi vii viii ix x xi xii xiii xiv xv xvi xvii xviii xix xx xxi xxii xxiii xxiv xxv".split(), 1)}


@dataclass(frozen=True)
class _Line:
    page: int
    text: str


def pages_from_text(source: str, text: str, *, page_chars: int = PSEUDO_PAGE_CHARS) -> tuple[tuple[Page, ...], tuple[Problem, ...]]:
    """Cut a plain-text judgment into pseudo-pages of at most ~``page_chars`` characters (on line ends; a longer
    line is its own page) and clean each with ``pdf.clean_text``. Pseudo-page numbers are 1-based."""
    from .pdf import clean_text  # the page stage, shared with PDFs

    chunks: list[str] = []
    cur: list[str] = []
    size = 0
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if cur and size + len(line) > page_chars:
            chunks.append("\n".join(cur))
            cur, size = [], 0
        cur.append(line)
        size += len(line) + 1
    if cur:
        chunks.append("\n".join(cur))
    chunks = [c for c in chunks if c.strip()]  # a trailing newline is not a page
    pages: list[Page] = []
    problems: list[Problem] = []
    for i, raw in enumerate(chunks, 1):
        page, probs = clean_text(source, i, raw)
        pages.append(page)
        problems.extend(probs)
    return tuple(pages), tuple(problems)


def case_id(header: Header, source: str) -> str:
    """Readable, deterministic id: ``2024-INSC-479`` from a neutral citation, else ``2020-1-SCR-582`` from an SCR
    citation, else the source file name without extension."""
    for c in header.citations:
        m = re.fullmatch(r"(\d{4}) INSC (\d+)", c)
        if m:
            return f"{m.group(1)}-INSC-{m.group(2)}"
    for c in header.citations:
        m = re.fullmatch(r"\[(\d{4})\] (?:Supp\. )?(\d+) S\.C\.R\. (\d+)", c)
        if m:
            return f"{m.group(1)}-{m.group(2)}-SCR-{m.group(3)}"
    return re.sub(r"\.[A-Za-z]{1,4}$", "", source)


def _top_candidates(lines: list[_Line], start: int) -> list[tuple[int, int, str]]:
    out = []
    for i in range(start, len(lines)):
        m = PARA_NUMBER.match(lines[i].text)
        if m and (m.group("sub") or m.group("dot")):
            out.append((i, int(m.group("top")), re.sub(r"\s", "", m.group("sub") or "").lstrip(".")))
    return out


def _step(a: tuple[int, int, str], b: tuple[int, int, str]) -> float | None:
    """Score of numbering ``b`` right after ``a`` (``None``: not a continuation)."""
    (_, at, asub), (_, bt, bsub) = a, b
    if not bsub:
        if bt == at + 1:
            return 1.0
        if at + 2 <= bt <= at + 3:
            return 0.5
        return None
    first = int(bsub.split(".")[0])
    if bt == at and (not asub or first > int(asub.split(".")[0]) or (bsub > asub and first == int(asub.split(".")[0]))):
        return 1.0
    if bt == at + 1 and first == 1:
        return 0.8
    return None


def _inside_quotes(lines: list[_Line], lost_after: int = 200) -> list[bool]:
    """For each line, whether it starts inside a “quoted” extract (curly quotes; an extract left open for more than
    ``lost_after`` lines is taken as a lost closing quote)."""
    out, depth, since = [], 0, 0
    for i, ln in enumerate(lines):
        if depth and i - since > lost_after:
            depth = 0
        out.append(depth > 0)
        before = depth
        depth = max(0, min(1, depth + ln.text.count("“") - ln.text.count("”")))
        if depth and not before:
            since = i
    return out


def _arabic_starts(lines: list[_Line], start: int, window: int = 250) -> dict[int, str]:
    """The longest plausible chain of printed paragraph numbers (dynamic programming over line-start numbers)."""
    cands = _top_candidates(lines, start)
    if not cands:
        return {}
    judge = [bool(_JUDGE.search(" ".join(ln.text for ln in lines[max(start, i - 3):i]))) for i, _, _ in cands]
    lengths = sorted(len(ln.text.strip()) for ln in lines)
    typical = lengths[len(lengths) * 3 // 4] if lengths else 80
    # a paragraph opens with a full line of prose; a numbered list item in a quoted form is a short line
    quoted = _inside_quotes(lines)
    weight = [(1.0 if len(lines[i].text.strip()) >= 0.6 * typical else 0.5) * (0.15 if quoted[i] else 1.0)
              for i, _, _ in cands]
    best = [0.0] * len(cands)
    back = [-1] * len(cands)
    for k, c in enumerate(cands):
        opener = c[1] == 1 and not c[2]
        best[k] = (1.0 if c[1] <= 3 and not c[2] else -5.0)
        for j in range(max(0, k - window), k):
            sc = _step(cands[j], c)
            if sc is None and opener and cands[j][1] > 1:
                sc = 1.0 if judge[k] else -1.0  # a new opinion restarts at 1
            if sc is not None and best[j] + sc * weight[k] > best[k]:
                best[k], back[k] = best[j] + sc * weight[k], j
    k = max(range(len(cands)), key=lambda i: best[i])
    starts: dict[int, str] = {}
    while k >= 0:
        i, top, sub = cands[k]
        starts[i] = f"{top}.{sub}" if sub else str(top)
        k = back[k]
    return starts


def _paren_starts(lines: list[_Line], start: int) -> dict[int, str]:
    starts: dict[int, str] = {}
    expect = 1
    for i in range(start, len(lines)):
        m = PARA_LABEL.match(lines[i].text)
        if not m:
            continue
        lab = m.group("lab")
        val = int(lab) if lab.isdigit() else _ROMAN.get(lab, ord(lab) - 96 if len(lab) == 1 else 0)
        if val == expect or (val == 1 and expect > 3):
            starts[i] = f"({lab})"
            expect = val + 1
    # only a numbering that runs through the judgment, not a list in the headnote
    return starts if len(starts) >= 3 and max(starts) >= start + (len(lines) - start) // 2 else {}


def _join(lines: list[str]) -> str:
    out = ""
    for ln in lines:
        s = ln.strip()
        if not s:
            continue
        if out.endswith("-") and s[:1].islower():
            out += s
        else:
            out = f"{out} {s}" if out else s
    return re.sub(r"[ \t]+", " ", out)


def _split_unnumbered(block: list[_Line], typical: float) -> list[list[_Line]]:
    groups: list[list[_Line]] = []
    cur: list[_Line] = []
    size = 0
    for ln in block:
        cur.append(ln)
        size += len(ln.text)
        s = ln.text.rstrip()
        ends = s.endswith((".", ":", ";", "?", "!", "”", '"', "’"))
        if (ends and typical and (len(s) < 0.8 * typical or typical > 300)) or (size > MAX_UNNUMBERED and ends) or size > 2 * MAX_UNNUMBERED:
            groups.append(cur)
            cur, size = [], 0
    if cur:
        groups.append(cur)
    return groups


def _paragraphs(lines: list[_Line], starts: dict[int, str], case: str, source: str) -> list[Paragraph]:
    lengths = sorted(len(ln.text.strip()) for ln in lines if ln.text.strip())
    typical = float(lengths[len(lengths) * 3 // 4]) if lengths else 80.0
    bounds = sorted(starts)
    paras: list[Paragraph] = []

    def emit(number: str, block: list[_Line]) -> None:
        text = _join([b.text for b in block])
        if text:
            cites = find_statute_refs(text)
            paras.append(Paragraph(case, number, text, source, (block[0].page, block[-1].page), cites))

    head_end = bounds[0] if bounds else len(lines)
    for grp in _split_unnumbered(lines[:head_end], typical):
        emit("", grp)
    for k, b in enumerate(bounds):
        end = bounds[k + 1] if k + 1 < len(bounds) else len(lines)
        block = list(lines[b:end])
        first = block[0]
        block[0] = _Line(first.page, PARA_NUMBER.sub("", first.text, count=1) if PARA_NUMBER.match(first.text)
                         else PARA_LABEL.sub("", first.text, count=1))
        pieces = _split_unnumbered(block, 0.0) if sum(len(x.text) for x in block) > 2 * MAX_UNNUMBERED else [block]
        for piece in pieces:
            emit(starts[b], piece)
    return paras


def parse_judgment(pages: tuple[Page, ...] | list[Page], source: str, hint: str | None = None, *,
                   case: str | None = None) -> tuple[Judgment, tuple[Paragraph, ...], tuple[Problem, ...]]:
    """Parse one judgment. ``pages`` are cleaned pages (1-based numbers); ``source`` is the file name;
    ``hint`` forces a layout (``scr_digital``, ``scr``, ``judis``, ``sc``, ``dhc``, ``text``, ``indiankanoon``), else
    it is detected. ``case`` is the case id to give it (a source holding many decisions names each; default
    :func:`case_id`).

    Returns ``(judgment, paragraphs, problems)``; never raises for odd text: a missing title, court or date is a
    ``warning`` Problem (``no_title``, ``no_court``, ``no_date``) and the field is ``""``; no text at all is an
    ``error`` (``empty``). Paragraph ``pages`` are ``(first, last)`` page numbers of the paragraph.
    """
    pages = tuple(p for p in pages if not p.skipped)
    problems: list[Problem] = []
    if not any(p.text.strip() for p in pages):
        return (Judgment(case or re.sub(r"\.[A-Za-z]{1,4}$", "", source), "", "", "", source),
                (), (Problem(source, "empty", "no text in any page", severity="error"),))
    header = read_header(pages, hint)
    cid = case or case_id(header, source)
    for field, kind in ((header.title, "no_title"), (header.court, "no_court"), (header.date, "no_date")):
        if not field:
            problems.append(Problem(source, kind, f"{kind.replace('no_', '')} not found in the header", page=1))
    clean = strip_furniture(pages)
    lines = [_Line(p.number, ln) for p in clean for ln in p.text.splitlines() if ln.strip()]
    body = 0
    if header.body_start:
        # position of the body marker among the kept lines: first line of that page at or after it
        pg = pages[header.body_start[0]].number
        marker = pages[header.body_start[0]].text.splitlines()[header.body_start[1]].strip()
        body = next((i for i, ln in enumerate(lines) if ln.page == pg and ln.text.strip() == marker), 0)
    starts = _arabic_starts(lines, body)
    if len(starts) < 2:
        starts = _paren_starts(lines, body) or starts
    paras = tuple(_paragraphs(lines, starts, cid, source))
    if not starts:
        problems.append(Problem(source, "unnumbered", "no printed paragraph numbers; prose grouped", severity="info"))
    scr = next((c for c in header.citations if "S.C.R." in c), "")
    judgment = Judgment(cid, header.title, header.court, header.date, source, header.citations,
                        header.case_numbers, len(pages), printed_pages=printed_pages(pages, scr),
                        decision=header.decision, bench=header.bench)
    return judgment, paras, tuple(problems)


def cited_sections(paragraphs: tuple[Paragraph, ...]) -> tuple[StatuteRef, ...]:
    """All distinct statute references cited by ``paragraphs``, sorted."""
    return tuple(sorted({r for p in paragraphs for r in p.cites}))
