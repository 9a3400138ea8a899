"""What LongMemEval's files look like: the oracle file (every haystack session an answer session) read as S or M says
so, as ``himga stats`` and ``himga score`` found it did not (\"1.9 sessions per question\" where S has ~50)."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["shape_note"]

#: The configs whose haystacks hold sessions besides the answer sessions (S: ~50 a question, M: ~500).
HAYSTACK_CONFIGS = ("s", "m")


def shape_note(config: str, samples: Iterable) -> str | None:
    """A note when every question's haystack sessions are its answer sessions (``answer_session_ids``), the oracle
    file's shape, and the data was read as S or M; ``None`` otherwise (stops at the first question that has other
    sessions, so a real S or M file costs one sample)."""
    if config not in HAYSTACK_CONFIGS:
        return None
    n = 0
    for sample in samples:
        answers = {sid for qa in sample.qa_pairs for sid in qa.evidence.session_ids}
        if {session.session_id for session in sample.sessions} != answers:
            return None
        n += 1
    if not n:
        return None
    return (
        f"every haystack session of the {n:,} questions is an answer session: the file is oracle-shaped "
        f"(longmemeval_oracle.json's layout), not {config.upper()}'s (~{50 if config == 's' else 500} sessions a "
        "question, a few of them answer sessions); read it with --config oracle"
    )
