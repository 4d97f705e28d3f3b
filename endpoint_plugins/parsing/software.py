"""Named things with versions: container runtimes, MPI libraries and software packages.

They run in that order because the names overlap: "Intel MPI" is an MPI, not the Intel
compilers; "singularity" is a runtime, not a package. Packages come last, first the catalogued
ones, then unknown names, which count only when a version clearly follows them ("foo 1.2",
"foo>=1", "foo version 2"); a bare "foo 2" is too often not a package at all.
"""

from __future__ import annotations

import re

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.constraints import (
    SEPARATOR,
    SPEC,
    clean_version,
    looks_like_version,
    parse_constraints,
)
from endpoint_plugins.parsing.draft import Draft
from endpoint_plugins.parsing.scanner import (
    FLAGS,
    WORD_END,
    WORD_START,
    Scanner,
    alternation,
    lookup,
    squash,
)
from providers.wire.requirements import Comparator, VersionConstraint

_WITH_SPEC = rf"(?:{SEPARATOR}(?P<spec>{SPEC})(?:\s*\))?)?"

# -- containers ------------------------------------------------------------------------------

_RUNTIME_SPELLINGS = [s for k, v in lexicon.CONTAINER_RUNTIMES.items() for s in (k, *v)]
_ROOTLESS = alternation(lexicon.ROOTLESS_WORDS)
_CONTAINER_NOUN = r"(?:\s+(?:container|image|runtime|engine)s?(?!\w))?"
_RUNTIME_RE = re.compile(
    rf"{WORD_START}(?P<rootless>{_ROOTLESS}\s+)?(?P<name>{alternation(_RUNTIME_SPELLINGS)})"
    rf"{WORD_END}{_WITH_SPEC}{_CONTAINER_NOUN}",
    FLAGS,
)
_CONTAINER_RE = re.compile(
    rf"(?<!\w)(?P<rootless>{_ROOTLESS}\s+)?{alternation(lexicon.CONTAINER_WORDS)}(?!\w)", FLAGS
)
_ROOTLESS_RE = re.compile(rf"(?<!\w){_ROOTLESS}(?:\s+mode)?(?!\w)", FLAGS)

# -- MPI -------------------------------------------------------------------------------------

_MPI_SPELLINGS = [s for k, v in lexicon.MPI_IMPLEMENTATIONS.items() for s in (k, *v)]
_MPI_RE = re.compile(
    rf"{WORD_START}(?P<name>{alternation([*_MPI_SPELLINGS, *lexicon.GENERIC_MPI_WORDS])})"
    rf"{WORD_END}(?:\s+(?:library|implementation|stack))?{_WITH_SPEC}",
    FLAGS,
)

# -- software --------------------------------------------------------------------------------

_SOFTWARE_SPELLINGS = [s for k, v in lexicon.SOFTWARE.items() for s in (k, *v)]
_CATALOGUE_RE = re.compile(
    rf"{WORD_START}(?P<name>{alternation(_SOFTWARE_SPELLINGS)})"
    rf"(?P<attached>\d[\d.]{{0,20}})?{WORD_END}{_WITH_SPEC}",
    FLAGS,
)
_UNKNOWN_RE = re.compile(
    rf"{WORD_START}(?P<name>[a-z][a-z0-9_+]*+(?:[-.][a-z][a-z0-9_+]*+){{0,3}})"
    rf"{SEPARATOR}(?P<spec>{SPEC})(?:\s*\))?",
    FLAGS,
)
_NOT_NAMES = (
    lexicon.STOP_WORDS
    | lexicon.RESERVED_WORDS
    | set(lexicon.WEEKDAYS)
    | set(lexicon.MONTHS)
    | {squash(w) for w in lexicon.NUMBER_WORDS}
    | {squash(w) for ws in lexicon.VERSION_WORDS_BEFORE for w in ws.split()}
    | {squash(w) for ws in lexicon.VERSION_WORDS_AFTER for w in ws.split()}
)


def extract_containers(scanner: Scanner, draft: Draft) -> None:
    """Runtimes ("podman >= 4"), then "container" alone (runtime ``any``), then "rootless"."""

    def runtime(m: re.Match[str]) -> bool:
        name = lookup(lexicon.CONTAINER_RUNTIMES, m.group("name")) or m.group("name").lower()
        draft.set_container(name, _constraints(m), m.group(0))
        draft.rootless = draft.rootless or bool(m.group("rootless"))
        return True

    def generic(m: re.Match[str]) -> bool:
        draft.set_container("any", [], m.group(0))
        draft.rootless = draft.rootless or bool(m.group("rootless"))
        return True

    def rootless(_: re.Match[str]) -> bool:
        draft.rootless = True
        return True

    scanner.take(_RUNTIME_RE, runtime)
    scanner.take(_CONTAINER_RE, generic)
    scanner.take(_ROOTLESS_RE, rootless)


def extract_mpi(scanner: Scanner, draft: Draft) -> None:
    """An MPI library, named ("Open MPI 4.1") or not ("with MPI": any implementation)."""

    def handle(m: re.Match[str]) -> bool:
        implementation = lookup(lexicon.MPI_IMPLEMENTATIONS, m.group("name"))
        draft.set_mpi(implementation, _constraints(m), m.group(0))
        return True

    scanner.take(_MPI_RE, handle)


def extract_software(scanner: Scanner, draft: Draft) -> None:
    """Catalogued packages (with or without versions), then unknown names with versions."""

    def catalogued(m: re.Match[str]) -> bool:
        found = m.group("name")
        name = lexicon.SOFTWARE_CASE_SENSITIVE.get(found) or lookup(lexicon.SOFTWARE, found)
        attached = m.group("attached")
        if name is None or (attached and found[-1].isdigit()):
            return False
        constraints = _constraints(m)
        if attached and (version := clean_version(attached)):
            constraints.insert(0, VersionConstraint(op=Comparator.EQ, version=version))
        needs_version = squash(found) in lexicon.SOFTWARE_NEEDS_VERSION
        if needs_version and not constraints and found not in lexicon.SOFTWARE_CASE_SENSITIVE:
            return False
        draft.add_software(name, constraints)
        return True

    def unknown(m: re.Match[str]) -> bool:
        name = m.group("name")
        if squash(name) in _NOT_NAMES or len(name) > 64:
            return False
        constraints, explicit = parse_constraints(m.group("spec"))
        if not constraints or not (explicit or looks_like_version(m.group("spec"))):
            return False
        draft.add_software(name.lower(), constraints)
        return True

    scanner.take(_CATALOGUE_RE, catalogued)
    scanner.take(_UNKNOWN_RE, unknown)


def _constraints(m: re.Match[str]) -> list[VersionConstraint]:
    spec = m.group("spec")
    return parse_constraints(spec)[0] if spec else []
