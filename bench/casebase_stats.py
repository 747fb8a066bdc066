"""What the case base is made of: decisions by court, year and form (judgment or order, ``Judgment.decision``);
the share whose most-cited section is murder (IPC 302 / BNS 103); how many cite a section of the new codes (BNS,
BNSS, BSA) directly.

    python bench/casebase_stats.py --casebase DIR [--casebase DIR2 ...] [--markdown]

``DIR``: a saved case base (``<data_dir>/casebase/<key>``, written by ``legal-rag index``). Each is one column of the
table, so a case base before and after a corpus change are compared side by side. "Most-cited section": the section
(``StatuteRef.base``) cited in the most paragraphs of the judgment (ties: every tied section counts as most-cited);
judgments citing no section are counted apart. Years from 2020 on are counted one by one, earlier ones by decade.
Court and year are the judgment's own (``Judgment.court``,
``Judgment.date``); AILA's courts are printed as in the dataset.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from legal_rag.index.casebase import CaseBase  # noqa: E402
from legal_rag.types import StatuteRef  # noqa: E402

MURDER = frozenset({StatuteRef("IPC", "302"), StatuteRef("BNS", "103")})
NEW_CODES = frozenset({"BNS", "BNSS", "BSA"})


def court_group(court: str) -> str:
    """``"Supreme Court"``, ``"High Court"`` or ``"other"`` from a court's name as printed."""
    c = court.lower()
    if "supreme court" in c:
        return "Supreme Court"
    if "high court" in c:
        return "High Court"
    return "other" if c.strip() else "(not read)"


def period(date: str) -> str:
    """A judgment's year from 2020 on (``"2025"``), its decade before (``"1990s"``); ``"(no date)"`` when unread."""
    if not re.match(r"\d{4}", date or ""):
        return "(no date)"
    year = int(date[:4])
    return str(year) if year >= 2020 else f"{year // 10 * 10}s"


def stats(cb: CaseBase) -> dict:
    """Counts over every judgment of ``cb`` (module docstring)."""
    out: dict = {"judgments": len(cb), "paragraphs": cb.n_paragraphs}
    murder = citing = new_direct = 0
    by_court: Counter = Counter()
    by_year: Counter = Counter()
    by_kind: Counter = Counter()
    for case in cb.cases:
        j = cb.judgment(case)
        by_court[court_group(j.court)] += 1
        by_year[period(j.date)] += 1
        by_kind[j.decision] += 1
        cites = cb.case_cites(case)
        if not cites:
            continue
        citing += 1
        top = max(cites.values())
        if any(ref in MURDER for ref, n in cites.items() if n == top):
            murder += 1
        if any(ref.act in NEW_CODES for ref in cites):
            new_direct += 1
    out.update(citing=citing, murder_most_cited=murder, new_code_direct=new_direct, by_court=dict(by_court),
               by_year=dict(sorted(by_year.items())), by_kind=dict(by_kind))
    return out


def table(named: dict[str, dict]) -> str:
    """A Markdown table, one column per case base."""
    names = list(named)
    rows = [("judgments and orders", lambda s: f"{s['judgments']:,}"),
            ("paragraphs", lambda s: f"{s['paragraphs']:,}"),
            ("citing any section", lambda s: f"{s['citing']:,}"),
            ("most-cited section is murder (IPC 302 / BNS 103)",
             lambda s: f"{s['murder_most_cited']:,} ({s['murder_most_cited'] / max(1, s['citing']):.1%} of citing)"),
            ("cite a BNS / BNSS / BSA section directly", lambda s: f"{s['new_code_direct']:,}")]
    lines = ["| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    lines += [f"| {label} | " + " | ".join(f(named[n]) for n in names) + " |" for label, f in rows]
    for key, title in (("by_kind", "issued as"), ("by_court", "court"), ("by_year", "year")):
        values = sorted({v for n in names for v in named[n][key]})
        lines += [f"| {title}: {v} | " + " | ".join(f"{named[n][key].get(v, 0):,}" for n in names) + " |"
                  for v in values]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--casebase", action="append", required=True, help="a saved case base directory (repeatable)")
    ap.add_argument("--name", action="append", default=[], help="a column name per --casebase (default: its key)")
    args = ap.parse_args(argv)
    named = {}
    for i, path in enumerate(args.casebase):
        name = args.name[i] if i < len(args.name) else Path(path).name
        named[name] = stats(CaseBase.open(Path(path)))
    print(table(named))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
