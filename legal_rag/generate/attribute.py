"""Passage attribution by the RAG-Sequence posterior (Lewis et al. 2020, "Retrieval-Augmented Generation for
Knowledge-Intensive NLP Tasks", eq. 1).

RAG-Sequence treats the passage z as a latent variable for the whole answer y:

    p(y|x) = sum_z p_eta(z|x) * p_theta(y|x,z),        p(z|x,y) = p_eta(z|x) * p_theta(y|x,z) / p(y|x)

with ``p_eta`` the softmax of the retrieval scores over the top-k passages and ``p_theta(y|x,z)`` the
generator's probability of the answer given the question and passage z alone (teacher-forced token
log-probabilities). The posterior is each passage's weight in the answer; it is computed in log space, since
``p_theta`` of a 100-token answer underflows a float.

The prior is only as sharp as the stage's scores: RRF scores (about 1/60) give a near-uniform prior, cosine
similarities a mild one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..types import Hit
from .prompt import Messages


def _logsumexp(xs: Sequence[float]) -> float:
    finite = [x for x in xs if x != -math.inf]
    if not finite:
        return -math.inf
    m = max(finite)
    return m + math.log(sum(math.exp(x - m) for x in finite))


def retrieval_prior(scores: Sequence[float], temperature: float = 1.0) -> tuple[float, ...]:
    """``p_eta(z|x)``: softmax of ``scores / temperature``.

    ``retrieval_prior([0.785, 0.970, 0.142])`` -> ``(0.3664, 0.4409, 0.1926)`` (rounded).
    Raises ``ValueError`` for no scores or a non-positive temperature.
    """
    if not scores:
        raise ValueError("retrieval_prior: no scores")
    if temperature <= 0:
        raise ValueError(f"retrieval_prior: temperature must be > 0, got {temperature}")
    logits = [s / temperature for s in scores]
    z = _logsumexp(logits)
    return tuple(math.exp(x - z) for x in logits)


@dataclass(frozen=True)
class Attribution:
    """RAG-Sequence quantities over k passages (all tuples of length k, in passage order).

    ``prior`` = p_eta(z|x); ``loglik`` = log p_theta(y|x,z) in nats; ``posterior`` = p(z|x,y) (sums to 1);
    ``log_marginal`` = log p(y|x).
    """

    prior: tuple[float, ...]
    loglik: tuple[float, ...]
    posterior: tuple[float, ...]
    log_marginal: float

    @property
    def marginal(self) -> float:
        """p(y|x) = sum_z p_eta(z|x) p_theta(y|x,z)."""
        return math.exp(self.log_marginal)


def sequence_posterior(scores: Sequence[float], loglik: Sequence[float], temperature: float = 1.0) -> Attribution:
    """The RAG-Sequence posterior from retrieval ``scores`` and ``loglik`` = log p_theta(y|x,z) per passage.

    Worked example (seed material): scores 0.785/0.970/0.142 and p_theta = 0.05/0.85/0.02 give the marginal
    0.397 and the posterior 0.046/0.944/0.010. Raises ``ValueError`` when the lengths differ or every
    likelihood is zero.
    """
    if len(scores) != len(loglik):
        raise ValueError(f"sequence_posterior: {len(scores)} scores but {len(loglik)} likelihoods")
    prior = retrieval_prior(scores, temperature)
    joint = [math.log(p) + ll if p > 0 else -math.inf for p, ll in zip(prior, loglik)]
    log_marginal = _logsumexp(joint)
    if log_marginal == -math.inf:
        raise ValueError("sequence_posterior: the answer has probability 0 under every passage")
    return Attribution(prior, tuple(loglik), tuple(math.exp(j - log_marginal) for j in joint), log_marginal)


def attribute(answer: str, passages: Sequence[Hit], numbers: Sequence[int],
              single_prompt: Callable[[Hit, int], Messages],
              logprob: Callable[[Messages, str], float | None]) -> Attribution | None:
    """Weigh ``passages`` for ``answer``: score the answer under a prompt holding only passage z (numbered as
    in the full prompt, so its ``[n]`` markers still make sense) for each z, then apply
    :func:`sequence_posterior` to the passages' retrieval scores. Returns ``None`` when the backend gives no
    log-probabilities or there is no answer. Cost: one forward pass over prompt+answer per passage.
    """
    if not answer.strip() or not passages:
        return None
    lls = []
    for hit, n in zip(passages, numbers):
        ll = logprob(single_prompt(hit, n), answer)
        if ll is None:
            return None
        lls.append(ll)
    return sequence_posterior([h.score for h in passages], lls)
