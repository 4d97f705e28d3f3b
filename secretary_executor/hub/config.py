"""The hub's configuration file (YAML is only a serialisation of :class:`HubConfig`)::

    host: 127.0.0.1
    port: 8700
    token_file: tokens.txt          # clients' bearer tokens; required unless bound to loopback
    join_token_file: join.txt       # admits workers; required to accept workers
    heartbeat_s: 5
    site_timeout_s: 10
    fanout: {mode: concurrent, concurrency: 32, batch_size: 16}
    fleet: demo                     # optional in-process sites (a fleet file, or demo)
    parent: {url: https://parent:8700/mcp, join_token_file: parent-join.txt}   # --role dual
    extensions:
      allowed_modules: [mysite.hub_tools]
      tools: ["mysite.hub_tools:quota"]
    worker_hosts: [private]         # where workers may be: loopback, private, any, CIDRs, names
    max_sites_per_worker: 1024
    forget_down_after_s: 3600       # a DOWN worker's sites are dropped after this long
    tls_cert: hub.crt               # serve https (both PEM files); clients trust a private CA
    tls_key: hub.key                #   through SSL_CERT_FILE
    allow_insecure_http: false      # true: accept plain-http workers on other hosts

Relative paths are taken from the file's folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from providers.files import load_yaml, read_text_file
from secretary_executor.errors import ConfigurationError
from secretary_executor.hub.extensions import ExtensionSpec
from secretary_executor.hub.fanout import FanOut
from secretary_executor.hub.registry import DEFAULT_FORGET_AFTER_S, DEFAULT_MAX_SITES
from secretary_executor.hub.worker_urls import DEFAULT_WORKER_HOSTS, HostPolicy

NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"


MAX_SITE_TIMEOUT_S = 3600.0
"""The longest a hub waits for one site (a config or ``--site-timeout`` above it is refused)."""


class ParentLink(BaseModel):
    """Where a hub in the ``dual`` role registers as a worker."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    url: str
    join_token_file: str
    advertise_url: str | None = None
    """The URL the parent calls back; default ``http://{host}:{port}/mcp``."""


class HubConfig(BaseModel):
    """Everything a hub needs. Auth rules: see :func:`secretary_executor.hub.auth.hub_tokens`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(default="hub", pattern=NAME)
    host: str = "127.0.0.1"
    port: int = Field(default=8700, ge=0, le=65535)
    token_file: str | None = None
    join_token_file: str | None = None
    heartbeat_s: float = Field(default=5.0, gt=0, le=3600)
    miss_limit: int = Field(default=3, ge=1, le=100)
    site_timeout_s: float = Field(default=10.0, gt=0, le=MAX_SITE_TIMEOUT_S)
    job_poll_s: float = Field(default=1.0, gt=0, le=600)
    fanout: FanOut = FanOut()
    fleet: str | None = None
    ledger: str | None = None
    parent: ParentLink | None = None
    extensions: ExtensionSpec = ExtensionSpec()
    worker_hosts: tuple[str, ...] = Field(default=DEFAULT_WORKER_HOSTS, min_length=1)
    max_sites_per_worker: int = Field(default=DEFAULT_MAX_SITES, ge=1, le=100_000)
    forget_down_after_s: float = Field(
        default=DEFAULT_FORGET_AFTER_S, gt=0, le=30 * 86400, allow_inf_nan=False
    )
    tls_cert: str | None = None
    """PEM certificate (chain) to serve https; with ``tls_key``. Relative to the config file."""
    tls_key: str | None = None
    allow_insecure_http: bool = False
    """Accept workers at plain http URLs on other hosts (their credential then travels in
    clear). Off: such a worker must serve https."""

    @model_validator(mode="after")
    def _tls_pair(self) -> HubConfig:
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ValueError("give both tls_cert and tls_key (PEM files), or neither")
        return self

    @field_validator("worker_hosts")
    @classmethod
    def _policy(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        HostPolicy(value)  # a bad entry raises ValueError, which names it
        return value

    @property
    def url(self) -> str:
        scheme = "https" if self.tls_cert else "http"
        return f"{scheme}://{self.host}:{self.port}/mcp"


def readable_file(path: str, what: str) -> str:
    """``path`` made absolute, once it is known to be a readable regular file.

    Raises:
        ConfigurationError: it is missing, not a regular file, or not readable.
    """
    p = Path(path).expanduser().resolve()
    if not p.is_file() or not os.access(p, os.R_OK):
        raise ConfigurationError(f"{what} {path!r}: not a readable file")
    return str(p)


def _resolve(value: str | None, base: Path) -> str | None:
    if value is None or value == "demo":
        return value
    p = Path(value).expanduser()
    return str(p if p.is_absolute() else (base / p).resolve())


def parse_hub_config(data: dict[str, Any], *, base: Path, source: str) -> HubConfig:
    """Validate a hub configuration mapping; relative paths are taken from ``base``.

    Raises:
        ConfigurationError: the first invalid field, named, with what was expected.
    """
    try:
        config = HubConfig.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "document"
        raise ConfigurationError(f"hub config {source}: {where}: {first['msg']}") from None
    update: dict[str, Any] = {
        k: _resolve(getattr(config, k), base)
        for k in ("token_file", "join_token_file", "fleet", "ledger", "tls_cert", "tls_key")
    }
    for k in ("tls_cert", "tls_key"):
        if update[k] is not None:
            update[k] = readable_file(update[k], f"hub config {source}: {k}")
    if config.parent is not None:
        update["parent"] = config.parent.model_copy(
            update={"join_token_file": _resolve(config.parent.join_token_file, base)}
        )
    return config.model_copy(update=update)


def load_hub_config(path: str | Path) -> HubConfig:
    """Read a hub configuration file.

    Raises:
        ConfigurationError: unreadable file, bad YAML, or an invalid field.
    """
    p = Path(path)
    try:
        data = load_yaml(read_text_file(p)) or {}
    except OSError as exc:
        raise ConfigurationError(f"cannot read hub config {str(p)!r}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise ConfigurationError(f"hub config {str(p)!r} is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigurationError(f"hub config {str(p)!r}: expected a mapping of settings")
    return parse_hub_config(data, base=p.parent.resolve(), source=repr(str(p)))
