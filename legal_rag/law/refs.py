"""Citation grammar: find statute references in free text and canonicalise them.

Examples (``find_refs`` returns :class:`FoundRef` objects; shown here as ``status ref``)::

    "u/s 498-A IPC"                          -> ok IPC 498A
    "sec 302/34 IPC"                         -> ok IPC 302, ok IPC 34
    "Sections 406 and 420 of the Indian Penal Code" -> ok IPC 406, ok IPC 420
    "318(4) BNS", "BNSS 482"                 -> ok BNS 318(4); ok BNSS 482
    "65-B of the Evidence Act"               -> ok IEA 65B
    "Bharatiya Nyaya Sanhita, 2023, s. 103(1)" -> ok BNS 103(1)
    "Sections 299 to 304 IPC"                -> ok IPC 299, 300, 301, 302, 303, 304 (304A/304B come after 304)
    "Section 302"                            -> ambiguous, readings IPC 302, CrPC 302, BNS 302, BNSS 302
    "420 BNS"                                -> invalid BNS 420 (the BNS ends at s.358)
    "Section 138 of the Negotiable Instruments Act" -> other_act OTHER 138 (act_text names the Act)
    "Article 21", "Art. 20(1)"               -> other_act OTHER 21, OTHER 20(1) (kind "article", Constitution of India)
    "sub-section (2) of section 196 of the BNS" -> ok BNS 196(2) ("clause (b) of sub-section (2) of ..." -> (2)(b))
    "Crl. A. No. 420 of 2019", "para 302"    -> nothing

Rules: a number is a reference when a section keyword (Section, Sec., s., ss., u/s, u/ss, §) precedes it or when
one of our six Acts is named right next to it ("302 IPC", "IPC 302", "379 of BNSS"). The Act named after a list
applies to the whole list ("Sections 148, 302 and 307/149 of the Indian Penal Code"); "/" and "read with" join
items. "the Code"/"the Act" resolve through a definition earlier in the same text ("Code of Criminal Procedure,
1973 (for short 'the Code')"), else the reference is ``unknown_act``. "Code of Criminal Procedure, 1898" is
another Act. A section exists when its number is within the Act (BNS 1-358, BNSS 1-531, BSA 1-170, IPC 1-511,
CrPC 1-484, IEA 1-167) and, if lettered, it is listed in :data:`legal_rag.law.sections.LETTERED` (the civictech
section lists plus the official correspondence pairs; CrPC 41A-41D are missing from civictech). Act names and their
connectives are read in any case ("SECTION 482 OF CR.P.C."). "Article 21" is an Article of the Constitution (status
``other_act``, ``kind="article"``), never a section of one of our Acts. Offsets are 0-based, half-open.

This is the project's only citation grammar: verify, cite, retrieve (section look-up), ingest (sections a judgment
cites), generate (sections that do not exist) and supersession all read sections through :func:`find_refs`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Literal, NamedTuple

from ..errors import RefError
from ..types import ACTS, StatuteRef

from .refs_patterns import (  # noqa: F401 (re-exported for tests)
    ACT_RE, ALIAS_RE, ART_RUN_RE, CONSTITUTION, GENERIC_WORDS, ITEM_RE, KW_RUN_RE, LIST, LEAD_ACT_RE, LIST_TAIL_RE,
    OTHER_RE, TRAIL_RE, act_of_match, is_blocked_before,
)
from .sections import LAST_SECTION, SectionSets, default_section_sets, load_section_sets  # noqa: F401 (re-exported)
from .sections import sec_key as _sec_key

Status = Literal["ok", "ambiguous", "invalid", "other_act", "unknown_act"]
OTHER_ACT = "OTHER"

@dataclass(frozen=True)
class FoundRef:
    """One section (or Article) number found in a text.

    ``ref`` is the canonical reference (``None`` when ambiguous or unknown); for ``other_act`` its act is
    ``"OTHER"`` and ``act_text`` names the Act as written. ``section`` and ``sub`` are the number as written,
    canonicalised ("498-A" -> "498A", "318(4)" -> "318", ("4",)), whatever the status. ``span`` is the
    ``[start, end)`` of the number itself ("318(4)"), ``run_span`` that of the whole citation ("Sections 316(2),
    318(4) of BNS"). ``readings`` lists, for an ambiguous number, the section in every Act where it exists.
    ``kind`` is ``"article"`` for an Article ("Article 21": ``other_act``, ``act_text`` "Constitution of India"
    unless another Act is named), else ``"section"``.
    """

    ref: StatuteRef | None
    span: tuple[int, int]
    text: str
    status: Status
    run_span: tuple[int, int] = (0, 0)
    act_text: str = ""
    readings: tuple[StatuteRef, ...] = ()
    note: str = ""
    section: str = ""
    sub: tuple[str, ...] = ()
    kind: Literal["section", "article"] = "section"

    @property
    def act(self) -> str | None:
        """The Act the text names for this number: ``ref.act`` (``"OTHER"`` for another Act), or ``None`` when it
        names none of ours (``ambiguous``; ``unknown_act``, "the Code" with no definition)."""
        return self.ref.act if self.ref is not None else None


class _Item(NamedTuple):
    n: str
    l: str | None
    subs: str | None
    start: int
    end: int
    raw: str
    is_range: bool


def _canon_section(num: str, letters: str | None) -> str:
    if num == "304" and letters in ("I", "II"):  # "304-I", "304-II": Part I/II of IPC s.304, not a lettered section
        return "304"
    return num.lstrip("0") + (letters or "").upper()


def _subs(text: str | None) -> tuple[str, ...]:
    return tuple(s.strip() for s in re.findall(r"\(\s*([^()\s]+)\s*\)", text or ""))


_AFTER_ACT_RE = re.compile(r"\s*,?\s*(?P<list>" + LIST + r")")
_ALIAS_ACT_RE = re.compile(r"(?:" + ACT_RE.pattern + r")(?:\s*,?\s*[0-9]{4})?\s*,?\s*\Z")
_ALIAS_OTHER_RE = re.compile(r"(?P<o>" + OTHER_RE.pattern + r")\s*,?\s*\Z")


def _aliases(text: str) -> list[tuple[int, str, str, str]]:
    """Definitions like 'Code of Criminal Procedure, 1973 (for short "the Code")'.

    Returns (position, alias word, act code or "OTHER", act as written), in order of position.
    """
    out = []
    for m in ALIAS_RE.finditer(text):
        lo = max(0, m.start() - 120)
        am = _ALIAS_ACT_RE.search(text, lo, m.start())
        word = m.group("alias").lower().split()[-1]
        if am:
            out.append((m.start(), word, act_of_match(am), am.group(0).strip(" ,")))
            continue
        om = _ALIAS_OTHER_RE.search(text, lo, m.start())
        if om:
            out.append((m.start(), word, OTHER_ACT, om.group("o").strip()))
    return out


def find_refs(text: str, *, default_act: str | None = None, sections: SectionSets | None = None) -> tuple[FoundRef, ...]:
    """Every section reference in ``text``, in order of position.

    ``default_act`` (e.g. "BNS" inside the BNS's own text) is used for a number whose Act is not named instead
    of reporting it as ambiguous. ``sections`` defaults to :func:`default_section_sets`.
    """
    sets = sections or default_section_sets()
    if default_act is not None and default_act not in ACTS:
        raise RefError(f"unknown default_act {default_act!r}; expected one of {', '.join(ACTS)}")
    aliases = _aliases(text) if ALIAS_RE.search(text) else []
    found: list[FoundRef] = []
    taken: list[tuple[int, int]] = []

    def resolve(start: int, end: int) -> tuple[str | None, str, int]:
        """Act bound to a run ending at ``end`` (trailing) or starting at ``start`` (leading): (act, as written, end)."""
        tm = TRAIL_RE.match(text, end)
        if tm and tm.group("act"):
            act = act_of_match(tm, year=tm.group("year"))
            return act, (re.sub(r"^[\s,(]*(?:(?:of|under|in)\s+)?(?:the\s+)?", "", tm.group(0)) if act == OTHER_ACT else tm.group("act")), tm.end()
        if tm and tm.group("other"):
            return OTHER_ACT, tm.group("other").strip(), tm.end()
        if tm and tm.group("generic") and tm.group("the"):
            word = tm.group("generic").lower()
            hits = [a for a in aliases if a[0] < start and a[1] == word]
            if hits:
                return hits[-1][2], hits[-1][3], tm.end()
            return "?", re.sub(r"^[\s,(]*(?:(?:of|under|in)\s+)?", "", tm.group(0)), tm.end()
        lm = LEAD_ACT_RE.search(text, max(0, start - 80), start)
        if lm:
            return act_of_match(lm, year=lm.group("lyear")), lm.group("lact"), end
        return None, "", end

    def emit(run_start: int, run_end: int, items: list[_Item], act: str | None, act_text: str,
             kind: Literal["section", "article"] = "section") -> None:
        prev: str | None = None
        run = (run_start, run_end)
        for it in items:
            sec, sub = _canon_section(it.n, it.l), _subs(it.subs)
            span, raw = (it.start, it.start + len(it.raw)), it.raw
            if it.is_range and prev is not None and act in LAST_SECTION:
                for s in sets.between(act, prev, sec)[1:]:
                    found.append(FoundRef(StatuteRef(act, s), span, raw, "ok", run, act_text,
                                          note=f"in range {prev} to {sec}", section=s))
                prev = sec
                continue
            prev = sec
            if act == OTHER_ACT:
                note = f"Article {sec}{''.join(f'({x})' for x in sub)} of the {act_text}" if kind == "article" else ""
                found.append(FoundRef(StatuteRef(OTHER_ACT, sec, sub), span, raw, "other_act", run, act_text,
                                      note=note, section=sec, sub=sub, kind=kind))
            elif act == "?":
                found.append(FoundRef(None, span, raw, "unknown_act", run, act_text, section=sec, sub=sub,
                                      note=f"the Act is named only as {act_text!r}, with no definition earlier in the text"))
            elif act is None:
                if default_act:
                    st = "ok" if sets.exists(default_act, sec) else "invalid"
                    found.append(FoundRef(StatuteRef(default_act, sec, sub), span, raw, st, run, "", section=sec, sub=sub))
                    continue
                readings = tuple(StatuteRef(a, sec, sub) for a in ACTS if sets.exists(a, sec))
                found.append(FoundRef(None, span, raw, "ambiguous", run, "", readings, section=sec, sub=sub,
                                      note="no Act named next to the section; each reading is listed"))
            else:
                ok = sets.exists(act, sec)
                note = "" if ok else (f"{act} has no section {sec} (its last section is {LAST_SECTION[act]})"
                                      if _sec_key(sec)[0] > LAST_SECTION[act] or not _sec_key(sec)[1]
                                      else f"{act} has no section {sec}")
                found.append(FoundRef(StatuteRef(act, sec, sub), span, raw, "ok" if ok else "invalid", run, act_text,
                                      note=note, section=sec, sub=sub))

    def items_of(run: str, base: int) -> list[_Item]:
        out = []
        for im in ITEM_RE.finditer(run):
            start, end = base + im.start("n"), base + im.end()
            out.append(_Item(im.group("n"), im.group("l"), im.group("subs"), start, end, text[start:end].rstrip(), bool(im.group("range"))))
        return out

    # (a) keyword runs: "Section(s) 316(2), 318(4) of BNS", "u/s 498-A"
    for km in KW_RUN_RE.finditer(text):
        if is_blocked_before(text, km.start(), keyword=True):
            continue
        run = km.group("list")
        act, act_text, end = resolve(km.start(), km.end())
        emit(km.start(), end, items_of(run, km.start("list")), act, act_text)
        taken.append((km.start(), end))

    # (a') Articles: of the Constitution unless another Act is named ("Article 137 of the Limitation Act")
    for km in ART_RUN_RE.finditer(text):
        tm = TRAIL_RE.match(text, km.end())
        other = tm.group("other").strip() if tm and tm.group("other") else ""
        if other and not other.startswith("Constitution"):
            emit(km.start(), tm.end(), items_of(km.group("list"), km.start("list")), OTHER_ACT, other, "article")
        else:
            end = tm.end() if other else km.end()
            emit(km.start(), end, items_of(km.group("list"), km.start("list")), OTHER_ACT, CONSTITUTION, "article")
        taken.append((km.start(), km.end()))

    # (b) runs without a keyword but with one of our Acts right next to them: "318(4) BNS", "BNSS 482"
    for am in ACT_RE.finditer(text):
        if any(s <= am.start() < e for s, e in taken):
            continue
        act = act_of_match(am)
        if act == "IPC" and not am.group(0).lower().startswith(("indian", "i")) and \
                re.search(r"[A-Z][a-z]+\s+\Z", text[max(0, am.start() - 20):am.start()]):
            continue  # "Ranbir Penal Code", "Pakistan Penal Code"
        window_start = max(0, am.start() - 160)
        lm = LIST_TAIL_RE.search(text, window_start, am.start())
        if lm and lm.end() == am.start() and not is_blocked_before(text, lm.start()) \
                and not any(s <= lm.start() < e for s, e in taken):
            tm = TRAIL_RE.match(text, lm.start("list") + len(lm.group("list")))
            end = tm.end() if tm else am.end()
            emit(lm.start(), end, items_of(lm.group("list"), lm.start("list")), act, am.group(0))
            taken.append((lm.start(), end))
            continue
        nm = _AFTER_ACT_RE.match(text, am.end())
        if nm and not re.match(r"\s*,?\s*[0-9]{4}\b", text[am.end():am.end() + 8]):
            # "BNS 318(4), read with section 498-A of the IPC": the keyword run read in (a) keeps its own Act
            items = [it for it in items_of(nm.group("list"), nm.start("list")) if not any(s <= it.start < e for s, e in taken)]
            emit(am.start(), nm.end(), items, act, am.group(0))
            taken.append((am.start(), nm.end()))
    found = [_with_lead_sub(text, f) for f in found]
    found.sort(key=lambda f: (f.span[0], str(f.ref)))
    return tuple(found)


#: "sub-section (2) of section 196", "clause (b) of sub-section (2) of section 61": the way the Acts themselves cite
#: a sub-section (BNS 196(2): "Whoever commits an offence specified in sub-section (1) ...")
_LEAD_SUB_RE = re.compile(r"(?:\bclause\s*\(\s*(?P<clause>[a-z]{1,4})\s*\)\s*of\s+)?\bsub-?\s?section\s*"
                          r"\(\s*(?P<sub>\d{1,3}[A-Z]{0,2})\s*\)\s*of\s+(?:the\s+)?\Z", re.I)


def _with_lead_sub(text: str, f: FoundRef) -> FoundRef:
    """``f`` with the sub-section (and clause) written before its run ("sub-section (2) of section 196") when the
    run names one section without a sub-section of its own; the run then starts at "sub-section"."""
    if f.sub or f.kind != "section":
        return f
    m = _LEAD_SUB_RE.search(text, max(0, f.run_span[0] - 60), f.run_span[0])
    if not m or f.span[0] - f.run_span[0] > 12:  # the section keyword right before the number, nothing listed
        return f
    sub = (m.group("sub"),) + ((m.group("clause").lower(),) if m.group("clause") else ())
    ref = replace(f.ref, sub=sub) if f.ref is not None else None
    readings = tuple(replace(r, sub=sub) for r in f.readings)
    return replace(f, ref=ref, sub=sub, readings=readings, run_span=(m.start(), f.run_span[1]))


def parse_ref(text: str, *, sections: SectionSets | None = None) -> FoundRef:
    """Parse one reference such as a lookup query: "IPC 420", "s. 420 IPC", "BNS 318(4)", "302".

    A bare number ("302") is ``ambiguous`` with its readings. Raises RefError when no reference is found.

    >>> parse_ref("u/s 498-A IPC").ref
    StatuteRef(act='IPC', section='498A', sub=())
    """
    sets = sections or default_section_sets()
    hits = find_refs(text, sections=sets)
    if hits:
        return hits[0]
    m = re.fullmatch(r"\s*(?P<n>[0-9]{1,3})\s*(?:-\s*)?(?P<l>[A-Za-z]{1,2})?(?P<subs>(?:\s*\(\s*\w{1,4}\s*\))*)\s*\??\s*", text)
    if not m:
        raise RefError(f"no statute reference found in {text!r}")
    sec, sub = _canon_section(m.group("n"), m.group("l")), _subs(m.group("subs"))
    readings = tuple(StatuteRef(a, sec, sub) for a in ACTS if sets.exists(a, sec))
    return FoundRef(None, (m.start("n"), m.end()), text.strip(), "ambiguous", (0, len(text)), "", readings,
                    note="no Act named; each reading is listed", section=sec, sub=sub)


def refs_of(found: Iterable[FoundRef], *, acts: Iterable[str] = ACTS) -> tuple[StatuteRef, ...]:
    """The distinct canonical refs with status ``ok`` whose act is in ``acts``, in order of first appearance."""
    wanted, seen, out = set(acts), set(), []
    for f in found:
        if f.status == "ok" and f.ref is not None and f.ref.act in wanted and f.ref not in seen:
            seen.add(f.ref)
            out.append(f.ref)
    return tuple(out)


_OPEN, _CLOSE = "\u201c\u2018", "\u201d\u2019"


def quote_regions(text: str) -> tuple[tuple[int, int], ...]:
    """The outermost quoted regions of ``text`` as ``[start, end)`` (the quote marks included): curly double quotes
    nest (``“(1) ... called “dowry death”, ...”`` is one region, not two), straight double quotes open and close in
    turn inside an unquoted stretch. An unclosed quote is no region (what follows it is not taken as quoted, so a
    stray quote mark cannot hide a section from the verifier). Single quotes are not read (an apostrophe is not a
    quote)."""
    out: list[tuple[int, int]] = []
    depth, start, straight = 0, 0, False
    for i, ch in enumerate(text):
        if ch == "\u201c":
            if depth == 0 and not straight:
                start = i
            depth += 1
        elif ch == "\u201d" and depth:
            depth -= 1
            if depth == 0 and not straight:
                out.append((start, i + 1))
        elif ch == '"' and depth == 0:
            if straight:
                out.append((start, i + 1))
            else:
                start = i
            straight = not straight
    return tuple(out)


def find_refs_within(text: str, regions: Iterable[tuple[int, int, str]], *,
                     sections: SectionSets | None = None) -> tuple[FoundRef, ...]:
    """:func:`find_refs` of ``text``, where each ``(start, end, act)`` region is a passage of ``act`` quoted in it
    (a section of the BNS quoted in an answer): inside a region the references are read as that passage reads them
    (``find_refs(region, default_act=act)``), so an unqualified "section 64" quoted from BNS 66 is BNS 64, not an
    ambiguous number, while a reference qualified by another Act ("section 2 of the Dowry Prohibition Act, 1961")
    stays that Act's (``other_act``). Spans are offsets in ``text``; refs outside every region are
    :func:`find_refs`'s. Raises :class:`RefError` for an ``act`` not among the six."""
    regions = sorted((a, b, act) for a, b, act in regions if b > a)
    outside = [f for f in find_refs(text, sections=sections)
               if not any(a <= f.span[0] < b for a, b, _ in regions)]
    inside: list[FoundRef] = []
    for a, b, act in regions:
        for f in find_refs(text[a:b], default_act=act, sections=sections):
            inside.append(replace(f, span=(f.span[0] + a, f.span[1] + a),
                                  run_span=(f.run_span[0] + a, f.run_span[1] + a)))
    return tuple(sorted([*outside, *inside], key=lambda f: (f.span[0], str(f.ref))))
