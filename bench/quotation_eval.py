"""The quotation check on the indexed judgments (issue 18): how often each verdict is right.

For every indexed judgment, up to ``--per-case`` sentences of 12 to 40 words are drawn (seeded) from its numbered
paragraphs (chunk meta ``paras``), and three quotations are made from each:

* **true**: the sentence as stored -> expected ``verbatim``;
* **changed**: one content word (longer than three letters, not in the quotation twice) replaced by a word drawn
  from another judgment -> expected ``changed`` with exactly that word listed in the changes;
* **misattributed**: a sentence drawn from another judgment, checked against this one -> expected ``absent``
  (a quotation attributed to the wrong judgment); when the sentence happens to occur in this judgment too (a
  statute or precedent both quote), the pair is skipped and counted.

Usage: ``python bench/quotation_eval.py [--data-dir DIR] [--per-case 3] [--seed 0]`` (an index must be built, e.g. the
tests' ``.legal_rag-test/index-*``). Prints counts and writes nothing; public API only.
"""

from __future__ import annotations

import argparse
import random
import re
import time
from collections import Counter
from pathlib import Path

from legal_rag.config import load_settings
from legal_rag.generate.quotation import check_quotation, words
from legal_rag.index import open_index
from legal_rag.retrieve.judgment_lookup import judgments_of
from legal_rag.text import split_sentences


def sentences(chunks, rng: random.Random, n: int) -> list[str]:
    pool = []
    for c in chunks:
        if not dict(c.meta).get("paras"):
            continue
        for a, b in split_sentences(c.text):
            s = re.sub(r"\s+", " ", c.text[a:b]).strip()
            if 12 <= len(s.split()) <= 40 and "\u201c" not in s and '"' not in s:
                pool.append(s)
    pool = sorted(set(pool))
    rng.shuffle(pool)
    return pool[:n]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=None)
    ap.add_argument("--per-case", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    settings = load_settings()
    if args.data_dir is not None:
        settings = settings.model_copy(update={"data_dir": args.data_dir})
    index = open_index(settings)
    by_case = judgments_of(index.chunks().values())
    rng = random.Random(args.seed)
    drawn = {case: sentences(chunks, rng, args.per_case) for case, chunks in by_case.items()}
    cases = [c for c in by_case if drawn[c]]
    tally: Counter = Counter()
    wrong: list[str] = []
    t0 = time.perf_counter()
    for case in cases:
        chunks = by_case[case]
        for s in drawn[case]:
            got = check_quotation(s, chunks)
            tally["true", got.verdict] += 1
            if got.verdict != "verbatim":
                wrong.append(f"true/{got.verdict} {case}: {s[:90]}")
            ws = s.split()
            keys = [k for k, _ in words(s)]
            idx = [i for i, w in enumerate(ws) if len(re.sub(r"\W", "", w)) > 3 and w.isalpha()
                   and keys.count(w.lower()) == 1]
            if idx:
                i = rng.choice(idx)
                other = rng.choice([c for c in cases if c != case])
                repl = next((w for w in " ".join(drawn[other]).split() if w.isalpha() and len(w) > 3
                             and w.lower() not in keys), "elephant")
                changed = " ".join(ws[:i] + [repl] + ws[i + 1:])
                got = check_quotation(changed, chunks)
                ok = got.verdict == "changed" and any(repl in c for c in got.changes)
                tally["changed", got.verdict if ok or got.verdict != "changed" else "changed-wrong-diff"] += 1
                if not ok:
                    wrong.append(f"changed/{got.verdict} {case}: {changed[:90]} {got.changes[:2]}")
            other = rng.choice([c for c in cases if c != case])
            foreign = drawn[other][0]
            got = check_quotation(foreign, chunks)
            if got.verdict == "verbatim":
                tally["misattributed", "skipped (also printed here)"] += 1
                continue
            tally["misattributed", got.verdict] += 1
            if got.verdict != "absent":
                wrong.append(f"misattributed/{got.verdict} {case} <- {other}: {foreign[:90]}")
    secs = time.perf_counter() - t0
    print(f"{len(cases)} judgments, {sum(len(drawn[c]) for c in cases)} sentences, {secs:.1f} s")
    for kind in ("true", "changed", "misattributed"):
        row = {v: n for (k, v), n in sorted(tally.items()) if k == kind}
        print(f"  {kind:14s} {row}")
    for w in wrong[:20]:
        print("  wrong:", w)


if __name__ == "__main__":
    main()
