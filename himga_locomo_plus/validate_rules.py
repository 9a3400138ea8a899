"""LoCoMo-Plus data-quality rules for ``himga validate`` (see :mod:`himga.validate`): LoCoMo's own for its rows
(:mod:`himga_locomo.validate_rules`), and for the cognitive items what the official stitching does silently.
Counts on the pinned files in brackets:

- ``cue_before_conversation`` [28]: the cue is dated before the conversation's first session (its time gap reaches
  back further), so the stitched conversation opens with it (``cue_session_idx`` is ``None``);
- ``time_gap_unparsed`` [15]: a ``time_gap`` naming no number of weeks, months or years (``"several months later"``,
  ``"a couple of months later"``): ``parse_time_gap`` gives 0 days, so the cue is dated at the trigger's time;
- ``dropped_dialogue_lines`` [0]: cue or trigger lines that start with neither ``A:`` nor ``B:`` and are dropped.
"""

from __future__ import annotations

from collections.abc import Iterator

from himga.finding import Finding
from himga_locomo import validate_rules as locomo_rules
from himga_locomo_plus.source_record import is_cognitive

__all__ = ["KINDS", "findings"]

KINDS = {
    **locomo_rules.KINDS,
    "cue_before_conversation": "cognitive items whose cue is dated before the conversation (it opens the stitched "
    "conversation)",
    "time_gap_unparsed": "time gaps naming no number of weeks, months or years (0 days: the cue at the trigger's time)",
    "dropped_dialogue_lines": "cue or trigger lines without 'A:'/'B:' (dropped, as the official code drops them)",
}


def findings(sample) -> Iterator[Finding]:
    """The findings of one LoCoMo-Plus Sample: LoCoMo's for a LoCoMo row, the kinds above for a cognitive item."""
    if not is_cognitive(sample):
        yield from locomo_rules.findings(sample)
        return
    sid, qa = sample.sample_id, sample.qa_pairs[0]
    if sample.raw.get("cue_session_idx") is None:
        yield Finding(
            "cue_before_conversation",
            sid,
            "session cue",
            f"cue {sample.raw.get('cue_time')}, time gap {qa.raw.get('time_gap')!r}",
        )
    if sample.raw.get("time_gap_days") == 0:
        yield Finding("time_gap_unparsed", sid, "session cue", f"time_gap {qa.raw.get('time_gap')!r} -> 0 days")
    for key in ("cue_dialogue", "trigger_query"):
        for line in str(qa.raw.get(key, "")).split("\n"):
            if not line.strip().startswith(("A:", "B:")):
                yield Finding("dropped_dialogue_lines", sid, key, repr(line))
