"""Sections and judgment paragraphs -> :class:`Chunk`, within the embedder's window in *model tokens*.

Rules (DESIGN.md, "Retrieval"):

* a chunk never crosses a section (statutes) or a paragraph group of one judgment;
* a section whose text with its heading prefix does not fit is split at the best boundary available:
  sub-sections ``(1)``, then clauses ``(a)`` / ``Explanation`` / ``Illustration`` / ``Exception`` /
  ``Provided``, then sentence ends, then words; consecutive parts of one section overlap by up to
  ``chunk_overlap`` tokens;
* the budget is ``min(chunk_tokens, window - 2)`` tokens for the chunk's index text (heading + text with any
  sentence addressed to a model blanked: :func:`legal_rag.injection.index_text`, the exact string that is
  embedded and indexed) counted with the embedder's own tokenizer, so planted instructions neither move chunk
  boundaries nor take room;
* ids are ``<ACT>-<SECTION>-<part>-<sha8>`` (``BNS-318-3-1a2b3c4d``) or ``<case>-<part>-<sha8>``, where sha8 is
  the first 8 hex digits of sha256(passage text): unchanged text gives the same id, and ids never hold a path
  separator (chroma-core/chroma#518);
* ``Chunk.span`` is ``[start, end)`` in the section text, or in the judgment text defined as its paragraph
  texts joined by a blank line (``JOIN``). ``Chunk.pages`` is the section's page span (sections carry no
  per-character page map) or the first and last page of the paragraphs in the chunk.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left, bisect_right
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Callable, Iterable, Mapping, Protocol, Sequence

from ..injection import instruction_only, instruction_spans, without_instructions
from ..law import format_page_map, open_state
from ..types import NEW_ACTS, OLD_ACTS, Chunk, Judgment, Paragraph, Section, passage_text, statute_heading
from .printed_pages import format_para_map, format_printed
from .statutes import BILL_NOTE

JOIN = "\n\n"
SPECIAL_TOKENS = 2
#: a candidate boundary must leave at least this share of the budget in the chunk before it
MIN_FILL = 0.35
#: judgments :func:`chunk_corpus` tokenizes ahead, in one worker thread, of the one it is chunking
AHEAD = 4


class TokenCounter(Protocol):
    """What chunking needs from the embedder (``legal_rag.index.embed.Embedder`` provides it).

    A counter may also offer the batched ``count_tokens_many(texts) -> list[int]`` and
    ``token_offsets_many(texts) -> list[list[tuple[int, int]]]`` (same results as the single calls, in order);
    :func:`count_many` and :func:`offsets_many` use them when present and fall back to one call per text, so a
    counter with only the two methods below keeps working.
    """

    window: int

    def count_tokens(self, text: str) -> int: ...  # special tokens included

    def token_offsets(self, text: str) -> list[tuple[int, int]]: ...  # special tokens excluded


def count_many(counter: TokenCounter, texts: Sequence[str]) -> list[int]:
    """``[counter.count_tokens(t) for t in texts]``, in one batched call when the counter has ``count_tokens_many``."""
    many = getattr(counter, "count_tokens_many", None)
    return list(many(texts)) if many is not None else [counter.count_tokens(t) for t in texts]


def offsets_many(counter: TokenCounter, texts: Sequence[str]) -> list[Sequence[tuple[int, int]]]:
    """``[counter.token_offsets(t) for t in texts]``, batched when the counter has ``token_offsets_many``."""
    many = getattr(counter, "token_offsets_many", None)
    return list(many(texts)) if many is not None else [counter.token_offsets(t) for t in texts]


_SUBSECTION = re.compile(r"(?:^|(?<=\n)|(?<=[.;:—–-]\s))\s*\(\d{1,3}[A-Z]?\)\s")
_CLAUSE = re.compile(
    r"(?:^|(?<=\n)|(?<=[.;:—–-]\s))\s*(?:\([a-z]{1,4}\)\s|Illustrations?\b|Explanations?\b|Exceptions?\b|Provided\b)")
_SENTENCE = re.compile(r"(?<=[.;:?!])\s+")
_WORD = re.compile(r"\s+")


def safe_id(text: str) -> str:
    """Id-safe form: letters, digits and ``_`` only (``"C/12 a"`` -> ``"C_12_a"``)."""
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_") or "x"


def _sha8(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


class _Tokens:
    """Token positions of one text, for counting the tokens inside a character range in O(log n).

    ``sorted`` is True when token starts and ends both never decrease (every tokenizer we ship): then
    :meth:`count` grows with the range's end and shrinks with its start, which lets :func:`split_ranges` find
    its cut points by bisection instead of scanning every candidate."""

    def __init__(self, offsets: Sequence[tuple[int, int]]):
        self.starts = [s for s, _ in offsets]
        self.ends = [e for _, e in offsets]
        self.sorted = self.starts == sorted(self.starts) and self.ends == sorted(self.ends)

    def count(self, a: int, b: int) -> int:
        """Tokens that start at or after ``a`` and end at or before ``b``."""
        return max(0, bisect_right(self.ends, b) - bisect_left(self.starts, a))

    def end_after(self, a: int, n: int) -> int:
        """Character end of the ``n``-th token starting at or after ``a``."""
        i = bisect_left(self.starts, a) + n - 1
        return self.ends[min(i, len(self.ends) - 1)]


class _Bounds:
    """Candidate split positions in ``text[a:b]`` by priority: ``[0]`` sub-section, ``[1]`` clause, ``[2]``
    sentence, ``[3]`` word; each level an increasing list (no sort needed: matches do not overlap and each
    position lies inside its match), found on first use (the word level, the longest, is rarely needed)."""

    _RX = (_SUBSECTION, _CLAUSE, _SENTENCE, _WORD)

    def __init__(self, text: str, a: int, b: int):
        self.text, self.a, self.b = text, a, b
        self._levels: dict[int, list[int]] = {}

    def __len__(self) -> int:
        return len(self._RX)

    def __getitem__(self, i: int) -> list[int]:
        i = range(len(self._RX))[i]  # IndexError past the last level ends iteration
        if i not in self._levels:
            text, a, b, rx = self.text, self.a, self.b, self._RX[i]
            if i < 2:  # the marker itself, after any leading whitespace of the match
                self._levels[i] = [p for m in rx.finditer(text, a, b)
                                   if a < (p := m.start() + len(m.group()) - len(m.group().lstrip())) < b]
            else:  # just after the whitespace
                self._levels[i] = [p for m in rx.finditer(text, a, b) if a < (p := m.end()) < b]
        return self._levels[i]


def _bounds(text: str, a: int, b: int) -> _Bounds:
    """Candidate split positions in ``text[a:b]`` by priority (sub-section, clause, sentence, word)."""
    return _Bounds(text, a, b)


def split_ranges(text: str, tokens: _Tokens, a: int, b: int, budget: int, overlap: int) -> list[tuple[int, int]]:
    """Cut ``text[a:b]`` into ranges of at most ``budget`` tokens at the best boundaries, overlapping by up to
    ``overlap`` tokens (at word boundaries). Ranges are stripped of surrounding whitespace."""
    if tokens.count(a, b) <= budget:
        return [_strip(text, a, b)]
    levels = _bounds(text, a, b)
    last, first = (_last_filled, _first_within) if tokens.sorted else (_last_filled_scan, _first_within_scan)
    out: list[tuple[int, int]] = []
    s = a
    while s < b:
        if tokens.count(s, b) <= budget:
            out.append(_strip(text, s, b))
            break
        limit = tokens.end_after(s, budget)
        e = None
        for lvl in levels:
            e = last(lvl, tokens, s, limit, budget * MIN_FILL)
            if e is not None:
                break
        if e is None:  # one "word" longer than the budget: cut at a token boundary
            e = limit
        out.append(_strip(text, s, e))
        nxt = e
        if overlap:  # start the next part up to `overlap` tokens back, at a sentence end if one is there
            for k in (2, 3):  # sentence ends, then words
                back = first(levels[k], tokens, s, e, overlap)
                if back is not None:
                    nxt = back
                    break
        s = nxt if nxt > s else e
    return [r for r in out if r[1] > r[0]]


def _last_filled(lvl: list[int], tokens: _Tokens, s: int, limit: int, fill: float) -> int | None:
    """The last position ``p`` of sorted ``lvl`` with ``s < p <= limit`` and ``tokens.count(s, p) >= fill``.
    The count never falls as ``p`` grows (sorted tokens), so only the last position in range needs checking."""
    k = bisect_right(lvl, limit) - 1
    return lvl[k] if k >= 0 and lvl[k] > s and tokens.count(s, lvl[k]) >= fill else None


def _first_within(lvl: list[int], tokens: _Tokens, s: int, e: int, overlap: int) -> int | None:
    """The first position ``p`` of sorted ``lvl`` with ``s < p < e`` and ``tokens.count(p, e) <= overlap``.
    The count never rises as ``p`` grows (sorted tokens), so the first such position is found by bisection."""
    lo, hi = bisect_right(lvl, s), bisect_left(lvl, e)
    k = bisect_left(range(lo, hi), True, key=lambda i: tokens.count(lvl[i], e) <= overlap) + lo
    return lvl[k] if k < hi else None


def _last_filled_scan(lvl: list[int], tokens: _Tokens, s: int, limit: int, fill: float) -> int | None:
    """:func:`_last_filled` by a full scan, for token offsets that are not sorted."""
    cands = [p for p in lvl if s < p <= limit and tokens.count(s, p) >= fill]
    return cands[-1] if cands else None


def _first_within_scan(lvl: list[int], tokens: _Tokens, s: int, e: int, overlap: int) -> int | None:
    """:func:`_first_within` by a full scan, for token offsets that are not sorted."""
    back = [p for p in lvl if s < p < e and tokens.count(p, e) <= overlap]
    return back[0] if back else None


def _strip(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


_SPACE = " \t\n\r"


def _fit_all(counter: TokenCounter, head: str, head_tokens: int, text: str, tokens: _Tokens,
             ranges: Sequence[tuple[int, int]], limit: int) -> list[int]:
    """For each range ``[a, b)``, ``b`` shrunk word by word until heading + ``text[a:b]`` fits ``limit`` tokens
    exactly (a guard against the rare tokenization difference between a substring and the whole text; the
    budget also leaves the range up to two tokens over). Each range is counted from the
    document's own token offsets (``head_tokens`` = ``count_tokens(head + "\n")`` plus the tokens inside the
    range) when the counter's ``counts_add_at_whitespace`` says that is exact and the range sits between
    whitespace characters, else in one batched tokenizer call for the other ranges. Only a range that overflows
    (about 2% of judgment chunks) is shrunk."""
    exact = getattr(counter, "counts_add_at_whitespace", False) and tokens.sorted

    def derived(a: int, b: int) -> int | None:
        if exact and (a == 0 or text[a - 1] in _SPACE) and (b == len(text) or text[b] in _SPACE):
            return head_tokens + tokens.count(a, b)
        return None

    counts = [derived(a, b) for a, b in ranges]
    todo = [k for k, n in enumerate(counts) if n is None]
    for k, n in zip(todo, count_many(counter, [f"{head}\n{text[ranges[k][0]:ranges[k][1]]}" for k in todo])):
        counts[k] = n
    out = []
    for (a, b), n in zip(ranges, counts):
        while n > limit and b > a:  # _fit's loop; a cut at a space is counted from the offsets again
            cut = text.rfind(" ", a, b - 1)
            b = cut if cut > a else b - 1
            n = derived(a, b)
            if n is None:
                n = counter.count_tokens(f"{head}\n{text[a:b]}")
        out.append(b)
    return out


def _limit(counter: TokenCounter, chunk_tokens: int) -> int:
    return min(chunk_tokens, counter.window - SPECIAL_TOKENS)


_SUBLABEL = re.compile(r"(?:^|(?<=\n)|(?<=[.;:—–-]\s))\s*\((\d{1,3}[A-Z]?)\)\s")


def chunk_section(section: Section, counter: TokenCounter, *, chunk_tokens: int = 240,
                  overlap: int = 32) -> tuple[Chunk, ...]:
    """Chunks of one section (empty tuple for a section with no text).

    Meta holds ``act``, ``section``, ``code`` (``old``/``new``/``other``), ``chapter``, ``status``, ``subs``
    (the sub-section labels that start inside the chunk, comma-separated, e.g. ``"3,4"``), ``print`` =
    ``"bill"`` for a section printed in a Bill, not the enacted Act (``statutes.BILL_NOTE``; absent otherwise),
    ``open`` (the sub-section and clause running where the chunk begins, :func:`legal_rag.law.pinpoint.open_state`;
    absent at a marker or before any) and ``pages_at`` (the page of each offset of the chunk's text,
    ``"0:86,412:87"``, from ``Section.page_starts``; absent when not known). Neither moves a boundary or an id.
    """
    text = section.text
    if not text.strip():
        return ()
    ref = section.ref
    head = statute_heading(ref.act, ref.section, section.title)
    limit = _limit(counter, chunk_tokens)
    head_tokens = counter.count_tokens(head + "\n")
    budget = limit - head_tokens + SPECIAL_TOKENS
    if budget < 16:
        raise ValueError(f"{section.source}: heading of {ref} leaves {budget} tokens of {limit}")
    plain = without_instructions(text)  # what is counted; the chunk keeps the text itself
    toks = _Tokens(offsets_many(counter, [plain])[0])
    ranges = split_ranges(text, toks, 0, len(text), budget, overlap)
    ranges = [(a, b) for (a, _), b in zip(ranges, _fit_all(counter, head, head_tokens, plain, toks, ranges, limit))]
    code = "old" if ref.act in OLD_ACTS else "new" if ref.act in NEW_ACTS else "other"
    out = []
    for i, (a, b) in enumerate(ranges):
        body = text[a:b]
        subs = ",".join(m.group(1) for m in _SUBLABEL.finditer(body))
        meta = {"act": ref.act, "section": ref.section, "code": code, "chapter": section.chapter,
                "status": section.status, "subs": subs,
                "print": "bill" if any(n.startswith(BILL_NOTE) for n in section.notes) else "",
                "open": open_state(text, a), "pages_at": _pages_at(section.page_starts, a, b)}
        base = Chunk(id="", kind="statute", text=body, title=section.title, source=section.source,
                     pages=section.pages, part=i, parts=len(ranges), ref=ref, span=(a, b),
                     meta=tuple(sorted((k, v) for k, v in meta.items() if v)))
        cid = f"{safe_id(ref.act)}-{safe_id(ref.section)}-{i}-{_sha8(passage_text(base))}"
        out.append(_with_id(base, cid))
    return tuple(out)


def _pages_at(starts: Sequence[tuple[int, int]], a: int, b: int) -> str:
    """The chunk ``[a, b)``'s page map for its meta ``pages_at`` (:func:`legal_rag.law.pinpoint.page_map`): the page
    at its first character and each page that begins inside it, offsets relative to the chunk; ``""`` when the
    section's ``page_starts`` are unknown."""
    if not starts:
        return ""
    first = max((p for o, p in starts if o <= a), default=starts[0][1])
    return format_page_map([(0, first), *((o - a, p) for o, p in starts if a < o < b)])


def _with_id(chunk: Chunk, cid: str) -> Chunk:
    return replace(chunk, id=cid)


def chunk_judgment(paragraphs: Sequence[Paragraph], counter: TokenCounter, *, judgment: Judgment | None = None,
                   chunk_tokens: int = 240, overlap: int = 32) -> tuple[Chunk, ...]:
    """Chunks of one judgment from its paragraphs in order: whole consecutive paragraphs packed up to the
    budget (a paragraph holding nothing but instructions to a model stands alone); a paragraph longer than the budget is split inside itself (with overlap). All paragraphs must
    belong to one case (ValueError otherwise)."""
    return _chunk_judgment(paragraphs, counter, judgment, chunk_tokens, overlap, None)


def judgment_meta(judgment: Judgment) -> dict[str, str]:
    """The chunk meta every chunk of ``judgment`` carries, parsed once from its header
    (:mod:`legal_rag.ingest.judgment_header`): ``court``, ``date`` (ISO), ``year``, ``citations`` (canonical
    neutral / reporter citations joined by ``"; "``: ``"[2024] 7 S.C.R. 97; 2024 INSC 479"``), ``case_numbers``
    (as printed, joined by ``"; "``), ``decision`` (``"judgment"`` or ``"order"``: an order is cited as one),
    ``bench`` (judges joined by ``"; "``) and ``within`` (where in a source holding many it sits). Empty values are
    left out of the chunk."""
    return {"court": judgment.court, "date": judgment.date, "year": judgment.date[:4],
            "citations": "; ".join(judgment.citations), "case_numbers": "; ".join(judgment.case_numbers),
            "decision": judgment.decision, "bench": "; ".join(judgment.bench), "within": judgment.within}


def _printed_of(judgment: Judgment | None, pages: tuple[int, int]) -> str:
    """Meta ``printed_pages`` of a chunk on PDF ``pages`` (first, last): ``"3:152,4:153"`` (PDF page: the page
    number the report prints there, :mod:`legal_rag.ingest.printed_pages`); ``""`` for a print without them."""
    if judgment is None or not judgment.printed_pages:
        return ""
    return format_printed((k, n) for k, n in judgment.printed_pages if pages[0] <= k <= pages[1])


def _judgment_text(paragraphs: Iterable[Paragraph]) -> str:
    """The text a judgment's spans index: its non-blank paragraphs joined by ``JOIN``."""
    return JOIN.join(p.text for p in paragraphs if p.text.strip())


def _chunk_judgment(paragraphs: Sequence[Paragraph], counter: TokenCounter, judgment: Judgment | None,
                    chunk_tokens: int, overlap: int,
                    text_offsets: Callable[[], Sequence[tuple[int, int]]] | None) -> tuple[Chunk, ...]:
    """:func:`chunk_judgment`; ``text_offsets()``, when given, returns ``counter.token_offsets`` of
    :func:`_judgment_text` (computed ahead by :func:`chunk_corpus`), used unless instructions are blanked."""
    paras = [p for p in paragraphs if p.text.strip()]
    if not paras:
        return ()
    case = paras[0].case
    if any(p.case != case for p in paras):
        raise ValueError(f"{paras[0].source}: paragraphs of several cases given to chunk_judgment")
    meta_base = {"case": case}
    if judgment is not None:
        meta_base.update(judgment_meta(judgment))
    title = judgment.title if judgment is not None and judgment.title else case
    kind = judgment.kind if judgment is not None else "judgment"  # "document": a note, never called a judgment
    probe = Chunk(id="", kind=kind, text="", title=title, source=paras[0].source, pages=paras[0].pages,
                  case=case, meta=tuple(sorted((k, v) for k, v in meta_base.items() if v)))
    head = passage_text(probe)[:-1]
    limit = _limit(counter, chunk_tokens)
    head_tokens = counter.count_tokens(head + "\n")
    budget = limit - head_tokens + SPECIAL_TOKENS
    text = JOIN.join(p.text for p in paras)
    spans, pos = [], 0
    for p in paras:
        spans.append((pos, pos + len(p.text)))
        pos += len(p.text) + len(JOIN)
    if instruction_spans(text):
        plain = without_instructions(text)  # what is counted; the chunk keeps the text itself
        alone = [instruction_only(p.text) for p in paras]  # a planted paragraph is its own chunk, never packed
        offsets = offsets_many(counter, [plain])[0]
    else:  # no instruction pattern matches the whole text, so none matches any paragraph of it (each one is a
        # substring between JOIN blank lines, and the patterns' only anchors, \b and ^|\n, hold there as well)
        plain, alone = text, [False] * len(paras)
        offsets = text_offsets() if text_offsets is not None else offsets_many(counter, [plain])[0]
    toks = _Tokens(offsets)
    groups: list[tuple[int, int, int, int]] = []  # (first para, last para, start, end)
    i = 0
    while i < len(paras):
        j = i
        while (not alone[i] and j + 1 < len(paras) and not alone[j + 1]
               and toks.count(spans[i][0], spans[j + 1][1]) <= budget):
            j += 1
        if j == i and toks.count(*spans[i]) > budget:
            for a, b in split_ranges(text, toks, spans[i][0], spans[i][1], budget, overlap):
                groups.append((i, i, a, b))
        else:
            groups.append((i, j, spans[i][0], spans[j][1]))
        i = j + 1
    ends = _fit_all(counter, head, head_tokens, plain, toks, [(a, b) for _, _, a, b in groups], limit)
    out = []
    for n, ((i, j, a, _), b) in enumerate(zip(groups, ends)):
        ps = paras[i:j + 1]
        numbers = [p.number for p in ps if p.number]
        cites = sorted({str(c) for p in ps for c in p.cites})
        pages = (min(p.pages[0] for p in ps), max(p.pages[1] for p in ps))
        para_at = format_para_map((max(0, spans[k][0] - a), paras[k].number, paras[k].pages)
                                  for k in range(i, j + 1) if spans[k][1] > a)
        meta = dict(meta_base, paras="-".join(dict.fromkeys([numbers[0], numbers[-1]])) if numbers else "",
                    cites=";".join(cites), printed_pages=_printed_of(judgment, pages),
                    para_at=para_at if numbers else "")
        base = Chunk(id="", kind=kind, text=text[a:b], title=title, source=ps[0].source,
                     pages=pages, part=n, parts=len(groups),
                     case=case, span=(a, b), meta=tuple(sorted((k, v) for k, v in meta.items() if v)))
        out.append(_with_id(base, f"{safe_id(case)}-{n}-{_sha8(passage_text(base))}"))
    return tuple(out)


def chunk_corpus(sections: Iterable[Section], paragraphs: Iterable[Paragraph], counter: TokenCounter, *,
                 judgments: Mapping[str, Judgment] | None = None, chunk_tokens: int = 240,
                 overlap: int = 32) -> tuple[Chunk, ...]:
    """All chunks of a corpus: sections one by one, paragraphs grouped by case in their given order.

    With a counter that has ``token_offsets_many`` (the embedder), each judgment's text is tokenized ``AHEAD``
    judgments early in one worker thread: the Rust tokenizer releases the GIL, so it runs beside the Python work
    (instruction scan, packing, ids) on a second core; the chunks are the same as one judgment at a time."""
    out: list[Chunk] = []
    for s in sections:
        out.extend(chunk_section(s, counter, chunk_tokens=chunk_tokens, overlap=overlap))
    by_case: dict[str, list[Paragraph]] = {}
    for p in paragraphs:
        by_case.setdefault(p.case, []).append(p)
    cases = list(by_case.items())
    many = getattr(counter, "token_offsets_many", None)
    if many is None or len(cases) < 2:
        for case, ps in cases:
            out.extend(_chunk_judgment(ps, counter, (judgments or {}).get(case), chunk_tokens, overlap, None))
        return tuple(out)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="chunk-tokenize") as pool:
        ahead = deque(pool.submit(many, [_judgment_text(ps)]) for _, ps in cases[:AHEAD])
        for k, (case, ps) in enumerate(cases):
            job = ahead.popleft()
            if k + AHEAD < len(cases):
                ahead.append(pool.submit(many, [_judgment_text(cases[k + AHEAD][1])]))
            out.extend(_chunk_judgment(ps, counter, (judgments or {}).get(case), chunk_tokens, overlap,
                                       lambda job=job: job.result()[0]))
    return tuple(out)
