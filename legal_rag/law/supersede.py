"""Supersession flags: which code governs a reference, given the date, with the successor from the table row.

Rules and their sources:

* The BNS, BNSS and BSA came into force on 1 July 2024 (:data:`CUTOFF`) and repeal the IPC, CrPC and IEA with
  savings: BNS s.358(2) (offences committed before stay under the IPC), BNSS s.531(2) (proceedings pending or begun
  before continue under the CrPC), BSA s.170(2). The substantive code follows the **offence date**; procedure and
  evidence follow the **proceeding date** (when the FIR / proceeding was instituted). An IPC reference for an
  offence before the cut-off is therefore ``saved`` (informational: the successor is shown, never substituted).
* A BNS section the table marks "New" cannot reach acts before 1 July 2024: Constitution Art. 20(1) (no
  conviction under an ex post facto criminal law) → ``new_offence_retroactive``.
* :data:`NOT_IN_FORCE` lists provisions excluded from commencement → ``not_in_force``.
* A number with no Act named is ``ambiguous`` (each reading with its table row); in the user's query a new-code
  number whose old-code namesake means something else gets a ``collision`` note ("302 BNS" is not murder).

References to the new codes in post-2024 material ("Sections 483 and 528 BNSS") never get ``superseded``.
"""

from __future__ import annotations

from datetime import date
from typing import Iterable

from ..types import NEW_ACTS, OLD_ACTS, PREDECESSOR_ACT, SUCCESSOR_ACT, StatuteRef, SupersessionFlag
from .concordance import Concordance, Correspondence, load_concordance
from .refs import FoundRef

#: Date the BNS, BNSS and BSA came into force (MHA notifications S.O. 850(E), 848(E), 849(E) of 23 Feb 2024).
CUTOFF = date(2024, 7, 1)

#: Provisions of the new codes that are not in force, with the source relied on. BNS s.106(2) (hit-and-run:
#: leaving the scene without reporting): the BNS commencement notification S.O. 850(E) of 23 February 2024
#: (Ministry of Home Affairs, Gazette of India Extraordinary, Part II s.3(ii)) appointed 1 July 2024 for all of the
#: BNS except s.106(2); the BPR&D table row for 106(2) (BNS_to_IPC_clean.csv rows 174-175) says it "will not come
#: into force from 1st July 2024 with other new laws, it is kept on hold".
NOT_IN_FORCE: dict[StatuteRef, str] = {
    StatuteRef("BNS", "106", ("2",)): "BNS s.106(2) (hit-and-run) is not in force: the commencement notification "
    "S.O. 850(E) of 23 Feb 2024 excluded it; the BPR&D table says it is kept on hold.",
}
SAVINGS = {"IPC": "BNS s.358", "CrPC": "BNSS s.531", "IEA": "BSA s.170"}
_SUBSTANTIVE = {"IPC", "BNS"}


def _as_date(d: date | str | None) -> date | None:
    return date.fromisoformat(d) if isinstance(d, str) else d


def _rows(c: Correspondence) -> str:
    return ";".join(r.source_row for r in c.rows)


def _label(c: Correspondence, conc: Concordance) -> str:
    subj = next((p.row.subject for p in c.pairs if p.row.subject), "")
    arrow = "→" if c.direction == "old_to_new" else "←"
    other = ", ".join(map(str, c.targets)) or {"new_provision": "new, no predecessor",
                                               "no_counterpart": "no counterpart named"}.get(c.status, c.status)
    return f"{c.query}" + (f" ({subj.rstrip('.')})" if subj else "") + f" {arrow} {other}"


def flag_superseded(refs: Iterable[StatuteRef | FoundRef], found_in: str, offence_date: date | str | None = None, *,
                    proceeding_date: date | str | None = None,
                    concordance: Concordance | None = None) -> tuple[SupersessionFlag, ...]:
    """Flags for ``refs`` found in ``found_in`` ("query", "passage:<chunk id>", "answer").

    ``offence_date`` governs IPC/BNS references, ``proceeding_date`` CrPC/BNSS and IEA/BSA ones (both ISO
    strings or dates; ``None`` = unknown). Refs of other Acts give no flag; duplicates are flagged once.

    >>> [f.kind for f in flag_superseded([StatuteRef("IPC", "420")], "query", "2024-06-20")]
    ['saved']
    """
    conc = concordance or load_concordance()
    off, proc = _as_date(offence_date), _as_date(proceeding_date)
    out: list[SupersessionFlag] = []
    seen: set = set()
    for item in refs:
        found = item if isinstance(item, FoundRef) else None
        ref = found.ref if found else item
        key = (ref, found.status if found else "ok", found.readings if found else ())
        if key in seen:
            continue
        seen.add(key)
        if found and found.status == "ambiguous":
            out.append(_ambiguous(found, found_in, conc))
        elif found and found.status == "invalid":
            out.append(SupersessionFlag(ref, (), found_in, "", found.note, "", kind="invalid"))
        elif found and found.status != "ok":
            continue
        elif ref.act in OLD_ACTS:
            out.append(_old(ref, found_in, off if ref.act in _SUBSTANTIVE else proc, conc))
        elif ref.act in NEW_ACTS:
            out += _new(ref, found_in, off if ref.act in _SUBSTANTIVE else proc, conc)
    return tuple(out)


def _ambiguous(found: FoundRef, found_in: str, conc: Concordance) -> SupersessionFlag:
    answers = [conc.query(r) for r in found.readings]
    first_old = next((a for a in answers if a.query.act in OLD_ACTS), answers[0] if answers else None)
    note = (f"'{found.text}' names no Act; readings: " + "; ".join(_label(a, conc) for a in answers)
            if answers else f"'{found.text}' names no Act and exists in none of the six codes")
    return SupersessionFlag(first_old.query if first_old else StatuteRef("?", found.text),
                            first_old.targets if first_old and first_old.direction == "old_to_new" else (),
                            found_in, "unknown", note, ";".join(_rows(a) for a in answers if a.rows), kind="ambiguous")


def _old(ref: StatuteRef, found_in: str, when: date | None, conc: Concordance) -> SupersessionFlag:
    c = conc.successors(ref)
    new_act = SUCCESSOR_ACT[ref.act]
    succ = ", ".join(map(str, c.targets)) or "none named in the table"
    if c.status == "invalid":
        return SupersessionFlag(ref, (), found_in, "", c.note, "", kind="invalid")
    if when is not None and when < CUTOFF:
        what = "offence" if ref.act in _SUBSTANTIVE else "proceeding"
        note = (f"The {what} date {when.isoformat()} is before 1 July 2024: {ref.act} governs ({SAVINGS[ref.act]} "
                f"savings). For reference only, the successor is {succ}. {c.note}").strip()
        return SupersessionFlag(ref, c.targets, found_in, ref.act, note, _rows(c), kind="saved")
    later = "" if when is not None else (f" For an offence or proceeding before 1 July 2024 {ref.act} still "
                                         f"governs ({SAVINGS[ref.act]}).")
    if c.status == "mapped":
        summary = c.note or f"{_rows(c)} (the pairs file has no summary of change)"
        note = f"{ref} is repealed from 1 July 2024 ({SAVINGS[ref.act]}); successor {succ}. {summary.rstrip('.')}.{later}"
        return SupersessionFlag(ref, c.targets, found_in, new_act, note, _rows(c), kind="superseded")
    related = ";".join(r.source_row for r in c.related)
    return SupersessionFlag(ref, (), found_in, new_act, f"{c.note}{later}", related, kind="no_counterpart")


def _new(ref: StatuteRef, found_in: str, when: date | None, conc: Concordance) -> list[SupersessionFlag]:
    flags = []
    for key, why in NOT_IN_FORCE.items():
        if ref.act == key.act and ref.section == key.section and (not ref.sub or ref.sub[:len(key.sub)] == key.sub):
            flags.append(SupersessionFlag(ref, (), found_in, "", why, "", kind="not_in_force"))
    c = conc.predecessors(ref)
    if c.status == "invalid":
        return flags + [SupersessionFlag(ref, (), found_in, "", c.note, "", kind="invalid")]
    old_act = PREDECESSOR_ACT[ref.act]
    if when is not None and when < CUTOFF:
        if c.status == "new_provision" and ref.act == "BNS":
            note = (f"{ref} is a new offence ({_rows(c)}: New); it cannot reach acts before 1 July 2024 "
                    f"(Constitution Art. 20(1)); the {old_act} governs the {when.isoformat()} act.")
            flags.append(SupersessionFlag(ref, (ref,), found_in, old_act, note, _rows(c), kind="new_offence_retroactive"))
        else:
            preds = ", ".join(map(str, c.targets)) or "none named in the table"
            note = (f"The date {when.isoformat()} is before 1 July 2024: {old_act} governs ({SAVINGS[old_act]}); "
                    f"the table's counterpart of {ref} is {preds}.")
            flags.append(SupersessionFlag(c.targets[0] if c.targets else ref, (ref,), found_in, old_act, note,
                                          _rows(c), kind="predates_new_code"))
    if found_in == "query" and conc.sections.exists(old_act, ref.section):
        namesake = conc.successors(StatuteRef(old_act, ref.section))
        if ref.base not in {t.base for t in namesake.targets}:
            note = f"Same number, different provision: {_label(c, conc)}; but {_label(namesake, conc)}."
            flags.append(SupersessionFlag(namesake.query, namesake.targets, found_in, ref.act, note,
                                          ";".join(filter(None, (_rows(c), _rows(namesake)))), kind="collision"))
    return flags


def dedupe_flags(flags: Iterable[SupersessionFlag]) -> tuple[SupersessionFlag, ...]:
    """One flag per (old ref, kind, found_in), first seen first: the pipeline passes query flags, then passage
    flags, then the answer's, so that order is kept."""
    seen, out = set(), []
    for f in flags:
        key = (f.old, f.kind, f.found_in)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return tuple(out)
