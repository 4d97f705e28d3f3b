"""Quantities in structured and machine-written requests are read, with their units.

Tools, agents and workflow systems write amounts in their own conventions: Kubernetes
quantities (``120Gi``, ``4000m``), key suffixes that name the unit (``disk_mb``, ``mem_mib``),
CWL's ``ResourceRequirement`` (``ramMin`` in mebibytes), units in ``# comments``, Slurm's
``--tmp`` (megabytes when bare), tool-call ``arguments`` objects, YAML flow mappings, markdown
tables of key and value. Each is read as the words would be; a value whose meaning cannot be
told stays quoted in ``unresolved``. The texts are written for the tests.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements
from providers.wire.requirements import Fabric, GpuVendor, StorageKind

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)
GIB = 1024**3 / 1e9
MIB = 1024**2 / 1e9


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def storage(req: Requirements) -> list[tuple[StorageKind | None, float | None]]:
    return [(s.kind, s.min_free_gb) for s in req.storage]


# -- Kubernetes quantities -----------------------------------------------------------------------


def test_kubernetes_cpu_millicores_and_device_plugin_gpus() -> None:
    req = parse(
        "spec:\n  resources:\n    limits:\n      cpu: 8000m\n      nvidia.com/gpu: 2\n"
        "      ephemeral-storage: 100Gi\n"
    )
    assert req.compute.total_cores == 8
    assert req.compute.gpus_per_node == 2
    assert req.compute.gpu_vendor == GpuVendor.NVIDIA
    assert storage(req)[0][1] == pytest.approx(100 * GIB, rel=1e-6)
    amd = parse("resources:\n  limits:\n    amd.com/gpu: 4\n")
    assert (amd.compute.gpus_per_node, amd.compute.gpu_vendor) == (4, GpuVendor.AMD)


def test_fractional_millicores_stay_quoted() -> None:
    req = parse("resources:\n  requests:\n    cpu: 250m\n    memory: 1Gi\n")
    assert req.compute.total_cores is None
    assert any("250m" in u for u in req.unresolved)


# -- units named by the key, the comment or the standard -------------------------------------


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("disk_mb=250000", 250.0),
        ("scratch_mib: 102400", 102400 * MIB),
        ("[job]\nlocal_disk_gib = 200\n", 200 * GIB),
        ("scratch_tb: 3", 3000.0),
        ("resources: {disk_mb: 80000, mem_mb: 4000}", 80.0),
    ],
)
def test_storage_keys_scale_by_their_unit_suffix(text: str, size: float) -> None:
    assert storage(parse(text))[0][1] == pytest.approx(size, rel=1e-6)


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("mem_mib = 65536", 65536 * MIB),
        ("ram_gib: 24", 24 * GIB),
        ("memory_mb: 12000", 12.0),
        ("ram_max: 16000  # MB", 16.0),
        ("memory: 48  # GiB", 48 * GIB),
        ("resources:\n  requests:\n    memory: 64Gi\n", 64 * GIB),
        ("resources:\n  limits:\n    memory: 16384Mi\n", 16384 * MIB),
        ('{"resources": {"requests": {"memory": "1Ti"}}}', 1024 * GIB),
        ("memory: 500M\ncpu: 2\n", 0.5),
    ],
)
def test_memory_units_from_key_comment_or_kubernetes_suffix(text: str, memory: float) -> None:
    assert parse(text).compute.memory_gb_per_node == pytest.approx(memory, rel=1e-6)


def test_cwl_resource_requirement_counts_mebibytes() -> None:
    req = parse(
        "cwlVersion: v1.2\nrequirements:\n  ResourceRequirement:\n    coresMin: 12\n"
        "    ramMin: 32768\n    tmpdirMin: 51200\n    outdirMin: 10240\n"
        "  DockerRequirement:\n    dockerPull: quay.io/biocontainers/salmon:1.10.3\n"
    )
    assert req.compute.total_cores == 12
    assert req.compute.memory_gb_per_node == pytest.approx(32768 * MIB, rel=1e-6)
    kinds = dict(storage(req))
    assert kinds[StorageKind.LOCAL] == pytest.approx(51200 * MIB, rel=1e-6)
    assert req.container is not None and req.container.runtime == "docker"


def test_cwl_flow_mapping_packages_keep_their_versions() -> None:
    req = parse(
        "requirements:\n  - class: SoftwareRequirement\n    packages:\n"
        '      - {package: salmon, version: ["1.10.3"]}\n'
        "      - {package: fastp, version: [0.23.4]}\n"
    )
    versions = {s.name: [c.version for c in s.constraints] for s in req.software}
    assert versions["salmon"] == ["1.10.3"]
    assert versions["fastp"] == ["0.23.4"]


def test_min_suffix_is_a_minimum_not_minutes_except_for_time() -> None:
    req = parse("cores_min: 24\nruntime_min: 90\n")
    assert req.compute.total_cores == 24
    assert req.compute.walltime_s == 5400


def test_comment_that_repeats_the_measure_is_read() -> None:
    req = parse("rule: align\n  threads: 24   # cores\n")
    assert req.compute.total_cores == 24


def test_comment_with_other_words_stays_quoted() -> None:
    req = parse("threads: 16  # per rank, needs AVX-512\n")
    assert any("AVX-512" in u for u in req.unresolved)


@pytest.mark.parametrize(
    "text",
    [
        "dataset_size_mb: 52000\nnodes: 2\n",
        "input_size_gb = 300",
        "reference_mb: 3100",
    ],
)
def test_sizes_of_data_are_not_free_space(text: str) -> None:
    req = parse(text)
    assert not req.storage
    assert req.compute.memory_gb_per_node is None
    assert req.unresolved  # a number no field holds: quoted, never dropped


# -- Slurm's local scratch ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("#SBATCH --tmp=400G\n#SBATCH -N 1\n", 400.0),
        ("sbatch --tmp=250000 -N 1 run.sh", 250.0),
        ("srun --tmp=1T --nodes=2 ./a.out", 1000.0),
    ],
)
def test_slurm_tmp_is_local_scratch(text: str, size: float) -> None:
    assert storage(parse(text)) == [(StorageKind.LOCAL, pytest.approx(size))]


# -- nested objects: tool calls, schedules, tables ----------------------------------------------


def test_tool_call_arguments_are_read() -> None:
    req = parse(
        '{"name": "submit", "arguments": {"walltime": "01:30:00", "mem": "96GB", '
        '"gpu": {"count": 3}, "deadline": "2026-05-15T12:00:00Z"}}'
    )
    assert req.compute.walltime_s == 5400
    assert req.compute.memory_gb_per_node == 96
    assert req.compute.gpus_per_node == 3
    assert req.deadline == datetime(2026, 5, 15, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("key", ["notAfter", "not_after", "need_by", "complete_by"])
def test_deadline_keys(key: str) -> None:
    req = parse(f"schedule:\n  {key}: 2026-05-14T08:00:00Z\n")
    assert req.deadline == datetime(2026, 5, 14, 8, 0, tzinfo=UTC)


def test_yaml_flow_mapping_is_read_as_its_keys() -> None:
    req = parse("arguments: {nodes: 3, walltime: '06:00:00', mem: 192G}\n")
    assert req.compute.nodes == 3
    assert req.compute.walltime_s == 21600
    assert req.compute.memory_gb_per_node == 192


def test_markdown_table_rows_are_keys_and_values() -> None:
    req = parse(
        "| what | amount |\n|---|---|\n| nodes | 8 |\n| GPUs | 32 in total, 4 per node |\n"
        "| walltime | 06:00:00 |\n| output | 3 TB free on Lustre |\n"
    )
    assert req.compute.nodes == 8
    assert (req.compute.gpus_per_node, req.compute.total_gpus) == (4, 32)
    assert req.compute.walltime_s == 21600
    assert storage(req) == [(StorageKind.LUSTRE, 3000.0)]


def test_output_file_key_is_still_bookkeeping() -> None:
    req = parse("output: slurm-%j.out\nnodes: 2\n")
    assert req.compute.nodes == 2
    assert not req.storage and not req.software


def test_inconsistent_total_is_not_kept_beside_per_node() -> None:
    req = parse("nodes: 4\ngpus_per_node: 4\ntotal_gpus: 6\n")
    assert req.compute.gpus_per_node == 4
    assert req.compute.total_gpus is None


# -- package objects with a build ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "variant"),
    [
        ('{"app": {"name": "gromacs", "version": "2024.3", "build": "CUDA"}}', "+cuda"),
        ('{"code": {"name": "lammps", "version": "2023.08", "variants": "+kokkos"}}', "+kokkos"),
        ('{"software": [{"name": "cp2k", "build": "ROCm"}]}', "+rocm"),
    ],
)
def test_build_key_of_a_package_object_is_a_variant(text: str, variant: str) -> None:
    (package,) = parse(text).software
    assert variant in package.variants


# -- fabric and speed --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fabric", "speed"),
    [
        ("IB 200G between the nodes", Fabric.INFINIBAND, 200),
        ("network: InfiniBand at 400G", Fabric.INFINIBAND, 400),
        ("needs Ethernet 25G links", Fabric.ETHERNET, 25),
        ("on NDR 400 InfiniBand", Fabric.INFINIBAND, 400),
    ],
)
def test_speed_after_the_fabric(text: str, fabric: Fabric, speed: float) -> None:
    req = parse(text)
    assert req.network.fabric == fabric
    assert req.network.min_speed_gbps == speed


def test_fabric_then_a_count_is_no_speed() -> None:
    req = parse("IB 4 nodes, 8 GB memory")
    assert req.network.min_speed_gbps is None


# -- Spack dependencies ----------------------------------------------------------------------


def test_spack_dependency_spec_is_required() -> None:
    req = parse("spack install hypre@2.31 +cuda ^mpich@4.2.1 ^hdf5@1.14")
    assert req.mpi is not None and req.mpi.implementation == "mpich"
    assert [c.version for c in req.mpi.constraints] == ["4.2.1"]
    assert {"hypre", "hdf5"} <= {s.name for s in req.software}


def test_image_of_a_known_package_names_it_and_a_lab_image_does_not() -> None:
    req = parse("image: docker://quay.io/biocontainers/salmon:1.10.3\ncpus: 4\n")
    assert [(s.name, [c.version for c in s.constraints]) for s in req.software] == [
        ("salmon", ["1.10.3"])
    ]
    assert not parse("image: ghcr.io/mylab/alignpipe:0.4\ncpus: 4\n").software


@pytest.mark.parametrize(
    "text",
    [
        "Every job is single-core with 2 GB per core; about 2,500 cores in total for 8 hours.",
        "ncpus: 1\ntotal_cores: 640\n",
        "The code is 1 core per run, so 300 cores altogether.",
    ],
)
def test_stated_total_outranks_a_conflicting_unscoped_count(text: str) -> None:
    req = parse(text)
    assert req.compute.total_cores not in (None, 1)


def test_first_unscoped_count_still_wins_without_a_stated_total() -> None:
    assert parse("cores: 64\nncpus: 32\n").compute.total_cores == 64
