"""One function per requirement kind: network, storage, container and MPI.

Software has its own module, :mod:`endpoint_plugins.negotiation.software`; its checks are
re-exported here so that every check function is importable from one place.

Each function asks the site's providers through the session and returns one
:class:`providers.wire.Check` with the evidence of its calls. The rule everywhere is the same:
something that meets the requirement makes it SATISFIED; otherwise a failed or undecidable
answer makes it UNKNOWN (the site could not tell); otherwise it is UNSATISFIED, and the detail
says what was found instead, so that a user sees why a site said no.
"""

from __future__ import annotations

from pydantic import TypeAdapter

from endpoint_plugins.negotiation.calls import EvidenceScope, ask, join_names, providers_of_kind
from endpoint_plugins.negotiation.software import (
    check_alternatives,
    check_software,
    software_label,
)
from providers.categories import normalise_package_name
from providers.facts import ContainerFacts, Filesystem, MPIFacts, NetworkInterface, SoftwarePackage
from providers.session import ToolSession
from providers.versions import satisfies_all
from providers.wire.common import Category
from providers.wire.proposal import Check, CheckStatus
from providers.wire.requirements import (
    ContainerRequirement,
    Fabric,
    MPIRequirement,
    NetworkRequirement,
    StorageKind,
    StorageRequirement,
    VersionConstraint,
)

__all__ = [
    "check_alternatives",
    "check_container",
    "check_mpi",
    "check_network",
    "check_software",
    "check_storage",
    "software_label",
]

_PACKAGES: TypeAdapter[list[SoftwarePackage]] = TypeAdapter(list[SoftwarePackage])
_INTERFACES: TypeAdapter[list[NetworkInterface]] = TypeAdapter(list[NetworkInterface])
_FILESYSTEMS: TypeAdapter[list[Filesystem]] = TypeAdapter(list[Filesystem])
_RUNTIME: TypeAdapter[ContainerFacts] = TypeAdapter(ContainerFacts)
_MPI: TypeAdapter[MPIFacts] = TypeAdapter(MPIFacts)

# -- name tables ----------------------------------------------------------------------------
# Sites and users spell the same thing several ways; these tables say which spellings mean the
# same runtime, MPI or fabric. A name missing from a table is its own family, so an unknown
# name only ever matches itself.

CONTAINER_FAMILIES: dict[str, str] = {
    "apptainer": "apptainer",
    "singularity": "apptainer",
    "singularity-ce": "apptainer",
    "singularityce": "apptainer",
    "docker": "docker",
    "podman": "podman",
    "charliecloud": "charliecloud",
    "ch-run": "charliecloud",
    "enroot": "enroot",
    "shifter": "shifter",
    "sarus": "sarus",
}
"""Runtime spellings to runtime families. Apptainer is the renamed Singularity project and runs
the same images with the same command line, so either name satisfies a request for the other."""

MPI_FAMILIES: dict[str, str] = {
    "openmpi": "openmpi",
    "open-mpi": "openmpi",
    "ompi": "openmpi",
    "intel-mpi": "intel-mpi",
    "impi": "intel-mpi",
    "intelmpi": "intel-mpi",
    "intel-oneapi-mpi": "intel-mpi",
    "cray-mpich": "cray-mpich",
    "mpich": "mpich",
    "mvapich": "mvapich",
    "mvapich2": "mvapich",
    "spectrum-mpi": "spectrum-mpi",
    "spectrummpi": "spectrum-mpi",
}
"""MPI spellings to implementations. Cray MPICH is kept apart from MPICH: it is a different
build with its own version numbers."""

MPI_PACKAGE_NAMES: dict[str, tuple[str, ...]] = {
    "openmpi": ("openmpi",),
    "intel-mpi": ("intel-oneapi-mpi", "intel-mpi", "impi"),
    "cray-mpich": ("cray-mpich",),
    "mpich": ("mpich",),
    "mvapich": ("mvapich2", "mvapich"),
    "spectrum-mpi": ("spectrum-mpi",),
}
"""Package or module names under which software providers list each MPI implementation."""

FABRIC_ALIASES: dict[str, str] = {
    "ethernet": Fabric.ETHERNET.value,
    "eth": Fabric.ETHERNET.value,
    "infiniband": Fabric.INFINIBAND.value,
    "ib": Fabric.INFINIBAND.value,
    "omnipath": Fabric.OMNIPATH.value,
    "omni-path": Fabric.OMNIPATH.value,
    "opa": Fabric.OMNIPATH.value,
    "slingshot": Fabric.SLINGSHOT.value,
    "slingshot-11": Fabric.SLINGSHOT.value,
}
"""Fabric spellings that providers report, mapped to :class:`Fabric` values."""

PARALLEL_FILESYSTEMS: tuple[str, ...] = ("lustre", "gpfs", "beegfs")


def _norm(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def container_family(name: str) -> str:
    """The runtime family of a runtime name (``singularity`` -> ``apptainer``)."""
    key = _norm(name)
    return CONTAINER_FAMILIES.get(key, key)


def mpi_family(name: str) -> str:
    """The MPI implementation a name stands for (``ompi`` -> ``openmpi``)."""
    key = _norm(name)
    return MPI_FAMILIES.get(key, key)


def fabric_family(name: str) -> str:
    """The :class:`Fabric` value a reported fabric stands for (``opa`` -> ``omnipath``)."""
    key = _norm(name)
    return FABRIC_ALIASES.get(key, key)


def _constraint_text(constraints: tuple[VersionConstraint, ...]) -> str:
    return ",".join(str(c) for c in constraints)


# -- network ---------------------------------------------------------------------------------


def network_label(req: NetworkRequirement) -> str:
    """The requirement as it appears in a check: ``network: infiniband, >= 100 Gbps``."""
    parts: list[str] = []
    if req.fabric is not None:
        parts.append(req.fabric.value)
    if req.low_latency:
        parts.append("low latency")
    if req.min_speed_gbps is not None:
        parts.append(f">= {req.min_speed_gbps:g} Gbps")
    return "network: " + (", ".join(parts) if parts else "any interface")


def _is_low_latency(iface: NetworkInterface) -> bool:
    """What "low latency" means here: the site declares the link low latency, or it is
    RDMA-capable, or it is an RDMA-class fabric (InfiniBand, Omni-Path, Slingshot). Plain
    Ethernet without RDMA is not, even where MPI runs over it. An unknown fabric name
    (``loopback``) does not count, so a stray interface never passes for a fast network."""
    if iface.low_latency is not None:
        return iface.low_latency
    if iface.rdma:
        return True
    try:
        return Fabric(fabric_family(iface.fabric)).low_latency
    except ValueError:
        return False


def _describe_iface(iface: NetworkInterface) -> str:
    speed = f" {iface.speed_gbps:g} Gbps" if iface.speed_gbps is not None else ""
    rdma = " rdma" if iface.rdma else ""
    declared = " declared low latency" if iface.low_latency else ""
    return f"{iface.name} ({iface.fabric}{speed}{rdma}{declared}, {iface.state})"


def check_network(req: NetworkRequirement, session: ToolSession) -> Check:
    """Does one interface meet every network condition at once?

    The conditions are judged on the same interface: a slow InfiniBand port next to a fast
    Ethernet port does not make a fast InfiniBand network. Interfaces reported ``down`` are
    ignored. An interface whose speed is not reported cannot prove a minimum speed.
    """
    scope = EvidenceScope(session)
    label = network_label(req)
    providers = providers_of_kind(session, "network")
    if not providers:
        return scope.check(
            label, Category.NETWORK, CheckStatus.UNSATISFIED, "no network provider at this site"
        )
    seen: list[str] = []
    errors: list[str] = []
    speed_unknown: list[str] = []
    for provider in providers:
        answer = ask(session, provider, "list_interfaces", _INTERFACES)
        if not answer.ok:
            errors.append(answer.error or "")
            continue
        for iface in answer.value or []:
            seen.append(_describe_iface(iface))
            if iface.state.strip().lower() == "down":
                continue
            if req.fabric is not None and fabric_family(iface.fabric) != req.fabric.value:
                continue
            if req.low_latency and not _is_low_latency(iface):
                continue
            if req.min_speed_gbps is not None:
                if iface.speed_gbps is None:
                    speed_unknown.append(iface.name)
                    continue
                if iface.speed_gbps < req.min_speed_gbps:
                    continue
            detail = f"{_describe_iface(iface)} from {provider.name} meets it"
            return scope.check(label, Category.NETWORK, CheckStatus.SATISFIED, detail)
    if errors or speed_unknown:
        why = list(errors)
        if speed_unknown:
            why.append(f"speed not reported for {join_names(speed_unknown)}")
        return scope.check(label, Category.NETWORK, CheckStatus.UNKNOWN, "; ".join(why))
    detail = f"no interface meets it; interfaces found: {join_names(seen)}"
    return scope.check(label, Category.NETWORK, CheckStatus.UNSATISFIED, detail)


# -- storage ---------------------------------------------------------------------------------


def storage_label(req: StorageRequirement) -> str:
    """The requirement as it appears in a check: ``storage: parallel, >= 100 GB free``."""
    free = f", >= {req.min_free_gb:g} GB free" if req.min_free_gb is not None else ""
    return f"storage: {req.kind.value}{free}"


def _kind_matches(wanted: StorageKind, kind: str) -> bool:
    have = kind.strip().lower()
    if wanted is StorageKind.ANY:
        return True
    if wanted is StorageKind.PARALLEL:
        return have in PARALLEL_FILESYSTEMS
    return have == wanted.value


def check_storage(req: StorageRequirement, session: ToolSession) -> Check:
    """Is there a file system of the wanted kind with enough free space?

    ``parallel`` accepts Lustre, GPFS and BeeGFS; ``any`` accepts every kind. The free space
    must be on one file system of the right kind: space on the wrong kind does not count.
    """
    scope = EvidenceScope(session)
    label = storage_label(req)
    providers = providers_of_kind(session, "storage")
    if not providers:
        return scope.check(
            label, Category.STORAGE, CheckStatus.UNSATISFIED, "no storage provider at this site"
        )
    seen: list[str] = []
    right_kind: list[str] = []
    errors: list[str] = []
    for provider in providers:
        answer = ask(session, provider, "list_filesystems", _FILESYSTEMS)
        if not answer.ok:
            errors.append(answer.error or "")
            continue
        for fs in answer.value or []:
            text = f"{fs.kind} {fs.mount} ({fs.free_gb:g} GB free)"
            seen.append(text)
            if not _kind_matches(req.kind, fs.kind):
                continue
            right_kind.append(text)
            if req.min_free_gb is None or fs.free_gb >= req.min_free_gb:
                detail = f"{text} from {provider.name} meets it"
                return scope.check(label, Category.STORAGE, CheckStatus.SATISFIED, detail)
    if errors:
        return scope.check(label, Category.STORAGE, CheckStatus.UNKNOWN, "; ".join(errors))
    if right_kind:
        detail = (
            f"no {req.kind.value} file system has {req.min_free_gb:g} GB free; "
            f"found: {join_names(right_kind)}"
        )
    else:
        kinds = (
            f"parallel file system ({', '.join(PARALLEL_FILESYSTEMS)})"
            if req.kind is StorageKind.PARALLEL
            else f"{req.kind.value} file system"
        )
        detail = f"no {kinds}; found: {join_names(seen)}"
    return scope.check(label, Category.STORAGE, CheckStatus.UNSATISFIED, detail)


# -- container -------------------------------------------------------------------------------


def container_label(req: ContainerRequirement) -> str:
    """The requirement as it appears in a check: ``container: apptainer >=1.2, rootless``."""
    spec = _constraint_text(req.constraints)
    text = f"container: {req.runtime} {spec}".strip()
    return f"{text}, rootless" if req.rootless else text


def check_container(req: ContainerRequirement, session: ToolSession) -> Check:
    """Does the requested container runtime really exist here, in a usable version?

    ``any`` accepts any runtime. Apptainer and Singularity count as one runtime family. Version
    constraints are compared only against a runtime reported under the requested name (or any
    runtime for ``any``): Apptainer restarted its numbering at 1.0 after Singularity 3.x, so
    ``apptainer >= 1.1`` cannot be judged against ``singularity 3.8`` and is UNKNOWN instead of
    a wrong answer either way. This check never decides the software requirements: those are
    checked on their own, whatever the container says.
    """
    scope = EvidenceScope(session)
    label = container_label(req)
    providers = providers_of_kind(session, "container")
    if not providers:
        return scope.check(
            label, Category.CONTAINER, CheckStatus.UNSATISFIED, "no container runtime at this site"
        )
    wanted_any = _norm(req.runtime) == "any"
    wanted_family = container_family(req.runtime)
    spec = _constraint_text(req.constraints)
    rejected: list[str] = []
    undecided: list[str] = []
    for provider in providers:
        answer = ask(session, provider, "runtime_info", _RUNTIME)
        if not answer.ok or answer.value is None:
            undecided.append(answer.error or f"{provider.name}.runtime_info returned nothing")
            continue
        rt = answer.value
        shown = f"{rt.runtime} {rt.version or '(version unknown)'}"
        if not wanted_any and container_family(rt.runtime) != wanted_family:
            rejected.append(f"{shown} is not {req.runtime}")
            continue
        if req.rootless and not rt.rootless:
            rejected.append(f"{shown} does not run rootless")
            continue
        alias = not wanted_any and _norm(rt.runtime) != _norm(req.runtime)
        if req.constraints:
            if rt.version is None:
                undecided.append(f"{rt.runtime} does not report its version, needed for {spec}")
                continue
            if alias:
                undecided.append(
                    f"{shown} is of the {wanted_family} family, but its version numbering "
                    f"differs from {req.runtime}'s, so {spec} cannot be judged"
                )
                continue
            if not satisfies_all(rt.version, req.constraints):
                rejected.append(f"{shown} does not satisfy {spec}")
                continue
        detail = f"{shown} from {provider.name}"
        if alias:
            detail += (
                f" ({rt.runtime} and {req.runtime} are the same runtime family "
                "and run the same images)"
            )
        if req.rootless:
            detail += ", rootless"
        return scope.check(label, Category.CONTAINER, CheckStatus.SATISFIED, detail)
    if undecided:
        return scope.check(label, Category.CONTAINER, CheckStatus.UNKNOWN, "; ".join(undecided))
    return scope.check(label, Category.CONTAINER, CheckStatus.UNSATISFIED, "; ".join(rejected))


# -- MPI -------------------------------------------------------------------------------------


def mpi_label(req: MPIRequirement) -> str:
    """The requirement as it appears in a check: ``mpi: openmpi >=4.1``."""
    spec = _constraint_text(req.constraints)
    return f"mpi: {req.implementation or 'any'} {spec}".strip()


def _mpi_search_names(req: MPIRequirement) -> list[str]:
    """Package names to look up when no MPI provider has the implementation."""
    if req.implementation is None:
        return [n for names in MPI_PACKAGE_NAMES.values() for n in names]
    family = mpi_family(req.implementation)
    names = [req.implementation.strip(), *MPI_PACKAGE_NAMES.get(family, ())]
    unique: dict[str, str] = {}
    for name in names:
        unique.setdefault(normalise_package_name(name), name)
    return list(unique.values())


def check_mpi(req: MPIRequirement, session: ToolSession) -> Check:
    """Is the MPI implementation present, in a version meeting the constraints?

    MPI providers (``mpi_info``) are asked first. When none of them has it, software providers
    are searched for the implementation's package names, because on most clusters MPI comes as
    a module or a Spack package rather than as a system library; the detail then says so.
    """
    scope = EvidenceScope(session)
    label = mpi_label(req)
    wanted = mpi_family(req.implementation) if req.implementation else None
    spec = _constraint_text(req.constraints)
    rejected: list[str] = []
    undecided: list[str] = []
    for provider in providers_of_kind(session, "mpi"):
        answer = ask(session, provider, "mpi_info", _MPI)
        if not answer.ok or answer.value is None:
            undecided.append(answer.error or f"{provider.name}.mpi_info returned nothing")
            continue
        info = answer.value
        shown = f"{info.implementation} {info.version or '(version unknown)'}"
        if wanted is not None and mpi_family(info.implementation) != wanted:
            rejected.append(f"{shown} ({provider.name}) is not {req.implementation}")
            continue
        if req.constraints:
            if info.version is None:
                undecided.append(f"{info.implementation} does not report its version")
                continue
            if not satisfies_all(info.version, req.constraints):
                rejected.append(f"{shown} ({provider.name}) does not satisfy {spec}")
                continue
        detail = f"{shown} from MPI provider {provider.name}"
        return scope.check(label, Category.PARALLEL, CheckStatus.SATISFIED, detail)

    for provider in providers_of_kind(session, "software"):
        for name in _mpi_search_names(req):
            answer = ask(session, provider, "find_software", _PACKAGES, {"name": name})
            if not answer.ok:
                undecided.append(answer.error or "")
                continue
            for pkg in answer.value or []:
                if wanted is not None and mpi_family(pkg.name) != wanted:
                    continue
                shown = f"{pkg.name} {pkg.version} ({provider.name})"
                if not satisfies_all(pkg.version, req.constraints):
                    rejected.append(f"{shown} does not satisfy {spec}")
                    continue
                detail = (
                    f"no MPI provider has it, but software provider {provider.name} offers "
                    f"{pkg.name} {pkg.version} (MPI installed as a package or module)"
                )
                return scope.check(label, Category.PARALLEL, CheckStatus.SATISFIED, detail)
    if undecided:
        return scope.check(label, Category.PARALLEL, CheckStatus.UNKNOWN, "; ".join(undecided))
    if rejected:
        return scope.check(label, Category.PARALLEL, CheckStatus.UNSATISFIED, "; ".join(rejected))
    what = req.implementation or "MPI"
    detail = f"{what} not found by any MPI or software provider"
    return scope.check(label, Category.PARALLEL, CheckStatus.UNSATISFIED, detail)
