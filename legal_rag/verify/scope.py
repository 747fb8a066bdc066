"""Check ``punishment part``: a punishment is printed for the part of the section the sentence describes.

The parts of a section (clause, sub-section, Explanation, Exception, proviso; :mod:`legal_rag.law.scope`) are read
from the whole section (``Evidence.sections``), since which part a sentence describes is a property of the section,
not of the chunk that happens to be cited (BNS 316's definition is in its first chunk, its punishments in the
sixth). The sentence is about the part whose words it shares most (:func:`legal_rag.law.scope.about`); a
sub-section it names, plus any other its words describe; every part that prints a punishment when its words describe
none. A lexical check against the whole passage would pass "kidnapping for ransom: life or ten years" (140(1)'s
term for 140(2)), "simple cheating: seven years" (318(4)'s) and a proviso spliced onto a punishment (BNS 78).

A term the part prints only behind a condition ("; and, if the robbery be committed on the highway between sunset
and sunrise, ... fourteen years", 309(4); "on a second or subsequent conviction", 77, 78(2), 303(2); "and if hurt is
caused ... imprisonment for life", 109(1)) counts only for a sentence that shares a word of that condition
(:func:`legal_rag.law.scope.printed_for`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..law import Part, about, parts, printed_for
from ..types import ACTS, Chunk, Hit, StatuteRef
from .claim import Claim, Equivalents, Evidence, Sections
from .result import Failure


def section_chunks(cited: Sequence[Hit], sections: Sections | None, claim: Claim | None = None) -> list[Chunk] | None:
    """The chunks of the one section the ``cited`` passages belong to (of passages of several sections, the one
    section ``claim`` names): the index's (``sections``), the cited ones among them when it has none, in chunk
    order; ``None`` when a cited passage is a judgment or no one section is left."""
    chunks = [h.chunk for h in cited]
    if not chunks or any(c.ref is None for c in chunks):
        return None
    if len({(c.ref.act, c.ref.section) for c in chunks}) > 1 and claim is not None and claim.text:
        # passages of several sections cited: the section the claim names is the one whose part it describes
        named = [st for st in claim.stated if st.kind == "section"]
        chunks = [c for c in chunks if any(st.section == c.ref.section and st.act in (None, c.ref.act) for st in named)]
    if not chunks or len({(c.ref.act, c.ref.section) for c in chunks}) != 1:
        return None
    ref = chunks[0].ref
    whole = list(sections(ref.act, ref.section)) if sections is not None else []
    if not {c.id for c in chunks} <= {c.id for c in whole}:
        whole = chunks  # an index that does not hold the passages cited (a test's inline text): read them alone
    return sorted(whole, key=lambda c: (c.part, c.id))


def claim_subs(claim: Claim, ref: StatuteRef, equivalents: Equivalents) -> set[str]:
    """The sub-sections of ``ref``'s section that ``claim`` names: "section 308(3)" of that Act or of none, or a
    section of another Act whose official successor/predecessor (BPR&D table) is a sub-section of it."""
    out = set()
    for st in claim.stated:
        if st.kind != "section" or not st.section:
            continue
        if st.section == ref.section and st.act in (None, ref.act):
            out |= {st.sub[0]} if st.sub else set()
        elif st.act in ACTS and st.act != ref.act:
            out |= {e.sub[0] for e in equivalents(StatuteRef(st.act, st.section, tuple(st.sub)))
                    if (e.act, e.section) == (ref.act, ref.section) and e.sub}
    return out


def scope(claim: Claim, evidence: Evidence) -> tuple[tuple[Part, ...], tuple[Part, ...], Chunk] | None:
    """``(parts of the cited section, the parts the claim is about, the section's first chunk)`` when every cited
    passage is a statute chunk of one section (or of the one the claim names); ``None`` otherwise. A sub-section the
    claim names (:func:`claim_subs`) narrows the candidates to its provision parts when the section prints any; the
    claim is then about them all when its words tell none apart, and also about another sub-section whose offence
    its words describe ("Under section 318(4), whoever cheats ...": simple cheating is 318(2))."""
    chunks = section_chunks(evidence.cited, evidence.sections, claim)
    if chunks is None:
        return None
    ps = parts(chunks)
    named = claim_subs(claim, chunks[0].ref, evidence.equivalents)
    narrowed = [p for p in ps if p.label and p.label[0] in named and p.kind == "provision"]
    if not narrowed:
        return ps, about(claim.text, ps), chunks[0]
    best = about(claim.text, narrowed) or tuple(narrowed)
    elsewhere = tuple(p for p in about(claim.text, ps) if p.kind == "provision" and p.sub not in named)
    return ps, best + elsewhere, chunks[0]


def punishment_part(claim: Claim, evidence: Evidence) -> tuple[Failure, ...]:
    """Every punishment term the sentence states outside its quotes and section references is printed for each
    part of the cited section it is about (:func:`scope`; module docstring), or, when its words describe no part,
    for every part that prints a punishment."""
    terms = claim.bare_terms
    found = scope(claim, evidence) if terms else None
    if found is None:
        return ()
    ps, best, first = found
    if not best:  # its words name no part: every part that prints a punishment must print what it states
        best = tuple(p for p in ps if p.kind == "provision" and p.terms)
    out = []
    for part in best:
        gap = sorted(terms - printed_for(part, ps, first.title, claim.text))
        if gap:
            ref = first.ref
            where = f"{ref.act} {ref.section}" + "".join(f"({x})" if len(x) < 4 else f" {x}" for x in part.label if x)
            out.append(Failure("punishment part", ", ".join(gap), where))
    return tuple(out)
