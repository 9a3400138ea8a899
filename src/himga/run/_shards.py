"""Shards of a run: whole samples, a deterministic share balanced by question count, and their merge.

``--shard I/N`` (``0 <= I < N``) takes the samples the greedy rule gives shard ``I``: samples by question count, most
first (ties by dataset order), each to the shard with the fewest questions so far (ties: the lowest index). Any
scheduler starts the N commands: a Slurm array (``--shard $SLURM_ARRAY_TASK_ID/N``) or a Kubernetes indexed Job
(``--shard $JOB_COMPLETION_INDEX/N``); ``himga run merge`` checks and joins their folders.
"""

from __future__ import annotations

import re

from himga.errors import ConfigurationError

__all__ = ["parse_shard", "shard_samples"]


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """``"I/N"`` as ``(I, N)``; ``None`` for no shard.

    Raises:
        ConfigurationError: not two integers, or not ``0 <= I < N``: ``--shard 3/2: expected I/N with 0 <= I < N``.
    """
    if text is None:
        return None
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", str(text))
    if not match or not 0 <= int(match.group(1)) < int(match.group(2)):
        raise ConfigurationError(
            f"--shard {text}: expected I/N with 0 <= I < N (the shard's index from 0, of N shards)"
        )
    return int(match.group(1)), int(match.group(2))


def shard_samples(counts: list[tuple[str, int]], shard: tuple[int, int] | None) -> set[str]:
    """The samples of ``shard``, from ``(sample id, questions)`` in dataset order (all of them without a shard)."""
    if shard is None:
        return {sample for sample, _ in counts}
    index, n = shard
    loads = [0] * n
    owner: dict[str, int] = {}
    for _position, (sample, questions) in sorted(enumerate(counts), key=lambda pc: (-pc[1][1], pc[0])):
        target = min(range(n), key=lambda s: (loads[s], s))
        owner[sample] = target
        loads[target] += questions
    return {sample for sample, s in owner.items() if s == index}
