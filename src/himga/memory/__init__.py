"""``himga.memory``: the protocol a memory system under test implements (the seed's :class:`BaseMemory`), and the
reference memories papers print beside their own, written as a user writes one.

A memory has the seed's three methods, ``reset()``, ``ingest(message)`` and ``retrieve(query, k, now)``, and two
optional hooks, ``ingest_session(session)`` and ``ready()``. It is given the system view only (:class:`MemoryMessage`:
role, text, view id, date, session) and returns :class:`Retrieved` items. :func:`himga.run.run` (``himga run``) runs
it on a benchmark: the loop, the answer step, resume, accounting and the manifest are the runner's.
"""

# The reference memories, registered in this order (each module imports its library on first use).
from himga.memory._bm25 import BM25
from himga.memory._embedding import Embedding
from himga.memory._items import NotItems, as_items
from himga.memory._oracle import Oracle
from himga.memory._protocol import BaseMemory, MemoryMessage, MemorySession, Retrieved, is_memory, retrieve_accepts
from himga.memory._reference import FullContext, Recency, reference_memories, register_memory

__all__ = [
    "BM25",
    "BaseMemory",
    "Embedding",
    "FullContext",
    "MemoryMessage",
    "MemorySession",
    "NotItems",
    "Oracle",
    "Recency",
    "Retrieved",
    "as_items",
    "is_memory",
    "reference_memories",
    "register_memory",
    "retrieve_accepts",
]
