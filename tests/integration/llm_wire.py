"""A scripted stand-in for a paid LLM API, speaking the documented wire formats.

One local HTTP server (stdlib ``http.server`` on 127.0.0.1, a free port) answers both
protocols the agent uses, so the real ``openai`` and ``google-genai`` clients are exercised end
to end over HTTP:

* OpenAI chat completions: ``POST /v1/chat/completions`` -> a ``chat.completion`` with
  ``message.tool_calls`` (arguments as a JSON *string*, as the API sends them);
* Gemini: ``POST /{version}/models/{model}:generateContent`` -> ``candidates[0].content.parts``
  holding ``functionCall`` parts (arguments as an *object*) and ``usageMetadata``.

Each request consumes the next scripted step; every request (path, headers, JSON body) is
recorded so a test can check what the client really sent. Nothing here decides anything: the
test writes the model's side of the conversation.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Calls:
    """The model calls these functions: ``(name, arguments)``; a str argument is sent raw."""

    calls: tuple[tuple[str, dict[str, Any] | str], ...]


@dataclass(frozen=True)
class Text:
    """The model answers in plain text."""

    text: str


@dataclass(frozen=True)
class Status:
    """The API answers with an HTTP error."""

    code: int
    message: str = "scripted error"


@dataclass(frozen=True)
class Hang:
    """The API does not answer until the server stops (the client's timeout must fire)."""


Step = Calls | Text | Status | Hang


def calls(*items: tuple[str, dict[str, Any] | str]) -> Calls:
    return Calls(tuple(items))


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class ScriptedLLM:
    """The server's state: the script still to play and the requests received."""

    base: str = ""
    script: deque[Step] = field(default_factory=deque)
    requests: list[Recorded] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    def play(self, *steps: Step) -> None:
        self.script.extend(steps)

    @property
    def openai_url(self) -> str:
        return f"{self.base}/v1"

    @property
    def gemini_url(self) -> str:
        return self.base


def _usage_openai() -> dict[str, int]:
    return {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}


def openai_reply(step: Calls | Text, n: int) -> dict[str, Any]:
    if isinstance(step, Text):
        message: dict[str, Any] = {"role": "assistant", "content": step.text}
        finish = "stop"
    else:
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": f"call_{n}_{i}",
                    "type": "function",
                    "function": {
                        "name": name,
                        "arguments": args if isinstance(args, str) else json.dumps(args),
                    },
                }
                for i, (name, args) in enumerate(step.calls)
            ],
        }
        finish = "tool_calls"
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "scripted",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": _usage_openai(),
    }


def gemini_reply(step: Calls | Text) -> dict[str, Any]:
    if isinstance(step, Text):
        parts: list[dict[str, Any]] = [{"text": step.text}]
    else:
        parts = []
        for name, args in step.calls:
            if isinstance(args, str):  # Gemini sends objects; a raw string goes as text
                parts.append({"text": args})
            else:
                parts.append({"functionCall": {"name": name, "args": args}})
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {
            "promptTokenCount": 120,
            "candidatesTokenCount": 30,
            "totalTokenCount": 150,
        },
        "modelVersion": "scripted",
    }


def _handler(state: ScriptedLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return None

        def _send(self, code: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            state.requests.append(
                Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            step = state.script.popleft() if state.script else Status(500, "script exhausted")
            if isinstance(step, Hang):
                state.release.wait(timeout=60)
                step = Status(503, "released")
            if isinstance(step, Status):
                err = {"error": {"code": step.code, "message": step.message, "status": "ERROR"}}
                try:
                    self._send(step.code, err)
                except OSError:
                    pass  # the client gave up already (timeout)
                return
            if self.path.endswith("/chat/completions"):
                self._send(200, openai_reply(step, len(state.requests)))
            elif ":generateContent" in self.path:
                self._send(200, gemini_reply(step))
            else:
                self._send(404, {"error": {"code": 404, "message": f"no route {self.path}"}})

    return Handler


@contextmanager
def scripted_llm() -> Iterator[ScriptedLLM]:
    """Start the server on a free port of 127.0.0.1; stop it (and release hangs) on exit."""
    state = ScriptedLLM()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    state.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield state
    finally:
        state.release.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
