"""The official correspondence tables as one queryable object: old → new and new → old, at sub-section precision.

Sources (``corpus_path/mappings``, provenance in SOURCES.md; readers and their glitch handling in
:mod:`legal_rag.law.concordance_tables`): BNS↔IPC and BSA↔IEA are the BPR&D "Correspondence Table and Comparison
Summary" (subject and summary of change per row); BNSS↔CrPC comes only as bare pairs (no subject, no summary).

Examples (values read from the table rows named)::

    conc.successors(IPC 420)    -> mapped   BNS 318(4)          (BNS_to_IPC_clean.csv#453)
    conc.successors(IPC 498A)   -> mapped   BNS 85, BNS 86      (#149, #150 "498A Explanation")
    conc.successors(IPC 377)    -> no_counterpart               (no row names it; #423 mentions it)
    conc.predecessors(BNS 111)  -> new_provision                (#180 "-", "Newly added section")
    conc.predecessors(BNS 103)  -> mapped   IPC 302 (103(1)) + 103(2) New   (#167-168, #169)

A query matches a row when one of their sub-section paths is a prefix of the other: IPC 376 matches the rows for
376(1), 376(2) and 376(3); BNS 318(4) matches only 318(4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

from ..errors import RefError
from ..types import NEW_ACTS, OLD_ACTS, PREDECESSOR_ACT, SUCCESSOR_ACT, StatuteRef
from .concordance_tables import (
    DERIVED_FILE, PAIRS_FILE, Pair, TableRow, read_bns_ipc, read_bnss_crpc, read_bsa_iea, read_derived_gaps,
)
from .refs import SectionSets, find_refs, load_section_sets

Status = Literal["mapped", "new_provision", "no_counterpart", "invalid"]
#: the precision of :meth:`Concordance.counterparts`: as the table row prints it, or the whole section
Level = Literal["sub", "section"]


@dataclass(frozen=True)
class Correspondence:
    """The answer to one query.

    ``status``: ``mapped`` (``targets`` holds the counterpart(s)); ``new_provision`` (new-code section the table
    marks "New"/"-"); ``no_counterpart`` (no row names the section: the table is silent, ``note`` says so);
    ``invalid`` (the Act has no such section). ``pairs`` are the rows it came from; ``related`` holds other rows
    that mention the section in their summary and, for IPC, the row of the DERIVED gap list (``official=False``).
    """

    query: StatuteRef
    direction: Literal["old_to_new", "new_to_old"]
    status: Status
    targets: tuple[StatuteRef, ...]
    pairs: tuple[Pair, ...]
    note: str
    related: tuple[TableRow, ...] = ()

    @property
    def rows(self) -> tuple[TableRow, ...]:
        return tuple(dict.fromkeys(p.row for p in self.pairs))


def _prefix_match(q: StatuteRef, r: StatuteRef) -> bool:
    n = min(len(q.sub), len(r.sub))
    return q.act == r.act and q.section == r.section and q.sub[:n] == r.sub[:n]


def _select(q: StatuteRef, pairs: list[Pair], side) -> list[Pair]:
    """Rows whose ref is a prefix of the query's or the other way round; when a row names the query exactly, the
    less specific rows are dropped (BSA 2(2) is its own "New" row, not the whole-section row 2 <- IEA 3)."""
    hits = [p for p in pairs if _prefix_match(q, side(p))]
    if any(side(p).sub == q.sub for p in hits):
        hits = [p for p in hits if len(side(p).sub) >= len(q.sub)]
    return hits


@dataclass(frozen=True)
class Concordance:
    """All pairs of the three tables plus the indexes to query them. Build with :func:`load_concordance`."""

    pairs: tuple[Pair, ...]
    sections: SectionSets
    derived: dict = field(default_factory=dict, compare=False, hash=False)  # IPC ref -> derived TableRow
    _by_old: dict = field(default_factory=dict, compare=False, hash=False, repr=False)
    _by_new: dict = field(default_factory=dict, compare=False, hash=False, repr=False)
    _mentions: dict = field(default_factory=dict, compare=False, hash=False, repr=False)
    _counterparts: dict = field(default_factory=dict, compare=False, hash=False, repr=False)  # (ref, level) -> answer

    def __post_init__(self) -> None:
        for p in self.pairs:
            if p.old is not None:
                self._by_old.setdefault((p.old.act, p.old.section), []).append(p)
            if p.new is not None:
                self._by_new.setdefault((p.new.act, p.new.section), []).append(p)
        for row in dict.fromkeys(p.row for p in self.pairs):
            if row.summary:
                for f in find_refs(row.summary, sections=self.sections):
                    if f.status == "ok" and f.ref is not None:
                        self._mentions.setdefault((f.ref.act, f.ref.section), []).append(row)

    def query(self, ref: StatuteRef) -> Correspondence:
        """``successors`` for an old-code ref, ``predecessors`` for a new-code ref."""
        if ref.act in OLD_ACTS:
            return self.successors(ref)
        if ref.act in NEW_ACTS:
            return self.predecessors(ref)
        raise RefError(f"{ref}: act {ref.act!r} is not in the correspondence tables")

    def counterparts(self, ref: StatuteRef, level: Level = "sub") -> tuple[StatuteRef, ...]:
        """The official counterparts of ``ref`` by the BPR&D correspondence tables (``corpus_path/mappings``):
        the ``targets`` of :meth:`successors` for an IPC / CrPC / IEA ref, of :meth:`predecessors` for a BNS /
        BNSS / BSA ref, in table order, each once.

        Rows are selected at ``ref``'s own precision (the prefix rule of the module docstring: IPC 376 gives the
        successors of every 376 row, IPC 376(1) those of the 376(1) rows); pass ``ref.base`` for the whole section.
        ``level="sub"`` gives the counterparts as the rows print them (IPC 420 -> BNS 318(4); IPC 498A -> BNS 85,
        BNS 86); ``level="section"`` their sections (IPC 420 -> BNS 318; IPC 376 -> BNS 64, BNS 65, ...).

        Only a ``mapped`` correspondence has counterparts: ``()`` for a section the table marks New, one no row
        names (IPC 377), one the Act does not have, and a ref of an Act outside the tables (the Constitution,
        any other Act). Raises ValueError for another ``level``. Each answer is computed once and kept (the
        tables never change after loading)."""
        if level not in ("sub", "section"):
            raise ValueError(f"level must be 'sub' or 'section', not {level!r}")
        got = self._counterparts.get((ref, level))
        if got is None:
            got = self._counterparts[(ref, level)] = self._counterparts_of(ref, level)
        return got

    def _counterparts_of(self, ref: StatuteRef, level: Level) -> tuple[StatuteRef, ...]:
        if ref.act not in OLD_ACTS and ref.act not in NEW_ACTS:
            return ()
        found = self.query(ref)
        if found.status != "mapped":
            return ()
        if level == "section":
            return tuple(dict.fromkeys(t.base for t in found.targets))
        return found.targets

    def named(self, ref: StatuteRef) -> tuple[StatuteRef, ...]:
        """Every reference to ``ref``'s section (``ref.act``, ``ref.section``) that a table row prints, with its
        sub-section or clause as printed ("BSA 22(1)", "BNS 125(a)"): what the official tables say exists."""
        pairs = self._by_old.get((ref.act, ref.section), []) + self._by_new.get((ref.act, ref.section), [])
        return tuple(dict.fromkeys(x for p in pairs for x in (p.old, p.new) if x is not None and x.act == ref.act
                                   and x.section == ref.section))

    def successors(self, ref: StatuteRef) -> Correspondence:
        """What replaced an IPC / CrPC / IEA section. Raises RefError for another act."""
        if ref.act not in OLD_ACTS:
            raise RefError(f"{ref}: successors() takes an IPC, CrPC or IEA reference")
        return self._answer(ref, "old_to_new", _select(ref, self._by_old.get((ref.act, ref.section), []), lambda p: p.old))

    def predecessors(self, ref: StatuteRef) -> Correspondence:
        """What a BNS / BNSS / BSA section replaced. Raises RefError for another act."""
        if ref.act not in NEW_ACTS:
            raise RefError(f"{ref}: predecessors() takes a BNS, BNSS or BSA reference")
        return self._answer(ref, "new_to_old", _select(ref, self._by_new.get((ref.act, ref.section), []), lambda p: p.new))

    def _answer(self, ref: StatuteRef, direction, pairs: list[Pair]) -> Correspondence:
        other = SUCCESSOR_ACT.get(ref.act) or PREDECESSOR_ACT[ref.act]
        related = tuple(r for r in self._mentions.get((ref.act, ref.section), ()) if r not in {p.row for p in pairs})
        if ref.act == "IPC" and ref.base in self.derived:
            related += (self.derived[ref.base],)
        if not self.sections.exists(ref.act, ref.section):
            return Correspondence(ref, direction, "invalid", (), (), f"{ref.act} has no section {ref.section}", related)
        side = (lambda p: p.new) if direction == "old_to_new" else (lambda p: p.old)
        targets = tuple(dict.fromkeys(side(p) for p in pairs if side(p) is not None))
        if targets:
            status, note = "mapped", "; ".join(f"{p.row.source_row}: {p.row.summary}" for p in _unique_rows(pairs) if p.row.summary)
        elif pairs and any(p.is_new for p in pairs):
            status = "new_provision"
            note = f"{ref} is marked New in the table ({pairs[0].row.source_row}): no {other} counterpart. {pairs[0].row.summary}".strip()
        else:
            status = "no_counterpart"
            note = _silence(ref, other, pairs)
            if ref.act == "IPC" and ref.base in self.derived:
                note += f" The DERIVED (not official) gap list says: {self.derived[ref.base].summary}"
        return Correspondence(ref, direction, status, targets, tuple(pairs), note, related)


def _unique_rows(pairs: list[Pair]) -> list[Pair]:
    seen, out = set(), []
    for p in pairs:
        if p.row not in seen:
            seen.add(p.row)
            out.append(p)
    return out


def _silence(ref: StatuteRef, other: str, pairs: list[Pair]) -> str:
    if pairs:
        return f"The table row ({pairs[0].row.source_row}) names no {other} section for {ref}."
    if ref.act in ("BNSS", "CrPC"):
        return (f"No pair in {PAIRS_FILE} names {ref}. That file (the only BNSS-CrPC source here) leaves out rows the "
                f"BPR&D table marks New and has no summaries, so it cannot say whether {ref} is new or a gap.")
    return f"The official table names no {other} counterpart for {ref}; the table is silent, nothing is inferred."


def build_concordance(corpus_path: Path) -> Concordance:
    """Read the three tables and the derived gap list under ``corpus_path/mappings``. Raises CorpusError."""
    mappings = corpus_path / "mappings"
    pairs: list[Pair] = []
    for reader in (read_bns_ipc, read_bnss_crpc, read_bsa_iea):
        pairs += reader(mappings)[1]
    return Concordance(tuple(pairs), load_section_sets(corpus_path), read_derived_gaps(mappings))


@lru_cache(maxsize=2)
def _cached(corpus_path: str) -> Concordance:
    return build_concordance(Path(corpus_path))


def load_concordance(corpus_path: Path | None = None) -> Concordance:
    """The concordance of ``corpus_path`` (default ``Settings().corpus_path``), built once per process. Raises
    :class:`~legal_rag.errors.CorpusError` when the folder does not exist (naming LEGAL_RAG_CORPUS_PATH) or a table
    cannot be read."""
    if corpus_path is None:
        from ..config import Settings

        corpus_path = Settings().corpus_path
    if not Path(corpus_path).is_dir():
        from ..errors import corpus_missing

        raise corpus_missing(corpus_path)
    return _cached(str(Path(corpus_path).resolve()))


__all__ = ["Concordance", "Correspondence", "Level", "Pair", "TableRow", "build_concordance", "load_concordance", "DERIVED_FILE"]
