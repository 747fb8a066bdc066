"""Statute texts the tests quote, each copied word for word from the official print in the corpus and named once
here instead of pasted into each test file.

Each constant is a :class:`Snippet`: a ``str`` (usable wherever a test needs the text) that also names the Act,
the section and the page of the PDF it is printed on (``statutes/pdf/<PDFS[act]>``, 1-based PDF page). Whitespace
is a single space where the print breaks the line. ``tests/test_statute_snippets.py`` checks every constant
against the text parsed from that PDF and page, so a snippet cannot drift from the law it quotes.

A test that needs a text altered on purpose (a dropped "not", another punishment) builds it from these, so the
alteration is visible where it is made; one that quotes a snippet's opening words takes ``SNIPPET.upto(last words)``.
"""

from __future__ import annotations

#: the PDF of each Act under ``statutes/pdf/`` of the corpus
PDFS = {"BNS": "BNS_2023_gazette_Act45.pdf", "IPC": "IPC_1860_legislative_dept_2019.pdf"}


class Snippet(str):
    """Words of ``act`` ``section`` as printed on PDF page ``page`` of ``PDFS[act]``."""

    act: str
    section: str
    page: int

    def __new__(cls, act: str, section: str, page: int, text: str) -> "Snippet":
        self = super().__new__(cls, text)
        self.act, self.section, self.page = act, section, page
        return self

    def __getnewargs__(self) -> tuple[str, str, int, str]:  # pickle and copy.deepcopy rebuild it whole
        return self.act, self.section, self.page, str(self)

    def upto(self, last: str) -> "Snippet":
        """The snippet's words from its start through the first occurrence of ``last`` (same Act, section and
        page); ValueError if ``last`` is not in it."""
        end = self.index(last) + len(last)
        return Snippet(self.act, self.section, self.page, self[:end])


# ---- BNS 318, cheating (Bharatiya Nyaya Sanhita, 2023: Gazette, Act 45 of 2023) ---------------------------------

BNS_318_1 = Snippet("BNS", "318", 86, (
    "(1) Whoever, by deceiving any person, fraudulently or dishonestly induces the person so deceived to deliver any "
    "property to any person, or to consent that any person shall retain any property, or intentionally induces the "
    "person so deceived to do or omit to do anything which he would not do or omit if he were not so deceived, and "
    "which act or omission causes or is likely to cause damage or harm to that person in body, mind, reputation or "
    "property, is said to cheat."))
BNS_318_EXPLANATION = Snippet("BNS", "318", 86, (
    "Explanation.—A dishonest concealment of facts is a deception within the meaning of this section."))
BNS_318_2 = Snippet("BNS", "318", 87, (
    "(2) Whoever cheats shall be punished with imprisonment of either description for a term which may extend to "
    "three years, or with fine, or with both."))
BNS_318_3 = Snippet("BNS", "318", 87, (
    "(3) Whoever cheats with the knowledge that he is likely thereby to cause wrongful loss to a person whose "
    "interest in the transaction to which the cheating relates, he was bound, either by law, or by a legal contract, "
    "to protect, shall be punished with imprisonment of either description for a term which may extend to five "
    "years, or with fine, or with both."))
BNS_318_4 = Snippet("BNS", "318", 87, (
    "(4) Whoever cheats and thereby dishonestly induces the person deceived to deliver any property to any person, "
    "or to make, alter or destroy the whole or any part of a valuable security, or anything which is signed or "
    "sealed, and which is capable of being converted into a valuable security, shall be punished with imprisonment "
    "of either description for a term which may extend to seven years, and shall also be liable to fine."))

# ---- IPC 420 (Indian Penal Code, 1860: Legislative Department, 2019) ---------------------------------------------

IPC_420 = Snippet("IPC", "420", 96, (
    "Whoever cheats and thereby dishonestly induces the person deceived to deliver any property to any person, or "
    "to make, alter or destroy the whole or any part of a valuable security, or anything which is signed or sealed, "
    "and which is capable of being converted into a valuable security, shall be punished with imprisonment of "
    "either description for a term which may extend to seven years, and shall also be liable to fine."))

# ---- other BNS sections -----------------------------------------------------------------------------------------

BNS_103_1 = Snippet("BNS", "103", 34, (
    "(1) Whoever commits murder shall be punished with death or imprisonment for life, and shall also be liable to "
    "fine."))
BNS_103_2 = Snippet("BNS", "103", 34, (
    "(2) When a group of five or more persons acting in concert commits murder on the ground of race, caste or "
    "community, sex, place of birth, language, personal belief or any other similar ground each member of such group "
    "shall be punished with death or with imprisonment for life, and shall also be liable to fine."))
BNS_104 = Snippet("BNS", "104", 34, (
    "Whoever, being under sentence of imprisonment for life, commits murder, shall be punished with death or with "
    "imprisonment for life, which shall mean the remainder of that person\u2019s natural life."))
BNS_304_1 = Snippet("BNS", "304", 80, (
    "(1) Theft is snatching if, in order to commit theft, the offender suddenly or quickly or forcibly seizes or "
    "secures or grabs or takes away from any person or from his possession any movable property."))
BNS_304_2 = Snippet("BNS", "304", 80, (
    "(2) Whoever commits snatching, shall be punished with imprisonment of either description for a term which may "
    "extend to three years, and shall also be liable to fine."))
#: word for word IPC 498A's first sentence too (BL-19)
BNS_85 = Snippet("BNS", "85", 29, (
    "Whoever, being the husband or the relative of the husband of a woman, subjects such woman to cruelty shall be "
    "punished with imprisonment for a term which may extend to three years and shall also be liable to fine."))

# ---- punishment clauses printed by many sections (quoted here from the one named) ---------------------------------

SEVEN_YEARS_AND_FINE = Snippet("BNS", "305", 80, (
    "shall be punished with imprisonment of either description for a term which may extend to seven years, and "
    "shall also be liable to fine"))
THREE_YEARS_AND_FINE = Snippet("BNS", "304", 80, (
    "shall be punished with imprisonment of either description for a term which may extend to three years, and "
    "shall also be liable to fine"))

#: every snippet of this module by name
ALL = {name: value for name, value in dict(globals()).items() if isinstance(value, Snippet)}
