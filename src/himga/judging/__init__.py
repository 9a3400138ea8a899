"""Asking a judge model: the requests ``himga score --prompts`` writes, sent through the ``openai`` client, the
replies ``himga score --labels`` reads, cached on disk by each request's sha256 (``himga judge``).

Needs the ``judge`` extra (``pip install 'himga[judge]'``: ``openai``, ``diskcache``). The modules behind this face
are private.
"""

from himga.judging._requests import JudgeRequest, read_requests
from himga.judging._send import SendResult, send_requests

__all__ = ["JudgeRequest", "SendResult", "read_requests", "send_requests"]
