"""Reply lines as ``himga judge`` writes them, for tests that stand in for the model: each carries the sha256 of the
request it answers (``request_sha256``, computed here as the docs say, not by himga's own function) and the model
asked, so that ``himga score --labels`` can check that it answered the request the predictions render."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

__all__ = ["ID_KEYS", "replied", "request_sha256", "write_replies"]

#: The keys of a request line that name its verdict (not sent).
ID_KEYS = ("question_id", "judge", "run", "item", "request_id")
#: The keys that tell himga judge how to ask (not sent either).
META_KEYS = ("walk", "rule")


def request_sha256(request: dict) -> str:
    """The sha256 ``himga judge`` records for a request line: of its body (the line without its ids and meta keys; with
    ``"run"`` for a run after the first), ``json.dumps(body, sort_keys=True, ensure_ascii=False)``, UTF-8."""
    body = {k: v for k, v in request.items() if k not in ID_KEYS + META_KEYS}
    if request.get("run", 1) != 1:  # a judge's second and third runs are asked again
        body["run"] = request["run"]
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def replied(request: dict, reply, *, model: str = "judge-model-2026-01-01") -> dict:
    """The reply line of ``reply`` to ``request`` (a line ``himga score --prompts`` wrote)."""
    ids = {k: request[k] for k in ID_KEYS if k in request}
    return {
        **ids,
        "reply": reply,
        "model": model,
        "request_sha256": request_sha256(request),
        "model_requested": request["model"],
    }


def write_replies(path: Path, requests: list[dict], reply_of, **kw) -> Path:
    """Write the reply lines of ``reply_of(request)`` to every request (skipping those it gives ``None``)."""
    lines = [replied(r, reply, **kw) for r in requests if (reply := reply_of(r)) is not None]
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path
