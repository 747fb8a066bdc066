"""One question analysis, made once per question and read by every stage.

``analyse(question, offence_date=None, proceeding_date=None) -> QuestionAnalysis`` (pure; no model, no index):

* ``refs``: the sections the question names, read by the project's one citation grammar (:func:`find_refs`, and
  :func:`parse_ref` for a bare token such as "498A" or "318(4)"), plus the legal idioms that name a section by its
  old CrPC number without an Act ("a 438 application", "a 125 petition"), resolved through the official BPR&D
  table (:mod:`legal_rag.law.concordance`). A section of another Act ("Section 4 POCSO Act") is kept in
  ``other_refs``, never read as one of ours.
* ``cases``: "A v. B" titles (:func:`legal_rag.law.cases.find_case_titles`); ``citations``: reporter and neutral
  citations, read by the caller's citation grammar (``citation_finder``; the project's is
  :func:`legal_rag.ingest.citations_meta.find_citations`, which :func:`legal_rag.retrieve.route.analyse_question`
  passes -- ``law`` sits below ``ingest``); ``case_refs``: the judgments named, titles and citations as written, in
  order (:func:`legal_rag.law.cases.case_references`), which an answer must find among its passages.
* ``dates``: the dates in the text (days and months, :func:`legal_rag.law.dates.read_dates`; numeric dates day
  first, Indian usage), each given a role by what it is attached to: the nearest cue word of :data:`DATE_ROLE_CUES`
  inside its own clause (:data:`CLAUSE_BREAKS`: a sentence, or the part of it one event is told in) -- an act of the
  accused ("entrusted", "cheated", "took", "happened") makes it the ``offence`` date, a proceeding ("FIR
  registered", "arrested", "charge-sheet", "bail", "hearing") the ``proceeding`` date; a cue in another clause never
  decides. A date whose clause has no cue is ``unknown`` (unclear); it is read by :data:`UNCLEAR_READINGS` and the
  reading taken is said (``date_notes``).
* ``kind``: :data:`legal_rag.types.QuestionKind`, by the ordered rules of :func:`question_kind`.
* ``era`` and ``acts_first``: which code leads and which Acts to search first (:func:`acts_for`).
* ``numbers``: every number that may name a section, with or without an Act ("section 318" -> "318").

Era rules (sources): the BNS, BNSS and BSA are in force from 1 July 2024 (:data:`legal_rag.law.supersede.CUTOFF`).
With no date the law in force today leads. The substantive code follows the **offence date** (BNS s.358 savings;
Constitution Art. 20(1)); procedure and evidence follow the **proceeding date** (BNSS s.531(2), BSA s.170(2)).
An explicit ``offence_date`` / ``proceeding_date`` argument wins over a date read from the text and is read the same
way as that date written in the text. Of several offence dates the earliest decides (the first act; acts on both sides
of 1 July 2024 are said to fall under both codes); of several proceeding dates the earliest (a matter instituted
before 1 July 2024 was pending on it, BNSS s.531(2)). A month ("March 2025") decides when all its days are on one
side of 1 July 2024, and the note says it was read as a month. ``date_notes`` says, in words, each reading that was
not plain in the text (an unclear date's role, a month, offence dates on both sides of the cutoff, a date argument
that differs from the text's date).

Examples::

    analyse("a 438 application for my client").refs[0]          -> CrPC 438 (idiom), successors (BNSS 482,)
    analyse("anticipatory bail under Section 438 BNSS").premises -> ("BNSS 438 is not anticipatory bail ...",)
    analyse("cheated on 20 June 2024, FIR on 5 July 2024").era   -> "old" (offence before 1 July 2024)
    analyse("procedure for recording a confession").acts_first  -> ("BNSS", "CrPC")
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Callable, Literal

from ..types import NEW_ACTS, OLD_ACTS, PREDECESSOR_ACT, SUCCESSOR_ACT, QuestionKind, StatuteRef
from .cases import CaseReference, case_references, find_case_titles
from .concordance import Concordance, load_concordance
from .dates import DateSpan, Precision, read_dates
from .judgment_questions import asks_for_judgments
from .refs import FoundRef, find_refs, parse_ref
from .supersede import CUTOFF

Era = Literal["new", "old"]
DateRole = Literal["offence", "proceeding", "unknown"]
RefHow = Literal["named", "bare", "idiom", "premise"]

#: Legal idioms that name a section by its old CrPC number alone: (old section, subject words that identify it).
#: Only the OLD number and its subject are held here; the successor is always looked up in the official table
#: (BNSS<->CrPC pairs file). A number written as "<n> application/petition" resolves to the idiom on its own; a
#: "Section <n>" with no Act, or a new-code "<n> BNSS", resolves to it when one of its subject words is present.
IDIOMS: tuple[tuple[StatuteRef, str, tuple[str, ...]], ...] = (
    (StatuteRef("CrPC", "438"), "anticipatory bail", ("anticipatory", "apprehension of arrest", "pre-arrest")),
    (StatuteRef("CrPC", "125"), "maintenance", ("maintenance",)),
    (StatuteRef("CrPC", "156", ("3",)), "a Magistrate's order to investigate",
     ("direct", "direction", "investigation", "magistrate", "register", "fir")),
    (StatuteRef("CrPC", "482"), "quashing (inherent powers)", ("quash", "quashing", "inherent")),
)
_IDIOM_NOUN = r"(?:application|applications|petition|petitions|plea|pleas|motion|proceedings?|order|complaint|case)"
_IDIOM_RE = re.compile(r"(?<![\w./(-])(?P<n>[0-9]{1,3})(?P<subs>(?:\s?\(\s?\w{1,4}\s?\))*)\s+" + _IDIOM_NOUN + r"\b",
                       re.I)
#: a bare section token: a lettered number ("498A", "498-A", "65B") or a number with a sub-section ("318(4)").
#: It only locates the token; :func:`parse_ref` canonicalises it and lists every Act that has it (BL-25).
_BARE_RE = re.compile(r"(?<![\w./(-])(?P<tok>[0-9]{1,3}(?:-?[A-Z]{1,2}(?![a-z])(?:\s?\(\s?\w{1,4}\s?\))*|"
                      r"(?:\(\s?\w{1,4}\s?\))+))(?![\w(])")

#: a number that may name a section, with its capital letters ("318", "498A"; "318(4)" -> "318"):
#: :attr:`QuestionAnalysis.numbers`
_NUMBER_RE = re.compile(r"\b(\d{1,3}[A-Z]{0,2})(?:\(\w+\))*\b")

#: cue words that make a date in the same clause a proceeding date (the FIR, arrest, charge-sheet, bail, trial,
#: filing, a court's order)
PROCEEDING_CUES = re.compile(
    r"\b(?:f\.?\s?i\.?\s?r\.?|first information report|charge[- ]?sheet\w*|challan|trial|filed|fil(?:e|ing)|"
    r"registered|lodged|pending|instituted|proceedings?|summon\w*|cognizance|arrested|arrest|hearing|complaint|"
    r"complained|reported to|petition|application|case was|order dated|judgment dated|bail\w*|remand\w*|"
    r"police station|magistrate|court|convicted|conviction|acquitted|sentenced|appeal\w*|investigat\w*|"
    r"raid\w*|seiz\w*|produced|notice)\b", re.I)
#: cue words that make a date in the same clause an offence date (what the accused did, or what happened)
OFFENCE_CUES = re.compile(
    r"\b(?:committed|occurr\w*|happened|took place|incident|offence|crime|on the night of|night of|cheat\w*|"
    r"defraud\w*|stole|stolen|theft|robbed|assault\w*|attack\w*|beat(?:en)?|kill\w*|murder\w*|stabb\w*|hurt|"
    r"injur\w*|threat\w*|insult\w*|trespass\w*|harass\w*|kidnap\w*|abduct\w*|rap(?:e|ed)|molest\w*|forg\w*|"
    r"extort\w*|snatch\w*|embezzl\w*|misappropriat\w*|died|death|entrust\w*|took|taken away|grabbed|duped|"
    r"swindl\w*|siphon\w*|induced|sold|paid|handed over|deposited|invested|went missing|broke into|burgl\w*|shot|"
    r"slapped|hit|poison\w*|blackmail\w*|demanded|abused|stalk\w*|posted|hacked|bribe\w*|set fire)\b", re.I)
#: the role a cue word gives a date in its own clause: the nearest cue of any row decides (a cue after the date counts
#: at twice its distance: "insult on 1 Jul 2024, registered under ..." is the insult's date)
DATE_ROLE_CUES: tuple[tuple[DateRole, re.Pattern[str]], ...] = (
    ("proceeding", PROCEEDING_CUES),
    ("offence", OFFENCE_CUES),
)
#: where the clause a date stands in ends: a sentence's end (a full stop before a capital, "!", "?", ";", a line
#: break) or a conjunction that starts another event ("and", "but", "when", "though", "then", ...; not "after",
#: "before", "till": they are prepositions as often -- "after work", "from the till"). A cue in another clause --
#: "... entrusted to him on 12.05.2024. The FIR is being lodged" -- says nothing about the date.
CLAUSE_BREAKS = re.compile(r"[.](?=\s+[\"'(]?[A-Z]|\s*$)|[!?;:\n]|"
                           r"(?i:\b(?:and|but|while|whereas|though|although|when|whereupon|then|thereafter|later)\b)")

#: the words of a clause that tells no event of its own ("... and again on 9 Sept 2024", "and later in May 2025"):
#: such a clause repeats the verb of the clause before it, and its date takes that clause's date's role
ELLIPSIS = re.compile(r"(?:\s|[,.]|\b(?:again|also|once more|once|twice|later|then|thereafter|on|in|by|around|"
                      r"about|or|and|so|too)\b)*", re.I)


@dataclass(frozen=True)
class Reading:
    """How an unclear date (no cue in its clause) is read: as the ``role`` date when that role has no date yet and
    ``applies(kind, states_facts)`` holds; ``why`` says so in the answer's note."""

    role: DateRole
    why: str
    applies: Callable[[QuestionKind, bool], bool]


#: the kinds whose answer is the substantive code (the offence date decides their era)
SUBSTANTIVE_KINDS = frozenset({"offence", "punishment", "definition", "lookup", "precedent"})
#: the readings of an unclear date, in order; the first that applies and whose role is still empty is taken. A
#: question that tells what happened (an act word of :data:`OFFENCE_CUES` or an offence noun anywhere) dates its
#: facts: an undated role-less date there is the date of the facts, whatever the question asks about; otherwise
#: the question's kind decides.
UNCLEAR_READINGS: tuple[Reading, ...] = (
    Reading("offence", "the question tells what happened", lambda kind, facts: facts),
    Reading("offence", "the question asks about the offence", lambda kind, facts: kind in SUBSTANTIVE_KINDS),
    Reading("proceeding", "the question asks about procedure", lambda kind, facts: kind not in SUBSTANTIVE_KINDS),
)


@dataclass(frozen=True)
class QuestionRef:
    """One section the question names, as resolved.

    ``ref`` is the section; ``how`` says how it was read: ``named`` (the Act is written), ``bare`` (a token with no
    Act: one entry per Act that has it), ``idiom`` (an old CrPC number named by its idiom, resolved by the table),
    ``premise`` (the section the question meant when the one it names is another provision: ``premise`` says so).
    ``successors`` / ``predecessors`` come from the official table (empty for a new provision or a silent table).
    ``span`` is the ``[start, end)`` of the text read (0-based, half-open).
    """

    ref: StatuteRef
    text: str
    span: tuple[int, int]
    how: RefHow
    successors: tuple[StatuteRef, ...] = ()
    predecessors: tuple[StatuteRef, ...] = ()
    premise: str = ""


@dataclass(frozen=True)
class QuestionDate:
    """A date read from the question: ``value`` its first day, ``last`` its last (the same day for a day-date, the
    month's last day for a month, ``precision``); ``role`` by the nearest cue word of its own clause
    (:func:`find_dates`), ``cue`` that word as written ("" for an ``unknown`` role)."""

    value: date
    text: str
    span: tuple[int, int]
    role: DateRole
    cue: str = ""
    last: date | None = None
    precision: Precision = "day"

    @property
    def until(self) -> date:
        """The last day the date may mean (``value`` for a day)."""
        return self.last or self.value

    def era(self) -> "Era | None":
        """``old`` when every day it may mean is before 1 July 2024, ``new`` when every one is on or after it, None
        when it spans the cutoff (it cannot decide; BNS s.358, BNSS s.531(2))."""
        if self.until < CUTOFF:
            return "old"
        return "new" if self.value >= CUTOFF else None

    def words(self) -> str:
        """The date in words: ``"20 June 2024"``, or ``"March 2025"`` for a month."""
        if self.precision == "month":
            return f"{self.value:%B} {self.value.year}"
        return f"{self.value.day} {self.value:%B} {self.value.year}"


@dataclass(frozen=True)
class QuestionAnalysis:
    """The question, read once. ``offence_date`` / ``proceeding_date`` are the effective dates (argument, else
    text); ``substantive_era`` follows the offence date, ``procedural_era`` the proceeding date, and ``era`` is the
    one for this ``kind``. ``acts_first`` are the Acts to search first ((): no routing). ``found`` keeps
    :func:`find_refs`'s raw results (supersession flags, the sections named as written, sections that do not exist);
    ``other_refs`` are sections of other Acts and Articles ("Section 4 POCSO Act"). ``premises`` are notes the answer
    can state when the question's premise is wrong."""

    question: str
    refs: tuple[QuestionRef, ...] = ()
    other_refs: tuple[FoundRef, ...] = ()
    found: tuple[FoundRef, ...] = ()
    cases: tuple[str, ...] = ()
    citations: tuple[str, ...] = ()
    case_refs: tuple[CaseReference, ...] = ()
    dates: tuple[QuestionDate, ...] = ()
    kind: QuestionKind = "offence"
    offence_date: date | None = None
    proceeding_date: date | None = None
    substantive_era: Era = "new"
    procedural_era: Era = "new"
    era: Era = "new"
    acts_first: tuple[str, ...] = ()
    premises: tuple[str, ...] = ()
    #: the question asks which provisions apply (:data:`ASKS_FOR_SECTIONS`): the answer leads with statute text
    asks_sections: bool = False
    #: every number the question writes that may name a section, Act or no Act ("what does section 318 say" ->
    #: ("318",); :data:`_NUMBER_RE`), in order, without duplicates
    numbers: tuple[str, ...] = ()
    #: the effective dates in words as the question gives them ("20 June 2024"; "March 2025" for a month read as
    #: the offence date), "" when none; and how the dates were read where the text did not make it plain
    #: (:func:`choose_dates`), for the answer's notices
    offence_words: str = ""
    proceeding_words: str = ""
    date_notes: tuple[str, ...] = ()

    #: derived in :meth:`__post_init__` (so a copy with other ``refs`` stays consistent): the sections to fetch by
    #: metadata (:meth:`lookup_refs`), the sections written with a keyword or an Act, and a note per section named
    #: that its Act does not have
    lookups: tuple[StatuteRef, ...] = field(init=False, repr=False, compare=False)
    named: tuple[StatuteRef, ...] = field(init=False, repr=False, compare=False)
    invalid_notes: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """``lookups``: corrected premises first, then each ref with, for an idiom, the code of its era first (era
        "new": BNSS 482 before CrPC 438); named refs keep the order written (their official successors are added by
        :func:`legal_rag.retrieve.with_successors`). ``named``: each reference of ``found`` whose Act is named gives
        that Act, one with a section keyword and no Act ("s. 498-A") every Act that has the section; no bare number,
        idiom, section of another Act, Article or section the Act lacks (``analyse("punishment under IPC
        420").named == (IPC 420,)``). ``invalid_notes``: ``"BNS has no section 999 (its last section is 358)"`` (the
        last sections are those of :data:`legal_rag.law.refs.LAST_SECTION`). Each in order, without duplicates."""
        lookups: list[StatuteRef] = []
        for r in sorted(self.refs, key=lambda r: r.how != "premise"):
            group = [r.ref]
            if r.how == "idiom":
                group = [*r.successors, r.ref] if self.era == "new" else [r.ref, *r.successors]
            lookups += [g for g in group if g not in lookups]
        named: list[StatuteRef] = []
        for f in self.found:
            cands = [f.ref] if f.status == "ok" and f.ref is not None else \
                list(f.readings) if f.status == "ambiguous" else []
            named += [c for c in cands if c not in named]
        object.__setattr__(self, "lookups", tuple(lookups))
        object.__setattr__(self, "named", tuple(named))
        object.__setattr__(self, "invalid_notes",
                           tuple(dict.fromkeys(f.note for f in self.found if f.status == "invalid")))

    def lookup_refs(self) -> tuple[StatuteRef, ...]:
        """Sections to fetch by metadata, in order (``lookups``, :meth:`__post_init__`)."""
        return self.lookups

    def flag_refs(self) -> tuple[FoundRef, ...]:
        """The raw references to flag for supersession (``flag_superseded(a.flag_refs(), "query", ...)``)."""
        return self.found


def find_dates(text: str) -> tuple[QuestionDate, ...]:
    """The dates of ``text`` (days and months, :func:`legal_rag.law.dates.read_dates`) in order, each with its role
    by the nearest cue word of :data:`DATE_ROLE_CUES` inside its own clause (:func:`clause_of`; a cue after the date
    counts at twice its distance), ``unknown`` when the clause has none. Impossible dates (31.02.2024) are skipped.

    ``find_dates("cheated on 20 Jun 2024, FIR on 5 July 2024")`` -> 2024-06-20 offence, 2024-07-05 proceeding;
    ``find_dates("cash entrusted to him on 12.05.2024. The FIR is lodged now.")`` -> 2024-05-12 offence ("entrusted";
    the FIR is in another sentence).
    """
    return _with_roles(text, read_dates(text))


def clause_of(text: str, start: int, end: int) -> tuple[int, int]:
    """The ``[lo, hi)`` of the clause of ``text`` that holds ``text[start:end]``: from the last
    :data:`CLAUSE_BREAKS` before it to the first after it (a break inside the span, such as the dots of
    "12.05.2024", does not count)."""
    lo, hi = 0, len(text)
    for m in CLAUSE_BREAKS.finditer(text):
        if m.end() <= start:
            lo = m.end()
        elif m.start() >= end:
            hi = m.start()
            break
    return lo, hi


def _cue(text: str, lo: int, hi: int, start: int, end: int) -> tuple[DateRole, str] | None:
    """The role and cue word of the nearest cue of :data:`DATE_ROLE_CUES` in ``text[lo:hi]`` to the date at
    ``[start, end)`` (a cue after the date at twice its distance), or None."""
    best: tuple[int, DateRole, str] | None = None
    for role, rx in DATE_ROLE_CUES:
        for m in rx.finditer(text, lo, start):
            if best is None or start - m.end() < best[0]:
                best = (start - m.end(), role, m.group(0))
        for m in rx.finditer(text, end, hi):
            if best is None or 2 * (m.start() - end) + 1 < best[0]:
                best = (2 * (m.start() - end) + 1, role, m.group(0))
    return (best[1], best[2]) if best else None


def _with_roles(text: str, spans: list[DateSpan]) -> tuple[QuestionDate, ...]:
    """The dates at ``spans`` (:func:`legal_rag.law.dates.read_dates` of ``text``), each with its role
    (:func:`find_dates`); a clause is also cut at the dates beside it, so one date's cue is never another's."""
    out = []
    for i, d in enumerate(spans):
        lo, hi = clause_of(text, d.start, d.end)
        lo = max(lo, spans[i - 1].end if i else 0)
        hi = min(hi, spans[i + 1].start if i + 1 < len(spans) else len(text))
        found = _cue(text, lo, hi, d.start, d.end)
        if found is None and out and out[-1].role != "unknown" and ELLIPSIS.fullmatch(text, lo, d.start) \
                and ELLIPSIS.fullmatch(text, d.end, hi):
            found = (out[-1].role, out[-1].cue)  # "cheated on 3 April and again on 9 Sept": the same verb
        role, cue = found if found else ("unknown", "")
        out.append(QuestionDate(d.first, text[d.start:d.end], (d.start, d.end), role, cue,
                                d.last if d.last != d.first else None, d.precision))
    return tuple(out)


@dataclass(frozen=True)
class DateChoice:
    """The dates an answer applies (:func:`choose_dates`): ``offence`` and ``proceeding`` (None: none known), as
    written in words (``offence_words``, ``proceeding_words``: "20 June 2024", "March 2025"), and ``notes``: each
    reading that was not plain in the text, in words."""

    offence: date | None = None
    proceeding: date | None = None
    offence_words: str = ""
    proceeding_words: str = ""
    notes: tuple[str, ...] = ()


def _code(role: DateRole, era: Era) -> str:
    """The code a date of ``role`` in ``era`` makes govern, with its source."""
    if role == "offence":
        return "the IPC governs the offence (BNS s.358)" if era == "old" else "the BNS governs the offence"
    return ("the CrPC governs the procedure (BNSS s.531(2))" if era == "old"
            else "the BNSS governs the procedure")


def choose_dates(dates: tuple[QuestionDate, ...], kind: QuestionKind, states_facts: bool,
                 offence_arg: date | None = None, proceeding_arg: date | None = None) -> DateChoice:
    """The offence and proceeding dates of a question whose text has ``dates`` (:func:`find_dates`), read as the
    module docstring says: an argument first (the same date written in the text gives the same choice); else the
    earliest date of that role whose days are all on one side of 1 July 2024 (BNS s.358; BNSS s.531(2): a
    matter pending on 1 July 2024 stays under the CrPC); else an unclear date by :data:`UNCLEAR_READINGS` (kind,
    and whether the question ``states_facts``). ``notes`` say each reading taken that the text did not make plain."""
    notes: list[str] = []
    chosen: dict[str, tuple[date, str] | None] = {"offence": None, "proceeding": None}
    args = {"offence": offence_arg, "proceeding": proceeding_arg}
    for role, arg in args.items():
        if arg is not None:
            chosen[role] = (arg, f"{arg.day} {arg:%B} {arg.year}")
            written = [d for d in dates if d.role == role and not d.value <= arg <= d.until]
            if written:
                notes.append(f"The {role} date given ({arg.isoformat()}) is applied, not the date in the question "
                             f'("{written[0].text}").')
    usable = [d for d in dates if d.era() is not None]
    for d in dates:
        if d.era() is None:
            notes.append(f'"{d.text}" spans 1 July 2024 and cannot decide between the old and the new codes; it '
                         "was not applied.")
    for role in ("offence", "proceeding"):
        mine = sorted((d for d in usable if d.role == role), key=lambda d: d.value)
        if chosen[role] is None and mine:
            chosen[role] = (mine[0].value, mine[0].words())
        if role == "offence" and len({d.era() for d in mine}) > 1:
            notes.append("The acts are dated on both sides of 1 July 2024 (" + ", ".join(
                f'"{d.text}"' for d in mine) + "): acts before it fall under the IPC, acts from it under the BNS "
                f"(BNS s.358); the answer is dated by the first, {mine[0].words()}.")
    for d in usable:
        if d.role != "unknown" or any(a is not None and d.value <= a <= d.until for a in args.values()):
            continue  # a date the caller gave as an argument too is read as the argument says
        for r in UNCLEAR_READINGS:
            if chosen[r.role] is None and r.applies(kind, states_facts):
                chosen[r.role] = (d.value, d.words())
                other = "proceeding" if r.role == "offence" else "offence"
                notes.append(f'Nothing beside "{d.text}" says whether it is the date of the act or of a proceeding: '
                             f"read as the {r.role} date ({r.why}), so {_code(r.role, d.era())}. If it is the "
                             f"{other} date, {_code(other, d.era())}.")
                break
        else:
            notes.append(f'Nothing beside "{d.text}" says what it dates; it was not applied (the dates applied: '
                         + "; ".join(f"{role} {c[1]}" for role, c in chosen.items() if c) + ").")
    for d in usable:
        if d.precision == "month" and any(c is not None and c[0] == d.value and c[1] == d.words()
                                          for c in chosen.values()):
            notes.append(f'Read "{d.text}" as a month ({d.value.day}-{d.until.day} {d.words()}): all its days are '
                         + ("before" if d.era() == "old" else "on or after") + " 1 July 2024.")
    off, proc = chosen["offence"], chosen["proceeding"]
    return DateChoice(off[0] if off else None, proc[0] if proc else None, off[1] if off else "",
                      proc[1] if proc else "", tuple(notes))


_W = re.compile
#: the kind rules, in order; the first that matches decides (see :func:`question_kind`)
_LOOKUP = _W(r"\b(?:equivalent|counterpart|correspond\w*|replac\w*|successor|predecessor|new section|old section|"
             r"now under|renumber\w*|mapped|maps? to)\b", re.I)
_BAIL = _W(r"\b(?:bail\w*|anticipatory|surety|sureties|pre-arrest)\b", re.I)
_PROCEDURE_STRONG = _W(r"\b(?:procedures?|procedural|how (?:do|can|to) (?:i |we |one )?(?:file|lodge|register|get|"
                       r"apply)|steps? (?:to|for))\b", re.I)
_OFFENCE_WORDS = _W(r"\b(?:false evidence|fabricat\w*|disappearance of evidence|destroy\w* evidence|offen[cs]es?|"
                    r"offender|punish\w*|guilty|crime|criminal (?:breach|force|intimidation|trespass|conspiracy))\b",
                    re.I)
_EVIDENCE = _W(r"\b(?:evidence|evidentiary|admissib\w*|inadmissib\w*|burden of proof|onus|presum\w*|"
               r"dying declaration|witness\w*|expert opinion|electronic evidence|certificate|confession to (?:a )?"
               r"police|proof|prove[ds]?)\b", re.I)
#: the question asks which provisions apply ("which sections apply", "what offence", "sections attracted")
ASKS_FOR_SECTIONS = _W(r"\b(?:which|what) (?:sections?|offen[cs]es?|charges?|provisions?)\b|\bsections? (?:appl|attract)",
                       re.I)
_OFFENCE_STRONG = _W(ASKS_FOR_SECTIONS.pattern + r"|\b(?:charged|booked|liable)\b|\bmy client\b|\baccused of\b", re.I)
_PUNISHMENT = _W(r"\b(?:punish\w*|sentenc\w*|penalt\w*|imprison\w*|jail|how many years|maximum|minimum|fine of)\b",
                 re.I)
_PROCEDURE_WEAK = _W(r"\b(?:f\.?i\.?r\.?|first information report|complaint|arrest\w*|investigat\w*|charge[- ]?sheet"
                     r"\w*|summons?|warrants?|cognizance|cognizable|remand|trial|appeal\w*|revision|quash\w*|"
                     r"magistrate|custody|record(?:ing)? (?:of )?(?:a |the )?(?:statement|confession)|confession|"
                     r"maintenance|search and seizure|seizure|inquest|police report|limitation)\b", re.I)
#: offences named by their common nouns ("a complaint of cheating"): weighed against the weak procedure cues
_CRIME = _W(r"\b(?:cheat\w*|fraud\w*|theft|stole\w*|steal\w*|murder\w*|homicide|rape|robbery|dacoity|extortion|"
            r"kidnap\w*|abduct\w*|assault\w*|hurt|defamation|forg\w*|dowry|cruelty|trespass\w*|stalk\w*|"
            r"voyeurism|intimidation|breach of trust|misappropriat\w*|bribe\w*|snatch\w*|riot\w*|abetment|"
            r"conspiracy|harass\w*|molest\w*)\b", re.I)
_DEFINITION = _W(r"\b(?:defin\w*|meaning|what is meant|what constitutes|what does .{1,40} mean)\b", re.I)
_ACT_KIND = {"IPC": "offence", "BNS": "offence", "CrPC": "procedure", "BNSS": "procedure", "IEA": "evidence",
             "BSA": "evidence"}


def question_kind(text: str, refs: tuple[QuestionRef, ...] = (), cases: tuple[str, ...] = (),
                  citations: tuple[str, ...] = ()) -> QuestionKind:
    """The kind of question, by the first rule that matches (cue words are matched case-insensitively):

    1. ``lookup``: an equivalence word ("equivalent", "replaced", "corresponding") with a section named, or nothing
       but section references (a short text whose words are all the references and stop words).
    2. ``precedent``: a case title or citation, or an ask for judgments
       (:func:`legal_rag.law.judgment_questions.asks_for_judgments`: "which judgment held ...", "landmark rulings
       on ..."); a story's "held his arms" or "the High Court dismissed the appeal" is none.
    3. ``bail``: "bail", "anticipatory", "surety"; or an idiom/premise ref to CrPC 438 or its successor.
    4. ``procedure``: the word "procedure" or "how to file / lodge".
    5. ``offence`` / ``punishment`` over ``evidence``: an offence word ("false evidence", "offence", "punish...").
    6. ``evidence``: "evidence", "admissible", "burden of proof", "presumption", "witness", "dying declaration".
    7. ``offence``: "which sections apply", "what offence", "charged", "my client" (a fact statement).
    8. ``punishment``: "punishment", "sentence", "imprisonment", "maximum".
    9. ``procedure``: more procedure cues (FIR, arrest, investigation, charge-sheet, summons, trial, appeal,
       quashing, confession, maintenance) than offence nouns (cheating, theft, murder, dowry, ...), or an idiom;
       ``offence`` when there are procedure cues but no more than offence nouns ("a complaint of cheating").
    10. ``definition``: "define", "definition", "meaning", "what constitutes".
    11. the Act of the first section named (IPC/BNS offence, CrPC/BNSS procedure, IEA/BSA evidence); else
        ``offence``.
    """
    ours = [r for r in refs if r.how in ("named", "bare")]
    if refs and _LOOKUP.search(text):
        return "lookup"
    rest = text
    for r in sorted(refs, key=lambda r: -r.span[0]):
        rest = rest[:r.span[0]] + " " + rest[r.span[1]:]
    rest = re.sub(r"\b(?:ipc|crpc|cr\.?p\.?c\.?|iea|bns|bnss|bsa|sections?|sec|s|u/s|of|the|under|what|is|and|or|"
                  r"in|act|code)\b|[^\w]", " ", rest, flags=re.I)
    if ours and not rest.strip():
        return "lookup"
    if cases or citations or asks_for_judgments(text):
        return "precedent"
    if _BAIL.search(text) or any(r.how in ("idiom", "premise") and (r.ref == StatuteRef("CrPC", "438") or
                                                                    StatuteRef("CrPC", "438") in r.predecessors)
                                 for r in refs):
        return "bail"
    if _PROCEDURE_STRONG.search(text):
        return "procedure"
    if _OFFENCE_WORDS.search(text):
        return "punishment" if _PUNISHMENT.search(text) else "offence"
    if _EVIDENCE.search(text):
        return "evidence"
    if _OFFENCE_STRONG.search(text):
        return "offence"
    if _PUNISHMENT.search(text):
        return "punishment"
    procedural = len(_PROCEDURE_WEAK.findall(text))
    if any(r.how == "idiom" for r in refs) or procedural > len(_CRIME.findall(text)):
        return "procedure"
    if procedural:
        return "offence"
    if _DEFINITION.search(text):
        return "definition"
    if refs:
        return _ACT_KIND.get(refs[0].ref.act, "offence")  # type: ignore[return-value]
    return "offence"


def _era(when: date | None) -> Era:
    return "old" if when is not None and when < CUTOFF else "new"


def acts_for(kind: QuestionKind, substantive_era: Era, procedural_era: Era,
             refs: tuple[QuestionRef, ...] = ()) -> tuple[str, ...]:
    """The Acts to search first: offence, punishment, definition -> BNS, IPC (IPC first in the old era); procedure
    and bail -> BNSS, CrPC; evidence -> BSA, IEA (old first when the proceeding predates 1 July 2024); lookup -> the
    Acts of the sections named, each with its counterpart; precedent -> () (judgments: no statute routing)."""
    pair = {"offence": "BNS", "punishment": "BNS", "definition": "BNS", "procedure": "BNSS", "bail": "BNSS",
            "evidence": "BSA"}
    if kind in pair:
        new = pair[kind]
        era = substantive_era if new == "BNS" else procedural_era
        return (new, PREDECESSOR_ACT[new]) if era == "new" else (PREDECESSOR_ACT[new], new)
    if kind == "lookup":
        out: list[str] = []
        for r in refs:
            other = SUCCESSOR_ACT.get(r.ref.act) or PREDECESSOR_ACT.get(r.ref.act)
            out += [a for a in (r.ref.act, other) if a and a not in out]
        return tuple(out)
    return ()


def _subject_hit(text: str, words: tuple[str, ...]) -> bool:
    return any(re.search(rf"\b{re.escape(w)}", text, re.I) for w in words)


def _corr(conc: Concordance, ref: StatuteRef) -> tuple[tuple[StatuteRef, ...], tuple[StatuteRef, ...]]:
    """(successors, predecessors) by the official table (:meth:`Concordance.counterparts`); () for another Act, a
    section the Act lacks or a silent table."""
    if ref.act in OLD_ACTS:
        return conc.counterparts(ref), ()
    if ref.act in NEW_ACTS:
        return (), conc.counterparts(ref)
    return (), ()


def _read_refs(text: str, found: tuple[FoundRef, ...], conc: Concordance
               ) -> tuple[list[QuestionRef], list[FoundRef], list[str]]:
    sets = conc.sections
    refs: list[QuestionRef] = []
    other: list[FoundRef] = []
    premises: list[str] = []
    taken = [f.run_span if f.run_span != (0, 0) else f.span for f in found]

    def add(qr: QuestionRef) -> None:
        if all(r.ref != qr.ref for r in refs):
            refs.append(qr)

    def idiom_for(number: str, sub: tuple[str, ...], need_subject: bool) -> tuple[StatuteRef, str] | None:
        for old, label, words in IDIOMS:
            if old.section == number and (not sub or not old.sub or sub[:len(old.sub)] == old.sub) \
                    and (not need_subject or _subject_hit(text, words)):
                return old, label
        return None

    def add_idiom(old: StatuteRef, raw: str, span: tuple[int, int]) -> None:
        succ, _ = _corr(conc, old)
        add(QuestionRef(old, raw, span, "idiom", successors=succ))

    for f in found:
        if f.status == "other_act":
            other.append(f)
        elif f.status == "ok" and f.ref is not None:
            succ, pred = _corr(conc, f.ref)
            hit = idiom_for(f.ref.section, f.ref.sub, True) if f.ref.act in NEW_ACTS else None
            if hit is not None:
                old, label = hit
                meant, _ = _corr(conc, old)
                if meant and f.ref.base not in {m.base for m in meant}:
                    preds = ", ".join(map(str, pred)) or "no CrPC section named in the table"
                    note = (f"{f.ref} is not the provision for {label}: by the official table {f.ref} corresponds "
                            f"to {preds}; {label} is {', '.join(map(str, meant))} (formerly {old}).")
                    premises.append(note)
                    add(QuestionRef(f.ref, f.text, f.span, "named", succ, pred, premise=note))
                    for m in meant:
                        add(QuestionRef(m, f.text, f.span, "premise", predecessors=(old,), premise=note))
                    continue
            add(QuestionRef(f.ref, f.text, f.span, "named", succ, pred))
        elif f.status == "ambiguous":
            hit = idiom_for(f.section, f.sub, True)
            if hit is not None:
                add_idiom(hit[0], f.text, f.span)
            else:
                for r in f.readings:
                    succ, pred = _corr(conc, r)
                    add(QuestionRef(r, f.text, f.span, "bare", succ, pred))
    for m in _IDIOM_RE.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        pr = parse_ref(m.group("n") + m.group("subs"), sections=sets)
        hit = idiom_for(pr.section, pr.sub, False)
        if hit is not None:
            add_idiom(hit[0], m.group(0), (m.start(), m.end()))
            taken.append((m.start(), m.end()))
    for m in _BARE_RE.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        try:
            pr = parse_ref(m.group("tok"), sections=sets)
        except Exception:  # noqa: BLE001 - not a section token
            continue
        if pr.status == "ambiguous" and pr.readings:
            span = (m.start(), m.end())
            hit = idiom_for(pr.section, pr.sub, True)
            if hit is not None:
                add_idiom(hit[0], m.group(0), span)
                continue
            for r in pr.readings:
                succ, pred = _corr(conc, r)
                add(QuestionRef(r, m.group(0), span, "bare", succ, pred))
    refs.sort(key=lambda r: r.span[0])
    return refs, other, premises


def analyse(question: str, offence_date: date | str | None = None, proceeding_date: date | str | None = None, *,
            concordance: Concordance | None = None,
            citation_finder: Callable[[str], tuple[str, ...]] | None = None) -> QuestionAnalysis:
    """Read ``question`` once (see the module docstring). ``offence_date`` / ``proceeding_date``: ISO strings or
    dates that win over dates in the text. ``concordance`` defaults to :func:`load_concordance`;
    ``citation_finder`` (text -> canonical citations) defaults to none. Raises ``ValueError`` for a date argument
    that is not ISO ``YYYY-MM-DD``."""
    conc = concordance or load_concordance()
    off_arg = date.fromisoformat(offence_date) if isinstance(offence_date, str) and offence_date else offence_date
    proc_arg = (date.fromisoformat(proceeding_date) if isinstance(proceeding_date, str) and proceeding_date
                else proceeding_date)
    # the text is read by each grammar once, one after the other; what follows works on what they found
    found = find_refs(question, sections=conc.sections)
    found_titles = find_case_titles(question)
    case_refs = case_references(question, found_titles)
    cites = tuple(citation_finder(question)) if citation_finder else ()
    spans = read_dates(question)
    refs, other, premises = _read_refs(question, found, conc)
    titles = tuple(t.title for t in found_titles)
    dates = _with_roles(question, spans)
    kind = question_kind(question, tuple(refs), titles, cites)
    states_facts = bool(OFFENCE_CUES.search(question) or _CRIME.search(question))
    when = choose_dates(dates, kind, states_facts, off_arg, proc_arg)
    off, proc = when.offence, when.proceeding
    s_era, p_era = _era(off), _era(proc)
    era = p_era if kind in ("procedure", "bail", "evidence") else s_era
    return QuestionAnalysis(question, tuple(refs), tuple(other), found, titles, cites, case_refs, dates, kind, off,
                            proc, s_era, p_era, era, acts_for(kind, s_era, p_era, tuple(refs)), tuple(premises),
                            bool(ASKS_FOR_SECTIONS.search(question)),
                            tuple(dict.fromkeys(m.group(1).upper() for m in _NUMBER_RE.finditer(question))),
                            when.offence_words, when.proceeding_words, when.notes)


__all__ = ["ASKS_FOR_SECTIONS", "CLAUSE_BREAKS", "DATE_ROLE_CUES", "IDIOMS", "OFFENCE_CUES", "PROCEEDING_CUES",
           "SUBSTANTIVE_KINDS", "UNCLEAR_READINGS", "DateChoice", "Era", "QuestionAnalysis", "QuestionDate",
           "QuestionRef", "Reading", "acts_for", "analyse", "choose_dates", "clause_of", "find_dates",
           "question_kind"]
