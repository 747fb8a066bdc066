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
* ``dates``: calendar dates in the text, each classed ``offence`` / ``proceeding`` / ``unknown`` by the nearest
  cue word (:data:`PROCEEDING_CUES`, :data:`OFFENCE_CUES`); numeric dates are day first (Indian usage).
* ``kind``: :data:`legal_rag.types.QuestionKind`, by the ordered rules of :func:`question_kind`.
* ``era`` and ``acts_first``: which code leads and which Acts to search first (:func:`acts_for`).
* ``numbers``: every number that may name a section, with or without an Act ("section 318" -> "318").

Era rules (sources): the BNS, BNSS and BSA are in force from 1 July 2024 (:data:`legal_rag.law.supersede.CUTOFF`).
With no date the law in force today leads. The substantive code follows the **offence date** (BNS s.358 savings;
Constitution Art. 20(1)); procedure and evidence follow the **proceeding date** (BNSS s.531(2), BSA s.170(2)).
An explicit ``offence_date`` / ``proceeding_date`` argument wins over a date read from the text. A date in the text
with no cue word counts as the offence date in a substantive question (offence, punishment, definition) and as the
proceeding date in a procedural one (procedure, bail, evidence).

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
from .dates import date_spans
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

#: cue words that make a nearby date a proceeding date (the FIR, charge-sheet, trial or filing)
PROCEEDING_CUES = re.compile(
    r"\b(?:f\.?\s?i\.?\s?r\.?|first information report|charge[- ]?sheet\w*|challan|trial|filed|fil(?:e|ing)|"
    r"registered|lodged|pending|instituted|proceedings?|summon\w*|cognizance|arrested|arrest|hearing|complaint|"
    r"petition|application|case was|order dated|judgment dated)\b", re.I)
#: cue words that make a nearby date an offence date (when the act was done)
OFFENCE_CUES = re.compile(
    r"\b(?:committed|occurr\w*|happened|took place|incident|offence|crime|on the night of|night of|cheat\w*|"
    r"defraud\w*|stole|stolen|theft|robbed|assault\w*|attack\w*|beat(?:en)?|kill\w*|murder\w*|stabb\w*|hurt|"
    r"injur\w*|threat\w*|insult\w*|trespass\w*|harass\w*|kidnap\w*|abduct\w*|rap(?:e|ed)|molest\w*|forg\w*|"
    r"extort\w*|snatch\w*|embezzl\w*|misappropriat\w*|died|death)\b", re.I)


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
    """A date read from the question: ``value`` the calendar date, ``role`` by the nearest cue word."""

    value: date
    text: str
    span: tuple[int, int]
    role: DateRole


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
    """Calendar dates in ``text`` in order, each with its role by the nearest cue word within 60 characters before or
    30 after it (a cue after the date counts at twice its distance: "insult on 1 Jul 2024, registered under ..." is the
    insult's date). Impossible dates (31.02.2024) are skipped.

    ``find_dates("cheated on 20 Jun 2024, FIR on 5 July 2024")`` -> 2024-06-20 offence, 2024-07-05 proceeding.
    """
    return _with_roles(text, date_spans(text))


def _with_roles(text: str, spans: list[tuple[int, int, date]]) -> tuple[QuestionDate, ...]:
    """The dates at ``spans`` (:func:`legal_rag.law.dates.date_spans` of ``text``), each with its role
    (:func:`find_dates`)."""
    out = []
    for i, (s, e, d) in enumerate(spans):
        lo = max(0, s - 60, spans[i - 1][1] if i else 0)
        hi = min(len(text), e + 30, spans[i + 1][0] if i + 1 < len(spans) else len(text))
        best: tuple[int, DateRole] | None = None
        for rx, role in ((PROCEEDING_CUES, "proceeding"), (OFFENCE_CUES, "offence")):
            for m in rx.finditer(text, lo, s):
                dist = s - m.end()
                if best is None or dist < best[0]:
                    best = (dist, role)
            for m in rx.finditer(text, e, hi):
                dist = 2 * (m.start() - e) + 1  # a cue after the date counts double its distance
                if best is None or dist < best[0]:
                    best = (dist, role)
        out.append(QuestionDate(d, text[s:e], (s, e), best[1] if best else "unknown"))
    return tuple(out)


_W = re.compile
#: the kind rules, in order; the first that matches decides (see :func:`question_kind`)
_LOOKUP = _W(r"\b(?:equivalent|counterpart|correspond\w*|replac\w*|successor|predecessor|new section|old section|"
             r"now under|renumber\w*|mapped|maps? to)\b", re.I)
_PRECEDENT = _W(r"\b(?:judgments?|precedents?|case ?law|ratio|held|holding|landmark|ruling|ruled|decided|"
                r"supreme court|high court|overrul\w*)\b", re.I)
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
    2. ``precedent``: a case title or citation, or a precedent word ("judgment", "held", "ratio").
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
    if cases or citations or _PRECEDENT.search(text):
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
    spans = date_spans(question)
    refs, other, premises = _read_refs(question, found, conc)
    titles = tuple(t.title for t in found_titles)
    dates = _with_roles(question, spans)
    kind = question_kind(question, tuple(refs), titles, cites)
    substantive = kind in ("offence", "punishment", "definition", "lookup", "precedent")
    first = {role: next((d.value for d in dates if d.role == role), None) for role in ("offence", "proceeding",
                                                                                       "unknown")}
    off = off_arg or first["offence"] or (first["unknown"] if substantive else None)
    proc = proc_arg or first["proceeding"] or (first["unknown"] if not substantive else None)
    s_era, p_era = _era(off), _era(proc)
    era = p_era if kind in ("procedure", "bail", "evidence") else s_era
    return QuestionAnalysis(question, tuple(refs), tuple(other), found, titles, cites, case_refs, dates, kind, off,
                            proc, s_era, p_era, era, acts_for(kind, s_era, p_era, tuple(refs)), tuple(premises),
                            bool(ASKS_FOR_SECTIONS.search(question)),
                            tuple(dict.fromkeys(m.group(1).upper() for m in _NUMBER_RE.finditer(question))))


__all__ = ["ASKS_FOR_SECTIONS", "IDIOMS", "Era", "QuestionAnalysis", "QuestionDate", "QuestionRef", "acts_for",
           "analyse", "find_dates", "question_kind"]
