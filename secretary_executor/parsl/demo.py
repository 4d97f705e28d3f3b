"""A fleet of local-engine sites: the demo sites, each behind a real endpoint engine here.

Every site gets its own engine (ThreadPoolEngine unless told otherwise), which runs both its
secretary functions and the user's tasks, exactly as one Globus Compute endpoint per site would.
Used by the example workflow, the tests and the benchmark.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from globus_compute_endpoint.engines import GlobusComputeEngine, ProcessPoolEngine, ThreadPoolEngine
from globus_compute_endpoint.engines.base import GlobusComputeEngineBase

from secretary_executor.errors import ConfigurationError
from secretary_executor.parsl.channels import EngineChannel
from secretary_executor.sites.engine import LocalEngineSite, engine_site_config
from secretary_executor.sites.fleet import LOCAL_SITE, Fleet, demo_state_files

EngineKind = Literal["thread", "process", "globus"]


def make_engine(kind: EngineKind, *, workers: int = 2) -> GlobusComputeEngineBase:
    """A fresh, unstarted engine of one kind.

    ``process`` uses the ``spawn`` start method (workers never inherit this process's threads);
    ``globus`` starts an interchange and a worker pool through the ``globus-compute-endpoint``
    command, so the virtual environment's ``bin/`` must be on ``PATH``.

    Raises:
        ConfigurationError: an unknown kind, or ``globus`` without the endpoint command.
    """
    if kind == "thread":
        return ThreadPoolEngine(max_workers=workers)
    if kind == "process":
        return ProcessPoolEngine(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn")
        )
    if kind == "globus":
        if shutil.which("globus-compute-endpoint") is None:
            raise ConfigurationError(
                "GlobusComputeEngine needs the 'globus-compute-endpoint' command on PATH; "
                "activate the virtual environment (or add its bin/ folder to PATH)"
            )
        from parsl.providers import LocalProvider

        return GlobusComputeEngine(
            address="127.0.0.1",
            max_workers_per_node=workers,
            provider=LocalProvider(init_blocks=1, min_blocks=1, max_blocks=1),
            encrypted=False,
        )
    raise ConfigurationError(f"unknown engine kind {kind!r}; use thread, process or globus")


@dataclass
class EngineFleet:
    """Local-engine sites with their fleet and channels, ready for ``SecretaryExecutor``."""

    sites: dict[str, LocalEngineSite]
    fleet: Fleet
    channels: dict[str, EngineChannel]

    def shutdown(self) -> None:
        for site in self.sites.values():
            site.shutdown()


def engine_fleet(sites: list[LocalEngineSite], *, concurrency: int = 32) -> EngineFleet:
    """Bundle local-engine sites: one fleet entry and one channel per site (engines start later)."""
    fleet = Fleet([s.site for s in sites], concurrency=concurrency)
    channels = {s.name: EngineChannel(s.runner, name=s.name) for s in sites}
    return EngineFleet({s.name: s for s in sites}, fleet, channels)


def demo_engine_fleet(
    workdir: str | os.PathLike[str],
    *,
    engines: Mapping[str, EngineKind] | None = None,
    default: EngineKind = "thread",
    include_local: bool = False,
    workers: int = 2,
    timeout_s: float = 30.0,
) -> EngineFleet:
    """The demo's simulated sites (and optionally this machine), each behind its own engine.

    Args:
        workdir: where site configurations and engine run folders are written.
        engines: site name -> engine kind, for the sites that should not use ``default``.
        default: the engine kind of the other sites.
        include_local: add this machine as site ``local`` (real providers, probed live).
        workers: workers per engine.
        timeout_s: per-operation timeout of each site.
    """
    root = Path(workdir)
    kinds = dict(engines or {})
    sites = [
        LocalEngineSite.from_state_file(
            path.stem,
            make_engine(kinds.get(path.stem, default), workers=workers),
            path,
            workdir=root,
            timeout_s=timeout_s,
        )
        for path in demo_state_files()
    ]
    if include_local:
        folder = root / LOCAL_SITE
        folder.mkdir(parents=True, exist_ok=True)
        config = engine_site_config(root, LOCAL_SITE, {"name": LOCAL_SITE, "kind": "local"})
        engine = make_engine(kinds.get(LOCAL_SITE, default), workers=workers)
        sites.insert(
            0,
            LocalEngineSite(
                LOCAL_SITE, engine, config, run_dir=folder / "engine", timeout_s=timeout_s
            ),
        )
    return engine_fleet(sites)
