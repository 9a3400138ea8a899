"""Item ids and ids files: which QA pairs a subset holds, and restricting Samples to them.

An *item* is one scored QA pair. Its id is stable across runs and machines: LongMemEval's
``question_id``; for LoCoMo, whose QA indices repeat across conversations, ``<sample_id>:<QA index>``
(``conv-26:0``) — the query ids of :mod:`himga.qrels`. An *ids file* is UTF-8 text with one id per line
(blank lines and surrounding whitespace ignored), as ``himga subset`` writes it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path

from himga.errors import ConfigurationError
from himga.jsonio.run_inputs import read_id_lines

from .relevance import rule_of
from .sample import QAPair, Sample

__all__ = ["item_id", "read_ids", "restrict", "rows_with_ids", "session_id", "session_id_of_key"]

_SESSION_KEY = re.compile(r"session_([1-9][0-9]*)")


def item_id(sample: Sample, qa: QAPair) -> str:
    """The id of ``qa``: LongMemEval ``question_id``; LoCoMo ``<sample_id>:<question_id>`` (``"conv-26:0"``)."""
    return f"{sample.sample_id}:{qa.question_id}" if rule_of(sample).scoped_ids else qa.question_id


def session_id(number: int) -> str:
    """The session id of a LoCoMo-family conversation's session ``number`` (its key ``session_<number>``): ``"3"``."""
    return str(number)


def session_id_of_key(key: str) -> str | None:
    """The session id a LoCoMo-family session key names (``"session_3"`` -> ``"3"``, :func:`session_id`), or ``None``
    for anything else: for files that name sessions by their key (MemPalace's retrieved ids)."""
    match = _SESSION_KEY.fullmatch(key) if isinstance(key, str) else None
    return session_id(int(match[1])) if match else None


def read_ids(path: str | Path) -> list[str]:
    """The ids of an ids file, in file order, read by :func:`himga.jsonio.run_inputs.read_id_lines` (the one
    reader of ids files: ``himga score --ids`` and :func:`himga.run.run_identity` use it too).

    Raises:
        SourceFormatError: not UTF-8, an id too long or with a control character, an id twice
            (``ids.txt: line 7: 'conv-26:3' is also on line 2``), no id at all.
        ConfigurationError: the file does not exist or is a directory.
    """
    return [item for _number, item in read_id_lines(path).lines]


def rows_with_ids(pairs: Iterable[tuple[str, list[str]]], ids: list[str], *, source: str) -> list[int]:
    """The row indices holding at least one of ``ids``, in row order.

    Args:
        pairs: Per row, ``(sample_id, [item ids of its QA pairs])``.
        ids: The ids wanted (:func:`read_ids`).
        source: The ids file's name, for the error.

    Raises:
        ConfigurationError: an id names no QA pair (``ids.txt: 'conv-99:0' names no QA pair of the
            source (and 2 more)``).
    """
    wanted = set(ids)
    rows, found = [], set()
    for row, (_sample_id, items) in enumerate(pairs):
        hit = wanted.intersection(items)
        if hit:
            rows.append(row)
            found |= hit
    if missing := [i for i in ids if i not in found]:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise ConfigurationError(f"{source}: {missing[0]!r} names no QA pair of the source{more}")
    return rows


def restrict(sample: Sample, ids: frozenset[str] | set[str]) -> Sample:
    """A copy of ``sample`` holding only the QA pairs whose :func:`item_id` is in ``ids`` (sessions unchanged)."""
    return dataclasses.replace(sample, qa_pairs=[qa for qa in sample.qa_pairs if item_id(sample, qa) in ids])
