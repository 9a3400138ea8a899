"""Test and benchmark inputs that need nothing outside the repository.

:mod:`himga.testing.longmemeval_like` writes deterministic files in the raw LongMemEval layout at any
scale (the real S/M files cannot be vendored: 277 MB / 2.5 GB); :mod:`himga.testing.beam_like` writes chats in
BEAM's raw layout (the 1M and 10M tiers are not in the authors' repository). Command lines::

    python -m himga.testing OUT.json [--questions 500] [--sessions 48] [--seed 0]
    python -m himga.testing beam-like ROOT [--tier 10M] [--chats 1] [--plans 10] [--batches 10] [--seed 0]
"""

from himga.testing.beam_like import GeneratedChat, write_beam_like
from himga.testing.longmemeval_like import GeneratedFile, iter_questions, write_longmemeval_like

__all__ = ["GeneratedChat", "GeneratedFile", "iter_questions", "write_beam_like", "write_longmemeval_like"]
