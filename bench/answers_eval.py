"""Grounded answers on the dev set (issue 6): gold section cited, sentences verified, citations to passages not
retrieved, unsupported punishment figures shipped, abstention on fabricated citations, latency; and HyDE on vs
off for retrieval. Writes blocks between markers in ``bench/results_answers.md``.

Definitions (the metric functions below are unit-tested in ``tests/eval/test_answers_metrics.py``):

* **gold cited** — the dev set gives each question a BNS and an IPC gold section from one BPR&D table row
  (``bench/devset.jsonl``). A shipped citation (``Answer.citations``, i.e. after verification) *meets* gold
  ``G`` when its act and section equal ``G``'s and, if ``G`` names a sub-section (``BNS 318(4)``), either the
  citation's ref carries that sub-section (:mod:`legal_rag.cite` narrows it from the sentence or the quote) or,
  when the ref names none, the citation's quote opens that sub-section's clause, ``(4) Whoever ...``
  (**strict**). **Loose** ignores sub-sections: ``BNS 318`` meets ``BNS 318(4)``. An answer meets gold when
  one of its citations meets the BNS or the IPC gold; the BNS-only figure is reported too.
* **exported pinpoint** — the verified citation records (:func:`legal_rag.export.citation_records`: one per
  marker, what the citation panel and every export format show) name a gold section at the gold's precision: a
  record ``s. 318(4)`` meets ``BNS 318(4)``, a record ``s. 318`` does not (whatever its quote opens with). Reported
  for both golds and, as a share, over the questions whose BNS gold names a sub-section.
* **sentences verified** — the streamed draft is re-checked by :func:`legal_rag.verify.verify` on the same
  passages (the pipeline's own check; the re-checked text is compared with ``Answer.text`` and mismatches are
  counted): supported / (supported + unsupported) claim sentences, pooled over answers.
* **citations to passages not retrieved** — citations whose ``chunk_id`` is not among ``Answer.passages`` (the
  hits given to the generator), or whose marker ``[n]`` does not name that chunk as ``passages[n-1]``.
* **unsupported punishment figures shipped** — for every sentence of the final ``Answer.text``, each term of
  :func:`legal_rag.text.punishment_terms` that occurs in no passage the sentence cites (heading + text,
  :func:`legal_rag.types.passage_text`); a sentence citing nothing cites no passage.
* **abstains** — the answer has no citation and says the sources do not contain it.
* **latency** — end to end through ``Pipeline.ask_stream``: TTFT to the first streamed piece (or to the answer
  when nothing streams, e.g. an abstention), total to the final ``Answer``; one warm-up question is not timed.
* **cited-passage precision** (issue 14, relevance; ``--relevance``) — over the verified citations of each answer
  (support ``supported``), the distinct provisions cited (``Citation.ref``, sub-section precise); one *answers*
  when it is a gold section of the question or the gold's official pair (:func:`gold_pairs`, BPR&D tables): same
  Act and section and, when both name a sub-section, the same sub-section (``BNS 318(2)`` does not answer the gold
  ``BNS 318(4)``; ``BNS 318`` does). **Before** counts every cited provision (what the answer quoted before the
  relevance check: the check keeps each related provision's heading and citation, marked ``related``, so the set
  of cited provisions is the unarranged answer's); **after** counts those quoted as the answer
  (``Citation.related`` false). Pooled (answering / cited) and the mean per answer. Gold cited strict is reported
  over the same two sets, the first line as ``bench/head_eval.py`` reads it, and the latency of ``Pipeline.ask``.
* **HyDE** — section-level ranking (a section counts once, at its best chunk) scored with ranx: recall@5 and
  nDCG@10 against both gold sections (sub-sections dropped); "passages recall@5" counts gold sections among the
  ``top_k`` passages the generator gets.

    HF_HUB_OFFLINE=1 .venv/bin/python bench/answers_eval.py --data-dir .legal_rag-test/index-f2a425665e91 \
        --generators extractive,llama_cpp --model-file /tmp/qwen_ready.txt --hyde
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from legal_rag.generate.abstain import NOT_IN_SOURCES  # noqa: E402
from legal_rag.types import ACTS, Answer, Citation, StatuteRef  # noqa: E402

#: Questions naming judgments or sections that do not exist (field cases BL-37, BL-39; invalid section numbers:
#: BNS ends at s.358, IPC at s.511).
FABRICATED = (
    ("F1", "What did the Supreme Court hold in (2019) 5 SCC 9999?"),
    ("F2", "Summarise State v. Imaginary Person (2021) and its ratio on bail."),
    ("F3", "What does section 999 of the BNS say?"),
    ("F4", "Apply the ratio of Ramesh Kumar w/o Sunita Devi v. Elegant Associates to a cheque bounce case."),
    ("F5", "Verify and summarise Varghese v. China Southern Airlines Co., 925 F.3d 1339 (11th Cir. 2019)."),
    ("F6", "What is the punishment under section 612 of the Indian Penal Code?"),
)
WARMUP = "What is the punishment for theft?"
_GOLD = re.compile(r"^\s*([A-Za-z]+)\s+(\d+[A-Z]*)((?:\(\w+\))*)\s*$")
_ABSTAIN = re.compile(r"do not contain|not in the indexed sources|no judgment titled", re.I)


# ---- metric functions (pure; unit-tested) ----------------------------------------------------------------
def parse_gold(text: str) -> StatuteRef:
    """``"BNS 318(4)"`` -> ``StatuteRef("BNS", "318", ("4",))``. Raises ValueError for anything else."""
    m = _GOLD.match(text)
    if not m or m.group(1) not in ACTS:
        raise ValueError(f"not a gold section: {text!r}")
    return StatuteRef(m.group(1), m.group(2), tuple(re.findall(r"\((\w+)\)", m.group(3))))


def cites_gold(c: Citation, gold: StatuteRef, strict: bool = True) -> bool:
    """Whether citation ``c`` meets ``gold`` (module docstring, "gold cited")."""
    r = c.ref
    if r is None or (r.act, r.section) != (gold.act, gold.section):
        return False
    if not strict or not gold.sub:
        return True
    if r.sub:
        return r.sub[: len(gold.sub)] == gold.sub
    return re.match(rf"[\s\u201c\"\u2026.]*\({re.escape(gold.sub[0])}\)\s", c.quote) is not None


def meets_gold(answer: Answer, golds: Sequence[str], strict: bool = True) -> bool:
    refs = [parse_gold(g) for g in golds]
    return any(cites_gold(c, g, strict) for c in answer.citations for g in refs)


def exported_pinpoints(answer: Answer) -> list[StatuteRef]:
    """The provisions the exported citations name (verified records of :func:`legal_rag.export.citation_records`,
    what the citation panel and every export format show): ``"318(2), 318(4)"`` gives two."""
    from legal_rag.export import citation_records

    out = []
    for r in citation_records(answer):
        if r.kind == "statute" and r.act:
            out += [parse_gold(f"{r.act} {label.strip()}") for label in r.section.split(",") if label.strip()]
    return out


def exported_meets_gold(answer: Answer, golds: Sequence[str]) -> bool:
    """Whether an exported citation names a gold section at the gold's precision (module docstring, "exported
    pinpoint"): ``s. 318(4)`` meets ``BNS 318(4)``; ``s. 318`` does not, whatever its quote shows."""
    refs = [parse_gold(g) for g in golds]
    return any((r.act, r.section) == (g.act, g.section) and r.sub[:len(g.sub)] == g.sub
               for r in exported_pinpoints(answer) for g in refs)


def foreign_citations(answer: Answer) -> list[Citation]:
    """Citations naming a chunk not among ``answer.passages`` or not the one their marker names."""
    ids = [h.chunk.id for h in answer.passages]
    return [c for c in answer.citations
            if c.chunk_id not in ids or not 1 <= c.marker <= len(ids) or ids[c.marker - 1] != c.chunk_id]


def unsupported_punishments(answer: Answer) -> list[tuple[str, tuple[str, ...]]]:
    """``(sentence, missing terms)`` for each shipped sentence stating a punishment term that no passage it
    cites contains. Sentences marked ``⟨unsupported: ...⟩`` (``unsupported_claims="mark"``) are shown as
    unsupported, so they are skipped. The composed head's lines (``Answer.head``) cite the First Schedule, not a
    passage: each is checked against the punishment column of the schedule rows it quotes (``HeadLine.rows``)."""
    from legal_rag.cite import cite
    from legal_rag.text import punishment_terms
    from legal_rag.types import passage_text

    out = []
    text = answer.text
    if answer.head:  # the composed head is cited to the First Schedule: its terms must be the rows' own (issue 14)
        from legal_rag.generate.head import head_text

        for h in answer.head:
            terms = punishment_terms(h.text)
            have = frozenset().union(*(punishment_terms(r.punishment) for r in h.rows))
            if terms - have:
                out.append((h.line, tuple(sorted(terms - have))))
        text = text.replace(head_text(answer.head), "", 1)
    for s in cite(text, answer.passages).sentences:
        if "\u27e8unsupported" in s.text:
            continue
        terms = punishment_terms(s.claim)
        if not terms:
            continue
        have = frozenset().union(*(punishment_terms(passage_text(answer.passages[n - 1].chunk)) for n in s.markers))
        missing = tuple(sorted(terms - have))
        if missing:
            out.append((s.claim, missing))
    return out


def body_of(answer: Answer) -> str:
    """``answer.text`` without its composed head (added after verification, never generated)."""
    if not answer.head:
        return answer.text
    from legal_rag.generate.head import head_text

    return answer.text.replace(head_text(answer.head), "", 1).strip()


def abstains(answer: Answer) -> bool:
    return not answer.citations and bool(_ABSTAIN.search(answer.text))


def pct(xs: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (as ``bench/rerank_eval.py``); 0.0 for no values."""
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def gold_pairs(golds: Sequence[str], concordance) -> list[StatuteRef]:
    """The gold sections and their official pairs (BPR&D tables, ``mapped`` rows only), in order."""
    out: list[StatuteRef] = []
    for g in golds:
        ref = parse_gold(g)
        got = concordance.query(ref) if concordance is not None else None
        for r in (ref, *(got.targets if got is not None and got.status == "mapped" else ())):
            if r not in out:
                out.append(r)
    return out


def answers_gold(ref: StatuteRef | None, golds: Sequence[StatuteRef]) -> bool:
    """Whether a cited provision answers (module docstring, "cited-passage precision")."""
    return ref is not None and any((ref.act, ref.section) == (g.act, g.section)
                                   and (not ref.sub or not g.sub or ref.sub[0] == g.sub[0]) for g in golds)


def cited_provisions(answer: Answer, *, answer_part: bool) -> list[StatuteRef | None]:
    """The distinct provisions the verified citations name (``None`` for a judgment), all of them or, with
    ``answer_part``, only those quoted as the answer (``related`` false)."""
    out: dict = {}
    for c in answer.citations:
        if c.support != "supported" or (answer_part and getattr(c, "related", False)):
            continue
        out.setdefault(c.ref if c.ref is not None else c.chunk_id, c.ref)
    return list(out.values())


def run_relevance(pipe, items: list[dict], log) -> list[dict]:
    """One extractive answer per question (``offence_date`` from the set when given): cited-passage precision
    before/after, gold cited strict before/after, first line names a gold, latency."""
    from legal_rag.errors import InputTooLongError
    from legal_rag.law import find_refs

    conc = pipe.concordance
    pipe.ask(WARMUP)
    rows = []
    for it in items:
        t0 = time.perf_counter()
        try:
            a = pipe.ask(it["question"], offence_date=it.get("offence_date"))
        except InputTooLongError:
            rows.append({"id": it["id"], "refused": True})
            continue
        total = time.perf_counter() - t0
        golds = gold_pairs(it["gold"], conc)
        row = {"id": it["id"], "refused": False, "total_s": total, "head": bool(a.head)}
        for side, part in (("before", False), ("after", True)):
            cited = cited_provisions(a, answer_part=part)
            row[f"{side}_cited"] = [str(r) if r is not None else "judgment" for r in cited]
            row[f"{side}_answering"] = sum(answers_gold(r, golds) for r in cited)
            kept = [c for c in a.citations if not (part and getattr(c, "related", False))]
            row[f"{side}_gold_strict"] = any(cites_gold(c, parse_gold(g)) for c in kept for g in it["gold"])
        first = a.text.strip().splitlines()[0] if a.text.strip() else ""
        row["first_line_gold"] = any(
            f.status == "ok" and f.ref is not None and (f.ref.act, f.ref.section) == (g.act, g.section)
            and f.ref.sub[:len(g.sub)] == g.sub for f in find_refs(first) for g in map(parse_gold, it["gold"]))
        rows.append(row)
        log(f"  {it['id']}: {total:.2f}s cited {row['before_answering']}/{len(row['before_cited'])} -> "
            f"{row['after_answering']}/{len(row['after_cited'])}")
    return rows


def relevance_block(name: str, rows: list[dict], note: str = "") -> str:
    """The before/after table of :func:`run_relevance` as a results block named ``relevance:<name>``."""
    done = [r for r in rows if not r["refused"]]
    n = len(done)

    def pooled(side):
        a, c = sum(r[f"{side}_answering"] for r in done), sum(len(r[f"{side}_cited"]) for r in done)
        return f"{a}/{c} ({a / c:.1%})" if c else "0/0"

    def mean(side):
        xs = [r[f"{side}_answering"] / len(r[f"{side}_cited"]) for r in done if r[f"{side}_cited"]]
        return f"{sum(xs) / len(xs):.3f}" if xs else "-"

    def count(key):
        k = sum(r[key] for r in done)
        return f"{k}/{n} ({k / n:.0%})" if n else "0/0"

    tot = [r["total_s"] for r in done]
    changed = [r["id"] for r in done if r["before_cited"] != r["after_cited"]]
    loads = os.getloadavg()
    lines = [
        f"<!-- relevance:{name}:start (bench/answers_eval.py --relevance; extractive; {n} answered of {len(rows)}; "
        f"load average {loads[0]:.1f} on {os.cpu_count()} cores; {time.strftime('%Y-%m-%d %H:%M')}) -->",
        f"### Cited-passage precision, {name} (issue 14, relevance check)", "",
        "| metric | before (every cited provision) | after (quoted as the answer) |", "|---|---|---|",
        f"| cited provisions that answer (gold or its official pair), pooled | {pooled('before')} | {pooled('after')} |",
        f"| the same, mean per answer | {mean('before')} | {mean('after')} |",
        f"| gold cited, strict (sub-section precision) | {count('before_gold_strict')} | {count('after_gold_strict')} |",
        f"| first line names a gold (sub-section precision) | {count('first_line_gold')} | {count('first_line_gold')} |",
        f"| answers with a composed head | {count('head')} | {count('head')} |",
        f"| extractive answer total p50 / p95 (s) | {pct(tot, 50):.2f} / {pct(tot, 95):.2f} | (same run) |", "",
        f"- answers where the check moved provisions to \"Related provisions\": {len(changed)}/{n}"
        + (f" ({', '.join(changed)})" if changed else ""),
        *(f"- {r['id']}: related " + ", ".join(x for x in r["before_cited"] if x not in r["after_cited"])
          for r in done if r["id"] in changed),
        *([f"- refused (over the question length limit): {', '.join(r['id'] for r in rows if r['refused'])}"]
          if any(r["refused"] for r in rows) else []),
        *([note] if note else []),
        f"<!-- relevance:{name}:end -->"]
    return "\n".join(lines)


# ---- runs ------------------------------------------------------------------------------------------------
def replayed(pipe, generator: str, items: list[dict], log, dump: Path, recorded: Path) -> list[dict]:
    """:func:`run_answers` with :class:`ReplayBackend` over the ``recorded`` dump; each row keeps the recorded
    run's timings, token counts and load, and says whether the passages given were the recorded ones
    (``passages_same``; a differing row's reply is not what the model would have written)."""
    import legal_rag.generate as generate_module

    rec = [json.loads(x) for x in recorded.read_text(encoding="utf-8").splitlines()]
    backend, real = ReplayBackend(rec), generate_module.get_backend
    generate_module.get_backend = lambda settings: backend
    try:
        rows = run_answers(pipe, generator, items, log, None)
    finally:
        generate_module.get_backend = real
    by_id = {r["id"]: r for r in rec}
    for row in rows:
        old = by_id.get(row["id"], {})
        row["passages_same"] = row["passages"] == old.get("passages")
        for key in ("ttft_s", "total_s", "prompt_tokens", "cached_tokens", "load"):
            if key in old:
                row[key] = old[key]
    differ = [r["id"] for r in rows if r["gold"] and not r["passages_same"]]
    log(f"replayed {recorded.name}: passages differ from the recorded run for {differ or 'no question'}; "
        f"{len(backend.unknown)} prompt(s) with no recorded reply (the warm-up question)")
    dump.parent.mkdir(parents=True, exist_ok=True)
    dump.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return rows


class ReplayBackend:
    """A chat backend that replays a language model's recorded replies (``--replay DUMP``): for the question in the
    prompt it returns the draft that model streamed in an earlier run of this script (its dump row), cut at
    ``max_new_tokens`` where that run was. With greedy decoding and the same prompt the model writes the same
    reply, so everything after generation (cleaning, citation, verification, re-attribution, the head) is
    re-measured without re-running the model; the timings and token counts of the rows are the recorded run's.
    It cannot see the passages: where they differ from the recorded ones the model might have written otherwise,
    and :func:`replayed` marks such rows (``passages_same``) and names them."""

    exact_tokens = False
    supports_grammar = False

    def __init__(self, rows: list[dict]):
        self.rows = {r["question"]: r for r in rows}
        self.unknown: list[str] = []
        self.name = next((r["model"].removesuffix("+extractive") for r in rows
                          if str(r.get("model", "")).startswith(("llama_cpp", "transformers"))), "replay")

    @property
    def context_tokens(self) -> int:
        return 32768

    def count_tokens(self, messages) -> int:
        return sum(len(c) // 4 + 4 for _, c in messages)

    def chat(self, messages, *, max_new_tokens, on_token=None, **_):
        from legal_rag.generate.backends import Generation

        user = messages[-1][1]
        asked = [q for q in self.rows if f"Question: {q}" in user]
        if not asked:  # the untimed warm-up question: not recorded
            self.unknown.append(user[-200:])
            return Generation(NOT_IN_SOURCES, 0, 0, 0.0, 0.0, "stop")
        row = self.rows[max(asked, key=len)]
        text = row["draft"]
        if on_token and text:
            on_token(text)
        cut = any(str(p).startswith("generation stopped at") for p in row.get("problems", ()))
        return Generation(text, row.get("prompt_tokens", 0), len(text.split()), row.get("ttft_s") or 0.0,
                          row.get("total_s", 0.0), "length" if cut else "stop",
                          cached_tokens=row.get("cached_tokens", 0))


def ask_timed(pipe, question: str, generator: str) -> tuple[Answer, str, float, float]:
    """``(answer, streamed draft text, ttft_s, total_s)`` through ``Pipeline.ask_stream``."""
    t0 = time.perf_counter()
    pieces, ttft, answer = [], None, None
    for piece in pipe.ask_stream(question, generator=generator):
        if isinstance(piece, Answer):
            answer = piece
        else:
            ttft = ttft if ttft is not None else time.perf_counter() - t0
            pieces.append(piece)
    total = time.perf_counter() - t0
    return answer, "".join(pieces).strip(), total if ttft is None else ttft, total


def recheck(question: str, answer: Answer, draft_text: str, equivalents, mode: str, reattribute: bool = False,
            sections=None):
    """The pipeline's verification of the streamed draft, redone to read its per-sentence checks."""
    from legal_rag.types import Draft
    from legal_rag.verify import verify

    abstained = not draft_text
    draft = Draft(question, draft_text or answer.text, passages=answer.passages, abstained=abstained)
    return verify(draft, equivalents=equivalents, on_unsupported=mode, reattribute=reattribute, sections=sections)


def run_answers(pipe, generator: str, items: list[dict], log, dump: Path | None, on_rows=None) -> list[dict]:
    """Fabricated questions first, then the dev set; ``on_rows(rows)`` after each answer (partial reports)."""
    from legal_rag.verify import law_equivalents

    eq = law_equivalents(pipe.settings.corpus_path)
    ask_timed(pipe, WARMUP, generator)
    rows = []
    if dump:
        dump.parent.mkdir(parents=True, exist_ok=True)
        dump.write_text("", encoding="utf-8")
    questions = [(i, q, None) for i, q in FABRICATED] + [(d["id"], d["question"], d["gold"]) for d in items]
    for k, (qid, q, gold) in enumerate(questions):
        answer, draft_text, ttft, total = ask_timed(pipe, q, generator)
        ver = recheck(q, answer, draft_text, eq, pipe.settings.unsupported_claims, pipe.settings.reattribute_citations,
                      pipe.index.by_ref)
        statuses = [c.status for c in ver.checks]
        row = {"id": qid, "question": q, "gold": gold, "ttft_s": ttft, "total_s": total,
               "supported": statuses.count("supported"), "unsupported": statuses.count("unsupported"),
               "moved": sum(bool(c.moved_from) and c.status == "supported" for c in ver.checks),
               "recheck_same": ver.text == body_of(answer),
               "foreign": [(c.marker, c.chunk_id) for c in foreign_citations(answer)],
               "punish": unsupported_punishments(answer), "abstains": abstains(answer),
               "text": answer.text, "draft": draft_text, "model": answer.model, "problems": list(answer.problems),
               "passages": [h.chunk.id for h in answer.passages],
               "prompt_tokens": answer.prompt_tokens, "cached_tokens": answer.cached_tokens,
               "citations": [(c.marker, c.chunk_id, str(c.ref), c.support, c.quote[:160]) for c in answer.citations]}
        if gold:
            bns = [g for g in gold if g.startswith("BNS")]
            row.update(gold_exported=exported_meets_gold(answer, gold), bns_exported=exported_meets_gold(answer, bns),
                       bns_sub=bool(parse_gold(bns[0]).sub) if bns else False,
                       exported=[str(r) for r in exported_pinpoints(answer)])
            row.update(gold_strict=meets_gold(answer, gold), gold_loose=meets_gold(answer, gold, strict=False),
                       gold_bns=meets_gold(answer, [g for g in gold if g.startswith("BNS")]),
                       gold_bns_loose=meets_gold(answer, [g for g in gold if g.startswith("BNS")], strict=False))
        row["load"] = os.getloadavg()[0]
        rows.append(row)
        if dump:  # one line per answer as it comes, so a long run can be reported part-way (--report-only)
            with open(dump, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        if on_rows:
            on_rows(rows)
        log(f"  {generator} {qid}: {total:.1f}s ttft {ttft:.1f}s sup {row['supported']}/"
            f"{row['supported'] + row['unsupported']}" + (f" gold {row['gold_strict']}" if gold else
                                                          f" abstains {row['abstains']}"))
    return rows


def answers_block(generator: str, model: str, rows: list[dict], planned: int | None = None) -> str:
    dev, fab = [r for r in rows if r["gold"]], [r for r in rows if not r["gold"]]
    if not dev or not fab:
        return f"<!-- answers:{generator}:start (partial: {len(rows)} answers) -->\n<!-- answers:{generator}:end -->"
    sup = sum(r["supported"] for r in rows)
    claims = sup + sum(r["unsupported"] for r in rows)
    n = len(dev)
    failed = [r["id"] for r in fab if not r["abstains"]]
    quoted = [r for r in dev if str(r.get("model", "")).endswith("+extractive")]
    share = lambda key: f"{sum(r[key] for r in dev)}/{n} ({sum(r[key] for r in dev) / n:.0%})"  # noqa: E731
    tt, tot = [r["ttft_s"] for r in rows], [r["total_s"] for r in rows]
    withheld = [r for r in dev if "was withheld" in r["text"]]
    own = [r for r in dev if r not in quoted and r not in withheld and not r["abstains"] and r["supported"] > 0]
    dsup = sum(r["supported"] for r in dev if r not in quoted)
    dclaims = dsup + sum(r["unsupported"] for r in dev if r not in quoted)
    dmoved = sum(r.get("moved", 0) for r in dev if r not in quoted)
    ptok = [r.get("prompt_tokens", 0) for r in dev if r.get("prompt_tokens")]
    fill = [r["prompt_tokens"] - r.get("cached_tokens", 0) for r in dev if r.get("prompt_tokens")]
    mine = [
        f"| dev answers in the model's own words (at least one of its sentences verified and shipped; not withheld, "
        f"not replaced by quotes) | {len(own)}/{n} ({len(own) / n:.0%}) |",
        f"| dev answers withheld (none of the model's sentences verified) | {len(withheld)}/{n} |",
        f"| dev sentences the model wrote that were verified | {dsup}/{dclaims} "
        f"({dsup / dclaims if dclaims else 1:.1%}) |",
        *([f"| of these, verified only after re-attribution (marker moved to another given chunk of the same section, "
           f"in its sub-section; `legal_rag.verify`); verified as the model cited | {dmoved}; {dsup - dmoved}/{dclaims} "
           f"({(dsup - dmoved) / dclaims if dclaims else 1:.1%}) |"] if any("moved" in r for r in dev) else []),
        *([f"| prompt tokens p50 / p95 (dev); prefilled after the prefix cache p50 / p95 | "
           f"{pct(ptok, 50):.0f} / {pct(ptok, 95):.0f}; {pct(fill, 50):.0f} / {pct(fill, 95):.0f} |"] if ptok else [])]
    lines = [
        "| metric | value |", "|---|---|", *mine,
        f"| gold section cited, strict (BNS or IPC gold, sub-section precision) | {share('gold_strict')} |",
        f"| gold section cited, loose (section level) | {share('gold_loose')} |",
        f"| BNS gold cited, strict / loose | {share('gold_bns')} / {share('gold_bns_loose')} |",
        f"| dev answers that abstained | {sum(r['abstains'] for r in dev)}/{n} |",
        f"| dev answers where the model said \"not in the sources\" and the passages were quoted instead "
        f"(`+extractive`) | {len(quoted)}/{n} |",
        f"| answer sentences verified (supported / checked claims the generator wrote, all {len(rows)} questions; "
        f"a quoted fallback counts none) | {sup}/{claims} ({sup / claims if claims else 1:.1%}) |",
        f"| re-check text equal to the shipped text (fallback answers excepted) | "
        f"{sum(r['recheck_same'] for r in rows if r not in quoted)}/{len(rows) - len(quoted)} |",
        f"| citations to passages not retrieved | {sum(len(r['foreign']) for r in rows)} |",
        f"| unsupported punishment figures shipped | {sum(len(t) for r in rows for _, t in r['punish'])} |",
        f"| abstention on fabricated-citation questions | {len(fab) - len(failed)}/{len(fab)} "
        f"({', '.join(failed) + ' failed' if failed else 'all abstained'}) |",
        f"| TTFT p50 / p95 (s) | {pct(tt, 50):.2f} / {pct(tt, 95):.2f} |",
        f"| total p50 / p95 (s) | {pct(tot, 50):.2f} / {pct(tot, 95):.2f} |",
    ]
    subs = [r for r in dev if r.get("bns_sub")]
    if subs:
        k = sum(r["bns_exported"] for r in subs)
        lines.insert(5 + len(mine), f"| BNS gold with a sub-section, named at it by an exported citation (panel and export formats: "
                     f"`s. 318(4)`) | {k}/{len(subs)} ({k / len(subs):.0%}) |")
    if "gold_exported" in dev[0]:
        lines.insert(5 + len(mine), f"| gold cited by an exported citation at the gold's precision (BNS or IPC) | "
                     f"{share('gold_exported')} |")
    missed = [r["id"] for r in dev if not r["gold_loose"]]
    sub_only = [r["id"] for r in dev if r["gold_loose"] and not r["gold_strict"]]
    notes = [f"- gold not cited at all: {', '.join(missed) or 'none'}",
             f"- gold section cited but not at sub-section precision: {', '.join(sub_only) or 'none'}",
             f"- BNS gold section cited but not its sub-section: "
             f"{', '.join(r['id'] for r in dev if r['gold_bns_loose'] and not r['gold_bns']) or 'none'}"]
    for r in rows:
        for c in r["foreign"]:
            notes.append(f"- DEFECT {r['id']}: citation [{c[0]}] -> {c[1]} not among the passages")
        for s, t in r["punish"]:
            notes.append(f"- DEFECT {r['id']}: shipped {', '.join(t)} not in the cited passages: {s[:120]!r}")
    for r in fab:
        notes.append(f"- {r['id']} {r['question']!r} -> {r['text'][:200]!r}" + ("" if r["abstains"] else
                     f" (citations: {', '.join(f'[{m}] {ref}' for m, _, ref, _, _ in r['citations'])})"))
    loads = [r["load"] for r in rows]
    part = f"{len(rows)} questions"
    if planned and len(rows) < planned:
        part = f"PARTIAL: {len(rows)} of {planned} questions (fabricated first, then dev in order)"
    head = (f"<!-- answers:{generator}:start (bench/answers_eval.py; model {model}; {part}; "
            f"load average min/max {min(loads):.1f}/{max(loads):.1f} on {os.cpu_count()} cores; "
            f"{time.strftime('%Y-%m-%d %H:%M')}) -->")
    return "\n".join([head, f"### {generator} ({part})", "", *lines, "", *notes, f"<!-- answers:{generator}:end -->"])


def run_hyde(pipe, items: list[dict], hyde_generator: str, hyde_model: str, log) -> str:
    """HyDE on vs off for retrieval (``Pipeline.search``): on as wired (the hypothetical passage feeds the dense
    query only, ``Pipeline.search(q, dense_query=...)``, as ``generate/hyde.py`` describes), and a variant with the
    question + passage given to every retriever (dense, BM25 and section look-up)."""
    from legal_rag.eval.metrics import evaluate_run
    from legal_rag.eval.runners import section_ranking
    from legal_rag.generate.hyde import hypothetical_passage
    from legal_rag.retrieve import query_refs

    settings = pipe.settings.model_copy(update={"hyde": True, "generator": hyde_generator,
                                              "generator_model": hyde_model})
    qrels = {d["id"]: {re.sub(r"\(.*", "", g): 1 for g in d["gold"]} for d in items}
    runs: dict[str, dict] = {"off": {}, "on": {}, "everywhere": {}}
    lat, with_refs, loads = [], [], []
    hypothetical_passage(WARMUP, settings)
    for d in items:
        q = d["question"]
        t0 = time.perf_counter()
        hyp = hypothetical_passage(q, settings)
        lat.append(time.perf_counter() - t0)
        if query_refs(hyp):
            with_refs.append(d["id"])
        runs["off"][d["id"]] = pipe.search(q)
        hyde_text = f"{q.strip()}\n{hyp}"  # what search_text() gives the pipeline
        runs["on"][d["id"]] = pipe.search(q, dense_query=hyde_text)
        runs["everywhere"][d["id"]] = pipe.search(hyde_text)
        loads.append(os.getloadavg()[0])
        log(f"  hyde {d['id']}: {lat[-1]:.1f}s {hyp[:80]!r}")
    k = pipe.settings.top_k
    lines = ["| HyDE | recall@5 | nDCG@10 | passages recall@5 (top_k chunks) |", "|---|---|---|---|"]
    for name, run in runs.items():
        m = evaluate_run(qrels, {q: section_ranking(h) for q, h in run.items()}, ("recall@5", "ndcg@10"))
        got = [len(set(section_ranking(run[q][:k])) & set(qrels[q])) / len(qrels[q]) for q in run]
        label = {"off": "off (question)", "on": "on, as wired (question + passage to dense only; BM25 and look-up on "
                 "the question)", "everywhere": "question + passage to dense, BM25 and look-up"}[name]
        lines.append(f"| {label} | {m['recall@5']:.4f} | {m['ndcg@10']:.4f} | {sum(got) / len(got):.4f} |")
    head = (f"<!-- hyde:{hyde_generator}:start (bench/answers_eval.py --hyde; hypothetical passages by "
            f"{hyde_generator} {settings.generator_model or '(default model)'}; {len(items)} dev questions; "
            f"load average min/max {min(loads):.1f}/{max(loads):.1f}; {time.strftime('%Y-%m-%d %H:%M')}) -->")
    notes = [f"- HyDE passage generation p50 / p95: {pct(lat, 50):.2f} / {pct(lat, 95):.2f} s",
             f"- hypothetical passages naming a section (look-up then fires on it): {len(with_refs)}/{len(items)}"
             + (f" ({', '.join(with_refs)})" if with_refs else "")]
    return "\n".join([head, f"### HyDE (retrieval), hypothetical passages by {hyde_generator}", "", *lines, "", *notes,
                      f"<!-- hyde:{hyde_generator}:end -->"])


def write_block(path: Path, name: str, block: str) -> None:
    """Replace the block ``<!-- name:start ... name:end -->`` in ``path`` (or append it)."""
    text = path.read_text(encoding="utf-8") if path.is_file() else "# Grounded answers (dev set)\n"
    pat = re.compile(rf"<!-- {re.escape(name)}:start .*?<!-- {re.escape(name)}:end -->", re.S)
    text = pat.sub(lambda _: block, text) if pat.search(text) else text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")


def main(argv=None) -> int:
    from legal_rag.config import Settings
    from legal_rag.eval.runners import load_devset
    from legal_rag.pipeline import Pipeline

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, default=None, help="built index (default: settings); copied first")
    ap.add_argument("--no-copy", action="store_true", help="use --data-dir in place (it may be written to)")
    ap.add_argument("--generators", default="extractive", help="comma list: extractive,llama_cpp,transformers")
    ap.add_argument("--model", default="", help="generator_model for the LLM generators (default: backend's)")
    ap.add_argument("--model-file", type=Path, default=None, help="file holding the model path; waited for")
    ap.add_argument("--hyde", action="store_true", help="also HyDE on vs off for retrieval")
    ap.add_argument("--relevance", default="", help="comma list of sets (devset,factset): cited-passage precision "
                    "before/after the relevance check, extractive answers only (no --generators run)")
    ap.add_argument("--casebase-limit", type=int, default=None, help="as the index was built (tests: 300)")
    ap.add_argument("--hyde-generator", default="auto", help="llama_cpp | transformers | auto")
    ap.add_argument("--limit", type=int, default=0, help="first N dev questions only (smoke runs)")
    ap.add_argument("--label", default="", help="name of the answers block (default: the generator's name)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=JSON",
                    help="a setting for this run, e.g. generator_head=false (issue 17's before/after switches)")
    ap.add_argument("--report-only", action="store_true", help="write the answers blocks from earlier --dump files")
    ap.add_argument("--replay", type=Path, default=None,
                    help="a --dump file of an earlier language-model run: replay its replies (ReplayBackend) and "
                         "re-measure everything after generation; timings are the recorded run's")
    ap.add_argument("--dump", type=Path, default=Path(tempfile.gettempdir()) / "answers_eval")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results_answers.md")
    args = ap.parse_args(argv)
    log = lambda m: print(m, flush=True)  # noqa: E731
    base = Settings()
    src = args.data_dir or base.data_dir
    data_dir = src
    if not args.no_copy and not args.report_only:
        data_dir = Path(tempfile.mkdtemp(prefix="answers_eval_")) / "index"
        shutil.copytree(src, data_dir)
        log(f"index copied to {data_dir}")
    model = args.model
    gens = [g for g in args.generators.split(",") if g]
    wants_llm = any(g != "extractive" for g in gens) or (args.hyde and args.hyde_generator != "transformers")
    if args.model_file and wants_llm and not model and not args.report_only:
        while not args.model_file.is_file() or not args.model_file.read_text().strip():
            log(f"waiting for {args.model_file} ...")
            time.sleep(60)
        model = args.model_file.read_text().strip()
    extra = {} if args.casebase_limit is None else {"casebase_limit": args.casebase_limit}
    for kv in args.set:
        key, _, value = kv.partition("=")
        try:
            extra[key] = json.loads(value)
        except json.JSONDecodeError:
            extra[key] = value  # a bare string (a path)
    pipe = Pipeline(Settings(**{**base.model_dump(), "data_dir": data_dir, "generator_model": model, **extra}))
    if args.relevance:
        for name in args.relevance.split(","):
            items = load_devset(ROOT / "bench" / f"{name}.jsonl")[: args.limit or None]
            log(f"relevance on {name} ({len(items)} questions) ...")
            rows = run_relevance(pipe, items, log)
            if args.dump:
                args.dump.mkdir(parents=True, exist_ok=True)
                (args.dump / f"relevance_{name}.jsonl").write_text(
                    "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
            block = relevance_block(name, rows)
            write_block(args.out, f"relevance:{name}", block)
            print(block, flush=True)
        if data_dir != src:
            shutil.rmtree(data_dir.parent, ignore_errors=True)
        return 0
    items = load_devset(ROOT / "bench" / "devset.jsonl")[: args.limit or None]
    for gen in gens:
        label = args.label or gen
        if args.report_only:
            rows = [json.loads(x) for x in (args.dump / f"{label}.jsonl").read_text(encoding="utf-8").splitlines()]
        else:
            log(f"answers with {gen} ...")
            planned = len(items) + len(FABRICATED)

            def partial(rows, gen=gen, label=label, planned=planned):
                if len(rows) % 5 == 0 and len(rows) < planned:
                    write_block(args.out, f"answers:{label}",
                                answers_block(label, rows[-1]["model"] or gen, rows, planned))

            if args.replay:
                rows = replayed(pipe, gen, items, log, args.dump / f"{label}.jsonl", args.replay)
            else:
                rows = run_answers(pipe, gen, items, log, args.dump / f"{label}.jsonl", partial)
        block = answers_block(label, rows[-1]["model"] or gen, rows, len(items) + len(FABRICATED))
        write_block(args.out, f"answers:{label}", block)
        print(block, flush=True)
    if args.hyde:
        from importlib.util import find_spec

        hg = args.hyde_generator
        if hg == "auto":
            hg = "llama_cpp" if find_spec("llama_cpp") is not None and model else "transformers"
        block = run_hyde(pipe, items, hg, model if hg == "llama_cpp" else args.model, log)
        write_block(args.out, f"hyde:{hg}", block)
        print(block, flush=True)
    if data_dir != src:
        shutil.rmtree(data_dir.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
