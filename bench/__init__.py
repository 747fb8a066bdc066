"""Benchmarks that print figures and ratios (never timed tests), against the public API of :mod:`legal_rag`.

A package so that the research modules the scripts share (:mod:`bench.precedents`) import as ``bench.…`` from the
scripts (which put the repository root on ``sys.path``) and from ``tests/bench/``. Nothing in :mod:`legal_rag`
imports this package (``tests/test_layering.py``).
"""
