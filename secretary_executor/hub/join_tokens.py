"""Join tokens: shared, bound to one worker, and revocations, in the hub's ``join_token_file``.

A shared join token admits any worker name, so whoever holds it can join under a new name. An
administrator who wants to know which worker is which gives each its own token, bound to its
name, and can take a worker out for good::

    # shared: any worker name (the simplest setup, for one trusted team)
    3q2-shared-token-from-secrets-token_urlsafe
    # bound: only worker "w-campus" may register with it
    Xk9-a-token-for-w-campus-only worker=w-campus
    # revoked: "w-old" may not register with any token, and its credential stops working
    revoked w-old

``secretary hub add-worker NAME`` and ``secretary hub revoke NAME`` edit the file (it stays
0600); a running hub reads it again when it changes, within one heartbeat period, so a
revocation takes effect without a restart: the worker is dropped with its sites, its
credential no longer authenticates, and its next registration is refused.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from dataclasses import dataclass, field
from pathlib import Path

from endpoint_plugins.mcp_auth import MIN_TOKEN_LENGTH
from providers.files import read_text_file
from secretary_executor.errors import ConfigurationError

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


@dataclass(frozen=True)
class JoinTokens:
    """The parsed file."""

    shared: tuple[str, ...] = ()
    bound: dict[str, str] = field(default_factory=dict)
    """token -> the one worker name it admits."""
    revoked: frozenset[str] = frozenset()


def parse_join_tokens(text: str, source: str) -> JoinTokens:
    """Read the file's lines (see the module docstring).

    Raises:
        ConfigurationError: a line in none of the three forms, a short token, a bad worker
            name, or no usable token at all; the message names the line, never its token.
    """
    shared: list[str] = []
    bound: dict[str, str] = {}
    revoked: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if words[0] == "revoked" and len(words) == 2 and _NAME.fullmatch(words[1]):
            revoked.add(words[1])
            continue
        token = words[0]
        if len(token) < MIN_TOKEN_LENGTH:
            raise ConfigurationError(
                f"{source}: line {number}: a token shorter than {MIN_TOKEN_LENGTH} characters; "
                "use 'secretary hub add-worker NAME' or secrets.token_urlsafe(32)"
            )
        if len(words) == 1:
            shared.append(token)
        elif len(words) == 2 and words[1].startswith("worker="):
            name = words[1].removeprefix("worker=")
            if not _NAME.fullmatch(name):
                raise ConfigurationError(f"{source}: line {number}: bad worker name {name!r}")
            bound[token] = name
        else:
            raise ConfigurationError(
                f"{source}: line {number}: expected 'TOKEN', 'TOKEN worker=NAME' or 'revoked NAME'"
            )
    bound = {t: n for t, n in bound.items() if n not in revoked}
    if not shared and not bound:
        raise ConfigurationError(
            f"{source} holds no join token; add one with 'secretary hub add-worker NAME'"
        )
    return JoinTokens(tuple(shared), bound, frozenset(revoked))


def load_join_tokens(path: str | Path) -> JoinTokens:
    """Read and parse a join token file.

    Raises:
        ConfigurationError: unreadable, or invalid as :func:`parse_join_tokens` says.
    """
    p = Path(path)
    try:
        text = read_text_file(p)
    except OSError as exc:
        raise ConfigurationError(
            f"cannot read join_token_file {str(p)!r}: {exc.strerror}"
        ) from None
    return parse_join_tokens(text, f"join_token_file {str(p)!r}")


def add_worker(path: str | Path, name: str) -> str:
    """Issue a new token bound to worker ``name``, append it, and return it.

    A ``revoked NAME`` line for the name is removed: issuing a token re-admits the worker.

    Raises:
        ConfigurationError: a bad name, or a file that cannot be written.
    """
    _check(name)
    token = secrets.token_urlsafe(32)
    lines = [ln for ln in _lines(path) if ln.split() != ["revoked", name]]
    _write(path, [*lines, f"{token} worker={name}"])
    return token


def revoke_worker(path: str | Path, name: str) -> int:
    """Revoke worker ``name``: drop its bound tokens and add ``revoked NAME``.

    Returns how many bound tokens were dropped. Idempotent.

    Raises:
        ConfigurationError: a bad name, or a file that cannot be written.
    """
    _check(name)
    kept, dropped = [], 0
    for line in _lines(path):
        words = line.split()
        if len(words) == 2 and words[1] == f"worker={name}":
            dropped += 1
        elif words != ["revoked", name]:
            kept.append(line)
    _write(path, [*kept, f"revoked {name}"])
    return dropped


def _check(name: str) -> None:
    if not _NAME.fullmatch(name):
        raise ConfigurationError(
            f"bad worker name {name!r}: letters, digits, '.', '_' and '-', at most 64"
        )


def _lines(path: str | Path) -> list[str]:
    try:
        return read_text_file(Path(path)).splitlines()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise ConfigurationError(f"cannot read {str(path)!r}: {exc.strerror}") from None


def _write(path: str | Path, lines: list[str]) -> None:
    """Replace the file atomically, readable by its owner only."""
    p = Path(path)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, stat.S_IRUSR | stat.S_IWUSR)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        os.replace(tmp, p)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ConfigurationError(f"cannot write {str(p)!r}: {exc.strerror}") from None
