"""The composed head of a statute answer: which provisions govern, with their classification and the date rule.

``compose_head(analysis, suggestions, concordance=..., schedule=..., title_of=...) -> tuple[HeadLine, ...]`` is
deterministic and reads structured data only (no retrieval order, no model):

* **Which provisions.** The sections the question names (:attr:`QuestionAnalysis.refs`: named, idiom and premise
  refs in the order written; of the readings of a bare token such as "316(2)" one: for a classification question
  one the First Schedules list, then the code of the era; of an ambiguous bare number, every reading in the order
  of :func:`legal_rag.law.bare.bare_numbers`, each line opening 'Reading 1 of 2 of "323" (IPC 323, cited in 25
  judgments of the case base): '), or, for a question that names none, the section
  ranker's lead (:mod:`legal_rag.rank`), each at its chosen limb (``cited_as``). A plain number in a classification
  question ("Which court tries 103?") has been read as the section the First Schedules list
  (:func:`legal_rag.law.classify.read_plain_number`); its line opens with the reading assumed ('Read "103" as
  BNS 103, the section of that number the First Schedules list (the law in force today): ...'). A suggested
  provision's line opens "Suggested from the facts (ranker 0.82; text match 3): ..."; when the ranker's next
  candidates are close to its first, each line opens "Candidate (...)". Each is paired with its counterpart by the
  official BPR&D table (:mod:`legal_rag.law.concordance`): IPC 420 <-> BNS 318(4).
* **Which side of the pair leads** (the date rules of :mod:`legal_rag.law.supersede`): the substantive codes
  (IPC/BNS) follow the offence date (BNS s.358; Constitution Art. 20(1)), procedure (CrPC/BNSS) and evidence
  (IEA/BSA) the proceeding date (BNSS s.531(2), BSA s.170(2)). Before 1 July 2024 the old code leads; on or after
  it, or with no date (the law in force today), the new code leads and its predecessor is named.
* **One line per governing provision**: "BNS 318(4) (formerly IPC 420) -- Cheating: Imprisonment for 7 years and
  fine; cognizable, non-bailable, triable by Magistrate of the first class [First Schedule, BNSS, p. 183]." The
  title is the section's heading in the index (``title_of``); punishment and classification are the First
  Schedule row's columns (:func:`legal_rag.law.classify.classify`), cited to the schedule's page. A part that is
  not known is left out; nothing else is stated.
* **A finer match derived from the texts** (``derived(ref)``, :func:`legal_rag.law.align.align`): where the table
  stops at a section (IPC 376(2)(n) -> BNS 64) or is silent (IPC 376DA) but the two Acts' texts make a finer match
  plain, the line names it after the pair, labelled "derived from the texts, not official", beside what the table
  names: "IPC 376(2)(n) (now BNS 64; by the texts BNS 64(2)(m), derived from the texts, not official)".
* **The date rule in words** (``HeadLine.rule``): which code governs and why, naming the other side of the pair;
  a new offence (table row "New") says the old code had no such offence; a section the table names no successor
  for says so in the concordance's own words (``Correspondence.note``).
"""

from __future__ import annotations

import re
from datetime import date
from typing import TYPE_CHECKING, Callable, Sequence

from ..kept import Kept
from ..law import CLASSIFICATION_Q, CUTOFF, classify
from ..types import NEW_ACTS, OLD_ACTS, PREDECESSOR_ACT, SUCCESSOR_ACT, HeadLine, ScheduleRow, SectionSuggestion, \
    StatuteRef

if TYPE_CHECKING:
    from ..law import Alignment, BareNumber, Concordance, Correspondence, QuestionAnalysis, Schedule

#: the saving clause of each old code (the substantive code by the offence date, the others by the proceeding)
SAVING = {"IPC": "BNS s.358", "CrPC": "BNSS s.531(2)", "IEA": "BSA s.170(2)"}
SUBSTANTIVE = frozenset({"IPC", "BNS"})
#: at most this many schedule rows are described in one line (BNS 111 has six); the rest are counted
MAX_ROWS = 3
#: at most this many head lines (a question naming many sections keeps the first ones written)
MAX_LINES = 4


def _day(d: date) -> str:
    """``date(2024, 6, 20) -> "20 June 2024"``."""
    return f"{d.day} {d.strftime('%B')} {d.year}"


def _refs(rs: Sequence[StatuteRef]) -> str:
    return ", ".join(map(str, rs))


def governing_refs(analysis: "QuestionAnalysis", suggestions: Sequence[SectionSuggestion], schedule: "Schedule",
                   exists: Callable[[StatuteRef], bool] = lambda ref: True,
                   bare: Sequence["BareNumber"] = ()) -> tuple[StatuteRef, ...]:
    """The provisions the question is about, before the date rule picks a side of each pair: named / idiom /
    premise refs in the order written (a premise's corrected provision first); for a bare token that ``bare``
    holds as ambiguous (:func:`legal_rag.law.bare.bare_numbers`) every reading in its order, for any other one
    reading (classification question: a reading the schedules list; then the era's code; then the Acts searched
    first); else each of ``suggestions`` (the section ranker's lead, :mod:`legal_rag.rank`) at its ``cited_as``
    (or ``ref``). ``()`` when the question names none and nothing is suggested."""
    out: list[StatuteRef] = []
    by_span: dict[tuple[int, int], list[StatuteRef]] = {}
    classifying = bool(CLASSIFICATION_Q.search(analysis.question))
    premise_spans = {r.span for r in analysis.refs if r.how == "premise"}
    for r in analysis.refs:
        if r.how == "bare":
            by_span.setdefault(r.span, []).append(r.ref)
        elif r.how == "named" and r.span in premise_spans:
            continue  # the question's wrong premise: the provision it meant leads
        elif r.ref not in out:
            out.append(r.ref)
    era_acts = NEW_ACTS if analysis.era == "new" else OLD_ACTS
    order = analysis.acts_first

    def rank(ref: StatuteRef) -> tuple:
        return (not (classifying and classify(ref, schedule)), ref.act not in era_acts,
                order.index(ref.act) if ref.act in order else len(order), ref.act not in SUBSTANTIVE)

    ambiguous = {b.span: b.refs for b in bare if b.ambiguous}
    for span, readings in by_span.items():
        readings = [r for r in readings if exists(r)]  # "316(2)": IPC 316 and CrPC 316 print no (2)
        if not readings:
            continue
        out += [r for r in ambiguous.get(span) or (min(readings, key=rank),) if r not in out]
    if not out:
        out.extend(dict.fromkeys(s.cited_as or s.ref for s in suggestions))
    return tuple(out)


_NOT_A_NAME = re.compile(r"^(?:in|if|when|where|with|by|being|for|of|or|and|any|the|other)\b", re.I)


def names_an_offence(row: ScheduleRow) -> bool:
    """Whether a First Schedule row's column 2 is an offence's name: not a row printed as a further case
    (``continued``), nor a condition ("If ...", "In any other case")."""
    return not row.continued and not _NOT_A_NAME.match(row.offence.strip())


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower())) + " "


#: words that qualify no offence name ("etc." closes many First Schedule names)
_FILLER = frozenset("a an the of or by and in to for etc any".split())
#: share of a longer name's words the question must contain to prefer it (row BNS 316(5) "Criminal breach of trust
#: by public servant or by banker, merchant or agent, etc." for "... committed by a public servant or banker or
#: agent": 7 of its 8 words)
NAME_COVER = 0.75
#: how many words beyond the name's own length its qualifying words may spread over ("committed by a ...")
NAME_SLACK = 4


#: schedules (by identity, the last 8) -> Act -> its rows' offence names (:func:`_offence_names`)
_NAMES: Kept = Kept(8)


def _offence_names(schedule: "Schedule", act: str
                   ) -> tuple[tuple[StatuteRef, str, tuple[str, ...], tuple[str, ...]], ...]:
    """``(ref, name, words, content words)`` of every row of ``act`` in ``schedule`` whose column 2 names an offence
    (:func:`names_an_offence`) in two or more words, in printed order: ``name`` as :func:`_words` writes it,
    ``content`` its words but :data:`_FILLER`. Read once per schedule and Act."""
    kept: dict[str, tuple] = _NAMES.for_object(schedule, dict)
    got = kept.get(act)
    if got is None:
        rows = []
        for r in schedule.rows:
            if r.act != act or not names_an_offence(r):
                continue
            name = _words(r.offence)
            words = tuple(name.split())
            if len(words) >= 2:
                rows.append((r.ref, name, words, tuple(w for w in words if w not in _FILLER)))
        got = kept[act] = tuple(rows)
    return got


def offence_named(question: str, schedule: "Schedule", act: str) -> StatuteRef | None:
    """The section whose First Schedule offence name (column 2, at least two words: "Dowry death", "Criminal breach
    of trust") the question names, among the rows of ``act``. A name is named when the question contains it word
    for word, or when its first two words stand together in the question and at least :data:`NAME_COVER` of its
    words (fillers such as "by", "or", "etc." aside) follow in the same sentence, within the name's length and
    :data:`NAME_SLACK` words: "criminal breach of trust committed by a
    public servant or banker or agent" names BNS 316(5)'s row, not only 316(2)'s "Criminal breach of trust". The
    name with the most of its words in the question wins, then the one contained whole, then the first printed.
    ``None`` when no name of two or more words is named (one-word names such as "Murder" or "Theft" name several
    rows and are left to the section finder). A row printed as a further case, or whose text is a condition
    ("If ...", "In any other case"), names no offence."""
    text = _words(question)
    sentences = [_words(part).split() for part in re.split(r"[.;:?!](?:\s|$)", question)]
    pairs: dict[tuple[str, str], list[tuple[int, int]]] = {}  # two words standing together -> where, in order
    for k, t in enumerate(sentences):
        for i in range(len(t) - 1):
            pairs.setdefault((t[i], t[i + 1]), []).append((k, i))
    best: tuple[tuple[int, bool], StatuteRef] | None = None
    for ref, name, words, content in _offence_names(schedule, act):
        whole = name in text
        found = len(content) if whole else 0
        if not whole:  # the name's opening, then its qualifying words close after it in the same sentence
            near = [set(sentences[k][i:i + len(words) + NAME_SLACK]) for k, i in pairs.get(words[:2], ())]
            found = max((sum(w in n for w in content) for n in near), default=0)
            if found < NAME_COVER * len(content):
                continue
        key = (found, whole)
        if best is None or key > best[0]:
            best = (key, ref)
    return best[1] if best else None


def _era_of(ref: StatuteRef, analysis: "QuestionAnalysis") -> tuple[str, date | None]:
    if ref.act in SUBSTANTIVE:
        return analysis.substantive_era, analysis.offence_date
    return analysis.procedural_era, analysis.proceeding_date


def _said(ref: StatuteRef, analysis: "QuestionAnalysis", when: date) -> str:
    """The date that decides ``ref``'s era in words as the question gave it ("20 June 2024"; "March 2025" for a
    month), else :func:`_day`."""
    words = analysis.offence_words if ref.act in SUBSTANTIVE else analysis.proceeding_words
    return words or _day(when)


def _rows_part(rows: Sequence[ScheduleRow]) -> str:
    """The punishment and classification columns of ``rows`` in words, each cited to its schedule page."""
    def one(r: ScheduleRow) -> str:
        parts = []
        if r.punishment:
            parts.append(r.punishment.rstrip(". "))
        cls = []
        if r.cognizable is not None:
            cls.append("cognizable" if r.cognizable else "non-cognizable")
        elif r.cognizable_text:
            cls.append(r.cognizable_text.rstrip(". "))
        if r.bailable is not None:
            cls.append("bailable" if r.bailable else "non-bailable")
        elif r.bailable_text:
            cls.append(r.bailable_text.rstrip(". "))
        if r.court:
            cls.append(f"triable by {r.court.rstrip('. ')}")
        if cls:
            parts.append(", ".join(cls))
        return "; ".join(parts) + f" [First Schedule, {r.schedule}, p. {r.page}]"

    if len(rows) == 1:
        return one(rows[0])
    shown = [f"{r.act} {r.section}" + (" (further case)" if r.continued else "") + f" ({r.offence.rstrip('. ')}): "
             + one(r) for r in rows[:MAX_ROWS]]
    more = len(rows) - MAX_ROWS
    tail = ""
    if more > 0:
        pages = sorted({r.page for r in rows[MAX_ROWS:]})
        where = f"p. {pages[0]}" if len(pages) == 1 else f"pp. {pages[0]}-{pages[-1]}"
        tail = f"; {more} more row{'s' if more > 1 else ''} [First Schedule, {rows[0].schedule}, {where}]"
    return "; ".join(shown) + tail


def _derived_part(a: "Alignment") -> str:
    """``"by the texts BNS 64(2)(m), derived from the texts, not official"`` (IPC 376DA, table silent: "no successor
    in the official table; by the texts BNS 70(2), ...")."""
    from ..law import LABEL

    part = f"by the texts {a.new}, {LABEL}, not official"
    return part if a.official else f"no successor in the official table; {part}"


def _line(lead: StatuteRef, other: tuple[StatuteRef, ...], old_leads: bool, title: str,
          rows: Sequence[ScheduleRow], derived: "Alignment | None" = None) -> str:
    if other:
        pair = f"formerly {_refs(other)}" if lead.act in NEW_ACTS else f"now {_refs(other)}"
    else:
        pair = ""
    if derived is not None:
        pair = "; ".join(x for x in (pair, _derived_part(derived)) if x)
    pair = f" ({pair})" if pair else ""
    head = f"{lead}{pair}"
    body = []
    if title:
        body.append(title.rstrip(". "))
    text = head + (f" -- {body[0]}" if body else "")
    if rows:
        text += (": " if body else " -- ") + _rows_part(rows)
    return text + "."


def _rule(lead: StatuteRef, c: "Correspondence | None", analysis: "QuestionAnalysis", named: StatuteRef,
          new_named: tuple[StatuteRef, ...] | None = None) -> str:
    """The date rule for the pair of ``named`` (its correspondence ``c``) in words, ``lead`` the side that leads;
    ``new_named``: how a new-code ``named`` is printed (default ``(named,)``; the table's successors of an old-code
    lead)."""
    if c is None or c.status == "invalid":
        return ""
    era, when = _era_of(named, analysis)
    day = _said(named, analysis, when) if when is not None else ""
    old_act = named.act if named.act in OLD_ACTS else PREDECESSOR_ACT[named.act]
    new_act = SUCCESSOR_ACT[old_act]
    saving = SAVING[old_act]
    what = "offence" if old_act == "IPC" else "proceeding"
    old_side = (named,) if named.act in OLD_ACTS else c.targets
    new_side = (new_named or (named,)) if named.act in NEW_ACTS else c.targets
    rows = "; ".join(r.source_row for r in c.rows)
    if c.status == "new_provision":  # a new-code section the table marks New: the old code had no such offence
        text = (f"{named} is new ({rows}: New): the {old_act} had no such "
                f"{'offence' if old_act == 'IPC' else 'provision'}")
        if old_act == "IPC":
            text += "; it cannot reach acts before 1 July 2024 (Constitution Art. 20(1))"
        if when is not None:
            text += (f". The {what} date {day} is " + ("before" if when < CUTOFF else "on or after")
                     + " 1 July 2024")
        return text + "."
    if c.status == "no_counterpart":  # an old-code section the table names no successor for (377, 497, 124A)
        base = c.note.strip()
        if named.act in OLD_ACTS:
            if when is not None and when < CUTOFF:
                return f"The {what} date {day} is before 1 July 2024: {named} governs ({saving}). {base}"
            return (f"{named} governs only {what}s before 1 July 2024 ({saving}); there is no {new_act} successor "
                    f"by the official table. {base}")
        return base
    def governs(side: tuple[StatuteRef, ...]) -> str:
        return f"{_refs(side)} govern{'s' if len(side) == 1 else ''}"

    if when is None:
        earlier = "an offence committed" if what == "offence" else "a proceeding pending"
        return (f"No {what} date given: the law in force today leads, {governs(new_side)} (in force from 1 July "
                f"2024); for {earlier} before 1 July 2024, {governs(old_side)} ({saving}).")
    if when < CUTOFF:
        return (f"{what.capitalize()} date {day} is before 1 July 2024: {governs(old_side)} ({saving}); "
                f"for later {what}s {_refs(new_side)}.")
    return (f"{what.capitalize()} date {day} is on or after 1 July 2024: {governs(new_side)}; "
            f"{_refs(old_side)} only for {what}s before 1 July 2024 ({saving}).")


def _assumed(ref: StatuteRef, token: str, schedule: "Schedule") -> str:
    """``'Read "103" as BNS 103, the section of that number the First Schedules list (the law in force today)'``,
    naming the other code's section of that number when its schedule lists it too."""
    if ref.act in NEW_ACTS:
        why = "the law in force today"
    elif schedule.section_rows(SUCCESSOR_ACT[ref.act], ref.section):
        why = "the code in force on the offence date"
    else:
        why = f"the {SUCCESSOR_ACT[ref.act]}'s First Schedule lists no section {ref.section}"
    text = f'Read "{token}" as {ref}, the section of that number the First Schedules list ({why})'
    for act in ("BNS", "IPC"):
        rows = schedule.section_rows(act, ref.section) if act != ref.act else ()
        if rows:
            text += f"; {act} {ref.section} ({rows[0].offence.rstrip('. ')}) is the other reading"
    return text


def _reading(b: "BareNumber", ref: StatuteRef) -> str:
    """``'Reading 1 of 2 of "323" (IPC 323, cited in 25 judgments of the case base)'``: the place of ``ref`` among
    the readings of the ambiguous number ``b`` (:mod:`legal_rag.law.bare`)."""
    i = b.position(ref)
    counted = b.readings[i - 1].counted() if i else ""
    return f'Reading {i} of {len(b.readings)} of "{b.token}" ({ref}' + (f", {counted})" if counted else ")")


def compose_head(analysis: "QuestionAnalysis", suggestions: Sequence[SectionSuggestion] = (), *,
                 concordance: "Concordance", schedule: "Schedule",
                 title_of: Callable[[StatuteRef], str] = lambda ref: "",
                 exists: Callable[[StatuteRef], bool] = lambda ref: True,
                 derived: Callable[[StatuteRef], "Alignment | None"] = lambda ref: None,
                 bare: Sequence["BareNumber"] = ()) -> tuple[HeadLine, ...]:
    """The head lines of an answer (see the module docstring); ``()`` when no provision governs by the question.

    ``title_of(ref)`` gives a section's heading as indexed ("" when unknown); ``schedule`` the First Schedule
    rows (an empty :class:`~legal_rag.law.classify.Schedule` leaves classification out). ``exists(ref)`` is False
    for a provision the question names that does not exist (a sub-section the section does not print and no table
    row names, :func:`legal_rag.law.lookup.missing_division`): no head line states law for it. ``derived(ref)``
    gives the finer match the texts make plain for an old-code ref (:func:`legal_rag.law.align.align`), or None.
    ``bare``: the question's bare numbers (:func:`legal_rag.law.bare.bare_numbers`); each reading of an ambiguous
    one is a line, in their order, opening with its place and count ('Reading 1 of 2 of "323" (IPC 323, cited in 25
    judgments of the case base): BNS 115(2) (formerly IPC 323) -- ...').
    """
    lines: list[HeadLine] = []
    seen: set[StatuteRef] = set()
    refs = governing_refs(analysis, suggestions, schedule, exists, bare)
    readings = {r: b for b in bare if b.ambiguous for r in b.refs}
    # a provision chosen from the facts is a suggestion, and its line says so with why; several close ones are
    # candidates, each with its own line
    chosen = {(s.cited_as or s.ref): s for s in suggestions} if not analysis.refs else {}
    # a plain number read as a section (law.classify.read_plain_number): the line says which reading was assumed
    assumed = {r.ref: r.text for r in analysis.refs if r.how == "bare" and r.text.isdigit()}
    for named in refs:
        if not exists(named):
            continue
        c = concordance.query(named) if named.act in OLD_ACTS | NEW_ACTS else None
        counterparts = concordance.counterparts(named)
        era, _ = _era_of(named, analysis)
        old_leads = era == "old"
        if named.act in OLD_ACTS:
            leads = (named,) if old_leads or not counterparts else counterparts
        elif named.act in NEW_ACTS:
            leads = counterparts if old_leads and counterparts else (named,)
        else:
            leads = (named,)
        # an old-code lead chosen for a new-code ref: the new side is the table's successors of that lead
        table_side = (concordance.counterparts(leads[0]) or (named,)) if leads[0].act in OLD_ACTS and \
            named.act in NEW_ACTS else (named,)
        rule = _rule(leads[0], c, analysis, named, table_side)
        for lead in leads:
            if lead in seen:
                continue
            seen.add(lead)
            if lead == named:
                other = counterparts
            elif lead.act in OLD_ACTS:  # the date rule's old-code lead: its successors at the table's level
                other = table_side
            else:
                other = (named,)
            rows = classify(lead, schedule) if lead.act in ("BNS", "IPC") else ()
            title = title_of(lead) if lead.section else ""
            sources = tuple(dict.fromkeys(f"First Schedule, {r.schedule}, p. {r.page}" for r in rows))
            if c is not None:
                sources += tuple(r.source_row for r in c.rows)
            a = derived(named) if named.act in OLD_ACTS else None
            line = _line(lead, other, old_leads, title, rows, a)
            if named in chosen and len(chosen) == 1:
                line = f"Suggested from the facts ({chosen[named].why()}): {line}"
            elif named in chosen:
                line = f"Candidate ({chosen[named].why()}): {line}"
            elif named in readings and lead == leads[0]:
                line = f"{_reading(readings[named], named)}: {line}"
            elif named in assumed and lead == leads[0]:
                line = f"{_assumed(named, assumed[named], schedule)}: {line}"
            lines.append(HeadLine(lead, line, rule if lead == leads[0] else "", other,
                                  c.status if c is not None else "", sources, tuple(rows)))
    return tuple(lines[:MAX_LINES])


def head_text(lines: Sequence[HeadLine]) -> str:
    """The head as the answer opens with it: one paragraph per line (its date rule after it)."""
    return "\n".join(h.text for h in lines)


__all__ = ["CLASSIFICATION_Q", "compose_head", "governing_refs", "head_text", "offence_named"]
