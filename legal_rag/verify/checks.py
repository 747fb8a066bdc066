"""The checks of a sentence against the passages it cites, one function each, ``(claim, evidence) -> failures``,
run in the order of one table (:data:`CHECKS`).

Each :class:`Check` of the table runs unless a check it names in ``unless`` has failed (its gate): every check
of the claim needs a citation, and the part of a section a punishment is printed for (``punishment part``) is
asked only of a sentence whose numbers and punishment terms the cited text prints at all. A sentence is
supported when it fails none (:func:`failures`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..law import FoundRef, find_refs
from ..text import content_terms, normalise
from ..types import ACTS, Hit
from .claim import MIN_OVERLAP, Claim, Equivalents, Evidence, Sections, stated_refs
from .result import CheckName, Failure
from .scope import punishment_part
from .verdict import reversed_verdict

Failures = tuple[Failure, ...]


def no_citation(claim: Claim, evidence: Evidence) -> Failures:
    """A sentence that cites no passage (no ``[n]`` marker) is no verified statement."""
    return (Failure("no citation"),) if not evidence.cited and not evidence.not_given else ()


def cites_not_given(claim: Claim, evidence: Evidence) -> Failures:
    """A sentence whose every marker names a passage the generator was not given cites nothing."""
    return (Failure("cites passages not given"),) if not evidence.cited and evidence.not_given else ()


def quote_found(quote: str, evidence: Evidence) -> bool:
    """Whether ``quote`` occurs verbatim in one cited text (normalised spacing and quotes; ``...`` or ``…`` splits it
    into fragments that must occur in that order)."""
    frags = [normalise(f).strip(" .,;:") for f in re.split(r"…|\.\.\.", quote)]
    frags = [f for f in frags if f]
    for flat in evidence.flat:
        pos = 0
        for f in frags:
            i = flat.find(f, pos)
            if i < 0:
                break
            pos = i + len(f)
        else:
            return True
    return False


def quote(claim: Claim, evidence: Evidence) -> Failures:
    """Every quoted span occurs verbatim in one cited passage (:func:`quote_found`)."""
    return tuple(Failure("quote", q[:60]) for q in claim.quotes if not quote_found(q, evidence))


def _cross_ref(st: FoundRef, act: str, text: str) -> bool:
    """Whether the statute passage ``text`` (of ``act``) itself names ``st``: its own cross-references, an
    unqualified "section 64" read as ``act``'s, one qualified by another Act as that Act's ("section 2 of the Dowry
    Prohibition Act, 1961" in BNS 80)."""
    for r in find_refs(text, default_act=act if act in ACTS else None):
        if r.section != st.section or r.kind != st.kind or (st.sub and r.sub[:len(st.sub)] != st.sub):
            continue
        if st.act is None and r.act in (None, act):
            return True
        if st.act == "OTHER" and r.act == "OTHER" and normalise(r.act_text) == normalise(st.act_text):
            return True
        if st.act is not None and st.act != "OTHER" and r.act == st.act:
            return True
    return False


def ref_found(st: FoundRef, evidence: Evidence) -> bool:
    """Whether the section ``st`` a sentence states is a cited passage's: its own section (the sub-section, when
    stated, printed in the passage or the one the passage begins inside), its official successor or predecessor
    (``equivalents``), a section it names itself (:func:`_cross_ref`); for a judgment passage, a section the passage
    mentions with the same Act. An Article of the Constitution is never a statute passage's."""
    for hit, text in zip(evidence.cited, evidence.texts):
        ref = hit.chunk.ref
        if ref is None:  # a judgment: the section must be one the passage itself mentions
            if any(r.section == st.section and r.kind == st.kind and (st.act is None or r.act in (None, st.act))
                   for r in stated_refs(text)):
                return True
            continue
        if st.kind == "article":
            continue
        if st.section == ref.section and st.act in (None, ref.act):
            # the sub-section is printed in the passage, or the passage begins inside it (chunk meta ``open``,
            # read at ingest from the printed section: legal_rag.law.pinpoint.open_state)
            opens = dict(hit.chunk.meta).get("open", "").partition(",")[0]
            if not st.sub or st.sub[:1] == ref.sub[:1] or (not ref.sub and (f"({st.sub[0]})" in text
                                                                            or st.sub[0] == opens)):
                return True
        for eq in {*evidence.equivalents(ref.base), *evidence.equivalents(ref)}:
            if eq.section == st.section and st.act in (None, eq.act):
                return True
        if _cross_ref(st, ref.act, text):
            return True
    return False


def _as_stated(r: FoundRef) -> str:
    """The section as a reason names it: "section BNS 318(4)", "section 2 of the Dowry Prohibition Act, 1961",
    "Article 21"."""
    what = f"Article {r.section}" if r.kind == "article" else \
        f"section {(r.act + ' ') if r.act and r.act != 'OTHER' else ''}{r.section}"
    return f"{what}{''.join(f'({s})' for s in r.sub)}{f' of the {r.act_text}' if r.act == 'OTHER' else ''}"


def section(claim: Claim, evidence: Evidence) -> Failures:
    """Every section the sentence states outside its quotes (read by the citation grammar, the Act it names or,
    when it names none, any Act) is a cited passage's (:func:`ref_found`)."""
    return tuple(Failure("section", _as_stated(r)) for r in claim.refs if not ref_found(r, evidence))


def punishment(claim: Claim, evidence: Evidence) -> Failures:
    """Every punishment term the sentence states (``7 year``, ``life``, ``death``, ``fine``, ``fine:<rupees>``;
    :func:`legal_rag.text.punishment_terms`) occurs in the cited text."""
    missing = sorted(claim.terms - evidence.punishments)
    return (Failure("punishment", ", ".join(missing)),) if missing else ()


def other_act_punishment(claim: Claim, evidence: Evidence) -> Failures:
    """A punishment stated for a section of an Act none of the cited passages is of ("Under section 304A of the IPC,
    ... five years" cited to BNS 106(1)) fails: the old and new Acts print different punishments (IPC 304A: two
    years; BNS 106(1): five years), so the terms cannot be checked against the counterpart's text. Passes when the
    sentence states no punishment or also names a section of a cited Act (the terms are then that section's)."""
    acts = {h.chunk.ref.act for h in evidence.cited if h.chunk.ref is not None}
    named = {r.act for r in claim.refs if r.kind == "section" and r.act in ACTS}
    if not acts or not named or named & acts or not claim.terms:
        return ()
    return (Failure("other-act punishment", ", ".join(sorted(named))),)


def number(claim: Claim, evidence: Evidence) -> Failures:
    """Every other number the sentence states (outside its quotes and section references; 1 aside) occurs in the
    cited text."""
    nums = claim.numbers - evidence.numbers
    return (Failure("number", ", ".join(map(str, sorted(nums)))),) if nums else ()


def overlap(claim: Claim, evidence: Evidence) -> Failures:
    """At least ``min_overlap`` of the sentence's content words (outside quotes and section references, plus the
    words of its verified quotes) occur in the cited text: a guard against fluent filler."""
    found = content_terms_of_quotes(claim, evidence)
    words = [*claim.words, *found]
    if not words:
        return ()
    share = sum(w in evidence.vocab for w in words) / len(words)
    return (Failure("overlap", f"{share:.0%}"),) if share < evidence.min_overlap else ()


def content_terms_of_quotes(claim: Claim, evidence: Evidence) -> list[str]:
    """The content words of the sentence's quotes that occur verbatim in the cited text, in order."""
    return [t for q in claim.quotes if quote_found(q, evidence) for t in content_terms(q)]


@dataclass(frozen=True)
class Check:
    """One row of :data:`CHECKS`: ``run`` is skipped when a check named in ``unless`` has failed."""

    name: CheckName
    run: Callable[[Claim, Evidence], Failures]
    unless: tuple[CheckName, ...] = ()


_CITED: tuple[CheckName, ...] = ("no citation", "cites passages not given")

#: every check, in the order it runs and its failures are listed
CHECKS: tuple[Check, ...] = (
    Check("no citation", no_citation),
    Check("cites passages not given", cites_not_given),
    Check("quote", quote, unless=_CITED),
    Check("section", section, unless=_CITED),
    Check("punishment", punishment, unless=_CITED),
    Check("other-act punishment", other_act_punishment, unless=_CITED),
    Check("number", number, unless=_CITED),
    Check("punishment part", punishment_part, unless=(*_CITED, "number", "punishment")),
    Check("reversed verdict", reversed_verdict, unless=_CITED),
    Check("overlap", overlap, unless=_CITED),
)


def failures(claim: Claim, evidence: Evidence, checks: Sequence[Check] = CHECKS) -> Failures:
    """Every failure of ``claim`` against ``evidence``, running ``checks`` in order, each one whose gate is open
    (no check it names in ``unless`` has failed). ``()``: supported."""
    out: list[Failure] = []
    failed: set[str] = set()
    for check in checks:
        if failed.intersection(check.unless):
            continue
        found = check.run(claim, evidence)
        if found:
            failed.add(check.name)
            out += found
    return tuple(out)


def check_claim(claim: str | Claim, cited: Sequence[Hit], equivalents: Equivalents,
                min_overlap: float = MIN_OVERLAP, sections: Sections | None = None) -> Failures:
    """The failures of ``claim`` (a sentence without markers, or its :class:`Claim`) against the ``cited`` passages;
    ``()`` when it is supported. ``sections(act, section)``: every chunk of a section (the index's), from which the
    part a claim is about is read (:mod:`legal_rag.law.scope`); default: the cited chunks alone."""
    read = claim if isinstance(claim, Claim) else Claim.of(claim)
    return failures(read, Evidence(tuple(cited), equivalents, min_overlap, sections))
