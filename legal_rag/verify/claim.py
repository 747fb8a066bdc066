"""The two inputs of every check: what a sentence states (:class:`Claim`, read once from its text) and what it
cites (:class:`Evidence`: the cited passages as the checks read them, and the law that relates sections).

Sentences addressed to a model are no evidence (:func:`legal_rag.injection.without_instructions`, field case
BL-41): a passage is read as its label, Act, title and text without them (:func:`support_text`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from ..cite import quotes_in
from ..generate.prompt import passage_label
from ..injection import without_instructions
from ..law import FoundRef, find_refs, quote_regions
from ..text import content_terms, normalise, numbers_in, punishment_terms
from ..types import ACT_TITLES, Chunk, Hit, StatuteRef

#: ``equivalents(ref)`` -> the official successors/predecessors of ``ref`` (BPR&D correspondence tables)
Equivalents = Callable[[StatuteRef], "set[StatuteRef] | frozenset[StatuteRef]"]
#: ``sections(act, section)`` -> every chunk of that section in the index (``ChunkStore.by_ref``)
Sections = Callable[[str, str], Sequence["Chunk"]]
#: the least share of a sentence's content words its cited text must hold (check ``overlap``)
MIN_OVERLAP = 0.5

#: a negation anywhere in a sentence ("not", "no", "never", "cannot", "-n't")
NEGATION = re.compile(r"\b(?:not|no|never|nor|neither|cannot)\b|n't\b", re.I)


def stated_refs(text: str) -> tuple[FoundRef, ...]:
    """The sections (and Articles) ``text`` states, read by the project's citation grammar (:func:`legal_rag.law.
    find_refs`). ``FoundRef.act`` is the Act named (``"OTHER"`` for another Act), or ``None`` when none is: an
    ambiguous number ("section 318") is checked against any Act."""
    return find_refs(text)


def support_text(hit: Hit) -> str:
    """The text a sentence citing ``hit`` is checked against: the passage's label, its Act's title, its heading
    and its text without sentences addressed to a model."""
    c = hit.chunk
    act = ACT_TITLES.get(c.ref.act, "") if c.ref is not None else ""
    return f"{passage_label(c)} {act} {c.title}\n{without_instructions(c.text)}"


def words(text: str) -> list[str]:
    """The words of ``text``, normalised (:func:`legal_rag.text.normalise`), stop-words kept, in order."""
    return re.findall(r"[a-z0-9]+", normalise(text))


def merged(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``[start, end)`` spans sorted, overlapping ones merged (the refs of one list share their run)."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out


@dataclass(frozen=True)
class Claim:
    """A sentence (markers removed) read once for every check.

    ``quotes``: its quoted spans of three words or more (:func:`legal_rag.cite.quotes_in`); ``quoted``: the
    ``[start, end)`` of each outermost quote, nested quotes included (:func:`legal_rag.law.refs.quote_regions`);
    ``stated``: every section it states, quotes included; ``refs``: those outside quotes (the sections a verified
    quote names are checked by the quote, BNS 80's "section 2 of the Dowry Prohibition Act, 1961"); ``terms``:
    the punishment terms it states (:func:`legal_rag.text.punishment_terms`); ``bare``: the text without its
    quotes and section references, and ``bare_terms``, ``numbers`` (the number 1 aside) and ``words`` (content
    words, :func:`legal_rag.text.content_terms`, in order) read from it; ``content``: the content words of the whole
    text; ``negated``: whether it holds a negation (:data:`NEGATION`)."""

    text: str
    quotes: tuple[str, ...]
    quoted: tuple[tuple[int, int], ...]
    stated: tuple[FoundRef, ...]
    refs: tuple[FoundRef, ...]
    terms: frozenset[str]
    bare: str
    bare_terms: frozenset[str]
    numbers: frozenset[int]
    words: tuple[str, ...]
    content: frozenset[str]
    negated: bool

    @classmethod
    def of(cls, text: str) -> Claim:
        quoted = tuple(quote_regions(text))
        stated = stated_refs(text)
        refs = tuple(r for r in stated if not any(a <= r.span[0] < b for a, b in quoted))
        bare = text
        for a, b in reversed(merged([*quoted, *(r.run_span for r in refs)])):
            bare = bare[:a] + " " + bare[b:]
        return cls(text=text, quotes=tuple(quotes_in(text)), quoted=quoted, stated=stated, refs=refs,
                   terms=frozenset(punishment_terms(text)), bare=bare, bare_terms=frozenset(punishment_terms(bare)),
                   numbers=frozenset(numbers_in(bare) - {1}), words=tuple(content_terms(bare)),
                   content=frozenset(content_terms(text)), negated=bool(NEGATION.search(text)))


@dataclass(frozen=True)
class Evidence:
    """What a sentence cites: ``cited``, the given passages its markers name (in marker order); ``not_given``,
    the markers that name no given passage; ``equivalents`` (the official counterparts of a section) and
    ``sections`` (every chunk of a section, from which the part a claim describes is read; ``None``: the cited
    chunks alone); ``min_overlap`` for check ``overlap``. The texts the checks compare are read once, on first
    use."""

    cited: tuple[Hit, ...]
    equivalents: Equivalents
    min_overlap: float = MIN_OVERLAP
    sections: Sections | None = None
    not_given: tuple[int, ...] = ()

    @cached_property
    def texts(self) -> tuple[str, ...]:
        """:func:`support_text` of each cited passage."""
        return tuple(support_text(h) for h in self.cited)

    @cached_property
    def flat(self) -> tuple[str, ...]:
        """Each of :attr:`texts` normalised (:func:`legal_rag.text.normalise`)."""
        return tuple(normalise(t) for t in self.texts)

    @cached_property
    def statute_texts(self) -> tuple[str, ...]:
        """:attr:`texts` of the cited statute passages."""
        return tuple(t for h, t in zip(self.cited, self.texts) if h.chunk.kind == "statute")

    @cached_property
    def punishments(self) -> frozenset[str]:
        """Every punishment term the cited texts print."""
        return frozenset().union(*(punishment_terms(t) for t in self.texts))

    @cached_property
    def numbers(self) -> frozenset[int]:
        """Every number the cited texts print."""
        return frozenset().union(*(numbers_in(t) for t in self.texts))

    @cached_property
    def vocab(self) -> frozenset[str]:
        """Every content word of the cited texts."""
        return frozenset().union(*(content_terms(t) for t in self.texts))
