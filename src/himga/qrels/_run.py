"""TREC run files: rankings written as ``qid Q0 docid rank score tag`` lines (:func:`write_run`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Set
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError
from himga.identifiers import trec_id

__all__ = ["write_run"]


def _ranked(qid: str, docs: Any) -> list[tuple[str, Any]]:
    """``[(doc id, score)]`` best first, from a list best first or a ``{doc id: score}`` mapping."""
    if isinstance(docs, Mapping):  # the shape ranx and pytrec_eval take: rank by score, ties by doc id
        for doc, score in docs.items():
            if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
                raise ConfigurationError(
                    f"run for query {qid!r}: document {doc!r} has score {score!r}, expected a finite number"
                )
        # trec_eval (and pytrec_eval) ignore the rank column and sort by score, then doc id descending: so do we
        return sorted(docs.items(), key=lambda item: (item[1], str(item[0])), reverse=True)
    if isinstance(docs, (str, bytes, Set)):
        what = "a set has no order" if isinstance(docs, Set) else f"a {type(docs).__name__} is not a ranking"
        raise ConfigurationError(
            f"run for query {qid!r}: {what}; pass a list of doc ids best first, or a {{doc id: score}} mapping"
        )
    if not isinstance(docs, Iterable):
        raise ConfigurationError(
            f"run for query {qid!r}: expected a list of doc ids best first or a {{doc id: score}} mapping, got "
            f"{type(docs).__name__}"
        )
    docs = list(docs)  # a tuple, a generator: their order is the ranking
    if len(set(docs)) != len(docs):
        raise ConfigurationError(f"run for query {qid!r}: expected a list of distinct doc ids")
    return [(doc, len(docs) - rank) for rank, doc in enumerate(docs)]


def write_run(rankings: Mapping[str, Any], path: str | Path, *, tag: str = "himga") -> Path:
    """Write rankings as a TREC run file, ``qid Q0 docid rank score tag`` (rank from 1).

    Args:
        rankings: Per query id (the ids of :func:`write_qrels`: ``queries.tsv``, ``candidates.*.tsv``),
            either a list (or tuple, or generator) of doc ids best first, written with score
            ``length - rank + 1``, or a ``{doc id: score}`` mapping (what ``ranx`` and ``pytrec_eval``
            take), ranked by score, highest first, ties by doc id in descending order (as trec_eval
            breaks them, so the rank column agrees with what it scores), written with its scores.
        path: The run file (replaced).
        tag: The run tag (no whitespace).

    Returns:
        ``path`` as a :class:`~pathlib.Path`.

    Raises:
        ConfigurationError: an id or the tag is not a string, is empty, contains whitespace or a control
            character, or is longer than :data:`~himga.identifiers.MAX_QUALIFIED_ID_LENGTH` (258)
            characters; a doc id repeats in a list; a score is not a finite number; a ranking is a set
            (no order) or a string. Nothing is written then.
    """
    trec_id(tag, "run tag")
    lines: list[str] = []
    for qid, docs in rankings.items():
        trec_id(qid, "query id")
        lines += [
            f"{qid} Q0 {trec_id(d, 'document id')} {r} {score!r} {tag}\n"
            for r, (d, score) in enumerate(_ranked(qid, docs), 1)
        ]
    from himga.run import write_text

    path = Path(path)
    write_text(path, "".join(lines))
    return path
