"""Official successors of the old-code sections a query names, placed beside those sections' own look-up hits.

A section look-up short-circuits to the exact section *plus its concordance row* (DESIGN.md, "Retrieval"): without
this, "What is the BNS equivalent of IPC 420?" retrieves IPC 420 only, never BNS 318(4).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ..law import Concordance, analyse
from ..types import OLD_ACTS, Hit, StatuteRef
from .filters import Filters
from .search import lookup_hits

if TYPE_CHECKING:
    from ..law import QuestionAnalysis


def with_successors(query: QuestionAnalysis | str, hits: tuple[Hit, ...] | list[Hit], index, concordance: Concordance,
                    filters: Filters | Mapping[str, Any] | None = None,
                    derived: Callable[[StatuteRef], Any] | None = None) -> tuple[Hit, ...]:
    """``hits`` with the successors (per the BPR&D correspondence table row) of every old-code section that
    ``query`` names (its analysis's ``found``; a text is analysed with ``concordance``) merged into the query's own
    ``lookup`` hits, as ``lookup`` hits; ranks renumbered from 1.

    The look-up hits are taken section by section, round robin (:func:`interleave`): the first chunk of every
    named section and of every successor, then the second chunks, and so on, so a long old section (IPC 376: five
    chunks) cannot push its successor (BNS 64) out of the ``top_k`` passages the generator reads. ``"IPC 420"`` ->
    IPC 420's first chunk, BNS 318(4)'s chunk (the sub-section's first), then the rest. The result is no shorter
    than ``hits`` and never repeats a chunk id. A query that names no old-code section returns ``hits`` unchanged
    (as a tuple). ``derived(ref)`` (optional; :func:`legal_rag.law.align.align` bound to the index's sections)
    gives the division the texts align an old sub-section or clause to where the table stops at a section: that
    section is still the one looked up, led by the chunk printing the aligned division."""
    hits = tuple(hits)
    targets = []
    for f in (analyse(query, concordance=concordance) if isinstance(query, str) else query).found:
        if f.status == "ok" and f.ref.act in OLD_ACTS:
            corr = concordance.successors(f.ref)
            # where the table stops at a section (IPC 376(2)(n) -> BNS 64) and the texts align the division
            # (:func:`legal_rag.law.align.align`: BNS 64(2)(m), derived, not official), the look-up of that same
            # section leads with the chunk printing the aligned division; the section looked up stays the table's
            fine = derived(f.ref) if derived is not None and f.ref.sub else None
            new = getattr(fine, "new", None)
            found = [new] if new is not None and any(t.base == new.base for t in corr.targets) else []
            targets += [t for t in found + list(corr.targets) if t not in targets
                        and not (found and t.base == found[0].base and not t.sub)]
    if not targets:
        return hits
    flt = Filters.of(filters)
    extra = [h for t in targets for h in lookup_hits(str(t), index, flt, refs=[(t.act, t.section, tuple(t.sub))])]
    head = [h for h in hits if h.stage == "lookup"]
    seen = {h.chunk.id for h in head}
    extra = [h for h in extra if not (h.chunk.id in seen or seen.add(h.chunk.id))]
    merged = interleave(head + extra) + [h for h in hits if h.stage != "lookup" and h.chunk.id not in seen]
    return tuple(dataclasses.replace(h, rank=i + 1)
                 for i, h in enumerate(merged[:max(len(hits), len(head) + len(extra))]))


def interleave(hits: list[Hit]) -> list[Hit]:
    """``hits`` grouped by section (Act, section number), groups in order of first appearance, then taken round
    robin: every group's first hit, then every group's second, ... Each group keeps its own order (a sub-section
    look-up's matching chunk stays first). ``[IPC376-0, IPC376-1, BNS64-0, BNS65-0]`` ->
    ``[IPC376-0, BNS64-0, BNS65-0, IPC376-1]``."""
    groups: dict[tuple[str, str], list[Hit]] = {}
    for h in hits:
        r = h.chunk.ref
        groups.setdefault((r.act, r.section) if r is not None else ("", h.chunk.case or h.chunk.id), []).append(h)
    out: list[Hit] = []
    for i in range(max((len(g) for g in groups.values()), default=0)):
        out += [g[i] for g in groups.values() if i < len(g)]
    return out
