"""The ``sessions`` of one row, column-wise (:class:`SessionColumns`): how a builder whose rows are large hands them
to the Arrow batch writer (:func:`himga.cache.rows_to_table`), with no Python object per message.

Plain Python: a records module builds these without importing ``datasets`` or ``pyarrow``.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["SessionColumns"]


class SessionColumns(NamedTuple):
    """The ``sessions`` value of one row, column-wise: a list per field instead of an object per message.

    A message's ``turn_id`` and ``date_str`` and a session's ``title`` are null. :func:`rows_to_table` turns the
    columns of a batch's rows into Arrow arrays directly; :func:`plain_row` gives the same sessions as dicts.

    Attributes:
        session_ids, dates: Per session: its id and raw date (``None``: no date).
        ends: Per session: how many messages there are up to and including its own (so the last is ``len(roles)``).
        roles, contents, raws: Per message, the sessions' messages in order: role, text, and ``raw`` as JSON text
            (``None`` when empty).
    """

    session_ids: list[str]
    dates: list[str | None]
    ends: list[int]
    roles: list[str]
    contents: list[str]
    raws: list[str | None]

    def as_dicts(self) -> list[dict]:
        """The sessions as ``datasets`` rows hold them: one dict per session and per message."""
        sessions, start = [], 0
        for session_id, date, end in zip(self.session_ids, self.dates, self.ends):
            messages = [
                {"role": role, "content": content, "turn_id": None, "date_str": None, "raw": raw}
                for role, content, raw in zip(self.roles[start:end], self.contents[start:end], self.raws[start:end])
            ]
            sessions.append({"session_id": session_id, "messages": messages, "date_str": date, "title": None})
            start = end
        return sessions
