"""Hard-negative mining and the five builders of training groups (sources and rules: :mod:`.data`).

``build_groups(corpus_path, seed=13, limits=DEFAULT_LIMITS, embedder=None) -> list[Group]`` is deterministic for a
given seed, corpus and embedder: pools, candidates and samples are all ordered before the seeded shuffle.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from ...types import StatuteRef
from .data import (QUERY_WORDS, Doc, Forbidden, Group, aila_docs, assert_no_leak, bns_docs, ipc_docs, leaks,
                   load_forbidden, split_illustrations)

NEGATIVES = 3  # hard negatives per group
#: groups per source (after the leak filter): 480 groups x 4 pairs = 120 steps of 16 pairs (see bench/results_rerank.md)
DEFAULT_LIMITS = {"aila": 80, "charge": 150, "title": 100, "illustration": 80, "bprd": 70}


class Miner:
    """Ranks a pool of :class:`Doc` for a query by BM25 (``legal_rag.index.SparseIndex``, the legal tokenizer)
    and, with an embedder, by dense cosine; :meth:`negatives` interleaves the two lists (BM25 first)."""

    def __init__(self, docs: Sequence[Doc], embedder=None, mask_title: bool = False):
        from ...index import SparseIndex

        self.docs = {d.key: d for d in docs}
        self.keys = sorted(self.docs)
        self.mask = mask_title
        self.sparse = SparseIndex.build(self.keys, [self.docs[k].passage(mask_title) for k in self.keys])
        self.embedder = embedder
        self._vecs = None

    def _dense(self, query: str, n: int) -> list[str]:
        if self.embedder is None:
            return []
        if self._vecs is None:
            self._vecs = self.embedder.embed_passages([self.docs[k].passage(self.mask) for k in self.keys])
        sims = self._vecs @ self.embedder.embed_query(query)
        return [self.keys[i] for i in np.argsort(-sims, kind="stable")[:n]]

    def negatives(self, query: str, exclude: set[str], n: int = NEGATIVES) -> list[Doc]:
        sparse = [k for k, _ in self.sparse.search(query, n + len(exclude) + 5)]
        dense = self._dense(query, n + len(exclude) + 5)
        out: list[str] = []
        for pair in zip(sparse + [None] * len(dense), dense + [None] * len(sparse)):
            for k in pair:
                if k and k not in exclude and k not in out:
                    out.append(k)
        return [self.docs[k] for k in out[:n]]


def query_windows(text: str, size: int = QUERY_WORDS, overlap: int = 20) -> list[str]:
    w = text.split()
    step = size - overlap
    return [" ".join(w[i:i + size]) for i in range(0, max(1, len(w) - overlap), step)] or [text]


def _overlap(a: str, b: str) -> int:
    stop = {"the", "of", "and", "to", "a", "in", "or", "any", "by", "is", "be", "that", "with", "for", "as", "on"}
    return len((set(re.findall(r"[a-z]+", a.lower())) - stop) & set(re.findall(r"[a-z]+", b.lower())))


@dataclass(frozen=True)
class GroupSpec:
    """A group before mining: the query, the positive's key in pool ``pool`` and the keys that are no negative."""

    query: str
    pool: str
    key: str
    exclude: frozenset[str]
    source: str
    body: bool = False  # passages without their illustrations


def _spec(query: str, pool: str, key: str, exclude, source: str, body: bool = False) -> GroupSpec:
    return GroupSpec(query, pool, key, frozenset(exclude) | {key}, source, body)


def materialize(spec: GroupSpec, miners: dict[str, "Miner"], bodies: dict[str, str]) -> Group | None:
    """Mine the negatives of ``spec`` and render its passages; None when the pool gives too few negatives."""
    m = miners[spec.pool]
    negs = m.negatives(spec.query, set(spec.exclude))
    if len(negs) < NEGATIVES:
        return None
    txt = (lambda d: bodies.get(d.key)) if spec.body else (lambda d: None)
    return Group(spec.query, m.docs[spec.key].passage(m.mask, txt(m.docs[spec.key])),
                 tuple(d.passage(m.mask, txt(d)) for d in negs), spec.source)


def aila_specs(corpus_path: Path, miner: Miner) -> list[GroupSpec]:
    """Q1-Q10 x gold statutes of Task 2 (the test queries Q11-Q50 are never read here)."""
    from ...eval.aila import TRAIN_QUERIES, load_qrels, load_queries

    texts, qrels = load_queries(corpus_path), load_qrels(corpus_path, "task2")
    out = []
    for q in TRAIN_QUERIES:
        gold = sorted(f"AILA {s}" for s, rel in qrels.get(q, {}).items() if rel > 0)
        wins = query_windows(texts[q])
        for s in gold:
            if s not in miner.docs:
                continue
            ranked = sorted(wins, key=lambda w: -_overlap(w, miner.docs[s].text))
            for w in ranked[:2]:  # the two windows that share most words with the statute
                out.append(_spec(w, "AILA", s, gold, f"aila:{q}:{s.split()[1]}"))
    return out


def charge_sections(corpus_path: Path, ipc: dict[str, Doc]) -> dict[str, list[str]]:
    """charge id -> IPC keys, from the charge's definition (``Labels.jsonl``, sentences quoted from the IPC): the
    section titled as the charge ("theft" -> IPC 378 "Theft"), the section sharing most of the whole definition's
    words (>= 60%), and any section quoting one of its sentences of >= 15 words word for word (>= 95%)."""
    out: dict[str, list[str]] = {}
    path = Path(corpus_path) / "benchmarks" / "charge_identification" / "Labels.jsonl"
    words = {k: set(re.findall(r"[a-z]+", d.text.lower())) for k, d in ipc.items()}
    keys_sorted = sorted(words)

    def best(ws: set[str]) -> tuple[str, float]:
        k = max(keys_sorted, key=lambda k: len(ws & words[k]))
        return k, len(ws & words[k]) / max(1, len(ws))

    for line in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        keys = [k for k in keys_sorted if ipc[k].title.strip(" .").lower() == d["chargeid"].lower()]
        k, r = best(set(re.findall(r"[a-z]+", " ".join(d["text"]).lower())))
        if r >= 0.6:
            keys.append(k)
        for sent in d["text"]:
            sw = set(re.findall(r"[a-z]+", sent.lower()))
            k, r = best(sw)
            if len(sw) >= 15 and r >= 0.95:
                keys.append(k)
        out[d["chargeid"]] = list(dict.fromkeys(keys))
    return out


def successors(keys: Sequence[str], conc) -> list[str]:
    """BNS section keys succeeding IPC keys by the BPR&D table (``Concordance.counterparts`` at section level)."""
    out = []
    for k in keys:
        out.extend(f"BNS {t.section}" for t in conc.counterparts(StatuteRef("IPC", k.split()[1]), level="section")
                   if t.act == "BNS")
    return list(dict.fromkeys(out))


def charge_specs(corpus_path: Path, miners: dict[str, Miner], conc, rng: random.Random) -> list[GroupSpec]:
    charge = charge_sections(corpus_path, miners["IPC"].docs)
    path = Path(corpus_path) / "benchmarks" / "charge_identification" / "Train-Sent.jsonl"
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        fact = json.loads(line)
        all_ipc = [k for lab in fact["doc_labels"] for k in charge.get(lab, [])]
        excl = set(all_ipc) | set(successors(all_ipc, conc))
        for lab in sorted(fact["doc_labels"]):
            sents = [s for s, labs in zip(fact["text"], fact["sent_labels"]) if lab in labs]
            query = " ".join(" ".join(sents).split()[:QUERY_WORDS])
            ipc = charge.get(lab, [])
            cands = [("IPC", k) for k in ipc] + [("BNS", k) for k in successors(ipc, conc)]
            cands = [(a, k) for a, k in cands if k in miners[a].docs]
            if not query or not cands:
                continue
            act, key = rng.choice(cands)
            out.append(_spec(query, act, key, excl, f"charge:{fact['factid']}:{lab}"))
    return out


def title_specs(miners: dict[str, Miner]) -> list[GroupSpec]:
    out = []
    for act in ("BNS", "IPC"):
        m = miners[act + "-masked"]
        for k in m.keys:
            d = m.docs[k]
            if len(d.title.split()) >= 2 and len(d.text.split()) >= 20:
                out.append(_spec(d.title, act + "-masked", k, (), f"title:{k}"))
    return out


def illustration_specs(miners: dict[str, Miner], bodies: dict[str, str]) -> list[GroupSpec]:
    """Each BNS illustration -> its section's text without illustrations (``bodies``: key -> that text)."""
    m = miners["BNS"]
    out = []
    for k in m.keys:
        for ill in split_illustrations(m.docs[k].text)[1]:
            out.append(_spec(ill, "BNS", k, (), f"illustration:{k}", body=True))
    return out


def bprd_specs(miners: dict[str, Miner], conc, forbidden: Forbidden) -> list[GroupSpec]:
    """Subject of a BNS<->IPC row -> the BNS section and the IPC section it pairs (rows a dev item was written
    from are skipped)."""
    out, seen = [], set()
    for p in conc.pairs:
        if (p.row.file != "BPRD_correspondence_BNS_to_IPC_clean.csv" or not p.row.subject or p.new is None
                or p.old is None or f"{p.row.file}#{p.row.row}" in forbidden.rows):
            continue
        subj = p.row.subject.strip()
        pair_keys = {f"BNS {p.new.section}", f"IPC {p.old.section}"}
        for act, key in (("BNS", f"BNS {p.new.section}"), ("IPC", f"IPC {p.old.section}")):
            if key in miners[act].docs and (subj, key) not in seen and len(subj.split()) >= 2:
                seen.add((subj, key))
                out.append(_spec(subj, act, key, pair_keys, f"bprd:{p.row.file}#{p.row.row}:{key}"))
    return out


def build_groups(corpus_path: Path, *, seed: int = 13, limits: dict[str, int] | None = None, embedder=None,
                 forbidden: Forbidden | None = None, log=lambda m: None) -> list[Group]:
    """Training groups from every source, at most ``limits[source]`` each: candidates are leak-filtered, sampled
    with ``seed``, then their negatives are mined (BM25, plus dense when ``embedder`` is given) and the groups
    shuffled. Raises :class:`LeakageError` if a held-out query is still present."""
    from ...law import load_concordance

    limits = dict(DEFAULT_LIMITS if limits is None else limits)
    forbidden = forbidden or load_forbidden(corpus_path)
    rng = random.Random(seed)
    bns, ipc = bns_docs(corpus_path), ipc_docs(corpus_path)
    conc = load_concordance(corpus_path)
    miners = {"BNS": Miner(list(bns.values()), embedder), "IPC": Miner(list(ipc.values()), embedder),
              "AILA": Miner(list(aila_docs(corpus_path).values()), embedder),
              # title queries: titles masked in every passage; BM25 only (saves ~900 embeddings)
              "BNS-masked": Miner(list(bns.values()), mask_title=True),
              "IPC-masked": Miner(list(ipc.values()), mask_title=True)}
    bodies = {k: split_illustrations(d.text)[0] for k, d in bns.items()}
    makers = {"aila": lambda: aila_specs(corpus_path, miners["AILA"]),
              "charge": lambda: charge_specs(corpus_path, miners, conc, rng),
              "title": lambda: title_specs(miners),
              "illustration": lambda: illustration_specs(miners, bodies),
              "bprd": lambda: bprd_specs(miners, conc, forbidden)}
    out: list[Group] = []
    for src in sorted(makers):
        if not limits.get(src):
            continue
        specs = makers[src]()
        kept = list(dict.fromkeys(sp for sp in specs if not leaks(sp.query, forbidden)))
        dropped = len(specs) - len(kept)
        kept = rng.sample(kept, min(limits[src], len(kept)))
        groups = [g for g in (materialize(sp, miners, bodies) for sp in kept) if g]
        log(f"{src}: {len(specs)} candidates, {dropped} dropped as held-out overlap, {len(groups)} groups")
        out.extend(groups)
    rng.shuffle(out)
    assert_no_leak(out, forbidden)
    return out
