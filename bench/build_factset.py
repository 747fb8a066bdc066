"""Build ``bench/factset.jsonl``: fact-pattern questions ("which sections apply to these facts?") with gold
sections from the official BPR&D correspondence tables only.

Run: ``.venv/bin/python bench/build_factset.py`` (deterministic: same sources, same file; ``--check`` compares
instead of writing). Sources (all read in place under ``Settings().corpus_path`` or ``../shared/cases``):

* **charge identification** (``benchmarks/charge_identification``, Paul et al.): facts labelled with charge names.
  A label is turned into IPC sections by two rules over the sources, never by memory:
  (1) *defining section*: the IPC section (as ingested by the project from the Legislative Dept PDF) whose text
  best covers the label's own statutory text in ``Labels.jsonl`` (share of the first clause's word 5-grams found
  in the section; ties broken by all clauses); (2) *punishing section*: the IPC section titled
  "Punishment for/of <defining title>" when the IPC has one (IPC 300 "Murder" -> 302 "Punishment for murder").
  Facts that near-copy an AILA 2019 query (word 8-gram overlap > 5 %) are never used: Q11-Q50 are test
  queries, Q1-Q10 come in their own right below. Some facts are shortened to a client's words (``SHORT``, our
  text, <= 40 words), some kept whole as printed (``LONG``).
* **AILA 2019 training queries Q1-Q10 only** (``Query_doc.txt``), less any that near-copies a test query
  (AILA_Q2 shares 80 % of its word 8-grams with the test query AILA_Q50: left out); gold statutes from
  ``relevance_judgments_statutes.txt`` identified as IPC/CrPC/IEA sections by
  ``DERIVED_aila_statute_to_section_and_successor.csv`` (statutes it does not identify are left out, the note
  says which).
* **illustrations printed in the BNS** (``statutes/structured/bns_sections_kaggle_cmrit.csv``), retold as a
  client's question (``ILLUSTRATIONS``); the gold is the sub-section under which the illustration is printed,
  its BPR&D predecessor(s) and the predecessor's punishing section by rule (2).
* **field cases with fact patterns** (``../shared/cases/field-cases.md``: BL-58, BL-61, BL-31 A/B, BL-44); the
  old-code sections are the ones the case names.

**Tuning split** (``--leadtune``, writes ``bench/leadtune.jsonl``): questions for choosing rules of the product
(how many section suggestions led the passages, a rule the section ranker, ``legal_rag.rank``, replaced) that neither dev set
(``bench/devset.jsonl``, ``bench/factset.jsonl``) nor any test uses, with gold by the same rules:

* charge-identification **training** facts (``Train-Sent.jsonl``) that the fact set does not use (``TUNE_SHORT``:
  retold in a client's words by us, <= 40 words; ``TUNE_LONG``: kept whole as printed);
* BNS illustrations the fact set does not use, retold (``TUNE_ILLUSTRATIONS``);
* statute-title questions: the ``subject`` column of every BPR&D row (``BPRD_correspondence_BNS_to_IPC_clean.csv``)
  that reads "Punishment for ...", names one IPC section and is not a row the 45-question dev set was written from
  (its ``source_row``), verbatim (rows whose subject only points back, "Punishment for above offence", and rows
  with no IPC section are skipped). The old-code gold is the row's IPC section, the new-code gold its successors.

The builder refuses a tuning item whose source line is one the fact set uses, a BPR&D row the dev set cites, a
fact that near-copies an AILA query, or a fact whose own judgment is in the case base (``CASEBASE_COPIES``; the
evidence would find the judgment the facts were copied from; ``--casebase DIR`` measures that list again).

Every new-code gold is a BPR&D successor of an old-code gold through :mod:`legal_rag.law.concordance`
(sub-sections kept: ``BNS 318(4)``). ``offence_date``: the date the question states; for a long statement of a
decided case, the first full date printed in it (all before 1 July 2024, so the era is old; the day is not
necessarily the offence's); otherwise null (no date: both eras' gold count).
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "factset.jsonl"
LEADTUNE = ROOT / "bench" / "leadtune.jsonl"
BPRD_CSV = "mappings/BPRD_correspondence_BNS_to_IPC_clean.csv"
DEVSET = ROOT / "bench" / "devset.jsonl"
CHARGE = "benchmarks/charge_identification"
AILA = "benchmarks/aila2019"
BNS_CSV = "statutes/structured/bns_sections_kaggle_cmrit.csv"

# --- hand-written rephrasings (the wording is ours; the gold comes from the source's labels) -----------------
# (file, factid, question)
SHORT = [
    ("Test-Doc.jsonl", "1959_N_10", "My husband married another woman while I, his first wife, am alive and we were "
                                    "never divorced. The second wife knew. What offence have they committed?"),
    ("Test-Doc.jsonl", "1976_N_9", "A gang broke into our house at night and looted our belongings. Which "
                                   "sections can the police apply?"),
    ("Test-Doc.jsonl", "2001_S_637", "Three men entered a government forest, cut twelve sheesham trees and tried to "
                                     "drive the logs away in a van. What charges apply?"),
    ("Test-Doc.jsonl", "2007_S_611", "A neighbour told an 18-year-old girl her father was inside his house, pulled "
                                     "her in, bolted the door and forced intercourse on her. Which sections apply?"),
    ("Test-Doc.jsonl", "2007_S_625", "A man tried to drag his brother's widow to his house against her will; when his "
                                     "other brother objected, he hit him on the head with a wooden plank and killed "
                                     "him."),
    ("Test-Doc.jsonl", "2009_S_934", "An auto driver offered to drop a girl at her relative's house, drove her to "
                                     "lonely bushes instead, threatened to kill her and raped her. What is he "
                                     "charged with?"),
    ("Test-Doc.jsonl", "2015_S_281", "My brothers attacked me and my friends with a club, a chopper and sickles when "
                                     "we came to take my almirah, and smashed our car's glass and tyres."),
    ("Test-Doc.jsonl", "2017_R_125", "My insured truck was stolen one night at Bhiwari in Rajasthan. Which offence "
                                     "is that?"),
    ("Test-Doc.jsonl", "2017_R_78", "My brothers threatened and manhandled me to make me sell my shop, then forged my "
                                    "signature on a fake rent receipt to claim they are my tenants."),
    ("Test-Doc.jsonl", "2005_R_116", "A group of men carrying deadly weapons barged into our house and attacked my "
                                     "father and my brother. Which sections apply?"),
    ("Test-Doc.jsonl", "2016_S_231", "My son-in-law strangled my pregnant daughter and buried her quickly without "
                                     "telling any of us. What are the charges?"),
    ("Test-Doc.jsonl", "2003_S_437", "A man known to the family called a five-year-old girl away to his house; her "
                                     "grandmother found him lying naked on top of her."),
    ("Train-Sent.jsonl", "1975_S_146", "Someone signed my name on a money order that was sent to me and collected the "
                                       "money from the postman. What offence is this?"),
    ("Train-Sent.jsonl", "1991_D_26", "A man snatched the gold chain from my wife's neck through the bus window and "
                                      "ran away; people caught him. What is the charge?"),
    ("Train-Sent.jsonl", "1997_T_91", "A man with no law degree and no Bar Council enrolment got into our Bar "
                                      "Association by claiming he was enrolled and practised as an advocate for eight "
                                      "years."),
    ("Train-Sent.jsonl", "2008_S_706", "I sent demand drafts of Rs 1.68 lakh to the company's sales in-charge for "
                                       "goods; they kept the money and never supplied anything. Which sections apply?"),
    ("Train-Sent.jsonl", "2008_S_582", "Two men we let sleep in our threshing yard went off in the night taking our "
                                       "minor daughter with them. What offence is this?"),
    ("Train-Sent.jsonl", "2009_B_136", "After the wedding my husband and his parents kept demanding more dowry and "
                                       "ill-treated me. Which law protects me?"),
    ("Train-Sent.jsonl", "2013_S_519", "Five or six men with pistols and knives burst into the jewellery workshop "
                                       "where I work and took the gold ornaments in a jute bag."),
    ("Train-Sent.jsonl", "2007_S_484", "Some young men went to Pakistan for terrorist training to take revenge for "
                                       "riots and came back to India to carry out attacks. What offences?"),
    ("Train-Sent.jsonl", "1971_H_29", "A buyer took carpets from us on credit, never paid the bills, promised payment "
                                      "from London and then hid his visits to India from us."),
    ("Train-Sent.jsonl", "1983_A_11", "The electricity board found that the accused had fixed two switches to "
                                      "bypass his meter; lights and fans ran but the meter recorded nothing."),
]
# statements kept whole as printed: (file, factid)
LONG = [
    ("Test-Doc.jsonl", "1959_M_1"), ("Test-Doc.jsonl", "1987_S_345"), ("Test-Doc.jsonl", "1969_S_160"),
    ("Test-Doc.jsonl", "1995_T_36"), ("Test-Doc.jsonl", "2009_M_295"), ("Test-Doc.jsonl", "2012_S_374"),
    ("Test-Doc.jsonl", "2013_S_297"), ("Test-Doc.jsonl", "2017_B_3"), ("Test-Doc.jsonl", "2017_U_15"),
    ("Test-Doc.jsonl", "1994_S_69"), ("Train-Sent.jsonl", "1980_T_41"), ("Train-Sent.jsonl", "1997_S_568"),
    ("Train-Sent.jsonl", "2007_S_285"),
]
# BNS illustrations: (section, illustration letter or "" for a single one, question, offence date or None)
ILLUSTRATIONS = [
    ("318", "a", "A man pretending to be a government officer got goods from my shop on credit and never meant to "
                 "pay. Which section applies?", None),
    ("318", "e", "Someone pledged fake stones as diamonds with me and took a loan against them on 10 August 2024. "
                 "What offence is that?", "2024-08-10"),
    ("318", "f", "A friend borrowed money from me saying he would repay it, but he never intended to repay. Is this "
                 "a crime?", None),
    ("303", "d", "Our house servant ran away with the silver plate we had asked him to look after. What is the "
                 "offence?", None),
    ("303", "f", "A guest found a ring on the table in my house and quietly took it away. Which section covers "
                 "this?", None),
    ("316", "b", "I left my furniture with a warehouse keeper while travelling, under a contract to return it; he "
                 "sold it. Which section?", None),
    ("316", "c", "My agent was supposed to invest the Rs 1 lakh I sent him as I directed, but used it in his own "
                 "business in September 2024.", "2024-09-15"),
    ("308", "a", "A man says he will publish defamatory things about me unless I pay him money, and I paid. What "
                 "offence is this?", None),
    ("308", "e", "I got a message on my phone: 'your child is with me and will be killed unless you send one lakh "
                 "rupees'. I paid.", None),
    ("309", "b", "A man stopped me on the highway, showed a pistol and demanded my purse; I handed it over. What "
                 "is the offence?", None),
    ("324", "h", "My neighbour drove his cattle into my field on purpose to damage my crop. What can I file?", None),
    ("324", "g", "I own a horse jointly with my cousin; he shot it to cause me loss on 5 October 2024. Which "
                 "section?", "2024-10-05"),
    ("351", "", "To stop me from pursuing my civil suit, a man threatened to burn my house. Which offence is that?",
     None),
    ("319", "a", "A man cheated people by pretending to be a well-known rich banker of the same name. Which section "
                 "applies?", None),
]
# field cases: (case id, question, offence date, old-code sections the case names, note)
FIELD = [
    ("BL-58", "My client was cheated of Rs 5 lakh by someone who promised a government job. Which sections apply "
              "and what is the maximum punishment?", None, ["IPC 420"],
     "question verbatim from the field case; BNS 111 (organised crime) must not lead"),
    ("BL-61", "Which section applies to a dowry death?", "2024-05-10", ["IPC 304B"],
     "question and offence date verbatim; the evidence presumption (IEA 113B / BSA 118) is a second topic, not gold"),
    ("BL-31A", "I was cheated on 20 June 2024 and the FIR was filed on 5 July 2024. Which section applies?",
     "2024-06-20", ["IPC 420"], "field case BL-31 A retold; substantive law at the offence date"),
    ("BL-31B", "Someone trespassed on my land and insulted me on 1 July 2024; police registered it under IPC 447 "
               "and 504. Which sections should apply?", "2024-07-01", ["IPC 447", "IPC 504"],
     "field case BL-31 B retold; expected BNS 329(3) and 352"),
    ("BL-44", "FIR for incidents between 2 April and 28 June 2024 u/s 376(2)(n), 354, 147, 452, 504, 506 IPC and "
              "Section 4 POCSO Act. Which sections apply?", "2024-06-28",
     ["IPC 376(2)(n)", "IPC 354", "IPC 147", "IPC 452", "IPC 504", "IPC 506"],
     "field case BL-44 (FIR section string, offence date verbatim); POCSO s.4 is another Act, not scored"),
]

# --- the tuning split (bench/leadtune.jsonl): sources the fact set and the dev set do not use ---------------------
# Train-Sent facts retold in a client's words (ours; gold from the source's labels): (file, factid, question)
TUNE_SHORT = [
    ("Train-Sent.jsonl", "1971_P_34", "My husband married a second wife while I am still his wife. Can he be "
                                      "prosecuted?"),
    ("Train-Sent.jsonl", "2013_J_12", "A man raped a girl of five, killed her, packed her body in a sack and left it "
                                      "on a train. What are the charges?"),
    ("Train-Sent.jsonl", "2009_S_520", "He got a cashier's job by producing a fake university degree certificate."),
    ("Train-Sent.jsonl", "2010_H_17", "A hotel guard fired his gun at a mob chasing a guest. What offence?"),
    ("Train-Sent.jsonl", "2003_T_76", "Ten men attacked a man, killed him, took Rs 8,000 from him, beat his wife and "
                                      "snatched her ear-studs. What are the charges?"),
    ("Train-Sent.jsonl", "2010_S_584", "The truck carrying us on its load of stones overturned on the highway; my "
                                       "brother died and seven of us were hurt. What case lies against the driver?"),
    ("Train-Sent.jsonl", "2017_S_307", "Boxes of RDX, firearms and bags of weapons were smuggled into the country and "
                                       "unloaded in our district. What offences?"),
    ("Train-Sent.jsonl", "1974_D_35", "A Naxalite leader was arrested in a hideout with a huge store of arms, "
                                      "ammunition and explosives. Which offences?"),
    ("Train-Sent.jsonl", "2011_S_282", "A man hurled a stone at the temple priest's head, killing him, and damaged "
                                       "the idol. What are the charges?"),
    ("Train-Sent.jsonl", "2001_B_138", "A gang came to our shop, beat my brothers, took Rs 600 and some papers and "
                                       "damaged the showroom. Which sections apply?"),
    ("Train-Sent.jsonl", "2011_D_45", "Armed men came onto our plot and beat me and my mother."),
    ("Train-Sent.jsonl", "2018_P_3", "A trustee and bank officials forged the trust's account books and siphoned off "
                                     "Rs 42 lakh. Which sections?"),
    ("Train-Sent.jsonl", "2009_S_747", "A man with no title to my land sold part of it by forged sale deeds, and when "
                                       "I objected his buyer and he abused me and hit me."),
    ("Train-Sent.jsonl", "2014_S_201", "Two people were caught collecting Rs 15 lakh from a company's contractor to "
                                       "pass on to Naxalites. What offence?"),
    ("Train-Sent.jsonl", "2008_S_923", "Men dragged a woman out of the room where she was staying for the night, "
                                       "carried her to a forest and raped her."),
    ("Train-Sent.jsonl", "1965_B_3", "Factory owners tampered with their electricity meters so that they recorded "
                                     "less power."),
]
# Train-Sent facts kept whole as printed: (file, factid)
TUNE_LONG = [
    ("Train-Sent.jsonl", "1996_R_189"), ("Train-Sent.jsonl", "2008_R_112"), ("Train-Sent.jsonl", "2008_S_335"),
    ("Train-Sent.jsonl", "2012_K_48"), ("Train-Sent.jsonl", "1963_J_12"), ("Train-Sent.jsonl", "1958_S_9"),
    ("Train-Sent.jsonl", "1962_T_86"), ("Train-Sent.jsonl", "2000_C_31"), ("Train-Sent.jsonl", "2008_S_230"),
    ("Train-Sent.jsonl", "2017_M_68"), ("Train-Sent.jsonl", "2008_B_65"), ("Train-Sent.jsonl", "2008_S_916"),
    ("Train-Sent.jsonl", "2014_S_427"), ("Train-Sent.jsonl", "2008_V_85"),
]
# Train-Sent facts whose own judgment is in the full case base (>= 50 % of the fact's word 8-grams in one case-base
# judgment; measured on the 2,936-judgment case base, ``--casebase DIR`` measures it again): never in the tuning
# split, where the evidence would find the very judgment the facts were copied from (real questions are not copies)
CASEBASE_COPIES = frozenset({
    "1976_R_24", "1978_H_12", "1980_S_302", "1989_P_57", "1999_S_433", "1999_S_78", "2002_S_258", "2002_S_626",
    "2003_S_282", "2004_S_44", "2007_R_125", "2008_S_1065", "2008_S_582", "2009_B_136", "2009_B_92", "2009_H_114",
    "2012_T_36", "2013_S_329", "2014_S_159", "2014_S_195", "2015_S_491", "2016_S_274",
})
# BNS illustrations the fact set does not use, retold (ours): (section, letter, question, offence date)
TUNE_ILLUSTRATIONS = [
    ("303", "a", "A man cut down a tree on my land so that he could carry it away.", None),
    ("308", "b", "He threatened to lock up my child unless I signed a promissory note to pay him money, so I "
                 "signed it. Which section applies?", None),
    ("314", "d", "A man saw me drop my purse, picked it up saying he would return it, and then kept the money.",
     None),
    ("316", "f", "I gave a transporter my goods to carry to Delhi and he sold them on the way. What offence is "
                 "this?", None),
    ("318", "c", "A trader showed me a good sample, took my money, and delivered goods that were nothing like it.",
     None),
    ("319", "b", "Someone pretended to be my late father at the bank and withdrew money from his account.", None),
    ("324", "a", "My debtor burnt the promissory note he had signed, to make me lose the money.", None),
    ("335", "c", "Someone picked up a signed blank cheque of mine and filled in ten thousand rupees.", None),
    ("127", "a", "My brother-in-law locked me inside a walled compound so that I could not go anywhere. What can I "
                 "do?", None),
    ("101", "a", "A man shot my uncle intending to kill him, and my uncle died. Which section?", None),
    ("130", "a", "A neighbour shook his fist in my face as if he was going to hit me.", None),
]

MONTHS = {m: i for i, m in enumerate(("january february march april may june july august september october "
                                      "november december").split(), 1)}
_DATE_PATTERNS = (
    (re.compile(r"\b(\d{1,2})\.(\d{1,2})\.((?:19|20)\d\d)\b"), lambda m: (int(m[3]), int(m[2]), int(m[1]))),
    (re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?([A-Z][a-z]+),?\s+((?:19|20)\d\d)\b"),
     lambda m: (int(m[3]), MONTHS.get(m[2].lower(), 0), int(m[1]))),
    (re.compile(r"\b([A-Z][a-z]+)\s+(\d{1,2}),\s+((?:19|20)\d\d)\b"),
     lambda m: (int(m[3]), MONTHS.get(m[1].lower(), 0), int(m[2]))),
)


def first_date(text: str) -> str | None:
    """The first full date printed in ``text`` ("September 9, 1953", "9th May, 2004", "23.2.1999") as ISO."""
    found = []
    for rx, conv in _DATE_PATTERNS:
        for m in rx.finditer(text):
            try:
                found.append((m.start(), dt.date(*conv(m)).isoformat()))
            except ValueError:
                pass
    return min(found)[1] if found else None


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def shingles(text: str, k: int) -> set[str]:
    w = words(text)
    return {" ".join(w[i:i + k]) for i in range(len(w) - k + 1)}


def coverage(clause: str, text_grams: set[str], k: int = 5) -> float:
    g = shingles(clause, min(k, len(words(clause))))
    return len(g & text_grams) / len(g) if g else 0.0


def aila_overlap(text: str, queries: dict[str, str]) -> dict[str, float]:
    """Share of ``text``'s word 8-grams found in each AILA query (only those above 5 %)."""
    s = shingles(text, 8)
    out = {}
    for q, qt in queries.items():
        ov = len(s & shingles(qt, 8)) / max(1, len(s))
        if ov > 0.05:
            out[q] = round(ov, 2)
    return out


def ipc_sections(settings):
    """{section number: Section} of the IPC as the project ingests it: from the real test index when it is built
    (tests/conftest.py::_real_settings), else through :func:`legal_rag.eval.acts.load_sections`."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from conftest import _real_settings  # noqa: E402

        real = _real_settings()
        if (real.data_dir / "CURRENT").exists():
            from legal_rag.pipeline import Pipeline

            secs = Pipeline(real).index.sections()
            return {r.section: s for r, s in secs.items() if r.act == "IPC" and not r.sub}
    except Exception as e:  # pragma: no cover - fallback path
        print(f"real index not usable ({e}); parsing the Acts", file=sys.stderr)
    from legal_rag.eval.acts import load_sections

    return {s.ref.section: s for s in load_sections(settings)[0] if s.ref.act == "IPC"}


def label_sections(labels: dict[str, list[str]], ipc) -> dict[str, tuple[list[str], str]]:
    """label -> ([defining, punishing?] IPC section numbers, how they were found) by the rules in the docstring."""
    grams = {num: shingles(s.text, 5) for num, s in ipc.items()}
    titles = {num: re.sub(r"\W+$", "", s.title.strip()).lower() for num, s in ipc.items()}
    out = {}
    for label, clauses in labels.items():
        scored = sorted(((coverage(clauses[0], g), sum(coverage(c, g) for c in clauses), num)
                         for num, g in grams.items()), key=lambda t: (-t[0], -t[1], t[2]))
        first, total, num = scored[0]
        if total < 0.5:  # not even half a clause of the label's text is in the best section
            raise SystemExit(f"label {label!r}: no IPC section holds its text (best {num} {first:.2f}/{total:.2f})")
        name = re.sub(r"^definition of ", "", titles[num])
        punish = sorted(n for n, t in titles.items() if t in (f"punishment for {name}", f"punishment of {name}"))
        how = (f"label text -> IPC {num} ('{ipc[num].title.strip()}', first clause {first:.0%} found, {total:.1f} of {len(clauses)} clauses)"
               + (f"; punishing section by title: IPC {', '.join(punish)}" if punish else ""))
        out[label] = ([num] + punish, how)
    return out


def successors(conc, olds: list[str]) -> list[str]:
    from legal_rag.law import parse_ref

    out: list[str] = []
    for o in olds:
        ref = parse_ref(o, sections=conc.sections).ref
        c = conc.successors(ref)
        if c.status != "mapped":
            raise SystemExit(f"{o}: the table gives no successor ({c.status})")
        out += [str(t) for t in c.targets if str(t) not in out]
    return out


def item(id_, question, olds, conc, *, length, offence_date, source, note, origin):
    olds = list(dict.fromkeys(olds))
    new = successors(conc, olds)
    return {"id": id_, "question": question, "gold": new + olds, "gold_new": new, "gold_old": olds,
            "length": length, "offence_date": offence_date, "source": source, "note": note, "origin": origin}


def illustration(rows: list[dict], section: str, letter: str) -> tuple[int, str, str]:
    """(CSV record number, sub-section label the illustration is printed under, its text)."""
    for i, r in enumerate(rows, 1):
        if r["Section"].strip() == section:
            desc = r["Description"]
            head = re.search(r"^Illustrations?\.?", desc, re.M)
            if not head:
                break
            if letter:
                m = re.compile(rf"^\({letter}\)\s+(.*)$", re.M).search(desc, head.end())
            else:
                m = re.compile(r"^\s*(\S.*)$", re.M).search(desc, head.end())
            if not m:
                break
            subs = re.findall(r"^\((\d+)\)", desc[:head.start()], re.M)
            return i, (subs[-1] if subs else ""), m.group(1).strip()
    raise SystemExit(f"BNS {section}: illustration {letter!r} not found in {BNS_CSV}")


class _Sources:
    """What both splits read, loaded once: concordance, AILA queries, charge labels -> IPC sections, the charge
    facts ``{(file, factid): (line number, record)}``, the BNS csv rows and the IPC titles."""

    def __init__(self):
        from legal_rag.config import Settings
        from legal_rag.eval.aila import load_queries
        from legal_rag.law import load_concordance

        self.settings = settings = Settings()
        self.corpus = corpus = settings.corpus_path
        self.conc = load_concordance(corpus)
        self.queries = load_queries(corpus)
        labels = {}
        for line in (corpus / CHARGE / "Labels.jsonl").read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            labels[d["chargeid"]] = d["text"]
        ipc = ipc_sections(settings)
        self.lab = label_sections(labels, ipc)
        self.facts = {}
        for name in ("Test-Doc.jsonl", "Train-Sent.jsonl"):
            for n, line in enumerate((corpus / CHARGE / name).read_text(encoding="utf-8").splitlines(), 1):
                d = json.loads(line)
                self.facts[(name, d["factid"])] = (n, d)
        with open(corpus / BNS_CSV, encoding="utf-8", newline="") as fh:
            self.rows = list(csv.DictReader(fh))
        self.titles = {n: re.sub(r"\W+$", "", sec.title.strip()).lower() for n, sec in ipc.items()}

    def charge_item(self, id_, name, factid, question, length):
        n, d = self.facts[(name, factid)]
        text = " ".join(d["text"])
        leak = aila_overlap(text, self.queries)
        if leak:
            raise SystemExit(f"{name} {factid} near-copies AILA queries {leak}: not usable")
        olds = [f"IPC {s}" for lb in d["doc_labels"] for s in self.lab[lb][0]]
        note = "labels " + ", ".join(d["doc_labels"]) + ": " + " | ".join(f"{lb}: {self.lab[lb][1]}"
                                                                         for lb in d["doc_labels"])
        return item(id_, question, olds, self.conc, length=length,
                    offence_date=None if length == "short" else first_date(text),
                    source=f"{CHARGE}/{name}#line {n} factid {factid}", note=note, origin="charge_identification")

    def punishing(self, olds: list[str]) -> list[str]:
        """``olds`` plus, for each, the IPC section titled "Punishment for/of <its title>" (rule (2))."""
        out = list(olds)
        for o in olds:
            name = re.sub(r"^definition of ", "", self.titles.get(o.split()[1], "-"))
            out += [f"IPC {n}" for n, t in sorted(self.titles.items()) if t in (f"punishment for {name}",
                                                                                 f"punishment of {name}")]
        return out

    def illustration_item(self, id_, section, letter, q, date):
        from legal_rag.law import parse_ref

        if len(q.split()) > 40:
            raise SystemExit(f"BNS {section}({letter}): a short question has {len(q.split())} words")
        rec, sub, text = illustration(self.rows, section, letter)
        ref = parse_ref(f"BNS {section}" + (f"({sub})" if sub else ""), sections=self.conc.sections).ref
        pred = self.conc.predecessors(ref)
        if pred.status != "mapped":
            raise SystemExit(f"{ref}: no predecessor in the table ({pred.status})")
        olds = self.punishing([str(t) for t in pred.targets])
        return item(id_, q, olds, self.conc, length="short", offence_date=date,
                    source=f"{BNS_CSV}#record {rec} (BNS {section} illustration{f' ({letter})' if letter else ''})",
                    note=f"printed under {ref}: \"{text[:140]}\"; old = its BPR&D predecessor(s) + the punishing "
                         "IPC section by title", origin="bns_illustration")


def build() -> list[dict]:
    from legal_rag.eval.aila import TEST_QUERIES, load_qrels
    from legal_rag.law import parse_ref

    src = _Sources()
    corpus, conc, queries = src.corpus, src.conc, src.queries
    items: list[dict] = []

    # charge identification
    for k, (name, factid, q) in enumerate(SHORT, 1):
        if len(q.split()) > 40:
            raise SystemExit(f"{factid}: a short question has {len(q.split())} words")
        items.append(src.charge_item(f"F-CS{k:02d}", name, factid, q, "short"))
    for k, (name, factid) in enumerate(LONG, 1):
        items.append(src.charge_item(f"F-CL{k:02d}", name, factid, " ".join(src.facts[(name, factid)][1]["text"]),
                                     "long"))

    # AILA 2019 training queries Q1-Q10 only
    derived = {}
    with open(corpus / AILA / "DERIVED_aila_statute_to_section_and_successor.csv", encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            derived[r["aila_statute_id"]] = f"{r['old_act']} {r['old_section']}"
    qrels = load_qrels(corpus, "task2")
    for i in range(1, 11):
        q = f"AILA_Q{i}"
        gold_ids = sorted((s for s, rel in qrels.get(q, {}).items() if rel > 0), key=lambda s: int(s[1:]))
        mapped = [s for s in gold_ids if s in derived]
        leak = aila_overlap(queries[q], {t: queries[t] for t in TEST_QUERIES})
        if not mapped or leak:  # AILA_Q2 near-copies the test query AILA_Q50 (80 % of its 8-grams): left out
            print(f"{q} left out: " + (f"near-copies test queries {leak}" if leak else "no identified gold"),
                  file=sys.stderr)
            continue
        olds = [str(parse_ref(derived[s], sections=conc.sections).ref) for s in mapped]
        missing = [s for s in gold_ids if s not in derived]
        items.append(item(f"F-AQ{i:02d}", queries[q], olds, conc, length="long", offence_date=first_date(queries[q]),
                          source=f"{AILA}/Query_doc.txt#{q}; relevance_judgments_statutes.txt",
                          note=f"{len(mapped)} of {len(gold_ids)} gold statutes identified by the DERIVED csv "
                               f"({', '.join(f'{s}={derived[s]}' for s in mapped)})"
                               + (f"; not identified: {', '.join(missing)}" if missing else ""),
                          origin="aila2019_train"))

    # BNS illustrations
    for k, (section, letter, q, date) in enumerate(ILLUSTRATIONS, 1):
        items.append(src.illustration_item(f"F-IL{k:02d}", section, letter, q, date))

    # field cases
    cases = (corpus.parent / "cases" / "field-cases.md")
    case_text = cases.read_text(encoding="utf-8") if cases.exists() else ""
    for cid, q, date, olds, note in FIELD:
        base = cid.rstrip("AB")
        if case_text and f"| {base} " not in case_text:
            raise SystemExit(f"{base} not in {cases}")
        items.append(item(f"F-{cid}", q, olds, conc, length="short", offence_date=date,
                          source=f"cases/field-cases.md#{base}", note=note, origin="field_case"))
    return items


def dev_rows(path: Path = DEVSET) -> set[int]:
    """The BPR&D row numbers (``...clean.csv#N``) the 45-question dev set was written from."""
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line).get("source_row", "")
            if row.startswith(BPRD_CSV + "#"):
                out.add(int(row.split("#")[1]))
    return out


def bprd_title_rows(corpus: Path, skip: set[int]) -> list[tuple[int, dict]]:
    """``(row number, row)`` of the BNS->IPC table (header = row 1) whose subject reads "Punishment for ...",
    whose ``ipc_section`` is one section ("342", "376AB") and whose subject is not a pointer back ("above
    offence", "same offence"); rows in ``skip`` left out."""
    with open(corpus / BPRD_CSV, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out = []
    for n, r in enumerate(rows, 2):
        subj = r["subject"].strip()
        if (n in skip or not subj.lower().startswith("punishment for")
                or not re.fullmatch(r"\d+[A-Z]*(\(\d+\))?", r["ipc_section"].strip())
                or re.search(r"\b(above|same) offence\b", subj.lower())):
            continue
        out.append((n, r))
    return out


def casebase_copies(casebase, texts: dict[str, str], share: float = 0.5) -> dict[str, tuple[float, str]]:
    """``{key: (share, case id)}`` for each of ``texts`` whose word 8-grams are found ``>= share`` in one judgment
    of ``casebase`` (:class:`legal_rag.index.casebase.CaseBase`: ``cases``, ``paragraphs(case)`` with ``.text``)."""
    from collections import defaultdict

    grams = {k: shingles(t, 8) for k, t in texts.items()}
    owner: dict[str, set[str]] = defaultdict(set)
    for k, g in grams.items():
        for x in g:
            owner[x].add(k)
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for case in casebase.cases:
        for p in casebase.paragraphs(case):
            for x in shingles(p.text, 8):
                for k in owner.get(x, ()):
                    found[k][case].add(x)
    out = {}
    for k, per in found.items():
        best = max((len(v) / max(1, len(grams[k])), c) for c, v in per.items())
        if best[0] >= share:
            out[k] = (round(best[0], 2), best[1])
    return out


def build_leadtune() -> list[dict]:
    """The tuning split (module docstring): items shaped as the fact set's, ids ``T-...``."""
    from legal_rag.law import parse_ref

    src = _Sources()
    conc = src.conc
    fact_lines = {(n, f) for n, f, _ in SHORT} | set(LONG)
    fact_ills = {(sec, let) for sec, let, _, _ in ILLUSTRATIONS}
    items: list[dict] = []
    seen: set = set()
    for k, (name, factid, q) in enumerate(TUNE_SHORT, 1):
        if (name, factid) in fact_lines or (name, factid) in seen or name != "Train-Sent.jsonl" \
                or factid in CASEBASE_COPIES:
            raise SystemExit(f"{name} {factid}: used by the fact set, twice, a case-base copy or not a training fact")
        seen.add((name, factid))
        if len(q.split()) > 40:
            raise SystemExit(f"{factid}: a short question has {len(q.split())} words")
        items.append(src.charge_item(f"T-CS{k:02d}", name, factid, q, "short"))
    for k, (name, factid) in enumerate(TUNE_LONG, 1):
        if (name, factid) in fact_lines or (name, factid) in seen or name != "Train-Sent.jsonl" \
                or factid in CASEBASE_COPIES:
            raise SystemExit(f"{name} {factid}: used by the fact set, twice, a case-base copy or not a training fact")
        seen.add((name, factid))
        items.append(src.charge_item(f"T-CL{k:02d}", name, factid, " ".join(src.facts[(name, factid)][1]["text"]),
                                     "long"))
    for k, (section, letter, q, date) in enumerate(TUNE_ILLUSTRATIONS, 1):
        if (section, letter) in fact_ills:
            raise SystemExit(f"BNS {section}({letter}): the fact set uses this illustration")
        items.append(src.illustration_item(f"T-IL{k:02d}", section, letter, q, date))
    for k, (n, r) in enumerate(bprd_title_rows(src.corpus, dev_rows()), 1):
        old = parse_ref(f"IPC {r['ipc_section'].strip()}", sections=conc.sections)
        bns = parse_ref(f"BNS {r['bns_section'].replace(' ', '')}", sections=conc.sections)
        if old.status != "ok" or bns.status != "ok":
            raise SystemExit(f"{BPRD_CSV}#{n}: {r['ipc_section']!r} / {r['bns_section']!r} do not parse")
        it = item(f"T-BP{k:02d}", r["subject"].strip().rstrip("."), [str(old.ref)], conc, length="short",
                  offence_date=None, source=f"{BPRD_CSV}#{n}",
                  note=f"subject of the BPR&D row, verbatim; the row pairs BNS {r['bns_section']} with IPC "
                       f"{r['ipc_section']}", origin="bprd_title")
        if not any(g == str(bns.ref) or g.startswith(str(bns.ref) + "(") or str(bns.ref).startswith(g + "(")
                   for g in it["gold_new"]):
            raise SystemExit(f"{BPRD_CSV}#{n}: the table's successors of {old.ref} {it['gold_new']} miss {bns.ref}")
        items.append(it)
    return items


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the file instead of writing it")
    ap.add_argument("--leadtune", action="store_true", help="the tuning split (bench/leadtune.jsonl) instead")
    ap.add_argument("--casebase", type=Path, default=None,
                    help="measure which Train-Sent facts a saved case base holds and compare with CASEBASE_COPIES")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    if a.casebase is not None:
        from legal_rag.config import Settings
        from legal_rag.index.casebase import CaseBase

        path = Settings().corpus_path / CHARGE / "Train-Sent.jsonl"
        facts = {d["factid"]: " ".join(d["text"]) for d in map(json.loads, path.read_text(encoding="utf-8").splitlines())}
        found = casebase_copies(CaseBase.open(a.casebase), facts)
        for k, (sh, case) in sorted(found.items()):
            print(f"{k}: {sh:.2f} of its 8-grams in {case}")
        same = set(found) == CASEBASE_COPIES
        print("CASEBASE_COPIES " + ("agrees" if same else f"differs: {sorted(set(found) ^ CASEBASE_COPIES)}"))
        return 0 if same else 1
    a.out = a.out or (LEADTUNE if a.leadtune else OUT)
    text = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in (build_leadtune() if a.leadtune else build()))
    if a.check:
        same = a.out.exists() and a.out.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{a.out} differs from a fresh build")
        return 0 if same else 1
    a.out.write_text(text, encoding="utf-8")
    n = text.count("\n")
    print(f"wrote {n} items to {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
