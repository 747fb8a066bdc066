"""The question sets the section ranker learns from: JSON lines read into :class:`Example` s.

Each line: ``question``, ``gold`` (``["BNS 303(2)", ...]``; ``[]`` for a question outside the corpus), ``act``
(``BNS``/``BNSS``/``BSA``/``OTHER``), ``source`` (the official source line the question was written from: "BNS
s.303(2) text", "BNS s.115 Illustration (b)"; paraphrases of one source share it, and it is the :attr:`Example.group`
the split and the memory keep together; a question outside the corpus is a group of its own), ``source_line`` (its
section) and ``out_of_corpus`` (the Act that governs, for ``OTHER``). The sets are beside this module, in
``data/``: the source sets ``train_*.jsonl`` (:func:`training_files`) and the asked sets ``ask_*.jsonl``
(:func:`asked_files`); an example's ``writer`` is its file's stem.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..types import StatuteRef
from .model import OTHER

DATA = Path(__file__).with_name("data")


@dataclass(frozen=True)
class Example:
    """One training question, read: ``label`` is the Act class, ``gold`` the gold refs, ``writer`` the question set
    it came from (its file's stem; ``""`` when not read from a file)."""

    id: str
    question: str
    gold: tuple[StatuteRef, ...]
    label: str
    group: str
    writer: str = ""


def parse_ref(text: str) -> StatuteRef:
    """``"BNS 318(4)"`` -> ``StatuteRef("BNS", "318", ("4",))`` (the gold notation of the question sets)."""
    act, rest = text.strip().split(" ", 1)
    section = rest.split("(", 1)[0].strip()
    subs = tuple(s.rstrip(")").strip() for s in rest.split("(")[1:])
    return StatuteRef(act, section, subs)


def training_files() -> list[Path]:
    """The shipped source sets (``train_*.jsonl``: questions written source line by source line through the Acts,
    their Illustrations, the First Schedule and the BPR&D subjects), in name order."""
    return sorted(DATA.glob("train_*.jsonl"))


def asked_files() -> list[Path]:
    """The shipped asked sets (``ask_*.jsonl``: questions as clients and juniors ask them, each set by one writer
    who saw neither the other question sets nor the ranker), in name order."""
    return sorted(DATA.glob("ask_*.jsonl"))


def memory_files() -> list[Path]:
    """Every shipped question set the ranker's memory holds: the source sets, then the asked sets."""
    return [*training_files(), *asked_files()]


def read_examples(paths: Sequence[Path]) -> list[Example]:
    """Every line of ``paths`` as an :class:`Example`; raises ``ValueError`` naming the file and line of a line
    without a question, a gold or an out-of-corpus Act."""
    out = []
    for path in paths:
        for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            d = json.loads(line)
            ooc = (d.get("out_of_corpus") or "").strip()
            gold = tuple(parse_ref(g) for g in d.get("gold", ()))
            if not d.get("question") or not (gold or ooc):
                raise ValueError(f"{path}:{n}: a question needs a question and a gold or an out_of_corpus Act")
            label = OTHER + ooc if ooc else gold[0].act
            qid = str(d.get("id", f"{path}:{n}"))
            # the group is the official source line written from (one Illustration, one schedule row, one
            # sub-section's text); a question outside the corpus has none and is a group of its own
            group = qid if ooc else str(d.get("source") or d.get("source_line") or qid)
            out.append(Example(qid, d["question"], gold, label, group, Path(path).stem))
    return out


__all__ = ["DATA", "Example", "asked_files", "memory_files", "parse_ref", "read_examples", "training_files"]
