"""Courts and years: which court a judgment's header names, and the court and years a judgment question asks for.
Pure; the one place both are read.

``COURTS`` is the one table of court names: each :class:`Court` with its level and the words that name it, in a
judgment's header as the sources print it ("Supreme Court of India", "High Court of Delhi", "Delhi High Court -
Orders", "Calcutta High Court (Appellete Side)", "Rajasthan High Court - Jodhpur") or in a question ("SC", "apex
court", "Delhi HC", "the Bombay High Court", "a High Court"). The High Courts are the 25 of the Constitution's
Article 214 as now constituted, each named by its seat or State ("High Court of Judicature at Allahabad", "Orissa" or
"Odisha"). Two entries are levels, not one court: ``High Court`` (any High Court) and ``District Court`` (any
district or sessions court); a question naming one asks for every court of that level.

* ``court_named(text) -> Court | None``: the first entry of :data:`COURTS` whose words ``text`` holds (specific
  courts before the levels, so "Delhi High Court" is Delhi's, not any High Court's);
  ``court_named("High Court of Delhi").name -> "Delhi High Court"``;
* ``same_court(asked, court) -> bool``: whether a judgment of ``court`` (its header's words) is of the court
  ``asked`` (a name of the table, a level, or any spelling the table reads); spellings the table does not read
  are compared as written, ignoring case, dots and spacing;
* ``read_constraint(question) -> JudgmentConstraint``: the court (one; two different courts named constrain
  nothing and ``note`` says so) named as the court deciding -- beside a judgment word ("High Court decisions",
  "orders of the Delhi HC", "what did the Supreme Court hold"; :data:`JUDGMENT_WORDS`), not as the subject of what
  was held ("held that the High Court cannot ...") -- and the years the question asks for: "in 2025", "a 2025 ...
  order", "since 2024", "from 2024 onwards", "after 2023" (from 2024), "before 2024" (to 2023), "until 2024",
  "between 2023 and 2025", "2023-2025". Four digits that are no year of a judgment are not read: a date ("5 March 2025", "March 2025": the
  one date grammar, :func:`legal_rag.law.dates.read_dates`), a citation's year ("[2020] 7 SCR 150", "2024 INSC
  363", "(2014) 1 SCC 1", "AIR 1980 SC 1789"), an Act's year ("Bharatiya Nyaya Sanhita, 2023") and a case or FIR
  number's ("Crl. A. No. 123 of 2024", "FIR 45/2024").

Examples::

    read_constraint("any High Court decisions under BNSS 482 in 2025?")
        -> JudgmentConstraint(court="High Court", year_from=2025, year_to=2025, said=("High Court", "in 2025"))
    read_constraint("Delhi High Court judgments since 2024 on BNSS 483").describe()
        -> "of the Delhi High Court, decided from 2024 on"
    read_constraint("cases on section 103 of the Bharatiya Nyaya Sanhita, 2023")  -> JudgmentConstraint()
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from .dates import read_dates

Level = Literal["supreme", "high", "district"]


@dataclass(frozen=True)
class Court:
    """One entry of :data:`COURTS`: ``name`` as answers say it, ``level``, ``words`` (a regular expression,
    case-insensitive; abbreviations inside ``(?-i:...)``), ``any_of_level`` for an entry that stands for every
    court of its level ("High Court")."""

    name: str
    level: Level
    words: str
    any_of_level: bool = False


def _high(name: str, place: str) -> Court:
    """A High Court named by its seat or State ``place``: "<place> High Court", "High Court of [Judicature at]
    <place>", "High Court for the State of <place>", "<place> HC"."""
    return Court(name, "high", rf"\b(?:{place})\s+high\s+court\b|"
                               rf"\bhigh\s+court\s+(?:of|for|at)\s+(?:the\s+state\s+of\s+)?"
                               rf"(?:judicature\s+(?:at|for)\s+)?(?:{place})\b|\b(?:{place})\s+(?-i:HC)\b")


#: the one table of court names (module docstring); specific courts first, the levels last
COURTS: tuple[Court, ...] = (
    Court("Supreme Court of India", "supreme",
          r"\bsupreme\s+court\b(?!\s+of\s+(?!india\b)[a-z])|\bapex\s+court\b|\btop\s+court\b|"
          r"(?<!\d\s)(?<!\d)(?-i:\bSCI?\b)(?!\s*/\s*ST)(?!\s+\d)"),
    _high("Allahabad High Court", r"allahabad|lucknow\s+bench"),
    _high("Andhra Pradesh High Court", r"andhra\s+pradesh|andhra"),
    _high("Bombay High Court", r"bombay|mumbai"),
    _high("Calcutta High Court", r"calcutta|kolkata"),
    _high("Chhattisgarh High Court", r"chh?att?isgarh"),
    _high("Delhi High Court", r"delhi"),
    _high("Gauhati High Court", r"gauhati|guwahati"),
    _high("Gujarat High Court", r"gujarat"),
    _high("Himachal Pradesh High Court", r"himachal\s+pradesh|himachal"),
    _high("Jammu & Kashmir and Ladakh High Court", r"jammu\s*(?:&|and)\s*kashmir(?:\s+and\s+ladakh)?|j\s*&\s*k"),
    _high("Jharkhand High Court", r"jharkhand"),
    _high("Karnataka High Court", r"karnataka"),
    _high("Kerala High Court", r"kerala"),
    _high("Madhya Pradesh High Court", r"madhya\s+pradesh|m\.\s*p\."),
    _high("Madras High Court", r"madras|chennai"),
    _high("Manipur High Court", r"manipur"),
    _high("Meghalaya High Court", r"meghalaya"),
    _high("Orissa High Court", r"orissa|odisha"),
    _high("Patna High Court", r"patna"),
    _high("Punjab and Haryana High Court", r"punjab\s*(?:&|and|-)\s*haryana|p\s*&\s*h"),
    _high("Rajasthan High Court", r"rajasthan"),
    _high("Sikkim High Court", r"sikkim"),
    _high("Telangana High Court", r"telangana"),
    _high("Tripura High Court", r"tripura"),
    _high("Uttarakhand High Court", r"uttarakhand|uttaranchal"),
    Court("High Court", "high", r"\bhigh\s+courts?\b|(?-i:\bHCs?\b)", any_of_level=True),
    Court("District Court", "district", r"\b(?:district|sessions)\s+courts?\b|\bcourt\s+of\s+(?:the\s+)?"
                                        r"(?:additional\s+)?sessions\s+judge\b", any_of_level=True),
)
_COMPILED = tuple((c, re.compile(c.words, re.I)) for c in COURTS)
BY_NAME: dict[str, Court] = {c.name: c for c in COURTS}


@lru_cache(maxsize=4096)
def court_named(text: str) -> Court | None:
    """The court ``text`` names (module docstring), ``None`` when the table reads none."""
    return next((c for c, rx in _COMPILED if rx.search(text or "")), None)


def _fold(text: str) -> str:
    return " ".join((text or "").casefold().replace(".", " ").split())


def same_court(asked: str, court: str) -> bool:
    """Whether a judgment whose header names ``court`` is of the court ``asked`` (module docstring).

    >>> same_court("Delhi High Court", "High Court of Delhi"), same_court("High Court", "Allahabad High Court")
    (True, True)
    >>> same_court("Supreme Court of India", "Delhi High Court - Orders"), same_court("Narnia Court", "narnia court.")
    (False, True)
    >>> same_court("Delhi District Court", "Bangalore District Court")
    False
    >>> same_court("District Court", "Bangalore District Court")
    True"""
    if _fold(asked) == _fold(court):
        return True
    want = BY_NAME.get(asked) or court_named(asked)
    if want is None:
        return False
    if want.any_of_level and not re.fullmatch(rf"\W*(?:(?:the|a|any|all)\s+)?(?:{want.words})\W*", asked, re.I):
        return False  # one court of a level ("Delhi District Court") is that court, not its whole level
    got = court_named(court)
    if got is None:
        return False
    return got.level == want.level if want.any_of_level else got.name == want.name


@dataclass(frozen=True)
class JudgmentConstraint:
    """The court and years a judgment question asks for (module docstring). ``court``: a name of :data:`COURTS`
    (``None``: any court); ``year_from`` / ``year_to``: inclusive bounds (``None``: open); ``said``: the words
    read, as written, in text order; ``spans``: their ``[start, end)`` in the question (0-based, half-open);
    ``orders``: the question asks for orders (a word, never a constraint: orders and judgments are listed alike,
    each said as what it is); ``note``: a reading not applied, said to the reader ("" when none)."""

    court: str | None = None
    year_from: int | None = None
    year_to: int | None = None
    said: tuple[str, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()
    orders: bool = False
    note: str = ""

    def __bool__(self) -> bool:
        """Whether a court or a year is asked for."""
        return self.court is not None or self.year_from is not None or self.year_to is not None

    def describe(self) -> str:
        """``"of the Delhi High Court, decided from 2024 on"``, ``"of a High Court, decided in 2025"``, ``"decided
        in 2023-2025"``, ``"decided up to 2023"``; ``""`` for no constraint."""
        parts = []
        if self.court is not None:
            court = BY_NAME.get(self.court)
            parts.append(f"of a {self.court}" if court is not None and court.any_of_level else f"of the {self.court}")
        lo, hi = self.year_from, self.year_to
        if lo is not None and lo == hi:
            parts.append(f"decided in {lo}")
        elif lo is not None and hi is not None:
            parts.append(f"decided in {lo}-{hi}")
        elif lo is not None:
            parts.append(f"decided from {lo} on")
        elif hi is not None:
            parts.append(f"decided up to {hi}")
        return ", ".join(parts)

    def quoted(self) -> str:
        """The words read, quoted for a notice: ``'"Delhi High Court", "since 2024"'``."""
        return ", ".join(f"\u201c{s}\u201d" for s in self.said)

    def strip(self, text: str) -> str:
        """``text`` (the question read) without the words read, spaces collapsed."""
        for a, b in sorted(self.spans, reverse=True):
            text = text[:a] + " " + text[b:]
        return " ".join(text.split())


_YEAR = r"(?:19[5-9]\d|20\d\d)"
#: four digits that are no judgment's year: a citation's, an Act's, a case or FIR number's (module docstring)
NOT_A_YEAR = re.compile(
    rf"[\[(]\s*{_YEAR}\s*[\])]|\b{_YEAR}\s*(?:INSC|SCC|S\.?C\.?R|SCALE|Cri\.?\s*L\.?\s*J|CrLJ|KHC|SC\b|\(\d+\)|:)|"
    rf"\bAIR\s+{_YEAR}|\b(?:act|sanhita|adhiniyam|code|ipc|crpc|bns|bnss|bsa|iea)\s*,?\s*(?:of\s+)?{_YEAR}\b|"
    rf"\b(?:no|nos|number)\.?\s*[\w.-]*\d[\w.-]*\s*(?:of|/)\s*{_YEAR}\b|\d\s*/\s*{_YEAR}\b|\b\d+\s+of\s+{_YEAR}\b",
    re.I)
#: (form, pattern) for the years asked, tried in this order on the question with the non-years blanked
YEAR_FORMS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((f, re.compile(p, re.I)) for f, p in (
    ("range", rf"\bbetween\s+(?:the\s+years\s+)?(?P<a>{_YEAR})\s+and\s+(?P<b>{_YEAR})\b|"
              rf"\bfrom\s+(?:the\s+year\s+)?(?P<c>{_YEAR})\s+(?:to|till|until|through)\s+(?P<d>{_YEAR})\b|"
              rf"\b(?P<e>{_YEAR})\s*(?:-|\u2013|to)\s*(?P<f>{_YEAR})\b"),
    ("from", rf"\b(?:since|from|starting|post)\s+(?:the\s+year\s+)?(?P<y>{_YEAR})\b(?:\s+onwards?)?|"
             rf"\b(?P<z>{_YEAR})\s+onwards?\b|\b(?:in\s+or\s+after)\s+(?P<w>{_YEAR})\b"),
    ("after", rf"\b(?:after)\s+(?:the\s+year\s+)?(?P<y>{_YEAR})\b"),
    ("before", rf"\b(?:before|prior\s+to|pre)[\s-]+(?:the\s+year\s+)?(?P<y>{_YEAR})\b"),
    ("to", rf"\b(?:until|till|up\s*to|upto|through|by)\s+(?:the\s+year\s+)?(?P<y>{_YEAR})\b"),
    ("year", rf"\b(?:(?:in|of|during|from)\s+(?:the\s+year\s+)?)?(?P<y>{_YEAR})\b"),
))
_ORDERS = re.compile(r"\borders?\b", re.I)


def _blank(text: str, spans) -> str:
    for a, b in spans:
        text = text[:a] + " " * (b - a) + text[b:]
    return text


def _years(text: str) -> tuple[int | None, int | None, list[tuple[int, int]]]:
    masked = _blank(text, [(m.start(), m.end()) for m in NOT_A_YEAR.finditer(text)])
    masked = _blank(masked, [(d.start, d.end) for d in read_dates(text)])
    lo: int | None = None
    hi: int | None = None
    spans: list[tuple[int, int]] = []
    for form, rx in YEAR_FORMS:
        for m in rx.finditer(masked):
            if any(a < m.end() and m.start() < b for a, b in spans):
                continue
            g = {k: int(v) for k, v in m.groupdict().items() if v}
            if form == "range":
                a, b = sorted(g.values())
                new = (a, b)
            else:
                y = next(iter(g.values()))
                new = {"from": (y, None), "after": (y + 1, None), "before": (None, y - 1), "to": (None, y),
                       "year": (y, y)}[form]
            lo = new[0] if lo is None else (max(lo, new[0]) if new[0] is not None else lo)
            hi = new[1] if hi is None else (min(hi, new[1]) if new[1] is not None else hi)
            spans.append((m.start(), m.end()))
        masked = _blank(masked, spans)
    return lo, hi, spans


#: words that make a court named beside them the court deciding (within :data:`NEAR` words, no :data:`_CLAUSE` word
#: between): "High Court decisions", "orders of the Delhi HC", "what did the Supreme Court hold"
JUDGMENT_WORDS = re.compile(r"\b(?:judgments?|decisions?|orders?|rulings?|cases?|precedents?|verdicts?|"
                            r"authorit(?:y|ies)|case[\s-]?law|benches?|held|hold|holds|holding|ruled|decided|said|say|says|observed|"
                            r"applied|cited|interpreted)\b", re.I)
NEAR = 4
#: a word that opens what was held ("held that the High Court ..."): a court after it is the subject, not the judge
_CLAUSE = re.compile(r"\b(?:that|whether|if|which|who|when|where)\b", re.I)
_JOINED = re.compile(r"\s*(?:,|or|and|and/or)\s+(?:(?:the|a|any)\s+)?", re.I)


def _deciding(text: str, a: int, b: int) -> bool:
    """Whether the court named at ``text[a:b]`` is the court deciding (:data:`JUDGMENT_WORDS` near it)."""
    before = " ".join(text[:a].split()[-NEAR:])
    after = " ".join(text[b:].split()[:NEAR])
    if (m := _CLAUSE.search(after)) is not None:
        after = after[:m.start()]
    clause = list(_CLAUSE.finditer(before))
    if clause:
        before = before[clause[-1].end():]
    return bool(JUDGMENT_WORDS.search(before) or JUDGMENT_WORDS.search(after))


def _courts(text: str) -> list[tuple[Court, int, int]]:
    """The courts ``text`` names as the court deciding, in text order, none overlapping another; a court joined to
    a deciding one by "or" / "and" ("judgments of the Supreme Court or the Delhi High Court") is deciding too."""
    named: list[tuple[Court, int, int]] = []
    for court, rx in _COMPILED:
        for m in rx.finditer(text):
            if not any(a < m.end() and m.start() < b for _, a, b in named):
                named.append((court, m.start(), m.end()))
    found: list[tuple[Court, int, int]] = []
    for court, a, b in sorted(named, key=lambda f: f[1]):
        joined = bool(found) and _JOINED.fullmatch(text[found[-1][2]:a]) is not None
        if joined or _deciding(text, a, b):
            found.append((court, a, b))
    return found


def read_constraint(question: str) -> JudgmentConstraint:
    """The court and years ``question`` asks for (module docstring). Years that contradict each other ("in 2023
    since 2025") constrain nothing and ``note`` says so; so do two different courts."""
    lo, hi, year_spans = _years(question)
    courts = _courts(question)
    names = list(dict.fromkeys(c.name for c, _, _ in courts))
    notes = []
    court = None
    if len(names) == 1:
        court = names[0]
    elif len(names) > 1:
        notes.append(f"The question names more than one court ({', '.join(names)}): judgments of every court are "
                     "listed.")
    if lo is not None and hi is not None and lo > hi:
        notes.append(f"The years the question names ({lo} on, up to {hi}) leave no year: no year is applied.")
        lo = hi = None
        year_spans = []
    spans = sorted([*year_spans, *((a, b) for _, a, b in courts if court is not None)])
    return JudgmentConstraint(court, lo, hi, tuple(question[a:b].strip() for a, b in spans), tuple(spans),
                              bool(_ORDERS.search(question)), " ".join(notes))


__all__ = ["BY_NAME", "COURTS", "Court", "JudgmentConstraint", "NOT_A_YEAR", "YEAR_FORMS", "court_named",
           "read_constraint", "same_court"]
