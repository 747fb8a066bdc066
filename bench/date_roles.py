"""Date roles (issue 31): which date of a question is the offence's and which the proceeding's, and the era chosen.

Each phrasing of :data:`PHRASINGS` (our own: the date first or last, an FIR told in another sentence, "entrusted on",
DD.MM.YYYY and other day forms, a month and year, two dates, an ``offence_date`` argument) is asked once through
``Pipeline.ask`` (the default generator: extractive, no model) and the table gives, per phrasing, the offence and the
proceeding date the answer applied (``Answer.offence_date`` / ``proceeding_date``), the era chosen for the offence
(IPC before 1 July 2024, BNS from it: BNS s.358) and for procedure (CrPC / BNSS: BNSS s.531(2)), the date notices
and the answer's first line. ``want`` is the offence era the facts call for, written with the phrasing; "unclear"
where the text does not say what the date is of (the answer must then say which reading it took: a date notice).

``--analysis-only`` reads each phrasing with :func:`legal_rag.law.analyse` alone (no index): run against an older
checkout (``PYTHONPATH=<old tree>``) it gives the "before" column.

    python bench/date_roles.py --data-dir /work/idx [--casebase-limit 300] [--out bench/results_dates.md]
    PYTHONPATH=/tmp/before python bench/date_roles.py --analysis-only
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after a PYTHONPATH tree, so --analysis-only can read an older checkout

CUTOFF = dt.date(2024, 7, 1)


@dataclass(frozen=True)
class Phrasing:
    """One question: ``form`` what it tries, ``want`` the offence era the facts call for ("old", "new", "unclear"),
    ``want_proc`` the procedural era where the text dates a proceeding ("" when it does not), ``offence_date`` an
    argument given beside the text, ``said`` whether the answer must say a reading the text does not make plain (a
    month, an unclear date, acts on both sides of the cutoff, an argument against the text's date: a date notice)."""

    form: str
    question: str
    want: str
    want_proc: str = ""
    offence_date: str | None = None
    said: bool = False


PHRASINGS: tuple[Phrasing, ...] = (
    Phrasing("date last, FIR in the next sentence",
             "A jeweller sold me fake gold bangles on 14.06.2024. I am lodging an FIR now. Which sections apply?",
             "old"),
    Phrasing("date first, FIR in the next sentence",
             "On 14.06.2024 a jeweller sold me fake gold bangles. I am lodging an FIR now. Which sections apply?",
             "old"),
    Phrasing("entrusted on, DD.MM.YYYY, FIR after",
             "The accountant used company funds entrusted to him on 27.05.2024 to build his own house. An FIR is being "
             "filed. What offence is this?", "old"),
    Phrasing("entrusted on, DD/MM/YYYY, after the cutoff",
             "My business partner was entrusted with Rs 8 lakh on 04/09/2024 and spent it on himself. The FIR is yet "
             "to be registered. Which sections apply?", "new"),
    Phrasing("DD/MM/YYYY, date in the middle",
             "Someone broke into my flat on 29/06/2024 and took my laptop. Which sections apply?", "old"),
    Phrasing("DD-MM-YYYY, the cutoff day",
             "The accused stabbed my brother on 01-07-2024. Which sections apply?", "new"),
    Phrasing("month and year (after), FIR undated",
             "My scooter was stolen from the parking lot in March 2025. The police registered an FIR. Which sections "
             "apply?", "new", said=True),
    Phrasing("month and year (before), date first",
             "In April 2024 a loan agent threatened to post my photos unless I paid him. What offence is this?", "old", said=True),
    Phrasing("two months: act in June 2024, FIR in August 2024",
             "The landlord assaulted my father in June 2024; an FIR was registered in August 2024. Which sections "
             "apply?", "old", "new", said=True),
    Phrasing("two dates: act before, FIR after",
             "He cheated me on 3 April 2024 by selling a plot he did not own, and the FIR was registered on 12 August "
             "2024. Which sections apply?", "old", "new"),
    Phrasing("two dates: FIR first, act last",
             "The FIR was registered on 12 August 2024 for a plot he sold me on 3 April 2024 that he did not own. "
             "Which sections apply?", "old", "new"),
    Phrasing("two acts on both sides of the cutoff",
             "My husband beat me on 10 May 2024 and again on 20 July 2024. Which sections apply?", "old", said=True),
    Phrasing("arrest after, robbery before (bail)",
             "The accused was arrested on 5 August 2024 for a robbery committed on 30 June 2024. Is it bailable?",
             "old", "new"),
    Phrasing("'15th of June 2024'",
             "A gang kidnapped my nephew on the 15th of June 2024. Which sections apply?", "old"),
    Phrasing("'June 15, 2024'",
             "A colleague stalked me after work on June 15, 2024. What offence?", "old"),
    Phrasing("'15 July 2024', after the cutoff",
             "A man snatched my chain on 15 July 2024. Which sections apply?", "new"),
    Phrasing("'the 9th day of October, 2024'",
             "The accused forged my signature on a cheque on the 9th day of October, 2024. Which sections apply?",
             "new"),
    Phrasing("month 'Sept. 2023' and a complaint in 'January 2025'",
             "Rs 3 lakh was siphoned from the trust account in Sept. 2023; the complaint was filed in January 2025. "
             "Which sections apply?", "old", "new", said=True),
    Phrasing("trial date first, murder date last",
             "The trial began on 3 March 2025 for a murder committed on 1 January 2024. What is the punishment?",
             "old", "new"),
    Phrasing("act and FIR in separate sentences after the question",
             "Which sections apply? My employee took Rs 40,000 from the till on 25.06.2024. FIR registered on "
             "26.07.2024.", "old", "new"),
    Phrasing("a proceeding date only",
             "The FIR against my son was registered on 2 June 2024. What procedure applies to the investigation?",
             "unclear", "old"),
    Phrasing("bail, arrest date only",
             "My client was arrested on 10.10.2024 for cheating. How does he get bail?", "unclear", "new"),
    Phrasing("no cue beside the date (unclear)",
             "My cash box was empty on 20.06.2024. An FIR is being registered.", "unclear", said=True),
    Phrasing("no act word beside the date, an offence question",
             "I gave him Rs 2 lakh on 20.06.2024 for a government job that never came. Which sections apply?", "old",
             said=True),
    Phrasing("a proceeding with an offence noun beside its date",
             "The police registered my complaint about the assault only on 3 July 2024, though it happened on 28 June "
             "2024. Which sections apply?", "old", "new"),
    Phrasing("offence_date argument, no date in the text",
             "The cashier misappropriated the funds entrusted to him. The FIR is being lodged now. What offence?",
             "old", offence_date="2024-06-17"),
    Phrasing("the same date in the text",
             "The cashier misappropriated the funds entrusted to him on 17.06.2024. The FIR is being lodged now. What "
             "offence?", "old"),
    Phrasing("offence_date argument against a text date",
             "She stole my purse on 2 May 2024. Which section applies?", "new", offence_date="2024-09-01", said=True),
)


def era(when: dt.date | None, old: str, new: str) -> str:
    """The code a date makes govern; "-" when there is none (the law in force today leads)."""
    return "-" if when is None else old if when < CUTOFF else new


def row_of(p: Phrasing, offence: dt.date | None, proceeding: dt.date | None, notes: list[str],
           first: str) -> dict:
    """One row of the table: ``ok`` whether the eras chosen are those wanted (an "unclear" offence era: any), ``said``
    whether a reading that must be said was said (None: nothing to say)."""
    got = "old" if offence is not None and offence < CUTOFF else "new" if offence is not None else "-"
    ok = p.want == "unclear" or got == p.want
    if p.want_proc:
        ok = ok and proceeding is not None and ("old" if proceeding < CUTOFF else "new") == p.want_proc
    return {"p": p, "off": offence, "proc": proceeding, "sub": era(offence, "IPC", "BNS"),
            "procedure": era(proceeding, "CrPC", "BNSS"), "notes": notes, "first": first, "ok": ok,
            "said": bool(notes) if p.said else None}


def cell(text: str, limit: int = 0) -> str:
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if not limit or len(text) <= limit else text[:limit - 1] + "…"


def table(rows: list[dict], with_answer: bool) -> str:
    head = ("| # | form | phrasing | offence date read | proceeding date read | era: offence / procedure | era right "
            "| reading said |")
    sep = "|---|---|---|---|---|---|---|---|"
    if with_answer:
        head += " date notice | answer's first line |"
        sep += "---|---|"
    out = [head, sep]
    for i, r in enumerate(rows, 1):
        p = r["p"]
        q = p.question + (f" *(offence_date={p.offence_date})*" if p.offence_date else "")
        line = (f"| {i} | {cell(p.form)} | {cell(q)} | {r['off'] or '-'} | {r['proc'] or '-'} | "
                f"{r['sub']} / {r['procedure']} | {'yes' if r['ok'] else '**no**'} | "
                f"{'-' if r['said'] is None else 'yes' if r['said'] else '**no**'} |")
        if with_answer:
            line += f" {cell(' '.join(r['notes']) or '-', 260)} | {cell(r['first'], 260)} |"
        out.append(line)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, default=None, help="a built index (legal-rag index)")
    ap.add_argument("--casebase-limit", type=int, default=None, help="as the index was built (the test index: 300)")
    ap.add_argument("--analysis-only", action="store_true", help="read the dates with law.analyse alone, no index")
    ap.add_argument("--out", type=Path, default=None, help="write the table (Markdown) here")
    args = ap.parse_args(argv)

    rows = []
    t0 = time.perf_counter()
    if args.analysis_only:
        from legal_rag.law import analyse

        for p in PHRASINGS:
            a = analyse(p.question, offence_date=p.offence_date)
            rows.append(row_of(p, a.offence_date, a.proceeding_date, list(getattr(a, "date_notes", ())), ""))
    else:
        from legal_rag.config import load_settings
        from legal_rag.pipeline import Pipeline

        update = {k: v for k, v in (("data_dir", args.data_dir), ("casebase_limit", args.casebase_limit)) if v}
        pipe = Pipeline(load_settings().model_copy(update=update))
        for p in PHRASINGS:
            a = pipe.ask(p.question, offence_date=p.offence_date)
            notes = [n.text for n in a.notices if n.kind == "date"]
            rows.append(row_of(p, a.offence_date, a.proceeding_date, notes, a.text.split("\n", 1)[0]))
    took = time.perf_counter() - t0
    right = sum(r["ok"] for r in rows)
    must = [r for r in rows if r["said"] is not None]
    text = table(rows, not args.analysis_only)
    summary = (f"{right}/{len(rows)} phrasings: the eras chosen are those the facts call for; "
               f"{sum(r['said'] for r in must)}/{len(must)} readings the text does not make plain are said "
               f"({took:.0f} s)")
    print(text)
    print()
    print(summary)
    if args.out:
        args.out.write_text(text + "\n\n" + summary + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
