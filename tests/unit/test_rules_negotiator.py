"""The rules negotiator against simulated sites written as inline state files.

Each test builds a site from YAML (``parse_state`` + ``providers_from_state``), opens a READ-only
tool session as the Secretary does, and reads the proposal. Several tests pin the prototype's
known mistakes (float version compare, OR read as AND, the container requirement never checked,
dependency versions taken for the app's) so that they cannot come back.
"""

from __future__ import annotations

import textwrap

import pytest

from endpoint_plugins.negotiation.base import NegotiationContext
from endpoint_plugins.negotiation.capacity import HEURISTIC_WAIT_PER_JOB_S, NODE_PARTITION
from endpoint_plugins.negotiation.rules import RulesNegotiator
from providers.base import Provider
from providers.categories import NetworkProvider, SoftwareProvider, WorkloadProvider
from providers.errors import ProviderError
from providers.facts import (
    NetworkFacts,
    NetworkInterface,
    Partition,
    SoftwareFacts,
    SoftwarePackage,
    WorkloadFacts,
)
from providers.session import ToolSession
from providers.state import Prices, parse_state, providers_from_state
from providers.tools import ToolKind
from providers.wire import (
    CheckStatus,
    Comparator,
    ComputeRequirement,
    ContainerRequirement,
    Fabric,
    GpuLogic,
    MPIRequirement,
    NetworkRequirement,
    Proposal,
    Requirements,
    SoftwareRequirement,
    StorageKind,
    StorageRequirement,
    Verdict,
    VersionConstraint,
)
from providers.wire.common import Category

# -- site building blocks (one provider entry each) ------------------------------------------

SLURM = """
- name: slurm
  kind: workload
  facts:
    manager: slurm
    partitions:
      - {name: cpu, total_nodes: 10, free_nodes: 4, cpus_per_node: 64,
         memory_gb_per_node: 256, queue_depth: 3, running_jobs: 6, max_walltime_s: 172800}
      - {name: gpu, total_nodes: 4, free_nodes: 1, cpus_per_node: 32, memory_gb_per_node: 512,
         gpus_per_node: 4, gpu_model: A100-80GB, queue_depth: 5, max_walltime_s: 86400}
      - {name: debug, total_nodes: 2, free_nodes: 2, cpus_per_node: 16, memory_gb_per_node: 64,
         max_walltime_s: 1800}
"""

CPU_ONLY_SLURM = """
- name: slurm
  kind: workload
  facts:
    manager: slurm
    partitions:
      - {name: cpu, total_nodes: 10, free_nodes: 4, cpus_per_node: 64,
         memory_gb_per_node: 256, queue_depth: 2}
"""

SPACK = """
- name: spack
  kind: software
  facts:
    manager: spack
    packages:
      - {name: lammps, version: 2Aug2023}
      - {name: gromacs, version: "2021.1"}
      - {name: python, version: 3.11.7}
      - {name: openmpi, version: 4.1.6}
    dependencies:
      - {package: lammps, name: fftw, version: 3.3.10}
      - {package: lammps, name: gromacs, version: "2023.3"}
"""

PIP = """
- name: pip
  kind: software
  facts:
    manager: pip
    packages:
      - {name: numpy, version: 1.19.5}
      - {name: scipy, version: "1.14"}
    dependencies:
      - {package: scipy, name: numpy, version: 1.26.4}
      - {package: scipy, name: pandas, version: 2.2.0}
"""

APPTAINER = """
- name: apptainer
  kind: container
  facts: {runtime: apptainer, version: 1.2.5, rootless: true}
"""

SINGULARITY = """
- name: singularity
  kind: container
  facts: {runtime: singularity, version: "3.8.7", rootless: false}
"""

LUSTRE = """
- name: storage
  kind: storage
  facts:
    filesystems:
      - {kind: lustre, mount: /scratch, total_gb: 100000, free_gb: 5000, shared: true}
      - {kind: nfs, mount: /home, total_gb: 10000, free_gb: 9000, shared: true}
"""

NFS_ONLY = """
- name: storage
  kind: storage
  facts:
    filesystems:
      - {kind: nfs, mount: /home, total_gb: 10000, free_gb: 9000, shared: true}
"""

INFINIBAND = """
- name: net
  kind: network
  facts:
    interfaces:
      - {name: eth0, fabric: ethernet, speed_gbps: 25}
      - {name: ib0, fabric: infiniband, speed_gbps: 200, rdma: true}
"""

ETHERNET_ONLY = """
- name: net
  kind: network
  facts:
    interfaces:
      - {name: eth0, fabric: ethernet, speed_gbps: 100}
      - {name: lo, fabric: loopback}
"""

OPENMPI = """
- name: mpi
  kind: mpi
  facts: {implementation: openmpi, version: 4.1.5, launchers: [mpirun]}
"""

CPU_HW = """
- name: cpu
  kind: cpu
  facts: {cores: 16, threads: 32, load_fraction: {load}}
"""

MEMORY_HW = """
- name: memory
  kind: memory
  facts: {total_gb: 64, available_gb: 40}
"""

GPU_HW = """
- name: gpu
  kind: gpu
  facts:
    vendor: nvidia
    devices:
      - {index: 0, vendor: nvidia, model: NVIDIA A100-SXM4-80GB}
      - {index: 1, vendor: nvidia, model: NVIDIA A100-SXM4-80GB}
"""

PRICES = Prices(cpu_node_hour=2.0, gpu_node_hour=10.0)


def site(*blocks: str, extra: list[Provider] | None = None) -> ToolSession:
    """A READ-only session over a site made of the given provider entries."""
    body = "".join(textwrap.indent(textwrap.dedent(b).strip("\n") + "\n", "  ") for b in blocks)
    text = "schema_version: 1\nsite: {name: hpc-test, kind: hpc}\nproviders:\n" + (body or "  []\n")
    providers = providers_from_state(parse_state(text))
    return ToolSession([*providers, *(extra or [])], allowed=ToolKind.READ)


def context(**kwargs: object) -> NegotiationContext:
    values: dict[str, object] = {"site": "hpc-test", "request_id": "req-1", "prices": PRICES}
    values.update(kwargs)
    return NegotiationContext.model_validate(values)


def sw(name: str, *specs: str) -> SoftwareRequirement:
    """``sw("lammps", ">=2023")``: a software requirement from short constraint strings."""
    constraints = []
    for spec in specs:
        op = next(c for c in sorted(Comparator, key=lambda c: -len(c.value)) if spec.startswith(c))
        constraints.append(VersionConstraint(op=op, version=spec[len(op.value) :]))
    return SoftwareRequirement(name=name, constraints=tuple(constraints))


def negotiate(
    req: Requirements, session: ToolSession, ctx: NegotiationContext | None = None
) -> Proposal:
    return RulesNegotiator().evaluate(req, session, ctx or context())


def check_for(proposal: Proposal, prefix: str):
    found = [c for c in proposal.checks if c.requirement.startswith(prefix)]
    assert len(found) == 1, [c.requirement for c in proposal.checks]
    return found[0]


# -- verdicts: READY, BUSY, INCOMPATIBLE -----------------------------------------------------


def test_ready_when_every_requirement_fits_and_nodes_are_free():
    req = Requirements(
        software=(sw("lammps", ">=2023"),),
        compute=ComputeRequirement(nodes=2, cores_per_node=32, walltime_s=7200),
    )
    proposal = negotiate(req, site(SLURM, SPACK))
    assert proposal.verdict is Verdict.READY
    assert proposal.site == "hpc-test" and proposal.request_id == "req-1"
    assert proposal.strategy == "rules"
    assert proposal.elapsed_s >= 0
    assert [c.status for c in proposal.checks] == [CheckStatus.SATISFIED] * 2
    assert "start now" in proposal.reason
    m = proposal.metrics
    assert (m.partition, m.total_nodes, m.free_nodes, m.queue_depth) == ("cpu", 10, 4, 3)
    assert m.estimated_start_s == 0
    assert m.price_per_node_hour == 2.0
    assert m.estimated_cost_usd == pytest.approx(2 * 2 * 2.0)  # nodes x hours x price


def test_busy_when_a_partition_fits_but_lacks_free_nodes():
    req = Requirements(compute=ComputeRequirement(nodes=6, cores_per_node=32))
    proposal = negotiate(req, site(SLURM))
    assert proposal.verdict is Verdict.BUSY
    compute = check_for(proposal, "compute")
    assert compute.status is CheckStatus.WAIT
    assert "4 of 10 nodes free" in compute.detail
    m = proposal.metrics
    assert (m.partition, m.free_nodes, m.total_nodes, m.queue_depth) == ("cpu", 4, 10, 3)
    # (3 queued + the running job we wait for) x 900 s, one 6-node job at a time on 10 nodes
    assert m.estimated_start_s == pytest.approx(4 * HEURISTIC_WAIT_PER_JOB_S)
    assert m.estimated_cost_usd == pytest.approx(6 * 1 * 2.0)  # default walltime: 1 h
    assert "wait about 1 h" in proposal.reason


def test_busy_uses_the_schedulers_own_wait_estimate():
    state = """
    - name: slurm
      kind: workload
      facts:
        manager: slurm
        partitions:
          - {name: batch, total_nodes: 8, free_nodes: 0, cpus_per_node: 32,
             memory_gb_per_node: 128, queue_depth: 40, estimated_wait_s: 120}
    """
    proposal = negotiate(Requirements(compute=ComputeRequirement(nodes=1)), site(state))
    assert proposal.verdict is Verdict.BUSY
    assert proposal.metrics.estimated_start_s == 120


def test_incompatible_when_no_partition_can_ever_hold_the_job():
    req = Requirements(compute=ComputeRequirement(nodes=20, cores_per_node=32))
    proposal = negotiate(req, site(SLURM))
    assert proposal.verdict is Verdict.INCOMPATIBLE
    compute = check_for(proposal, "compute")
    assert compute.status is CheckStatus.UNSATISFIED
    assert "closest is 'cpu'" in compute.detail and "20 nodes needed, it has 10" in compute.detail
    assert "compute: 20 nodes, 32 cores/node" in proposal.reason
    assert proposal.metrics.partition is None


def test_walltime_over_the_partition_limit_does_not_fit():
    req = Requirements(compute=ComputeRequirement(cores_per_node=16, walltime_s=3 * 86400))
    proposal = negotiate(req, site(SLURM))
    assert proposal.verdict is Verdict.INCOMPATIBLE
    assert "exceeds its limit of 48 h" in check_for(proposal, "compute").detail


def test_memory_per_node_is_checked():
    req = Requirements(compute=ComputeRequirement(memory_gb_per_node=300))
    proposal = negotiate(req, site(SLURM))
    assert proposal.metrics.partition == "gpu"  # the only partition with 512 GB nodes
    assert proposal.verdict is Verdict.READY
    too_big = negotiate(
        Requirements(compute=ComputeRequirement(memory_gb_per_node=1024)), site(SLURM)
    )
    assert too_big.verdict is Verdict.INCOMPATIBLE


def test_prefers_a_partition_that_can_start_now_then_cheapest_then_name():
    # 2 nodes x 16 cores: cpu (4 free) and debug (2 free) both start now and cost the same,
    # so the name decides; gpu (1 free) cannot start now.
    req = Requirements(compute=ComputeRequirement(nodes=2, cores_per_node=16))
    proposal = negotiate(req, site(SLURM))
    assert proposal.metrics.partition == "cpu"
    # 3 nodes: debug is too small, gpu must wait, cpu starts now.
    req3 = Requirements(compute=ComputeRequirement(nodes=3, cores_per_node=16))
    assert negotiate(req3, site(SLURM)).metrics.partition == "cpu"


# -- versions (the prototype compared them as floats) ----------------------------------------


@pytest.mark.parametrize(
    ("installed", "specs", "ok"),
    [
        ("1.14", (">=1.7",), True),  # "2.14 >= 2.7": float compare said no
        ("1.14", ("<=1.7",), False),
        ("3.11.7", (">=3.9.1",), True),  # 3-part versions: float compare made >= act as ==
        ("3.11.7", ("<=3.12.0",), True),
        ("3.11.7", (">=3.9.1", "<=3.10.4"), False),
        ("3.11.7", (">3.11", "<3.12"), True),
        ("3.11.7", ("==3.11",), True),
    ],
)
def test_versions_are_ordered_as_versions(installed, specs, ok):
    state = f"""
    - name: pip
      kind: software
      facts:
        manager: pip
        packages: [{{name: mytool, version: "{installed}"}}]
    """
    proposal = negotiate(
        Requirements(software=(sw("mytool", *specs),)), site(CPU_ONLY_SLURM, state)
    )
    status = check_for(proposal, "software").status
    assert status is (CheckStatus.SATISFIED if ok else CheckStatus.UNSATISFIED)
    assert proposal.verdict is (Verdict.READY if ok else Verdict.INCOMPATIBLE)


def test_version_2_14_is_above_2_7():
    state = """
    - name: pip
      kind: software
      facts: {manager: pip, packages: [{name: tool, version: "2.14"}]}
    """
    proposal = negotiate(Requirements(software=(sw("tool", ">=2.7"),)), site(CPU_ONLY_SLURM, state))
    assert proposal.verdict is Verdict.READY


@pytest.mark.parametrize(
    ("installed", "spec", "ok"),
    [
        ("2Aug2023", ">=2023", True),
        ("29Sep2021", ">=2023", False),
        ("2Aug2023", ">=29Sep2021", True),
        ("29Sep2021", ">=2Aug2023", False),
        ("29Sep2021", "<2022", True),
    ],
)
def test_date_versions(installed, spec, ok):
    state = f"""
    - name: spack
      kind: software
      facts: {{manager: spack, packages: [{{name: lammps, version: {installed}}}]}}
    """
    proposal = negotiate(Requirements(software=(sw("lammps", spec),)), site(CPU_ONLY_SLURM, state))
    check = check_for(proposal, "software: lammps")
    assert check.status is (CheckStatus.SATISFIED if ok else CheckStatus.UNSATISFIED)
    if not ok:
        assert installed in check.detail and spec in check.detail


# -- software found as itself ----------------------------------------------------------------


def test_a_dependency_with_the_right_version_does_not_make_the_app_available():
    # numpy 1.26.4 is a dependency of scipy, but numpy itself is installed as 1.19.5
    proposal = negotiate(Requirements(software=(sw("numpy", ">=1.24"),)), site(CPU_ONLY_SLURM, PIP))
    assert proposal.verdict is Verdict.INCOMPATIBLE
    check = check_for(proposal, "software: numpy")
    assert check.status is CheckStatus.UNSATISFIED
    assert "1.19.5 (pip)" in check.detail and ">=1.24" in check.detail
    assert "1.26.4" not in check.detail
    assert all(e.tool == "find_software" for e in check.evidence)


def test_gromacs_app_version_not_pooled_with_its_dependency_record():
    # spack lists gromacs 2023.3 only as a dependency of lammps; gromacs itself is 2021.1
    proposal = negotiate(
        Requirements(software=(sw("gromacs", ">=2023"),)), site(CPU_ONLY_SLURM, SPACK)
    )
    assert proposal.verdict is Verdict.INCOMPATIBLE
    assert "2021.1 (spack)" in check_for(proposal, "software").detail


def test_a_package_that_is_only_a_dependency_is_not_found():
    proposal = negotiate(Requirements(software=(sw("pandas"),)), site(CPU_ONLY_SLURM, SPACK, PIP))
    check = check_for(proposal, "software: pandas")
    assert check.status is CheckStatus.UNSATISFIED
    assert check.detail == "pandas not found by spack, pip"
    assert {e.provider for e in check.evidence} == {"spack", "pip"}


def test_software_found_by_any_provider_satisfies():
    proposal = negotiate(
        Requirements(software=(sw("python", ">=3.10"), sw("scipy"))),
        site(CPU_ONLY_SLURM, SPACK, PIP),
    )
    assert proposal.verdict is Verdict.READY
    assert "3.11.7 (spack)" in check_for(proposal, "software: python").detail


def test_no_software_provider():
    proposal = negotiate(Requirements(software=(sw("lammps"),)), site(CPU_ONLY_SLURM))
    check = check_for(proposal, "software")
    assert check.status is CheckStatus.UNSATISFIED
    assert check.detail == "no software provider at this site"
    assert proposal.verdict is Verdict.INCOMPATIBLE


# -- CPU / GPU clause ------------------------------------------------------------------------


def test_or_clause_accepts_a_cpu_only_partition_and_gives_the_cpu_price():
    compute = ComputeRequirement(cores_per_node=32, gpus_per_node=2, gpu_logic=GpuLogic.OR)
    proposal = negotiate(Requirements(compute=compute), site(CPU_ONLY_SLURM))
    assert proposal.verdict is Verdict.READY
    assert check_for(proposal, "compute").requirement == "compute: 32 cores/node or 2 GPUs/node"
    assert proposal.metrics.price_per_node_hour == 2.0


def test_and_clause_needs_both_cores_and_gpus():
    compute = ComputeRequirement(cores_per_node=32, gpus_per_node=2, gpu_logic=GpuLogic.AND)
    proposal = negotiate(Requirements(compute=compute), site(CPU_ONLY_SLURM))
    assert proposal.verdict is Verdict.INCOMPATIBLE
    assert "2 GPUs/node needed, it has 0" in check_for(proposal, "compute").detail
    # with a GPU partition present the same request fits there, at the GPU price
    ready = negotiate(Requirements(compute=compute), site(SLURM))
    assert ready.verdict is Verdict.READY
    assert ready.metrics.partition == "gpu"
    assert ready.metrics.price_per_node_hour == 10.0


def test_or_clause_falls_back_to_gpus_when_the_cores_do_not_fit():
    # 48 cores fit only "cpu"; 4 GPUs fit "gpu" (32 cores): with OR both partitions qualify
    compute = ComputeRequirement(
        cores_per_node=128, gpus_per_node=4, gpu_logic=GpuLogic.OR, gpu_model="a100"
    )
    proposal = negotiate(Requirements(compute=compute), site(SLURM))
    assert proposal.verdict is Verdict.READY
    assert proposal.metrics.partition == "gpu"
    assert proposal.metrics.price_per_node_hour == 10.0
    neither = ComputeRequirement(cores_per_node=128, gpus_per_node=8, gpu_logic=GpuLogic.OR)
    failed = negotiate(Requirements(compute=neither), site(SLURM))
    assert failed.verdict is Verdict.INCOMPATIBLE
    assert "neither 128 cores/node needed" in check_for(failed, "compute").detail


def test_or_with_only_the_gpu_side_named_makes_the_gpus_optional():
    # "runs on CPU or on 2 GPUs per node": a CPU-only site runs it on its CPUs
    compute = ComputeRequirement(gpus_per_node=2, gpu_logic=GpuLogic.OR)
    proposal = negotiate(Requirements(compute=compute), site(CPU_ONLY_SLURM))
    assert proposal.verdict is Verdict.READY
    assert "CPU only or 2 GPUs/node" in check_for(proposal, "compute").requirement


def test_zero_gpus_per_node_means_cpu_only_and_fits_without_gpus():
    compute = ComputeRequirement(cores_per_node=32, gpus_per_node=0)
    proposal = negotiate(Requirements(compute=compute), site(CPU_ONLY_SLURM))
    assert proposal.verdict is Verdict.READY
    assert check_for(proposal, "compute").requirement == "compute: 32 cores/node, no GPU"
    assert proposal.metrics.price_per_node_hour == 2.0


def test_gpu_model_is_a_case_insensitive_substring():
    ok = ComputeRequirement(gpus_per_node=2, gpu_model="a100")
    assert negotiate(Requirements(compute=ok), site(SLURM)).verdict is Verdict.READY
    wrong = ComputeRequirement(gpus_per_node=2, gpu_model="H100")
    proposal = negotiate(Requirements(compute=wrong), site(SLURM))
    assert proposal.verdict is Verdict.INCOMPATIBLE
    assert "H100 GPUs needed, it has A100-80GB" in check_for(proposal, "compute").detail


def test_total_cores_become_nodes():
    # 200 cores on 64-core nodes: 4 nodes, and "cpu" has exactly 4 free
    proposal = negotiate(Requirements(compute=ComputeRequirement(total_cores=200)), site(SLURM))
    assert proposal.verdict is Verdict.READY
    assert proposal.metrics.partition == "cpu"
    assert proposal.metrics.estimated_cost_usd == pytest.approx(4 * 2.0)
    assert "4 nodes needed" in check_for(proposal, "compute").detail
    # 300 cores: 5 nodes, more than are free: BUSY
    busy = negotiate(Requirements(compute=ComputeRequirement(total_cores=300)), site(SLURM))
    assert busy.verdict is Verdict.BUSY
    assert "5 nodes needed" in check_for(busy, "compute").detail


def test_total_cores_with_a_node_count_is_spread_per_node():
    # 100 cores on 1 node exceed the 64-core nodes; on 2 nodes it is 50 per node
    one = ComputeRequirement(nodes=1, total_cores=100)
    assert (
        negotiate(Requirements(compute=one), site(CPU_ONLY_SLURM)).verdict is Verdict.INCOMPATIBLE
    )
    two = ComputeRequirement(nodes=2, total_cores=100)
    assert negotiate(Requirements(compute=two), site(CPU_ONLY_SLURM)).verdict is Verdict.READY


# -- container: checked for real, and the software still checked -----------------------------


def test_container_present_but_software_missing_is_incompatible():
    req = Requirements(
        software=(sw("lammps", ">=2023"),), container=ContainerRequirement(runtime="apptainer")
    )
    proposal = negotiate(req, site(CPU_ONLY_SLURM, APPTAINER, PIP))
    assert proposal.verdict is Verdict.INCOMPATIBLE
    assert check_for(proposal, "container").status is CheckStatus.SATISFIED
    assert check_for(proposal, "software").status is CheckStatus.UNSATISFIED
    assert "software: lammps >=2023 is not met" in proposal.reason


def test_container_runtime_missing_is_incompatible():
    req = Requirements(container=ContainerRequirement(runtime="apptainer"))
    proposal = negotiate(req, site(CPU_ONLY_SLURM))
    assert proposal.verdict is Verdict.INCOMPATIBLE
    assert check_for(proposal, "container").detail == "no container runtime at this site"
    other = negotiate(
        Requirements(container=ContainerRequirement(runtime="docker")),
        site(CPU_ONLY_SLURM, APPTAINER),
    )
    assert other.verdict is Verdict.INCOMPATIBLE
    assert "apptainer 1.2.5 is not docker" in check_for(other, "container").detail


def test_apptainer_and_singularity_are_one_runtime_family():
    req = Requirements(container=ContainerRequirement(runtime="apptainer"))
    proposal = negotiate(req, site(CPU_ONLY_SLURM, SINGULARITY))
    assert proposal.verdict is Verdict.READY
    detail = check_for(proposal, "container").detail
    assert "singularity 3.8.7" in detail and "same runtime family" in detail
    reverse = negotiate(
        Requirements(container=ContainerRequirement(runtime="Singularity")),
        site(CPU_ONLY_SLURM, APPTAINER),
    )
    assert reverse.verdict is Verdict.READY


def test_container_versions_and_rootless():
    ge = (VersionConstraint(op=Comparator.GE, version="1.2"),)
    ok = negotiate(
        Requirements(
            container=ContainerRequirement(runtime="apptainer", constraints=ge, rootless=True)
        ),
        site(CPU_ONLY_SLURM, APPTAINER),
    )
    assert ok.verdict is Verdict.READY
    too_new = (VersionConstraint(op=Comparator.GE, version="1.3"),)
    old = negotiate(
        Requirements(container=ContainerRequirement(runtime="apptainer", constraints=too_new)),
        site(CPU_ONLY_SLURM, APPTAINER),
    )
    assert old.verdict is Verdict.INCOMPATIBLE
    not_rootless = negotiate(
        Requirements(container=ContainerRequirement(runtime="singularity", rootless=True)),
        site(CPU_ONLY_SLURM, SINGULARITY),
    )
    assert "does not run rootless" in check_for(not_rootless, "container").detail
    # apptainer restarted its numbering after singularity 3.x: an alias cannot be version-judged
    alias = negotiate(
        Requirements(container=ContainerRequirement(runtime="apptainer", constraints=ge)),
        site(CPU_ONLY_SLURM, SINGULARITY),
    )
    assert check_for(alias, "container").status is CheckStatus.UNKNOWN
    assert alias.verdict is Verdict.UNKNOWN


def test_any_container_runtime():
    req = Requirements(container=ContainerRequirement(runtime="any"))
    assert negotiate(req, site(CPU_ONLY_SLURM, SINGULARITY)).verdict is Verdict.READY
    assert negotiate(req, site(CPU_ONLY_SLURM)).verdict is Verdict.INCOMPATIBLE


# -- network and storage ---------------------------------------------------------------------


def test_low_latency_needs_an_rdma_class_fabric():
    req = Requirements(network=NetworkRequirement(low_latency=True))
    ib = negotiate(req, site(CPU_ONLY_SLURM, INFINIBAND))
    assert ib.verdict is Verdict.READY
    assert "ib0" in check_for(ib, "network").detail
    eth = negotiate(req, site(CPU_ONLY_SLURM, ETHERNET_ONLY))
    assert eth.verdict is Verdict.INCOMPATIBLE
    assert "eth0 (ethernet 100 Gbps, up)" in check_for(eth, "network").detail


def test_named_fabric_alias_and_speed():
    opa = """
    - name: net
      kind: network
      facts: {interfaces: [{name: hfi1_0, fabric: opa, speed_gbps: 100}]}
    """
    req = Requirements(network=NetworkRequirement(fabric=Fabric.OMNIPATH, min_speed_gbps=100))
    assert negotiate(req, site(CPU_ONLY_SLURM, opa)).verdict is Verdict.READY
    fast_ib = Requirements(network=NetworkRequirement(fabric=Fabric.INFINIBAND, min_speed_gbps=400))
    assert negotiate(fast_ib, site(CPU_ONLY_SLURM, INFINIBAND)).verdict is Verdict.INCOMPATIBLE
    # the slow ethernet port cannot combine with the fast IB port to meet "ethernet >= 100"
    eth_fast = Requirements(network=NetworkRequirement(fabric=Fabric.ETHERNET, min_speed_gbps=100))
    assert negotiate(eth_fast, site(CPU_ONLY_SLURM, INFINIBAND)).verdict is Verdict.INCOMPATIBLE


def test_no_network_provider():
    req = Requirements(network=NetworkRequirement(fabric=Fabric.INFINIBAND))
    proposal = negotiate(req, site(CPU_ONLY_SLURM))
    assert check_for(proposal, "network").detail == "no network provider at this site"
    assert proposal.verdict is Verdict.INCOMPATIBLE


def test_storage_kind_and_free_space():
    parallel = Requirements(
        storage=(StorageRequirement(kind=StorageKind.PARALLEL, min_free_gb=1000),)
    )
    ok = negotiate(parallel, site(CPU_ONLY_SLURM, LUSTRE))
    assert ok.verdict is Verdict.READY
    assert "lustre /scratch" in check_for(ok, "storage").detail
    nfs = negotiate(parallel, site(CPU_ONLY_SLURM, NFS_ONLY))
    assert nfs.verdict is Verdict.INCOMPATIBLE
    assert "no parallel file system (lustre, gpfs, beegfs)" in check_for(nfs, "storage").detail
    big = Requirements(storage=(StorageRequirement(kind=StorageKind.LUSTRE, min_free_gb=6000),))
    small = negotiate(big, site(CPU_ONLY_SLURM, LUSTRE))
    assert small.verdict is Verdict.INCOMPATIBLE
    assert "no lustre file system has 6000 GB free" in check_for(small, "storage").detail
    anything = Requirements(storage=(StorageRequirement(kind=StorageKind.ANY, min_free_gb=8000),))
    assert negotiate(anything, site(CPU_ONLY_SLURM, LUSTRE)).verdict is Verdict.READY


def test_each_storage_item_is_its_own_check():
    req = Requirements(
        storage=(StorageRequirement(kind=StorageKind.NFS), StorageRequirement(kind=StorageKind.S3))
    )
    proposal = negotiate(req, site(CPU_ONLY_SLURM, LUSTRE))
    statuses = [c.status for c in proposal.checks if c.category is Category.STORAGE]
    assert statuses == [CheckStatus.SATISFIED, CheckStatus.UNSATISFIED]


# -- MPI ---------------------------------------------------------------------------------------


def test_mpi_from_an_mpi_provider_with_alias_and_version():
    ge = (VersionConstraint(op=Comparator.GE, version="4.1"),)
    req = Requirements(mpi=MPIRequirement(implementation="ompi", constraints=ge))
    proposal = negotiate(req, site(CPU_ONLY_SLURM, OPENMPI))
    assert proposal.verdict is Verdict.READY
    check = check_for(proposal, "mpi")
    assert check.category is Category.PARALLEL
    assert "openmpi 4.1.5 from MPI provider mpi" in check.detail
    mpich = negotiate(
        Requirements(mpi=MPIRequirement(implementation="mpich")), site(CPU_ONLY_SLURM, OPENMPI)
    )
    assert mpich.verdict is Verdict.INCOMPATIBLE


def test_mpi_falls_back_to_a_module_or_package():
    ge = (VersionConstraint(op=Comparator.GE, version="4.1.6"),)
    req = Requirements(mpi=MPIRequirement(implementation="open-mpi", constraints=ge))
    # the MPI provider has 4.1.5 (too old); spack has 4.1.6
    proposal = negotiate(req, site(CPU_ONLY_SLURM, OPENMPI, SPACK))
    check = check_for(proposal, "mpi")
    assert check.status is CheckStatus.SATISFIED
    assert "no MPI provider has it" in check.detail and "openmpi 4.1.6" in check.detail
    assert {e.tool for e in check.evidence} == {"mpi_info", "find_software"}
    any_mpi = negotiate(Requirements(mpi=MPIRequirement()), site(CPU_ONLY_SLURM, SPACK))
    assert any_mpi.verdict is Verdict.READY


def test_mpi_missing_everywhere():
    req = Requirements(mpi=MPIRequirement(implementation="intel-mpi"))
    proposal = negotiate(req, site(CPU_ONLY_SLURM, SPACK, OPENMPI))
    assert proposal.verdict is Verdict.INCOMPATIBLE
    nothing = negotiate(req, site(CPU_ONLY_SLURM))
    assert check_for(nothing, "mpi").detail == "intel-mpi not found by any MPI or software provider"


# -- site policy: exposed partitions and budget ----------------------------------------------


def test_exposed_partitions_are_respected():
    req = Requirements(compute=ComputeRequirement(nodes=2, cores_per_node=16))
    proposal = negotiate(req, site(SLURM), context(exposed_partitions=("debug",)))
    assert proposal.metrics.partition == "debug"
    hidden_gpu = Requirements(compute=ComputeRequirement(gpus_per_node=1))
    no_gpu = negotiate(hidden_gpu, site(SLURM), context(exposed_partitions=("cpu", "debug")))
    assert no_gpu.verdict is Verdict.INCOMPATIBLE
    missing = negotiate(req, site(SLURM), context(exposed_partitions=("nope",)))
    assert missing.verdict is Verdict.INCOMPATIBLE
    detail = check_for(missing, "compute").detail
    assert detail == "none of the exposed partitions (nope) exists at this site"
    # partitions the site does not offer are never named to the requester, not even in evidence
    assert "'gpu'" not in check_for(no_gpu, "compute").detail
    (evidence,) = check_for(no_gpu, "compute").evidence
    assert [p["name"] for p in evidence.result] == ["cpu", "debug"]


def test_budget():
    compute = ComputeRequirement(nodes=2, cores_per_node=32, walltime_s=3 * 3600)
    within = negotiate(Requirements(compute=compute, budget_usd=12), site(SLURM))
    assert within.verdict is Verdict.READY
    budget = check_for(within, "budget")
    assert budget.status is CheckStatus.SATISFIED
    assert "$12.00" in budget.detail
    assert budget.evidence == check_for(within, "compute").evidence
    over = negotiate(Requirements(compute=compute, budget_usd=11.99), site(SLURM))
    assert over.verdict is Verdict.INCOMPATIBLE
    assert "over the $11.99 budget" in check_for(over, "budget").detail
    unpriced = negotiate(
        Requirements(compute=compute, budget_usd=100), site(SLURM), context(prices=Prices())
    )
    assert check_for(unpriced, "budget").status is CheckStatus.UNKNOWN
    assert unpriced.verdict is Verdict.UNKNOWN
    assert unpriced.metrics.estimated_cost_usd is None


def test_budget_prefers_a_partition_within_budget():
    # CPU-or-GPU job: on "gpu" it would use GPUs (dearer); on "cpu" only cores. Both fit.
    compute = ComputeRequirement(cores_per_node=16, gpus_per_node=1, gpu_logic=GpuLogic.OR)
    proposal = negotiate(Requirements(compute=compute, budget_usd=3), site(SLURM))
    assert proposal.verdict is Verdict.READY
    assert proposal.metrics.estimated_cost_usd == pytest.approx(2.0)


# -- sites without a workload manager --------------------------------------------------------


def test_a_machine_without_a_workload_manager_is_one_node():
    idle = site(CPU_HW.replace("{load}", "0.1"), MEMORY_HW, GPU_HW)
    req = Requirements(
        compute=ComputeRequirement(cores_per_node=8, gpus_per_node=2, gpu_model="a100")
    )
    proposal = negotiate(req, idle)
    assert proposal.verdict is Verdict.READY
    compute = check_for(proposal, "compute")
    assert compute.category is Category.HARDWARE
    assert {e.tool for e in compute.evidence} == {"cpu_info", "memory_info", "gpu_info"}
    assert proposal.metrics.partition == NODE_PARTITION
    assert (proposal.metrics.total_nodes, proposal.metrics.free_nodes) == (1, 1)
    loaded = site(CPU_HW.replace("{load}", "0.97"), MEMORY_HW)
    assert (
        negotiate(Requirements(compute=ComputeRequirement(cores_per_node=8)), loaded).verdict
        is Verdict.BUSY
    )
    big = Requirements(compute=ComputeRequirement(memory_gb_per_node=128))
    assert negotiate(big, idle).verdict is Verdict.INCOMPATIBLE
    two_nodes = Requirements(compute=ComputeRequirement(nodes=2))
    assert negotiate(two_nodes, idle).verdict is Verdict.INCOMPATIBLE


def test_no_capacity_provider_at_all_is_unknown():
    proposal = negotiate(Requirements(software=(sw("numpy"),)), site(PIP))
    assert check_for(proposal, "compute").status is CheckStatus.UNKNOWN
    assert proposal.verdict is Verdict.UNKNOWN


# -- failing providers never raise -----------------------------------------------------------


class BrokenSoftware(SoftwareProvider):
    """A package manager whose search fails (e.g. a Spack database that is locked)."""

    name = "broken"

    def _probe(self) -> SoftwareFacts:
        return SoftwareFacts(manager="broken")

    def find_software(self, name: str) -> list[SoftwarePackage]:
        raise ProviderError("package database is locked", transient=True)


class CrashingWorkload(WorkloadProvider):
    """A workload manager whose partition listing has a bug."""

    name = "crashy"

    def _probe(self) -> WorkloadFacts:
        return WorkloadFacts(manager="crashy")

    def list_partitions(self) -> list[Partition]:
        raise RuntimeError("unexpected sinfo output")


class GarbledNetwork(NetworkProvider):
    """A network provider whose tool answers in the wrong shape."""

    name = "garbled"

    def _probe(self) -> NetworkFacts:
        return NetworkFacts()

    def list_interfaces(self) -> list[NetworkInterface]:
        return ["ib0 up"]  # type: ignore[list-item]


class UnreadableProbe(SoftwareProvider):
    """A package manager that is installed but cannot be read at all."""

    name = "unreadable"

    def _probe(self) -> SoftwareFacts:
        raise ProviderError("spack: permission denied")


def test_a_failing_tool_makes_the_check_unknown():
    proposal = negotiate(
        Requirements(software=(sw("lammps"),)), site(CPU_ONLY_SLURM, extra=[BrokenSoftware()])
    )
    check = check_for(proposal, "software")
    assert check.status is CheckStatus.UNKNOWN
    assert "package database is locked" in check.detail
    assert check.evidence[0].error == "package database is locked"
    assert proposal.verdict is Verdict.UNKNOWN


def test_another_provider_can_still_satisfy_next_to_a_failing_one():
    proposal = negotiate(
        Requirements(software=(sw("lammps", ">=2023"),)),
        site(CPU_ONLY_SLURM, SPACK, extra=[BrokenSoftware()]),
    )
    assert proposal.verdict is Verdict.READY


def test_a_crashing_workload_tool_makes_compute_unknown():
    proposal = negotiate(
        Requirements(compute=ComputeRequirement(nodes=1)), site(extra=[CrashingWorkload()])
    )
    compute = check_for(proposal, "compute")
    assert compute.status is CheckStatus.UNKNOWN
    assert "RuntimeError: unexpected sinfo output" in compute.detail
    assert proposal.verdict is Verdict.UNKNOWN


def test_an_unreadable_answer_makes_the_check_unknown():
    req = Requirements(network=NetworkRequirement(fabric=Fabric.INFINIBAND))
    proposal = negotiate(req, site(CPU_ONLY_SLURM, extra=[GarbledNetwork()]))
    check = check_for(proposal, "network")
    assert check.status is CheckStatus.UNKNOWN
    assert "garbled.list_interfaces returned an unreadable answer" in check.detail
    assert proposal.verdict is Verdict.UNKNOWN


def test_a_provider_whose_probe_fails_still_counts_and_makes_checks_unknown():
    # A software provider that exists but cannot be read must not look absent.
    alone = negotiate(
        Requirements(software=(sw("lammps"),)), site(CPU_ONLY_SLURM, extra=[UnreadableProbe()])
    )
    assert check_for(alone, "software").status is CheckStatus.UNKNOWN
    assert "permission denied" in check_for(alone, "software").detail
    assert alone.verdict is Verdict.UNKNOWN
    # ...but another provider that finds the package still settles the check.
    both = negotiate(
        Requirements(software=(sw("lammps"),)),
        site(CPU_ONLY_SLURM, SPACK, extra=[UnreadableProbe()]),
    )
    assert both.verdict is Verdict.READY


class UnreadableScheduler(WorkloadProvider):
    """A scheduler that is installed but whose probe fails (sinfo timed out)."""

    name = "slurm"

    def _probe(self) -> WorkloadFacts:
        raise ProviderError("sinfo did not finish within 10 s", transient=True)


def test_a_failed_scheduler_probe_never_falls_back_to_the_login_node():
    proposal = negotiate(
        Requirements(compute=ComputeRequirement(nodes=1)),
        site(CPU_HW.replace("{load}", "0.1"), MEMORY_HW, extra=[UnreadableScheduler()]),
    )
    compute = check_for(proposal, "compute")
    assert compute.status is CheckStatus.UNKNOWN
    assert proposal.verdict is Verdict.UNKNOWN


# -- shape of the proposal -------------------------------------------------------------------


def test_empty_requirements_need_information_and_call_no_tool():
    session = site(SLURM, SPACK)
    proposal = negotiate(Requirements(source_text="run my thing"), session)
    assert proposal.verdict is Verdict.NEEDS_INFORMATION
    assert proposal.missing == tuple(Requirements().missing())
    assert proposal.checks == ()
    assert session.evidence == []
    assert "must say" in proposal.reason


def full_request() -> Requirements:
    return Requirements(
        software=(sw("lammps", ">=2023"), sw("python", ">=3.10")),
        compute=ComputeRequirement(nodes=2, cores_per_node=32),
        network=NetworkRequirement(low_latency=True),
        storage=(
            StorageRequirement(kind=StorageKind.PARALLEL, min_free_gb=100),
            StorageRequirement(kind=StorageKind.NFS),
        ),
        container=ContainerRequirement(runtime="apptainer"),
        mpi=MPIRequirement(implementation="openmpi"),
        budget_usd=100,
    )


def test_checks_follow_the_requirement_order_and_all_carry_evidence():
    session = site(SLURM, SPACK, APPTAINER, LUSTRE, INFINIBAND, OPENMPI)
    proposal = negotiate(full_request(), session)
    assert proposal.verdict is Verdict.READY, proposal.reason
    assert [c.requirement for c in proposal.checks] == [
        "software: lammps >=2023",
        "software: python >=3.10",
        "compute: 2 nodes, 32 cores/node",
        "network: low latency",
        "storage: parallel, >= 100 GB free",
        "storage: nfs",
        "container: apptainer",
        "mpi: openmpi",
        "budget: <= $100.00",
    ]
    assert [c.category for c in proposal.checks] == [
        Category.SOFTWARE,
        Category.SOFTWARE,
        Category.WORKLOAD,
        Category.NETWORK,
        Category.STORAGE,
        Category.STORAGE,
        Category.CONTAINER,
        Category.PARALLEL,
        Category.WORKLOAD,
    ]
    assert all(c.evidence for c in proposal.checks)
    tools = [{e.tool for e in c.evidence} for c in proposal.checks]
    assert tools == [
        {"find_software"},
        {"find_software"},
        {"list_partitions"},
        {"list_interfaces"},
        {"list_filesystems"},
        {"list_filesystems"},
        {"runtime_info"},
        {"mpi_info"},
        {"list_partitions"},
    ]
    # every call the session made belongs to a check (the budget reuses the compute evidence)
    assert len(session.evidence) == sum(len(c.evidence) for c in proposal.checks[:-1])


def test_incompatible_reason_names_every_failing_requirement():
    session = site(CPU_ONLY_SLURM, PIP, NFS_ONLY, ETHERNET_ONLY)
    proposal = negotiate(full_request(), session)
    assert proposal.verdict is Verdict.INCOMPATIBLE
    failing = [c.requirement for c in proposal.failing_checks()]
    assert failing == [
        "software: lammps >=2023",
        "software: python >=3.10",
        "network: low latency",
        "storage: parallel, >= 100 GB free",
        "container: apptainer",
        "mpi: openmpi",
    ]
    for requirement in failing:
        assert requirement in proposal.reason
    assert proposal.reason.startswith("The job cannot run here: ") and proposal.reason.endswith(".")


def test_the_proposal_round_trips_as_json():
    proposal = negotiate(full_request(), site(SLURM, SPACK, APPTAINER, LUSTRE, INFINIBAND, OPENMPI))
    again = Proposal.model_validate_json(proposal.model_dump_json())
    assert again.checks == proposal.checks and again.verdict is proposal.verdict
