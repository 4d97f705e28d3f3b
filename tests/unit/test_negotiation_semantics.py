"""Negotiator semantics that a broker must get right in the dangerous direction.

Sites are inline state files, as in ``test_rules_negotiator``. Each test pins one rule: a phrase
nobody read blocks READY; names match exactly or by an explicit alias, with near misses shown
as hints only; variants, alternatives, optional GPUs, totals, GPU vendors and the meaning of
"low latency".
"""

from __future__ import annotations

import textwrap

import pytest

from endpoint_plugins.negotiation.base import NegotiationContext
from endpoint_plugins.negotiation.rules import UNRESOLVED_PREFIX, RulesNegotiator
from providers.session import ToolSession
from providers.state import Prices, parse_state, providers_from_state
from providers.tools import ToolKind
from providers.wire import (
    CheckStatus,
    ComputeRequirement,
    GpuLogic,
    GpuVendor,
    NetworkRequirement,
    Proposal,
    Requirements,
    SoftwareChoice,
    SoftwareRequirement,
    Verdict,
)

SLURM = """
- name: slurm
  kind: workload
  facts:
    manager: slurm
    partitions:
      - {name: cpu, total_nodes: 10, free_nodes: 10, cpus_per_node: 64, memory_gb_per_node: 256}
      - {name: gpu, total_nodes: 4, free_nodes: 4, cpus_per_node: 32, memory_gb_per_node: 512,
         gpus_per_node: 4, gpu_model: NVIDIA A100-SXM4-80GB}
"""

AMD_SLURM = """
- name: slurm
  kind: workload
  facts:
    manager: slurm
    partitions:
      - {name: gpu, total_nodes: 8, free_nodes: 8, cpus_per_node: 64, memory_gb_per_node: 512,
         gpus_per_node: 8, gpu_model: MI250X}
"""

CPU_SLURM = """
- name: slurm
  kind: workload
  facts:
    manager: slurm
    partitions:
      - {name: cpu, total_nodes: 10, free_nodes: 10, cpus_per_node: 64, memory_gb_per_node: 256}
"""

SPACK = """
- name: spack
  kind: software
  facts:
    manager: spack
    packages:
      - {name: gromacs, version: "2023.3", variants: [cuda, mpi]}
      - {name: lammps, version: 2Aug2023, variants: ["+mpi", "~kokkos"]}
      - {name: netcdf, version: 4.9.2, variants: []}
      - {name: nccl, version: 2.18.3}
      - {name: py-torch, version: 2.3.1, variants: [cuda]}
      - {name: hdf5, version: 1.14.3, variants: [fortran]}
"""

PIP = """
- name: pip
  kind: software
  facts:
    manager: pip
    packages:
      - {name: transformers, version: 4.44.0}
      - {name: scikit-learn, version: 1.5.1}
"""

ETHERNET = """
- name: net
  kind: network
  facts:
    interfaces:
      - {name: eth0, fabric: ethernet, speed_gbps: 100, rdma: false}
"""

ROCE = """
- name: net
  kind: network
  facts:
    interfaces:
      - {name: eth0, fabric: ethernet, speed_gbps: 100, rdma: true}
"""

DECLARED = """
- name: net
  kind: network
  facts:
    interfaces:
      - {name: hsn0, fabric: ethernet, speed_gbps: 200, low_latency: true}
"""


def site(*blocks: str) -> ToolSession:
    body = "".join(textwrap.indent(textwrap.dedent(b).strip("\n") + "\n", "  ") for b in blocks)
    text = "schema_version: 1\nsite: {name: hpc-test, kind: hpc}\nproviders:\n" + body
    return ToolSession(providers_from_state(parse_state(text)), allowed=ToolKind.READ)


def negotiate(req: Requirements, session: ToolSession) -> Proposal:
    context = NegotiationContext(
        site="hpc-test", request_id="req-1", prices=Prices(cpu_node_hour=1, gpu_node_hour=4)
    )
    return RulesNegotiator().evaluate(req, session, context)


def check(proposal: Proposal, prefix: str):
    found = [c for c in proposal.checks if c.requirement.startswith(prefix)]
    assert len(found) == 1, [c.requirement for c in proposal.checks]
    return found[0]


# -- the fail-safe rule ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "phrase", ["AVX-512", "aarch64 nodes", "a valid Gaussian licence", "an FPGA", "RHEL 9"]
)
def test_an_unresolved_phrase_is_never_ready(phrase: str) -> None:
    req = Requirements(compute=ComputeRequirement(nodes=1), unresolved=(phrase,))
    proposal = negotiate(req, site(SLURM, SPACK))
    assert proposal.verdict is Verdict.UNKNOWN
    unread = check(proposal, UNRESOLVED_PREFIX)
    assert unread.status is CheckStatus.UNKNOWN
    assert phrase in unread.requirement and phrase in unread.detail


def test_an_unresolved_phrase_alone_is_judged_not_a_request_for_information() -> None:
    proposal = negotiate(Requirements(unresolved=("needs sve",)), site(SLURM))
    assert proposal.verdict is Verdict.UNKNOWN


def test_an_unresolved_phrase_does_not_hide_an_incompatibility() -> None:
    req = Requirements(software=(SoftwareRequirement(name="vasp"),), unresolved=("AVX-512",))
    assert negotiate(req, site(SLURM, SPACK)).verdict is Verdict.INCOMPATIBLE


# -- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wanted", "present"),
    [("netcdf-c", "netcdf"), ("nccl-tests", "nccl"), ("hdf5-mpi", "hdf5"), ("gromacs-2", None)],
)
def test_a_longer_name_never_matches_its_prefix(wanted: str, present: str | None) -> None:
    req = Requirements(software=(SoftwareRequirement(name=wanted),))
    proposal = negotiate(req, site(SLURM, SPACK))
    assert proposal.verdict is Verdict.INCOMPATIBLE
    detail = check(proposal, "software").detail
    assert f"{wanted} not found" in detail
    if present:
        assert f"did you mean {present}" in detail


@pytest.mark.parametrize("typo", ["pytroch", "pytorh", "pyotrch"])
def test_a_typo_gets_a_hint_never_a_substitution(typo: str) -> None:
    proposal = negotiate(Requirements(software=(SoftwareRequirement(name=typo),)), site(SPACK))
    result = check(proposal, "software")
    assert result.status is CheckStatus.UNSATISFIED
    assert "did you mean py-torch" in result.detail


def test_an_unknown_name_far_from_everything_gets_no_hint() -> None:
    req = Requirements(software=(SoftwareRequirement(name="bitsandbytes"),))
    result = check(negotiate(req, site(SPACK, PIP)), "software")
    assert result.status is CheckStatus.UNSATISFIED
    assert "did you mean" not in result.detail
    assert "bitsandbytes not found by spack, pip" in result.detail


@pytest.mark.parametrize("name", ["pytorch", "torch", "py-torch", "PyTorch"])
def test_explicit_aliases_and_the_spack_python_prefix_match(name: str) -> None:
    req = Requirements(software=(SoftwareRequirement(name=name),))
    result = check(negotiate(req, site(SPACK)), "software")
    assert result.status is CheckStatus.SATISFIED, result.detail
    assert "py-torch 2.3.1 (spack)" in result.detail


def test_sklearn_alias_finds_scikit_learn() -> None:
    req = Requirements(software=(SoftwareRequirement(name="sklearn"),))
    assert check(negotiate(req, site(PIP)), "software").status is CheckStatus.SATISFIED


# -- variants -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "variants", "status"),
    [
        ("gromacs", ("+cuda",), CheckStatus.SATISFIED),
        ("gromacs", ("+cuda", "+mpi"), CheckStatus.SATISFIED),
        ("gromacs", ("~cuda",), CheckStatus.UNSATISFIED),
        ("lammps", ("+kokkos",), CheckStatus.UNSATISFIED),
        ("lammps", ("~kokkos", "+mpi"), CheckStatus.SATISFIED),
        ("hdf5", ("~mpi",), CheckStatus.SATISFIED),
        ("hdf5", ("+mpi",), CheckStatus.UNSATISFIED),
        ("nccl", ("+cuda",), CheckStatus.UNKNOWN),
        ("netcdf", ("+mpi",), CheckStatus.UNKNOWN),
    ],
)
def test_variants_are_checked_against_what_the_package_manager_reports(
    name: str, variants: tuple[str, ...], status: CheckStatus
) -> None:
    req = Requirements(software=(SoftwareRequirement(name=name, variants=variants),))
    result = check(negotiate(req, site(SPACK)), "software")
    assert result.status is status, result.detail
    assert "".join(variants) in result.requirement


def test_a_package_manager_without_variants_cannot_confirm_one() -> None:
    req = Requirements(software=(SoftwareRequirement(name="transformers", variants=("+cuda",)),))
    result = check(negotiate(req, site(PIP)), "software")
    assert result.status is CheckStatus.UNKNOWN
    assert "reports no build variants" in result.detail


def test_a_malformed_variant_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"'\+name' \(enabled\) or '~name'"):
        SoftwareRequirement(name="gromacs", variants=("cuda",))


# -- alternatives ---------------------------------------------------------------------------


def _choice(*names: str) -> SoftwareChoice:
    return SoftwareChoice(any_of=tuple(SoftwareRequirement(name=n) for n in names))


def test_one_alternative_is_enough() -> None:
    req = Requirements(alternatives=(_choice("namd", "gromacs"),))
    proposal = negotiate(req, site(CPU_SLURM, SPACK))
    assert proposal.verdict is Verdict.READY
    assert "gromacs 2023.3" in check(proposal, "software: namd or gromacs").detail


def test_no_alternative_present_is_incompatible_with_every_reason() -> None:
    req = Requirements(alternatives=(_choice("namd", "amber"),))
    proposal = negotiate(req, site(CPU_SLURM, SPACK))
    assert proposal.verdict is Verdict.INCOMPATIBLE
    detail = check(proposal, "software").detail
    assert "namd: namd not found" in detail and "amber: amber not found" in detail


def test_an_undecided_alternative_is_unknown_not_unsatisfied() -> None:
    choice = SoftwareChoice(
        any_of=(
            SoftwareRequirement(name="namd"),
            SoftwareRequirement(name="nccl", variants=("+cuda",)),
        )
    )
    proposal = negotiate(Requirements(alternatives=(choice,)), site(CPU_SLURM, SPACK))
    assert proposal.verdict is Verdict.UNKNOWN


# -- compute --------------------------------------------------------------------------------


@pytest.mark.parametrize("cores", [None, 16])
def test_gpus_optional_with_or_without_a_core_count(cores: int | None) -> None:
    compute = ComputeRequirement(cores_per_node=cores, gpus_per_node=2, gpu_logic=GpuLogic.OR)
    proposal = negotiate(Requirements(compute=compute), site(CPU_SLURM))
    assert proposal.verdict is Verdict.READY
    assert proposal.metrics.price_per_node_hour == 1  # ran on the CPU node


def test_total_gpus_spread_over_the_nodes_it_takes() -> None:
    # 12 GPUs on 4-GPU nodes: 3 nodes of the 4
    compute = ComputeRequirement(total_gpus=12)
    proposal = negotiate(Requirements(compute=compute), site(SLURM))
    assert proposal.verdict is Verdict.READY
    assert proposal.metrics.partition == "gpu"
    assert "3 nodes needed" in check(proposal, "compute").detail
    too_many = negotiate(Requirements(compute=ComputeRequirement(total_gpus=20)), site(SLURM))
    assert too_many.verdict is Verdict.INCOMPATIBLE


def test_total_gpus_with_a_node_count_are_per_node_shares() -> None:
    fits = ComputeRequirement(nodes=2, total_gpus=8)
    assert negotiate(Requirements(compute=fits), site(SLURM)).verdict is Verdict.READY
    too_dense = ComputeRequirement(nodes=2, total_gpus=10)
    assert negotiate(Requirements(compute=too_dense), site(SLURM)).verdict is Verdict.INCOMPATIBLE


def test_total_memory_is_shared_by_the_nodes() -> None:
    # 1.5 TB over 8 nodes is 187.5 GB each: fits the 256 GB CPU nodes
    spread = ComputeRequirement(nodes=8, memory_gb_total=1500)
    assert negotiate(Requirements(compute=spread), site(CPU_SLURM)).verdict is Verdict.READY
    # on one node it does not
    one = ComputeRequirement(memory_gb_total=1500)
    assert negotiate(Requirements(compute=one), site(CPU_SLURM)).verdict is Verdict.INCOMPATIBLE


@pytest.mark.parametrize(
    ("vendor", "nvidia_site", "amd_site"),
    [
        (GpuVendor.NVIDIA, Verdict.READY, Verdict.INCOMPATIBLE),
        (GpuVendor.AMD, Verdict.INCOMPATIBLE, Verdict.READY),
        (GpuVendor.INTEL, Verdict.INCOMPATIBLE, Verdict.INCOMPATIBLE),
    ],
)
def test_gpu_vendor(vendor: GpuVendor, nvidia_site: Verdict, amd_site: Verdict) -> None:
    req = Requirements(compute=ComputeRequirement(gpu_vendor=vendor))
    assert negotiate(req, site(SLURM)).verdict is nvidia_site
    assert negotiate(req, site(AMD_SLURM)).verdict is amd_site


# -- low latency ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("network", "status"),
    [
        (ETHERNET, CheckStatus.UNSATISFIED),
        (ROCE, CheckStatus.SATISFIED),
        (DECLARED, CheckStatus.SATISFIED),
    ],
)
def test_low_latency_means_rdma_or_a_declared_low_latency_link(
    network: str, status: CheckStatus
) -> None:
    req = Requirements(network=NetworkRequirement(low_latency=True))
    result = check(negotiate(req, site(CPU_SLURM, network)), "network")
    assert result.status is status
    if status is CheckStatus.SATISFIED:
        assert "eth0" in result.detail or "hsn0" in result.detail
