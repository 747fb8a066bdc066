"""Section suggestions for a fact-pattern question, as passages the answer can quote.

A question that states facts and names no section ("my client was cheated of Rs 5 lakh by someone who promised a
government job -- which sections apply?") is the one where retrieval over statute text alone fails: the facts
share few words with the abstract text of the right section. For such a question :func:`suggest` runs
:func:`legal_rag.retrieve.sectionfind.find_sections` (evidence from the most similar judgments of the case base,
fused with direct retrieval) in the era the offence date decides (BNS s.358, Art. 20(1): no date -> the law in
force today), and :func:`suggestion_hits` turns the best suggestions into chunks of those sections, at the
sub-section the precedents point to.

Sub-section: the case base counts citations at section level in the old code (IPC 420); a new-code suggestion
(BNS 318) takes the sub-section of the official successor of the old section its supporting judgments cite most
(IPC 420 -> BNS 318(4) by the BPR&D table row), so the chunk that prints (4) is the one quoted.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from ..config import Settings
from ..types import Hit, SectionSuggestion, StatuteRef
from .filters import Filters

if TYPE_CHECKING:
    from ..law import QuestionAnalysis

#: question kinds for which precedents are asked which sections apply (a fact statement about an offence)
FACT_KINDS = frozenset({"offence", "punishment"})
#: the codes that define offences and punishments; suggestions for a fact pattern come from these only
SUBSTANTIVE = ("BNS", "IPC")
#: How many suggestions lead the passages (:func:`lead_for`): two ahead for a statement of more than LONG_WORDS
#: words; one ahead for a question of at least SHORT_WORDS words when precedents and text agree on it (cited by at
#: least MIN_CASES of the similar judgments and ranked in the first MAX_DIRECT_RANK sections by its own text); none
#: otherwise. Chosen among 21 rules (bench/suggest_lead_eval.py, RULES) by section-level MRR on the tuning split
#: bench/leadtune.jsonl only (62 questions from sources no dev set, test or AILA test query uses; built by
#: bench/build_factset.py --leadtune). Leading with precedents helps long statements and hurts short questions that
#: name an offence in words, which the statute text finds better. The 45-question dev set and the 63-question fact
#: set are held out; rules and figures: bench/results_factset.md, "Section suggestions ahead".
LEAD = 2
LONG_WORDS: int | None = 25
SHORT_WORDS: int | None = 15
MIN_CASES = 3
MAX_DIRECT_RANK: int | None = 5


def lead_for(suggestions: Sequence[SectionSuggestion], question: str) -> int:
    """How many of ``suggestions`` lead the passages for ``question`` (``len(question.split())`` words): none
    without suggestions; :data:`LEAD` for a statement of more than :data:`LONG_WORDS` words (None: never); one
    for a question of at least :data:`SHORT_WORDS` words (None: never) whose top suggestion precedents and text
    agree on (cited by at least :data:`MIN_CASES` of the similar judgments and, unless :data:`MAX_DIRECT_RANK` is
    None, ranked within the first ``MAX_DIRECT_RANK`` sections by its own text); none otherwise. The constants are
    read at call time."""
    if not suggestions:
        return 0
    words = len(question.split())
    if LONG_WORDS is not None and words > LONG_WORDS:
        return LEAD
    if SHORT_WORDS is None or words < SHORT_WORDS:
        return 0
    top = suggestions[0]
    agree = top.n_cases >= MIN_CASES and (MAX_DIRECT_RANK is None or (
        top.direct_rank is not None and top.direct_rank <= MAX_DIRECT_RANK))
    return 1 if agree else 0


def is_fact_pattern(analysis: "QuestionAnalysis | None") -> bool:
    """True for an offence or punishment question that names no section, case or citation of its own: the
    section must be found from the facts. A question that names a section is a look-up (its section is fetched by
    metadata), never a guess."""
    return (analysis is not None and analysis.kind in FACT_KINDS and not analysis.refs and not analysis.cases
            and not analysis.citations and not analysis.other_refs)


def suggest(question: str, analysis: "QuestionAnalysis | None", index, casebase, settings: Settings, *,
            concordance, filters: Filters | None = None, limit: int = 10) -> tuple[SectionSuggestion, ...]:
    """Suggested sections for ``question`` (``()`` unless :func:`is_fact_pattern`), best first, in the era of
    ``analysis.substantive_era`` (the offence date) and of the substantive codes only (:data:`SUBSTANTIVE`: BNS
    for the era in force, IPC for an offence before 1 July 2024). ``filters`` that name Acts or a code narrow the
    result; a filter that keeps judgments only (``kind="judgment"``, court, year) gives no suggestion."""
    if not is_fact_pattern(analysis):
        return ()
    f = filters or Filters()
    if f.kind == "judgment" or f.court or f.year_from or f.year_to:
        return ()
    from .sectionfind import find_sections

    # an offence question is answered from the substantive code (BNS, or the IPC for an earlier offence): a
    # procedural section its precedents also cite (BNSS 395, compensation) is never "the offence"
    acts = tuple(a for a in SUBSTANTIVE if (not f.act or a in f.act))
    if not acts:
        return ()
    sf = Filters(act=acts, code=f.code)
    found = find_sections(question, index, casebase, settings, era=analysis.substantive_era, filters=sf,
                          concordance=concordance, limit=limit, analysis=analysis)
    return tuple(replace(s, cited_as=sub_section(s, casebase, concordance), titles=_titles(s.cases, casebase))
                 for s in found)


def _titles(cases: Sequence[str], casebase) -> tuple[str, ...]:
    out = []
    for c in cases:
        try:
            out.append(casebase.judgment(c).title or c)
        except (KeyError, AttributeError):
            out.append(c)
    return tuple(out)


def statutes_first(hits: Sequence[Hit], analysis: "QuestionAnalysis | None") -> list[Hit]:
    """For a fact pattern that asks which provisions apply (``analysis.asks_sections``: "which section applies?"),
    the statute hits ahead of the judgment hits, each group in its own order: the question asks for the law, and a
    judgment that shares its words ("the FIR was filed") is not the answer to it (field case BL-31 A). Any other
    question keeps ``hits`` as they are."""
    if not (is_fact_pattern(analysis) and analysis.asks_sections):
        return list(hits)
    return [h for h in hits if h.chunk.kind == "statute"] + [h for h in hits if h.chunk.kind != "statute"]


def _order(ref: StatuteRef) -> tuple:
    """A ref's place in its Act: the section's number, then its letters ("376" < "376A" < "377")."""
    m = re.match(r"(\d+)(.*)", ref.section)
    return (ref.act, int(m.group(1)) if m else 0, m.group(2) if m else ref.section, ref.sub)


def sub_section(s: SectionSuggestion, casebase, concordance) -> StatuteRef:
    """``s.ref`` narrowed to the sub-section its precedents point to, else ``s.ref`` itself. For a new-code
    section: the old sections its supporting judgments cite, counted, each mapped by the official table; the most
    cited one whose successor is ``s.ref`` with a sub-section gives it (IPC 420 -> BNS 318(4))."""
    if casebase is None or not s.cases or concordance is None or s.ref.sub:
        return s.ref
    counts: Counter = Counter()
    for case in s.cases:
        try:
            cites = casebase.case_cites(case)
        except KeyError:
            continue
        for ref, n in cites.items():
            if ref.base in s.counterparts:
                counts[ref.base] += n
    # most cited first; a tie goes to the first in the Act's order (never to the order a set was read in)
    for old, _ in sorted(counts.items(), key=lambda kv: (-kv[1], _order(kv[0]))):
        subs = [t for t in concordance.counterparts(old) if t.base == s.ref and t.sub]
        if len(subs) == 1:
            return subs[0]
    return s.ref


def suggestion_hits(suggestions: Sequence[SectionSuggestion], index, casebase, concordance,
                    filters: Filters | None = None, lead: int | None = None) -> list[Hit]:
    """The first chunk of each of the first ``lead`` suggested sections (the chunk that starts the sub-section the
    precedents point to, when there is one), as hits of stage ``evidence`` with the fused score (``lead`` None:
    :data:`LEAD`)."""
    from ..index import chunk_metadata

    out: list[Hit] = []
    for s in suggestions[:LEAD if lead is None else lead]:
        ref = s.cited_as or sub_section(s, casebase, concordance)
        chunks = index.by_ref(ref.act, ref.section)
        if filters is not None and not filters.is_empty():
            chunks = [c for c in chunks if filters.matches(chunk_metadata(c))]
        if not chunks:
            continue
        if ref.sub:
            chunks = sorted(chunks, key=lambda c: (ref.sub[0] not in dict(c.meta).get("subs", "").split(","), c.part))
        else:
            chunks = sorted(chunks, key=lambda c: c.part)
        out.append(Hit(chunks[0], s.score, "evidence", len(out) + 1))
    return out


__all__ = ["FACT_KINDS", "LEAD", "SUBSTANTIVE", "lead_for", "statutes_first", "is_fact_pattern", "suggest", "sub_section", "suggestion_hits"]
