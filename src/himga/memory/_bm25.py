"""``bm25``: BM25 over the messages or the sessions ingested, top-k (``himga run --memory bm25``).

The library is ``bm25s`` (0.3; sparse-matrix BM25 on numpy alone, maintained): its ``lucene`` variant with
k1 = 1.5 and b = 0.75, its tokenizer (lower case, the regex ``(?u)\\b\\w\\w+\\b``, its English stop words, no
stemming, so that no optional stemmer changes a result). A question asked in the middle of the history is answered
from what was ingested until then: the index is rebuilt when messages were added since it was built.
"""

from __future__ import annotations

from himga.errors import MissingDependencyError
from himga.memory._protocol import BaseMemory, MemoryMessage, Retrieved
from himga.memory._reference import register_memory

__all__ = ["BM25"]

#: The tokenizer's settings, named in the manifest through :meth:`BM25.describe`.
TOKENIZER = {"library": "bm25s", "lower": True, "token_pattern": r"(?u)\b\w\w+\b", "stopwords": "en", "stemmer": None}


def _bm25s():
    try:
        import bm25s
    except ImportError:
        raise MissingDependencyError("the bm25 memory needs bm25s: pip install 'himga[memory]'") from None
    return bm25s


@register_memory("bm25")
class BM25(BaseMemory):
    """BM25 over the history.

    Args:
        unit: ``"turn"`` (each message a document, default) or ``"session"`` (each session's messages, ``role: text``
            lines, one document).
    """

    def __init__(self, unit: str = "turn"):
        if unit not in ("turn", "session"):
            raise TypeError(f"unit: expected 'turn' or 'session', got {unit!r}")
        self.unit = unit
        self._bm25s = _bm25s()

    def describe(self) -> dict:
        return {**super().describe(), "version": f"bm25s {self._bm25s.__version__}", "tokenizer": TOKENIZER}

    def reset(self) -> None:
        self.messages: list[MemoryMessage] = []
        self._index = None
        self._documents: list[Retrieved] = []

    def ingest(self, message: MemoryMessage) -> None:
        self.messages.append(message)
        self._index = None

    def _build(self) -> None:
        if self.unit == "turn":
            self._documents = [Retrieved(m.content, m.turn_id, date_str=m.date_str, role=m.role) for m in self.messages]
        else:
            sessions: dict[str, list[MemoryMessage]] = {}
            for m in self.messages:
                sessions.setdefault(m.session_id, []).append(m)
            self._documents = [
                Retrieved("\n".join(f"{m.role}: {m.content}" for m in ms), sid, date_str=ms[0].date_str)
                for sid, ms in sessions.items()
            ]
        tokens = self._tokens([d.text for d in self._documents])
        self._index = self._bm25s.BM25(k1=1.5, b=0.75, method="lucene")
        self._index.index(tokens, show_progress=False)

    def _tokens(self, texts: list[str]):
        return self._bm25s.tokenize(
            texts, lower=True, stopwords="en", stemmer=None, return_ids=True, show_progress=False
        )

    def retrieve(self, query: str, k: int = 10, now: str | None = None) -> list[Retrieved]:
        if not self.messages:
            return []
        if self._index is None:
            self._build()
        k = min(k, len(self._documents))
        query_tokens = self._bm25s.tokenize(
            [query], lower=True, stopwords="en", stemmer=None, return_ids=False, show_progress=False
        )
        if not query_tokens[0]:
            return []
        found, scores = self._index.retrieve(query_tokens, k=k, show_progress=False, n_threads=1)
        out = []
        for n, score in zip(found[0], scores[0], strict=True):
            if score > 0:
                d = self._documents[int(n)]
                out.append(Retrieved(d.text, d.id, float(score), d.date_str, d.role))
        return out
