"""Page furniture of judgment prints: what a reader skips and an index must not keep.

Two passes over the cleaned pages of one judgment:

1. fixed patterns of the prints in the corpus (court-issued Supreme Court copies, Supreme Court Reports old and
   digital, JUDIS, Delhi High Court): LiveLaw watermarks (``WWW.LIVELAW.IN``, ``LL 2021 SC 454``),
   ``Signature Not Verified`` / ``Digitally Signed By`` blocks, ``Page x of y`` running lines, the Delhi High
   Court's ``$~ * % +`` listing markers, the SCR margin letters ``A``..``H``, lone page numbers, SCR running heads
   (``582 SUPREME COURT REPORTS [2020] 1 S.C.R.``, ``[2024] 7 S.C.R.  99``, ``Digital Supreme Court Reports``),
   Indian Kanoon's ``[Cites 20, Cited by 0]``;
2. running heads found by repetition: a line (digits blanked) that recurs in the first or last three lines of at
   least a fifth of the pages (and on 3 or more pages) is dropped wherever it sits in those bands.

The first page's header keeps its lines (metadata is read from it before this pass); only the fixed patterns
apply there. Returns new :class:`~legal_rag.types.Page` objects; the input is not changed.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from ..types import Page

_DROP = re.compile(
    r"""^(?:
        [A-H]                                              # SCR margin letters
      | \d{1,4}                                            # lone page number
      | WWW\.LIVELAW\.IN | LL\s\d{4}\sSC\s\d+              # LiveLaw watermark and citation
      | .*Signature\s+Not\s+Verified.* | .*Digitally\s+Signed.* | Signing\s+Date.* | Signed\s*(?:By.*)?
      | .*\bPage\s+\d+\s+of\s+\d+\s*                        # "ITA 45/2023 ... Page 1 of 18", JUDIS running line
      | \$~.*                                              # Delhi HC listing marker line
      | \d{0,4}\s*SUPREME\s+COURT\s+REPORTS\s+\[\d{4}\]\s*(?:Supp\.?\s*)?\d*\s*S\.\s?C\.\s?R\.\s*\d{0,4}
      | \d{1,4}\s*\[\d{4}\]\s*(?:Supp\.?\s*)?\d{1,2}\s*S\.\s?C\.\s?R\.        # "104 [2024] 7 S.C.R."
      | \[\d{4}\]\s*(?:Supp\.?\s*)?\d{1,2}\s*S\.\s?C\.\s?R\.\s*\d{1,4}        # "[2024] 7 S.C.R.  99"
      | Digital\s+Supreme\s+Court\s+Reports
      | \*\s*Author | †\s*Headnotes\s+prepared\s+by.*
      | \[\s*Cites\s+\d+\s*,\s*Cited\s+by\s+\d+\s*\]                # Indian Kanoon's count of citations
      | -S-
    )\s*$""",
    re.X | re.I,
)
_MARKER = re.compile(r"^\s*[\*%\+]\s+")  # Delhi HC "*  IN THE HIGH COURT", "%  Judgment delivered on", "+  ITA 45/2023"
_BAND = 3


def _key(line: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"\d+", "#", line)).strip().lower()


def is_furniture(line: str) -> bool:
    """True when ``line`` (one printed line) is page furniture by the fixed patterns of this module."""
    return bool(_DROP.match(line.strip()))


def running_heads(pages: tuple[Page, ...] | list[Page]) -> frozenset[str]:
    """Keys (digits blanked, lower-case) of lines that recur in the top or bottom bands of many pages."""
    if len(pages) < 3:
        return frozenset()
    counts: Counter[str] = Counter()
    for p in pages:
        lines = [ln for ln in p.text.splitlines() if ln.strip() and not is_furniture(ln)]
        band = set(_key(ln) for ln in lines[:_BAND] + lines[-_BAND:])
        counts.update(k for k in band if len(k) >= 4)
    need = max(3, len(pages) // 5)
    return frozenset(k for k, n in counts.items() if n >= need)


def strip_furniture(pages: tuple[Page, ...] | list[Page]) -> tuple[Page, ...]:
    """Pages with furniture lines removed and listing markers cut off (see the module docstring)."""
    heads = running_heads(pages)
    out = []
    for i, p in enumerate(pages):
        lines = p.text.splitlines()
        kept_idx = [j for j, ln in enumerate(lines) if ln.strip()]
        band = set(kept_idx[:_BAND + 2] + kept_idx[-(_BAND + 2):])
        if i == 0:  # the first page's header is where title and parties are printed: keep it
            band -= set(kept_idx[:12])
        kept = []
        for j, ln in enumerate(lines):
            if not ln.strip() or is_furniture(ln):
                continue
            if j in band and _key(ln) in heads:
                continue
            kept.append(_MARKER.sub("", ln).rstrip())
        out.append(replace(p, text="\n".join(kept)))
    return tuple(out)
