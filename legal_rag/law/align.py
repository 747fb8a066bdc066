"""Clause alignment derived from the texts: where the official table stops at a section but the two Acts' texts
make a finer match plain, the old division is matched to the new one whose words it shares.

The BPR&D table maps IPC 376(1) and 376(2) to BNS 64 (``BPRD_correspondence_BNS_to_IPC_clean.csv#125``) and stops
there; the clause letters of 376(2) shift in BNS 64(2) (IPC 376(2)(i) was omitted by amendment, BNS 64(2) re-letters
the list), so copying "(n)" across gives a clause BNS 64(2) does not have. Field case BL-44: IPC 376(2)(n) "commits
rape repeatedly on the same woman" is, word for word, clause (m) of BNS 64(2). Field case BL-46: the table names
no successor for IPC 376DA (it names BNS 70(2) only against 376DB); the texts of 376DA and BNS 70(2) are the same
provision with the age changed.

Every result is labelled :data:`LABEL` ("derived from the texts") and never stands in for the official table: the
table's own targets are kept beside it (:attr:`Alignment.official`, :attr:`Alignment.rows`).

**Method** (deterministic, no model): the division asked for (a sub-section, :func:`legal_rag.law.pinpoint.layout`;
a clause, :func:`clauses` -- lettered items of a sub-section in order, a skipped letter allowed where an amendment
omitted one, "(h) ... * * * (j)") is compared with every division of the same depth of the candidate sections:

* the table maps the section (``mapped``) but less finely than the question asks (IPC 376(2)(n) -> BNS 64): the
  divisions of the table's targets, under the target's own sub-section when it names one;
* the table names none (``no_counterpart``): the divisions of the successors the table gives for the sections of
  the same number (IPC 376DA: the targets of 376, 376A, ..., 376DB, 376E).

Similarity is :class:`difflib.SequenceMatcher` ratio over the lower-cased words (division markers dropped), in
[0, 1]. A match is returned only when the best scores at least :data:`MIN_SCORE` (:data:`MIN_SCORE_SILENT` where
the table is silent) and leads the runner-up by at least :data:`MIN_MARGIN`; otherwise ``None`` (nothing is
guessed). Measured on the real index (every sub-section and clause of an old-code section the table maps less
finely, 1,469 divisions): 1,370 aligned, 68 of them to a different number or letter (CrPC 167(2A) -> BNSS 187(6),
IPC 376(2)(j)-(n) -> BNS 64(2)(i)-(m)); of the 57 sections the table is silent on, IPC 376DA -> BNS 70(2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Mapping

from ..types import OLD_ACTS, Section, StatuteRef
from .concordance import Concordance
from .pinpoint import BLOCK, CLAUSE, TAIL, layout

#: how every alignment is labelled wherever it is shown (lookup, the head, the exports)
LABEL = "derived from the texts"
#: the least word similarity of a match
MIN_SCORE = 0.6
#: the least similarity where the table names no successor at all (a stronger claim than a finer division of the
#: section the table names): IEA 88 (telegraphic messages, dropped) is 64% like BSA 90 and is no match
MIN_SCORE_SILENT = 0.8
#: how far the best candidate must lead the second
MIN_MARGIN = 0.05
#: the most letters a clause list may skip (an omitted clause: "(h)", "* * *", "(j)")
MAX_SKIP = 1
_MARK = re.compile(r"^\s*\[?\(\w{1,4}\)\s*")
_NUM = re.compile(r"^(\d+)")


@dataclass(frozen=True)
class Alignment:
    """``old`` (IPC 376(2)(n)) matched to ``new`` (BNS 64(2)(m)) by the words of their texts.

    ``score``/``runner_up``: the similarity of the match and of the next best candidate (0..1). ``official``: what
    the table names for ``old`` (BNS 64; ``()`` when it is silent) and ``rows`` the table rows read
    (``"<file>#<row>"``). ``old_text``/``new_text``: the two divisions compared, as printed."""

    old: StatuteRef
    new: StatuteRef
    score: float
    runner_up: float
    official: tuple[StatuteRef, ...]
    rows: tuple[str, ...]
    old_text: str
    new_text: str
    label: str = LABEL

    def describe(self) -> str:
        """``"IPC 376(2)(n) -> BNS 64(2)(m), derived from the texts (not official): the two texts are 100% alike;
        the official table names BNS 64 (BPRD_...csv#125)"``."""
        table = (f"the official table names {', '.join(map(str, self.official))}" if self.official
                 else "the official table names no successor")
        rows = f" ({'; '.join(self.rows)})" if self.rows else ""
        return (f"{self.old} -> {self.new}, {self.label} (not official): the two texts are "
                f"{round(100 * self.score)}% alike; {table}{rows}")


def clauses(text: str, start: int, end: int) -> list[tuple[str, int, int]]:
    """The lettered clauses of ``text[start:end]`` (one sub-section, or a section without sub-sections) as
    ``(letter, start, end)``: from "(a)", each next letter in order with at most :data:`MAX_SKIP` letters skipped
    (an amended-out clause); a roman "(i)" under "(a)" and items of an Explanation, proviso or Illustration (from
    the first such heading) are no clauses. The last clause ends where the list's common ending begins
    (", shall be punished ...", :data:`legal_rag.law.pinpoint.TAIL`)."""
    limit = next((m.start() for m in BLOCK.finditer(text, start, end)), end)
    found: list[tuple[str, int]] = []
    for m in CLAUSE.finditer(text, start, limit):
        label = m.group(2)
        if len(label) != 1:
            continue
        last = found[-1][0] if found else None
        if (last is None and label == "a") or (last is not None and 0 < ord(label) - ord(last) <= MAX_SKIP + 1):
            found.append((label, m.start(1)))
    out = []
    for i, (label, a) in enumerate(found):
        b = found[i + 1][1] if i + 1 < len(found) else limit
        if i + 1 == len(found):
            t = TAIL.search(text, a, b)
            b = t.start() + 1 if t else b
        out.append((label, a, b))
    return out


def divisions(section: Section) -> list[tuple[tuple[str, ...], str]]:
    """``(label, text)`` of every sub-section (``("2",)``) and clause (``("2", "m")``; ``("", "a")`` in a section
    without sub-sections) of ``section``, as printed; ``[((), whole text)]`` when it has neither."""
    text = section.text
    lay = layout(text)
    out: list[tuple[tuple[str, ...], str]] = []
    spans = [(d.sub, d.start, d.end) for d in lay.subs] or [("", 0, len(text))]
    for sub, a, b in spans:
        if sub:
            out.append(((sub,), text[a:b]))
        out += [((sub, c), text[ca:cb]) for c, ca, cb in clauses(text, a, b)]
    return out or [((), text)]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", _MARK.sub("", text).lower())


def similarity(a: str, b: str) -> float:
    """Word-sequence similarity of two provisions' texts, 0..1 (:class:`difflib.SequenceMatcher` ratio over the
    lower-cased words, a leading division marker such as "(m)" dropped)."""
    wa, wb = _words(a), _words(b)
    if not wa or not wb:
        return 0.0
    return SequenceMatcher(None, wa, wb, autojunk=False).ratio()


def division_text(section: Section, sub: tuple[str, ...]) -> str | None:
    """The printed text of ``section``'s sub-section or clause ``sub`` (``("4",)``, ``("2", "m")``; a clause of a
    section without sub-sections: ``("a",)``); the whole text for ``()``; None when the text prints no such
    division."""
    if not sub:
        return section.text
    return next((t for label, t in divisions(section) if label == sub or label == ("", *sub)), None)


def _siblings(ref: StatuteRef, conc: Concordance) -> tuple[StatuteRef, ...]:
    """The successors the table names for the other sections of ``ref``'s number (376DA: those of 376 ... 376E)."""
    m = _NUM.match(ref.section)
    if not m:
        return ()
    out: dict[StatuteRef, None] = {}
    for p in conc.pairs:
        if p.old is not None and p.new is not None and p.old.act == ref.act and p.old.section != ref.section \
                and _NUM.match(p.old.section) and _NUM.match(p.old.section).group(1) == m.group(1):
            out[p.new.base] = None
    return tuple(out)


def align(ref: StatuteRef, concordance: Concordance, sections: Mapping[StatuteRef, Section] | None
          ) -> Alignment | None:
    """The division of the new code that ``ref`` (an IPC / CrPC / IEA reference) matches by its text, where the
    official table is less fine than ``ref`` (mapped at section level) or silent; ``None`` where the table already
    names ``ref``'s depth, where a text is not indexed, or where no candidate is plainly best (module docstring).

    ``align(IPC 376(2)(n), conc, sections)`` -> ``Alignment(new=BNS 64(2)(m), official=(BNS 64,), ...)``;
    ``align(IPC 376DA, ...)`` -> ``BNS 70(2)`` with ``official=()``."""
    if ref.act not in OLD_ACTS or not sections:
        return None
    old_section = sections.get(ref.base)
    if old_section is None:
        return None
    c = concordance.successors(ref)
    if c.status == "mapped":
        if not ref.sub or any(len(t.sub) >= len(ref.sub) for t in c.targets):
            return None  # the table is as fine as the question
        targets = c.targets
        depth, least = len(ref.sub), MIN_SCORE
    elif c.status == "no_counterpart":
        targets = _siblings(ref, concordance)
        depth, least = max(len(ref.sub), 1), MIN_SCORE_SILENT
    else:
        return None
    old_text = division_text(old_section, ref.sub)
    if not old_text or not targets:
        return None
    scored: list[tuple[float, StatuteRef, str]] = []
    for t in targets:
        sec = sections.get(t.base)
        if sec is None:
            continue
        divs = [(tuple(x for x in label if x), text) for label, text in divisions(sec)]  # ("", "a") -> ("a",)
        level = [(label, text) for label, text in divs if len(label) == depth] or [((), sec.text)]
        for label, text in level:  # like with like: a clause with clauses, a sub-section with sub-sections
            if t.sub and label[:len(t.sub)] != t.sub:
                continue  # inside the sub-section the table names
            if not label and c.status == "mapped":
                continue  # the section the table names is no finer match
            scored.append((similarity(old_text, text), StatuteRef(t.act, t.section, label), text))
    if not scored:
        return None
    scored.sort(key=lambda x: -x[0])
    best, runner = scored[0][0], (scored[1][0] if len(scored) > 1 else 0.0)
    if best < least or best - runner < MIN_MARGIN:
        return None
    return Alignment(ref, scored[0][1], round(best, 3), round(runner, 3), c.targets,
                     tuple(r.source_row for r in c.rows), old_text.strip(), scored[0][2].strip())


__all__ = ["Alignment", "LABEL", "MIN_MARGIN", "MIN_SCORE", "MIN_SCORE_SILENT", "align", "clauses", "division_text", "divisions",
           "similarity"]
