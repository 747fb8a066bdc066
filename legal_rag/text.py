"""Plain-text helpers shared by the answer stage (generate, cite, verify): sentence splitting, content words,
number words and the punishment vocabulary of the Indian penal codes.

Pure functions, no I/O. Offsets are 0-based and half-open ``[start, end)``.
"""

from __future__ import annotations

import re
import unicodedata

# ---------------------------------------------------------------------------------------------- normalising

_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "–": "-", "—": "-", "−": "-",
                         "\u00a0": " "})


def normalise(text: str) -> str:
    """Lower-case, NFKC, straight quotes and hyphens, single spaces: the form every text comparison uses.

    ``normalise("“Whoever  cheats”—") -> '"whoever cheats"-'``
    """
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES).lower()
    return re.sub(r"\s+", " ", text).strip()


# ------------------------------------------------------------------------------------------------ sentences

#: Words written with a full stop that does not end a sentence (compared lower-case, without the stop): legal and
#: reporter abbreviations, honorifics, and the words of case names ("Mohd.", "Retd.", "Smt.", "v.", "Ors."). The
#: case-name grammar (:mod:`legal_rag.law.cases`) reads names with the same list.
ABBREVIATIONS = frozenset({
    "s", "ss", "sec", "secs", "no", "nos", "rs", "i.e", "e.g", "viz", "cl", "art", "arts", "u/s", "vs", "v", "sub",
    "para", "paras", "p", "pp", "vol", "ch", "mr", "mrs", "ms", "dr", "hon'ble", "st", "ltd", "co", "etc", "anr",
    "ors", "cr", "crl", "j", "jj", "cj", "i.p.c", "cr.p.c", "a", "illus", "expl",
    # case names and honorifics
    "mohd", "md", "retd", "smt", "shri", "sri", "sh", "km", "kum", "pvt", "inc", "corpn", "govt", "distt", "dist",
    "thr", "bros", "jr", "sr", "prof", "lt", "col", "capt", "maj", "insp", "addl", "asstt", "dy", "spl", "admn",
    "m/s", "kr", "ld", "thru", "lrs", "adv", "advs", "corp", "dt", "ex", "exh",
})
_INITIALS = re.compile(r"[A-Z]|(?:[A-Za-z]{1,2}\.)+[A-Za-z]{1,2}")


def is_abbreviation(word: str) -> bool:
    """True when ``word`` followed by a full stop does not end a sentence: one of :data:`ABBREVIATIONS`, a capital
    initial ("C" of "C. V. Raman") or dotted initials ("U.P", "I.P.C", "i.e"). ``word`` is given without its
    final stop; ``is_abbreviation("Mohd") -> True``, ``is_abbreviation("held") -> False``."""
    w = word.rstrip(".")
    return w.lower() in ABBREVIATIONS or _INITIALS.fullmatch(w) is not None


_END = re.compile(r"[.?!]+[\"”’')]*((?:\s*\[[\d,\s–-]+\])*)(?=\s+|$)")


def split_sentences(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` spans of the sentences of ``text``; markers such as ``[1]`` after the full stop stay
    with their sentence. Newlines always end a sentence; abbreviations (:func:`is_abbreviation`: ``s.``,
    ``No.``, ``Rs.``, ``i.e.``, ``Mohd.``, ``U.P.``, ``C. V.``, ``Retd.``, ``v.``) and section numbers (``s. 420``)
    do not. Blank spans are skipped.

    ``split_sentences("Theft. [1] Cheating [2].")`` -> ``[(0, 10), (11, 24)]``
    """
    spans: list[tuple[int, int]] = []
    for line in re.finditer(r"[^\n]+", text):
        base, s, cut = line.start(), line.group(), 0
        for m in _END.finditer(s):
            word = re.search(r"([\w.'/]+)$", s[cut:m.start()])
            if word and is_abbreviation(word.group(1)) and not m.group(1):
                continue
            rest = s[m.end():].lstrip()
            if rest and not (rest[0].isupper() or rest[0] in "\"“‘('[*-•" or rest[0].isdigit()):
                continue
            spans.append((base + cut, base + m.end()))
            cut = m.end()
        spans.append((base + cut, base + len(s)))
    return trimmed(text, spans)


def trimmed(text: str, spans) -> list[tuple[int, int]]:
    """``[a, b)`` spans of ``text`` without their leading and trailing whitespace; spans left empty are dropped.
    ``trimmed(" ab  c ", [(0, 4), (4, 7), (5, 5)]) -> [(1, 3), (5, 6)]``."""
    out = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b))
    return out


_HARD_START = re.compile(r"\s*(?:\(\d+[A-Z]?\)|\([a-z]{1,4}\)\s|\([ivx]+\)\s|Explanation|Illustrations?\b|Provided|"
                         r"Exception|\d+[A-Z]?\.\s|[-*•]\s)")


def excerpt(text: str, at: int, limit: int) -> str:
    """``text`` cut to about ``limit`` characters, opening a third of ``limit`` before position ``at`` (kept within
    the text), at word boundaries, each cut marked "..."; ``text`` itself when it is no longer than ``limit``."""
    if len(text) <= limit:
        return text
    lo = max(0, min(at - limit // 3, len(text) - limit))
    hi = min(len(text), lo + limit)
    if lo > 0:
        lo = text.find(" ", lo) + 1
    if hi < len(text):
        hi = text.rfind(" ", lo, hi)
    return ("..." if lo > 0 else "") + text[lo:hi].strip() + ("..." if hi < len(text) else "")


def unwrap(text: str) -> str:
    """``text`` with the soft line breaks of a PDF print turned into spaces (same length, so offsets stay
    valid). A break is kept where the next line opens a sub-section, clause, explanation, illustration or
    proviso, or the line ends a sentence (``.``, ``:``, ``;``, a dash).

    ``unwrap("punished with imprisonment of either\ndescription.\n(2) Whoever")`` ->
    ``"punished with imprisonment of either description.\n(2) Whoever"``
    """
    out = list(text)
    for m in re.finditer(r"\n", text):
        i = m.start()
        before = text[:i].rstrip(" \t")
        if not before or before.endswith((".", ":", ";", "\u2014", "\u2013", "\n")) or _HARD_START.match(text, i + 1):
            continue
        out[i] = " "
    return "".join(out)


# -------------------------------------------------------------------------------------------- content words

STOPWORDS = frozenset("""a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing down during each either else etc for from further had
has have having he her here hers him his how i if in into is it its itself just may me might more most must my
no nor not now of off on once only or other our out over own same shall she should so some such than that the
their them then there these they this those through thus to too under until up upon us very was we were what when
where whether which while who whom whose why will with within without would you your yes said says per one any
answer question please tell explain describe according provision provisions law laws""".split())

_WORD = re.compile(r"[a-z][a-z'-]*[a-z]|[a-z]")
_SUFFIXES = ("ments", "ment", "ings", "ing", "edly", "ies", "ied", "ions", "ion", "able", "ably", "ers", "er",
             "ed", "es", "s", "ly")


def stem(word: str) -> str:
    """A crude, deterministic suffix stripper (punishment/punished/punishable -> ``punish``); enough to
    compare word forms, not a linguistic stemmer."""
    w = word.lower().strip("'-")
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            w = w[: -len(suf)]
            break
    return w[:-1] if len(w) > 4 and w.endswith("e") else w


def content_terms(text: str) -> list[str]:
    """Stemmed words of ``text`` minus stop-words and one-letter words, in order (duplicates kept)."""
    words = _WORD.findall(normalise(text))
    return [stem(w) for w in words if w not in STOPWORDS and len(w) > 1]


# --------------------------------------------------------------------------------------------- number words

_UNITS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                     "thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split(), 0)
         if w != "_"}
_SCALES = {"hundred": 100, "thousand": 1000, "lakh": 100_000, "lakhs": 100_000, "crore": 10_000_000,
           "crores": 10_000_000}
NUMBER = (r"(?:\d[\d,]*(?:\.\d+)?|(?:(?:" + "|".join(sorted([*_UNITS, *_TENS], key=len, reverse=True))
          + r"|hundred|thousand|lakhs?|crores?|and)[\s-]*)+)")


def parse_number(phrase: str) -> int | None:
    """``"seven"`` -> 7, ``"ten thousand"`` -> 10000, ``"1,00,000"`` -> 100000, ``"twenty-one"`` -> 21;
    ``None`` when ``phrase`` holds no number."""
    p = normalise(phrase).replace(",", "")
    if re.fullmatch(r"\d+(?:\.\d+)?", p):
        return int(float(p))
    total = cur = 0
    seen = False
    for w in re.split(r"[\s-]+", p):
        if w in _UNITS:
            cur += _UNITS[w]
        elif w in _TENS:
            cur += _TENS[w]
        elif w in _SCALES:
            cur = max(cur, 1) * _SCALES[w]
            if _SCALES[w] >= 1000:
                total, cur = total + cur, 0
        elif w == "and" or not w:
            continue
        else:
            return None
        seen = True
    return total + cur if seen else None


# --------------------------------------------------------------------------------------- punishment terms

_PERIOD = re.compile(rf"\b({NUMBER})\s*-?\s*(year|month|day)s?\b", re.I)
_LIFE = re.compile(r"imprisonment\s+for\s+(?:the\s+)?(?:remainder\s+of\s+[\w’']+\s+(?:person[’']s\s+)?"
                   r"natural\s+)?life|life\s+imprisonment|imprisonment\s+for\s+life|\blife\s+term\b", re.I)
_NATURAL = re.compile(r"natural\s+life", re.I)
_DEATH = re.compile(r"\b(?:punish\w*|sentenc\w*)\s+(?:\w+\s+){0,3}(?:with|to|of)\s+death\b|\bdeath\s+(?:penalty|"
                    r"sentence)\b|\bcapital\s+punishment\b|\bsentence\s+of\s+death\b"
                    # "... imprisonment for life, and with fine, or with death" (a weak model's invented penalty)
                    r"|\bwith\s+death\b|\bdeath\s*,?\s+or\s+(?:with\s+)?(?:imprisonment\s+for\s+life|life\s+imprisonment)\b",
                    re.I)
_FINE = re.compile(r"\bfine[sd]?\b", re.I)
_AMOUNT = re.compile(rf"(?:(?:rs\.?|₹|inr)\s*({NUMBER})|\b({NUMBER})\s*(?:rupees|rs\.?)(?!\w))", re.I)


def punishment_terms(text: str) -> frozenset[str]:
    """The punishment vocabulary stated in ``text``, normalised: ``"7 year"``, ``"6 month"``, ``"life"``,
    ``"life:natural"``, ``"death"``, ``"fine"``, ``"fine:50000"`` (rupee amounts).

    BNS s.4 lists the punishments (death, imprisonment for life, imprisonment, forfeiture, fine, community
    service); terms and amounts are what a weak generator invents, so :mod:`legal_rag.verify` requires every
    term of a sentence to occur in the passages it cites.

    ``punishment_terms("punished with death or imprisonment for life, and fine")`` ->
    ``{"death", "life", "fine"}``
    """
    terms: set[str] = set()
    for m in _PERIOD.finditer(text):
        n = parse_number(m.group(1))
        if n is not None:
            terms.add(f"{n} {m.group(2).lower()}")
    if _LIFE.search(text):
        terms.add("life")
        if _NATURAL.search(text):
            terms.add("life:natural")
    if _DEATH.search(text):
        terms.add("death")
    if _FINE.search(text):
        terms.add("fine")
    for m in _AMOUNT.finditer(text):
        n = parse_number(m.group(1) or m.group(2))
        if n:
            terms.add(f"fine:{n}")
    return frozenset(terms)


def numbers_in(text: str) -> set[int]:
    """Every number written in ``text`` as digits or words (``"five or more persons"`` -> ``{5}``,
    ``"ten thousand rupees"`` -> ``{10000}``)."""
    out: set[int] = set()
    run: list[str] = []
    for tok in [*re.findall(r"\d[\d,]*(?:\.\d+)?|[a-z]+", normalise(text)), ""]:
        if tok in _UNITS or tok in _TENS or tok in _SCALES or (tok == "and" and run):
            run.append(tok)
            continue
        if run:
            n = parse_number(" ".join(run[:-1] if run[-1] == "and" else run))
            if n is not None:
                out.add(n)
            run = []
        if tok[:1].isdigit():
            n = parse_number(tok.rstrip(","))
            if n is not None:
                out.add(n)
    return out


#: an answer's citation marker: ``[1]``, ``[1, 3]``, ``[2-4]`` (group 1 is the inside); read by cite and export
MARKER = re.compile(r"\[(\d{1,3}(?:\s*(?:,|-|–)\s*\d{1,3})*)\]")


def parse_marker(body: str) -> list[int]:
    """``"1, 3-5"`` -> ``[1, 3, 4, 5]``; a reversed or huge range (over 20) yields only its ends."""
    out: list[int] = []
    for part in re.split(r"\s*,\s*", body.strip()):
        rng = re.fullmatch(r"(\d+)\s*[-–]\s*(\d+)", part)
        if rng:
            lo, hi = int(rng.group(1)), int(rng.group(2))
            out += list(range(lo, hi + 1)) if 0 <= hi - lo <= 20 else [lo, hi]
        elif part.isdigit():
            out.append(int(part))
    return out


def renumber(text: str, numbers: dict[int, int], dropped: set[int] | frozenset[int] = frozenset(),
             dropped_mark: str = "") -> str:
    """``text`` with each citation marker rewritten by ``numbers`` (old marker -> new number); a marker in
    ``dropped`` is removed and ``dropped_mark`` written in its place. Brackets naming no number of ``numbers`` or
    ``dropped`` (``[2020] 11 S.C.R.``) stay as written.

    ``renumber("A [1]. B [3]. C [2, 3].", {1: 1, 3: 2}, {2}, "[x]") -> "A [1]. B [2]. C [2][x]."``
    """
    def sub(m: re.Match) -> str:
        nums = parse_marker(m.group(1))
        if not any(n in numbers or n in dropped for n in nums):
            return m.group(0)
        kept = list(dict.fromkeys(numbers[n] for n in nums if n in numbers))
        out = f"[{', '.join(map(str, kept))}]" if kept else ""
        return out + (dropped_mark if any(n in dropped for n in nums) else "")

    return MARKER.sub(sub, text)
