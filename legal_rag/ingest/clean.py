"""Page-stage cleaning: running headers and footers, page numbers, rules, hyphenation, ligatures, scripts.

Rules and where they come from (field cases in ``shared/cases/field-cases.md``):

* BL-03 — Gazette mastheads ("THE GAZETTE OF INDIA EXTRAORDINARY [PART II—SEC. 1]", the bilingual first-page
  masthead, ``xxxGIDHxxx`` markers, ``CG-DL-E-...`` codes), lines repeated at the top or bottom of many pages,
  underscore rules and bare page numbers at the top or bottom of a page are removed (a lone ``17`` never
  reaches the section parser).
* BL-02 — a line ending in ``letter-`` joined to a line starting in lower case is a soft hyphen unless the
  document prints the hyphenated compound elsewhere, or the fragment is a prefix that takes a hyphen
  (``non-``, ``self-`` ...): ``pun-``/``ishable`` -> ``punishable``; ``non-``/``bailable`` -> ``non-bailable``;
  ``498-``/``A`` -> ``498-A``. The joined word moves up, so the number of lines stays the same.
* BL-04 — NFKC (ligatures U+FB00–FB06 -> ``ff``, ``fi`` ...); NUL, control and private-use characters are
  reported per page and, where the page or document prints the word intact, repaired (``o\\x00ence`` ->
  ``offence``), else dropped.
* BL-05 — lines of legacy-font Hindi (Kruti Dev / Chanakya codes read as Latin: ``Hkkjr``, ``vlk/kkj.k``)
  are removed; a page that is mostly such lines is skipped ("needs OCR or font conversion"). Unicode
  Devanagari is kept; a pre-base ``ि`` (U+093F) left in visual order is moved after its consonant.
* BL-06 — a page with no text (scan, image-only) is skipped with a ``no_text_layer`` problem.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from ..types import Page, Problem

Line = tuple[str, float, float, float]

_HEADER = [re.compile(p, re.I) for p in (
    r"THE GAZETTE OF INDIA\s*:?\s*EXTRAORDINARY",
    r"^\s*\[?\s*PART II\s*[—–-]+\s*(SEC(TION|\.)\s*1\]?)?\s*$",
    r"^\s*Sec\.\s*1\]\s*$",
    r"xxxGID[A-Z]xxx",
    r"CG-DL-E-\d{6,}-\d+",
    r"सी\.जी\.-डी\.एल\.",
    r"REGISTERED NO\. DL",
    r"^\s*EXTRAORDINARY\s*$",
    r"^\s*PUBLISHED BY AUTHORITY\s*$",
    r"^\s*No\.\s*\d+\]\s*NEW DELHI",
    r"^\s*Separate paging is given to this Part",
    r"^\s*AS PASSED BY LOK SABHA\s*$",
    r"^\s*ON \d{1,2}\.\d{1,2}\.\d{4}\s*$",
    r"^\s*Bill No\.\s*[\w-]+ of \d{4}\s*$",
)]
_RULE = re.compile(r"^[\s_—–=\-*.]*$")
_TRAILING_RULE = re.compile(r"\s*_{3,}[\s_]*$")
_PAGE_NO = re.compile(r"^\s*[\[(]?\s*(\d{1,4}|[ivxlc]{1,7})\s*[\])]?\s*\.?\s*$", re.I)
_STRUCTURAL = re.compile(r"^(chapter|illustration|explanation|proviso|part\s+[ivx]+$|schedule)", re.I)
_BAD_CHAR = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ue000-\uf8ff\ufffd]")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_HARD_PREFIXES = frozenset(
    "non self ex co quasi cross anti semi vice well ill half all counter multi inter sub pre post".split())
_FOOTNOTE_START = re.compile(r"^\s*(\d{1,3}\.|\*)\s")
_AMENDMENT = re.compile(r"\b(Subs\.|Ins\.|[Oo]mitted|Rep\.|w\.e\.f\.|A\.O\.|Act \d+ of \d{4}|Added|Renumbered)")
_LIGATURE_FIX = ("fi", "ff", "fl", "ffi", "ffl", "ft", "st")


def _legacy_hindi(line: str) -> bool:
    """True when most words of ``line`` look like legacy-font Devanagari read as Latin letters.

    Signs (Kruti Dev / Chanakya code points): ``k`` for the vowel sign ा (``kk``, ``Hk``), ``/`` ``;`` ``.``
    ``'`` inside words, capitals inside words (``fnYyh``), ``¼ ½ ñ``, and short lower-case words without a
    vowel (``ls``, ``gS``, ``fd``). English lines of the corpus score well below the threshold.
    """
    words = [w.strip("]@[.,;:'\"()") for w in line.split()]
    alpha = [w for w in words if re.search(r"[a-z]", w)]  # all-capital words (II, PART) say nothing
    if not alpha:
        return False
    flagged = 0
    for w in alpha:
        if (re.search(r"[a-z][A-Z]", w) or "kk" in w or re.search(r"[kf][/;.'`][A-Za-z]|[A-Za-z][/;.'`]k", w)
                or re.search(r"[¼½ñ`]", w) or re.match(r"^(Hk|Jh|Fk|Nk|Xk|[A-Z]k[a-z])", w)
                or (len(w) >= 4 and w.count("k") / len(w) >= 0.3)
                or (2 <= len(w) <= 4 and w.isalpha() and w.islower() and not re.search(r"[aeiouy]", w))):
            flagged += 1
    return flagged >= 2 and flagged >= 0.5 * len(alpha) or (len(alpha) == 1 and flagged == 1 and len(alpha[0]) >= 5)


def _fix_devanagari(text: str) -> str:
    """Move a pre-base ``ि`` that precedes its consonant (visual order) after the consonant cluster, and drop
    blanks before dependent vowel signs."""
    if not re.search("[\u0900-\u097f]", text):
        return text
    text = re.sub(r"(?<=[\u0900-\u097f])\s+(?=[\u093e-\u094d\u0901-\u0903])", "", text)
    cons = "[\u0915-\u0939\u0958-\u095f]\u093c?"
    return re.sub(rf"(?<![\u0915-\u0939\u0958-\u095f\u093c])\u093f((?:{cons}\u094d)*{cons})", "\\1\u093f", text)


def repeated_lines(pages: list[list[str]]) -> frozenset[str]:
    """Keys of lines printed in the top or bottom 3 lines of at least 3 pages and 25% of all pages."""
    if len(pages) < 4:
        return frozenset()
    seen: dict[str, int] = {}
    for lines in pages:
        keys = {_key(t) for t in lines[:3] + lines[-3:]}
        for k in keys:
            if k:
                seen[k] = seen.get(k, 0) + 1
    need = max(3, 0.25 * len(pages))
    return frozenset(k for k, n in seen.items() if n >= need and not _STRUCTURAL.match(k))


def _key(text: str) -> str:
    return re.sub(r"\d+", "#", re.sub(r"[\s_]+", " ", text.strip().lower()))


def _is_header(text: str) -> bool:
    core = _TRAILING_RULE.sub("", text)
    return len(core) < 160 and any(p.search(core) for p in _HEADER)


def vocabulary(texts: list[str]) -> frozenset[str]:
    """Lower-cased words (hyphenated compounds kept whole) of a document, for hyphen and ligature repair."""
    return frozenset(w.lower() for t in texts for w in _WORD.findall(t))


def _join_hyphen(left: str, right: str, words: frozenset[str] | set[str]) -> bool:
    """True when ``left-`` + ``right`` at a line break is a soft hyphen (BL-02)."""
    if left[-1:].isdigit() or right[:1].isupper() or right[:1].isdigit():
        return False
    hyph, joined = f"{left}-{right}".lower(), f"{left}{right}".lower()
    if hyph in words:
        return False
    return joined in words or left.lower() not in _HARD_PREFIXES


def clean_margin(page: Page, notes: tuple[tuple[float, str], ...], words: frozenset[str] = frozenset()) -> Page:
    """Normalise margin notes (NFKC, letter-spaced words closed up, line-break hyphens resolved against the
    document's ``words``) and drop header debris and numbers; returns a new Page."""
    kept = []
    for y, text in notes:
        t = unicodedata.normalize("NFKC", text.replace("\u00ad", "\x01")).strip()
        t = re.sub(r"(?<![\w-])(?:\w ){2,}\w(?![\w-])", lambda m: m.group(0).replace(" ", ""), t)
        t = re.sub(r"(?<![\w-])(\w) (\w)(?=\W|$)(?<=\b\w \w)", lambda m: m.group(1) + m.group(2)
                   if (m.group(1) + m.group(2)).lower() in words and m.group(1).lower() != "a" else m.group(0), t)
        t = re.sub(r"(\w+)\x01(\w+)", lambda m: m.group(1) + ("" if _join_hyphen(m.group(1), m.group(2), words)
                                                              else "-") + m.group(2), t).replace("\x01", "-")
        if not t or _is_header(t) or _PAGE_NO.match(t) or _RULE.match(t) or _legacy_hindi(t):
            continue
        kept.append((y, t))
    return replace(page, margin=tuple(kept))


def clean_text(source: str, number: int, raw: str, *, vocabulary: frozenset[str] = frozenset()
               ) -> tuple[Page, tuple[Problem, ...]]:
    """Clean the raw text of one page (no layout known). See the module docstring for the rules.

    ``number`` is 1-based. Returns the :class:`Page` (``skipped=True`` for no text / legacy Hindi) and the
    problems found on it. ``clean_text("a.pdf", 3, "pun-\\nishable")[0].text == "punishable\\n"``.
    """
    lines = [(t, 0.0, float(i), 10.0) for i, t in enumerate(raw.split("\n"))]
    return clean_lines(source, number, lines, vocabulary=vocabulary)


def clean_lines(source: str, number: int, lines: list[Line], *, repeated: frozenset[str] = frozenset(),
                vocabulary: frozenset[str] = frozenset(), body_size: float = 0.0) -> tuple[Page, tuple[Problem, ...]]:
    """Clean one page given its body lines in reading order ``(text, x, y, size)``.

    ``body_size`` is the document's body font size (0: the page's median); a trailing block in smaller
    type that starts ``1.`` and cites an amendment becomes ``Page.footnotes``."""
    problems: list[Problem] = []
    texts = [t for t, *_ in lines]
    # characters: NUL / private use (reported before NFKC, which keeps them), ligatures via NFKC
    bad = sorted({c for t in texts for c in _BAD_CHAR.findall(t)})
    texts = [unicodedata.normalize("NFKC", t).replace("\u00ad", "") for t in texts]
    if bad:
        problems.append(Problem(source, "bad_char", "NUL/control/private-use characters in the text layer "
                                f"({', '.join(f'U+{ord(c):04X}' for c in bad)}); likely ligature glyphs with a "
                                "broken ToUnicode map", number, "warning"))
        words = set(vocabulary) | {w.lower() for t in texts for w in _WORD.findall(t) if not _BAD_CHAR.search(w)}
        texts = [_repair(t, words) for t in texts]
    kept: list[tuple[str, float, float]] = []
    hindi = 0
    for i, (t, (_, _, y, size)) in enumerate(zip(texts, lines)):
        if _legacy_hindi(t):
            hindi += len(t.strip())
            continue
        edge = i < 3 or i >= len(texts) - 3
        if _is_header(t) or (edge and _key(t) in repeated) or _RULE.match(t):
            continue
        t = _TRAILING_RULE.sub("", t)
        kept.append((_fix_devanagari(re.sub(r"[ \t]+", " ", t).strip()), y, size))
    # bare page numbers at the top or bottom (BL-03)
    while kept and _PAGE_NO.match(kept[0][0]):
        kept.pop(0)
    while kept and _PAGE_NO.match(kept[-1][0]):
        kept.pop()
    kept, footnotes = _split_footnotes(kept, body_size)
    body = _dehyphenate([t for t, _, _ in kept], vocabulary)
    text = "\n".join(body)
    letters = sum(not ch.isspace() for ch in text)
    if hindi and hindi >= letters:
        problems.append(Problem(source, "legacy_hindi", "Hindi text not decodable → needs OCR or font conversion "
                                "(legacy non-Unicode Devanagari font read as Latin letters); page not indexed",
                                number, "warning"))
        return Page(source, number, "", skipped=True), tuple(problems)
    if hindi:
        problems.append(Problem(source, "legacy_hindi", f"{hindi} characters of undecodable legacy-font Hindi "
                                "removed (needs OCR or font conversion)", number, "info"))
    if letters < 5:
        problems.append(Problem(source, "no_text_layer", "no text layer (scanned or image-only page); page not "
                                "indexed, queue it for OCR", number, "warning"))
        return Page(source, number, "", skipped=True), tuple(problems)
    return Page(source, number, text + "\n", line_y=tuple(y for _, y, _ in kept),
                footnotes="\n".join(footnotes)), tuple(problems)


def _repair(text: str, words: set[str]) -> str:
    def fix(m: re.Match) -> str:
        w = m.group(0)
        for lig in _LIGATURE_FIX:
            cand = _BAD_CHAR.sub(lig, w)
            if cand.lower() in words:
                return cand
        return _BAD_CHAR.sub("", w)

    return re.sub(r"\S*" + _BAD_CHAR.pattern + r"\S*", fix, text)


def _split_footnotes(kept: list[tuple[str, float, float]], body: float = 0.0):
    """Trailing block of smaller type starting with ``1.``/``*`` and citing an amendment -> footnotes."""
    if len(kept) < 3:
        return kept, []
    if not body:
        sizes = sorted(s for _, _, s in kept)
        body = sizes[len(sizes) // 2]
    i = len(kept)
    while i > 0 and kept[i - 1][2] <= 0.9 * body:
        i -= 1
    for j in range(i, len(kept)):
        if _FOOTNOTE_START.match(kept[j][0]):
            block = [t for t, _, _ in kept[j:]]
            if any(_AMENDMENT.search(t) for t in block):
                return kept[:j], block
            break
    return kept, []


def _dehyphenate(lines: list[str], vocabulary: frozenset[str]) -> list[str]:
    """Join words broken at line ends (BL-02); the joined word moves up, the line count stays the same."""
    words = set(vocabulary) | {w.lower() for t in lines for w in _WORD.findall(t)}
    out = list(lines)
    for i in range(len(out) - 1):
        m = re.search(r"(\S*?)([^\W_]+)-$", out[i])
        nxt = re.match(r"([^\W_]+)([^\s]*)\s?", out[i + 1])
        if not m or not nxt:
            continue
        left, right = m.group(2), nxt.group(1)
        if _join_hyphen(left, right, words):
            joined = out[i][:-1] + nxt.group(0).rstrip()
        else:
            joined = out[i] + nxt.group(0).rstrip()  # 498-A, non-bailable, Anglo-Indian: a hard hyphen
        out[i] = joined
        out[i + 1] = out[i + 1][nxt.end():]
    return out
