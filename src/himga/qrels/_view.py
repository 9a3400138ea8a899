"""Rankings made on the system view (:func:`himga.data.system_view`) in the qrels' ids: :func:`view_run`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from himga.errors import ConfigurationError
from himga.qrels._write import _doc_id
from himga.schema.relevance import check_granularity
from himga.schema.view import view_ids

__all__ = ["view_run"]


def view_run(samples: Iterable, rankings: Mapping[str, Any], granularity: str) -> dict[str, Any]:
    """A system's rankings, made on the system view, with the query and document ids of the qrels.

    Args:
        samples: The Samples whose views the system saw.
        rankings: Per view question id (``v07d45ed2e9:q1``), the view's session ids (``S3``) or message ids
            (``S3:5``) best first, or a ``{view id: score}`` mapping.
        granularity: ``"session"`` or ``"turn"``: which ids the rankings hold.

    Returns:
        The same rankings keyed by the qrels' query ids (``conv-26:0``) and holding their document ids
        (``conv-26:S3``, ``conv-26:D3:5``; LongMemEval ``answer_4be1b6b4_2``, ``<session_id>_<n>``): what
        :func:`~himga.qrels.write_run` writes and ``ir-measures`` scores against :func:`~himga.qrels.write_qrels`.

    Raises:
        ConfigurationError: a question or document id that is not the view's, or a message that is no retrieval
            candidate (LongMemEval's assistant turns), or an unknown granularity.
    """
    check_granularity(granularity)
    out: dict[str, Any] = {}
    by_question = {}
    for sample in samples:
        mapping = view_ids(sample)
        for view_qid, qid in mapping.questions.items():
            by_question[view_qid] = (sample, mapping, qid)
    for view_qid, docs in rankings.items():
        if view_qid not in by_question:
            raise ConfigurationError(
                f"run: {view_qid!r} is no question of the views (expected an id like {next(iter(by_question), '?')!r})"
            )
        sample, mapping, qid = by_question[view_qid]
        local = mapping.sessions if granularity == "session" else mapping.turns

        def source(doc, sample=sample, local=local, view_qid=view_qid) -> str:
            if local.get(doc) is None:
                raise ConfigurationError(f"run for {view_qid!r}: {doc!r} is no {granularity} candidate of its view")
            return _doc_id(sample, local[doc], granularity)

        out[qid] = {source(d): s for d, s in docs.items()} if isinstance(docs, Mapping) else [source(d) for d in docs]
    return out
