"""Prompt size and prefix cache of the llama_cpp generator (issue 17), on the dev set's own retrieval.

For every dev question (``bench/devset.jsonl``): the passages the generator would get (``Pipeline.search``, then
the top ``top_k`` that clear the relevance floor, as :func:`legal_rag.generate.generate` takes them), and the prompt
built from them whole (``compact=False``, the prompt before issue 17) and compact (:mod:`legal_rag.generate.window`),
counted with the model's own tokenizer and chat template (:meth:`LlamaCppBackend.count_tokens`).

With ``--timed N``, the first N questions are then prefilled (``max_new_tokens=1``, so the time is the time to the
first token) with the compact prompt, interleaved question by question, by a backend that keeps the system prefix
(``prefix_cache=True``) and one that resets before each call (``prefix_cache=False``); each call is preceded by one
other question's call on the same backend, so the cached one holds another question's prompt, as in use. Reported:
prompt tokens, tokens prefilled (``Generation.cached_tokens``), TTFT p50 / p95, and the load average.

    HF_HUB_OFFLINE=1 .venv/bin/python bench/prefix_cache.py --data-dir .legal_rag-test/index-<key> --timed 6
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else 0.0


def main(argv=None) -> int:
    from legal_rag.config import Settings
    from legal_rag.eval.runners import load_devset
    from legal_rag.generate.abstain import relevant
    from legal_rag.generate.backends.llama_cpp import LlamaCppBackend
    from legal_rag.generate.prompt import build_prompt
    from legal_rag.law import analyse
    from legal_rag.pipeline import Pipeline

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, required=True, help="built index (copied first)")
    ap.add_argument("--model", default="", help="GGUF (default: the Qwen 1.5B parts)")
    ap.add_argument("--timed", type=int, default=0, help="prefill the first N questions, cache on vs off")
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="prefix_cache_")) / "index"
    shutil.copytree(args.data_dir, tmp)
    settings = Settings(data_dir=tmp)
    pipe = Pipeline(settings)
    items = load_devset(ROOT / "bench" / "devset.jsonl")[: args.limit or None]
    warm = LlamaCppBackend(args.model, data_dir=Path(".legal_rag"), context_tokens=settings.generator_context_tokens)
    prompts, whole_n, compact_n = [], [], []
    for it in items:
        q = it["question"]
        hits = relevant(analyse(q, concordance=pipe.concordance), tuple(pipe.search(q))[: settings.top_k],
                        settings.relevance_floor)
        if not hits:
            continue
        whole = build_prompt(q, hits, settings.prompts_dir, compact=False).messages
        compact = build_prompt(q, hits, settings.prompts_dir).messages
        whole_n.append(warm.count_tokens(whole))
        compact_n.append(warm.count_tokens(compact))
        prompts.append((it["id"], compact))
    system = warm.count_tokens((prompts[0][1][0],)) if prompts else 0
    print(f"| prompt tokens over {len(whole_n)} dev questions | whole passages | compact windows |")
    print("|---|---|---|")
    print(f"| mean | {statistics.mean(whole_n):.0f} | {statistics.mean(compact_n):.0f} |")
    print(f"| p50 / p95 | {pct(whole_n, 50)} / {pct(whole_n, 95)} | {pct(compact_n, 50)} / {pct(compact_n, 95)} |")
    print(f"| max | {max(whole_n)} | {max(compact_n)} |")
    print(f"\nsystem message (the cached prefix, with the chat template's opening): {system} tokens")
    if args.timed:
        cold = LlamaCppBackend(args.model, data_dir=Path(".legal_rag"), prefix_cache=False,
                               context_tokens=settings.generator_context_tokens)
        rows, loads = {"cache": [], "reset": []}, []
        sel = prompts[: args.timed + 1]
        for i in range(1, len(sel)):
            for name, b in (("cache", warm), ("reset", cold)):
                b.chat(sel[i - 1][1], max_new_tokens=1)  # the context now holds another question's prompt
                g = b.chat(sel[i][1], max_new_tokens=1)
                rows[name].append((g.prompt_tokens, g.prompt_tokens - g.cached_tokens, g.ttft_s or g.total_s))
            loads.append(os.getloadavg()[0])
            print(f"  {sel[i][0]}: " + "; ".join(f"{k} {v[-1][1]}/{v[-1][0]} prefilled, ttft {v[-1][2]:.2f}s"
                                                  for k, v in rows.items()), flush=True)
        print(f"\n| compact prompt, {len(rows['cache'])} questions, TTFT = prefill + 1 token | prefix cache | "
              "reset before each call |")
        print("|---|---|---|")
        for label, k in (("prompt tokens, mean", 0), ("tokens prefilled, mean", 1)):
            print(f"| {label} | {statistics.mean(r[k] for r in rows['cache']):.0f} | "
                  f"{statistics.mean(r[k] for r in rows['reset']):.0f} |")
        tt = {k: [r[2] for r in v] for k, v in rows.items()}
        print(f"| TTFT p50 / p95 (s) | {pct(tt['cache'], 50):.2f} / {pct(tt['cache'], 95):.2f} | "
              f"{pct(tt['reset'], 50):.2f} / {pct(tt['reset'], 95):.2f} |")
        print(f"\nload average min/max {min(loads):.1f}/{max(loads):.1f} on {os.cpu_count()} cores "
              f"(shared machine), {time.strftime('%Y-%m-%d %H:%M')}")
    shutil.rmtree(tmp.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
