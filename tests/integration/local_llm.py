"""The local model (:mod:`secretary_executor.evaluation.local_model`) for integration tests.

When the model or its server is missing, or the server does not start, the calling test skips
locally and fails in CI (``need_service``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from conftest import need_service

from secretary_executor.evaluation.local_model import (
    MODEL_ALIAS,
    LocalModelUnavailable,
    llama_server,
)

__all__ = ["MODEL_ALIAS", "local_server"]


@contextmanager
def local_server(log_dir: Path, *, threads: int = 1) -> Iterator[str]:
    """The base URL of a running local model server (see :func:`llama_server`).

    One thread by default: tests share the machine's cores with other work, where a second
    thread makes the model slower, not faster.
    """
    try:
        with llama_server(log_dir / "server.log", threads=threads) as url:
            yield url
    except LocalModelUnavailable as exc:
        need_service(False, exc.message)
