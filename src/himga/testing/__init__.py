"""Test and benchmark inputs that need nothing outside the repository.

:mod:`himga.testing.longmemeval_like` writes deterministic files in the raw LongMemEval layout at any
scale (the real S/M files cannot be vendored: 277 MB / 2.5 GB). Command line::

    python -m himga.testing OUT.json [--questions 500] [--sessions 48] [--seed 0]
"""

from himga.testing.longmemeval_like import GeneratedFile, iter_questions, write_longmemeval_like

__all__ = ["GeneratedFile", "iter_questions", "write_longmemeval_like"]
