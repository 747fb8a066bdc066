"""Precedent search for AILA 2019 Task 1 (which judgments are most like these facts?): a benchmark, not a product
path. The product answers from statutes and its case base (:mod:`legal_rag.retrieve`); these modules measure
whether judgment retrieval by fused signals could serve it (``bench/results.md``, "AILA 2019 Task 1").

* :mod:`bench.precedents.search`: the signals, their CombSUM fusion and the judgment pool (:class:`PrecedentIndex`);
* :mod:`bench.precedents.citations`: the citation graph read from the judgments' text (titles on both parties);
* :mod:`bench.precedents.task1`: cached signals, the weight grid, the choice on Q1, Q3-Q10, cross-validation;
* :mod:`bench.precedents.fusion`: the fused grids (chunk list, citation prior) and the vectorised evaluation;
* :mod:`bench.precedents.propagation`: citation propagation and RM3 feedback.

Run by ``bench/run.py --only task1|task1-fusion|task1-prop|task1-rm3 --casebase DIR``.
"""

from .citations import citation_counts, citation_pairs, citation_prior, citing_map, party_key, title_key
from .search import (DOC_B, FORMAT_VERSION, PrecedentIndex, PrecedentWeights, aggregate, combsum, fuse_signals,
                     max_normalise, pool_cites, propagate, rm3_key, rm3_weights, section_overlap, section_profile,
                     top_idf_terms, weighted_rrf)
from .task1 import (TUNE_QUERIES, Choice, Task1Report, choose, cross_validate, describe, grid, load_or_compute,
                    per_query, ranking, run_precedents, with_extras)
from .fusion import FusionReport, Matrix, choose_from_table, fused_grid, map_table, run_fusion, setting_table
from .propagation import PROP_BASES, PROP_K, PropReport, describe_prop, prop_grid, rm3_grid, run_prop

__all__ = ["DOC_B", "FORMAT_VERSION", "PROP_BASES", "PROP_K", "TUNE_QUERIES", "Choice", "FusionReport", "Matrix",
           "PrecedentIndex", "PrecedentWeights", "PropReport", "Task1Report", "aggregate", "choose",
           "choose_from_table", "citation_counts", "citation_pairs", "citation_prior", "citing_map", "combsum",
           "cross_validate", "describe", "describe_prop", "fuse_signals", "fused_grid", "grid", "load_or_compute",
           "map_table", "max_normalise", "party_key", "per_query", "pool_cites", "prop_grid", "propagate", "ranking",
           "rm3_grid", "rm3_key", "rm3_weights", "run_fusion", "run_precedents", "run_prop", "section_overlap",
           "section_profile", "setting_table", "title_key", "top_idf_terms", "weighted_rrf", "with_extras"]
