"""Fleets: the sites a hub negotiates with, from a fleet file or the built-in demo.

A fleet file (YAML) lists sites and how to reach them::

    concurrency: 32
    sites:
      - name: here                      # the real local machine, probed live
        config: {kind: local}
      - name: hpc-east                  # a simulated site, served from a state file
        state_file: states/hpc-east.yaml
      - name: campus
        site_config: /etc/secretary/campus.yaml
      - name: hpc-west                  # a site behind its own Globus Compute endpoint
        transport: globus-compute
        endpoint_id: 4b116d3c-1703-4f8f-9f6f-39921e5864df
        functions_file: hpc-west/secretary-functions.json
        remote_site_config: ~/.globus_compute/hpc-west/secretary-site.yaml

Relative paths are taken from the fleet file's folder, except ``remote_site_config``, which is a
path on the endpoint host. The built-in ``demo`` fleet needs no file: the local machine plus the
simulated sites shipped in ``secretary_executor/fleets/demo``.

A ``globus-compute`` site is reached by calling the secretary functions its administrator
registered and allowed (``secretary endpoint register`` writes their ids to
``secretary-functions.json``). Loading the fleet contacts nothing: the SDK ``Executor`` (and the
login it needs) is made on the site's first negotiation.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from endpoint_plugins.config import SiteConfig, load_site_config
from endpoint_plugins.errors import SiteConfigError
from endpoint_plugins.secretary import Secretary
from endpoint_plugins.service import Operation
from providers.errors import validation_message
from providers.files import load_yaml, read_text_file
from providers.wire import Proposal, Requirements
from secretary_executor.errors import ConfigurationError
from secretary_executor.sites.base import Site
from secretary_executor.sites.globus import globus_site, load_function_ids
from secretary_executor.sites.inprocess import InProcessTransport

DEMO = "demo"
LOCAL_SITE = "local"


IN_PROCESS = "in-process"
GLOBUS_COMPUTE = "globus-compute"
_LOCAL_SOURCES = ("config", "site_config", "state_file")
_GLOBUS_FIELDS = ("endpoint_id", "functions_file", "remote_site_config")
_GLOBUS_FIELD_HELP = {
    "endpoint_id": "the endpoint's UUID",
    "functions_file": "the secretary-functions.json that 'secretary endpoint register' wrote",
    "remote_site_config": "the site configuration's path on the endpoint host",
}
_DEFAULT_TIMEOUT_S = {IN_PROCESS: 30.0, GLOBUS_COMPUTE: 60.0}
"""A call through the Globus Compute web service and an endpoint's queue takes longer."""


class FleetSite(BaseModel):
    """One entry of a fleet file.

    ``transport: in-process`` (the default) runs the site's secretary here, from exactly one of
    ``config``, ``site_config`` or ``state_file``. ``transport: globus-compute`` calls the
    secretary functions registered on the site's endpoint and needs ``endpoint_id``,
    ``functions_file`` (the ``secretary-functions.json`` the site's administrator hands over)
    and ``remote_site_config`` (where the site configuration lies on the endpoint host).
    ``timeout_s`` defaults to 30 s in-process and 60 s through Globus Compute.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
    transport: Literal["in-process", "globus-compute"] = IN_PROCESS
    config: dict[str, Any] | None = None
    site_config: str | None = None
    state_file: str | None = None
    endpoint_id: str | None = None
    functions_file: str | None = None
    remote_site_config: str | None = None
    timeout_s: float | None = Field(default=None, gt=0, le=86400, allow_inf_nan=False)

    @model_validator(mode="after")
    def _one_source(self) -> FleetSite:
        local = [k for k in _LOCAL_SOURCES if getattr(self, k) is not None]
        remote = [k for k in _GLOBUS_FIELDS if getattr(self, k) is not None]
        if self.transport == IN_PROCESS:
            if remote:
                raise ValueError(
                    f"site {self.name!r}: {', '.join(remote)} only belong to a site reached "
                    "through Globus Compute; add 'transport: globus-compute' or remove them"
                )
            if len(local) != 1:
                raise ValueError(
                    f"site {self.name!r} needs exactly one of config, site_config or state_file "
                    f"(got {', '.join(local) or 'none'})"
                )
            return self
        if local:
            raise ValueError(
                f"site {self.name!r} is reached through Globus Compute, so its secretary reads "
                f"remote_site_config on the endpoint host; remove {', '.join(local)}"
            )
        missing = [k for k in _GLOBUS_FIELDS if getattr(self, k) is None]
        if missing:
            raise ValueError(
                f"site {self.name!r} (transport: globus-compute) also needs "
                + "; ".join(f"{k} ({_GLOBUS_FIELD_HELP[k]})" for k in missing)
            )
        try:
            uuid.UUID(str(self.endpoint_id))
        except ValueError:
            raise ValueError(
                f"site {self.name!r}: endpoint_id {self.endpoint_id!r} is not a UUID; use the id "
                "that 'globus-compute-endpoint list' shows on the endpoint host"
            ) from None
        remote_path = str(self.remote_site_config)
        if not remote_path.startswith(("/", "~")) or not remote_path.endswith((".yaml", ".yml")):
            raise ValueError(
                f"site {self.name!r}: remote_site_config {remote_path!r} must be the absolute "
                "(or ~/...) path of the site's YAML configuration on the endpoint host, e.g. "
                "~/.globus_compute/ENDPOINT/secretary-site.yaml as 'secretary endpoint install' "
                "wrote it"
            )
        return self

    @property
    def timeout(self) -> float:
        """The per-operation timeout: the one given, or the transport's default."""
        return self.timeout_s if self.timeout_s is not None else _DEFAULT_TIMEOUT_S[self.transport]


class FleetFile(BaseModel):
    """A fleet file as a document."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    concurrency: int = Field(default=32, ge=1, le=4096)
    sites: tuple[FleetSite, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> FleetFile:
        names = [s.name for s in self.sites]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"site names must be unique; repeated: {', '.join(dupes)}")
        return self


OnAnswer = Callable[[Sequence[Proposal]], Awaitable[None]]
"""Told the proposals of a fan-out as they arrive (one site, or a group answered by one call),
so a caller can report progress before the slowest site has answered."""


class Fleet:
    """The sites of a fleet, and concurrent fan-out over them.

    Args:
        sites: the sites, in the order proposals are reported.
        concurrency: at most this many sites are asked at once.
    """

    def __init__(self, sites: Sequence[Site], *, concurrency: int = 32) -> None:
        names = [s.name for s in sites]
        if len(set(names)) != len(names):
            raise ConfigurationError(f"site names must be unique in a fleet: {names}")
        self.sites = list(sites)
        self.concurrency = concurrency

    def __repr__(self) -> str:
        return f"Fleet(sites={[s.name for s in self.sites]!r}, concurrency={self.concurrency})"

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.sites]

    def set_timeout(self, seconds: float) -> None:
        """Give every site the same per-operation timeout (a command-line override of the
        fleet file's ``timeout_s``: a site backed by a slow model needs longer than 30 s)."""
        if not 0 < seconds < float("inf"):
            raise ConfigurationError(f"a site timeout must be above 0 s and finite (got {seconds})")
        for site in self.sites:
            site.timeout_s = seconds

    def get(self, name: str) -> Site:
        """The site called ``name``.

        Raises:
            ConfigurationError: no such site; the message lists the fleet's sites.
        """
        for site in self.sites:
            if site.name == name:
                return site
        raise ConfigurationError(f"unknown site {name!r}; this fleet has: {', '.join(self.names)}")

    async def negotiate(
        self,
        requirements: Requirements,
        *,
        request_id: str = "",
        only: Iterable[str] | None = None,
        on_answer: OnAnswer | None = None,
    ) -> list[Proposal]:
        """Ask every site (or those in ``only``) concurrently; one proposal per site.

        Postcondition: one proposal per asked site, in fleet order. A site that fails or
        exceeds its timeout yields UNREACHABLE; it never delays the others past its timeout.
        ``on_answer`` is told each proposal as it arrives.
        """
        targets = self.sites if only is None else [self.get(n) for n in only]
        gate = asyncio.Semaphore(self.concurrency)

        async def ask(site: Site) -> Proposal:
            async with gate:
                proposal = await site.negotiate(requirements, request_id=request_id)
            if on_answer is not None:
                await on_answer([proposal])
            return proposal

        return list(await asyncio.gather(*(ask(s) for s in targets)))

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for s in self.sites))


def _secretary_for(entry: FleetSite, base: Path) -> Secretary:
    try:
        if entry.config is not None:
            config = SiteConfig.model_validate({"name": entry.name, **entry.config})
        elif entry.site_config is not None:
            config = load_site_config(_resolve(entry.site_config, base))
            config = config.model_copy(update={"name": entry.name})
        else:
            assert entry.state_file is not None
            config = SiteConfig(name=entry.name, state_file=str(_resolve(entry.state_file, base)))
        return Secretary(config)
    except SiteConfigError as exc:
        raise ConfigurationError(exc.message) from None
    except ValidationError as exc:
        detail = validation_message(exc, prefix="config")
        raise ConfigurationError(f"site {entry.name!r}: {detail}") from None


def _resolve(path: str, base: Path) -> Path:
    p = Path(path).expanduser()
    return p if p.is_absolute() else (base / p).resolve()


def fleet_from_file(doc: FleetFile, base: Path) -> Fleet:
    """Build the sites of a validated fleet document (contacting none of them).

    Raises:
        ConfigurationError: a site's configuration or functions file is unusable (the message
            names the site and the fix).
    """
    sites = []
    for entry in doc.sites:
        if entry.transport == GLOBUS_COMPUTE:
            sites.append(_globus_site_for(entry, base))
            continue
        secretary = _secretary_for(entry, base)
        # State-backed providers never block, so their calls can stay on the event loop.
        transport = InProcessTransport(secretary, threaded=secretary.config.state_file is None)
        sites.append(Site(entry.name, transport, timeout_s=entry.timeout))
    return Fleet(sites, concurrency=doc.concurrency)


def _globus_site_for(entry: FleetSite, base: Path) -> Site:
    assert entry.endpoint_id and entry.functions_file and entry.remote_site_config
    try:
        function_ids = load_function_ids(_resolve(entry.functions_file, base))
    except ConfigurationError as exc:
        raise ConfigurationError(
            f"site {entry.name!r}: functions_file: {exc.message}; use the "
            "secretary-functions.json that 'secretary endpoint register' wrote on the endpoint host"
        ) from None
    if Operation.NEGOTIATE.value not in function_ids:
        raise ConfigurationError(
            f"site {entry.name!r}: {entry.functions_file} has no '{Operation.NEGOTIATE.value}' "
            "function id, so the site could never be asked; run 'secretary endpoint register' "
            "on the endpoint host and use the file it writes"
        )
    # Ids are checked here; the SDK Executor is made lazily, on the first call to the site.
    return globus_site(
        entry.name,
        entry.endpoint_id,
        function_ids,
        entry.remote_site_config,
        timeout_s=entry.timeout,
    )


def demo_state_files() -> list[Path]:
    """The simulated sites shipped with the package, sorted by name."""
    folder = resources.files("secretary_executor.fleets").joinpath("demo")
    return sorted(Path(str(folder)).glob("*.yaml"))


def demo_fleet() -> Fleet:
    """The built-in fleet: this machine (real providers) plus the shipped simulated sites."""
    entries = [FleetSite(name=LOCAL_SITE, config={"kind": "local"})]
    entries += [FleetSite(name=p.stem, state_file=str(p)) for p in demo_state_files()]
    return fleet_from_file(FleetFile(sites=tuple(entries)), Path.cwd())


def load_fleet(spec: str | Path = DEMO) -> Fleet:
    """The fleet named ``demo``, or the fleet described by a fleet file.

    Raises:
        ConfigurationError: unreadable or invalid fleet file (the message says where).
    """
    if str(spec) == DEMO:
        return demo_fleet()
    path = Path(spec)
    try:
        data = load_yaml(read_text_file(path))
    except OSError as exc:
        raise ConfigurationError(
            f"cannot read fleet file {str(path)!r}: {exc.strerror}; "
            "pass --fleet demo or the path of a fleet YAML file"
        ) from None
    except yaml.YAMLError as exc:
        raise ConfigurationError(f"fleet file {str(path)!r} is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigurationError(f"fleet file {str(path)!r}: expected a mapping with 'sites'")
    try:
        doc = FleetFile.model_validate(data)
    except ValidationError as exc:
        raise ConfigurationError(f"fleet file {str(path)!r}: {validation_message(exc)}") from None
    return fleet_from_file(doc, path.parent.resolve())
