"""The ``openai`` client of every command that calls a model (``himga judge``, ``himga run``): one rule for the key,
the settings, and a check that the endpoint answers before any work is queued.

Retries (429, 5xx, timeouts, with the server's ``retry-after``) are the client's own (``max_retries``). The key is
read from the environment and passed to the client only; every message that could hold it is redacted.
"""

from __future__ import annotations

import math
import os
from urllib.parse import urlsplit

from himga.errors import ConfigurationError, EndpointError, MissingDependencyError, redacted

__all__ = [
    "NoCompletion",
    "api_key",
    "check_settings",
    "endpoint_host",
    "hidden",
    "no_answer",
    "openai_module",
    "preflight",
    "read_completion",
    "sync_client",
]


def openai_module():
    """The ``openai`` package. Raises: MissingDependencyError (the judge extra is not installed)."""
    try:
        import openai
    except ImportError as e:
        raise MissingDependencyError("calling a model needs the openai client: pip install 'himga[judge]'") from e
    return openai


#: The variable the key is read from unless ``--api-key-env`` names another.
DEFAULT_KEY_VARIABLE = "OPENAI_API_KEY"


def api_key(api_key_env: str, base_url: str | None) -> str:
    """The key in ``$<api_key_env>``; a placeholder for a local endpoint without keys.

    Raises:
        ConfigurationError: no key and no ``base_url`` (the hosted API needs one); a variable other than
            ``OPENAI_API_KEY`` named and unset (a key the user meant to send is never silently left out).
    """
    key = os.environ.get(api_key_env)
    if key:
        return key
    if api_key_env != DEFAULT_KEY_VARIABLE:  # a variable named on purpose and left unset: a typo, or a shell without it
        raise ConfigurationError(f"--api-key-env {api_key_env}: ${api_key_env} is not set (or empty)")
    if base_url:  # a local endpoint (vLLM, Ollama) takes any key
        return "not-needed"
    raise ConfigurationError(
        f"no API key: set {api_key_env} (or name another variable with --api-key-env), "
        "or give --base-url for an endpoint without keys"
    )


def check_settings(*, concurrency: int, max_retries: int, timeout: float) -> None:
    """Refuse settings the client would fail on later, with one line naming the option.

    Raises:
        ConfigurationError: ``concurrency`` below 1, ``max_retries`` below 0, ``timeout`` not a positive number.
    """
    if concurrency < 1:
        raise ConfigurationError(f"--concurrency: expected at least 1, got {concurrency}")
    if max_retries < 0:
        raise ConfigurationError(f"--max-retries: expected 0 or more, got {max_retries}")
    if not (math.isfinite(timeout) and timeout > 0):
        raise ConfigurationError(f"--timeout: expected a positive number of seconds, got {timeout}")


def hidden(text: str, secret: str) -> str:
    """``text`` with ``secret`` (a key of 4 characters or more) replaced by ``***``, then
    :func:`himga.errors.redacted`."""
    return redacted(text.replace(secret, "***") if len(secret) >= 4 else text)


class NoCompletion(ValueError):
    """A 200 reply that is no chat completion (a proxy's HTML page, ``{"choices": 5}``); the message says what."""


def no_answer(content) -> str | None:
    """Why a reply's content is no answer, whoever asked (a judge, an answer model): ``null`` (the endpoint sent none)
    or blank; ``None`` for an answer."""
    if not isinstance(content, str):
        return "the endpoint sent no content"
    return None if content.strip() else "the reply is empty"


def read_completion(response) -> tuple[str | None, str | None, str | None]:
    """``(content, model, finish_reason)`` of a chat-completions reply (the content ``None`` when the model gave none).

    The ``openai`` client builds a reply without validating it, and hands back the text of a 200 that is not JSON as a
    string; both are read here, once, for ``himga run`` and ``himga judge``.

    Raises:
        NoCompletion: a reply without a list of choices, a choice without a message, content that is no string.
    """
    if isinstance(response, str):
        raise NoCompletion(
            f"the endpoint's reply is not JSON ({response[:80]!r}): is --base-url an OpenAI-compatible /v1 endpoint?"
        )
    try:
        choices = response.choices
        if not isinstance(choices, list):
            raise TypeError(f"choices is {type(choices).__name__}")
        first = choices[0] if choices else None
        content = first.message.content if first is not None else None
        reason = getattr(first, "finish_reason", None)
        if content is not None and not isinstance(content, str):
            raise TypeError(f"content is {type(content).__name__}")
    except (AttributeError, TypeError, KeyError) as e:
        raise NoCompletion(
            f"the endpoint's reply is no chat completion ({e}): is --base-url an OpenAI-compatible /v1 endpoint?"
        ) from None
    model = getattr(response, "model", None)
    return content, model if isinstance(model, str) else None, reason if isinstance(reason, str) else None


def endpoint_host(base_url: str | None) -> str:
    """The host (and port) an endpoint is on, for a manifest: never a path's query or credentials."""
    if not base_url:
        return "api.openai.com (the client's default)"
    parts = urlsplit(base_url)
    return parts.hostname + (f":{parts.port}" if parts.port else "") if parts.hostname else "?"


def sync_client(*, base_url: str | None, api_key_env: str, max_retries: int, timeout: float):
    """An ``openai.OpenAI`` client for ``base_url`` (default: the client's, ``$OPENAI_BASE_URL`` else OpenAI's)."""
    openai = openai_module()
    return openai.OpenAI(
        api_key=api_key(api_key_env, base_url), base_url=base_url, max_retries=max_retries, timeout=timeout
    )


def preflight(*, base_url: str | None, api_key_env: str, timeout: float = 10.0) -> None:
    """Ask the endpoint once, before any work, so that one that cannot be reached, or refuses the key, stops the
    command in seconds with one line (not after the queue has been retried through).

    One ``GET <base_url>/models`` without retries: a connection error, a timeout, 401 or 403 stop; any other answer
    (a server without that route says 404) lets the work start.

    Raises:
        EndpointError: ``cannot reach http://127.0.0.1:9/v1: connection refused``, ``http://…/v1 refused the key
            (401): …``.
    """
    openai = openai_module()
    secret = api_key(api_key_env, base_url)
    where = base_url or "the OpenAI API"
    try:
        with openai.OpenAI(api_key=secret, base_url=base_url, max_retries=0, timeout=timeout) as client:
            client.models.list()
    except openai.APIConnectionError as e:
        cause = e.__cause__ or e
        text = str(cause).lower()
        reason = (
            "connection refused"
            if "refused" in text
            else "timed out"
            if "timed out" in text or isinstance(e, openai.APITimeoutError)
            else hidden(str(cause), secret) or type(cause).__name__
        )
        raise EndpointError(f"cannot reach {where}: {reason}") from None
    except (openai.AuthenticationError, openai.PermissionDeniedError) as e:
        raise EndpointError(f"{where} refused the key ({e.status_code}): {hidden(str(e), secret)}") from None
    except openai.APIStatusError:  # no /models route, or a server error: the requests themselves will tell
        return
