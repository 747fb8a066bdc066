"""The quotation check: is a quotation attributed to a judgment in that judgment, word for word, with
changes, or not at all. Pure; no model.

``check_quotation(quote, chunks) -> QuoteCheck`` over the judgment's chunks (:class:`~legal_rag.types.Chunk`, in
reading order):

1. Words are compared, not characters: case, punctuation, quote marks, dashes and line breaks are ignored
   (``"Sub-section (4)"`` matches ``"sub section 4"``), so a reflowed PDF line is no "change".
2. The candidate passages are those sharing the most word trigrams with the quotation; each chunk is also tried
   joined with the next one (a quotation can run over a chunk boundary).
3. In the best candidate, :class:`difflib.SequenceMatcher` aligns the quotation's words with the passage's; only
   matching runs of at least :data:`MIN_RUN` words count (scattered "the", "of" say nothing). ``coverage`` is the
   share of the quotation's words inside such runs.
   The court's own paragraphs are pinned, never a reporter's headnote (:func:`court_first`): in a judgment that
   numbers its paragraphs (chunk meta ``paras``), an unnumbered passage before them is the law report's headnote
   (SCR: "HELD: 1. ... [Para 13][155-G-H]"), which repeats the court's words and points to the paragraph they come
   from. A headnote's pointer (``[Para 13]``, ``[Paras 14, 15]``) after the matched words adds that paragraph to
   the candidates; a court's paragraph holding the quotation (verbatim or with changes) wins over any headnote, and
   the verdict is the court's paragraph's (a footnote mark printed in it, which the headnote drops, is no change).
4. Verdict: ``verbatim`` when the whole quotation occurs as one contiguous run, or, for a quotation with omission
   marks ("...", "\u2026"), when each fragment between them (each of :data:`MIN_RUN` words at least) occurs word
   for word, in order, in the passage;
   ``changed`` when ``coverage`` is at least :data:`CHANGED_MIN_COVERAGE` (the changes listed word by word,
   :func:`word_changes`); else ``absent`` (a quotation made up and attributed to a real judgment is reported as
   not found).

Thresholds are judgement calls, not fitted: a one-word change in a 20-word quotation leaves coverage >= 0.9; a
sentence written in the same legal register but not taken from the judgment shares few 3-word runs (< 0.3 on the
real-corpus tests).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..text import normalise
from ..types import Chunk

Verdict = Literal["verbatim", "changed", "absent"]
#: matching runs shorter than this many words do not count towards coverage
MIN_RUN = 3
#: share of the quotation's words in matching runs above which it is "there with changes"
CHANGED_MIN_COVERAGE = 0.6
#: candidate passages aligned in full (by shared trigrams)
CANDIDATES = 5

_WORD = re.compile(r"[A-Za-z0-9\u0900-\u097F]+(?:'[A-Za-z]+)?")


@dataclass(frozen=True)
class QuoteCheck:
    """The verdict on one quotation: ``verdict``; ``chunk`` the closest passage (``None`` when the judgment has no
    text); ``found`` the passage's text aligned with the quotation (as printed, spaces collapsed; "" when absent);
    ``changes`` one line per difference (``"'may' -> 'shall'"``, ``"missing: 'not'"``, ``"added: 'ever'"``);
    ``coverage`` 0..1 (module docstring)."""

    verdict: Verdict
    chunk: Chunk | None
    found: str
    changes: tuple[str, ...]
    coverage: float


def words(text: str) -> list[tuple[str, str]]:
    """``(key, as printed)`` for each word of ``text``; the key is lower case without accents or punctuation."""
    return [(normalise(m.group(0)).replace("'", ""), m.group(0)) for m in _WORD.finditer(text.replace("\u2019", "'"))]


def _trigrams(keys: Sequence[str]) -> set[tuple[str, ...]]:
    return {tuple(keys[i:i + 3]) for i in range(max(0, len(keys) - 2))}


def word_changes(quoted: Sequence[tuple[str, str]], printed: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """The differences between the quotation's words and the passage's aligned words, in order:
    ``"'shall' -> 'may'"`` (the quotation says shall, the judgment may), ``"missing: 'not'"`` (in the judgment, not
    in the quotation), ``"added: 'ever'"`` (in the quotation only)."""
    sm = difflib.SequenceMatcher(None, [k for k, _ in quoted], [k for k, _ in printed], autojunk=False)
    out = []
    for op, a1, a2, b1, b2 in sm.get_opcodes():
        q = " ".join(w for _, w in quoted[a1:a2])
        p = " ".join(w for _, w in printed[b1:b2])
        if op == "replace":
            out.append(f"'{q}' -> '{p}'")
        elif op == "delete":
            out.append(f"added: '{q}'")
        elif op == "insert":
            out.append(f"missing: '{p}'")
    return tuple(out)


_ELLIPSIS = re.compile(r"\.\s?\.\s?\.|\u2026|\[\s?\.\.\.\s?\]")


def _fragments(quote: str) -> list[list[str]]:
    """The quotation's word keys, one list per fragment between omission marks ("...", "\u2026")."""
    return [ks for part in _ELLIPSIS.split(quote) if (ks := [k for k, _ in words(part)])]


def _in_order(frags: Sequence[Sequence[str]], tk: Sequence[str]) -> tuple[int, int] | None:
    """``[start, end)`` in ``tk`` from the first fragment's start to the last one's end when every fragment occurs
    contiguously, in order (the earliest such placement); ``None`` otherwise."""
    pos, start = 0, None
    for f in frags:
        n = len(f)
        at = next((i for i in range(pos, len(tk) - n + 1) if list(tk[i:i + n]) == list(f)), None)
        if at is None:
            return None
        start = at if start is None else start
        pos = at + n
    return (start, pos) if start is not None else None


def _align(q: list[tuple[str, str]], text: str,
           frags: Sequence[Sequence[str]] = ()) -> tuple[float, bool, str, tuple[str, ...]]:
    spans = [m.span() for m in _WORD.finditer(text.replace("\u2019", "'"))]
    t = words(text)
    qk, tk = [k for k, _ in q], [k for k, _ in t]
    if len(frags) > 1 and all(len(f) >= MIN_RUN for f in frags):  # "...": words left out, not changed
        placed = _in_order(frags, tk)
        if placed is not None:
            return 1.0, True, re.sub(r"\s+", " ", text[spans[placed[0]][0]:spans[placed[1] - 1][1]]), ()
    sm = difflib.SequenceMatcher(None, qk, tk, autojunk=False)
    runs = [b for b in sm.get_matching_blocks() if b.size >= MIN_RUN]
    if not runs:
        return 0.0, False, "", ()
    coverage = sum(b.size for b in runs) / len(qk)
    verbatim = any(b.size == len(qk) for b in runs)
    lo = runs[0].b - runs[0].a  # where the quotation would start in the passage
    hi = runs[-1].b + runs[-1].size + (len(qk) - runs[-1].a - runs[-1].size)
    lo, hi = max(0, min(lo, runs[0].b)), min(len(t), max(hi, runs[-1].b + runs[-1].size))
    window = t[lo:hi]
    printed = re.sub(r"\s+", " ", text[spans[lo][0]:spans[hi - 1][1]]) if hi > lo else ""
    return coverage, verbatim, printed, (() if verbatim else word_changes(q, window))


#: a law report's pointer from a headnote to the court's paragraph(s): "[Para 13]", "[Paras 14 and 15]"
_POINTER = re.compile(r"\[\s*Paras?\s+([\d.,\s&and-]+?)\s*\]", re.I)


#: the only difference a footnote mark in the court's text makes ("... substantial weight. 1 The three-day ..."):
#: not a word of the court's, so no change
_FOOTNOTE_MARK = re.compile(r"missing: '\d{1,2}'")


def is_headnote(chunk: Chunk, chunks: Sequence[Chunk]) -> bool:
    """Whether ``chunk`` is a reporter's headnote: unnumbered (no meta ``paras``) in a judgment some of whose
    ``chunks`` are numbered paragraphs. A judgment that numbers none (a JUDIS print) has no headnote this way."""
    return not dict(chunk.meta).get("paras") and any(dict(c.meta).get("paras") for c in chunks)


def pointed_paras(text: str, after: int = 0) -> tuple[str, ...]:
    """The paragraph numbers of the first headnote pointer (:data:`_POINTER`) in ``text`` at or after ``after``:
    ``pointed_paras("... weight. [Para 13][155-G-H] 2. Pleas") -> ("13",)``; ``()`` when none."""
    m = _POINTER.search(text, after)
    return tuple(re.findall(r"\d+(?:\.\d+)?", m.group(1))) if m else ()


def court_first(check: tuple[bool, float], headnote: bool) -> tuple[bool, bool, float]:
    """The order of two alignments ``(verbatim, coverage)``: a court's paragraph that holds the quotation
    (coverage at least :data:`CHANGED_MIN_COVERAGE`) before any headnote, then verbatim, then coverage."""
    verb, cov = check
    return (not headnote and cov >= CHANGED_MIN_COVERAGE, verb, cov)


def _pointed(q: list[tuple[str, str]], i: int, chunks: Sequence[Chunk]) -> list[int]:
    """The indexes of the court's paragraphs a headnote ``chunks[i]`` points to after the words of ``q``."""
    text = chunks[i].text + ("\n" + chunks[i + 1].text if i + 1 < len(chunks) else "")
    keys = [k for k, _ in q]
    spans = [m.span() for m in _WORD.finditer(text)]
    ws = [k for k, _ in words(text)]
    at = next((spans[j + len(keys) - 1][1] for j in range(len(ws) - len(keys) + 1) if ws[j:j + len(keys)] == keys),
              0)
    want = set(pointed_paras(text, at))
    return [j for j, c in enumerate(chunks) if want & set(re.split(r"[-,;\s]+", dict(c.meta).get("paras", "")))]


def check_quotation(quote: str, chunks: Sequence[Chunk]) -> QuoteCheck:
    """The verdict on ``quote`` against one judgment's ``chunks`` (module docstring). An empty quotation or
    judgment is ``absent`` with coverage 0."""
    q = words(quote)
    if not q or not chunks:
        return QuoteCheck("absent", chunks[0] if chunks else None, "", (), 0.0)
    qt = _trigrams([k for k, _ in q]) or {tuple(k for k, _ in q)}
    joined = [(c, c.text if i + 1 >= len(chunks) else f"{c.text}\n{chunks[i + 1].text}") for i, c in enumerate(chunks)]
    scored = sorted(((len(qt & _trigrams([k for k, _ in words(t)])), i) for i, (_, t) in enumerate(joined)),
                    key=lambda s: (-s[0], s[1]))[:CANDIDATES]
    best: tuple[tuple[bool, bool, float], str, tuple[str, ...], int] | None = None
    frags = _fragments(quote)
    order = [i for _, i in scored]
    order += [j for i in order if is_headnote(chunks[i], chunks) for j in _pointed(q, i, chunks) if j not in order]
    for i in order:
        cov, verb, found, changes = _align(q, joined[i][1], frags)
        key = court_first((verb, cov), is_headnote(chunks[i], chunks))
        if best is None or key > best[0]:
            best = (key, found, changes, i)
    assert best is not None
    (_, verb, cov), found, changes, i = best
    chunk = joined[i][0]
    if i + 1 < len(chunks):  # the passage cited: the one of the pair that holds more of the quotation
        here, there = _align(q, chunk.text, frags), _align(q, chunks[i + 1].text, frags)
        if (there[1], there[0]) > (here[1], here[0]):
            chunk = chunks[i + 1]
    if verb or (changes and all(_FOOTNOTE_MARK.fullmatch(c) for c in changes)):
        return QuoteCheck("verbatim", chunk, found, (), 1.0)
    if cov >= CHANGED_MIN_COVERAGE:
        return QuoteCheck("changed", chunk, found, changes, cov)
    return QuoteCheck("absent", chunk, "", (), cov)


def where(chunk: Chunk) -> str:
    """Where a judgment passage is, for a reader: ``"para 16, pp. 156-157"`` (``paras`` from the chunk metadata;
    the report's printed pages from meta ``printed_pages``, ``"3:152,4:153"``; else ``"PDF p. 7"`` for a PDF,
    whose page index is real; a plain-text judgment's pseudo-pages mean nothing and are not shown)."""
    meta = dict(chunk.meta)
    parts = []
    paras = meta.get("paras", "")
    if paras:
        parts.append(("paras " if "-" in paras or "," in paras else "para ") + paras)
    printed = sorted({int(n) for pair in meta.get("printed_pages", "").split(",") if ":" in pair
                      for n in [pair.split(":", 1)[1].strip()] if n.isdigit()})
    if printed:  # the report's own page numbers ("3:152,4:153": PDF page 3 prints 152)
        parts.append(f"p. {printed[0]}" if len(printed) == 1 else f"pp. {printed[0]}-{printed[-1]}")
    elif chunk.source.lower().endswith(".pdf"):
        a, b = chunk.pages
        parts.append(f"PDF p. {a}" if a == b else f"PDF pp. {a}-{b}")
    return ", ".join(parts)


def quotation_text(title: str, citation: str, check: QuoteCheck, marker: int = 1) -> str:
    """The answer's words for one check: the judgment named first, then the verdict, the passage cited as
    ``[marker]`` with its paragraph and page, and the changes (one per line)."""
    name = f"{title}, {citation}" if citation else title
    if check.chunk is None:
        return f"{name}: no text of this judgment is indexed, so the quotation cannot be checked."
    loc = where(check.chunk)
    at = f" ({loc})" if loc else ""
    if check.verdict == "verbatim":
        return (f"{name}: the quotation is there verbatim{at} [{marker}].")
    if check.verdict == "changed":
        lines = "\n".join(f"- {c}" for c in check.changes)
        return (f"{name}: the quotation is there with changes{at} [{marker}]. The judgment reads: "
                f"\u201c{check.found}\u201d\nChanges (the quotation -> the judgment):\n{lines}")
    return (f"{name}: the quotation is not found in this judgment. No passage of it matches (the closest shares "
            f"{check.coverage:.0%} of the quotation's words in runs of {MIN_RUN} or more); it should not be "
            f"attributed to this judgment.")


__all__ = ["CANDIDATES", "CHANGED_MIN_COVERAGE", "MIN_RUN", "QuoteCheck", "Verdict", "check_quotation", "court_first",
           "is_headnote", "pointed_paras",
           "quotation_text", "where", "word_changes", "words"]
