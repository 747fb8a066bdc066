"""A case base of one judgment (C1, one paragraph citing IPC 420, in a pool of 100) that counts its searches: the
stand-in the section finder's unit tests search."""

from __future__ import annotations

from dataclasses import dataclass

from legal_rag.types import StatuteRef


@dataclass(frozen=True)
class Hit:
    case: str
    para: int
    score: float


class OneCase:
    def __init__(self):
        self.calls = 0

    def __len__(self):
        return 100

    def search(self, query, k, exclude=()):
        self.calls += 1
        return [Hit("C1", 0, 3.0)][:k]

    def paragraph_cites(self, case, para):
        return (StatuteRef("IPC", "420"),)

    def case_cites(self, case):
        return {StatuteRef("IPC", "420"): 1}

    def section_df(self, ref):
        return 5
