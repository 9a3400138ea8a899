"""``embedding``: dense retrieval through an OpenAI-compatible ``/v1/embeddings`` endpoint (vLLM, Ollama, TEI and the
hosted APIs speak it): cosine top-k over the messages or sessions ingested (``himga run --memory embedding
--memory-arg model=NAME``).

Embeddings are cached on disk by model and the text's sha256 (``diskcache``, in ``$HIMGA_CACHE/embeddings`` unless
``cache_dir`` names another folder), so a rerun, or a question asked again, embeds nothing twice; texts are sent in
batches. The endpoint, key and retries follow :mod:`himga.endpoint` (``base_url``, ``api_key_env``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from himga.errors import MissingDependencyError
from himga.memory._protocol import BaseMemory, MemoryMessage, Retrieved
from himga.memory._reference import register_memory

__all__ = ["Embedding"]


@register_memory("embedding")
class Embedding(BaseMemory):
    """Cosine top-k over embeddings of the history.

    Args:
        model: The embedding model the endpoint serves.
        base_url: The endpoint (default: ``$OPENAI_BASE_URL``, else OpenAI's).
        api_key_env: The environment variable holding the key.
        unit: ``"turn"`` (each message, default) or ``"session"`` (each session's ``role: text`` lines).
        cache_dir: The embeddings cache (default: ``$HIMGA_CACHE/embeddings``).
        batch: Texts per request (default 128).
        max_retries, timeout: The ``openai`` client's settings.
    """

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        unit: str = "turn",
        cache_dir: str | None = None,
        batch: int = 128,
        max_retries: int = 5,
        timeout: float = 120.0,
    ):
        if unit not in ("turn", "session"):
            raise TypeError(f"unit: expected 'turn' or 'session', got {unit!r}")
        if not isinstance(batch, int) or isinstance(batch, bool) or batch < 1:
            raise TypeError(f"batch: expected a positive integer, got {batch!r}")
        from himga.endpoint import sync_client
        from himga.sources import cache_root

        try:
            import diskcache
            import numpy
        except ImportError as e:
            raise MissingDependencyError(f"the embedding memory needs {e.name}: pip install 'himga[memory]'") from None
        self.model, self.unit, self.batch = model, unit, batch
        self._np = numpy
        self._client = sync_client(base_url=base_url, api_key_env=api_key_env, max_retries=max_retries, timeout=timeout)
        self._cache = diskcache.Cache(str(Path(cache_dir) if cache_dir else cache_root() / "embeddings"))

    def describe(self) -> dict:
        return {**super().describe(), "version": f"embeddings of {self.model}"}

    def reset(self) -> None:
        self.messages: list[MemoryMessage] = []
        self._matrix = None

    def ingest(self, message: MemoryMessage) -> None:
        self.messages.append(message)
        self._matrix = None

    def _key(self, text: str) -> str:
        return f"{self.model}\0{hashlib.sha256(text.encode()).hexdigest()}"

    def embed(self, texts: list[str]):
        """The unit-length embeddings of ``texts`` (a matrix, a row each), from the cache or the endpoint."""
        missing = list(dict.fromkeys(t for t in texts if self._key(t) not in self._cache))
        for start in range(0, len(missing), self.batch):
            part = missing[start : start + self.batch]
            response = self._client.embeddings.create(model=self.model, input=part)
            for text, item in zip(part, sorted(response.data, key=lambda d: d.index), strict=True):
                self._cache.set(self._key(text), json.dumps(item.embedding))
        rows = self._np.array([json.loads(self._cache.get(self._key(t))) for t in texts], dtype="float32")
        norms = self._np.linalg.norm(rows, axis=1, keepdims=True)
        return rows / self._np.where(norms == 0, 1, norms)

    def _documents(self) -> list[Retrieved]:
        if self.unit == "turn":
            return [Retrieved(m.content, m.turn_id, date_str=m.date_str, role=m.role) for m in self.messages]
        sessions: dict[str, list[MemoryMessage]] = {}
        for m in self.messages:
            sessions.setdefault(m.session_id, []).append(m)
        return [
            Retrieved("\n".join(f"{m.role}: {m.content}" for m in ms), sid, date_str=ms[0].date_str)
            for sid, ms in sessions.items()
        ]

    def retrieve(self, query: str, k: int = 10, now: str | None = None) -> list[Retrieved]:
        if not self.messages:
            return []
        if self._matrix is None:
            self._docs = self._documents()
            self._matrix = self.embed([d.text for d in self._docs])
        scores = self._matrix @ self.embed([query])[0]
        order = self._np.argsort(-scores, kind="stable")[: min(k, len(self._docs))]
        return [
            Retrieved(
                self._docs[i].text, self._docs[i].id, float(scores[i]), self._docs[i].date_str, self._docs[i].role
            )
            for i in order
        ]
