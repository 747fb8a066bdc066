"""Agreement of the parsed First Schedules (offence classification, issue 14) with the Acts and the official table.

    .venv/bin/python bench/schedule_agreement.py [--out bench/results_schedule.md]

Parses both schedules afresh (``legal_rag.ingest.schedules.parse_schedule``, timed) and checks that the product's
loader (``load_schedule_prints``: the cache keyed by the PDFs' sha256 and the parser version) gives the same rows;
reads the sections of the IPC and the BNS through the project's ingestion (``legal_rag.eval.acts.load_sections``:
titles are the Gazette's / India Code's marginal headings) and the official BPR&D table
(``legal_rag.law.load_concordance``); runs every check of :mod:`legal_rag.eval.schedule` on every row. Writes the
figures and every failing row to ``--out``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from legal_rag.config import load_settings  # noqa: E402
from legal_rag.eval.acts import load_sections  # noqa: E402
from legal_rag.eval.schedule import (  # noqa: E402
    offence_agreement, pair_rows, punishment_agreement, row_label, section_exists, sections_by_ref,
)
from legal_rag.ingest.schedules import (  # noqa: E402
    PARSER_VERSION, load_schedule_prints, parse_schedule, schedule_paths,
)
from legal_rag.law import Schedule, default_section_sets, load_concordance  # noqa: E402


#: what the failures listed above turned out to be when read against the pages (none is a parsing error)
NOTES = [
    "- Offence words: the schedule paraphrases or adds distinctions the section's text does not make: a "
    "promissory note of the Central Government (IPC 467+, 471+, BNS 338+: column 4 differs for it), defamation of "
    "the President, a Governor or a Minister prosecuted on the Public Prosecutor's complaint (IPC 500, 501(a), "
    "502(a), BNS 356(2): a rule of procedure, CrPC s.199(2), whose successor is BNSS s.222 by the BPR&D pairs, "
    "official_correspondence_pairs_BPRD_via_leylegal.csv#782), \"unnatural offence\" for IPC 388's reference to "
    "s.377, other wording (BNS 208(b), 347(1)); IPC 164 is repealed (its text is only \"Rep. by ...\"); BNS "
    "326(d): the Act writes \"light-house\" and \"sea-mark\", the schedule \"lighthouse\" and \"seamark\" (BNSS "
    "p.184: \"326(d) Mischief by destroying or ... useful a lighthouse or / seamark\").",
    "- Punishment terms: IPC 161-165A were repealed by the Prevention of Corruption Act, 1988 (the IPC print "
    "keeps only \"Rep. by ...\"), yet the CrPC print still classifies them; IPC 137 / BNS 165 say \"penalty\" "
    "where the schedule says \"fine\"; IPC 488 punishes \"as if he had committed an offence against that "
    "section\" (no term to match); BNS 248(a): the term reader (`legal_rag.text.punishment_terms`) reads \"2 lakh "
    "rupees\" as 1 lakh, the section says two lakh.",
    "- IPC vs BNS: BNS 260(a)/(b) vs IPC 222: the CrPC print has \"Non-cognizable\" in the bailable column of "
    "IPC 222 (p.176: \"222 Intentional omission ... Ditto Non- Court of Session. / ... cognizable\"), so its "
    "bailable is read as unknown; the court of BNS 210, 213-215 and 267 differs only in the chapter it names "
    "(CrPC Chapter XXVI, BNSS Chapter XXVIII); the others are the two schedules as printed (e.g. BNS 75(2), 75(3): "
    "BNSS p.161 \"Cognizable. Non-bailable. Court of Session.\" against IPC 354A's \"Bailable\" and \"Any "
    "Magistrate\"; BNS 303(2)+: the new first-time petty theft row).",
]


def pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.1f}%)" if d else "0/0"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "bench" / "results_schedule.md"))
    args = ap.parse_args()
    settings = load_settings()
    t0 = time.time()
    fresh = tuple(parse_schedule(path, name) for name, path in schedule_paths(settings).items())
    t_parse = time.time() - t0
    load_schedule_prints(settings)  # writes the cache when it has no rows for these PDFs and this parser version
    t0 = time.time()
    prints = load_schedule_prints(settings)
    t_cache = time.time() - t0
    assert prints == fresh, "the cached rows differ from a fresh parse"
    schedule = Schedule(tuple(r for sp in prints for r in sp.rows))
    sections, origin = load_sections(settings)
    secs = sections_by_ref(sections)
    conc = load_concordance(settings.corpus_path)
    sets = default_section_sets()

    out: list[str] = ["# First Schedules: offence classification parsed from the Acts (issue 14)", "",
                      "Command: `.venv/bin/python bench/schedule_agreement.py` (parser version "
                      f"{PARSER_VERSION}). Parsing both schedules took {t_parse:.1f} s here (2 shared cores); "
                      f"loading them from the cache under `<data_dir>/cache/schedules` took {t_cache:.2f} s, "
                      "rows equal to the fresh parse.", "",
                      f"Sources: {', '.join(f'`../shared/corpora/statutes/pdf/{sp.source}`' for sp in prints)}; "
                      f"section headings and texts: the project's ingestion (origin `{origin}`); predecessors: the "
                      "official BPR&D table via `legal_rag.law.load_concordance`.", ""]

    out += ["## Rows parsed", "", "| schedule | lists | Part I pages | rows | rows without a number of their own | "
            "rows with a Ditto resolved | cognizable T/F/None | bailable T/F/None | columns found by | problems |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for sp in prints:
        cog = Counter(r.cognizable for r in sp.rows)
        bail = Counter(r.bailable for r in sp.rows)
        methods = Counter(m for _, m in sp.methods)
        out.append(f"| {sp.schedule} | {sp.act} | {sp.pages[0]}-{sp.pages[1]} | {len(sp.rows)} | "
                   f"{sum(r.continued for r in sp.rows)} | {sum(bool(r.ditto) for r in sp.rows)} | "
                   f"{cog[True]}/{cog[False]}/{cog[None]} | {bail[True]}/{bail[False]}/{bail[None]} | "
                   f"{', '.join(f'{m}: {n} pages' for m, n in methods.items())} | {len(sp.problems)} |")
    for sp in prints:
        for p in sp.problems:
            out.append(f"- {sp.schedule}: {p}")
    out.append("")

    rows = schedule.rows
    missing_sec = section_exists(rows, sets)
    out += ["## Every row's section exists in its Act", "",
            f"{pct(len(rows) - len(missing_sec), len(rows))} rows name an existing section (BNS 1-358; IPC 1-511 "
            "and the lettered sections of `legal_rag.law.sections`)."]
    out += [f"- FAIL {row_label(r)}: no such section" for r in missing_sec]
    gone = [r for r in rows if r.ref.base in secs and secs[r.ref.base].status != "in_force"]
    if gone:
        out += ["", f"{len(gone)} rows classify a section that the Act's print marks "
                f"{'/'.join(sorted({secs[r.ref.base].status for r in gone}))} (the schedule still lists it): "
                + ", ".join(row_label(r) for r in gone) + "."]
    out.append("")

    out += ["## Offence words vs the section's heading and text", "",
            "Share of the row's content words (stemmed, stop-words out) found in the section's heading or text; "
            "a row fails below 0.5. The schedule's column 2 is \"merely an indication of the substance of the "
            "section\" (Explanatory Note (1)), so a paraphrase is expected.", "",
            "| Act | rows checked | no offence text / no section text | mean coverage | mean in heading | rows >= 0.5 |",
            "|---|---|---|---|---|---|"]
    fails = []
    for act in schedule.acts():
        checks = [offence_agreement(r, secs.get(r.ref.base)) for r in rows if r.act == act]
        done = [c for c in checks if c.coverage is not None]
        ok = [c for c in done if c.coverage >= 0.5]
        fails += [c for c in done if c.coverage < 0.5]
        out.append(f"| {act} | {len(done)} | {len(checks) - len(done)} | "
                   f"{sum(c.coverage for c in done) / max(1, len(done)):.3f} | "
                   f"{sum(c.heading for c in done) / max(1, len(done)):.3f} | {pct(len(ok), len(done))} |")
    out.append("")
    out += [f"- FAIL {row_label(c.row)}: coverage {c.coverage:.2f}; words not in the section: "
            f"{', '.join(c.missing)}; offence: \"{c.row.offence}\"; heading: \"{secs[c.row.ref.base].title}\""
            for c in fails]
    out.append("")

    out += ["## Punishment terms vs the section's own text", "",
            "Terms of column 3 (years, months, days, life, death, fine, rupee amounts; `legal_rag.text."
            "punishment_terms`) that the section's text does not state. A row with no term (\"Same as for offence "
            "abetted\") is not checked.", "",
            "| Act | rows with terms | terms checked | terms stated in the section | rows with every term stated |",
            "|---|---|---|---|---|"]
    pfails = []
    for act in schedule.acts():
        n_rows = n_terms = n_ok = rows_ok = 0
        for r in (r for r in rows if r.act == act):
            sec = secs.get(r.ref.base)
            terms, missing = punishment_agreement(r, sec)
            if not terms or sec is None:
                continue
            n_rows += 1
            n_terms += len(terms)
            n_ok += len(terms) - len(missing)
            rows_ok += not missing
            if missing:
                pfails.append((r, missing))
        out.append(f"| {act} | {n_rows} | {n_terms} | {pct(n_ok, n_terms)} | {pct(rows_ok, n_rows)} |")
    out.append("")
    out += [f"- FAIL {row_label(r)}: {', '.join(sorted(m))} not in the section's text; column 3: \"{r.punishment}\""
            for r, m in pfails]
    out.append("")

    pairs = pair_rows([r for r in rows if r.act == "BNS"], schedule, conc)
    bns_n = sum(r.act == "BNS" for r in rows)
    out += ["## BNS rows vs their IPC predecessors' rows (official BPR&D table)", "",
            f"{pct(len(pairs), bns_n)} BNS rows have a predecessor with a CrPC-schedule row (the others are new "
            "offences or predecessors the CrPC schedule does not list). Each BNS row is paired with the "
            "predecessor row most like it (`legal_rag.eval.schedule.pair_rows`: offence words, then offence and "
            "punishment words and numbers). A difference can be a change of the law: "
            "reported, not fixed.", "",
            "| field | agree |", "|---|---|",
            f"| cognizable | {pct(sum(p.cognizable for p in pairs), len(pairs))} |",
            f"| bailable | {pct(sum(p.bailable for p in pairs), len(pairs))} |",
            f"| court | {pct(sum(p.court for p in pairs), len(pairs))} |",
            f"| all three | {pct(sum(p.cognizable and p.bailable and p.court for p in pairs), len(pairs))} |", ""]
    for p in pairs:
        if p.cognizable and p.bailable and p.court:
            continue
        diffs = [f"{name}: BNS \"{a}\" vs IPC \"{b}\"" for name, ok, a, b in (
            ("cognizable", p.cognizable, p.bns.cognizable_text, p.ipc.cognizable_text),
            ("bailable", p.bailable, p.bns.bailable_text, p.ipc.bailable_text),
            ("court", p.court, p.bns.court, p.ipc.court)) if not ok]
        out.append(f"- {row_label(p.bns)} vs {row_label(p.ipc)} [{p.source_row}]: {'; '.join(diffs)}")
    out.append("")
    out += [f"## Reading the failures (checked by hand against the printed pages, parser version {PARSER_VERSION})", "",
            *NOTES, ""]
    Path(args.out).write_text("\n".join(out), encoding="utf-8")
    print("\n".join(out[:40]))
    print(f"... written to {args.out}")


if __name__ == "__main__":
    main()
