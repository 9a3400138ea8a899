"""How a turn's image is written into a message's text: one rule, the builders write it, the prompts read it.

LoCoMo and REALTALK turns may share an image, described by its ``blip_caption``; the message keeps it inline,
``"[Image: <caption>] <text>"`` (``"[Image: <caption>]"`` when the turn has no text), and the caption itself in
``raw``. A prompt that renders the caption elsewhere, as LoCoMo's official QA prompt does, splits it off again
(:func:`split_inline_image`); the system view has no ``raw``, so the text is all it has.
"""

from __future__ import annotations

__all__ = ["inline_image", "split_inline_image", "text_without_image"]

_PREFIX = "[Image: "


def inline_image(caption: str, text: str) -> str:
    """``text`` with ``caption`` inline: ``"[Image: <caption>] <text>"``, or ``"[Image: <caption>]"`` when ``text``
    is empty."""
    return f"{_PREFIX}{caption}] {text}" if text else f"{_PREFIX}{caption}]"


def split_inline_image(content: str) -> tuple[str | None, str]:
    """``(caption, text)`` of a message written by :func:`inline_image`; ``(None, content)`` for any other text.

    The caption ends at the first ``]``: exact for every caption of the released LoCoMo and REALTALK files (none
    holds a bracket: 1,226 LoCoMo and 313 REALTALK captions checked); a caption with a ``]`` would be cut there.
    """
    if not content.startswith(_PREFIX) or "]" not in content:
        return None, content
    caption, _, rest = content[len(_PREFIX) :].partition("]")
    return caption, rest[1:] if rest.startswith(" ") else rest


def text_without_image(content: str, caption: str) -> str:
    """The text :func:`inline_image` was given, when the ``caption`` it was given is known (the builders keep it in
    ``raw``): exact whatever the caption holds, brackets included.

    Raises:
        ValueError: ``content`` was not written by :func:`inline_image` with this ``caption``.
    """
    head = f"{_PREFIX}{caption}]"
    if content == head:
        return ""
    if not content.startswith(head + " "):
        raise ValueError(f"{content[:80]!r} does not start with the image {head[:80]!r}")
    return content[len(head) + 1 :]
