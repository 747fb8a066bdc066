"""Training of the legal reranker (offline; it sits above the serving stage :mod:`legal_rag.rerank` and above
:mod:`legal_rag.eval`, whose AILA loaders it reads). The stage never imports this package.

* :mod:`.data`: the sources, :class:`Group`, the held-out guard (:class:`Forbidden`, :class:`LeakageError`);
* :mod:`.groups`: hard-negative mining and the five group builders (:func:`build_groups`);
* :mod:`.casebase_groups`: weakly labelled groups from the case base (masked paragraph -> cited section, old
  and new);
* :mod:`.train`: :class:`TrainConfig`, :class:`TrainReport`, ``train()`` and the front doors below.

Front doors: :func:`train_reranker` (``legal-rag train-reranker``) and :func:`ensure_reranker` (``legal-rag
index`` with ``rerank_model = "legal"``). The function ``train`` is not re-exported here, so
``legal_rag.rerank.training.train`` stays the module.
"""

from .data import Forbidden, Group, LeakageError
from .train import TrainConfig, TrainReport, default_dir, ensure_reranker, train_reranker

__all__ = ["train_reranker", "ensure_reranker", "TrainConfig", "TrainReport", "default_dir", "Group", "Forbidden",
           "LeakageError"]
