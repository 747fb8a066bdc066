"""No shipped question set of the ranker nearly copies a question it is measured or chosen on
(:mod:`bench.ranker.leakage`), with the index's real query embedder."""

from __future__ import annotations

import json

import pytest

from bench.ranker.leakage import EVALUATION_SETS, LEAK_COSINE, evaluation_questions, near_copies
from legal_rag.rank import asked_files, training_files

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def embed(real_index):
    """``real_index.embed_query``, each text embedded once for the whole module (the sets overlap across tests)."""
    seen = {}

    def one(text):
        if text not in seen:
            seen[text] = real_index.embed_query(text)
        return seen[text]

    return one


def _questions(paths):
    return [json.loads(line)["question"] for p in paths for line in p.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def test_no_source_or_asked_question_copies_an_evaluation_question(embed):
    measured = [p for p in EVALUATION_SETS if "ask_" not in p.name]
    against = _questions(measured)
    shipped = _questions([*training_files(), *asked_files()])
    found = near_copies(shipped, against, embed)
    assert not found, [(shipped[i], against[j], round(c, 3)) for i, j, c in found[:5]]


def test_no_source_question_copies_an_asked_one(embed):
    asked = _questions(asked_files())
    found = near_copies(_questions(training_files()), asked, embed)
    assert not found


def test_the_guard_finds_a_reworded_copy(embed):
    q = evaluation_questions()[0]
    found = near_copies([q.replace(".", "").lower() + " please", "a question about something else entirely"], [q],
                        embed)
    assert [i for i, _, c in found] == [0] and found[0][2] > LEAK_COSINE


def test_no_follow_up_message_copies_an_evaluation_question(embed):
    from legal_rag.rank.followup import followup_files

    against = _questions([p for p in EVALUATION_SETS if "ask_" not in p.name])
    shipped = _questions(followup_files())
    found = near_copies(shipped, against, embed)
    assert not found, [(shipped[i], against[j], round(c, 3)) for i, j, c in found[:5]]
