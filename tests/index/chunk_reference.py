"""The chunker as it was before issue 13 (``legal_rag/ingest/chunk.py`` at commit 75021ad), kept verbatim as the
reference the fast chunker must reproduce byte for byte (tests/index/test_chunk_identity.py). It counts every
chunk with its own tokenizer call and scans every candidate boundary on every step: ~2x the CPU of the new one.
Do not edit it to follow later changes of the chunker's rules; replace it with the new rules' reference instead."""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left, bisect_right
from typing import Iterable, Mapping, Protocol, Sequence

from legal_rag.injection import instruction_only, without_instructions
from legal_rag.types import NEW_ACTS, OLD_ACTS, Chunk, Judgment, Paragraph, Section, passage_text, statute_heading
from legal_rag.ingest.statutes import BILL_NOTE

JOIN = "\n\n"
SPECIAL_TOKENS = 2
#: a candidate boundary must leave at least this share of the budget in the chunk before it
MIN_FILL = 0.35


class TokenCounter(Protocol):
    """What chunking needs from the embedder (``legal_rag.index.embed.Embedder`` provides it)."""

    window: int

    def count_tokens(self, text: str) -> int: ...  # special tokens included

    def token_offsets(self, text: str) -> list[tuple[int, int]]: ...  # special tokens excluded


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
    """Token positions of one text, for counting the tokens inside a character range in O(log n)."""

    def __init__(self, offsets: Sequence[tuple[int, int]]):
        self.starts = [s for s, _ in offsets]
        self.ends = [e for _, e in offsets]

    def count(self, a: int, b: int) -> int:
        """Tokens that start at or after ``a`` and end at or before ``b``."""
        return max(0, bisect_right(self.ends, b) - bisect_left(self.starts, a))

    def end_after(self, a: int, n: int) -> int:
        """Character end of the ``n``-th token starting at or after ``a``."""
        i = bisect_left(self.starts, a) + n - 1
        return self.ends[min(i, len(self.ends) - 1)]


def _bounds(text: str, a: int, b: int) -> list[list[int]]:
    """Candidate split positions in ``text[a:b]`` by priority (sub-section, clause, sentence, word)."""
    out = []
    for rx in (_SUBSECTION, _CLAUSE, _SENTENCE, _WORD):
        pos = sorted({m.end() if rx in (_SENTENCE, _WORD) else m.start() + (len(m.group()) - len(m.group().lstrip()))
                      for m in rx.finditer(text, a, b)})
        out.append([p for p in pos if a < p < b])
    return out


def split_ranges(text: str, tokens: _Tokens, a: int, b: int, budget: int, overlap: int) -> list[tuple[int, int]]:
    """Cut ``text[a:b]`` into ranges of at most ``budget`` tokens at the best boundaries, overlapping by up to
    ``overlap`` tokens (at word boundaries). Ranges are stripped of surrounding whitespace."""
    if tokens.count(a, b) <= budget:
        return [_strip(text, a, b)]
    levels = _bounds(text, a, b)
    words = levels[-1]
    out: list[tuple[int, int]] = []
    s = a
    while s < b:
        if tokens.count(s, b) <= budget:
            out.append(_strip(text, s, b))
            break
        limit = tokens.end_after(s, budget)
        e = None
        for lvl in levels:
            cands = [p for p in lvl if s < p <= limit and tokens.count(s, p) >= budget * MIN_FILL]
            if cands:
                e = cands[-1]
                break
        if e is None:  # one "word" longer than the budget: cut at a token boundary
            e = limit
        out.append(_strip(text, s, e))
        nxt = e
        if overlap:  # start the next part up to `overlap` tokens back, at a sentence end if one is there
            for lvl in (levels[2], words):
                back = [p for p in lvl if s < p < e and tokens.count(p, e) <= overlap]
                if back:
                    nxt = back[0]
                    break
        s = nxt if nxt > s else e
    return [r for r in out if r[1] > r[0]]


def _strip(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def _fit(counter: TokenCounter, head: str, text: str, a: int, b: int, limit: int) -> int:
    """Shrink ``b`` word by word until heading + ``text[a:b]`` fits ``limit`` tokens exactly (a guard against
    the rare tokenization difference between a substring and the whole text)."""
    while counter.count_tokens(f"{head}\n{text[a:b]}") > limit and b > a:
        cut = text.rfind(" ", a, b - 1)
        b = cut if cut > a else b - 1
    return b


def _limit(counter: TokenCounter, chunk_tokens: int) -> int:
    return min(chunk_tokens, counter.window - SPECIAL_TOKENS)


_SUBLABEL = re.compile(r"(?:^|(?<=\n)|(?<=[.;:—–-]\s))\s*\((\d{1,3}[A-Z]?)\)\s")


def chunk_section(section: Section, counter: TokenCounter, *, chunk_tokens: int = 240,
                  overlap: int = 32) -> tuple[Chunk, ...]:
    """Chunks of one section (empty tuple for a section with no text).

    Meta holds ``act``, ``section``, ``code`` (``old``/``new``/``other``), ``chapter``, ``status``, ``subs``
    (the sub-section labels that start inside the chunk, comma-separated, e.g. ``"3,4"``) and ``print`` =
    ``"bill"`` for a section printed in a Bill, not the enacted Act (``statutes.BILL_NOTE``; absent otherwise).
    """
    text = section.text
    if not text.strip():
        return ()
    ref = section.ref
    head = statute_heading(ref.act, ref.section, section.title)
    limit = _limit(counter, chunk_tokens)
    budget = limit - counter.count_tokens(head + "\n") + SPECIAL_TOKENS
    if budget < 16:
        raise ValueError(f"{section.source}: heading of {ref} leaves {budget} tokens of {limit}")
    plain = without_instructions(text)  # what is counted; the chunk keeps the text itself
    toks = _Tokens(counter.token_offsets(plain))
    ranges = split_ranges(text, toks, 0, len(text), budget, overlap)
    ranges = [(a, _fit(counter, head, plain, a, b, limit)) for a, b in ranges]
    code = "old" if ref.act in OLD_ACTS else "new" if ref.act in NEW_ACTS else "other"
    out = []
    for i, (a, b) in enumerate(ranges):
        body = text[a:b]
        subs = ",".join(m.group(1) for m in _SUBLABEL.finditer(body))
        meta = {"act": ref.act, "section": ref.section, "code": code, "chapter": section.chapter,
                "status": section.status, "subs": subs,
                "print": "bill" if any(n.startswith(BILL_NOTE) for n in section.notes) else ""}
        base = Chunk(id="", kind="statute", text=body, title=section.title, source=section.source,
                     pages=section.pages, part=i, parts=len(ranges), ref=ref, span=(a, b),
                     meta=tuple(sorted((k, v) for k, v in meta.items() if v)))
        cid = f"{safe_id(ref.act)}-{safe_id(ref.section)}-{i}-{_sha8(passage_text(base))}"
        out.append(_with_id(base, cid))
    return tuple(out)


def _with_id(chunk: Chunk, cid: str) -> Chunk:
    from dataclasses import replace

    return replace(chunk, id=cid)


def chunk_judgment(paragraphs: Sequence[Paragraph], counter: TokenCounter, *, judgment: Judgment | None = None,
                   chunk_tokens: int = 240, overlap: int = 32) -> tuple[Chunk, ...]:
    """Chunks of one judgment from its paragraphs in order: whole consecutive paragraphs packed up to the
    budget (a paragraph holding nothing but instructions to a model stands alone); a paragraph longer than the budget is split inside itself (with overlap). All paragraphs must
    belong to one case (ValueError otherwise)."""
    paras = [p for p in paragraphs if p.text.strip()]
    if not paras:
        return ()
    case = paras[0].case
    if any(p.case != case for p in paras):
        raise ValueError(f"{paras[0].source}: paragraphs of several cases given to chunk_judgment")
    meta_base = {"case": case}
    if judgment is not None:
        meta_base.update(court=judgment.court, date=judgment.date, year=judgment.date[:4])
    title = judgment.title if judgment is not None and judgment.title else case
    kind = judgment.kind if judgment is not None else "judgment"  # "document": a note, never called a judgment
    probe = Chunk(id="", kind=kind, text="", title=title, source=paras[0].source, pages=paras[0].pages,
                  case=case, meta=tuple(sorted((k, v) for k, v in meta_base.items() if v)))
    head = passage_text(probe)[:-1]
    limit = _limit(counter, chunk_tokens)
    budget = limit - counter.count_tokens(head + "\n") + SPECIAL_TOKENS
    text = JOIN.join(p.text for p in paras)
    spans, pos = [], 0
    for p in paras:
        spans.append((pos, pos + len(p.text)))
        pos += len(p.text) + len(JOIN)
    plain = without_instructions(text)  # what is counted; the chunk keeps the text itself
    toks = _Tokens(counter.token_offsets(plain))
    groups: list[tuple[int, int, int, int]] = []  # (first para, last para, start, end)
    alone = [instruction_only(p.text) for p in paras]  # a planted paragraph is its own chunk, never packed
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
    out = []
    for n, (i, j, a, b) in enumerate(groups):
        b = _fit(counter, head, plain, a, b, limit)
        ps = paras[i:j + 1]
        numbers = [p.number for p in ps if p.number]
        cites = sorted({str(c) for p in ps for c in p.cites})
        meta = dict(meta_base, paras="-".join(dict.fromkeys([numbers[0], numbers[-1]])) if numbers else "",
                    cites=";".join(cites))
        base = Chunk(id="", kind=kind, text=text[a:b], title=title, source=ps[0].source,
                     pages=(min(p.pages[0] for p in ps), max(p.pages[1] for p in ps)), part=n, parts=len(groups),
                     case=case, span=(a, b), meta=tuple(sorted((k, v) for k, v in meta.items() if v)))
        out.append(_with_id(base, f"{safe_id(case)}-{n}-{_sha8(passage_text(base))}"))
    return tuple(out)


def chunk_corpus(sections: Iterable[Section], paragraphs: Iterable[Paragraph], counter: TokenCounter, *,
                 judgments: Mapping[str, Judgment] | None = None, chunk_tokens: int = 240,
                 overlap: int = 32) -> tuple[Chunk, ...]:
    """All chunks of a corpus: sections one by one, paragraphs grouped by case in their given order."""
    out: list[Chunk] = []
    for s in sections:
        out.extend(chunk_section(s, counter, chunk_tokens=chunk_tokens, overlap=overlap))
    by_case: dict[str, list[Paragraph]] = {}
    for p in paragraphs:
        by_case.setdefault(p.case, []).append(p)
    for case, ps in by_case.items():
        out.extend(chunk_judgment(ps, counter, judgment=(judgments or {}).get(case), chunk_tokens=chunk_tokens,
                                  overlap=overlap))
    return tuple(out)
