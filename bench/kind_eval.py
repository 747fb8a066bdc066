"""How well the question's kind is read: :func:`legal_rag.law.question_kind` (the rule cascade the product uses)
against the kind each asked question's writer gave it, beside a reader fitted on the other writers' questions
(bench/results_ranker.md). Usage::

    .venv/bin/python bench/kind_eval.py [--source]

The questions: every asked set (``legal_rag/rank/data/ask_*.jsonl``), each line's ``kind`` one of offence,
procedure, evidence, bail, punishment, definition. Rule cascade: ``analyse(question).kind`` (``lookup`` and
``precedent`` count as wrong: no asked question is either). Fitted reader: scikit-learn's ``LogisticRegression``
over word 1-2-gram and character 3-5-gram TF-IDF, one fold per writer (each writer's questions read by a reader
fitted on the other writers' and, with ``--source``, on the source sets' questions that carry a kind), ``C`` 1, 3
and 10 each printed (none is chosen here). Prints one JSON line per reader: accuracy over all asked questions and
per writer, and the rule cascade's confusions (writer's kind -> read kind, count).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from legal_rag.law import analyse, load_concordance  # noqa: E402
from legal_rag.rank import asked_files, training_files  # noqa: E402


def _rows(paths):
    out = []
    for p in paths:
        for line in Path(p).read_text(encoding="utf-8").splitlines():
            d = json.loads(line) if line.strip() else {}
            if d.get("kind"):
                out.append((Path(p).stem, d["question"], d["kind"]))
    return out


def _reader(C: float):
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline, make_union

    return make_pipeline(make_union(TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, min_df=2),
                                    TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 5), sublinear_tf=True,
                                                    min_df=2)),
                         LogisticRegression(C=C, max_iter=2000))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", action="store_true", help="fit the reader on the source sets' questions too")
    args = ap.parse_args()
    asked = _rows(asked_files())
    source = [(q, k) for _, q, k in _rows(training_files())] if args.source else []
    writers = sorted({w for w, _, _ in asked})
    conc = load_concordance()
    read = [analyse(q, concordance=conc).kind for _, q, _ in asked]
    by = {w: [r == k for r, (ww, _, k) in zip(read, asked) if ww == w] for w in writers}
    print(json.dumps({"reader": "rule cascade", "n": len(asked),
                      "accuracy": round(sum(r == k for r, (_, _, k) in zip(read, asked)) / len(asked), 3),
                      "per_writer": {w: round(sum(v) / len(v), 3) for w, v in by.items()},
                      "confusions": [[a, b, c] for (a, b), c in Counter(
                          (k, r) for r, (_, _, k) in zip(read, asked) if r != k).most_common()]}))
    for C in (1.0, 3.0, 10.0):
        right = {}
        for w in writers:
            train = [(q, k) for ww, q, k in asked if ww != w] + source
            test = [(q, k) for ww, q, k in asked if ww == w]
            m = _reader(C).fit([q for q, _ in train], [k for _, k in train])
            right[w] = [p == k for p, (_, k) in zip(m.predict([q for q, _ in test]), test)]
        n = sum(len(v) for v in right.values())
        print(json.dumps({"reader": f"fitted, C {C:g}" + (", with the source sets" if source else ""), "n": n,
                          "accuracy": round(sum(sum(v) for v in right.values()) / n, 3),
                          "per_writer": {w: round(sum(v) / len(v), 3) for w, v in right.items()}}))


if __name__ == "__main__":
    main()
