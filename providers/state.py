"""Site state files: a YAML document that fully describes a site's providers and their facts.

A state file is served by state-backed providers, which are the category base classes of
:mod:`providers.categories` with ``_probe`` returning the file's facts. They therefore have the
same tools and manifests as real providers. Simulated sites (the demo fleet, the simulation)
are state files; any real site can be exported to one with :func:`export_state`.

Format (``schema_version: 1``)::

    schema_version: 1
    site: {name: hpc-east, kind: hpc, description: "...", prices: {cpu_node_hour: 2.0}}
    providers:
      - {name: slurm, kind: workload, facts: {manager: slurm, partitions: [...]}}
      - {name: spack, kind: software, facts: {manager: spack, packages: [...]}}
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import Field, ValidationError, field_validator, model_validator

from providers.base import Provider
from providers.categories import KIND_BASES, provider_kind
from providers.errors import StateFileError, validation_message
from providers.files import load_yaml, read_text_file
from providers.jobspec import JobSpec, SubmitResult
from providers.wire.common import SCHEMA_VERSION, WireModel
from providers.wire.jobs import JobOutput, JobState, JobStatus

ProviderKind = Literal[
    "workload", "software", "container", "storage", "network", "cpu", "memory", "gpu", "mpi"
]
SiteKind = Literal["hpc", "cloud", "standalone", "edge", "local"]


class Prices(WireModel):
    """Price of one node for one hour, in US dollars, by node type."""

    cpu_node_hour: float | None = Field(default=None, ge=0)
    gpu_node_hour: float | None = Field(default=None, ge=0)

    def per_node_hour(self, gpu: bool) -> float | None:
        """The price of the node type a job would use (GPU nodes fall back to CPU price)."""
        if gpu and self.gpu_node_hour is not None:
            return self.gpu_node_hour
        return self.cpu_node_hour


class SiteInfo(WireModel):
    """Who the site is."""

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
    kind: SiteKind = "hpc"
    description: str = ""
    prices: Prices = Prices()


class ProviderState(WireModel):
    """One provider of a state file: its name, kind and facts."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,63}$")
    kind: ProviderKind
    facts: dict[str, Any]

    @model_validator(mode="after")
    def _facts_match_kind(self) -> ProviderState:
        model = KIND_BASES[self.kind].facts_model
        try:
            model.model_validate(self.facts)
        except ValidationError as exc:
            detail = validation_message(exc, prefix="facts")
            raise ValueError(f"provider {self.name!r} ({self.kind}): {detail}") from None
        return self


class SiteState(WireModel):
    """A whole site as a document."""

    schema_version: int = SCHEMA_VERSION
    site: SiteInfo
    providers: tuple[ProviderState, ...] = ()

    @field_validator("schema_version")
    @classmethod
    def _known_version(cls, value: int) -> int:
        # A newer format may mean something else by the same keys; reading it as this one
        # would describe a different site, so it is refused rather than guessed at.
        if value < 1 or value > SCHEMA_VERSION:
            raise ValueError(
                f"schema_version {value} is not one this version reads (1 to {SCHEMA_VERSION}); "
                "write the file for this version, or upgrade secretary-executor"
            )
        return value

    @field_validator("providers")
    @classmethod
    def _unique(cls, value: tuple[ProviderState, ...]) -> tuple[ProviderState, ...]:
        names = [p.name for p in value]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"provider names must be unique; repeated: {', '.join(dupes)}")
        return value

    def to_yaml(self) -> str:
        """Serialise deterministically (same state, same bytes)."""
        return yaml.safe_dump(
            self.model_dump(mode="json"), sort_keys=True, default_flow_style=False, width=100
        )


def load_state(path: str | Path) -> SiteState:
    """Read and validate a state file.

    Raises:
        StateFileError: unreadable file, bad YAML, or a schema mismatch (says where).
    """
    p = Path(path)
    try:
        text = read_text_file(p)
    except OSError as exc:
        raise StateFileError(f"cannot read site state file {str(p)!r}: {exc.strerror}") from None
    return parse_state(text, source=str(p))


def parse_state(text: str, *, source: str = "<state>") -> SiteState:
    """Validate a state document given as YAML text (see :func:`load_state`)."""
    try:
        data = load_yaml(text)
    except yaml.YAMLError as exc:
        raise StateFileError(f"{source}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise StateFileError(f"{source}: expected a mapping with 'site' and 'providers'")
    try:
        return SiteState.model_validate(data)
    except ValidationError as exc:
        raise StateFileError(
            f"{source}: {validation_message(exc)} (see docs/architecture.md, 'Site state files')"
        ) from None


class _StateMixin:
    """Serves facts from a state file instead of probing the machine."""

    _state_facts: Any

    def _probe(self) -> Any:
        return self._state_facts


def state_provider(entry: ProviderState) -> Provider:
    """Build the state-backed provider for one state-file entry."""
    base = KIND_BASES[entry.kind]
    cls = _STATE_CLASSES[entry.kind]
    provider = cls(name=entry.name)
    provider._state_facts = base.facts_model.model_validate(entry.facts)  # type: ignore[attr-defined]
    return provider


class _SimulatedJobs:
    """Jobs accepted by a simulated workload manager.

    A simulated site runs nothing: a job is recorded, reported QUEUED once and then SIMULATED
    (never COMPLETED: no command ran), with a message that says so. Native ids are unique across
    processes (``sim-SITE-<random hex>``), so a hub restarted, or a second CLI process, never
    mistakes one job for another; a well-formed id that this process did not hand out belongs to
    a job another process accepted, and since nothing ran it is reported SIMULATED rather than
    left UNKNOWN for a waiter to poll until its timeout.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[str, int] = {}

    @staticmethod
    def _pattern(site: str) -> re.Pattern[str]:
        return re.compile(rf"sim-{re.escape(site)}-[0-9a-f]{{{_SIM_ID_HEX}}}")

    def submit(self, site: str) -> str:
        with self._lock:
            native = f"sim-{site}-{secrets.token_hex(_SIM_ID_HEX // 2)}"
            self._jobs[native] = 0
            return native

    def advance(self, site: str, native_id: str) -> JobState:
        with self._lock:
            if native_id not in self._jobs:
                return self._elsewhere(site, native_id)
            polls = self._jobs[native_id]
            if polls < 0:
                return JobState.CANCELLED
            self._jobs[native_id] = polls + 1
            return JobState.QUEUED if polls == 0 else JobState.SIMULATED

    def cancel(self, site: str, native_id: str) -> JobState:
        with self._lock:
            if native_id not in self._jobs:
                return self._elsewhere(site, native_id)
            if self._jobs[native_id] >= 2:
                return JobState.SIMULATED
            self._jobs[native_id] = -1
            return JobState.CANCELLED

    def _elsewhere(self, site: str, native_id: str) -> JobState:
        if self._pattern(site).fullmatch(native_id):
            return JobState.SIMULATED
        return JobState.UNKNOWN


_SIM_ID_HEX = 16
"""Hex digits of randomness in a simulated native id: 64 bits, no collision in practice."""


def _make_state_classes() -> dict[str, type[Provider]]:
    classes: dict[str, type[Provider]] = {}
    for kind, base in KIND_BASES.items():
        attrs: dict[str, Any] = {
            "name": f"state-{kind}",
            "description": f"{kind} facts served from a site state file",
            "detection": "listed in the site state file",
            "__doc__": f"State-backed {kind} provider: the facts come from a state file.",
        }
        if kind == "workload":
            attrs.update(_workload_hooks())
        classes[kind] = type(f"State{base.__name__}", (_StateMixin, base), attrs)
    return classes


def _workload_hooks() -> dict[str, Any]:
    def _jobs(self: Any) -> _SimulatedJobs:
        if not hasattr(self, "_sim_jobs"):
            self._sim_jobs = _SimulatedJobs()
        return self._sim_jobs

    def _submit(self: Any, spec: JobSpec) -> SubmitResult:
        native = _jobs(self).submit(self.name)
        return SubmitResult(native_id=native, script=" ".join(spec.command))

    def _status(self: Any, native_id: str) -> JobStatus:
        state = _jobs(self).advance(self.name, native_id)
        return JobStatus(
            site=self.name,
            native_id=native_id,
            state=state,
            exit_code=None,  # nothing ran, so there is no exit status
            message="simulated site: the job was accounted for, no command was run",
        )

    def _cancel(self: Any, native_id: str) -> JobStatus:
        state = _jobs(self).cancel(self.name, native_id)
        return JobStatus(site=self.name, native_id=native_id, state=state, message="simulated site")

    def _output(self: Any, native_id: str, max_bytes: int) -> JobOutput:
        return JobOutput(
            site=self.name,
            native_id=native_id,
            available=False,
            note="simulated site: the job was accounted for, no command was run, so there is "
            "no output",
        )

    return {"_submit": _submit, "_status": _status, "_cancel": _cancel, "_output": _output}


_STATE_CLASSES = _make_state_classes()


def providers_from_state(state: SiteState) -> list[Provider]:
    """One state-backed provider per entry of the state file."""
    return [state_provider(entry) for entry in state.providers]


def export_state(info: SiteInfo, providers: Iterable[Provider]) -> SiteState:
    """Capture a site (real or simulated) as a state file: every available provider's facts."""
    entries: list[ProviderState] = []
    for provider in providers:
        report = provider.probe()
        if not report.available or report.facts is None:
            continue
        entries.append(
            ProviderState(name=provider.name, kind=provider_kind(provider), facts=report.facts)
        )
    entries.sort(key=lambda e: e.name)
    return SiteState(site=info, providers=tuple(entries))
