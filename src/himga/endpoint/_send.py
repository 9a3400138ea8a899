"""Sending judge requests through the ``openai`` client, with a disk cache of the replies by request body.

Each reply is stored in the cache (``diskcache``, SQLite: a committed entry survives a killed process) the moment it
arrives, keyed by the sha256 of the body sent (model, parameters, messages), so Ctrl-C, ``kill -9`` or a run of 429s
loses nothing already answered, a rerun sends only the requests without a reply, and the same body under other ids
(a duplicate line, the other route's copy) is paid once. The pairs of a first-match walk (BEAM's event ordering) are
asked one after another, as the official walk asks them: the reply to one pair decides the next, so only the pairs
the walk reaches are sent. Before the queue is worked, an endpoint that cannot be reached, refuses the key, or answers
401, 403 or 404 to the first request stops the run in seconds with one line (:func:`~himga.endpoint.preflight`), not
after every request has been retried. Retries (429, 5xx, timeouts, with the server's ``retry-after``) are the
client's own (``max_retries``). A reply that is no answer (no content, an empty text, or one the judge's label rule
cannot read) is stored as such, never served as an answer: it counts as without a reply, and ``retry_failed`` asks it
again. The API key is read from the environment and passed to the client only; every message that could hold it is
redacted.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from himga.endpoint._client import NoCompletion, api_key, check_settings, hidden, no_answer, preflight, read_completion
from himga.endpoint._requests import JudgeRequest, walks_of
from himga.errors import ConfigurationError, EndpointError, MissingDependencyError
from himga.sources import folder_blocker, path_kind

__all__ = ["SendResult", "open_cache", "send_requests", "stored"]


@dataclass
class SendResult:
    """What a run of :func:`send_requests` did.

    Attributes:
        replies: One reply record per request answered, in request order: ``{**ids, "reply", "model", "usage",
            "request_sha256", "model_requested"}`` (``model``: the model the endpoint says answered; ``usage``: the
            endpoint's token counts of the call that paid for it; ``request_sha256`` and ``model_requested``: the
            request it answered, which ``himga score --labels`` compares with the request the predictions render).
        asked: Requests the run needed: every one but the walk pairs the walks did not reach.
        cached: Requests answered from the cache as it was before this run.
        sent: Requests sent by this run and answered (each a distinct body).
        failed: ``(request line, message)`` of requests without a reply after the client's retries, or whose reply is
            no answer (stored as such: ``retry_failed`` asks them again).
        failed_before: Requests whose stored reply is no answer, not asked again (without ``retry_failed``).
        walks: ``{"walks", "pairs", "reached"}`` of the first-match walks (zeros without any).
        distinct: Distinct bodies among the requests.
        usage: Token counts summed over the calls this run paid for (``prompt_tokens``, ``completion_tokens``,
            ``total_tokens``).
    """

    replies: list[dict] = field(default_factory=list)
    asked: int = 0
    cached: int = 0
    sent: int = 0
    failed: list[tuple[int, str]] = field(default_factory=list)
    failed_before: int = 0
    walks: dict = field(default_factory=lambda: {"walks": 0, "pairs": 0, "reached": 0})
    distinct: int = 0
    usage: dict = field(default_factory=dict)


def _libraries():
    try:
        import diskcache
        import openai
    except ImportError as e:
        raise MissingDependencyError(
            f"himga judge needs the judge extra ({e.name} is not installed): pip install 'himga[judge]'"
        ) from e
    return openai, diskcache


def open_cache(diskcache, folder: str | Path):
    """The replies cache in ``folder`` (``diskcache``, created if missing). Raises: ConfigurationError."""
    where = f"the replies cache {str(folder)!r} (cache_dir= / --cache-dir)"
    if (blocker := folder_blocker(folder)) is not None:
        at = "it is" if blocker == Path(folder) else f"{str(blocker)!r} is"
        raise ConfigurationError(f"{where}: {at} {path_kind(blocker)}, not a folder; point --cache-dir at a folder")
    try:
        return diskcache.Cache(str(folder))
    except (OSError, sqlite3.Error) as e:
        raise ConfigurationError(f"{where} cannot be opened: {e}") from None


def stored(cache, request: JudgeRequest, *, copy: bool = True) -> dict | None:
    """The cache's entry for ``request`` (``{"reply", "model", "usage"}``), or ``None``; an entry an earlier ``himga
    judge`` stored under the whole line's sha256 is found too (and, with ``copy``, copied to the body's key)."""
    value = cache.get(request.sha256)
    if value is None and request.legacy_sha256 and (value := cache.get(request.legacy_sha256)) is not None and copy:
        cache.set(request.sha256, value)
    return None if value is None else json.loads(value)


_TOKENS = ("prompt_tokens", "completion_tokens", "total_tokens")


def _usage(response) -> dict | None:
    usage = getattr(response, "usage", None)
    out = {k: getattr(usage, k) for k in _TOKENS if isinstance(getattr(usage, k, None), int)}
    return out or None


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
    retry_failed: bool = False,
    check_reply: Callable[[JudgeRequest, str], str | None] | None = None,
) -> SendResult:
    """Send every request without a cached reply (of a walk, the pairs it reaches); return the replies, in request
    order.

    Args:
        requests: :func:`~himga.endpoint.read_requests`'s requests.
        cache_dir: The replies cache folder (created if missing).
        base_url: An OpenAI-compatible endpoint (Azure, vLLM, Ollama, OpenRouter); default: the client's
            (``$OPENAI_BASE_URL``, else OpenAI's).
        api_key_env: The environment variable holding the key.
        concurrency: Requests in flight at once.
        max_retries: The client's retries per request (429, 5xx, connection errors, timeouts).
        timeout: Seconds per attempt.
        progress: Show a tqdm progress bar (total: the requests outside walks and one per walk; cached ones count as
            done).
        retry_failed: Ask again the requests whose stored reply is no answer.
        check_reply: ``(request, reply text) -> why the judge cannot read it, or None`` (the judge's label rule;
            default: any text is an answer). A reply with no content, or an empty one, is never an answer.

    Raises:
        MissingDependencyError: ``openai`` or ``diskcache`` is not installed.
        ConfigurationError: no key and no ``base_url``; ``concurrency`` below 1, ``max_retries`` below 0, ``timeout``
            not a positive number; ``cache_dir`` (or a folder above it) not a folder, or no cache can be opened there.
        SourceFormatError: a walk whose pairs are not a whole grid (:func:`~himga.endpoint._requests.walks_of`).
        EndpointError: something is to be sent and the endpoint cannot be reached or refuses the key
            (:func:`~himga.endpoint.preflight`), or the first request is answered 401, 403 or 404 (``http://…/v1
            answered 404 to the first request (model gpt-4o-mini): …``).
    """
    openai, diskcache = _libraries()
    check_settings(concurrency=concurrency, max_retries=max_retries, timeout=timeout)
    secret = api_key(api_key_env, base_url)
    from tqdm.auto import tqdm

    from himga.scoring import first_match_walk

    walks = walks_of("requests", requests)
    plain = [r for r in requests if r.walk is None]
    result = SendResult(distinct=len({r.sha256 for r in requests}))
    result.walks.update(walks=len(walks), pairs=sum(len(w.pairs) for w in walks.values()))
    asked: set[int] = set()  # the request lines the run needed
    with open_cache(diskcache, cache_dir) as cache:
        before = {r.sha256: e for r in requests if (e := stored(cache, r)) is not None}
        if retry_failed:  # asked again
            before = {sha: e for sha, e in before.items() if not e.get("failed")}
        entries: dict[str, dict] = {sha: e for sha, e in before.items() if not e.get("failed")}
        done = sum(r.sha256 in before for r in plain)
        first = next((r for r in plain if r.sha256 not in before), None) or next(
            (w.pairs[(0, 0)] for w in walks.values() if w.pairs[(0, 0)].sha256 not in before), None
        )
        if first is not None:  # something is to be sent: an endpoint that cannot answer stops here, in seconds
            preflight(base_url=base_url, api_key_env=api_key_env, timeout=min(timeout, 10.0))
        bar = tqdm(total=len(plain) + len(walks), initial=done, desc="judge", unit="req", disable=not progress)

        async def main() -> None:
            gate = asyncio.Semaphore(concurrency)
            inflight: dict[str, asyncio.Task] = {}

            async def send(client, request: JudgeRequest) -> dict | None:
                async with gate:
                    try:
                        response = await client.chat.completions.create(**request.body)
                    except openai.APIError as e:
                        status = getattr(e, "status_code", None)
                        if request is first and status in (401, 403, 404):  # every other request would say the same
                            where = base_url or "the OpenAI API"
                            raise EndpointError(
                                f"{where} answered {status} to the first request (model {request.body['model']}): "
                                + hidden(str(e), secret)
                            ) from None
                        result.failed.append(
                            (request.line, hidden(f"{type(e).__name__}{f' {status}' if status else ''}: {e}", secret))
                        )
                        return None
                    except ValueError:  # a 200 declared JSON whose body is not
                        response = "(a body that is not JSON)"
                try:
                    content, model, _ = read_completion(response)
                except NoCompletion as e:  # every other request would get the same page
                    raise EndpointError(hidden(str(e), secret)) from None
                entry = {"reply": content, "model": model, "usage": _usage(response)}
                for k, v in (entry["usage"] or {}).items():
                    result.usage[k] = result.usage.get(k, 0) + v
                problem = no_answer(content) or (check_reply(request, content) if check_reply else None)
                if problem:  # stored as no answer (the call is paid; --retry-failed asks again), never served
                    cache.set(request.sha256, json.dumps({**entry, "failed": problem}))
                    result.failed.append((request.line, f"no answer: {problem}"))
                    return None
                cache.set(request.sha256, json.dumps(entry))
                entries[request.sha256] = entry
                result.sent += 1
                return entry

            async def answer(client, request: JudgeRequest) -> dict | None:
                asked.add(request.line)
                if request.sha256 in before:
                    if before[request.sha256].get("failed"):
                        result.failed_before += 1
                        return None
                    result.cached += 1
                    return before[request.sha256]
                if request.sha256 not in inflight:  # the same body under other ids is sent once
                    inflight[request.sha256] = asyncio.ensure_future(send(client, request))
                return await inflight[request.sha256]

            async def one(client, request: JudgeRequest) -> None:
                await answer(client, request)
                if request.sha256 not in before:
                    bar.update(1)

            async def walk(client, w) -> None:
                steps = first_match_walk(w.lines, w.items)
                try:
                    pair = next(steps)
                    while (entry := await answer(client, w.pairs[pair])) is not None:
                        result.walks["reached"] += 1
                        pair = steps.send(w.match in str(entry["reply"] or "").lower())
                    result.walks["reached"] += 1  # the pair without a reply stops the walk
                except StopIteration:
                    bar.update(1)

            async with openai.AsyncOpenAI(
                api_key=secret, base_url=base_url, max_retries=max_retries, timeout=timeout
            ) as client:
                if first is not None:  # alone, before the queue: a wrong path, model or key stops the run at once
                    await answer(client, first)
                await asyncio.gather(*(one(client, r) for r in plain), *(walk(client, w) for w in walks.values()))

        try:
            asyncio.run(main())
        finally:
            bar.close()
        result.asked = len(asked)
        for request in requests:
            if request.line in asked and (entry := entries.get(request.sha256)) is not None:
                result.replies.append(
                    {
                        **request.ids,
                        "reply": entry["reply"],
                        "model": entry["model"],
                        **({"usage": entry["usage"]} if entry.get("usage") else {}),
                        "request_sha256": request.sha256,
                        "model_requested": request.body["model"],
                    }
                )
    return result
