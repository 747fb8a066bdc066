"""User text at the front door: one normal form for every question, look-up and date a person types or pastes.

:func:`normalise_input` is applied once where user text enters (``Pipeline.ask``/``search``/``lookup``, the UI's
offence-date field and the CLI's ``--offence-date``), so the grammar, retrieval, generation and every export read
the same text:

* NFKC (full-width forms, ligatures, no-break spaces);
* every Unicode decimal digit to its ASCII digit: ``"IPC ४२०" -> "IPC 420"`` (BL-43: Python's ``\\d`` and
  ``int()`` accept ``४२०`` while the correspondence tables hold ``"420"``, so the look-up silently failed);
* control characters to a space: a vertical tab (Word's manual line break), a form feed (pdftotext's page end),
  NUL and the rest of Unicode category Cc; carriage returns and line/paragraph separators become newlines; format
  characters that carry nothing (zero-width space, byte-order mark, bidi marks) are dropped; lone surrogates and
  non-characters, which no UTF-8 or XML writer accepts, become U+FFFD (BL-54: python-docx refused the question);
* curly quotes to straight ones, dashes (en, em, minus, non-breaking hyphen) to ``-``, the danda ``।`` to a stop;
* the Hindi (Devanagari) names and abbreviations of the six Acts and the word "धारा" (section) to the English
  forms the citation grammar reads: ``"आईपीसी 420" -> "IPC 420"``, ``"भारतीय न्याय संहिता की धारा 318" ->
  "Section 318 Bharatiya Nyaya Sanhita"`` (:data:`HINDI_ACTS`);
* runs of spaces to one, blank lines squeezed, ends stripped.

:func:`unread_script` says which words of a question are in a script nothing downstream reads (the index, the
embedder and the answer engine are English): the pipeline then says so in the answer instead of a bare "not in the
sources" (:func:`language_notice`).

Pure functions, no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_PUNCT = str.maketrans({
    "“": '"', "”": '"', "„": '"', "‟": '"', "″": '"', "«": '"', "»": '"',
    "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'",
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-", "⁃": "-",
    "।": ".", "॥": ".",
})
_NEWLINES = {"\r", "\u2028", "\u2029", "\x85"}
#: format characters (Cf) kept: ZWNJ/ZWJ shape Devanagari and other Indic scripts; the soft hyphen the grammar reads
_KEEP_CF = {"\u200c", "\u200d", "\u00ad"}


def _char(ch: str) -> str:
    """One character in normal form ('' to drop it)."""
    if ch.isascii():
        if ch in "\n":
            return ch
        if ch == "\r":
            return "\n"
        return " " if unicodedata.category(ch) == "Cc" else ch
    if ch in _NEWLINES:
        return "\n"
    cat = unicodedata.category(ch)
    if cat == "Nd":
        return str(unicodedata.decimal(ch))
    if cat == "Cc" or cat == "Zs":
        return " "
    if cat == "Cf":
        return ch if ch in _KEEP_CF else ""
    if cat == "Cs" or (cat == "Cn" and (ord(ch) & 0xFFFE == 0xFFFE or 0xFDD0 <= ord(ch) <= 0xFDEF)):
        return "\ufffd"
    return ch


# --------------------------------------------------------------------------------------- Hindi names of the Acts

_DEV = "\u0900-\u097f"
#: Hindi names and abbreviations of the six Acts (as written in Hindi FIRs, charge-sheets and bilingual orders) ->
#: a form the citation grammar reads. The Evidence Act of 1872 and the Adhiniyam of 2023 share the Hindi name
#: "भारतीय साक्ष्य अधिनियम"; only the year tells them apart, so without a year the name is left unread.
HINDI_ACTS: dict[str, str] = {
    "भारतीय दंड संहिता": "Indian Penal Code", "भारतीय दण्ड संहिता": "Indian Penal Code",
    "भा.दं.सं.": "IPC", "भा.दं.सं": "IPC", "भादंसं": "IPC", "भा.द.वि.": "IPC", "भादवि": "IPC", "आईपीसी": "IPC",
    "आई.पी.सी.": "IPC", "आई.पी.सी": "IPC",
    "दंड प्रक्रिया संहिता": "Code of Criminal Procedure", "दण्ड प्रक्रिया संहिता": "Code of Criminal Procedure",
    "द.प्र.सं.": "CrPC", "द.प्र.सं": "CrPC", "दप्रसं": "CrPC", "सीआरपीसी": "CrPC", "सी.आर.पी.सी.": "CrPC",
    "भारतीय न्याय संहिता": "Bharatiya Nyaya Sanhita", "बीएनएस": "BNS", "बी.एन.एस.": "BNS",
    "भारतीय नागरिक सुरक्षा संहिता": "Bharatiya Nagarik Suraksha Sanhita", "बीएनएसएस": "BNSS",
    "बी.एन.एस.एस.": "BNSS",
    "भारतीय साक्ष्य अधिनियम, 2023": "Bharatiya Sakshya Adhiniyam, 2023",
    "भारतीय साक्ष्य अधिनियम 2023": "Bharatiya Sakshya Adhiniyam, 2023", "बीएसए": "BSA", "बी.एस.ए.": "BSA",
    "भारतीय साक्ष्य अधिनियम, 1872": "Indian Evidence Act, 1872",
    "भारतीय साक्ष्य अधिनियम 1872": "Indian Evidence Act, 1872",
    "उपधारा": "sub-section", "धाराओं": "Sections", "धाराएं": "Sections", "धाराएँ": "Sections", "धारा": "Section",
}
_HINDI_RE = re.compile(rf"(?<![{_DEV}\w])(?:"
                       + "|".join(re.escape(k) for k in sorted(HINDI_ACTS, key=len, reverse=True))
                       + rf")(?![{_DEV}\w])")
_ACT_EN = r"(?:IPC|CrPC|BNSS|BNS|BSA|Indian Penal Code|Code of Criminal Procedure|Bharatiya Nyaya Sanhita|" \
          r"Bharatiya Nagarik Suraksha Sanhita|Bharatiya Sakshya Adhiniyam, 2023|Indian Evidence Act, 1872)"
#: "IPC की Section 420" (Hindi word order: the Act, a postposition, then the section) -> "Section 420 IPC"
_ACT_OF_SECTION = re.compile(rf"(?P<act>{_ACT_EN})\s+(?:की|के|का|में)\s+(?P<sec>Sections?\s+[0-9]+[A-Z]{{0,2}}"
                             rf"(?:\s*\([0-9a-z]+\))*(?:\s*(?:,|/|और|and)\s*[0-9]+[A-Z]{{0,2}}(?:\s*\([0-9a-z]+\))*)*)")


def _hindi_acts(text: str) -> str:
    if not re.search(f"[{_DEV}]", text):
        return text
    text = _HINDI_RE.sub(lambda m: HINDI_ACTS[m.group(0)], text)
    text = _ACT_OF_SECTION.sub(lambda m: f"{m.group('sec').replace('और', 'and')} {m.group('act')}", text)
    return re.sub(r"(?<=[0-9)])\s+और\s+(?=[0-9])", " and ", text)


def normalise_input(text: str) -> str:
    """The one normal form of user text (see the module docstring); idempotent.

    ``normalise_input("IPC ४२०") -> "IPC 420"``;
    ``normalise_input("What replaced Section 498A IPC?\\x0bThe wife was harassed") ->
    "What replaced Section 498A IPC? The wife was harassed"``;
    ``normalise_input("“s. 420” — आईपीसी") -> '"s. 420" - IPC'``.
    """
    text = unicodedata.normalize("NFKC", text or "")
    text = "".join(map(_char, text.replace("\r\n", "\n"))).translate(_PUNCT)
    text = _hindi_acts(text)
    text = re.sub(r"[^\S\n]+", " ", text)
    text = re.sub(r" ?\n ?", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip()


# --------------------------------------------------------------------------------------- scripts nothing reads


@dataclass(frozen=True)
class UnreadScript:
    """Words of a question written in a script other than Latin: ``script`` is the Unicode script name of most of
    them ("Devanagari"), ``words`` the words in their order, ``share`` their letters' share of all letters (0..1]
    and ``rest`` the question without them (what retrieval can read)."""

    script: str
    words: tuple[str, ...]
    share: float
    rest: str


_WORD = re.compile(r"\S+")


def _script(ch: str) -> str | None:
    """Unicode script of a letter, by its character name ("LATIN", "DEVANAGARI"), None for a non-letter."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    if ch.isascii():
        return "LATIN"
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def unread_script(text: str) -> UnreadScript | None:
    """The words of ``text`` (already normalised) in a script other than Latin, or None when there are none.

    ``unread_script("IPC 420 की सजा क्या है?")`` -> ``UnreadScript("Devanagari", ("की", "सजा", "क्या", "है?"),
    0.73, "IPC 420")``. Greek letters used as symbols (a lone "§" is no letter) do not count.
    """
    latin = other = 0
    scripts: dict[str, int] = {}
    words, keep = [], []
    for m in _WORD.finditer(text):
        w = m.group(0)
        counts: dict[str, int] = {}
        for ch in w:
            s = _script(ch)
            if s is not None:
                counts[s] = counts.get(s, 0) + 1
        n_latin = counts.pop("LATIN", 0)
        n_other = sum(counts.values())
        latin += n_latin
        other += n_other
        if n_other > n_latin:
            words.append(w)
            for s, n in counts.items():
                scripts[s] = scripts.get(s, 0) + n
        else:
            keep.append(w)
    if not words:
        return None
    script = max(scripts, key=scripts.get).title()
    rest = " ".join(keep).strip(" ,;:-")
    return UnreadScript(script, tuple(words), other / max(1, latin + other), rest)


def language_notice(unread: UnreadScript, answered: bool) -> str:
    """What the answer says about words it could not read. ``answered``: whether the rest of the question (its
    section references, its English words) was answered."""
    shown = " ".join(unread.words)
    if len(shown) > 80:
        shown = shown[:77].rstrip() + "..."
    head = (f"Questions in {unread.script} script are not supported yet: the indexed sources and the answer engine "
            f"read English, so the words \"{shown}\" were not read.")
    if answered:
        return head + f" The answer below reads only \"{unread.rest}\"."
    return (head + " Please ask in English, e.g. \"What is the punishment for cheating?\". Section references in "
            "Hindi are understood: \"आईपीसी 420\", \"धारा 302 भारतीय दंड संहिता\", \"IPC ४२०\".")


def too_long(text: str, limit: int) -> str:
    """The one message for user text above the length limit (``Settings.question_max_chars``): the UI, the JSON
    API and the pipeline all say it. ``too_long("x" * 2500, 2000) -> "the question is 2,500 characters long; the
    limit is 2,000 characters: shorten it"``."""
    return f"the question is {len(text):,} characters long; the limit is {limit:,} characters: shorten it"


#: characters of a refused (too long) question kept when it is shown back to the user (:func:`shown_refused`)
SHOWN_REFUSED = 240


def shown_refused(text: str, limit: int, keep: int = SHOWN_REFUSED) -> str:
    """How a question above ``limit`` characters is shown back in the chat: its first ``keep`` characters (cut at a
    word) and a note of its length, so the refusal beside it stays in sight rather than below a wall of pasted
    text. A question within the limit comes back unchanged. ``shown_refused("word " * 1000, 2000)`` -> 47 times
    ``"word"``, then ``" … [5,000 characters, not asked: the limit is 2,000]"``."""
    if len(text) <= limit:
        return text
    head = text[:keep]
    if " " in head[keep // 2:]:
        head = head[:head.rindex(" ")]
    return f"{head.rstrip()} … [{len(text):,} characters, not asked: the limit is {limit:,}]"


__all__ = ["HINDI_ACTS", "SHOWN_REFUSED", "UnreadScript", "language_notice", "normalise_input", "shown_refused",
           "too_long", "unread_script"]
