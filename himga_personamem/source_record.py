"""A PersonaMem Sample → the source records it was built from (the inverse of
:func:`himga_personamem.records.context_row`).

Shapes no row, so it is not part of the cache key.
"""

from __future__ import annotations

from typing import Any

__all__ = ["sample_to_record"]


def sample_to_record(sample) -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, str]]]:
    """Rebuild the contexts file's line and the CSV rows of a Sample built by
    :func:`~himga_personamem.records.context_row`.

    Returns:
        ``({shared_context_id: [turns]}, [CSV row as {column: cell}, ...])``: the line's object, equal as JSON to the
        file's, and the context's questions in CSV order, each with every column as the file has it.
    """
    turns = [{"role": m.role, "content": m.content, **m.raw} for session in sample.sessions for m in session.messages]
    return {sample.sample_id: turns}, [dict(qa.raw) for qa in sample.qa_pairs]
