"""The registry of judges: every published judge prompt by name, as data (:class:`Judge`).

Built in: LongMemEval's official judge and the five LoCoMo judges papers report (mem0, Zep's copy, MemOS,
EverMemOS, MAGMA). A benchmark folder adds its own judge by listing it in its catalogue entry
(``Benchmark(..., judges=(MY_JUDGE,))``, a :class:`Judge` defined beside its builder): :func:`judges` returns the
built-in ones, then every entry's, and :func:`judge_named` finds either by name.
"""

from himga.scoring._judges._registry import BUILT_IN, judge_named, judges, judges_for
from himga.scoring._judges._type import Judge, LabelRule, UnreadableReply, template_sha256

__all__ = ["BUILT_IN", "Judge", "LabelRule", "UnreadableReply", "judge_named", "judges", "judges_for", "template_sha256"]
