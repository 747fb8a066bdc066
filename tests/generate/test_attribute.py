import math

import pytest

from legal_rag.config import load_settings
from legal_rag.generate import generate, retrieval_prior, sequence_posterior
from legal_rag.verify import verify

from .fakes import FakeBackend, cheating_hits

SCORES = [0.785, 0.970, 0.142]  # seed material: dense scores of docs A, B, C


def test_retrieval_prior_is_the_softmax_of_the_scores():
    assert [round(p, 4) for p in retrieval_prior(SCORES)] == [0.3664, 0.4409, 0.1926]
    assert math.isclose(sum(retrieval_prior(SCORES)), 1.0)
    sharper = retrieval_prior(SCORES, temperature=0.1)
    assert sharper[1] > 0.8


def test_rag_sequence_marginal_and_posterior_match_the_worked_example():
    att = sequence_posterior(SCORES, [math.log(p) for p in (0.05, 0.85, 0.02)])
    assert round(att.marginal, 3) == 0.397
    expected = [p * l / att.marginal for p, l in zip(att.prior, (0.05, 0.85, 0.02))]
    assert all(math.isclose(a, b, rel_tol=1e-9) for a, b in zip(att.posterior, expected))
    assert math.isclose(sum(att.posterior), 1.0) and max(att.posterior) == att.posterior[1]


def test_log_space_survives_long_answers():
    att = sequence_posterior([0.5, 0.4], [-2000.0, -2003.0])  # exp(-2000) underflows a float
    assert math.isclose(att.posterior[0], 1 / (1 + math.exp(-0.1 - 3.0)), rel_tol=1e-9)


def test_errors():
    with pytest.raises(ValueError):
        sequence_posterior([0.1], [0.0, 0.0])
    with pytest.raises(ValueError):
        retrieval_prior([])
    with pytest.raises(ValueError):
        sequence_posterior([0.1, 0.2], [-math.inf, -math.inf])


def test_generate_weights_passages_and_citations_carry_them():
    s = load_settings(attribution=True)
    hs = cheating_hits()

    def logprob(messages, answer):  # the answer is likeliest under the passage holding 'seven years'
        user = dict(messages)["user"]
        return -1.0 if "seven years" in user and "BEGIN PASSAGE [1]" in user else -6.0

    backend = FakeBackend("Whoever cheats and dishonestly induces delivery of property shall be punished with "
                          "imprisonment which may extend to seven years [1].", logprobs=logprob)
    d = generate("What is the punishment for cheating?", hs, s, backend=backend)
    assert len(d.weights) == len(d.passages) and math.isclose(sum(d.weights), 1.0)
    assert d.weights[0] == max(d.weights)
    v = verify(d, equivalents=lambda r: set())
    assert v.citations and v.citations[0].weight == d.weights[0]


def test_no_logprobs_means_no_weights_and_a_note():
    s = load_settings(attribution=True)
    d = generate("What is the punishment for cheating?", cheating_hits(), s,
                 backend=FakeBackend("Whoever cheats shall be punished [1]."))
    assert d.weights == () and any("log-probabilities" in p for p in d.problems)
