"""Section look-up without any model: "IPC 420" → the section, its successor(s), the table row and the change.

>>> r = lookup("IPC 420", load_concordance())
>>> r.status, [str(t) for t in r.correspondence.targets], r.correspondence.rows[0].source_row
('ok', ['BNS 318(4)'], 'BPRD_correspondence_BNS_to_IPC_clean.csv#453')

Works for the three pairs of codes in both directions. With ``sections`` ({StatuteRef: Section}, e.g. from the
ingested Acts) the texts of the queried section and of each counterpart are attached; a sub-section ref falls back
to its whole section's text. With ``schedule`` (the First Schedules' rows, :func:`legal_rag.ingest.schedules.
load_schedules`) ``classification`` holds the rows that classify the queried section and then its counterparts
(IPC 420: the CrPC schedule's row of IPC 420, then the BNSS schedule's row of BNS 318(4)). With ``sections``,
``derived`` holds the finer match the two Acts' texts make plain where the official table stops at a section or
is silent (:func:`legal_rag.law.align.align`: IPC 376(2)(n) -> BNS 64(2)(m), labelled "derived from the texts",
never official; the table's own answer stays in ``correspondence``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, Mapping, Sequence

from ..errors import RefError
from ..types import ScheduleRow, Section, StatuteRef
from .align import Alignment, align, division_text
from .classify import Schedule, classify, describe, counterpart_rows
from .concordance import Concordance, Correspondence, load_concordance
from .refs import FoundRef, parse_ref

LookupStatus = Literal["ok", "ambiguous", "invalid", "other_act", "unknown_act", "not_found"]


@dataclass(frozen=True)
class LookupResult:
    """``status`` ``ok``: ``correspondence`` answers the query; ``ambiguous``: ``readings`` holds one result per
    Act where the number exists; ``invalid``: the Act has no such section (``message`` says why).
    ``classification``: the First Schedule rows of the queried section, then those of its counterparts (empty
    without a schedule, or for a section no schedule lists). ``derived``: the division of the new code that the
    texts match (:mod:`legal_rag.law.align`, "derived from the texts", not official), or None."""

    query: str
    status: LookupStatus
    ref: StatuteRef | None = None
    correspondence: Correspondence | None = None
    section: Section | None = None
    counterparts: tuple[tuple[StatuteRef, Section | None], ...] = ()
    readings: tuple["LookupResult", ...] = ()
    message: str = ""
    classification: tuple[ScheduleRow, ...] = ()
    derived: Alignment | None = None


def _text(ref: StatuteRef, sections: Mapping[StatuteRef, Section] | None) -> Section | None:
    if not sections:
        return None
    return sections.get(ref) or sections.get(ref.base)


def missing_division(ref: StatuteRef, section: Section | None, conc: Concordance) -> str:
    """Why ``ref``'s sub-section (or clause) does not exist, or ``""`` when it does or cannot be checked.

    It exists when its marker is printed in the section's text (:func:`legal_rag.law.pinpoint.layout`: "(4)" for
    a sub-section, "(a)" for a clause of a section without sub-sections) or when an official BPR&D table row names
    it (BSA 22(1), BNS 125(a) are the table's own references). With no section text (no index) nothing is
    checked. ``missing_division(BNS 318(9), ...)`` -> "BNS 318 has no sub-section (9); its sub-sections are
    (1)-(4)"."""
    if not ref.sub or section is None:
        return ""
    from .pinpoint import layout

    label = ref.sub[0]
    lay = layout(section.text)
    subs = [d.sub for d in lay.subs]
    if label in subs or (not label[0].isdigit() and any(d.sub == "" and d.clause == label for d in lay.clauses)):
        return ""
    if any(x.sub[:1] == (label,) for x in conc.named(ref)):
        return ""
    kind = "sub-section" if label[0].isdigit() else "clause"
    have = (f"its sub-sections are ({subs[0]})-({subs[-1]})" if len(subs) > 1 else
            f"its only sub-section is ({subs[0]})" if subs else "it has no sub-sections")
    return f"{ref.base} has no {kind} ({label}); {have}"


def _for_ref(query: str, ref: StatuteRef, conc: Concordance, sections, schedule: Schedule | None) -> LookupResult:
    c = conc.query(ref)
    if c.status == "invalid":
        return LookupResult(query, "invalid", ref, c, message=c.note)
    missing = missing_division(ref, _text(ref.base, sections), conc)
    if missing:  # the section exists, the division asked for does not (a made-up "318(9)")
        return LookupResult(query, "invalid", ref, c, message=missing)
    rows = tuple(dict.fromkeys(classify(ref, schedule) + counterpart_rows(c.targets, schedule))) if schedule else ()
    derived = align(ref, conc, sections) if c.direction == "old_to_new" else None
    return LookupResult(query, "ok", ref, c, _text(ref, sections), tuple((t, _text(t, sections)) for t in c.targets),
                        message=c.note, classification=rows, derived=derived)


def lookup(text_or_ref: str | StatuteRef, concordance: Concordance | None = None,
           sections: Mapping[StatuteRef, Section] | None = None, schedule: Schedule | None = None,
           order: Callable[[Sequence[StatuteRef]], tuple[Sequence[StatuteRef], str]] | None = None) -> LookupResult:
    """Look up one reference ("IPC 420", "s. 498A IPC", "BNS 318(4)", "302" or a StatuteRef).

    Never raises for a well-formed query that names a missing section (``invalid``) or no Act (``ambiguous``);
    raises RefError when ``text_or_ref`` contains no reference at all. ``order``: for a number that names no Act,
    ``order(readings) -> (the readings in the order given, the words that say how they were ordered)``
    (:meth:`legal_rag.pipeline.Pipeline.lookup` orders them as an answer does, :func:`legal_rag.law.bare.
    order_readings`); without it the grammar's order of the Acts.
    """
    conc = concordance or load_concordance()
    if isinstance(text_or_ref, StatuteRef):
        return _for_ref(str(text_or_ref), text_or_ref, conc, sections, schedule)
    found: FoundRef = parse_ref(text_or_ref, sections=conc.sections)
    if found.status == "ok" and found.ref is not None:
        return _for_ref(text_or_ref, found.ref, conc, sections, schedule)
    if found.status == "ambiguous":
        refs, how = order(found.readings) if order is not None else (found.readings, "")
        readings = tuple(_for_ref(text_or_ref, r, conc, sections, schedule) for r in refs)
        return LookupResult(text_or_ref, "ambiguous", readings=readings,
                            message=f"'{found.text}' names no Act; {len(readings)} reading{'' if len(readings) == 1 else 's'}"
                            + (f", {how}" if how else ""))
    if found.status == "invalid":
        return LookupResult(text_or_ref, "invalid", found.ref, message=found.note)
    return LookupResult(text_or_ref, found.status, found.ref,
                        message=f"{found.act_text or 'the Act'} is not one of IPC, CrPC, IEA, BNS, BNSS, BSA")


def format_lookup(result: LookupResult) -> str:
    """Plain-text rendering for the CLI: one block per reading, each with its table rows, then the first 600
    characters of each text: of the sub-section or clause a reference names ("BNS 318(4)": from "(4) Whoever
    cheats"), else of the whole section."""
    if result.status == "ambiguous":
        return "\n\n".join([f"{result.query}: {result.message}"] + [format_lookup(r) for r in result.readings])
    if result.correspondence is None or result.status == "invalid":
        return f"{result.query}: {result.status}: {result.message}"
    c = result.correspondence
    lines = [f"{c.query} [{c.status}] -> " + (", ".join(map(str, c.targets)) or "—")]
    for p in c.pairs:
        lines.append(f"  {p.row.source_row}: {p.row.new_cell} | {p.row.old_cell} | {p.row.subject} | {p.row.summary}")
    for r in c.related:
        lines.append(f"  see also {r.source_row}{'' if r.official else ' (DERIVED, not official)'}: {r.summary}")
    if c.status != "mapped":
        lines.append(f"  {c.note}")
    if result.derived is not None:
        lines.append(f"  {result.derived.describe()}")
    for row in result.classification:
        lines.append(f"  classification: {describe(row)}")
    for ref, sec in ((c.query, result.section), *result.counterparts):
        if sec is not None:  # the sub-section or clause asked for, not the section's opening (BNS 318(4))
            lines.append(f"  --- {ref}: {sec.title}\n  {(division_text(sec, ref.sub) or sec.text).strip()[:600]}")
    return "\n".join(lines)


__all__ = ["LookupResult", "lookup", "format_lookup", "RefError"]
