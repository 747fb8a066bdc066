"""Regular expressions of the citation grammar (see :mod:`legal_rag.law.refs` for the rules and examples).

Act names accept the spellings found in the corpus: "Bhartiya"/"Bharatiya", "Nayaya"/"Nyaya", double spaces and
line breaks inside names, "I. P. C.", "Cr. P.C.", "(BNSS), 2023". Abbreviations are matched without regard to case
except "IEA" (so that "i.e. a" is not read as the Evidence Act).
"""

from __future__ import annotations

import re

_BH = r"Bh[aā]?r[aā]?th?[iī]?y[aā]"
_ACT_PARTS = {
    "BNSS": rf"(?i:{_BH}\s+N[aā]?g[aā]?rik\s+Sur[aā]?ksha\s+Sanhita)|(?<![A-Za-z])(?i:B\.?\s?N\.?\s?S\.?\s?S)(?![A-Za-z])\.?",
    "BNS": rf"(?i:{_BH}\s+N[aā]?y[aā]?ya\s+Sanhita)|(?<![A-Za-z])(?i:B\.?\s?N\.?\s?S)(?![A-Za-z])(?!\.\s?S\b)\.?",
    "BSA": rf"(?i:{_BH}\s+S[aā]?kshya\s+Adhiniyam)|(?<![A-Za-z])(?i:B\.?\s?S\.?\s?A)(?![A-Za-z])\.?",
    "CrPC": r"(?i:Code\s+of\s+Criminal\s+Procedure|Criminal\s+Procedure\s+Code)|(?<![A-Za-z])Cr\.?\s?P\.?\s?Code\b|(?<![A-Za-z])(?i:Cr\.?\s?P\.?\s?C)(?![A-Za-z])\.?",
    "IPC": r"(?i:(?:Indian\s+)?Penal\s+Code)|(?<![A-Za-z])I\.?\s?P\.?\s?Code\b|(?<![A-Za-z])(?i:I\.?\s?P\.?\s?C)(?![A-Za-z])\.?",
    "IEA": r"(?i:(?:Indian\s+)?Evidence\s+Act)|(?<![A-Za-z])IEA(?![A-Za-z])",
}
# the leading look-ahead lets the engine skip most positions at once (2.8 MB in well under a second)
ACT = "(?=[BbCcIiPpEe])(?:" + "|".join(f"(?P<{k}>{v})" for k, v in _ACT_PARTS.items()) + ")"
ACT_RE = re.compile(ACT)

#: Another Act named after the number: "Negotiable Instruments Act, 1881", "M.P.Excise Act", "NDPS Act"; also an
#: instrument none of ours is, named by its kind alone ("section 6 of the Ordinance", "Rule 3 of the Rules").
OTHER = (r"(?:Code\s+of\s+Civil\s+Procedure|C\.\s?P\.\s?C\.|CPC\b|Constitution(?:\s+of\s+India)?"
         r"|(?:(?:[A-Z][\w.'’&/-]*|\([A-Z][^()\n]{0,60}\))\s+(?:(?:of|and|the|for|from|on|in|to|&)\s+)*){1,10}?"
         r"(?:Act|Code|Rules|Regulations?|Ordinance)\b(?:\s*,?\s*[0-9]{4})?"
         r"|(?:Ordinance|Rules|Regulations?)\b)")
OTHER_RE = re.compile(OTHER)
GENERIC_WORDS = ("code", "act", "sanhita", "adhiniyam")

KW = (r"(?=[SsUu§])(?<![A-Za-z])(?i:sections?(?:\s*\(s\))?|secs?\.?|ss?\.|u\s?/\s?s{1,2}\.?|u\s?/\s?sec\.?|under\s+sec\.?)"
      r"(?![A-Za-z])|§§?")
_UNITS = (r"(?!\s*(?i:years?|yrs?|months?|days?|weeks?|hours?|hrs?|minutes?|%|per\s*cent|lakhs?|crores?|rupees|"
          r"persons?|accused|kms?\b|a\.m\.|p\.m\.|am\b|pm\b))")
ITEM = (r"(?P<n>[0-9]{1,3})(?:(?:\s?[-–\u00ad\u2010\u2011]\s?|\s(?=[A-HJ-Z](?:\s|[,;)]|$)))?(?P<l>[A-Z]{1,2}(?![A-Za-z])|[a-z](?![A-Za-z])))?(?![0-9])(?!\.[0-9])"
        r"(?P<subs>(?:\s?\(\s?(?:[0-9]{1,3}[A-Za-z]?|[ivxIVX]{1,6}|[a-zA-Z]{1,2})\s?\))*)"
        r"(?:\s*[-–,]?\s*(?i:Part)\s*[-–]?\s*(?:II|I|1|2)(?![A-Za-z])|(?<=304)\s+(?:II|I)(?![A-Za-z.]))?" + _UNITS)
_ITEM_NOGROUP = re.sub(r"\(\?P<\w+>", "(?:", ITEM)
_SEP_CORE = (r"(?:\s*,\s*(?:(?i:and)\s+|&\s*|(?i:or)\s+)?|\s+(?i:and|or)\s+|\s*&\s*|\s*/\s*|\s+(?i:to)\s+"
             r"|\s*,?\s*(?i:read\s+with|r\s?/\s?w\.?|r\.\s?w\.?|r/with)\s*,?\s*)")
SEP = _SEP_CORE + r"(?:(?:" + KW + r")\s*)?"
LIST = _ITEM_NOGROUP + r"(?:" + SEP + _ITEM_NOGROUP + r")*"
#: Articles (of the Constitution unless another Act is named): "Article 21", "Arts. 14, 19 and 21", "Art. 20(1)".
ART_KW = r"(?<![A-Za-z])(?i:articles?|arts?\.)(?![A-Za-z])"
ART_RUN_RE = re.compile(r"(?=[Aa])" + ART_KW + r"\s*(?P<list>" + _ITEM_NOGROUP + r"(?:" + _SEP_CORE
                        + r"(?:" + ART_KW + r"\s*)?" + _ITEM_NOGROUP + r")*)")
CONSTITUTION = "Constitution of India"

KW_RUN_RE = re.compile(r"(?:" + KW + r")\s*(?:[-–]\s*)?(?P<list>" + LIST + ")")  # also "section-302"
#: One item of a list, with "to" before it when it closes a range ("299 to 304").
ITEM_RE = re.compile(r"(?:(?P<range>(?<![A-Za-z])(?i:to)\s+)(?:(?:" + KW + r")\s*)?)?" + ITEM)
#: A keywordless list that ends right before an Act name: "316(2), 318(4) BNS", "65-B of the Evidence Act", also
#: after another Act's citation or in brackets ("Section 309 of Cr.P.C/346 of the BNSS", "(180 BNSS)").
LIST_TAIL_RE = re.compile(r"(?<![\w.)-])(?<![0-9]/)(?<![0-9]\()(?P<list>" + LIST + r")\s*,?\s*(?:(?i:of|under)\s+(?:(?i:the)\s+)?)?\Z")
#: What may follow a list: the Act it belongs to (ours, another, or "the Code" defined earlier), after a clause or
#: sub-section the citation names on the way ("S. 6, Cl. 9 of the Ordinance").
TRAIL_RE = re.compile(
    r"(?:\s*,?\s*(?i:cl(?:ause)?s?\.?|sub-?sections?|paras?\.?|paragraphs?)\s*\(?(?:[0-9]{1,3}[A-Za-z]?|[a-z]{1,2})\)?)?"
    r"\s*(?:\(\s*)?,?\s*(?:(?i:of|under|in)(?:\s+(?:[0-9]{1,4}|##\s*Page\s+[0-9]+)(?=\s))*\s+)?"
    r"(?:(?P<the>(?i:the|this|that))\s+(?:(?i:said)\s+)?)?"
    r"(?:(?P<act>" + ACT + r")(?:\s*\(\s*[A-Za-z.]{2,8}\s*\))?(?:\s*,?\s*(?P<year>1[89][0-9][0-9]|20[0-4][0-9])(?![0-9]))?"
    r"|(?P<other>" + OTHER + r")|(?P<generic>Code|Act|Sanhita|Adhiniyam)\b)")
#: An Act named right before a keyword: "Bharatiya Nyaya Sanhita, 2023, s. 103(1)", "IPC Section 420".
LEAD_ACT_RE = re.compile(r"(?P<lact>" + ACT + r")(?:\s*\(\s*[A-Za-z.]{2,8}\s*\))?(?:\s*,?\s*(?P<lyear>[0-9]{4}))?\s*,?\s*\Z")
#: A definition of a short name: '(for short "the Code")', '(hereinafter referred to as "the Act")'.
ALIAS_RE = re.compile(
    r"\(\s*(?:(?:hereinafter|herein)\s+(?:referred\s+to\s+as|called)|for\s+short|in\s+short|in\s+brief|briefly)?"
    r"\s*,?\s*[“\"'‘]?(?P<alias>(?:the\s+)?(?:Code|Act|Sanhita|Adhiniyam))[”\"'’]?"
    r"\s*(?:,?\s*(?:for\s+short|in\s+short|in\s+brief))?\s*\)")
_BLOCK_WORDS = (r"articles?|arts?\.|para(?:graph)?s?\.?|pages?|pp?\.|nos?\.|chapters?|schedules?|clauses?|items?|forms?|"
                r"entry|entries|annexures?|exhibits?|ex\.|regulations?|vol\.|volume|rs\.?|dated|of\s+[0-9]{4}|footnote|fn\.?")
_BLOCK_RE = re.compile(r"(?i:(?<![A-Za-z])(?:" + _BLOCK_WORDS + r"|rules?|orders?)\s*\Z)")
_BLOCK_KW_RE = re.compile(r"(?i:(?<![A-Za-z])(?:" + _BLOCK_WORDS + r")\s*\Z)")


def is_blocked_before(text: str, pos: int, *, keyword: bool = False) -> bool:
    """True when the word before ``pos`` makes the number something else ("Article 21", "para 302", "No. 420",
    "Order 39"). Before a section keyword (``keyword=True``) "order"/"rule" do not block: "orders under Sec. 27A",
    "Rules u/s 3" name a section."""
    return bool((_BLOCK_KW_RE if keyword else _BLOCK_RE).search(text, max(0, pos - 14), pos))


def act_of_match(m: re.Match, year: str | None = None) -> str:
    """The act code whose named group matched; "OTHER" for the Code of Criminal Procedure, 1898."""
    for code in _ACT_PARTS:
        if m.groupdict().get(code):
            if code == "CrPC" and year == "1898":
                return "OTHER"
            return code
    raise ValueError("no act group matched")
