"""The software checks: a package, its version and build variants, and alternatives.

A package counts only as itself: found by ``find_software`` under its own name or an explicit
alias (:mod:`providers.package_names`), never by prefix or similarity, and never because it is a
dependency of something else. When nothing matches, the check is UNSATISFIED and its detail
names the near misses in the site's inventory ("did you mean pytorch?"), so a typo is visible
but never silently corrected.

Variants are Spack-style: ``+cuda`` must appear among the package's variants, ``~mpi`` must
not. A package manager that reports no variants (pip, modules) cannot show a variant, so the
check is UNKNOWN there rather than a guess either way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import TypeAdapter

from endpoint_plugins.negotiation.calls import EvidenceScope, ask, join_names, providers_of_kind
from providers.base import Provider
from providers.facts import SoftwarePackage
from providers.package_names import near_misses, same_package, search_names
from providers.session import ToolSession
from providers.versions import satisfies_all
from providers.wire.common import Category
from providers.wire.proposal import Check, CheckStatus
from providers.wire.requirements import SoftwareChoice, SoftwareRequirement

_PACKAGES: TypeAdapter[list[SoftwarePackage]] = TypeAdapter(list[SoftwarePackage])
_NAMES: TypeAdapter[list[str]] = TypeAdapter(list[str])
INVENTORY_LIMIT = 500
"""Installed names read per provider for "did you mean" hints."""


def software_label(req: SoftwareRequirement) -> str:
    """The requirement as it appears in a check: ``software: lammps+kokkos >=2023``."""
    return f"software: {req}"


def alternatives_label(choice: SoftwareChoice) -> str:
    """``software: lammps or gromacs >=2023``."""
    return f"software: {choice}"


def variant_state(package: SoftwarePackage, variant: str) -> bool | None:
    """Whether ``package`` meets one requested variant; None when it reports no variants.

    Providers write variants as ``cuda``, ``+cuda`` or ``~cuda``; a name listed bare or with
    ``+`` is enabled, with ``~`` disabled.
    """
    if not package.variants:
        return None
    name = variant[1:].lower()
    enabled = {v.lstrip("+").lower() for v in package.variants if not v.startswith("~")}
    return name in enabled if variant.startswith("+") else name not in enabled


@dataclass
class _Search:
    """What every provider said about one package."""

    matches: list[str] = field(default_factory=list)
    wrong_version: list[str] = field(default_factory=list)
    wrong_variant: list[str] = field(default_factory=list)
    no_variants: list[str] = field(default_factory=list)
    not_found: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    providers: list[Provider] = field(default_factory=list)


def _search(req: SoftwareRequirement, session: ToolSession) -> _Search:
    found = _Search(providers=providers_of_kind(session, "software"))
    for provider in found.providers:
        own: dict[tuple[str, str, str | None], SoftwarePackage] = {}
        failed = False
        for name in search_names(req.name):
            answer = ask(session, provider, "find_software", _PACKAGES, {"name": name})
            if not answer.ok:
                found.errors.append(answer.error or "")
                failed = True
                break
            for pkg in answer.value or []:
                if same_package(req.name, pkg.name):
                    own.setdefault((pkg.name, pkg.version, pkg.location), pkg)
        if failed:
            continue
        if not own:
            found.not_found.append(provider.name)
            continue
        for pkg in own.values():
            _classify(req, pkg, provider.name, found)
    return found


def _classify(req: SoftwareRequirement, pkg: SoftwarePackage, provider: str, out: _Search) -> None:
    where = f"{pkg.name} {pkg.version} ({provider})"
    if not satisfies_all(pkg.version, req.constraints):
        out.wrong_version.append(where)
        return
    states = [variant_state(pkg, v) for v in req.variants]
    if any(s is False for s in states):
        shown = "+".join(pkg.variants) if pkg.variants else "none"
        out.wrong_variant.append(f"{where} built with variants [{shown}]")
    elif any(s is None for s in states):
        out.no_variants.append(where)
    else:
        variants = f" with {''.join(req.variants)}" if req.variants else ""
        out.matches.append(f"{where}{variants}")


def _hint(req: SoftwareRequirement, session: ToolSession, providers: list[Provider]) -> str:
    """ "; did you mean pytorch?" from the providers' inventories, or nothing."""
    inventory: list[str] = []
    for provider in providers:
        answer = ask(session, provider, "list_software", _NAMES, {"limit": INVENTORY_LIMIT})
        inventory.extend(answer.value or [])
    close = near_misses(req.name, inventory)
    return f"; did you mean {' or '.join(close)}?" if close else ""


def check_software(req: SoftwareRequirement, session: ToolSession) -> Check:
    """Is the package installed *as itself*, in a version and build meeting every constraint?

    Only ``find_software`` (and ``list_software`` for hints) is asked; dependency lists are
    never consulted, since a dependency is not an installed application.
    """
    scope = EvidenceScope(session)
    label = software_label(req)
    found = _search(req, session)
    if not found.providers:
        return scope.check(
            label, Category.SOFTWARE, CheckStatus.UNSATISFIED, "no software provider at this site"
        )
    spec = ",".join(str(c) for c in req.constraints)
    if found.matches:
        detail = f"{join_names(found.matches)} found"
        detail += f", satisfying {spec}" if spec else ""
        return scope.check(label, Category.SOFTWARE, CheckStatus.SATISFIED, detail)
    if found.errors or found.no_variants:
        parts = [f"could not finish the search for {req.name}: {'; '.join(found.errors)}"]
        if not found.errors:
            parts = [
                f"{join_names(found.no_variants)} found, but its package manager reports no "
                f"build variants, so {''.join(req.variants)} cannot be confirmed"
            ]
        detail = "; ".join(parts)
        return scope.check(label, Category.SOFTWARE, CheckStatus.UNKNOWN, detail)
    if found.wrong_version or found.wrong_variant:
        why = [f"{w} does not satisfy {spec}" for w in found.wrong_version]
        why += [f"{w}, not {''.join(req.variants)}" for w in found.wrong_variant]
        detail = f"{req.name} is installed only as: {'; '.join(why)}"
        return scope.check(label, Category.SOFTWARE, CheckStatus.UNSATISFIED, detail)
    detail = f"{req.name} not found by {join_names(found.not_found)}"
    detail += _hint(req, session, found.providers)
    return scope.check(label, Category.SOFTWARE, CheckStatus.UNSATISFIED, detail)


def check_alternatives(choice: SoftwareChoice, session: ToolSession) -> Check:
    """Any one of the packages will do: SATISFIED by the first that is, else UNKNOWN if one
    could not be decided, else UNSATISFIED with every package's reason."""
    scope = EvidenceScope(session)
    label = alternatives_label(choice)
    results = [check_software(option, session) for option in choice.any_of]
    for status in (CheckStatus.SATISFIED, CheckStatus.UNKNOWN):
        chosen = [c for c in results if c.status is status]
        if chosen:
            if status is CheckStatus.SATISFIED:
                detail = f"{chosen[0].detail} (one of the alternatives is enough)"
            else:
                detail = "; ".join(f"{c.requirement}: {c.detail}" for c in chosen)
            return scope.check(label, Category.SOFTWARE, status, detail)
    detail = "none of the alternatives is here: " + "; ".join(
        f"{c.requirement.removeprefix('software: ')}: {c.detail}" for c in results
    )
    return scope.check(label, Category.SOFTWARE, CheckStatus.UNSATISFIED, detail)
