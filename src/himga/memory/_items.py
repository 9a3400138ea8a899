"""What a memory's ``retrieve`` returned, read as :class:`~himga.memory.Retrieved` items.

The protocol asks for items; a seed memory returns a string (the context) or a message, and a list of either is
common. Each is read as items here, once, so the runner and the answer prompts see one type.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from himga.errors import type_name
from himga.memory._protocol import Retrieved

__all__ = ["NotItems", "as_items"]


class NotItems(TypeError):
    """A ``retrieve`` result that is no item, nor a list of items; the message says what it was."""


def _item(value) -> Retrieved:
    item = _read(value)
    if not isinstance(item.text, str):
        raise NotItems(f"an item whose text is {type_name(item.text)}, not a string")
    for name in ("id", "date_str", "role"):
        if (field := getattr(item, name)) is not None and not isinstance(field, str):
            raise NotItems(f"an item whose {name} is {type_name(field)}, not a string or None")
    score = item.score
    if score is not None and (
        isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score)
    ):
        raise NotItems(f"an item whose score is {score!r}, not a finite number")
    return item


def _read(value) -> Retrieved:
    if isinstance(value, Retrieved):
        return value
    if isinstance(value, str):
        return Retrieved(value)
    if isinstance(value, Mapping):
        text = value.get("text", value.get("content"))
        if not isinstance(text, str):
            raise NotItems(f"a mapping without a string 'text' (keys: {', '.join(map(str, list(value)[:8]))})")
        score = value.get("score")
        return Retrieved(
            text,
            _text_or_none(value.get("id")),
            float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else None,
            _text_or_none(value.get("date_str")),
        )
    content = getattr(value, "content", None)
    if isinstance(content, str):  # a message (the view's, or the seed's Message)
        return Retrieved(
            content,
            _text_or_none(getattr(value, "turn_id", None)),
            date_str=_text_or_none(getattr(value, "date_str", None)),
            role=_text_or_none(getattr(value, "role", None)),
        )
    raise NotItems(f"expected Retrieved items (or strings, messages, {{'text': ...}} mappings), got {type_name(value)}")


def _text_or_none(value) -> str | None:
    return value if isinstance(value, str) else None


def as_items(value) -> list[Retrieved]:
    """``value`` (what ``retrieve`` returned) as a list of :class:`Retrieved`: ``None`` is none; a string, a message,
    a mapping or an item is one; a list or tuple of them is each.

    Raises:
        NotItems: anything else, or a list holding anything else (its position named); an item whose text is no
            string, whose id, date or role is neither a string nor None, or whose score is no finite number (NaN, a
            string: a record could not be read back as standard JSON).
    """
    if value is None:
        return []
    if isinstance(value, (str, Mapping, Retrieved)) or hasattr(value, "content"):
        return [_item(value)]
    if isinstance(value, Sequence):
        out = []
        for n, item in enumerate(value):
            try:
                out.append(_item(item))
            except NotItems as e:
                raise NotItems(f"item {n}: {e}") from None
        return out
    raise NotItems(f"expected a list of Retrieved items, got {type_name(value)}")
