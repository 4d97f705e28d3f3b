"""Which workers have joined the hub, which sites each serves, and who is still alive.

Pure bookkeeping with an injectable clock, so liveness rules are tested without sleeping.
A worker joins with the hub's join token and receives its own credential
(:func:`secrets.token_urlsafe`); it must heartbeat every ``heartbeat_s``. :meth:`sweep` marks
a worker DOWN after ``miss_limit`` periods of silence and revokes its credential: its sites
stay listed (fan-out reports them UNREACHABLE without calling them) until it joins again, which
issues a fresh credential and marks it UP. Tokens never appear in a repr or a log line.
"""

from __future__ import annotations

import hmac
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from enum import StrEnum

from pydantic import Field

from endpoint_plugins.mcp_auth import cleartext_problem
from providers.wire.common import WireModel
from secretary_executor.errors import SecretaryError
from secretary_executor.hub.worker_urls import DEFAULT_WORKER_HOSTS, HostPolicy, WorkerUrlError

DEFAULT_FORGET_AFTER_S = 3600.0
"""How long a DOWN worker's sites stay listed (as UNREACHABLE) before the hub drops them."""

DEFAULT_MAX_SITES = 1024
"""Sites one worker may serve: far above a real endpoint, far below what exhausts the hub."""

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")

log = logging.getLogger(__name__)


class RegistrationError(SecretaryError):
    """A registration or heartbeat the hub refuses (bad name, site taken, unknown worker)."""


class WorkerState(StrEnum):
    """UP: heartbeating, asked in fan-out. DOWN: silent too long, reported UNREACHABLE."""

    UP = "UP"
    DOWN = "DOWN"


class WorkerRecord(WireModel):
    """One worker as the hub sees it (no secrets)."""

    name: str
    url: str
    sites: tuple[str, ...]
    state: WorkerState
    joins: int = 1
    seconds_since_heartbeat: float = 0.0


class _Entry:
    __slots__ = ("credential", "joins", "last_seen", "name", "sites", "state", "url")

    def __init__(self, name: str, url: str, sites: tuple[str, ...], credential: str, now: float):
        self.name = name
        self.url = url
        self.sites = sites
        self.credential = credential
        self.last_seen = now
        self.state = WorkerState.UP
        self.joins = 1


def _check_name(value: str, what: str) -> str:
    if not isinstance(value, str) or not _NAME.match(value):
        raise RegistrationError(
            f"{what} {value!r} is not allowed: use letters, digits and . _ - "
            "(at most 64, starting with a letter or digit)"
        )
    return value


def _check_url(url: str) -> str:
    if not re.match(r"^https?://[A-Za-z0-9.\-\[\]:]+(:\d+)?(/[A-Za-z0-9._~/-]*)?$", url or ""):
        raise RegistrationError(
            f"worker url {url!r} is not an http(s) URL like http://host:port/mcp"
        )
    return url


def _same(presented: str | None, entry: _Entry) -> bool:
    if not presented:
        return False
    return hmac.compare_digest(presented.encode(), entry.credential.encode())


class Registry:
    """The hub's workers.

    Args:
        heartbeat_s: the period workers are told to heartbeat at.
        miss_limit: heartbeats a worker may miss before it is marked DOWN (3 by default).
        clock: seconds, monotonic; injectable for tests.
        worker_hosts: the URL policy (see :mod:`secretary_executor.hub.worker_urls`).
        max_sites: most sites one worker may serve.
        forget_after_s: how long a DOWN worker and its sites stay listed before
            :meth:`forget` drops them.
    """

    def __init__(
        self,
        *,
        heartbeat_s: float = 5.0,
        miss_limit: int = 3,
        clock: Callable[[], float] = time.monotonic,
        reserved_sites: Sequence[str] = (),
        worker_hosts: Sequence[str] = DEFAULT_WORKER_HOSTS,
        max_sites: int = DEFAULT_MAX_SITES,
        forget_after_s: float = DEFAULT_FORGET_AFTER_S,
        allow_insecure_http: bool = False,
    ) -> None:
        if heartbeat_s <= 0:
            raise RegistrationError(f"heartbeat_s must be positive, got {heartbeat_s}")
        self.heartbeat_s = heartbeat_s
        self.miss_limit = miss_limit
        self.clock = clock
        self.reserved_sites = frozenset(reserved_sites)
        self.host_policy = HostPolicy(worker_hosts)
        self.max_sites = max_sites
        self.forget_after_s = forget_after_s
        self.allow_insecure_http = allow_insecure_http
        self._lock = threading.Lock()
        self._workers: dict[str, _Entry] = {}

    def __repr__(self) -> str:
        return f"Registry(workers={sorted(self._workers)!r}, heartbeat_s={self.heartbeat_s})"

    @property
    def deadline_s(self) -> float:
        """Silence after which a worker is marked DOWN."""
        return self.heartbeat_s * self.miss_limit

    def register(
        self,
        name: str,
        url: str,
        sites: Sequence[str],
        credential: str | None = None,
        *,
        bound_token: bool = False,
    ) -> str:
        """Admit (or re-admit) worker ``name`` serving ``sites`` at ``url``; returns its credential.

        The join token is checked by the caller (the hub's bearer check). A shared join token is
        held by every worker, so it cannot prove *which* worker is calling: while ``name`` is
        UP, only the holder of its current ``credential`` may register under that name again
        (to change its sites); anyone else must wait until the hub marks it DOWN. A join token
        bound to ``name`` (``bound_token``, see :mod:`secretary_executor.hub.join_tokens`) does
        prove it: the caller is that worker, restarted after a crash that lost its credential,
        and it replaces the UP entry at once instead of waiting out the heartbeat deadline.
        Postcondition: the worker is UP with a fresh credential; any earlier credential of it
        no longer works.

        Raises:
            RegistrationError: a bad name or URL, no sites, too many sites, a site another
                worker serves, or the name of an UP worker without its credential or its own
                join token.
        """
        _check_name(name, "worker name")
        _check_url(url)
        try:
            self.host_policy.check(url)
        except WorkerUrlError as exc:
            raise RegistrationError(str(exc)) from None
        if not self.allow_insecure_http and (problem := cleartext_problem(url, "worker url")):
            raise RegistrationError(problem)
        if len(sites) > self.max_sites:
            raise RegistrationError(
                f"worker {name!r} registered {len(sites)} sites; this hub accepts at most "
                f"{self.max_sites} per worker (max_sites_per_worker in the hub config)"
            )
        names = tuple(_check_name(s, "site name") for s in sites)
        if not names:
            raise RegistrationError(f"worker {name!r} registered no sites; serve at least one")
        if len(set(names)) != len(names):
            raise RegistrationError(f"worker {name!r} lists a site twice: {sorted(names)}")
        issued = secrets.token_urlsafe(32)
        with self._lock:
            taken = self.reserved_sites.intersection(names)
            for other in self._workers.values():
                if other.name != name:
                    taken |= set(other.sites).intersection(names)
            if taken:
                raise RegistrationError(
                    f"site(s) {', '.join(sorted(taken))} already served by another worker "
                    "of this hub; give the sites distinct names"
                )
            old = self._workers.get(name)
            replaced = (
                old is not None and old.state is WorkerState.UP and not _same(credential, old)
            )
            if old is not None and replaced and not bound_token:
                raise RegistrationError(
                    f"worker {name!r} is UP at {old.url}; another worker cannot take its name. "
                    "The same worker re-registers with its current credential, with a join "
                    f"token bound to its name ('secretary hub add-worker {name}'), or after "
                    f"{self.deadline_s:g} s without heartbeats, when the hub marks it DOWN"
                )
            entry = _Entry(name, url, names, issued, self.clock())
            if old is not None:
                entry.joins = old.joins + 1
            self._workers[name] = entry
        if replaced:
            log.warning(
                "worker %s registered again with its own join token while UP (restarted); "
                "its earlier credential is revoked",
                name,
            )
        return issued

    def heartbeat(self, name: str) -> WorkerRecord:
        """Record a heartbeat from ``name`` (already authenticated by its credential).

        Raises:
            RegistrationError: the worker is unknown or DOWN (it must register again).
        """
        with self._lock:
            entry = self._workers.get(name)
            if entry is None or entry.state is WorkerState.DOWN:
                raise RegistrationError(f"worker {name!r} is not registered; register again")
            entry.last_seen = self.clock()
            return self._record(entry)

    def owner_of_credential(self, token: str) -> str | None:
        """The UP worker whose credential is ``token`` (constant-time comparisons)."""
        found = None
        candidate = token.encode()
        with self._lock:
            entries = list(self._workers.values())
        for entry in entries:
            if entry.state is WorkerState.UP and hmac.compare_digest(
                candidate, entry.credential.encode()
            ):
                found = entry.name
        return found

    def credential(self, name: str) -> str | None:
        """The current credential of an UP worker (for the hub's own calls to it)."""
        with self._lock:
            entry = self._workers.get(name)
            return entry.credential if entry and entry.state is WorkerState.UP else None

    def sweep(self) -> list[str]:
        """Mark DOWN every worker silent for longer than :attr:`deadline_s`; returns their names.

        Postcondition: DOWN workers' credentials no longer authenticate.
        """
        now = self.clock()
        dropped = []
        with self._lock:
            for entry in self._workers.values():
                silent = now - entry.last_seen
                if entry.state is WorkerState.UP and silent > self.deadline_s:
                    entry.state = WorkerState.DOWN
                    entry.credential = ""
                    dropped.append(entry.name)
        return dropped

    def forget(self) -> list[tuple[str, tuple[str, ...]]]:
        """Drop every worker DOWN for longer than ``forget_after_s``; returns (name, sites).

        A worker that went away for good would otherwise keep its sites in every negotiation,
        reported UNREACHABLE, and keep their names from any other worker.
        """
        limit = self.clock() - self.deadline_s - self.forget_after_s
        with self._lock:
            gone = [
                e
                for e in self._workers.values()
                if e.state is WorkerState.DOWN and e.last_seen < limit
            ]
            for entry in gone:
                del self._workers[entry.name]
        return [(e.name, e.sites) for e in gone]

    def drop(self, name: str) -> tuple[str, ...]:
        """Remove worker ``name`` now (revoked); returns its sites (empty when unknown)."""
        with self._lock:
            entry = self._workers.pop(name, None)
        return entry.sites if entry is not None else ()

    def is_down(self, site: str) -> bool:
        """True when ``site`` belongs to a DOWN worker."""
        with self._lock:
            return any(
                e.state is WorkerState.DOWN and site in e.sites for e in self._workers.values()
            )

    def worker(self, name: str) -> WorkerRecord | None:
        with self._lock:
            entry = self._workers.get(name)
            return self._record(entry) if entry else None

    def workers(self) -> list[WorkerRecord]:
        with self._lock:
            return [self._record(e) for e in sorted(self._workers.values(), key=lambda e: e.name)]

    def _record(self, entry: _Entry) -> WorkerRecord:
        return WorkerRecord(
            name=entry.name,
            url=entry.url,
            sites=entry.sites,
            state=entry.state,
            joins=entry.joins,
            seconds_since_heartbeat=round(self.clock() - entry.last_seen, 3),
        )


class RegistrationReply(WireModel):
    """What ``register_worker`` returns to the worker."""

    worker: str
    hub: str
    credential: str = Field(repr=False)
    heartbeat_s: float


class HeartbeatAck(WireModel):
    worker: str
    state: WorkerState
    next_in_s: float
