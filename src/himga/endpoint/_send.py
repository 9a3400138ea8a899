"""Sending judge requests through the ``openai`` client, with a disk cache of the replies by request sha256.

Each reply is stored in the cache (``diskcache``, SQLite: a committed entry survives a killed process) the moment it
arrives, so Ctrl-C, ``kill -9`` or a run of 429s loses nothing already answered, and a rerun sends only the requests
without a reply. Retries (429, 5xx, timeouts, with the server's ``retry-after``) are the client's own
(``max_retries``). The API key is read from the environment and passed to the client only; every message that could
hold it is redacted.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from himga.endpoint._client import api_key, check_settings, hidden
from himga.endpoint._requests import JudgeRequest
from himga.errors import ConfigurationError, MissingDependencyError
from himga.sources import folder_blocker, path_kind

__all__ = ["SendResult", "send_requests"]


@dataclass
class SendResult:
    """What a run of :func:`send_requests` did.

    Attributes:
        replies: One reply record per request with a reply, in request order: ``{**ids, "reply", "model",
            "request_sha256", "model_requested"}`` (``model``: the model the endpoint says answered;
            ``request_sha256`` and ``model_requested``: the request it answered, which ``himga score --labels``
            compares with the request the predictions render).
        cached: Requests answered by an earlier run (not sent).
        sent: Requests answered by this run.
        failed: ``(request line, message)`` of requests without a reply after the client's retries.
    """

    replies: list[dict] = field(default_factory=list)
    cached: int = 0
    sent: int = 0
    failed: list[tuple[int, str]] = field(default_factory=list)


def _libraries():
    try:
        import diskcache
        import openai
    except ImportError as e:
        raise MissingDependencyError(
            f"himga judge needs the judge extra ({e.name} is not installed): pip install 'himga[judge]'"
        ) from e
    return openai, diskcache


def _opened(diskcache, folder: str | Path):
    """The replies cache in ``folder`` (``diskcache``, created if missing). Raises: ConfigurationError."""
    where = f"the replies cache {str(folder)!r} (cache_dir= / --cache-dir)"
    if (blocker := folder_blocker(folder)) is not None:
        at = "it is" if blocker == Path(folder) else f"{str(blocker)!r} is"
        raise ConfigurationError(f"{where}: {at} {path_kind(blocker)}, not a folder; point --cache-dir at a folder")
    try:
        return diskcache.Cache(str(folder))
    except (OSError, sqlite3.Error) as e:
        raise ConfigurationError(f"{where} cannot be opened: {e}") from None


def send_requests(
    requests: list[JudgeRequest],
    *,
    cache_dir: str | Path,
    base_url: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
    concurrency: int = 8,
    max_retries: int = 5,
    timeout: float = 120.0,
    progress: bool = True,
) -> SendResult:
    """Send every request without a cached reply; return every reply, in request order.

    Args:
        requests: :func:`~himga.endpoint.read_requests`'s requests.
        cache_dir: The replies cache folder (created if missing).
        base_url: An OpenAI-compatible endpoint (Azure, vLLM, Ollama, OpenRouter); default: the client's
            (``$OPENAI_BASE_URL``, else OpenAI's).
        api_key_env: The environment variable holding the key.
        concurrency: Requests in flight at once.
        max_retries: The client's retries per request (429, 5xx, connection errors, timeouts).
        timeout: Seconds per attempt.
        progress: Show a tqdm progress bar (total: every request; cached ones count as done).

    Raises:
        MissingDependencyError: ``openai`` or ``diskcache`` is not installed.
        ConfigurationError: no key and no ``base_url``; ``concurrency`` below 1, ``max_retries`` below 0, ``timeout``
            not a positive number; ``cache_dir`` (or a folder above it) not a folder, or no cache can be opened there.
    """
    openai, diskcache = _libraries()
    check_settings(concurrency=concurrency, max_retries=max_retries, timeout=timeout)
    secret = api_key(api_key_env, base_url)
    from tqdm.auto import tqdm

    result = SendResult()
    with _opened(diskcache, cache_dir) as cache:
        todo = [r for r in requests if r.sha256 not in cache]
        todo = list({r.sha256: r for r in todo}.values())  # the same request twice is sent once
        result.cached = len(requests) - len(todo)
        bar = tqdm(total=len(requests), initial=result.cached, desc="judge", unit="req", disable=not progress)

        async def ask(client, gate: asyncio.Semaphore, request: JudgeRequest) -> None:
            async with gate:
                try:
                    response = await client.chat.completions.create(**request.body)
                except openai.APIError as e:
                    status = getattr(e, "status_code", None)
                    result.failed.append(
                        (request.line, hidden(f"{type(e).__name__}{f' {status}' if status else ''}: {e}", secret))
                    )
                    return
            content = response.choices[0].message.content if response.choices else None
            cache.set(request.sha256, json.dumps({"reply": content, "model": response.model}))
            result.sent += 1
            bar.update(1)

        async def main() -> None:
            gate = asyncio.Semaphore(concurrency)
            async with openai.AsyncOpenAI(
                api_key=secret, base_url=base_url, max_retries=max_retries, timeout=timeout
            ) as client:
                await asyncio.gather(*(ask(client, gate, r) for r in todo))

        try:
            if todo:
                asyncio.run(main())
        finally:
            bar.close()
        for request in requests:
            if (stored := cache.get(request.sha256)) is not None:
                reply = json.loads(stored)
                result.replies.append(
                    {
                        **request.ids,
                        "reply": reply["reply"],
                        "model": reply["model"],
                        "request_sha256": request.sha256,
                        "model_requested": request.body["model"],
                    }
                )
    return result
