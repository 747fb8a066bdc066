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
    from legal_rag.law.refs import parse_ref

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


def build() -> list[dict]:
    from legal_rag.config import Settings
    from legal_rag.eval.aila import TEST_QUERIES, load_qrels, load_queries
    from legal_rag.law import load_concordance
    from legal_rag.law.refs import parse_ref

    settings = Settings()
    corpus = settings.corpus_path
    conc = load_concordance(corpus)
    queries = load_queries(corpus)
    items: list[dict] = []

    # charge identification
    labels = {}
    for line in (corpus / CHARGE / "Labels.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        labels[d["chargeid"]] = d["text"]
    lab = label_sections(labels, ipc_sections(settings))
    facts = {}
    for name in ("Test-Doc.jsonl", "Train-Sent.jsonl"):
        for n, line in enumerate((corpus / CHARGE / name).read_text(encoding="utf-8").splitlines(), 1):
            d = json.loads(line)
            facts[(name, d["factid"])] = (n, d)

    def charge_item(kind, k, name, factid, question, length):
        n, d = facts[(name, factid)]
        text = " ".join(d["text"])
        leak = aila_overlap(text, queries)
        if leak:
            raise SystemExit(f"{name} {factid} near-copies AILA queries {leak}: not usable")
        olds = [f"IPC {s}" for lb in d["doc_labels"] for s in lab[lb][0]]
        note = "labels " + ", ".join(d["doc_labels"]) + ": " + " | ".join(f"{lb}: {lab[lb][1]}"
                                                                         for lb in d["doc_labels"])
        return item(f"F-{kind}{k:02d}", question, olds, conc, length=length,
                    offence_date=None if length == "short" else first_date(text),
                    source=f"{CHARGE}/{name}#line {n} factid {factid}", note=note, origin="charge_identification")

    for k, (name, factid, q) in enumerate(SHORT, 1):
        if len(q.split()) > 40:
            raise SystemExit(f"{factid}: a short question has {len(q.split())} words")
        items.append(charge_item("CS", k, name, factid, q, "short"))
    for k, (name, factid) in enumerate(LONG, 1):
        items.append(charge_item("CL", k, name, factid, " ".join(facts[(name, factid)][1]["text"]), "long"))

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
    with open(corpus / BNS_CSV, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    ipc_titles = {}
    for k, (section, letter, q, date) in enumerate(ILLUSTRATIONS, 1):
        if len(q.split()) > 40:
            raise SystemExit(f"BNS {section}({letter}): a short question has {len(q.split())} words")
        rec, sub, text = illustration(rows, section, letter)
        ref = parse_ref(f"BNS {section}" + (f"({sub})" if sub else ""), sections=conc.sections).ref
        pred = conc.predecessors(ref)
        if pred.status != "mapped":
            raise SystemExit(f"{ref}: no predecessor in the table ({pred.status})")
        olds = [str(t) for t in pred.targets]
        if not ipc_titles:
            ipc_titles = {n: s.title for n, s in ipc_sections(settings).items()}
        titles = {n: re.sub(r"\W+$", "", t.strip()).lower() for n, t in ipc_titles.items()}
        for o in list(olds):
            name = re.sub(r"^definition of ", "", titles.get(o.split()[1], "-"))
            olds += [f"IPC {n}" for n, t in sorted(titles.items()) if t in (f"punishment for {name}",
                                                                             f"punishment of {name}")]
        items.append(item(f"F-IL{k:02d}", q, olds, conc, length="short", offence_date=date,
                          source=f"{BNS_CSV}#record {rec} (BNS {section} illustration{f' ({letter})' if letter else ''})",
                          note=f"printed under {ref}: \"{text[:140]}\"; old = its BPR&D predecessor(s) + the punishing "
                               "IPC section by title", origin="bns_illustration"))

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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the file instead of writing it")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    text = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in build())
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
