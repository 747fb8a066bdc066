"""The part of a section a sentence is about, and the punishment printed for it: so that a punishment a sentence
states is checked against the division that describes its offence, not against anything printed elsewhere in the
same passage (or in another chunk of the same section).

Why: BNS 140 prints "ten years" in sub-section (1) (kidnapping in order to murder) and death in (2) (kidnapping for
ransom); BNS 61(2) prints abetment's punishment in clause (a) and six months in (b); BNS 78(1)'s proviso (conduct
that is not stalking) prints no punishment at all. A lexical check against the whole passage passes "kidnapping for
ransom: life or ten years" and an exception spliced onto a punishment.

**Parts** (divisions as :mod:`legal_rag.law.pinpoint` reads the Gazette prints):

* a *clause*, with its sub-section's opening words and the clause list's common ending (where a list's punishment
  is printed: BNS 196(1) "... shall be punished with imprisonment which may extend to three years");
* a *sub-section* without clauses, or a section's text with no sub-section marker;
* a *block*: an Explanation, Illustration, Exception or proviso, from its heading to the next block or sub-section
  (label ``(sub, "Provided")`` etc.). An Explanation or Illustration takes the punishment of the provision it
  follows; an Exception or proviso takes a case out of it and is never the offence's punishment.

Parts with the same label in several chunks of one section are joined (a chunk may begin inside a sub-section:
:func:`legal_rag.law.pinpoint.open_state`); parts without content words (a bare heading line) are left out.

A sentence is **about** the parts that print the largest share of its words (stemmed content words,
:func:`legal_rag.text.content_terms`; the punishment vocabulary, citation words and words printed in no part are
left out, since they describe a penalty or a citation, not the offence); then a provision before a block (an
Explanation repeats the offence's words), then — for a sentence stating a punishment — a part that prints one before
one that only defines (BNS 318(1) and (4) share their words), then the part printing the longest run of its words
in order (BNS 109(1) "if hurt is caused to any person by such act, the offender" against 109(2)'s "person
offending ... if hurt is caused"), then the smaller part that says the same (Jaccard similarity); ties keep every
tied part. When the best is a defining part and the sentence states a punishment, the parts that print one and a
word of the sentence the definition lacks are added ("a carrier entrusted with property ..." is also about BNS
316(3)). A sentence none of whose words is printed in any part ("The punishment for this act is ...") is about
none (:mod:`legal_rag.verify` then requires its punishment in every part that prints one).

The **punishment of a part** is the punishment terms (:func:`legal_rag.text.punishment_terms`) it prints. A
provision part that prints none defines an offence that another sub-section punishes (BNS 78(1) defines stalking,
78(2): "Whoever commits the offence of stalking shall be punished ..."; BNS 308(1)/(2), 318(1)/(2)): its punishment
is then that of every provision part of the section that prints a punishment and names nothing the
defining part does not (its content words, less "whoever", "commits", "offence" and the conviction words, all occur
in the defining part or the section's heading). An Explanation's or Illustration's punishment is that of its
sub-section's provision; an Exception's or proviso's is only what it prints itself. A sub-section that names the
clauses it punishes by number ("the offence specified in clause (iv) of sub-section (1)", BNS 75(3)) punishes the
clause of the defining part the sentence describes (:func:`cross_punishers`; its words against each clause's).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property, lru_cache

from ..text import content_terms, punishment_terms
from ..types import Chunk
from .pinpoint import BLOCK, chunk_layout

#: words of punishment clauses (BNS s.4 and the Acts' penalty formula), never evidence of what a sentence is about
PENALTY_WORDS = frozenset(content_terms(
    "punished punishable punishment punish imprisonment imprisoned either description term which may extend extended "
    "shall also liable fine fined rigorous simple years year months month days day life death natural remainder "
    "sentence sentenced less not exceeding upto up to both with or and one two three four five six seven eight nine "
    "ten eleven twelve thirteen fourteen fifteen twenty thirty sixty ninety hundred thousand lakh rupees "
    "which shall mean the remainder of that person's natural life"))
#: words of citations and legal generality that name no particular offence ("Under section 117 of the BNS",
#: "the punishment for this act", a general rule's "except in the cases provided for in sub-section (2)")
GENERIC_WORDS = frozenset(content_terms("section sections sub-section sub clause act acts offence offences sanhita "
                                        "bharatiya nyaya nagarik suraksha sakshya adhiniyam bns bnss bsa ipc crpc "
                                        "code penal indian provision provisions law under except case cases "
                                        "provided"))
#: words a punishing sub-section uses to name the offence another part defines ("Whoever commits the offence of
#: stalking shall be punished on first conviction ...")
_PUNISHING_WORDS = frozenset(content_terms("whoever commits committed offence first second subsequent conviction "
                                           "convicted any person man"))


@dataclass(frozen=True)
class Part:
    """A finest division of one section as printed in the given chunks: ``label`` is ``("2", "b")`` (a clause),
    ``("2",)`` (a sub-section), ``()`` (no sub-section marker) or ``("2", "Provided")`` (a block: ``kind ==
    "block"``); ``text`` its words; ``chunks`` the ids of the chunks that print it, in the order given."""

    label: tuple[str, ...]
    text: str
    chunks: tuple[str, ...]
    kind: str = "provision"
    own: str = ""  # a clause's own words, without its list's shared opening and ending ("" : ``text``)

    @cached_property
    def terms(self) -> frozenset[str]:
        """The punishment terms the part prints (:func:`legal_rag.text.punishment_terms`)."""
        return punishment_terms(self.text)

    @cached_property
    def words(self) -> frozenset[str]:
        """Its offence words: stemmed content words less the punishment vocabulary and citation words."""
        return frozenset(_sequence(self.text))

    @cached_property
    def sequence(self) -> tuple[str, ...]:
        """Its own offence words in printed order (a clause without its list's shared opening and ending)."""
        return tuple(_sequence(self.own or self.text))

    @property
    def sub(self) -> str:
        """The sub-section the part belongs to (``""`` when the section has none)."""
        return self.label[0] if self.label and (len(self.label) > 1 or self.kind == "provision") else ""


def parts(chunks: Sequence[Chunk]) -> tuple[Part, ...]:
    """The parts (module docstring) of the statute ``chunks`` of **one** section, in order of first appearance. A
    clause's text is printed as the Act prints it: its list's opening words (gathered across chunks), the clause,
    then the list's common ending (BNS 196(1)'s clauses (a) and (b) are in one chunk, its punishment after (c) in the
    next). Memoised (verification asks for one section several times per sentence). Raises ``ValueError`` when the
    chunks are not all statute chunks of one section of one Act."""
    return _parts(tuple(chunks))


@lru_cache(maxsize=256)
def _parts(chunks: tuple[Chunk, ...]) -> tuple[Part, ...]:
    keys = {(c.ref.act, c.ref.section) if c.ref is not None else None for c in chunks}
    if len(keys) > 1 or None in keys:
        raise ValueError("parts() needs statute chunks of one section")
    texts: dict[tuple[str, ...], list[str]] = {}
    owners: dict[tuple[str, ...], list[str]] = {}
    kinds: dict[tuple[str, ...], str] = {}
    common: dict[str, list[tuple[str, str, str]]] = {}  # sub-section -> (chunk id, list opening, list ending)
    last_block: dict[str, tuple[str, ...]] = {}  # sub-section -> label of the last block seen in it

    def add(label: tuple[str, ...], text: str, kind: str, cid: str) -> None:
        texts.setdefault(label, []).append(text)
        kinds.setdefault(label, kind)
        if cid not in owners.setdefault(label, []):
            owners[label].append(cid)

    for c in chunks:
        lay = chunk_layout(c)
        opened_in_block = dict(c.meta).get("open", "").endswith(",-")
        for sub, a, b in lay.units():
            blocks = [m.start() for m in BLOCK.finditer(c.text, a, b)]
            end = blocks[0] if blocks else b
            clauses = [d for d in lay.clauses if d.sub == sub and a <= d.start < end]
            head = (sub,) if sub else ()
            if a == 0 and opened_in_block and not clauses:  # the block the previous chunk ended in, when given
                add(last_block.get(sub, head + ("block",)), c.text[a:end], "block", c.id)
            elif not clauses:
                add(head, c.text[a:end], "provision", c.id)
            else:
                common.setdefault(sub, []).append((c.id, c.text[a:clauses[0].start], c.text[clauses[-1].end:end]))
                for d in clauses:
                    add(d.label if sub else ("", d.clause), c.text[d.start:d.end], "provision", c.id)
            for i, x in enumerate(blocks):
                y = blocks[i + 1] if i + 1 < len(blocks) else b
                last_block[sub] = head + (re.match(r"[\s\[]*([A-Za-z]+)", c.text[x:y]).group(1),)
                add(last_block[sub], c.text[x:y], "block", c.id)
    out = []
    for label, t in texts.items():
        shared = common.get(label[0], []) if len(label) == 2 and kinds[label] == "provision" else []
        text = "\n".join([*(o for _, o, _ in shared), *t, *(e for _, _, e in shared)])
        if not [w for w in content_terms(text) if w not in PENALTY_WORDS]:
            continue
        ids = [*owners[label], *(cid for cid, o, e in shared if punishment_terms(o + " " + e)
                                 and cid not in owners[label])]
        out.append(Part(label, text, tuple(ids), kinds[label], "\n".join(t) if shared else ""))
    return tuple(out)


def _sequence(text: str) -> list[str]:
    return [w for w in content_terms(text) if w not in PENALTY_WORDS and w not in GENERIC_WORDS]


def longest_run(a: Sequence[str], b: Sequence[str]) -> tuple[int, int, int]:
    """``(start in a, start in b, length)`` of the longest run of consecutive words ``a`` and ``b`` share
    (:class:`difflib.SequenceMatcher`)."""
    m = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    return m.a, m.b, m.size


def _longest_run(a: Sequence[str], b: Sequence[str]) -> int:
    return longest_run(a, b)[2]


def _terms(text: str) -> set[str]:
    return set(_sequence(text))


def about(claim: str, candidates: Sequence[Part]) -> tuple[Part, ...]:
    """The parts among ``candidates`` that ``claim`` is about (module docstring): the largest share of the claim's
    words printed in the part, then provisions before blocks, then (for a claim stating a punishment) a part that
    prints one before a defining part, then the longest run of its words printed in order in the part's own words
    (a clause without its list's shared opening), then the highest Jaccard similarity (a smaller part that says the
    same); ties all kept. When the best is a defining part (it prints no punishment) and the claim states one, the
    provision parts printing a punishment and a word of the claim the definition lacks are added (the claim is about
    them too: "a carrier entrusted with property ..." is BNS 316(3), not 316(1)'s definition with 316(2)'s term).
    ``()`` when there are no candidates or none of the claim's words is printed in any part."""
    if not candidates:
        return ()
    vocab = [p.words for p in candidates]
    words = _terms(claim) & set().union(*vocab)
    if not words:
        return ()
    states = bool(punishment_terms(claim))
    seq = _sequence(claim)
    keys = [(round(len(words & v) / len(words), 6), p.kind == "provision", states and bool(p.terms),
             _longest_run(seq, p.sequence), round(len(words & v) / len(words | v), 6))
            for p, v in zip(candidates, vocab)]
    best = max(keys)
    out = [p for p, k in zip(candidates, keys) if k == best]
    if states:
        for b in [b for b in out if not b.terms and b.kind == "provision"]:
            known = b.words
            out += [p for p, v in zip(candidates, vocab) if p not in out and p.kind == "provision" and p.terms
                    and (words & v) - known - _PUNISHING_WORDS]
    return tuple(out)


#: blocks that explain or illustrate the provision they follow (its punishment is theirs); an Exception or a proviso
#: takes a case out of the provision and keeps only what it prints itself
EXPLAINING = frozenset({"Explanation", "Explanations", "Illustration", "Illustrations"})


def punishing(part: Part, section: Sequence[Part], title: str = "") -> tuple[Part, ...]:
    """The parts whose printed punishment is ``part``'s (module docstring): ``part`` itself when it prints one, or is
    an Exception, a proviso or a block continued from an earlier chunk; for an Explanation or Illustration, the
    provision parts of its sub-section and what punishes them (BNS 316's Explanation 1 deems an employer's default
    criminal breach of trust; 316(2) punishes it); for a defining provision part, the provision parts of ``section``
    that print one and name nothing ``part`` (or the heading ``title``) does not."""
    if part.terms:
        return (part,)
    if part.kind == "block":
        if part.label[-1] not in EXPLAINING:
            return (part,)
        owners = [p for p in section if p.kind == "provision" and p.sub == part.sub]
        return tuple(dict.fromkeys(q for p in owners for q in punishing(p, section, title)))
    cross = cross_punishers(part, section)
    if cross:  # BNS 75(2)/(3) punish 75(1)'s clauses by number: those sub-sections, whichever clause is meant
        return tuple(dict.fromkeys(q for qs in cross.values() for q in qs))
    known = part.words | _terms(title)
    return tuple(p for p in section if p.kind == "provision" and p.terms and p is not part
                 and p.words - _PUNISHING_WORDS <= known)


#: a punishing sub-section that names its offence by clause number: "Any man who commits the offence specified in
#: clause (i) or clause (ii) or clause (iii) of sub-section (1) shall be punished ..." (BNS 75(2), IPC 354A(2))
CROSS_REF = re.compile(r"offence\s+specified\s+in\s+((?:clause\s*\(\s*[0-9a-z]+\s*\)[\s,]*(?:or|and)?\s*)+)"
                       r"of\s+sub-section\s*\(\s*(\d+[A-Z]?)\s*\)", re.I)
#: a clause marker at a line's start or after the list's dash: "(iv) making sexually coloured remarks"
_CLAUSE_MARK = re.compile(r"(?:^|\n|—|:-)\s*\(([ivx]+|[a-z])\)\s", re.M)
#: where a clause's own words end: its "; or" / "," before the next line (the list's shared ending follows the last)
_CLAUSE_END = re.compile(r"[;,]\s*(?:or|and)?\s*\n")


def cross_punishers(part: Part, section: Sequence[Part]) -> dict[str, tuple[Part, ...]]:
    """Clause label -> the provision parts of ``section`` that punish that clause of ``part``'s sub-section by naming
    it (:data:`CROSS_REF`), for a defining provision part that prints no punishment; ``{}`` otherwise. BNS 75: ``{"i":
    (75(2),), "ii": (75(2),), "iii": (75(2),), "iv": (75(3),)}`` for 75(1). In the six Acts only BNS 75 and IPC 354A
    punish so (the other "specified in clause" phrases are procedure: BNSS 84, 215, 392)."""
    if part.kind != "provision" or part.terms or not part.sub:
        return {}
    out: dict[str, list[Part]] = {}
    for q in section:
        if q.kind != "provision" or not q.terms or q is part:
            continue
        for m in CROSS_REF.finditer(q.text):
            if m.group(2) == part.sub:
                for c in re.findall(r"\(\s*([0-9a-z]+)\s*\)", m.group(1), re.I):
                    out.setdefault(c.lower(), []).append(q)
    return {c: tuple(dict.fromkeys(qs)) for c, qs in out.items()}


def _clause_words(text: str) -> dict[str, frozenset[str]]:
    """Each clause's own offence words in a part's text (up to its "; or" line end), by clause label."""
    marks = list(_CLAUSE_MARK.finditer(text))
    out = {}
    for i, m in enumerate(marks):
        body = text[m.end():marks[i + 1].start() if i + 1 < len(marks) else len(text)]
        end = _CLAUSE_END.search(body)
        out[m.group(1)] = frozenset(_sequence(body[:end.start()] if end else body))
    return out


def _cross_for_claim(part: Part, section: Sequence[Part], claim: str) -> list[Part] | None:
    """The parts punishing the clause of ``part`` that ``claim`` describes (most of its words; :func:`cross_punishers`),
    or ``None`` when ``part``'s clauses are not punished by number. When the claim describes no one clause best, the
    parts punishing every clause (and :func:`printed_for` then keeps only the terms they all print)."""
    cross = cross_punishers(part, section)
    if not cross:
        return None
    words = _terms(claim)
    scored = {c: len(words & w) for c, w in _clause_words(part.text).items() if c in cross}
    top = max(scored.values(), default=0)
    best = [c for c, n in scored.items() if n == top] if top else []
    if len(best) == 1:
        return list(cross[best[0]])
    return [q for qs in cross.values() for q in qs]


#: words of any condition's subject, never what tells one condition from another
_COMMITTING = frozenset(content_terms("commit commits committed committing person persons offender offenders"))
#: where a part's punishment turns conditional: "; and if hurt is caused ..." (BNS 109(1)), "; and, if the robbery be
#: committed on the highway ..." (309(4)), ", and be punished on a second or subsequent conviction" (77, 78(2)),
#: "and in case of second or subsequent conviction" (303(2))
CONDITION = re.compile(r"[;,:]\s*(?:and|or)\s*,?\s*(?=if\b|be\s+punished\s+on\b|shall\s+be\s+punished\s+on\b|"
                       r"in\s+case\s+of\b)|\band\s+in\s+case\s+of\b|;\s*(?=if\b)", re.I)


def conditional(part: Part) -> list[tuple[frozenset[str], frozenset[str]]]:
    """The punishments ``part`` prints behind a condition (:data:`CONDITION`), as ``(terms, condition words)``: the
    terms printed after the condition and the words of that stretch printed nowhere before it, less the punishment
    vocabulary and citation words (the words a sentence must share to state that term: "highway", "sunset",
    "sunrise"; "second", "subsequent"; "hurt").
    ``[]`` when the part prints no condition."""
    text = part.text
    cuts = [m.start() for m in CONDITION.finditer(text)]
    if not cuts:
        return []
    spans = list(zip([0, *cuts], [*cuts, len(text)]))
    seen = _terms(text[:cuts[0]])
    out = []
    for a, b in spans[1:]:
        words = _terms(text[a:b]) - _COMMITTING
        out.append((punishment_terms(text[a:b]) - punishment_terms(text[:cuts[0]]), frozenset(words - seen)))
        seen |= words
    return out


def printed_for(part: Part, section: Sequence[Part], title: str = "", claim: str | None = None) -> frozenset[str]:
    """The punishment terms printed for ``part``: in it and in the parts that punish it (:func:`punishing`). With
    ``claim``, a term a part prints only behind a condition (:func:`conditional`) counts only when the claim shares a
    word of that condition: "robbery ... fourteen years" is 309(4)'s term for the highway between sunset and
    sunrise, "stalking ... first conviction ... five years" 78(2)'s for a second conviction."""
    pieces = [part, *(p for p in punishing(part, section, title) if p is not part)]
    if claim is None:
        return frozenset().union(*(p.terms for p in pieces))
    words = _terms(claim)

    def own(p: Part) -> set[str]:
        behind = conditional(p)
        hidden = set().union(*(t for t, _ in behind)) if behind else set()
        return set(p.terms - hidden) | {t for terms, cond in behind if cond & words for t in terms}

    cross = _cross_for_claim(part, section, claim)
    if cross is not None:  # the clause's punisher; several (no one clause described): what they all print
        return frozenset(set.intersection(*(own(p) for p in dict.fromkeys(cross))))
    out: set[str] = set()
    for p in pieces:
        out |= own(p)
    return frozenset(out)
