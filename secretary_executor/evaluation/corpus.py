"""The hand-labelled request corpus: loading it, and comparing a parse with its labels.

Labels (``tests/data/requests/*.yaml``, format in that folder's README) and parsed
``Requirements`` are both turned into sets of *facts*, one per thing a request states:
``("nodes", 4)``, ``("software", "lammps")``, ``("version", "lammps", ">=2023")``. Micro
precision/recall/F1 count facts over the whole corpus, per field; a request is an exact match
when its two fact sets are equal. Facts, not objects, so that a parse that gets the package but
not its version still gets credit for the package.

The conversion of a label is plain data handling, independent of the parser: nothing here reads
request text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from providers.wire.requirements import (
    GpuLogic,
    Requirements,
    SoftwareRequirement,
    VersionConstraint,
)

Fact = tuple[Any, ...]

SCALAR_FIELDS = (
    "nodes",
    "cores_per_node",
    "total_cores",
    "gpus_per_node",
    "total_gpus",
    "gpu_model",
    "gpu_vendor",
    "memory_gb_per_node",
    "memory_gb_total",
    "walltime_s",
    "fabric",
    "min_speed_gbps",
    "urgency",
    "budget_usd",
)
FIELDS = (
    "software",
    "version",
    "variant",
    "any_of",
    *SCALAR_FIELDS,
    "gpu_optional",
    "low_latency",
    "storage",
    "container",
    "mpi",
    "exclude",
    "deadline",
)
"""Every field a fact can belong to, in report order."""


@dataclass(frozen=True)
class LabelledRequest:
    """One request of the corpus and its hand-written labels."""

    id: str
    style: str
    text: str
    expect: dict[str, Any]
    split: str
    labels: dict[str, str] = field(default_factory=dict)
    """Verdict-set labels: site name -> ``runnable`` / ``not_runnable``."""

    @property
    def unexpressible(self) -> list[str]:
        return list(self.expect.get("unexpressible") or [])


def load_corpus(folder: Path, pattern: str) -> tuple[datetime, list[LabelledRequest]]:
    """Every request in the files of ``folder`` matching ``pattern`` (e.g. ``dev-*.yaml``)."""
    now: datetime | None = None
    requests: list[LabelledRequest] = []
    for path in sorted(folder.glob(pattern)):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        file_now = datetime.fromisoformat(str(data["now"]))
        if now is not None and file_now != now:
            raise ValueError(f"{path.name}: 'now' differs from the other files of the split")
        now = file_now
        split = path.stem
        for item in data["requests"]:
            requests.append(
                LabelledRequest(
                    id=str(item["id"]),
                    style=str(item.get("style", "")),
                    text=str(item["text"]),
                    expect=dict(item.get("expect") or {}),
                    split=split,
                    labels=dict(item.get("labels") or {}),
                )
            )
    if now is None:
        raise FileNotFoundError(f"no corpus files {pattern!r} in {folder}")
    return now, requests


# -- facts -----------------------------------------------------------------------------------


def _name(name: str) -> str:
    return str(name).strip().lower().replace("_", "-")


def _number(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    return round(float(value), 1)


def _version(text: str) -> str:
    text = str(text).strip().replace(" ", "")
    for op in (">=", "<=", "==", "!=", ">", "<"):
        if text.startswith(op):
            return op + text[len(op) :].lstrip("vV")
    return "==" + text.lstrip("vV")


def _package_facts(pkg: dict[str, Any]) -> list[Fact]:
    name = _name(pkg["name"])
    facts: list[Fact] = [("software", name)]
    facts += [("version", name, _version(v)) for v in pkg.get("versions") or []]
    facts += [("variant", name, str(v).lower()) for v in pkg.get("variants") or []]
    return facts


def _choice(options: Iterable[dict[str, Any]]) -> Fact:
    shown = sorted(
        _name(o["name"]) + "".join(sorted(_version(v) for v in o.get("versions") or []))
        for o in options
    )
    return ("any_of", tuple(shown))


def label_facts(expect: dict[str, Any]) -> set[Fact]:
    """The facts a hand-written ``expect`` block states."""
    facts: set[Fact] = set()
    for pkg in expect.get("software") or []:
        facts.update(_package_facts(pkg))
    for group in expect.get("any_of") or []:
        facts.add(_choice(group))
    for key in SCALAR_FIELDS:
        if key in expect and expect[key] is not None:
            value = expect[key]
            facts.add((key, _number(value) if key != "gpu_model" else str(value).upper()))
    if expect.get("gpu_optional"):
        facts.add(("gpu_optional", True))
    if expect.get("low_latency"):
        facts.add(("low_latency", True))
    for st in expect.get("storage") or []:
        facts.add(("storage", st.get("kind", "any"), _number(st.get("min_free_gb"))))
    container = expect.get("container")
    if container is not None:
        facts.add(("container", _name(container.get("runtime", "any"))))
        facts.update(("container", "version", _version(v)) for v in container.get("versions") or [])
        if container.get("rootless"):
            facts.add(("container", "rootless"))
    mpi = expect.get("mpi")
    if mpi is not None:
        facts.add(("mpi", _name(mpi.get("implementation") or "any")))
        facts.update(("mpi", "version", _version(v)) for v in mpi.get("versions") or [])
    facts.update(("exclude", str(f)) for f in expect.get("exclude") or [])
    if expect.get("deadline"):
        facts.add(("deadline", _instant(expect["deadline"])))
    return facts


def parsed_facts(req: Requirements) -> set[Fact]:
    """The facts a parsed ``Requirements`` states, in the same vocabulary as the labels."""
    facts: set[Fact] = set()
    for sw in req.software:
        facts.update(_package_facts(_as_label(sw)))
    for choice in req.alternatives:
        facts.add(_choice(_as_label(o) for o in choice.any_of))
    c = req.compute
    values: dict[str, Any] = {
        "nodes": c.nodes,
        "cores_per_node": c.cores_per_node,
        "total_cores": c.total_cores,
        "gpus_per_node": c.gpus_per_node or None,
        "total_gpus": c.total_gpus,
        "gpu_model": c.gpu_model.upper() if c.gpu_model else None,
        "gpu_vendor": c.gpu_vendor.value if c.gpu_vendor else None,
        "memory_gb_per_node": c.memory_gb_per_node,
        "memory_gb_total": c.memory_gb_total,
        "walltime_s": c.walltime_s,
        "fabric": req.network.fabric.value if req.network and req.network.fabric else None,
        "min_speed_gbps": req.network.min_speed_gbps if req.network else None,
        "urgency": req.urgency.value if req.urgency else None,
        "budget_usd": req.budget_usd,
    }
    facts.update((k, _number(v)) for k, v in values.items() if v is not None)
    if c.gpu_logic is GpuLogic.OR:
        facts.add(("gpu_optional", True))
    if req.network and req.network.low_latency:
        facts.add(("low_latency", True))
    for st in req.storage:
        facts.add(("storage", st.kind.value, _number(st.min_free_gb)))
    if req.container is not None:
        facts.add(("container", _name(req.container.runtime)))
        facts.update(("container", "version", str(v)) for v in req.container.constraints)
        if req.container.rootless:
            facts.add(("container", "rootless"))
    if req.mpi is not None:
        facts.add(("mpi", _name(req.mpi.implementation or "any")))
        facts.update(("mpi", "version", str(v)) for v in req.mpi.constraints)
    facts.update(("exclude", f.value) for f in req.excluded)
    if req.deadline is not None:
        facts.add(("deadline", _instant(req.deadline)))
    return facts


def _as_label(sw: SoftwareRequirement) -> dict[str, Any]:
    return {
        "name": sw.name,
        "versions": [str(c) for c in sw.constraints],
        "variants": list(sw.variants),
    }


def _instant(value: Any) -> str:
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return when.isoformat(timespec="seconds")


def field_of(fact: Fact) -> str:
    """The report field a fact counts towards."""
    return str(fact[0])


# -- scores ----------------------------------------------------------------------------------


@dataclass
class Tally:
    """True positives, false positives and false negatives of one field."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class Score:
    """Per-field tallies, exact matches and the fail-safe count over a set of requests."""

    fields: dict[str, Tally] = field(default_factory=dict)
    requests: int = 0
    exact: int = 0
    unexpressible: int = 0
    unexpressible_flagged: int = 0
    mismatches: list[tuple[str, set[Fact], set[Fact]]] = field(default_factory=list)

    @property
    def micro(self) -> Tally:
        total = Tally()
        for t in self.fields.values():
            total.tp, total.fp, total.fn = total.tp + t.tp, total.fp + t.fp, total.fn + t.fn
        return total

    @property
    def exact_rate(self) -> float:
        return self.exact / self.requests if self.requests else 1.0

    def add(self, request_id: str, want: set[Fact], got: set[Fact]) -> None:
        self.requests += 1
        for fact in want | got:
            tally = self.fields.setdefault(field_of(fact), Tally())
            if fact in want and fact in got:
                tally.tp += 1
            elif fact in got:
                tally.fp += 1
            else:
                tally.fn += 1
        if want == got:
            self.exact += 1
        else:
            self.mismatches.append((request_id, want - got, got - want))


def score(
    requests: list[LabelledRequest], parse: Any, now: datetime
) -> tuple[Score, list[Requirements]]:
    """Parse every request with ``parse(text, now=now)`` and score it against its labels.

    A request whose labels name an ``unexpressible`` requirement counts as flagged when the
    parse keeps at least one unresolved phrase (so no site can be READY on it unseen).
    """
    result = Score()
    parsed: list[Requirements] = []
    for item in requests:
        req = parse(item.text, now=now)
        parsed.append(req)
        result.add(item.id, label_facts(item.expect), parsed_facts(req))
        if item.unexpressible:
            result.unexpressible += 1
            result.unexpressible_flagged += bool(req.unresolved)
    return result, parsed


def label_requirements(expect: dict[str, Any]) -> Requirements:
    """A ``Requirements`` built from a label alone: what a perfect parser would return.

    Used to judge the negotiator apart from the parser (the decision given a correct parse).
    """
    from providers.wire.requirements import (
        ComputeRequirement,
        ContainerRequirement,
        Feature,
        MPIRequirement,
        NetworkRequirement,
        SoftwareChoice,
        StorageRequirement,
    )

    def pkg(p: dict[str, Any]) -> SoftwareRequirement:
        return SoftwareRequirement(
            name=_name(p["name"]),
            constraints=tuple(_constraint(v) for v in p.get("versions") or []),
            variants=tuple(p.get("variants") or []),
        )

    compute = ComputeRequirement(
        nodes=expect.get("nodes"),
        cores_per_node=expect.get("cores_per_node"),
        total_cores=expect.get("total_cores"),
        gpus_per_node=0 if "gpu" in (expect.get("exclude") or []) else expect.get("gpus_per_node"),
        total_gpus=expect.get("total_gpus"),
        gpu_logic=GpuLogic.OR if expect.get("gpu_optional") else GpuLogic.AND,
        gpu_model=expect.get("gpu_model"),
        gpu_vendor=expect.get("gpu_vendor"),
        memory_gb_per_node=expect.get("memory_gb_per_node"),
        memory_gb_total=expect.get("memory_gb_total"),
        walltime_s=expect.get("walltime_s"),
    )
    network = None
    if expect.get("fabric") or expect.get("low_latency") or expect.get("min_speed_gbps"):
        network = NetworkRequirement(
            fabric=expect.get("fabric"),
            low_latency=bool(expect.get("low_latency")),
            min_speed_gbps=expect.get("min_speed_gbps"),
        )
    container = expect.get("container")
    mpi = expect.get("mpi")
    return Requirements(
        software=tuple(pkg(p) for p in expect.get("software") or []),
        alternatives=tuple(
            SoftwareChoice(any_of=tuple(pkg(p) for p in group))
            for group in expect.get("any_of") or []
        ),
        compute=compute,
        network=network,
        storage=tuple(
            StorageRequirement(kind=s.get("kind", "any"), min_free_gb=s.get("min_free_gb"))
            for s in expect.get("storage") or []
        ),
        container=None
        if container is None
        else ContainerRequirement(
            runtime=container.get("runtime", "any"),
            constraints=tuple(_constraint(v) for v in container.get("versions") or []),
            rootless=bool(container.get("rootless")),
        ),
        mpi=None
        if mpi is None
        else MPIRequirement(
            implementation=mpi.get("implementation"),
            constraints=tuple(_constraint(v) for v in mpi.get("versions") or []),
        ),
        excluded=tuple(Feature(f) for f in expect.get("exclude") or []),
        budget_usd=expect.get("budget_usd"),
        unresolved=tuple(expect.get("unexpressible") or []),
    )


def _constraint(text: str) -> VersionConstraint:
    spec = _version(text)
    op = next(o for o in (">=", "<=", "==", "!=", ">", "<") if spec.startswith(o))
    return VersionConstraint(op=op, version=spec[len(op) :])
