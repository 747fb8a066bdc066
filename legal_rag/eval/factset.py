"""The fact-pattern dev set (``bench/factset.jsonl``, built by ``bench/build_factset.py``): does a system find the
sections that apply to a set of facts?

An item is ``{"id", "question", "gold", "gold_new", "gold_old", "length": "short"|"long", "offence_date":
None|"YYYY-MM-DD", ...}``; gold keys are ``"BNS 318(4)"``, ``"IPC 420"`` (official BPR&D successors, see the
builder). A system is any ``search_fn(question, offence_date) -> list[str]`` returning section keys best first
(``"BNS 318"`` or, where it can say so, ``"BNS 318(4)"``).

**Which gold counts (era).** The offence date decides the substantive law (Constitution Art. 20(1); BNS s.358
repeals the IPC and saves what was done under it; the new codes came into force on 1 July 2024,
:data:`legal_rag.law.supersede.CUTOFF`): a date before 2024-07-01 -> ``gold_old``; on or after -> ``gold_new``; no date ->
both (and ``new_gold@5`` reports separately whether a new-code gold reached rank <= 5).

**Levels.** ``section``: every key is cut to its section (``"BNS 318(4)"`` -> ``"BNS 318"``), and a section counts
once, at its best (first) rank. ``subsection``: gold keys are kept whole; a hit matches a gold key when it is that
key or a deeper one (``"BNS 318(4)(a)"`` matches ``"BNS 318(4)"``; a bare ``"BNS 318"`` matches only a gold
``"BNS 318"``), so a system that cannot name sub-sections scores only on gold keys without one.

**Metrics** (ranx through :func:`legal_rag.eval.metrics.evaluate_run`, trec_eval definitions): ``recall@5``,
``mrr``, ``gold_first`` (= ranx ``hit_rate@1``: share of questions whose first key is a gold one),
``new_gold@5`` (share of questions with a new-code gold whose run has one at rank <= 5, section level).
Reported overall and split by ``length`` (short/long) and era (``old``/``new``/``none``).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Callable, Iterable, Mapping, Sequence

from ..law import CUTOFF as NEW_CODES_FROM  # 1 July 2024 (MHA notifications of 23 Feb 2024)
from ..types import NEW_ACTS
from .metrics import evaluate_run

METRICS = ("recall@5", "mrr", "hit_rate@1")
#: ranx name -> name in our reports
NAMES = {"recall@5": "recall@5", "mrr": "mrr", "hit_rate@1": "gold_first"}
GROUPS = ("all", "short", "long", "era_old", "era_new", "era_none")

SearchFn = Callable[[str, "str | None"], Sequence[str]]


def section_of(key: str) -> str:
    """``"BNS 318(4)"`` -> ``"BNS 318"``."""
    return re.sub(r"\(.*$", "", key.strip())


def era(offence_date: str | dt.date | None) -> str:
    """``"old"`` (before 1 July 2024), ``"new"`` (on or after) or ``"none"`` (no date). Raises ValueError for a
    string that is not an ISO date."""
    if offence_date is None or offence_date == "":
        return "none"
    d = offence_date if isinstance(offence_date, dt.date) else dt.date.fromisoformat(str(offence_date))
    return "old" if d < NEW_CODES_FROM else "new"


def relevant(item: Mapping) -> list[str]:
    """The gold keys that count for ``item`` given its era (see module docstring)."""
    e = era(item.get("offence_date"))
    if e == "old":
        return list(item["gold_old"])
    if e == "new":
        return list(item["gold_new"])
    return list(item["gold_new"]) + [g for g in item["gold_old"] if g not in item["gold_new"]]


def _match(hit: str, gold: Iterable[str]) -> str:
    """The gold key ``hit`` satisfies at sub-section level (itself when none)."""
    for g in gold:
        if hit == g or hit.startswith(g + "("):
            return g
    return hit


def section_run(keys: Sequence[str]) -> list[str]:
    """Keys cut to sections, each kept at its first rank."""
    return list(dict.fromkeys(section_of(k) for k in keys))


def subsection_run(keys: Sequence[str], gold: Iterable[str]) -> list[str]:
    gold = list(gold)
    return list(dict.fromkeys(_match(k.strip(), gold) for k in keys))


def _is_new(key: str) -> bool:
    return key.split(" ", 1)[0] in NEW_ACTS


def _groups(item: Mapping) -> list[str]:
    return ["all", item["length"], f"era_{era(item.get('offence_date'))}"]


def first_gold_rank(run: Sequence[str], gold: Iterable[str]) -> int | None:
    gold = set(gold)
    return next((i for i, k in enumerate(run, 1) if k in gold), None)


def run_factset(search_fn: SearchFn, items: Sequence[Mapping]) -> dict:
    """Score ``search_fn`` on ``items``.

    Returns ``{"section": {group: {"n", "recall@5", "mrr", "gold_first", "new_gold@5"}}, "subsection": {group:
    {...}}, "items": [{"id", "top3", "first_gold_rank", "relevant"}], "n": len(items)}``; ``group`` is one of
    :data:`GROUPS` (a group with no item is left out). ``new_gold@5`` is ``None`` for a group with no new-code
    gold. ``search_fn`` is called once per item with ``(question, offence_date)``.
    """
    runs = {d["id"]: [str(k) for k in search_fn(d["question"], d.get("offence_date"))] for d in items}
    out: dict = {"n": len(items), "items": []}
    for level in ("section", "subsection"):
        qrels, run = {}, {}
        for d in items:
            rel = relevant(d)
            if level == "section":
                qrels[d["id"]] = {section_of(g): 1 for g in rel}
                run[d["id"]] = section_run(runs[d["id"]])
            else:
                qrels[d["id"]] = {g: 1 for g in rel}
                run[d["id"]] = subsection_run(runs[d["id"]], rel)
        table = {}
        for group in GROUPS:
            ids = [d["id"] for d in items if group in _groups(d)]
            if not ids:
                continue
            scores = evaluate_run({i: qrels[i] for i in ids}, {i: run[i] for i in ids}, METRICS)
            row = {"n": len(ids), **{NAMES[m]: v for m, v in scores.items()}}
            with_new = [d for d in items if d["id"] in set(ids) and d["gold_new"]]
            row["new_gold@5"] = (sum(1 for d in with_new if {section_of(g) for g in d["gold_new"]}
                                     & set(section_run(runs[d["id"]])[:5])) / len(with_new)) if with_new else None
            table[group] = row
        out[level] = table
    for d in items:
        sec = section_run(runs[d["id"]])
        out["items"].append({"id": d["id"], "top3": sec[:3], "relevant": relevant(d),
                             "first_gold_rank": first_gold_rank(sec, {section_of(g) for g in relevant(d)})})
    return out


def format_factset(results: Mapping[str, Mapping], level: str = "section") -> str:
    """Markdown table: one row per (system, group). ``results``: ``{system: run_factset(...)}``."""
    head = "| system | group | n | recall@5 | MRR | gold first | new-code gold @5 |\n|---|---|---|---|---|---|---|"
    rows = []
    for system, res in results.items():
        for group, r in res[level].items():
            ng = "–" if r["new_gold@5"] is None else f"{r['new_gold@5']:.3f}"
            rows.append(f"| {system} | {group} | {r['n']} | {r['recall@5']:.3f} | {r['mrr']:.3f} | "
                        f"{r['gold_first']:.3f} | {ng} |")
    return head + "\n" + "\n".join(rows)


__all__ = ["NEW_CODES_FROM", "GROUPS", "era", "relevant", "section_of", "section_run", "subsection_run",
           "run_factset", "format_factset", "first_gold_rank"]
