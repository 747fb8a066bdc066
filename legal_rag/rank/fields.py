"""A section's text in separate fields, each searchable on its own, and the texts of its limbs.

A question in a client's words may match a section's marginal note ("Theft"), its operative words, an Explanation,
an Illustration (a story about "A" and "Z"), the First Schedule's description of the offence ("Theft in a dwelling
house"), the BPR&D subject and summary of its correspondence row, or its predecessor's text (IPC 379 for BNS 303).
Which field matched says how much the match means (an Illustration shares a story's nouns with many questions it
does not govern), so each field is its own BM25 index (:class:`FieldIndex`) and its own feature of the ranker.

Fields (:data:`FIELDS`):

* ``title``: the marginal note; ``operative``: the text outside Explanations and Illustrations (provisos and
  Exceptions stay: they are operative law); ``explanation``; ``illustration``;
* ``schedule``: the First Schedule's offence descriptions of the section's rows (BNSS First Schedule, for BNS
  offences);
* ``subject``: the BPR&D table's subject and summary of every row naming the section;
* ``predecessor``: the text of the old-code sections the table maps to it (section level).

Limbs (:func:`limbs_of`): the section's printed sub-sections (:func:`legal_rag.law.layout`), each with its own text,
First Schedule descriptions and BPR&D subjects; a section without sub-sections has none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..index import SparseIndex, legal_tokenize
from ..law import BLOCK, layout
from ..types import NEW_ACTS, Section, StatuteRef

#: the searchable fields of a section, in feature order
FIELDS: tuple[str, ...] = ("title", "operative", "explanation", "illustration", "schedule", "subject",
                           "predecessor")
_HEADING = re.compile(r"\s*\[?(Explanations?|Illustrations?|Exceptions?|Provided)", re.I)


@dataclass(frozen=True)
class Limb:
    """One printed sub-section of a section: ``ref`` (``BNS 318(4)``), its ``text``, and the descriptions of it in
    the First Schedule (``schedule``) and the BPR&D table (``subject``)."""

    ref: StatuteRef
    text: str
    schedule: str = ""
    subject: str = ""


@dataclass(frozen=True)
class SectionFields:
    """One section's fields (module docstring), each a plain string (``""`` when the section has none)."""

    ref: StatuteRef
    values: tuple[tuple[str, str], ...]
    limbs: tuple[Limb, ...] = ()

    def get(self, name: str) -> str:
        return dict(self.values).get(name, "")


def split_blocks(text: str) -> dict[str, str]:
    """``{"operative", "explanation", "illustration"}`` of a section's ``text``: an Explanation or Illustration
    block runs from its heading to the next heading or sub-section marker; everything else is operative."""
    from ..law import SUB

    cuts = sorted({m.start() for m in BLOCK.finditer(text)} | {m.start() for m in SUB.finditer(text)} | {len(text)})
    out = {"operative": [], "explanation": [], "illustration": []}
    start = 0
    for cut in cuts:
        if cut <= start:
            continue
        piece = text[start:cut]
        m = _HEADING.match(piece)
        word = m.group(1).lower() if m else ""
        field = ("explanation" if word.startswith("explanation") else
                 "illustration" if word.startswith("illustration") else "operative")
        out[field].append(piece)
        start = cut
    return {k: " ".join(v).strip() for k, v in out.items()}


def limbs_of(section: Section, schedule_rows: Sequence, subjects: Mapping[StatuteRef, str]) -> tuple[Limb, ...]:
    """The printed sub-sections of ``section`` (``()`` when it prints none), each with the First Schedule rows of
    ``schedule_rows`` whose ref is that sub-section (or below it) and the BPR&D subjects of ``subjects`` (keyed by
    ref, any depth) for it."""
    out = []
    for d in layout(section.text).subs:
        ref = StatuteRef(section.ref.act, section.ref.section, (d.sub,))
        sched = " ".join(r.offence for r in schedule_rows if r.ref.sub[:1] == (d.sub,))
        subj = " ".join(v for k, v in subjects.items() if k.sub[:1] == (d.sub,))
        out.append(Limb(ref, section.text[d.start:d.end], sched, subj))
    return tuple(out)


def section_fields(sections: Mapping[StatuteRef, Section], schedule, concordance,
                   subjects: Mapping[StatuteRef, str] | None = None) -> dict[StatuteRef, SectionFields]:
    """The fields of every new-code section of ``sections`` (:data:`legal_rag.types.NEW_ACTS`), keyed by section
    (no sub-section). ``schedule``: a :class:`legal_rag.law.Schedule` or None; ``concordance``: a
    :class:`legal_rag.law.Concordance` or None (then ``subject`` and ``predecessor`` are empty but for
    ``subjects``: more BPR&D subjects by ref, e.g. :func:`legal_rag.law.read_bnss_subjects`)."""
    by_section: dict[StatuteRef, dict[StatuteRef, list[str]]] = {}
    if concordance is not None:
        for p in concordance.pairs:
            if p.new is not None and p.new.act in NEW_ACTS:
                text = f"{p.row.subject} {p.row.summary}".strip()
                if text:
                    by_section.setdefault(p.new.base, {}).setdefault(p.new, []).append(text)
    for ref, text in (subjects or {}).items():
        by_section.setdefault(ref.base, {}).setdefault(ref, []).append(text)
    out: dict[StatuteRef, SectionFields] = {}
    for ref, sec in sections.items():
        if ref.act not in NEW_ACTS or ref.sub:
            continue
        subj = {k: " ".join(dict.fromkeys(v)) for k, v in by_section.get(ref, {}).items()}
        blocks = split_blocks(sec.text)
        rows = schedule.section_rows(ref.act, ref.section) if schedule is not None else ()
        pred = ""
        if concordance is not None:
            pred = " ".join(sections[o].text for o in concordance.counterparts(ref, level="section") if o in sections)
        values = (("title", sec.title), ("operative", blocks["operative"]), ("explanation", blocks["explanation"]),
                  ("illustration", blocks["illustration"]), ("schedule", " ".join(r.offence for r in rows)),
                  ("subject", " ".join(dict.fromkeys(subj.values()))), ("predecessor", pred))
        out[ref] = SectionFields(ref, values, limbs_of(sec, rows, subj))
    return out


#: words of a section's summary (:func:`summary`) embedded for the dense match of the question against it
SUMMARY_WORDS = 120


def summary(f: SectionFields) -> str:
    """What a section is about, in its own short words: the marginal note, the First Schedule's offence
    descriptions and the BPR&D subject, at most :data:`SUMMARY_WORDS` words."""
    words = " ".join(x for x in (f.get("title"), f.get("schedule"), f.get("subject")) if x).split()
    return " ".join(words[:SUMMARY_WORDS])


class FieldIndex:
    """One BM25 index (:class:`legal_rag.index.SparseIndex`, the legal tokenizer) per field of :data:`FIELDS` over
    the sections of ``fields``, one over all limbs' texts with their descriptions, and, once :meth:`embed_summaries`
    is called, each section's :func:`summary` embedded (unit rows, ``summary_refs`` in order)."""

    def __init__(self, fields: Mapping[StatuteRef, SectionFields]):
        self.fields = dict(fields)
        self.summary_refs: tuple[StatuteRef, ...] = tuple(self.fields)
        self.summary_vectors = None
        self._keys = {str(r): r for r in self.fields}
        self._by_field = {}
        for name in FIELDS:
            docs = [(str(r), f.get(name)) for r, f in self.fields.items() if legal_tokenize(f.get(name))]
            self._by_field[name] = SparseIndex.build([d[0] for d in docs], [d[1] for d in docs])
        limbs = [lb for f in self.fields.values() for lb in f.limbs
                 if legal_tokenize(f"{lb.text} {lb.schedule} {lb.subject}")]
        self._limb_keys = {str(lb.ref): lb.ref for lb in limbs}
        self._limbs = SparseIndex.build([str(lb.ref) for lb in limbs],
                                        [f"{lb.text} {lb.schedule} {lb.subject}" for lb in limbs])
        self._title_words = {r: frozenset(legal_tokenize(f.get("title"))) for r, f in self.fields.items()}
        self._by_title_word: dict[str, list[StatuteRef]] = {}
        for r, words in self._title_words.items():
            for w in sorted(words):
                self._by_title_word.setdefault(w, []).append(r)

    def embed_summaries(self, embed, cache_dir=None, model_id: str = "") -> None:
        """Embed every section's :func:`summary` with ``embed(texts) -> n x d`` (kept in ``cache_dir``)."""
        from .memory import embed_cached

        texts = [summary(self.fields[r]) for r in self.summary_refs]
        self.summary_vectors = embed_cached(texts, embed, cache_dir, model_id, "rank-summaries")

    def summary_scores(self, vector) -> dict[StatuteRef, float]:
        """Section -> cosine of ``vector`` to its summary; ``{}`` before :meth:`embed_summaries`."""
        if self.summary_vectors is None or not self.summary_vectors.size:
            return {}
        sims = self.summary_vectors @ np.asarray(vector, dtype=np.float32)
        return dict(zip(self.summary_refs, sims.tolist()))

    def search(self, field: str, query: str, k: int = 100) -> dict[StatuteRef, float]:
        """Section -> BM25 score of ``query`` in ``field`` divided by the best score (in (0, 1]); top ``k``."""
        hits = self._by_field[field].search(query, k)
        top = hits[0][1] if hits else 1.0
        return {self._keys[i]: s / top for i, s in hits}

    def title_cover(self, query: str) -> dict[StatuteRef, tuple[float, float]]:
        """Section -> ``(share of its title's words the query states, share of the query's words its title
        states)``, words as the BM25 indexes read them (:func:`legal_rag.index.legal_tokenize`: stemmed, stop words
        out), for the sections whose title shares a word with the query (others: none). "punishment for theft"
        states the title "Theft" whole and a small share of a longer title naming theft."""
        words = frozenset(legal_tokenize(query))
        out: dict[StatuteRef, tuple[float, float]] = {}
        for w in sorted(words):
            for r in self._by_title_word.get(w, ()):
                if r not in out:
                    both = len(words & self._title_words[r])
                    out[r] = (both / len(self._title_words[r]), both / len(words))
        return out

    def limb_scores(self, query: str, limbs: Sequence[Limb]) -> dict[StatuteRef, float]:
        """Limb -> BM25 score of ``query`` against the limb's text and descriptions, divided by the best of
        ``limbs`` (0 where no query word occurs)."""
        allowed = {str(lb.ref) for lb in limbs}
        hits = self._limbs.search(query, len(allowed) or 1, allowed=allowed)
        top = hits[0][1] if hits else 1.0
        return {self._limb_keys[i]: s / top for i, s in hits}


__all__ = ["FIELDS", "SUMMARY_WORDS", "FieldIndex", "Limb", "SectionFields", "limbs_of", "section_fields",
           "split_blocks", "summary"]
