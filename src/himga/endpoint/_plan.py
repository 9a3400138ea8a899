"""What ``himga judge`` would send, said before anything is sent (``--dry-run``): requests, distinct bodies, those the
cache already answers, and the prompt tokens of the rest, estimated without a tokenizer."""

from __future__ import annotations

import json
import math
from pathlib import Path

from himga.endpoint._requests import JudgeRequest, walks_of

__all__ = ["CHARS_PER_TOKEN", "estimate_tokens", "plan_requests"]

#: Characters per token of the estimate: OpenAI's rule of thumb for English text ("one token is about 4 characters",
#: help.openai.com, "What are tokens and how to count them?"). No tokenizer is downloaded.
CHARS_PER_TOKEN = 4


def estimate_tokens(body: dict) -> int:
    """The prompt tokens of a request body, estimated: the characters of its messages' contents (a non-text content
    as JSON) divided by :data:`CHARS_PER_TOKEN`, rounded up."""
    chars = 0
    for message in body.get("messages", ()):
        content = message.get("content", "") if isinstance(message, dict) else message
        chars += len(content) if isinstance(content, str) else len(json.dumps(content, ensure_ascii=False))
    return math.ceil(chars / CHARS_PER_TOKEN)


def plan_requests(requests: list[JudgeRequest], *, cache_dir: str | Path, retry_failed: bool = False) -> dict:
    """The counts of ``himga judge --dry-run``, read from the requests and the cache only.

    Returns:
        ``{"requests", "distinct", "answered" (requests the cache answers), "failed_before" (requests whose stored
        reply is no answer: asked again with ``retry_failed``), "send" (distinct bodies outside walks to send),
        "send_tokens", "walks", "walk_pairs", "walk_send_at_most" (distinct walk bodies without an answer: the walks
        send at most these), "walk_tokens_at_most"}``.

    Raises:
        MissingDependencyError: ``diskcache`` is not installed.
        ConfigurationError: the cache cannot be opened.
    """
    from himga.endpoint._send import _libraries, open_cache, stored

    _openai, diskcache = _libraries()
    walks = walks_of("requests", requests)
    with open_cache(diskcache, cache_dir) as cache:
        entries = {r.sha256: stored(cache, r, copy=False) for r in requests}
    good = {sha for sha, e in entries.items() if e is not None and not e.get("failed")}
    failed = {sha for sha, e in entries.items() if e is not None and e.get("failed")}
    todo = {sha for sha in entries if sha not in good and (retry_failed or sha not in failed)}
    plain = {r.sha256: r for r in requests if r.walk is None and r.sha256 in todo}
    walked = {r.sha256: r for r in requests if r.walk is not None and r.sha256 in todo and r.sha256 not in plain}
    return {
        "requests": len(requests),
        "distinct": len(entries),
        "answered": sum(r.sha256 in good for r in requests),
        "failed_before": sum(r.sha256 in failed for r in requests),
        "send": len(plain),
        "send_tokens": sum(estimate_tokens(r.body) for r in plain.values()),
        "walks": len(walks),
        "walk_pairs": sum(len(w.pairs) for w in walks.values()),
        "walk_send_at_most": len(walked),
        "walk_tokens_at_most": sum(estimate_tokens(r.body) for r in walked.values()),
    }
