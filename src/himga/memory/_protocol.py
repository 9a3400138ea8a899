"""The memory protocol: what a memory system under test implements, and what it is given and gives back.

The seed's three methods (``reset``, ``ingest``, ``retrieve``), with two optional hooks a real system needs
(``ingest_session`` for systems that take a whole session at once, ``ready`` for systems that index asynchronously).
The runner (:func:`himga.run.run`) owns everything else: concurrency, retries, checkpoints, accounting. A memory sees
the system view only: :class:`MemoryMessage` holds a message's role, text, view id, date and session, never gold,
``raw``, evidence or ``has_answer``.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BaseMemory", "MemoryMessage", "MemorySession", "Retrieved", "is_memory", "retrieve_accepts"]


@dataclass(frozen=True)
class MemoryMessage:
    """One message of the history, as a memory under test receives it.

    Attributes:
        role: The speaker (LoCoMo: the person's name; LongMemEval, BEAM: ``"user"`` or ``"assistant"``).
        content: The text.
        turn_id: The view's id of the message, ``S<n>:<m>`` (what :class:`Retrieved.id` names to be scored).
        date_str: When it was said (raw string: the message's own date, else its session's), or ``None`` where the
            benchmark dates nothing (then the view says so).
        session_id: The view's id of its session, ``S<n>``.
    """

    role: str
    content: str
    turn_id: str
    date_str: str | None
    session_id: str


@dataclass(frozen=True)
class MemorySession:
    """One session of the history, for :meth:`BaseMemory.ingest_session`.

    Attributes:
        session_id: The view's id, ``S<n>``.
        date_str: The session's date (raw string), or ``None``.
        messages: Its messages, in order (only those before the question asked next, for a benchmark that asks in the
            middle of the history).
    """

    session_id: str
    date_str: str | None
    messages: tuple[MemoryMessage, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Retrieved:
    """One item a memory retrieved for a question.

    Attributes:
        text: What the answer step is given (rendered by the answer prompt).
        id: The view id of the message (``S3:7``) or session (``S3``) it came from, where the memory knows it: retrieval
            is then scored against the relevance labels; ``None`` otherwise (a summary, a fact).
        score: The memory's score of the item, or ``None``.
        date_str: The date to show beside it, or ``None``.
        role: The speaker of the message it came from, or ``None`` (an answer prompt that sends the history as chat
            turns, as PersonaMem's official request does, reads it).
    """

    text: str
    id: str | None = None
    score: float | None = None
    date_str: str | None = None
    role: str | None = None


class BaseMemory:
    """A memory system under test: the seed's protocol.

    Subclass it (or write a class with the same three methods: the runner accepts either) and implement
    :meth:`reset`, :meth:`ingest` and :meth:`retrieve`. One memory serves one sample at a time; the runner makes a
    fresh one per sample with the factory it is given, so samples run concurrently.

    Example:
        >>> class Recent(BaseMemory):  # the last k messages
        ...     def reset(self):
        ...         self.messages = []
        ...     def ingest(self, message):
        ...         self.messages.append(message)
        ...     def retrieve(self, query, k=10, now=None):
        ...         return [Retrieved(m.content, m.turn_id, date_str=m.date_str) for m in self.messages[-k:]]
    """

    #: The name the manifest records (default: the class's qualified name).
    name: str | None = None
    #: The version the manifest records (a package version, a commit), or ``None``.
    version: str | None = None
    #: Whether the memory reads gold (the oracle): its runs are references, never a system's.
    reads_gold: bool = False

    def reset(self) -> None:
        """Forget everything: the runner calls it before a sample's history is ingested."""
        raise NotImplementedError

    def ingest(self, message: MemoryMessage) -> None:
        """Take one message of the history, in order."""
        raise NotImplementedError

    def retrieve(self, query: str, k: int = 10, now: str | None = None) -> Sequence[Retrieved] | Any:
        """What to answer ``query`` from: at most ``k`` items, best first.

        Args:
            query: The question text.
            k: How many items (``--top-k``).
            now: The question's date as the benchmark gives it (LongMemEval's ``question_date``), else the last
                ingested message's date; never the machine's clock. ``None`` where the benchmark dates nothing.

        Returns:
            :class:`Retrieved` items (strings and messages are accepted too, and read as items).
        """
        raise NotImplementedError

    def ingest_session(self, session: MemorySession) -> None:
        """Take a whole session (default: each message through :meth:`ingest`); override for systems that index a
        session at once."""
        for message in session.messages:
            self.ingest(message)

    def ready(self) -> bool:
        """Whether what was ingested can be retrieved (default: always); the runner waits on it before the first
        question of a sample, for systems that index asynchronously."""
        return True

    def describe(self) -> dict:
        """What the manifest records of this memory: ``{"name", "version", "reads_gold"}`` and any other key a memory
        adds (its tokenizer, its budget's unit)."""
        return {
            "name": self.name or f"{type(self).__module__}:{type(self).__qualname__}",
            "version": self.version,
            "reads_gold": bool(self.reads_gold),
        }


_METHODS = ("reset", "ingest", "retrieve")


def is_memory(cls: Any) -> bool:
    """Whether ``cls`` is a memory class: a :class:`BaseMemory` subclass, or a class with the seed's three methods."""
    return isinstance(cls, type) and (
        issubclass(cls, BaseMemory) or all(callable(getattr(cls, m, None)) for m in _METHODS)
    )


def retrieve_accepts(memory: Any) -> set[str]:
    """The keywords of ``k`` and ``now`` that ``memory.retrieve`` takes (a seed memory's ``retrieve(question)`` takes
    neither: it is called with the question alone)."""
    try:
        parameters = inspect.signature(memory.retrieve).parameters
    except (TypeError, ValueError):
        return set()
    if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return {"k", "now"}
    return {name for name in ("k", "now") if name in parameters}
