"""The extractive generator: an answer made only of verbatim quotes from the passages, each with its ``[n]``.

No model, deterministic, milliseconds. For each passage (in retrieval order) the sentences, sub-sections and
explanations are scored against the question with an IDF-weighted overlap of content words (idf over the
units of the given passages, ``log(1 + N/df)``), illustrations count half, and a sentence that states a
punishment gets a bonus when the question asks about punishment. An illustration is one unit (its facts and its
verdict), quoted only after its section's operative words (from the same passage, or an earlier one), never alone.
The best units are quoted, grouped under a heading per section (or judgment), in the order the sections were
retrieved; a statute quote's heading names the sub-section (and clause) it is quoted from when its marker is
printed in the passage (:mod:`legal_rag.law.pinpoint`), so the heading, the citation and every export cite the same
provision:

    BNS 318(4) - Cheating [1]
    "(4) Whoever cheats and thereby dishonestly induces ... may extend to seven years, and shall also be liable
    to fine." [1]

**Quote windows.** A unit is a whole sentence as printed: a sub-section, a clause list with its common ending
(``(2) Whoever,— (a) ... (m) ..., shall be punished ...`` is one sentence), an explanation, a proviso or an
illustration; a section's number and inline title (``420. Cheating and dishonestly inducing delivery of
property.—``) are the heading's, not the quote's. A quote always begins where its unit begins, with the operative
words (``Whoever cheats and thereby dishonestly induces ...``), never mid-sentence; a unit longer than
``MAX_QUOTE_WORDS`` keeps its opening clause, the clauses that best match the question and its punishment, with
``…`` where text was left out (the quote check of :mod:`legal_rag.verify` matches the fragments in order). The
tail of a sentence carried over from the previous chunk (a chunk's overlap) is never a unit.

Sentences addressed to a model (:mod:`.injection`) are never quoted.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..injection import instruction_spans
from ..law import BLOCK, SUB, chunk_layout, pin
from ..text import content_terms, punishment_terms, split_sentences, trimmed, unwrap
from ..types import Chunk, Hit, StatuteRef
from .prompt import passage_label

MAX_QUOTE_WORDS = 70
MAX_UNITS = 6
PER_PASSAGE = (3, 2)  # units quoted from the top passage, from each other passage
_PUNISH_Q = frozenset(content_terms("punishment punish penalty sentence jail prison imprisonment fine term "
                                    "years"))
#: a sentence is complete when it ends so (a closing quote or bracket may follow)
_ENDS = re.compile(r"[.?!][\"\u201d\u2019')\]]*$")
#: where a long sentence may be cut: after , ; : or a dash, and before a clause marker on its own line
_CUT = re.compile(r"(?<=[,;:\u2014\u2013])\s+|(?<=[\u2014\u2013])(?=\S)|\s+(?=\[?\([a-z]{1,4}\)\s|\[?\(\d{1,3}[A-Z]?\)\s)")
_PUNISH = re.compile(r"\bpunish|\bliable\s+to\b", re.I)


@dataclass(frozen=True)
class _Unit:
    n: int            # passage marker
    order: int        # position in the passage
    start: int        # [start, end) in the passage text (chunk.text)
    end: int
    text: str         # the passage text of [start, end), spaces made single
    terms: frozenset[str]
    illustration: bool
    punishes: bool


def _squash(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def _sentences(text: str, number: str = "") -> list[tuple[int, int]]:
    """Spans of the whole sentences of a statute passage's ``text`` (already :func:`unwrap` ped):
    :func:`split_sentences`, with the lines of one sentence joined again (a clause list's lines end with ``;``,
    ``—`` or ``or``) up to a sentence end, never across a sub-section or an Explanation/Illustration/Exception/
    proviso heading; the section's ``number`` (``"420."`` at the head of its first chunk) joins the sentence after
    it."""
    out: list[tuple[int, int]] = []
    for a, b in split_sentences(text):
        if len(out) == 1 and number and re.fullmatch(rf"\[?{re.escape(number)}\s*\.", text[out[0][0]:out[0][1]]):
            out[-1] = (out[-1][0], b)
        elif out and not _ENDS.search(text[out[-1][0]:out[-1][1]]) \
                and not SUB.match(text, a) and not BLOCK.match(text, a) \
                and not re.fullmatch(r"illustrations?\.?", _squash(text[out[-1][0]:out[-1][1]]), re.I):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _lead(chunk: Chunk, text: str, a: int) -> int:
    """Where the quote of the unit at ``a`` begins: past the section's number and inline title at the head of a
    statute's first chunk (``"318. "``, ``"420. Cheating and dishonestly inducing delivery of property.—"``)."""
    if chunk.ref is None or chunk.part != 0 or a != len(text) - len(text.lstrip()):
        return a
    m = re.match(rf"\s*\[?{re.escape(chunk.ref.section)}\s*\.\s*", text[a:], re.I)
    if not m:
        return a
    b = a + m.end()
    title = re.sub(r"\W+", " ", chunk.title).strip().lower()
    t = re.match(r"(.{2,400}?)\.?\s*[\u2014\u2013]{1,2}\s*", text[b:], re.S)
    if title and t and re.sub(r"\W+", " ", t.group(1)).strip().lower() == title:
        b += t.end()
    return b


def _units(n: int, chunk: Chunk) -> list[_Unit]:
    text = unwrap(chunk.text)  # same length: offsets hold in chunk.text
    bad = instruction_spans(text)
    out, in_illus, last = [], False, -1
    spans = split_sentences(text) if chunk.ref is None else \
        _sentences(text, chunk.ref.section if chunk.part == 0 else "")
    for i, (a, b) in enumerate(spans):
        s = _squash(text[a:b])
        if re.fullmatch(r"illustrations?\.?", s, re.I):
            in_illus = True
            continue
        if re.match(r"\(\d+[A-Z]?\)|explanation", s, re.I):
            in_illus = False
        if any(x < b and y > a for x, y in bad) or len(s.split()) < 3:
            continue
        if i == 0 and (s[:1].islower() or s[:1] in ",;:)"):
            continue  # the tail of a sentence carried over from the previous chunk (chunk overlap): not a claim
        a = _lead(chunk, text, a)
        s = _squash(text[a:b])
        if len(s.split()) < 3:
            continue
        if in_illus and out and out[-1].illustration and last == i - 1 and not re.match(r"\([a-z]\)", s):
            a = out.pop().start  # one illustration is one unit: its facts and its verdict ("A has committed ...")
            s = _squash(text[a:b])
        out.append(_Unit(n, i, a, b, s, frozenset(content_terms(s)), in_illus,
                         bool(punishment_terms(s) - {"fine"}) or "punish" in s.lower()))
        last = i
    return out


def _score(unit: _Unit, q: set[str], idf: dict[str, float], punish_q: bool) -> float:
    s = sum(idf.get(t, 0.0) for t in q & unit.terms)
    if punish_q and unit.punishes:
        s += 1.0 + max(idf.values(), default=0.0)
    s /= max(1.0, len(unit.terms)) ** 0.25
    return s * (0.5 if unit.illustration else 1.0)


def _pieces(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """``[a, b)`` cut into clauses (:data:`_CUT`), each without surrounding spaces."""
    cuts = [a] + [m.start() for m in _CUT.finditer(text, a, b)] + [b]
    return trimmed(text, zip(cuts, cuts[1:]))


def window(text: str, a: int, b: int, q: set[str], idf: dict[str, float] | None = None,
           max_words: int = MAX_QUOTE_WORDS) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The quote of ``text[a:b]`` (one unit) and the ``[start, end)`` spans in ``text`` of its fragments.

    The whole unit when it has at most ``max_words`` words; else its opening clause (the operative words), then
    the clauses from the first that states a punishment on, and the pieces that best match ``q`` (IDF-weighted,
    ``idf`` default 1 per term), each with the words before it back to its clause's marker (``(b) being a public
    servant, commits rape ...``, never ``commits rape ...`` alone), in printed order and within ``max_words``, joined
    by ``…``; a trailing ``…`` when the unit goes on. The quote never begins with ``…``.

    ``window("Whoever cheats, or x, shall be punished.", 0, 40, set(), max_words=5)`` ->
    ``("Whoever cheats, … shall be punished.", ((0, 15), (22, 40)))``
    """
    pieces = _pieces(text, a, b)
    words = [len(text[x:y].split()) for x, y in pieces]
    if sum(words) <= max_words or len(pieces) == 1:
        if sum(words) <= max_words:
            return _squash(text[a:b]), ((pieces[0][0], pieces[-1][1]),) if pieces else ((a, b),)
        cut = _nth_word_end(text, pieces[0][0], max_words)
        return _squash(text[pieces[0][0]:cut]) + " \u2026", ((pieces[0][0], cut),)
    if words[0] >= max_words:  # even the opening clause is long: its first words
        cut = _nth_word_end(text, pieces[0][0], max_words)
        return _squash(text[pieces[0][0]:cut]) + " \u2026", ((pieces[0][0], cut),)
    weight = idf or {}
    keep, budget = {0}, max_words - words[0]
    tail = next((i for i in range(1, len(pieces)) if _PUNISH.search(text[pieces[i][0]:pieces[i][1]])), None)
    if tail is not None:
        for i in range(tail, len(pieces)):
            if words[i] > budget:
                break
            keep.add(i)
            budget -= words[i]

    def score(i: int) -> float:
        return sum(weight.get(t, 1.0) for t in q & set(content_terms(text[pieces[i][0]:pieces[i][1]])))

    # a clause is quoted from its start: a piece is taken with the pieces before it back to its clause's marker
    # (a sentence without clause markers is cut at its commas freely)
    starts = {*([tail] if tail is not None else []),
              *(i for i, (x, _) in enumerate(pieces) if re.match(r"\[?\([a-z]{1,4}\)\s|\[?\(\d{1,3}[A-Z]?\)\s", text[x:]))}
    rest = sorted((i for i in range(1, len(pieces)) if i not in keep and score(i) > 0), key=lambda i: (-score(i), i))
    for i in rest:
        j = max((k for k in starts if 0 < k <= i), default=i)
        need = [k for k in range(j, i + 1) if k not in keep]
        if sum(words[k] for k in need) <= budget:
            keep.update(need)
            budget -= sum(words[k] for k in need)
    for i in range(1, len(pieces)):  # room left: read on from the opening clause
        if i in keep:
            continue
        if words[i] > budget:
            break
        keep.add(i)
        budget -= words[i]
    runs: list[list[int]] = []
    for i in sorted(keep):
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    spans = tuple((pieces[r[0]][0], pieces[r[-1]][1]) for r in runs)
    quote = " \u2026 ".join(_squash(text[x:y]) for x, y in spans)
    return quote + (" \u2026" if max(keep) != len(pieces) - 1 else ""), spans


def _nth_word_end(text: str, a: int, n: int) -> int:
    """The offset just past the ``n``-th word of ``text`` from ``a``."""
    end = a
    for k, m in enumerate(re.finditer(r"\S+", text[a:])):
        if k >= n:
            break
        end = a + m.end()
    return end


def _pinned(chunk: Chunk, spans: Sequence[tuple[int, int]]) -> StatuteRef | None:
    """The provision a quote of ``chunk`` is cited as in its heading: the sub-section (and clause) the quoted
    ``spans`` belong to (:func:`legal_rag.law.pinpoint.pin`: only a division whose marker is printed, in the passage
    or, for a passage that begins inside it, earlier in the section), else the section."""
    return None if chunk.ref is None else pin(chunk.ref.base, chunk_layout(chunk), spans)


def _heading(hit: Hit, ref: StatuteRef | None) -> str:
    c = hit.chunk
    title = c.title.strip().rstrip(".")
    if c.ref is not None:
        return f"{ref or c.ref.base}" + (f" - {title}" if title else "")
    return passage_label(c)


def compose(question: str, passages: Sequence[Hit], *, max_units: int = MAX_UNITS) -> str:
    """The extractive answer to ``question`` from ``passages`` (marker ``[n]`` = position + 1). Returns ``""``
    when no passage has a quotable unit."""
    units = {i + 1: _units(i + 1, h.chunk) for i, h in enumerate(passages)}
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
    stated: set = set()  # statutes whose operative words (a unit that is no illustration) are quoted
    for n, us in units.items():
        quota = PER_PASSAGE[0] if n == 1 else PER_PASSAGE[1]
        ranked = sorted(us, key=lambda u: (-_score(u, q, idf, punish_q), u.order))
        picked = [u for u in ranked[:quota] if _score(u, q, idf, punish_q) > 0]
        c = passages[n - 1].chunk
        key = c.ref.base if c.ref is not None else c.id
        if not picked and us and (n == 1 or (passages[n - 1].stage == "lookup" and key not in spoken)):
            # the top passage, and the first passage of every section the user named (or its official
            # successor), always speaks, even when no word of the question occurs in it
            picked = [us[0]]
        if c.ref is not None and key not in stated and picked and all(u.illustration for u in picked):
            # an illustration is evidence for its section, never the answer: it is quoted after the section's
            # operative words, or not at all
            operative = next((u for u in us if not u.illustration), None)
            picked = [operative, *picked[:quota - 1]] if operative is not None else []
        if picked:
            spoken.add(key)
            if c.ref is not None and not all(u.illustration for u in picked):
                stated.add(key)
        chosen += picked[: max(0, max_units - len(chosen))]
    # sections (or judgments) in the order they speak; within a section, one heading per provision quoted
    groups: dict[object, dict[object, list[tuple[_Unit, str]]]] = {}
    for u in sorted(chosen, key=lambda u: (u.n, u.order)):
        c = passages[u.n - 1].chunk
        text = unwrap(c.text)
        quote, spans = window(text, u.start, u.end, q, idf)
        ref = _pinned(c, spans)
        section = c.ref.base if c.ref is not None else (c.case or c.id)
        groups.setdefault(section, {}).setdefault(ref if ref is not None else section, []).append((u, quote))
    order = {s: min(u.n for sub in g.values() for u, _ in sub) for s, g in groups.items()}
    lines = []
    for section in sorted(groups, key=lambda s: order[s]):
        subs = groups[section]
        for key in sorted(subs, key=lambda k: min((u.n, u.order) for u, _ in subs[k])):
            members = subs[key]
            first = min(u.n for u, _ in members)
            lines.append(f"{_heading(passages[first - 1], key if isinstance(key, StatuteRef) else None)} [{first}]")
            for u, quote in members:
                # one quote line per sentence (the claims the check reads); an illustration's facts and verdict
                # are quoted together
                parts = [quote[a:b] for a, b in split_sentences(quote)] if u.illustration else [quote]
                lines += [f"\u201c{part}\u201d [{u.n}]" for part in parts]
    return "\n".join(lines)
