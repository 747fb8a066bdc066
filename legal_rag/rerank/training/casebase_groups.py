"""Weakly labelled training groups from the case base: a judgment paragraph with its section mention
masked -> the text of the section it cited (old code) and of that section's BPR&D successor (new code).

Rules (each with its source):

* **Paragraphs.** A paragraph of :class:`legal_rag.index.casebase.CaseBase` whose ``cites`` (read by the project's
  one citation grammar, :func:`legal_rag.ingest.statute_cites.find_statute_refs`) name one or two distinct sections
  (:attr:`StatuteRef.base`), all of the IPC, CrPC or IEA, and nothing of another of our Acts. Cases of
  ``exclude_cases`` (default :data:`LEAK_DROPPED`, the cases the case-base leakage guard drops:
  :mod:`legal_rag.ingest.casebase`) are never read.
* **Masking.** Every citation the grammar finds in the paragraph (:func:`legal_rag.law.find_refs`, any status, so
  "Section 482 of the Code" is masked too) is replaced, over its whole ``run_span`` ("Sections 302/34 IPC"), by
  :data:`MASK`; the query is the window of :data:`WINDOW_WORDS` words that starts :data:`LEAD_WORDS` words before
  the first mask. A query with fewer than :data:`MIN_WORDS` unmasked words, or with a section number still
  followed by an Act's name, is skipped.
* **Positives.** The cited section's text (old side) and, for each of its successors in the official BPR&D
  correspondence table (:func:`legal_rag.law.load_concordance`, ``Concordance.counterparts`` at section level), the successor's text
  (new side): one group per (paragraph, section, side). Section texts: the structured copies the project's
  evaluation reads (:func:`legal_rag.eval.acts.structured_sections`: IPC, CrPC, IEA from civictech-India, BNS
  from CMRIT, BNSS from Tejaswgupta; no BSA there, so IEA sections give old-side groups only).
* **Negatives.** :data:`.groups.NEGATIVES` sections of the positive's Act ranked highest by BM25 for the masked
  query (:class:`.groups.Miner`), never a section the judgment cites anywhere (``CaseBase.case_cites``) nor a
  successor of one.
* **Held out.** Queries that equal, contain or nearly equal an AILA test query Q11-Q50 or a dev question are
  dropped (:func:`.data.leaks`) and :func:`.data.assert_no_leak` runs on the result.

``casebase_groups(cb, corpus_path, limit=3000, seed=13) -> (groups, stats)`` is deterministic: candidates in case
build order, then a seeded sample.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Collection, Mapping, Sequence

from ...types import StatuteRef
from .data import Doc, Forbidden, Group, assert_no_leak, leaks, load_forbidden
from .groups import NEGATIVES, Miner

MASK = "[SECTION]"
OLD_ACTS = ("IPC", "CrPC", "IEA")
OUR_ACTS = ("IPC", "CrPC", "IEA", "BNS", "BNSS", "BSA")
#: the two cases the case-base leakage guard drops (C113 ~ AILA_Q21, C297 ~ AILA_Q15: legal_rag/ingest/casebase.py)
LEAK_DROPPED = ("C113", "C297")
WINDOW_WORDS = 90  # query words (about 120 model tokens, leaving room for the passage at train_max_length 192)
LEAD_WORDS = 40  # words kept before the first mask
MIN_WORDS = 15  # unmasked words a query needs
_LEFT = re.compile(r"\b(?:section|sec|s|u/s|under)\.?\s*\d+[a-z]?\s*(?:of\s+the\s+)?"
                   r"(?:i\.?\s?p\.?\s?c|cr\.?\s?p\.?\s?c|indian penal|evidence act|code of criminal)", re.I)


@dataclass(frozen=True)
class CaseSpec:
    """One group before mining: ``query`` (masked), positive ``key`` ("IPC 302") in the pool of its Act, ``exclude``
    (keys that are no negative), ``source`` ("casebase:C12#4:IPC 302" or "...:BNS 103")."""

    query: str
    key: str
    exclude: frozenset[str]
    source: str


def mask_citations(text: str) -> str:
    """``text`` with every citation the grammar finds (:func:`legal_rag.law.find_refs`, whole ``run_span``)
    replaced by :data:`MASK`: ``"convicted under Section 302 IPC and"`` -> ``"convicted under [SECTION] and"``."""
    from ...law import find_refs

    spans = []
    for f in find_refs(text):
        s, e = f.run_span if f.run_span != (0, 0) else f.span
        spans.append((min(s, f.span[0]), max(e, f.span[1])))
    out, pos = [], 0
    for s, e in sorted(spans):
        if s < pos:  # inside a run already masked
            continue
        out.append(text[pos:s])
        out.append(MASK)
        pos = e
    out.append(text[pos:])
    return re.sub(r"(?:\[SECTION\][\s,/&]*(?:and|or|r/w|read with)?\s*)+\[SECTION\]", MASK, "".join(out))


def query_window(masked: str) -> str:
    """The :data:`WINDOW_WORDS`-word window starting :data:`LEAD_WORDS` words before the first mask."""
    words = masked.split()
    first = next((i for i, w in enumerate(words) if MASK in w), 0)
    start = max(0, min(first - LEAD_WORDS, len(words) - WINDOW_WORDS))
    return " ".join(words[start:start + WINDOW_WORDS])


def section_docs(corpus_path: Path) -> dict[str, Doc]:
    """``"IPC 302"`` -> :class:`Doc` for every section of :func:`legal_rag.eval.acts.structured_sections`."""
    from ...eval.acts import structured_sections

    return {f"{s.ref.act} {s.ref.section}": Doc(f"{s.ref.act} {s.ref.section}", s.title, s.text)
            for s in structured_sections(corpus_path)}


def _successors(ref: StatuteRef, conc) -> list[str]:
    """``"BNS 318"``-style keys of the new-code sections succeeding an old-code ``ref``; ``[]`` for any other."""
    if ref.act not in OLD_ACTS:
        return []
    return [f"{t.act} {t.section}" for t in conc.counterparts(ref, level="section")]


def casebase_specs(cb, docs: Mapping[str, Doc], conc, *, exclude_cases: Collection[str] = LEAK_DROPPED,
                   forbidden: Forbidden | None = None) -> tuple[list[CaseSpec], dict]:
    """Every candidate group of the case base (rules: module docstring), in case build order; ``stats`` counts
    paragraphs read, eligible, masked queries kept, dropped as held-out, specs by side."""
    stats = {"paragraphs": 0, "eligible": 0, "queries": 0, "held_out": 0, "short_or_unmasked": 0, "old": 0,
             "new": 0, "cases": 0}
    out: list[CaseSpec] = []
    skip = set(exclude_cases)
    for case in cb.cases:
        if case in skip:
            continue
        paras = cb.paragraphs(case)
        stats["paragraphs"] += len(paras)
        cited = {r.base for p in paras for r in p.cites}
        if not cited:
            continue
        excl = {f"{r.act} {r.section}" for r in cited}
        for r in sorted(cited, key=str):
            if r.act in OLD_ACTS:
                excl.update(_successors(r, conc))
        used = False
        for i, p in enumerate(paras):
            bases = list(dict.fromkeys(r.base for r in p.cites if r.act in OUR_ACTS))
            if not 1 <= len(bases) <= 2 or any(r.act not in OLD_ACTS for r in bases):
                continue
            stats["eligible"] += 1
            q = query_window(mask_citations(p.text))
            if MASK not in q or len([w for w in q.split() if MASK not in w]) < MIN_WORDS or _LEFT.search(q):
                stats["short_or_unmasked"] += 1
                continue
            if forbidden is not None and leaks(q, forbidden):
                stats["held_out"] += 1
                continue
            stats["queries"] += 1
            for r in bases:
                old = f"{r.act} {r.section}"
                for key, side in [(old, "old")] + [(k, "new") for k in _successors(r, conc)]:
                    if key in docs:
                        out.append(CaseSpec(q, key, frozenset(excl | {key}), f"casebase:{case}#{i}:{key}"))
                        stats[side] += 1
                        used = True
        stats["cases"] += used
    return out, stats


def casebase_groups(cb, corpus_path: Path, *, limit: int = 3000, seed: int = 13,
                    exclude_cases: Collection[str] = LEAK_DROPPED, forbidden: Forbidden | None = None,
                    docs: Mapping[str, Doc] | None = None, conc=None, log=lambda m: None) -> tuple[list[Group], dict]:
    """Up to ``limit`` groups (a ``seed``-ed sample of :func:`casebase_specs`, negatives mined by BM25 per Act)
    and the stats (``specs``: candidates before sampling, ``groups``). Raises :class:`.data.LeakageError` if a
    held-out query slipped through."""
    from ...law import load_concordance

    forbidden = forbidden if forbidden is not None else load_forbidden(corpus_path)
    docs = dict(docs if docs is not None else section_docs(corpus_path))
    conc = conc if conc is not None else load_concordance(corpus_path)
    specs, stats = casebase_specs(cb, docs, conc, exclude_cases=exclude_cases, forbidden=forbidden)
    stats["specs"] = len(specs)
    rng = random.Random(seed)
    sample = rng.sample(specs, min(limit, len(specs)))
    miners: dict[str, Miner] = {}
    groups: list[Group] = []
    for sp in sample:
        act = sp.key.split()[0]
        if act not in miners:
            miners[act] = Miner([d for k, d in sorted(docs.items()) if k.split()[0] == act])
        m = miners[act]
        negs = m.negatives(sp.query, set(sp.exclude))
        if len(negs) < NEGATIVES:
            continue
        groups.append(Group(sp.query, m.docs[sp.key].passage(), tuple(d.passage() for d in negs), sp.source))
    stats["groups"] = len(groups)
    log(f"casebase: {stats}")
    assert_no_leak(groups, forbidden)
    return groups, stats


def mixed_groups(cb, corpus_path: Path, *, casebase_limit: int = 3000, limits: Mapping[str, int] | None = None,
                 seed: int = 13, embedder=None, log=lambda m: None) -> tuple[list[Group], dict]:
    """The case-base groups plus the five sources of :func:`.groups.build_groups` (``limits``; ``{}`` for none),
    shuffled with ``seed``; leak-checked."""
    from .groups import build_groups

    forbidden = load_forbidden(corpus_path)
    cbg, stats = casebase_groups(cb, corpus_path, limit=casebase_limit, seed=seed, forbidden=forbidden, log=log)
    other: Sequence[Group] = []
    if limits is None or any(limits.values()):
        other = build_groups(corpus_path, seed=seed, limits=None if limits is None else dict(limits),
                             embedder=embedder, forbidden=forbidden, log=log)
    out = list(cbg) + list(other)
    random.Random(seed).shuffle(out)
    assert_no_leak(out, forbidden)
    return out, stats
