"""Judges: every judge prompt by name, as data (:class:`Judge`), and its reply rule.

Each judge is one module that registers its :class:`Judge` (:func:`register`): LongMemEval's and BEAM's official judges
(:mod:`.longmemeval`, :mod:`.beam`), and the LoCoMo judges papers report (mem0, Zep's copy, MemOS, EverMemOS, MAGMA).
Importing this package imports them all, so :func:`judges` lists them; a benchmark folder's own judge (LoCoMo-Plus's)
registers when its folder is imported (the catalogue imports every folder). Adding one: ``docs/adding-a-judge.md``.
"""

from himga.scoring.judges._judge import Judge, LabelRule, UnreadableReply, template_sha256
from himga.scoring.judges._registry import judge_named, judges, judges_for, judges_named, register

# The judges himga holds, in the registry's order: each module registers its own.
from himga.scoring.judges import _longmemeval  # noqa: F401  isort: skip
from himga.scoring.judges.beam import _judges  # noqa: F401  isort: skip
from himga.scoring.judges import _mem0, _zep, _memos, _evermemos, _magma  # noqa: F401  isort: skip

__all__ = [
    "Judge",
    "LabelRule",
    "UnreadableReply",
    "judge_named",
    "judges",
    "judges_for",
    "judges_named",
    "register",
    "template_sha256",
]
