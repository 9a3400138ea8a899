"""The model client: chat-completions requests sent to an OpenAI-compatible endpoint through the ``openai`` client
(its retries), the replies cached on disk by the sha256 of each request's body (model, parameters, messages).
``himga judge`` sends the judge requests ``himga score --prompts`` writes (of a first-match walk, the pairs it
reaches), and writes the replies ``himga score --labels`` reads.

Needs the ``judge`` extra (``pip install 'himga[judge]'``: ``openai``, ``diskcache``). The modules behind this face
are private.
"""

from himga.endpoint._client import (
    NoCompletion,
    api_key,
    check_settings,
    endpoint_host,
    hidden,
    no_answer,
    openai_module,
    preflight,
    read_completion,
    sync_client,
)
from himga.endpoint._requests import JudgeRequest, Walk, read_requests, walks_of
from himga.endpoint._send import SendResult, open_cache, send_requests, stored

__all__ = [
    "JudgeRequest",
    "NoCompletion",
    "SendResult",
    "Walk",
    "api_key",
    "check_settings",
    "endpoint_host",
    "hidden",
    "no_answer",
    "open_cache",
    "openai_module",
    "preflight",
    "read_completion",
    "read_requests",
    "send_requests",
    "stored",
    "sync_client",
    "walks_of",
]
