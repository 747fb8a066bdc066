"""Check every sentence of a draft answer against the passages it cites; remove (or mark) what fails.

A sentence is **supported** when it cites at least one passage that was given to the generator and, against
the text of its cited passages (heading included; sentences addressed to a model excluded, since planted
instructions are not evidence, field case BL-41):

1. every section it states (read by the citation grammar, :func:`legal_rag.law.find_refs`: the Act it names, or any
   Act when it names none; an Article of the Constitution is never a statute passage's) is the cited passage's own
   section (sub-section included when stated), or its official successor/predecessor as ``equivalents`` gives it
   (BPR&D correspondence tables, via :mod:`legal_rag.law`); for a judgment passage, a section the passage itself
   mentions with the same Act;
2. every punishment term it states (``7 year``, ``life``, ``death``, ``fine``, ``fine:<rupees>``;
   :func:`~legal_rag.text.punishment_terms`) occurs in the cited text, and — when the cited statute passages are of
   one section, or of several and the sentence names one of them — is printed for **the part of that section it
   describes** (:mod:`legal_rag.law.scope`: the clause, sub-section, Explanation, Exception or proviso whose words it
   shares most; a sub-section it names, plus any other its words describe; every part that prints a punishment when
   its words describe none). The parts are read from the whole section (``sections``). A lexical check against the
   whole passage passed "kidnapping for ransom: life or ten years" (140(1)'s term for 140(2)), "simple cheating:
   seven years" (318(4)'s) and a proviso spliced onto a punishment (BNS 78). A punishment stated for a section of an
   Act no cited passage is of ("Under section 304A of the IPC ..." cited to BNS 106(1)) fails: the old and new Acts
   print different punishments;
3. every quoted span occurs verbatim in one cited passage (normalised spacing and quotes; ``...`` splits a
   quote into fragments that must occur in order);
4. every other number it states occurs in the cited text;
5. at least ``min_overlap`` of its content words occur in the cited text (a guard against fluent filler);
6. a sentence without a negation does not state as an offence what a cited statute passage says is *not* that
   offence (:func:`_reversed_verdicts`: BNS 309 Illustration (d), "... but it is not robbery").

**Re-attribution** (``reattribute=True``, setting ``reattribute_citations``): a sentence citing one statute chunk
that does not support it is kept, with its marker moved, when it passes every check above unchanged against other
given chunks of the **same section**: the first such chunk alone, else the given chunks that print the part it
describes and that part's punishment, else all the section's given chunks. Why: a model cites "the section" and
our chunker splits sections (BNS 109's first chunk does not print sub-section (1)'s ten years; BNS 316's definition
and its punishments are chunks apart). The part rule of check 2 is what makes this safe: under a rule that only
asked "does the other chunk print the term", reviews shipped 308(3) with 308(5)'s ten years, 196(1) with 196(2)'s
five years, 140(2) with 140(1)'s ten years, 61(2)(a) with 61(2)(b)'s six months, a carrier (316(3)) with 316(2)'s
five years and IPC 417 with BNS 318(2)'s three years; each now fails check 2 (``tests/law/test_scope.py``,
``tests/test_scope_review.py``). A sentence that states a punishment but whose words name no part is never moved.
The sentence's words are never changed. Across sections of one Act only for a copy: a sentence naming no section
that one given passage prints word for word (:func:`verbatim_move`: BNS 103(2)'s words cited to BNS 104); a
paraphrase never (the word-overlap check would pass "Cheating is punished with death" against the murder section).
Never across Acts or judgments (a lexical check cannot tell a holding from
counsel's argument); never for a sentence citing several passages. Every move is listed in ``problems`` and in the
sentence's ``moved_from``.

A term the part prints only behind a condition ("; and, if the robbery be committed on the highway between sunset
and sunrise, ... fourteen years", 309(4); "on a second or subsequent conviction", 77, 78(2), 303(2); "and if hurt is
caused ... imprisonment for life", 109(1)) counts only for a sentence that shares a word of that condition
(:func:`legal_rag.law.scope.printed_for`).

**What the checks cannot see** (lexical, not legal reading; the strict xfails of ``tests/test_scope_review.py``): a
condition printed after its punishment ("... or with imprisonment which may extend to ten years, if the act is done
with the knowledge ...", BNS 105), paraphrase ("house-breaking at night" against 331's "after sunset and before
sunrise"), an aggravated form named inside the definition it aggravates (329(4)'s
house-trespass inside 329(2)), a stemmer that reads "delivery" and "deliver" as two words, a sentence that repeats
a definition's words and names one aggravated form (316(3)'s carrier: it must then carry the definition's
punishment, 316(2)'s five years, too, so the true seven years is removed), and clause lists the layout misreads
(BNSS 35(1), CrPC 41(1)). Re-attribution adds none of these: each passes or fails the same with it on
and off.

Sections named inside a verified quote are checked by the quote. The exact abstention sentence
(:data:`~legal_rag.generate.abstain.NOT_IN_SOURCES`) is kept as is, and so is every sentence of a draft that
abstained (written by :mod:`legal_rag.generate.abstain`, not a model: "... Please check the citation.").
Nothing that fails is shipped silently: with ``on_unsupported="remove"`` it leaves the text and is listed in
``removed`` and ``problems``; with ``"mark"`` it stays, followed by ``⟨unsupported: reasons⟩``, and its
citations say ``support="unsupported"``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .cite import Cited, cite, quotes_in
from .generate.abstain import NOT_IN_SOURCES
from .injection import without_instructions
from .generate.prompt import passage_label
from .text import MARKER, content_terms, normalise, numbers_in, punishment_terms
from .errors import ConfigError, CorpusError
from .law import FoundRef, find_refs, load_concordance
from .law.refs import find_refs_within, quote_regions
from .law.scope import GENERIC_WORDS, about, longest_run, parts, printed_for, punishing
from .types import ACT_TITLES, ACTS, NEW_ACTS, OLD_ACTS, Answer, Chunk, Draft, Hit, StatuteRef, SupersessionFlag

Equivalents = Callable[[StatuteRef], "set[StatuteRef] | frozenset[StatuteRef]"]
#: ``sections(act, section)`` -> every chunk of that section in the index (``ChunkStore.by_ref``)
Sections = Callable[[str, str], Sequence["Chunk"]]
MIN_OVERLAP = 0.5

def stated_refs(text: str) -> tuple[FoundRef, ...]:
    """The sections (and Articles) ``text`` states, read by the project's citation grammar (:func:`legal_rag.law.
    find_refs`). ``FoundRef.act`` is the Act named (``"OTHER"`` for another Act), or ``None`` when none is: an
    ambiguous number ("section 318") is checked against any Act."""
    return find_refs(text)


def _support_text(hit: Hit) -> str:
    c = hit.chunk
    act = ACT_TITLES.get(c.ref.act, "") if c.ref is not None else ""
    return f"{passage_label(c)} {act} {c.title}\n{without_instructions(c.text)}"


def _quote_ok(quote: str, texts: Sequence[str]) -> bool:
    frags = [normalise(f).strip(" .,;:") for f in re.split(r"…|\.\.\.", quote)]
    frags = [f for f in frags if f]
    for text in texts:
        flat, pos = normalise(text), 0
        for f in frags:
            i = flat.find(f, pos)
            if i < 0:
                break
            pos = i + len(f)
        else:
            return True
    return False


def _ref_ok(st: FoundRef, cited: Sequence[Hit], texts: Sequence[str], equivalents: Equivalents) -> bool:
    for hit, text in zip(cited, texts):
        ref = hit.chunk.ref
        if ref is None:  # a judgment: the section must be one the passage itself mentions
            if any(r.section == st.section and r.kind == st.kind and (st.act is None or r.act in (None, st.act))
                   for r in stated_refs(text)):
                return True
            continue
        if st.kind == "article":  # a statute passage never states an Article of the Constitution
            continue
        if st.section == ref.section and st.act in (None, ref.act):
            # the sub-section is printed in the passage, or the passage begins inside it (chunk meta ``open``,
            # read at ingest from the printed section: legal_rag.law.pinpoint.open_state)
            opens = dict(hit.chunk.meta).get("open", "").partition(",")[0]
            if not st.sub or st.sub[:1] == ref.sub[:1] or (not ref.sub and (f"({st.sub[0]})" in text
                                                                            or st.sub[0] == opens)):
                return True
        for eq in {*equivalents(ref.base), *equivalents(ref)}:
            if eq.section == st.section and st.act in (None, eq.act):
                return True
        if _cross_ref(st, ref.act, text):
            return True
    return False


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


def answer_refs(text: str, passages: Sequence[Hit]) -> tuple[FoundRef, ...]:
    """The sections an answer ``text`` states (for supersession flags), with every quote read as the passage it
    quotes reads it: inside a quote of a sentence that cites statute passages of one Act only, an unqualified
    "section 306" is that Act's (:func:`legal_rag.law.refs.find_refs_within`), so a cross-reference inside a quoted
    section never raises a "names no Act" flag; a reference qualified by another Act stays that Act's. Outside
    quotes (and in quotes of judgments or of passages of several Acts) the citation grammar reads as usual."""
    regions = []
    for s in cite(text, passages).sentences:
        acts = {passages[n - 1].chunk.ref.act if passages[n - 1].chunk.ref is not None else None for n in s.markers}
        if len(acts) != 1 or not acts <= set(ACTS):
            continue
        act = next(iter(acts))
        regions += [(s.start + a, s.start + b, act) for a, b in quote_regions(s.text)]
    return find_refs_within(text, regions)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``[start, end)`` spans sorted, overlapping ones merged (the refs of one list share their run)."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out


def check_claim(claim: str, cited: Sequence[Hit], equivalents: Equivalents,
                min_overlap: float = MIN_OVERLAP, sections: Sections | None = None) -> tuple[str, ...]:
    """Reasons why ``claim`` (a sentence without markers) is not supported by the ``cited`` passages;
    ``()`` when it is. ``sections(act, section)``: every chunk of a section (the index's), from which the part
    a claim is about is read (:mod:`legal_rag.law.scope`); default: the cited chunks alone."""
    texts = [_support_text(h) for h in cited]
    reasons: list[str] = []
    quotes = quotes_in(claim)
    good_quotes = []
    for q in quotes:
        if _quote_ok(q, texts):
            good_quotes.append(q)
        else:
            reasons.append(f"quote not in the cited text: \u201c{q[:60]}\u201d")
    # the whole quote, nested quotes included ("“Explanation.— ... “dowry” shall have the same meaning as in
    # section 2 of the Dowry Prohibition Act, 1961.”"): the sections it names are checked by the quote (BNS 80)
    quoted = list(quote_regions(claim))
    refs = [r for r in stated_refs(claim) if not any(a <= r.span[0] < b for a, b in quoted)]
    for r in refs:
        if not _ref_ok(r, cited, texts, equivalents):
            what = f"Article {r.section}" if r.kind == "article" else \
                f"section {(r.act + ' ') if r.act and r.act != 'OTHER' else ''}{r.section}"
            reasons.append(f"{what}{''.join(f'({s})' for s in r.sub)}{f' of the {r.act_text}' if r.act == 'OTHER' else ''}"
                           f" is not the cited passage's")
    have = frozenset().union(*(punishment_terms(t) for t in texts))
    missing = sorted(punishment_terms(claim) - have)
    if missing:
        reasons.append("punishment not in the cited text: " + ", ".join(missing))
    reasons += _other_act_punishment(claim, refs, cited)
    bare = claim
    for a, b in reversed(_merged([*quoted, *(r.run_span for r in refs)])):
        bare = bare[:a] + " " + bare[b:]
    nums = numbers_in(bare) - {1} - frozenset().union(*(numbers_in(t) for t in texts))
    if nums:
        reasons.append("number not in the cited text: " + ", ".join(map(str, sorted(nums))))
    elif not missing:
        reasons += _scope_reasons(claim, bare, cited, equivalents, sections)
    reasons += _reversed_verdicts(claim, [t for h, t in zip(cited, texts) if h.chunk.kind == "statute"])
    words = content_terms(bare) + [t for q in good_quotes for t in content_terms(q)]
    if words:
        vocab = set().union(*(content_terms(t) for t in texts))
        share = sum(w in vocab for w in words) / len(words)
        if share < min_overlap:
            reasons.append(f"only {share:.0%} of its words occur in the cited text")
    return tuple(reasons)


#: a negative verdict as the Acts print it in Illustrations: "but it is not robbery, unless ...", "A has not
#: committed criminal breach of trust", "A is not guilty of theft"
_NOT_VERDICT = re.compile(r"\b(?:is|was|has|have)\s+not\s+(?:committed\s+|been\s+guilty\s+of\s+|guilty\s+of\s+)?"
                          r"(?:the\s+offence\s+of\s+|an?\s+)?([a-z][a-z\s-]{2,40}?)\s*(?=[,.;:]|\bunless\b|\bbut\b|"
                          r"\bif\b|\bas\b|$)", re.I)
#: a positive verdict ("... has committed theft", "This is extortion")
_VERDICT = re.compile(r"\b(?:is|was|has|have)\s+(?:committed\s+|been\s+guilty\s+of\s+|guilty\s+of\s+)"
                      r"(?:the\s+offence\s+of\s+|an?\s+)?([a-z][a-z\s-]{2,40}?)\s*(?=[,.;:]|\bunless\b|\bbut\b|$)",
                      re.I)
_NEGATION = re.compile(r"\b(?:not|no|never|nor|neither|cannot)\b|n't\b", re.I)
#: where one Illustration (or sub-section) of a statute passage begins: "(d) A obtains property ..."
_ITEM = re.compile(r"\n\s*\((?:[a-z]|\d+)\)\s")


def _reversed_verdicts(claim: str, texts: Sequence[str]) -> list[str]:
    """Check 6 (statute passages): a sentence without a negation that states, as an offence, what the passage it
    rests on says is **not** that offence. The passage's items (Illustrations "(a)", "(b)", sub-sections) that name
    the offence in a verdict are compared with the sentence; when the item sharing most of its words says "not"
    (BNS 309 Illustration (d): "This is extortion, and punishable as such; but it is not robbery, unless Z is put in
    fear of the instant death of his child") the sentence fails. A live 1.5B answer read that Illustration as "a
    person commits robbery if they ... send ten thousand rupees" and a word-overlap check verified it."""
    if _NEGATION.search(claim):
        return []
    mine = set(content_terms(claim))
    if not mine:
        return []
    out = []
    for text in texts:
        starts = [0, *(m.start() for m in _ITEM.finditer(text)), len(text)]
        items = [text[a:b] for a, b in zip(starts, starts[1:]) if text[a:b].strip()]
        verdicts = []  # (share of the sentence's words in the item, negative?, offence words, item)
        for item in items:
            terms = set(content_terms(item))
            share = len(mine & terms) / len(mine)
            flat = " ".join(item.lower().split())
            for rx, neg in ((_NOT_VERDICT, True), (_VERDICT, False)):
                for m in rx.finditer(item):
                    offence = set(content_terms(m.group(1))) - GENERIC_WORDS
                    phrase = " ".join(m.group(1).lower().split())
                    if neg and flat.count(phrase) > sum(" ".join(x.group(1).lower().split()) == phrase
                                                        for x in _NOT_VERDICT.finditer(item)):
                        continue  # the item also says it positively (BNS 303 Explanation 1: "is not the subject of
                        # theft; but it becomes capable of being the subject of theft as soon as it is severed")
                    if offence and offence <= mine:
                        verdicts.append((share, neg, m.group(1).strip(), item))
        if verdicts:
            share, neg, offence, item = max(verdicts, key=lambda v: (v[0], not v[1]))  # a tie: not reversed
            if neg and share >= 0.5:
                out.append(f"the cited passage says this is not {' '.join(offence.split())}: \u201c{' '.join(item.split())[:90]}\u201d")
    return out


def _other_act_punishment(claim: str, refs: Sequence[FoundRef], cited: Sequence[Hit]) -> list[str]:
    """A punishment stated for a section of an Act none of the cited passages is of ("Under section 304A of the IPC,
    ... five years" cited to BNS 106(1)): the old and new Acts print different punishments (IPC 304A: two years; BNS
    106(1): five years), so the terms cannot be checked against the successor's or predecessor's text. ``[]`` when
    the claim states no punishment or also names a section of a cited Act (then the terms are that section's)."""
    acts = {h.chunk.ref.act for h in cited if h.chunk.ref is not None}
    named = {r.act for r in refs if r.kind == "section" and r.act in ACTS}
    if not acts or not named or named & acts or not punishment_terms(claim):
        return []
    other = ", ".join(sorted(named))
    return [f"punishment stated for a section of the {other}, whose text is not cited"]


def _section_chunks(cited: Sequence[Hit], sections: Sections | None, claim: str = "") -> list[Chunk] | None:
    """The chunks of the one section the ``cited`` passages belong to (of passages of several sections, the one
    section ``claim`` names): the index's (``sections``), the cited ones among them when it has none, in chunk
    order; ``None`` when a cited passage is a judgment or no one section is left."""
    chunks = [h.chunk for h in cited]
    if not chunks or any(c.ref is None for c in chunks):
        return None
    if len({(c.ref.act, c.ref.section) for c in chunks}) > 1 and claim:
        # passages of several sections cited: the section the claim names is the one whose part it describes
        named = [st for st in stated_refs(claim) if st.kind == "section"]
        chunks = [c for c in chunks if any(st.section == c.ref.section and st.act in (None, c.ref.act) for st in named)]
    if not chunks or len({(c.ref.act, c.ref.section) for c in chunks}) != 1:
        return None
    ref = chunks[0].ref
    whole = list(sections(ref.act, ref.section)) if sections is not None else []
    if not {c.id for c in chunks} <= {c.id for c in whole}:
        whole = chunks  # an index that does not hold the passages cited (a test's inline text): read them alone
    return sorted(whole, key=lambda c: (c.part, c.id))


def _scope(claim: str, cited: Sequence[Hit], equivalents: Equivalents, sections: Sections | None = None):
    """``(parts of the cited section, the parts the claim is about, the section's first chunk)``
    (:mod:`legal_rag.law.scope`) when every cited passage is a statute chunk of one section (or of the one the claim
    names); ``None`` otherwise. The parts are read from the whole section
    (``sections``) when given: which part a sentence describes is a property of the section, not of the chunk that
    happens to be cited (BNS 316's definition is in its first chunk, its punishments in the sixth). A sub-section
    the claim names (:func:`_claim_subs`) narrows the candidates to its provision parts when the section prints
    any; the claim is then about them all when its words tell none apart."""
    chunks = _section_chunks(cited, sections, claim)
    if chunks is None:
        return None
    ps = parts(chunks)
    named = _claim_subs(claim, chunks[0].ref, equivalents)
    narrowed = [p for p in ps if p.label and p.label[0] in named and p.kind == "provision"]
    if not narrowed:
        return ps, about(claim, ps), chunks[0]
    # a sub-section named is what the claim is about even when its words tell nothing ("Under sub-section (1) of
    # section 196, the punishment is ..."); words that describe another sub-section's offence make the claim about
    # that one too ("Under section 318(4), whoever cheats ...": simple cheating is 318(2))
    best = about(claim, narrowed) or tuple(narrowed)
    elsewhere = tuple(p for p in about(claim, ps) if p.kind == "provision" and p.sub not in named)
    return ps, best + elsewhere, chunks[0]


def _scope_reasons(claim: str, bare: str, cited: Sequence[Hit], equivalents: Equivalents,
                   sections: Sections | None) -> list[str]:
    """Rule 2 of the module docstring narrowed to the part of the section the claim is about: every punishment term
    ``bare`` (the claim without its verified quotes and section references) states must be printed for that part
    (:func:`legal_rag.law.scope.printed_for`), for each part it is equally about."""
    terms = punishment_terms(bare)
    found = _scope(claim, cited, equivalents, sections) if terms else None
    if found is None:
        return []
    ps, best, first = found
    reasons = []
    if not best:  # its words name no part: every part that prints a punishment must print what it states
        best = tuple(p for p in ps if p.kind == "provision" and p.terms)
    for part in best:
        gap = sorted(terms - printed_for(part, ps, first.title, claim))
        if gap:
            ref = first.ref
            where = f"{ref.act} {ref.section}" + "".join(f"({x})" if len(x) < 4 else f" {x}" for x in part.label if x)
            reasons.append(f"punishment not printed for the part it describes ({where}): " + ", ".join(gap))
    return reasons


@dataclass(frozen=True)
class SentenceCheck:
    """The verdict on one sentence: ``status`` is ``supported``, ``unsupported``, ``abstention``, ``empty`` or
    ``heading`` (a cited passage's heading, title or block label written as a sentence: dropped, never counted as a
    verified statement, :func:`is_heading`).
    ``moved_from``: the markers the generator wrote, when re-attribution moved them to ``markers``; else ``()``."""

    sentence: str
    markers: tuple[int, ...]
    status: str
    reasons: tuple[str, ...] = ()
    moved_from: tuple[int, ...] = ()


@dataclass(frozen=True)
class Verification:
    """``text`` is what ships; ``citations`` carry ``support``; ``removed`` lists sentences taken out."""

    text: str
    citations: tuple
    checks: tuple[SentenceCheck, ...]
    removed: tuple[SentenceCheck, ...] = ()
    problems: tuple[str, ...] = ()

    @property
    def supported_share(self) -> float:
        """Share of claim sentences (not abstentions or empty lines) that were supported; 1.0 when none."""
        claims = [c for c in self.checks if c.status in ("supported", "unsupported")]
        return sum(c.status == "supported" for c in claims) / len(claims) if claims else 1.0


def law_equivalents(corpus_path=None) -> Equivalents | None:
    """Official successors/predecessors from the BPR&D correspondence tables (:mod:`legal_rag.law`): only
    rows with status ``mapped`` count (a "New" provision or a table silence has no equivalent). ``None`` when
    the tables cannot be read (CorpusError: missing or malformed under ``corpus_path``; ConfigError: bad
    settings); :func:`verify` then says so in ``problems``."""
    try:
        conc = load_concordance(corpus_path)
    except (CorpusError, ConfigError):
        return None

    def equivalents(ref: StatuteRef) -> set[StatuteRef]:
        if ref.act not in OLD_ACTS and ref.act not in NEW_ACTS:
            return set()
        c = conc.query(ref)  # the act is one of the tables' six: query raises no RefError
        return set(c.targets) if c.status == "mapped" else set()

    return equivalents


#: the block labels of the Gazette prints (an Explanation, Illustration, Exception, proviso)
_BLOCK_WORDS = frozenset({"explanation", "explanations", "illustration", "illustrations", "exception",
                          "exceptions", "provided", "proviso"})


def is_heading(claim: str, cited: Sequence[Hit]) -> bool:
    """Whether ``claim`` (markers aside) is no statement but a heading copied from its cited passages: a block label
    of a statute passage ("Explanation."), or a cited judgment's or document's title or case name ("Dr. Sohail Malik
    v. Union of India & Anr."), compared word for word. A statute section's title is not: it may state a rule (BSA
    53 "Facts admitted need not be proved", BNSS 58 "Person arrested not to be detained more than twenty-four
    hours") and is checked as a statement. The 1.5B model wrote such lines as sentences and cited them;
    an overlap check would count "Explanation. [2]" as a verified statement. Applied to a model's draft only: the
    extractive answer heads each quoted passage with its label on purpose ("Commentary on the new codes [2]")."""
    words = " ".join(_words(MARKER.sub(" ", claim)))
    if not words:
        return False
    if words in _BLOCK_WORDS and any(h.chunk.kind == "statute" for h in cited):
        return True
    for h in cited:
        if h.chunk.kind == "statute":  # a section's title may state a rule ("Facts admitted need not be proved")
            continue
        for t in (h.chunk.title, h.chunk.case):
            if t and words == " ".join(_words(t)):
                return True
    return False


def _is_abstention(claim: str) -> bool:
    n = normalise(claim)
    return n.startswith(normalise(NOT_IN_SOURCES).rstrip(".")) or n.startswith("the indexed sources do not contain") \
        or n.startswith("no judgment titled")


def _claim_subs(claim: str, ref: StatuteRef, equivalents: Equivalents) -> set[str]:
    """The sub-sections of ``ref``'s section that ``claim`` names: "section 308(3)" of that Act or of none, or a
    section of another Act whose official successor/predecessor (BPR&D table) is a sub-section of it."""
    out = set()
    for st in stated_refs(claim):
        if st.kind != "section" or not st.section:
            continue
        if st.section == ref.section and st.act in (None, ref.act):
            out |= {st.sub[0]} if st.sub else set()
        elif st.act in ACTS and st.act != ref.act:
            out |= {e.sub[0] for e in equivalents(StatuteRef(st.act, st.section, tuple(st.sub)))
                    if (e.act, e.section) == (ref.act, ref.section) and e.sub}
    return out


#: a sentence naming no section moves to a passage of another section of the same Act only when one run of its
#: words, in order, covers at least this share of them there (a copy, not a paraphrase)
VERBATIM_SHARE = 0.8
#: ... and only when it has at least this many words
VERBATIM_MIN_WORDS = 8


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", normalise(text))


def verbatim_move(claim: str, markers: Sequence[int], passages: Sequence[Hit], equivalents: Equivalents,
                  min_overlap: float = MIN_OVERLAP, sections: Sections | None = None) -> tuple[int, ...]:
    """The marker of the one given statute passage of *another section of the same Act* that prints a sentence
    citing one statute passage (``markers``) word for word: the sentence names no section, has at least
    :data:`VERBATIM_MIN_WORDS` words, one run of which, in order, covers :data:`VERBATIM_SHARE` of them in that
    passage **and every content word** (only words such as "if", "the" may lie outside the run: a review moved
    "Whoever cheats shall be punished ... seven years" to BNS 305, which prints the same punishment clause for
    theft in a dwelling, and an Exception with its "not" dropped to BNS 101), and it passes every check there. ``()`` otherwise, or when two passages qualify. Why: a small model
    numbers its sentences [1], [2] ... in order: it quoted BNS 103(2) ("When a group of five or more persons
    acting in concert commits murder ...") word for word and cited [2], BNS 104. A paraphrase never moves across
    sections ("Cheating is punished with death" shares three words in a row with the murder section)."""
    if len(markers) != 1 or passages[markers[0] - 1].chunk.ref is None:
        return ()
    ref = passages[markers[0] - 1].chunk.ref
    words = _words(MARKER.sub(" ", claim))
    if len(words) < VERBATIM_MIN_WORDS or any(st.kind == "section" for st in stated_refs(claim)):
        return ()
    found = []
    for n, h in enumerate(passages, 1):
        r = h.chunk.ref
        if r is None or r.act != ref.act or r.section == ref.section:
            continue
        text = _words(_support_text(h))
        at, _, size = longest_run(words, text)
        outside = " ".join(words[:at] + words[at + size:])
        if size >= VERBATIM_SHARE * len(words) and not content_terms(outside) \
                and not check_claim(claim, [h], equivalents, min_overlap, sections):
            found.append(n)
    return (found[0],) if len(found) == 1 else ()


def reattributed(claim: str, markers: Sequence[int], passages: Sequence[Hit], equivalents: Equivalents,
                 min_overlap: float = MIN_OVERLAP, sections: Sections | None = None) -> tuple[int, ...]:
    """The markers (1-based, into ``passages``) to which a statute sentence citing one passage (``markers``) that
    does not support it moves (rule in the module docstring): the first other given chunk of the *same section*
    that supports it alone; else the given chunks that print the part it is about and the punishment printed for
    that part (:mod:`legal_rag.law.scope`); else all the section's given chunks, when it passes every check
    against them; else the passage of another section of the same Act that prints it word for word
    (:func:`verbatim_move`). ``()`` when it passes against none, states a punishment but names no part, cites
    several passages or a judgment."""
    return _same_section(claim, markers, passages, equivalents, min_overlap, sections) or \
        verbatim_move(claim, markers, passages, equivalents, min_overlap, sections)


def _same_section(claim: str, markers: Sequence[int], passages: Sequence[Hit], equivalents: Equivalents,
                  min_overlap: float, sections: Sections | None) -> tuple[int, ...]:
    if len(markers) != 1 or passages[markers[0] - 1].chunk.ref is None:
        return ()
    ref = passages[markers[0] - 1].chunk.ref
    first: dict[str, int] = {}
    for n, h in enumerate(passages, 1):
        if h.chunk.ref is not None and (h.chunk.ref.act, h.chunk.ref.section) == (ref.act, ref.section):
            first.setdefault(h.chunk.id, n)
    first.pop(passages[markers[0] - 1].chunk.id, None)
    if not first:
        return ()
    whole = [passages[markers[0] - 1], *(passages[n - 1] for n in first.values())]
    if check_claim(claim, whole, equivalents, min_overlap, sections):
        return ()
    ps, best, _ = _scope(claim, whole, equivalents, sections)
    states = punishment_terms(claim)
    if states and not best:  # nothing tells which part's punishment it states: never moved
        return ()
    for n in first.values():
        if not check_claim(claim, [passages[n - 1]], equivalents, min_overlap, sections):
            return (n,)
    title = whole[0].chunk.title
    need = {cid for p in best for q in ((p, *punishing(p, ps, title)) if states else (p,)) for cid in q.chunks}
    given = {passages[markers[0] - 1].chunk.id: markers[0], **first}
    narrow = tuple(sorted(n for cid, n in given.items() if cid in need))
    if narrow and not check_claim(claim, [passages[n - 1] for n in narrow], equivalents, min_overlap, sections):
        return narrow
    return tuple(sorted(given.values()))


def _remark(raw: str, markers: Sequence[int]) -> str:
    """Sentence ``raw`` with its markers replaced by one ``[a, b]`` where its last marker stood."""
    found = list(MARKER.finditer(raw))
    last = found[-1]
    out = raw[:last.start()] + "[" + ", ".join(map(str, markers)) + "]" + raw[last.end():]
    for m in reversed(found[:-1]):
        out = out[:m.start()] + out[m.end():]
    return out


def verify(draft: Draft, *, equivalents: Equivalents | None = None, on_unsupported: str = "remove",
           min_overlap: float = MIN_OVERLAP, reattribute: bool = False,
           sections: Sections | None = None) -> Verification:
    """Check ``draft`` sentence by sentence (see the module docstring) and build the text that ships.

    ``equivalents(ref)`` returns the official successors/predecessors of ``ref``; default: the law module's,
    or none (then only the cited passage's own section counts, and ``problems`` says so). ``reattribute``: move
    a failing sentence's marker to the chunks of its section that support it (module docstring). ``sections``:
    every chunk of a section (``ChunkStore.by_ref``), from which the part a sentence describes is read; default:
    the cited chunks alone.
    Raises ``ValueError`` for an unknown ``on_unsupported``.
    """
    if on_unsupported not in ("remove", "mark"):
        raise ValueError(f"on_unsupported must be 'remove' or 'mark', got {on_unsupported!r}")
    problems: list[str] = []
    if equivalents is None:
        equivalents = law_equivalents()
        if equivalents is None:
            problems.append("official correspondence tables unavailable: sections checked against the cited "
                            "passage only")
            equivalents = lambda ref: set()  # noqa: E731
    cited: Cited = cite(draft.text, draft.passages)
    problems += cited.problems
    if reattribute and not draft.abstained:
        moved = _moves(draft, cited, equivalents, min_overlap, sections)
        if moved:
            text = draft.text
            for k, new in sorted(moved.items(), reverse=True):
                s = cited.sentences[k]
                text = text[:s.start] + _remark(s.text, new) + text[s.end:]
                problems.append(f"citation moved from {list(s.markers)} to {list(new)} (the chunk that prints "
                                f"what it states): {s.claim[:80]!r}")
            draft = dataclasses.replace(draft, text=text)
            recited = cite(text, draft.passages)  # a marker is inside its sentence: the same sentences, in order
            ver = _checked(draft, recited, equivalents, min_overlap, problems, on_unsupported, sections)
            return dataclasses.replace(ver, checks=tuple(
                dataclasses.replace(c, moved_from=cited.sentences[k].markers if k in moved else ())
                for k, c in enumerate(ver.checks)))
    return _checked(draft, cited, equivalents, min_overlap, problems, on_unsupported, sections)


def _moves(draft: Draft, cited: Cited, equivalents: Equivalents, min_overlap: float,
           sections: Sections | None) -> dict[int, tuple[int, ...]]:
    """Index of each sentence that fails as cited and passes re-attributed -> its new markers."""
    out = {}
    for k, s in enumerate(cited.sentences):
        claim = s.claim
        if not s.markers or s.bad_markers or not re.search(r"\w\w", claim) or _is_abstention(claim):
            continue
        if check_claim(claim, [draft.passages[n - 1] for n in s.markers], equivalents, min_overlap, sections):
            new = reattributed(claim, s.markers, draft.passages, equivalents, min_overlap, sections)
            if new:
                out[k] = new
    return out


def _checked(draft: Draft, cited: Cited, equivalents: Equivalents, min_overlap: float, problems: list[str],
             on_unsupported: str, sections: Sections | None = None) -> Verification:
    checks: list[SentenceCheck] = []
    for s in cited.sentences:
        claim = s.claim
        if not re.search(r"\w\w", claim):
            checks.append(SentenceCheck(claim, s.markers, "empty"))
        elif draft.abstained or _is_abstention(claim):  # an abstained draft is our own message, every sentence
            checks.append(SentenceCheck(claim, s.markers, "abstention"))
        elif s.markers and "extractive" not in draft.generator and \
                is_heading(claim, [draft.passages[n - 1] for n in s.markers]):  # the extractive answer's own title lines
            checks.append(SentenceCheck(claim, s.markers, "heading"))
        elif not s.markers:
            why = "cites only passages not given" if s.bad_markers else "no [n] citation"
            checks.append(SentenceCheck(claim, (), "unsupported", (why,)))
        else:
            reasons = check_claim(claim, [draft.passages[n - 1] for n in s.markers], equivalents, min_overlap,
                                  sections)
            checks.append(SentenceCheck(claim, s.markers, "unsupported" if reasons else "supported", reasons))
    return _ship(draft, cited, checks, problems, on_unsupported)


def _ship(draft: Draft, cited: Cited, checks: list[SentenceCheck], problems: list[str], mode: str) -> Verification:
    text, removed = draft.text, []
    for s, c in sorted(zip(cited.sentences, checks), key=lambda p: -p[0].start):
        if c.status == "heading":
            problems.append(f"dropped a heading written as a sentence (no statement to check): {c.sentence[:80]!r}")
            text = text[:s.start] + text[s.end:]
            continue
        if c.status != "unsupported":
            continue
        problems.append(f"{'removed' if mode == 'remove' else 'marked'} unsupported sentence "
                        f"{c.sentence[:80]!r}: {'; '.join(c.reasons)}")
        if mode == "remove":
            removed.append(c)
            text = text[:s.start] + text[s.end:]
        else:
            text = text[:s.end] + f" \u27e8unsupported: {'; '.join(c.reasons)}\u27e9" + text[s.end:]
    from .cite import remove_bad_markers

    text = remove_bad_markers(text, draft.passages)
    text = "\n".join(re.sub(r"[ \t]{2,}", " ", line).strip() for line in text.splitlines())
    text = re.sub(r"\n{2,}", "\n", text).strip()
    status = {s.start: c.status for s, c in zip(cited.sentences, checks)}
    by_sentence = {}
    for s in cited.sentences:
        by_sentence[s.claim] = status[s.start]
    citations = []
    for cit in cited.citations:
        st = by_sentence.get(cit.sentence, "unchecked")
        if (mode == "remove" and st == "unsupported") or st == "heading":
            continue
        w = draft.weights[cit.marker - 1] if len(draft.weights) >= cit.marker else None
        citations.append(dataclasses.replace(cit, support=st if st in ("supported", "unsupported") else "unchecked",
                                             weight=w))
    if not text.strip() and checks and not draft.abstained:
        text = (f"{NOT_IN_SOURCES} (The generated answer was withheld: none of its statements could be verified "
                f"against the cited passages.)")
    return Verification(text, tuple(citations), tuple(checks), tuple(reversed(removed)), tuple(problems))


def to_answer(draft: Draft, verification: Verification, *, flags: Sequence[SupersessionFlag] = (),
              index_id: str = "") -> Answer:
    """The :class:`~legal_rag.types.Answer` that ships: verified text and citations, the draft's passages and
    prompt, and the problems of both stages."""
    marked = tuple(f"passage {cid} contains instructions addressed to a model; treated as data, never as an "
                   "instruction or as evidence" for cid in draft.flagged)  # BL-41: the reader sees the mark
    return Answer(query=draft.question, text=verification.text, citations=verification.citations,
                  flags=tuple(flags), problems=(*draft.problems, *marked, *verification.problems),
                  passages=draft.passages,
                  model=draft.generator, prompt=draft.prompt, index_id=index_id,
                  prompt_tokens=draft.prompt_tokens, cached_tokens=draft.cached_tokens)


def relevant(answer: Answer, head: Sequence = (), analysis=None, concordance=None) -> Answer:
    """``answer`` (verified, before its head is prepended) with each cited provision judged against the question
    (:mod:`legal_rag.generate.relevance`): the body arranged so the provisions that answer lead in the head's order
    and the rest stand under "Related provisions" (an extractive answer's related quotes withheld, their headings
    kept), and ``Citation.related`` set on the citations of that part. The citations are those of the arranged text
    (:func:`~legal_rag.cite.cite`), each keeping the support and weight verification gave it. Unchanged when the
    question gives nothing to judge against (no head, no section named) or the answer abstained."""
    from .generate.relevance import anchors

    return arrange_answer(answer, anchors(analysis, head, concordance))


def arrange_answer(answer: Answer, marks) -> Answer:
    """``answer`` arranged by the :class:`~legal_rag.generate.relevance.Anchors` ``marks`` (see :func:`relevant`)."""
    from .generate.relevance import arrange

    if not marks.refs or not answer.citations:
        return answer
    extractive = answer.model == "extractive" or answer.model.endswith("+extractive")
    arranged = arrange(answer.text, answer.passages, marks, extractive=extractive)
    if arranged.text == answer.text:
        return answer
    old = {(c.marker, c.sentence): c for c in answer.citations}
    cited = cite(arranged.text, answer.passages)
    citations, k = [], 0
    for s in cited.sentences:
        for c in cited.citations[k:k + len(s.markers)]:
            was = old.get((c.marker, c.sentence)) or next(
                (o for (m, t), o in old.items() if m == c.marker and c.sentence.startswith(t)), None)
            citations.append(dataclasses.replace(
                c, support=was.support if was else "unchecked", weight=was.weight if was else None,
                related=s.start >= arranged.related_from))
        k += len(s.markers)
    return dataclasses.replace(answer, text=arranged.text, citations=tuple(citations))
