"""The extractive generator: an answer made only of verbatim quotes from the passages, each with its ``[n]``.

No model, deterministic, milliseconds. For each passage (in retrieval order) the sentences, sub-sections and
explanations are scored against the question with an IDF-weighted overlap of content words (idf over the
units of the given passages, ``log(1 + N/df)``), illustrations count half, and a sentence that states a
punishment gets a bonus when the question asks about punishment. The best units are quoted, grouped under a
heading per section (or judgment), in the order the sections were retrieved:

    BNS 318 - Cheating [1]
    "(4) Whoever cheats and thereby dishonestly induces ... may extend to seven years, and shall also be liable
    to fine." [1]

Sentences addressed to a model (:mod:`.injection`) are never quoted. A unit longer than ``MAX_QUOTE_WORDS`` is
cut to its best run of clauses, with ``...`` where text was left out; the quote check of
:mod:`legal_rag.verify` matches the fragments in order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..types import Hit
from ..injection import instruction_spans
from .prompt import passage_label
from ..text import content_terms, punishment_terms, split_sentences, unwrap

MAX_QUOTE_WORDS = 70
MAX_UNITS = 6
PER_PASSAGE = (3, 2)  # units quoted from the top passage, from each other passage
_PUNISH_Q = frozenset(content_terms("punishment punish penalty sentence jail prison imprisonment fine term "
                                    "years"))


@dataclass(frozen=True)
class _Unit:
    n: int            # passage marker
    order: int        # position in the passage
    text: str
    terms: frozenset[str]
    illustration: bool
    punishes: bool


def _units(n: int, text: str) -> list[_Unit]:
    text = unwrap(text)
    bad = instruction_spans(text)
    out, in_illus = [], False
    for i, (a, b) in enumerate(split_sentences(text)):
        s = re.sub(r"\s+", " ", text[a:b]).strip()
        if re.fullmatch(r"illustrations?\.?", s, re.I):
            in_illus = True
            continue
        if re.match(r"\(\d+[A-Z]?\)|explanation", s, re.I):
            in_illus = False
        if any(x < b and y > a for x, y in bad) or len(s.split()) < 3:
            continue
        if i == 0 and s[:1].islower():
            continue  # the tail of a sentence carried over from the previous chunk (chunk overlap): not a claim
        out.append(_Unit(n, i, s, frozenset(content_terms(s)), in_illus, bool(punishment_terms(s) - {"fine"}) or
                         "punish" in s.lower()))
    return out


def _score(unit: _Unit, q: set[str], idf: dict[str, float], punish_q: bool) -> float:
    s = sum(idf.get(t, 0.0) for t in q & unit.terms)
    if punish_q and unit.punishes:
        s += 1.0 + max(idf.values(), default=0.0)
    s /= max(1.0, len(unit.terms)) ** 0.25
    return s * (0.5 if unit.illustration else 1.0)


def _shorten(text: str, q: set[str]) -> str:
    words = text.split()
    if len(words) <= MAX_QUOTE_WORDS:
        return text
    clauses = [c for c in re.split(r"(?<=[;,:])\s+", text) if c]
    best, best_span = -1.0, (0, 1)
    for i in range(len(clauses)):
        n = 0
        for j in range(i, len(clauses)):
            n += len(clauses[j].split())
            if n > MAX_QUOTE_WORDS and j > i:
                break
            hit = len(q & set(content_terms(" ".join(clauses[i:j + 1]))))
            score = hit + 0.001 * n
            if score > best:
                best, best_span = score, (i, j + 1)
    i, j = best_span
    piece = " ".join(clauses[i:j])
    if len(piece.split()) > MAX_QUOTE_WORDS:
        piece = " ".join(piece.split()[:MAX_QUOTE_WORDS])
        j = -1
    return ("\u2026 " if i > 0 else "") + piece + (" \u2026" if j != len(clauses) else "")


def _heading(hit: Hit) -> str:
    c = hit.chunk
    title = c.title.strip().rstrip(".")
    if c.ref is not None:
        return f"{c.ref.base}" + (f" - {title}" if title else "")
    return passage_label(c)


def compose(question: str, passages: Sequence[Hit], *, max_units: int = MAX_UNITS) -> str:
    """The extractive answer to ``question`` from ``passages`` (marker ``[n]`` = position + 1). Returns ``""``
    when no passage has a quotable unit."""
    units = {i + 1: _units(i + 1, h.chunk.text) for i, h in enumerate(passages)}
    all_units = [u for us in units.values() for u in us]
    if not all_units:
        return ""
    df: dict[str, int] = {}
    for u in all_units:
        for t in u.terms:
            df[t] = df.get(t, 0) + 1
    idf = {t: math.log(1 + len(all_units) / d) for t, d in df.items()}
    q = set(content_terms(question))
    punish_q = bool(q & _PUNISH_Q)
    chosen: list[_Unit] = []
    spoken: set = set()
    for n, us in units.items():
        ranked = sorted(us, key=lambda u: (-_score(u, q, idf, punish_q), u.order))
        picked = [u for u in ranked[:PER_PASSAGE[0] if n == 1 else PER_PASSAGE[1]] if _score(u, q, idf, punish_q) > 0]
        c = passages[n - 1].chunk
        key = c.ref.base if c.ref is not None else c.id
        if not picked and us and (n == 1 or (passages[n - 1].stage == "lookup" and key not in spoken)):
            # the top passage, and the first passage of every section the user named (or its official
            # successor), always speaks, even when no word of the question occurs in it
            picked = [us[0]]
        if picked:
            spoken.add(key)
        chosen += picked[: max(0, max_units - len(chosen))]
    groups: dict[object, list[_Unit]] = {}
    for u in chosen:
        c = passages[u.n - 1].chunk
        groups.setdefault(c.ref.base if c.ref is not None else (c.case or c.id), []).append(u)
    lines = []
    for members in groups.values():
        first = min(u.n for u in members)
        lines.append(f"{_heading(passages[first - 1])} [{first}]")
        for u in sorted(members, key=lambda u: (u.n, u.order)):
            lines.append(f"\u201c{_shorten(u.text, q)}\u201d [{u.n}]")
    return "\n".join(lines)
