"""What a run record keeps of what a memory retrieved: each item as the record writes it, and the source ids
(turns and sessions, as the relevance labels name them) the retrieval scores read."""

from __future__ import annotations

from himga.memory import Retrieved

__all__ = ["TEXT_KEPT", "kept", "retrieved_ids"]

#: The characters of a retrieved item's text a record keeps (``text_chars`` says how long it was; a full-context
#: item is the whole conversation).
TEXT_KEPT = 4000


def retrieved_ids(items: list[Retrieved], ids) -> dict[str, list[str]]:
    """The source ids of what was retrieved, as the relevance labels (and qrels) name them: ``retrieved_ids``, the
    turns of message items (LoCoMo ``D1:3``, LongMemEval ``<session>_<n>``; a message that is no retrieval candidate,
    an assistant turn of LongMemEval, has none), and ``retrieved_sessions``, the sessions of every item, each once,
    in rank order; with ``unknown_ids`` when an item's id names no session of the view (a memory's own id: it
    counts as retrieving nothing, and the run's end says how many)."""
    turns, sessions, unknown = [], [], []
    for item in items:
        if item.id is None:
            continue
        view_session, _, turn = item.id.partition(":")
        if turn and (source := ids.turns.get(item.id)) is not None:
            turns.append(source)
        if (session := ids.sessions.get(view_session)) is None:
            unknown.append(item.id)
        elif session not in sessions:
            sessions.append(session)
    return {"retrieved_ids": turns, "retrieved_sessions": sessions, **({"unknown_ids": unknown} if unknown else {})}


def kept(item: Retrieved) -> dict:
    """What a record keeps of a retrieved item: its view id, its text (the first :data:`TEXT_KEPT` characters, with
    ``text_chars`` when longer), and its score, date and role when it has them."""
    out = {"id": item.id, "text": item.text[:TEXT_KEPT]}
    if len(item.text) > TEXT_KEPT:
        out["text_chars"] = len(item.text)
    if item.score is not None:
        out["score"] = item.score
    if item.date_str is not None:
        out["date_str"] = item.date_str
    if item.role is not None:
        out["role"] = item.role
    return out
