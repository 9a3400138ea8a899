"""Reference memories by name (``himga run --memory NAME``): the baselines papers print beside their system, each a
:class:`~himga.memory.BaseMemory` written as a user writes one."""

from __future__ import annotations

from himga.memory._protocol import BaseMemory, MemoryMessage, Retrieved
from himga.registry import Registry

__all__ = ["FullContext", "Recency", "reference_memories", "register_memory"]

#: Every reference memory class by name, in the order registered.
MEMORIES: Registry[type] = Registry("memory", sort=False)


def register_memory(name: str):
    """A class decorator: register a memory class under ``name`` (``himga run --memory name``).

    Raises:
        ConfigurationError: another memory has that name.
    """

    def wrap(cls: type) -> type:
        cls.name = name
        return MEMORIES.register(name, cls)

    return wrap


def reference_memories() -> dict[str, type]:
    """Every registered memory class by name (a copy)."""
    return MEMORIES.all()


def _item(message: MemoryMessage) -> Retrieved:
    return Retrieved(message.content, message.turn_id, date_str=message.date_str, role=message.role)


@register_memory("recency")
class Recency(BaseMemory):
    """The last ``k`` messages ingested, the newest first: the floor a memory must beat."""

    def reset(self) -> None:
        self.messages: list[MemoryMessage] = []

    def ingest(self, message: MemoryMessage) -> None:
        self.messages.append(message)

    def retrieve(self, query: str, k: int = 10, now: str | None = None) -> list[Retrieved]:
        return [_item(m) for m in reversed(self.messages[-k:])]  # the newest first


@register_memory("full-context")
class FullContext(BaseMemory):
    """Every message, in order, dated: the whole history in the prompt (``k`` is not read: all of it is the point).

    With ``budget`` (``--memory-arg budget=N``), the oldest messages are cut until the rest fits N tokens, counted as
    whitespace-separated words of each message's text (no model's tokenizer is assumed; say so beside a number), and
    the cut is recorded per question (:meth:`explain`, the record's ``memory``).
    """

    def __init__(self, budget: int | None = None):
        if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 1):
            raise TypeError(f"budget: expected a positive number of tokens (words), got {budget!r}")
        self.budget = budget

    def describe(self) -> dict:
        return {**super().describe(), "budget_tokens": "whitespace-separated words" if self.budget else None}

    def reset(self) -> None:
        self.messages: list[MemoryMessage] = []
        self.cut = 0

    def ingest(self, message: MemoryMessage) -> None:
        self.messages.append(message)

    def retrieve(self, query: str, k: int = 10, now: str | None = None) -> list[Retrieved]:
        keep = len(self.messages)
        if self.budget is not None:
            total = 0
            while keep and total + len(self.messages[keep - 1].content.split()) <= self.budget:
                total += len(self.messages[keep - 1].content.split())
                keep -= 1
            keep = len(self.messages) - keep
        self.cut = len(self.messages) - keep
        return [_item(m) for m in self.messages[len(self.messages) - keep :]]

    def explain(self) -> dict | None:
        """The cut of the last retrieve: ``{"budget", "cut_messages", "kept_messages"}`` (``None`` without a budget)."""
        if self.budget is None:
            return None
        return {"budget": self.budget, "cut_messages": self.cut, "kept_messages": len(self.messages) - self.cut}
