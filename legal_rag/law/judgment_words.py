"""A statute's words quoted inside a judgment: the judgment's words of its date, never the statute itself.

A judgment quotes the Act it applies as that Act read on the judgment's date ("S. 5 of the Act, as it stood before
its amendment by Act 40 of 1964, read as follows: ... shall be punishable with imprisonment for a term which shall
not be less than one year but which may extend to seven years", Nani Gopal Mitra v. State of Bihar, SC,
15 October 1968, quoting the Prevention of Corruption Act, 1947). The term has since been amended and that Act is
not in the sources, so such words cite the judgment, dated, never the statute (General Clauses Act, 1897 s.6: a
repealed or amended text governs only what it governed then).

* :data:`STATUTE_WORDING`: the named rules (one table) by which a text reads as a statute's words rather than a
  court's prose; :func:`statute_wording` names those that fire.
* :func:`quoted_act`: the Act a judgment passage names last before the quoted words (``"IPC"``, ``"Prevention of
  Corruption Act, 1947"``), ``""`` when it names none there (``"the Act"`` defined pages earlier).
* :func:`judgment_words`: the label a citation of a judgment passage carries when the cited words are a statute's,
  ``""`` otherwise; :func:`judgment_words_note` the sentence the answer shows after such a quote.

Pure; no model.

>>> statute_wording("(2) Any public servant who commits criminal misconduct shall be punishable with imprisonment")
('sub-section', 'punishment clause')
>>> statute_wording("The High Court rightly held that the appellant was guilty.")
()
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..types import ACT_TITLES, Chunk
from .pinpoint import locate
from .refs import find_refs

#: rules by which a text reads as a statute's words, in one table: name -> pattern (searched in the text, spaces
#: made single). The drafting forms of Indian Acts: a penalty ("shall be punished with", IPC/BNS passim; "shall be
#: punishable with", Prevention of Corruption Act, 1947 s.5(2)); the liability to fine; the operative "Whoever"; a
#: numbered sub-section opening a sentence; a proviso; a section's number and marginal heading ("498A. Husband or
#: relative of husband of a woman subjecting her to cruelty.—"); a provision speaking of itself ("this section").
STATUTE_WORDING: dict[str, re.Pattern[str]] = {
    "sub-section": re.compile(r"^\W{0,3}\(\s?\d{1,3}[A-Z]?\s?\)\s+[A-Z]"),
    "section heading": re.compile(r"^\W{0,3}\d{1,3}[A-Z]{0,2}\s?\.\s?(?:\(\d+\)\s*)?[A-Z][^.\u2014]{3,150}\.?\s?[\u2014\u2013-]{1,2}"),
    "proviso": re.compile(r"^\W{0,3}Provided\s+(?:further\s+|also\s+)?that\b"),
    "whoever": re.compile(r"^\W{0,3}(?:\(\d+[A-Z]?\)\s*)?Whoever\b"),
    "punishment clause": re.compile(r"\bshall\s+be\s+punish(?:ed|able)\s+with\b", re.I),
    "liable to fine": re.compile(r"\bshall\s+(?:also\s+)?be\s+liable\s+to\s+fine\b", re.I),
    "speaks of itself": re.compile(r"\b(?:this|the\s+said)\s+(?:sub-section|section|Act|Chapter)\b[^.]{0,80}\bshall\b",
                                   re.I),
}

#: rules that make a sentence a statute's words only when it opens with them and also says what the law does
#: ("shall"): a judgment's own numbered points ("(2) The High Court erred ...") are not a statute's
_NEEDS_SHALL = frozenset({"sub-section"})


def statute_wording(text: str) -> tuple[str, ...]:
    """The names of the :data:`STATUTE_WORDING` rules ``text`` fires, in the table's order; ``()`` when it reads as
    prose. A numbered opening counts only with a ``shall`` in the text."""
    flat = re.sub(r"\s+", " ", text).strip().lstrip("\u201c\"'")
    fired = tuple(name for name, rule in STATUTE_WORDING.items() if rule.search(flat))
    if not re.search(r"\bshall\b", flat, re.I):
        fired = tuple(n for n in fired if n not in _NEEDS_SHALL)
    return fired


def quoted_act(text: str, at: int) -> str:
    """The Act ``text`` (a judgment passage) names last before offset ``at``: its code when it is one of the six
    Acts (``"IPC"``), else its title as written (``"Prevention of Corruption Act, 1947"``); ``""`` when none is
    named there.

    >>> quoted_act("S. 5(2) of the Prevention of Corruption Act, 1947 reads: (2) Any public servant", 60)
    'Prevention of Corruption Act, 1947'
    """
    named = [f for f in find_refs(text[:max(0, at)]) if f.act is not None]
    if not named:
        return ""
    last = max(named, key=lambda f: f.run_span[1] if f.run_span != (0, 0) else f.span[1])
    return last.act_text.strip() if last.act == "OTHER" else last.act


def _when(meta: Mapping[str, str]) -> str:
    from datetime import date

    iso = meta.get("date", "")
    try:
        d = date.fromisoformat(iso)
    except ValueError:
        return iso or meta.get("year", "")
    return f"{d.day} {d.strftime('%B')} {d.year}"


def judgment_words(chunk: Chunk, words: str) -> str:
    """The label of a citation of ``chunk`` whose cited ``words`` are a statute's (:func:`statute_wording`) while
    ``chunk`` is a judgment's passage (:func:`judgment_label`); ``""`` for a statute passage, an upload or other
    document, or words that read as prose."""
    if chunk.ref is not None or chunk.kind != "judgment" or not statute_wording(words):
        return ""
    return judgment_label(chunk, words)


def judgment_label(chunk: Chunk, words: str = "") -> str:
    """What a citation of judgment passage ``chunk`` stating a statute's words is labelled: ``"the judgment's words
    of 15 October 1968 (Nani Gopal Mitra v. State of Bihar), quoting the Prevention of Corruption Act, 1947 as it
    then read; that Act is not in the sources: not the statute's text today"``. The Act is the one the passage
    names last before ``words`` (:func:`quoted_act`; the passage's end when ``words`` is not found in it); one of
    the six Acts is said to be cited from its own print instead; none named: "a statute". ``""`` when ``chunk`` is
    no judgment's passage."""
    if chunk.ref is not None or chunk.kind != "judgment":
        return ""
    meta = dict(chunk.meta)
    spans = locate(words, chunk.text) if words.strip() else ()
    act = quoted_act(chunk.text, spans[0][0] if spans else len(chunk.text))
    name = chunk.title or meta.get("case", "") or chunk.id
    when = _when(meta)
    head = f"the judgment's words of {when} ({name})" if when else f"the judgment's words ({name}, undated)"
    if act in ACT_TITLES:
        return (f"{head}, quoting the {ACT_TITLES[act]} as it then read: not the Act's own text, which is cited "
                f"from its print")
    if act:
        return f"{head}, quoting the {act} as it then read; that Act is not in the sources: not the statute's text today"
    return f"{head}, quoting a statute as it then read: not the statute's text today"


def judgment_words_note(label: str) -> str:
    """The sentence shown after a quote whose citation carries ``label`` (:func:`judgment_words`):
    ``"(The judgment's words of 15 October 1968 (...), quoting ...; not the statute's text today.)"``."""
    return f"({label[:1].upper()}{label[1:]}.)" if label else ""


__all__ = ["STATUTE_WORDING", "judgment_label", "judgment_words", "judgment_words_note", "quoted_act", "statute_wording"]
