"""Re-attribution (``verify(..., reattribute=True)``, setting ``reattribute_citations``): a sentence citing one
statute chunk that does not support it is kept, with its marker moved, when it passes every check unchanged against
other given chunks of the **same section**: the first such chunk alone, else the given chunks that print the part it
describes and that part's punishment, else all the section's given chunks. A model cites "the section" while the
chunker splits sections (BNS 109's first chunk does not print sub-section (1)'s ten years; BNS 316's definition and
its punishments are chunks apart).

What makes this safe is check ``punishment part``: a sentence is never moved onto another part's term (308(3) with
308(5)'s ten years, 196(1) with 196(2)'s five years, 140(2) with 140(1)'s ten years, 61(2)(a) with 61(2)(b)'s six
months, a carrier (316(3)) with 316(2)'s five years, IPC 417 with BNS 318(2)'s three years all fail it); a sentence
that states a punishment but whose words name no part is never moved.

Across sections of one Act only for a copy: a sentence naming no section that one given passage prints word for word
(:func:`verbatim_move`: BNS 103(2)'s words cited to BNS 104); a paraphrase never (the word-overlap check would pass
"Cheating is punished with death" against the murder section). Never across Acts or judgments (a lexical check
cannot tell a holding from counsel's argument); never for a sentence citing several passages. The sentence's words
are never changed; every move is listed in ``problems`` and in the sentence's ``moved_from``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cite import Cited
from ..law import longest_run, punishing
from ..text import MARKER, content_terms
from ..types import Draft, Hit
from .checks import failures
from .claim import MIN_OVERLAP, Claim, Equivalents, Evidence, Sections, support_text, words
from .scope import scope
from .status import is_abstention, is_empty

#: a sentence naming no section moves to a passage of another section of the same Act only when one run of its
#: words, in order, covers at least this share of them there (a copy, not a paraphrase)
VERBATIM_SHARE = 0.8
#: ... and only when it has at least this many words
VERBATIM_MIN_WORDS = 8


def _claim(claim: str | Claim) -> Claim:
    return claim if isinstance(claim, Claim) else Claim.of(claim)


def verbatim_move(claim: str | Claim, markers: Sequence[int], passages: Sequence[Hit], equivalents: Equivalents,
                  min_overlap: float = MIN_OVERLAP, sections: Sections | None = None) -> tuple[int, ...]:
    """The marker of the one given statute passage of *another section of the same Act* that prints a sentence
    citing one statute passage (``markers``) word for word: the sentence names no section, has at least
    :data:`VERBATIM_MIN_WORDS` words, one run of which, in order, covers :data:`VERBATIM_SHARE` of them in that
    passage **and every content word** (only words such as "if", "the" may lie outside the run: BNS 305 prints
    cheating's punishment clause for theft in a dwelling, and an Exception without its "not" is no copy of BNS 101),
    and it passes every check there. ``()`` otherwise, or when two passages qualify."""
    claim = _claim(claim)
    if len(markers) != 1 or passages[markers[0] - 1].chunk.ref is None:
        return ()
    ref = passages[markers[0] - 1].chunk.ref
    said = words(MARKER.sub(" ", claim.text))
    if len(said) < VERBATIM_MIN_WORDS or any(st.kind == "section" for st in claim.stated):
        return ()
    found = []
    for n, h in enumerate(passages, 1):
        r = h.chunk.ref
        if r is None or r.act != ref.act or r.section == ref.section:
            continue
        text = words(support_text(h))
        at, _, size = longest_run(said, text)
        outside = " ".join(said[:at] + said[at + size:])
        if size >= VERBATIM_SHARE * len(said) and not content_terms(outside) \
                and not failures(claim, Evidence((h,), equivalents, min_overlap, sections)):
            found.append(n)
    return (found[0],) if len(found) == 1 else ()


def reattributed(claim: str | Claim, markers: Sequence[int], passages: Sequence[Hit], equivalents: Equivalents,
                 min_overlap: float = MIN_OVERLAP, sections: Sections | None = None) -> tuple[int, ...]:
    """The markers (1-based, into ``passages``) to which a statute sentence citing one passage (``markers``) that
    does not support it moves (module docstring): the first other given chunk of the *same section* that supports
    it alone; else the given chunks that print the part it is about and the punishment printed for that part
    (:mod:`legal_rag.law.scope`); else all the section's given chunks, when it passes every check against them; else
    the passage of another section of the same Act that prints it word for word (:func:`verbatim_move`). ``()``
    when it passes against none, states a punishment but names no part, cites several passages or a judgment."""
    claim = _claim(claim)
    return same_section(claim, markers, passages, equivalents, min_overlap, sections) or \
        verbatim_move(claim, markers, passages, equivalents, min_overlap, sections)


def same_section(claim: Claim, markers: Sequence[int], passages: Sequence[Hit], equivalents: Equivalents,
                 min_overlap: float = MIN_OVERLAP, sections: Sections | None = None) -> tuple[int, ...]:
    """The same-section half of :func:`reattributed`."""
    if len(markers) != 1 or passages[markers[0] - 1].chunk.ref is None:
        return ()

    def fails(hits: Sequence[Hit]) -> bool:
        return bool(failures(claim, Evidence(tuple(hits), equivalents, min_overlap, sections)))

    ref = passages[markers[0] - 1].chunk.ref
    first: dict[str, int] = {}
    for n, h in enumerate(passages, 1):
        if h.chunk.ref is not None and (h.chunk.ref.act, h.chunk.ref.section) == (ref.act, ref.section):
            first.setdefault(h.chunk.id, n)
    first.pop(passages[markers[0] - 1].chunk.id, None)
    if not first:
        return ()
    whole = [passages[markers[0] - 1], *(passages[n - 1] for n in first.values())]
    if fails(whole):
        return ()
    ps, best, _ = scope(claim, Evidence(tuple(whole), equivalents, min_overlap, sections))
    states = claim.terms
    if states and not best:  # nothing tells which part's punishment it states: never moved
        return ()
    for n in first.values():
        if not fails([passages[n - 1]]):
            return (n,)
    title = whole[0].chunk.title
    need = {cid for p in best for q in ((p, *punishing(p, ps, title)) if states else (p,)) for cid in q.chunks}
    given = {passages[markers[0] - 1].chunk.id: markers[0], **first}
    narrow = tuple(sorted(n for cid, n in given.items() if cid in need))
    if narrow and not fails([passages[n - 1] for n in narrow]):
        return narrow
    return tuple(sorted(given.values()))


def remark(raw: str, markers: Sequence[int]) -> str:
    """Sentence ``raw`` with its markers replaced by one ``[a, b]`` where its last marker stood."""
    found = list(MARKER.finditer(raw))
    last = found[-1]
    out = raw[:last.start()] + "[" + ", ".join(map(str, markers)) + "]" + raw[last.end():]
    for m in reversed(found[:-1]):
        out = out[:m.start()] + out[m.end():]
    return out


def moves(draft: Draft, cited: Cited, equivalents: Equivalents, min_overlap: float = MIN_OVERLAP,
          sections: Sections | None = None) -> dict[int, tuple[int, ...]]:
    """Index of each sentence of ``draft`` (as ``cited`` splits it) that fails as cited and passes re-attributed
    (:func:`reattributed`) -> its new markers. Sentences with a marker naming no given passage, and those that are
    empty or an abstention, are never moved."""
    out = {}
    for k, s in enumerate(cited.sentences):
        text = s.claim
        if not s.markers or s.bad_markers or is_empty(text) or is_abstention(text, draft):
            continue
        claim = Claim.of(text)
        if failures(claim, Evidence(tuple(draft.passages[n - 1] for n in s.markers), equivalents, min_overlap,
                                    sections)):
            new = reattributed(claim, s.markers, draft.passages, equivalents, min_overlap, sections)
            if new:
                out[k] = new
    return out
