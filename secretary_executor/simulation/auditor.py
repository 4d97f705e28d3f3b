"""Independent ground truth: the generator's intent judged against a site's raw resources.

Why a second truth: :mod:`.truth` (the "faithful" mode, the paper's auditor rules) reads the
site through the project's fact models and shares its version ordering with the negotiator, so
a negotiator bug in either place would be copied into the truth and score 100 %. This module
shares nothing with the code it judges. It reads:

* the :class:`~secretary_executor.simulation.intent.Intent` the generator drew before any
  text existed (never the parser's output, never the wire ``Requirements``), and
* the site's state document as plain JSON data (``SiteState.model_dump(mode="json")``),

and imports only the standard library, pydantic, ``packaging`` and the intent module (a unit
test enforces that). Its rules are written out in the intent module's docstring and in
docs/simulation.md, "Independent ground truth".

Versions are releases of the project's own scheme: PEP 440 order, with LAMMPS-style dates
(``2Aug2023``) read as dates. ``== 3.0`` means release 3.0 (3.0.0 too), not 3.0.1, and
``<= 3.0`` does not accept 3.0.1: the generator picked a concrete release.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

from packaging.version import InvalidVersion, Version
from pydantic import BaseModel, ConfigDict

from secretary_executor.simulation.intent import LOW_LATENCY, Intent, VersionBound

Verdict = Literal["READY", "BUSY", "INCOMPATIBLE"]
PARALLEL_FS = frozenset({"lustre", "gpfs", "beegfs"})
RDMA_FABRICS = frozenset({"infiniband", "omnipath", "slingshot"})
RUNTIME_ALIASES = {"apptainer": "singularity"}
"""Apptainer is the renamed Singularity: one runtime under two names."""
_DATE = re.compile(r"^(\d{1,2})([A-Za-z]{3})(\d{4})$")


class Judgement(BaseModel):
    """The expected verdict and why; categories use the provider category names."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verdict: Verdict
    unmet: tuple[str, ...] = ()
    failing: tuple[str, ...] = ()
    """Categories of the unmet parts, in the order checked."""
    needed: tuple[str, ...] = ()
    """Categories a complete check must look at (the compute category always)."""


def release(text: str) -> Version:
    """A version string as a comparable release.

    Raises:
        ValueError: the version is neither PEP 440 nor a ``DMonYYYY`` date; the auditor never
            guesses an order.
    """
    m = _DATE.match(text.strip())
    if m:
        day = datetime.strptime(f"{m.group(1)} {m.group(2)} {m.group(3)}", "%d %b %Y")
        return Version(f"{day.year}.{day.month}.{day.day}")
    try:
        return Version(text.strip())
    except InvalidVersion:
        raise ValueError(f"cannot order version {text!r}") from None


def meets(version: str | None, bound: VersionBound | None) -> bool:
    """True when ``version`` is within ``bound`` (no bound: any version, even an unknown one)."""
    if bound is None:
        return True
    if version is None:
        return False
    have, want = release(version), release(bound.version)
    if bound.op == "==":
        return have == want
    if bound.op == ">=":
        return have >= want
    return have <= want


def _name(text: str) -> str:
    return text.strip().lower().replace("_", "-")


class Site:
    """A site's state document, indexed once (a fleet is judged against many intents)."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.by_kind: dict[str, list[Mapping[str, Any]]] = {}
        for entry in document.get("providers", ()):
            self.by_kind.setdefault(str(entry["kind"]), []).append(entry.get("facts") or {})
        self.installed: dict[str, list[str]] = {}
        """Package name -> versions installed as that package (dependencies never count)."""
        for facts in self.facts("software"):
            for pkg in facts.get("packages", ()):
                self.installed.setdefault(_name(pkg["name"]), []).append(str(pkg["version"]))
        self.partitions = [p for f in self.facts("workload") for p in f.get("partitions", ())]

    def facts(self, kind: str) -> list[Mapping[str, Any]]:
        return self.by_kind.get(kind, [])


def _shape_fits(intent: Intent, part: Mapping[str, Any]) -> bool:
    nodes = intent.nodes or 1
    cores_ok = intent.cores_per_node is None or intent.cores_per_node <= part["cpus_per_node"]
    gpus_ok = intent.gpus_per_node is None or intent.gpus_per_node <= part["gpus_per_node"]
    if intent.cores_per_node is not None and intent.gpus_per_node is not None:
        shape = (cores_ok or gpus_ok) if intent.gpu_logic == "or" else (cores_ok and gpus_ok)
    else:
        shape = cores_ok and gpus_ok
    memory_ok = (
        intent.memory_gb_per_node is None or intent.memory_gb_per_node <= part["memory_gb_per_node"]
    )
    return shape and memory_ok and nodes <= part["total_nodes"]


def _network_ok(intent: Intent, site: Site) -> bool:
    for facts in site.facts("network"):
        for i in facts.get("interfaces", ()):
            if i.get("state") == "down":
                continue
            if intent.fabric == LOW_LATENCY:
                if i.get("rdma") or i.get("fabric") in RDMA_FABRICS:
                    return True
            elif i.get("fabric") == intent.fabric:
                return True
    return False


def _storage_ok(intent: Intent, site: Site) -> bool:
    for facts in site.facts("storage"):
        for fs in facts.get("filesystems", ()):
            kind = fs.get("kind")
            kind_ok = kind == intent.storage or (
                intent.storage == "parallel" and kind in PARALLEL_FS
            )
            free_ok = (
                intent.storage_free_gb is None or fs.get("free_gb", 0) >= intent.storage_free_gb
            )
            if kind_ok and free_ok:
                return True
    return False


def _mpi_ok(intent: Intent, site: Site) -> bool:
    return any(
        _name(str(m.get("implementation", ""))) == _name(intent.mpi or "")
        and meets(m.get("version"), intent.mpi_version)
        for m in site.facts("mpi")
    )


def _container_ok(intent: Intent, site: Site) -> bool:
    want = RUNTIME_ALIASES.get(_name(intent.container or ""), _name(intent.container or ""))
    return any(
        RUNTIME_ALIASES.get(_name(str(c.get("runtime", ""))), _name(str(c.get("runtime", ""))))
        == want
        for c in site.facts("container")
    )


def judge(intent: Intent, site: Site | Mapping[str, Any]) -> Judgement:
    """The verdict the intent deserves at ``site`` (a :class:`Site` or a state document).

    INCOMPATIBLE: some part of the intent can never be met here. READY: everything can be met
    and one partition whose node shape holds the job has ``nodes`` free nodes now. BUSY: it
    can be met, but every such partition lacks free nodes, so the job waits. Urgency is
    ignored: an urgent job on a full site is BUSY.
    """
    s = site if isinstance(site, Site) else Site(site)
    unmet: list[tuple[str, str]] = []
    needed = ["software"]
    if not any(meets(v, intent.version) for v in s.installed.get(_name(intent.app), ())):
        unmet.append((f"software {intent.app}", "software"))
    compute = "workload" if s.facts("workload") else "hardware"
    needed.append(compute)
    fitting = [p for p in s.partitions if _shape_fits(intent, p)]
    if not fitting:
        unmet.append(("compute", compute))
    for wanted, category, check, label in (
        (intent.fabric, "network", _network_ok, "network"),
        (intent.storage, "storage", _storage_ok, "storage"),
        (intent.container, "container", _container_ok, "container"),
        (intent.mpi, "parallel", _mpi_ok, "mpi"),
    ):
        if wanted is None:
            continue
        needed.append(category)
        if not check(intent, s):
            unmet.append((f"{label} {wanted}", category))
    if unmet:
        return Judgement(
            verdict="INCOMPATIBLE",
            unmet=tuple(u for u, _ in unmet),
            failing=tuple(dict.fromkeys(c for _, c in unmet)),
            needed=tuple(dict.fromkeys(needed)),
        )
    ready = any(p["free_nodes"] >= (intent.nodes or 1) for p in fitting)
    return Judgement(verdict="READY" if ready else "BUSY", needed=tuple(dict.fromkeys(needed)))
