"""A real OpenAI-compatible chat-completions endpoint on 127.0.0.1 for tests: it answers from a table (or a function).

``ChatServer(table)`` serves ``POST .../chat/completions`` in a thread. The reply to a request is
``table[content of its last message]`` (else ``default``); a request's key is that content. Per key the server
can fail the first attempts (``fail={key: [429, 500]}``: a 429 carries ``retry-after-ms``, so the client's own
retries are quick; a 401 echoes the ``Authorization`` header in its message), answer slowly (``slow={key: seconds}``),
and, after ``hold_after`` answers, hold every new
request until :meth:`release` (so that a client killed then has nothing answered in flight). ``respond(body)`` answers
what the table does not; ``latency`` delays every answer; ``burst`` fails the next requests whatever their key
(``[429, 500]``); ``GET .../models`` answers the model list (or ``models_status``). It records every request body, the
attempts and the answers per key, and the ``Authorization`` headers it saw.

``raw_reply`` answers every chat request with a 200 carrying those bytes, declared ``raw_type`` (``text/html``: a
proxy's page; ``application/json`` with ``b'{"choices": 5}'``: JSON that is no completion). A ``respond`` that returns
``None`` answers with null content. ``POST .../embeddings``
answers each input text with a 64-dimensional count of its lower-cased words hashed by crc32
(deterministic: texts sharing words are near), and counts how often each text was embedded (``embedded``).
"""

from __future__ import annotations

import json
import re
import threading
import time
import zlib
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["ChatServer"]


class _Server(ThreadingHTTPServer):
    """A threading server whose listen queue takes a client's concurrent connections (the default, 5, resets them)."""

    request_queue_size = 256


class ChatServer:
    """The endpoint; use as a context manager (``with ChatServer(table) as server: server.base_url``)."""

    def __init__(
        self,
        table: dict[str, str] | None = None,
        *,
        default: str = "",
        model: str = "judge-model-2026-01-01",
        fail: dict[str, list[int]] | None = None,
        slow: dict[str, float] | None = None,
        hold_after: int | None = None,
        respond=None,
        latency: float = 0.0,
        burst: list[int] | None = None,
        models_status: int = 200,
        raw_reply: bytes | None = None,
        raw_type: str = "text/html",
    ):
        self.table = dict(table or {})
        self.default = default
        self.model = model
        self.fail = {k: list(v) for k, v in (fail or {}).items()}
        self.slow = dict(slow or {})
        self.hold_after = hold_after
        self.respond = respond
        self.latency = latency
        self.burst = list(burst or [])
        self.models_status = models_status
        self.raw_reply = raw_reply
        self.raw_type = raw_type
        self.models_asked = 0
        self.bodies: list[dict] = []
        self.attempts: Counter = Counter()
        self.answered: Counter = Counter()
        self.authorization: set[str] = set()
        self.embedded: Counter = Counter()
        self._lock = threading.Lock()
        self._released = threading.Event()
        self._generation = 0
        self._server = _Server(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._released.set()
        self._server.shutdown()
        self._server.server_close()

    def release(self) -> None:
        """Stop holding: held requests of the client that was killed are dropped unanswered; new ones are served."""
        with self._lock:
            self._generation += 1
            self.hold_after = None
        self._released.set()

    def _decide(self, key: str) -> tuple[str, object]:
        """``("fail", status)``, ``("hold", generation)`` or ``("answer", reply)`` for one attempt at ``key``."""
        with self._lock:
            self.attempts[key] += 1
            if self.fail.get(key):
                return "fail", self.fail[key].pop(0)
            if self.burst:
                return "fail", self.burst.pop(0)
            if self.hold_after is not None and sum(self.answered.values()) >= self.hold_after:
                return "hold", self._generation
            self.answered[key] += 1
            return "answer", self.table.get(key, self.default)

    def _embeddings(self, body: dict) -> dict:
        texts = [body["input"]] if isinstance(body["input"], str) else body["input"]
        data = []
        for n, text in enumerate(texts):
            vector = [0.0] * 64
            for word in re.findall(r"\w+", text.lower()):
                vector[zlib.crc32(word.encode()) % 64] += 1.0
            data.append({"object": "embedding", "index": n, "embedding": vector})
        with self._lock:
            self.embedded.update(texts)
        usage = {"prompt_tokens": 1, "total_tokens": 1}
        return {"object": "list", "data": data, "model": body["model"], "usage": usage}

    def _reply(self, body: dict, value: str) -> str:
        return self.respond(body) if self.respond is not None and value is self.default else value

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive: a client reuses its connections, as with a real server
            disable_nagle_algorithm = True  # headers and body go out at once (else a 40 ms delayed-ACK wait each)

            def log_message(self, *args):  # quiet
                pass

            def _send(self, status: int, body: dict, headers: dict | None = None) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                with server._lock:
                    server.models_asked += 1
                if not self.path.endswith("/models"):
                    return self._send(404, {"error": {"message": f"no route {self.path}"}})
                if server.models_status != 200:
                    return self._send(server.models_status, {"error": {"message": f"injected {server.models_status}"}})
                return self._send(200, {"object": "list", "data": [{"id": server.model, "object": "model"}]})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                server.authorization.add(self.headers.get("Authorization", ""))
                if self.path.endswith("/embeddings"):
                    return self._send(200, server._embeddings(body))
                if not self.path.endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": f"no route {self.path}"}})
                with server._lock:
                    server.bodies.append(body)
                if server.raw_reply is not None:  # a 200 that is no JSON (a proxy's HTML page)
                    self.send_response(200)
                    self.send_header("Content-Type", server.raw_type)
                    self.send_header("Content-Length", str(len(server.raw_reply)))
                    self.end_headers()
                    return self.wfile.write(server.raw_reply)
                key = body["messages"][-1]["content"]
                what, value = server._decide(key)
                if what == "fail":
                    headers = {"retry-after-ms": "20"} if value == 429 else {}
                    echo = (
                        f": invalid key in {self.headers.get('Authorization')}" if value == 401 else ""
                    )  # as some proxies do
                    return self._send(value, {"error": {"message": f"injected {value}{echo}", "type": "test"}}, headers)
                if what == "hold":
                    while not server._released.wait(0.05):
                        pass
                    self.close_connection = True
                    return None  # the client that sent it was killed: nothing is answered
                time.sleep(server.slow.get(key, server.latency))
                value = server._reply(body, value)
                return self._send(
                    200,
                    {
                        "id": f"chatcmpl-{server.answered[key]}",
                        "object": "chat.completion",
                        "created": 1767225600,
                        "model": server.model,
                        "choices": [
                            {"index": 0, "message": {"role": "assistant", "content": value}, "finish_reason": "stop"}
                        ],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    },
                )

        return Handler
