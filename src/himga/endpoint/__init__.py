"""The model client: chat-completions requests sent to an OpenAI-compatible endpoint through the ``openai`` client
(its retries), the replies cached on disk by each request's sha256. ``himga judge`` sends the judge requests
``himga score --prompts`` writes, and writes the replies ``himga score --labels`` reads.

Needs the ``judge`` extra (``pip install 'himga[judge]'``: ``openai``, ``diskcache``). The modules behind this face
are private.
"""

from himga.endpoint._client import api_key, check_settings, endpoint_host, hidden, openai_module, preflight, sync_client
from himga.endpoint._requests import JudgeRequest, read_requests
from himga.endpoint._send import SendResult, send_requests

__all__ = [
    "JudgeRequest",
    "SendResult",
    "api_key",
    "check_settings",
    "endpoint_host",
    "hidden",
    "openai_module",
    "preflight",
    "read_requests",
    "send_requests",
    "sync_client",
]
