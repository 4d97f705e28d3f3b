"""GPU memory, keys read word by word, batch-script resources and storage with a kind.

Failure classes found when the dev-h, dev-i and dev-j wording was first read, stated here in
sentences written for the tests:

- GPU memory has no field. In every form (a key, a flag, "GPUs with 80 GB", "48 GB per GPU")
  it must be quoted as unresolved and never become the node's memory: a wrong memory reading
  with nothing quoted is a silent false READY.
- A key is a path of words: the measure (``gpu``, ``threads``, ``machines``), the scope
  (``per_box``, ``per_node``, ``each``, ``total``, ``per_core``) and a unit suffix (``_gb``,
  ``_h``, ``_hours``, ``_min``). Keys with words the reader does not know are not guessed.
- Scheduler resources the reader cannot size (PBS chunk keys, LSF ``rusage``, Flux's per-task
  GPUs, ``-c`` next to a job-wide task count) are quoted, never dropped.
- A size and a storage kind in one phrase are one storage need ("20 TB of scratch on a
  parallel filesystem", ``disk=2TB(local)``, ``filesystem: parallel, >= 20 TB free``).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements
from providers.wire.requirements import Feature, GpuVendor, StorageKind

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def quoted(req: Requirements) -> str:
    return " | ".join(req.unresolved).lower()


def storage(req: Requirements) -> list[tuple[StorageKind, float | None]]:
    return [(s.kind, s.min_free_gb) for s in req.storage]


# -- GPU memory is quoted, never node memory ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("gpus: 2\ngpu_mem: 40GB\nwalltime: 3:00:00", "40"),
        ("gpu_memory = 24 GB, nodes = 1", "24"),
        ("vram: 48G\ncores: 16", "48"),
        ("gpu_ram: 80gb\nnodes: 1", "80"),
        ("mem_per_gpu: 32G\ngpus_per_node: 4", "32"),
        ("vram_gb = 16\nhours = 2", "16"),
        ('{"gpuMemory": "94GB", "gpus": 1}', "94"),
        ("min_gpu_memory_gb: 40\nnum_gpus: 2", "40"),
        ("mem/gpu: 40GB\ngpus/node: 4", "40"),
        ("sbatch -N 1 --gres=gpu:2 --mem-per-gpu=20G job.sh", "20"),
        ("#PBS -l select=1:ncpus=16:ngpus=2:gpu_mem=40gb\n#PBS -l walltime=2:00:00", "40"),
        ("I need 2 GPUs with 80 GB for fine-tuning, one node", "80"),
        ("one node, at least 40 GB of VRAM, 6 hours", "40"),
        ("a pair of GPUs, 48 GB per GPU, about a day", "48"),
        ("each GPU needs 24 GB, 1 node, 3 hours", "24"),
        ("GPU memory of 80 GB, 4 GPUs on one node", "80"),
        ("two L40S GPUs (48 GB each) and 64 GB RAM", "48"),
        ("a GPU with at least 16GB memory, 128 GB RAM", "16"),
        ("4 H100 GPUs with 80GB of HBM3 and 1 TB of RAM on a single node", "80"),
        ("1 node, GPUs must have 40 GB, 2 hours", "40"),
        ("2 nodes with 4 GPUs each, 80GB/gpu", "80"),
    ],
)
def test_gpu_memory_is_quoted_and_never_node_memory(text: str, size: str) -> None:
    req = parse(text)
    assert size in quoted(req), req.unresolved
    node_memory = req.compute.memory_gb_per_node
    assert node_memory is None or str(int(node_memory)) != size


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("1 node with 4 GPUs and 256 GB, 10 hours", 256),
        ("2 GPU nodes with 512 GB each", 512),
        ("gpus: 2\nmem: 128G", 128),
        ("a GPU job, 64 GB RAM", 64),
        ("ram_per_node_gb: 96\ngpus: 1", 96),
    ],
)
def test_node_memory_next_to_gpus_is_still_node_memory(text: str, memory: int) -> None:
    req = parse(text)
    assert req.compute.memory_gb_per_node == memory
    assert not any(str(memory) in u for u in req.unresolved)


# -- keys read word by word --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("machines: 3\nthreads_per_machine: 24", {"nodes": 3, "cores_per_node": 24}),
        ("hosts=2 cores_per_host=40", {"nodes": 2, "cores_per_node": 40}),
        ("servers: 4\ngpus_each: 2", {"nodes": 4, "gpus_per_node": 2}),
        ("boxes: 5\ngpu_per_box: 8", {"nodes": 5, "gpus_per_node": 8}),
        ("node_count: 6\nper_node_gpu: 4", {"nodes": 6, "gpus_per_node": 4}),
        ("instances: 2\nvcpus_per_instance: 96", {"nodes": 2, "cores_per_node": 96}),
        ("n_cores=48", {"total_cores": 48}),
        ("num_procs: 512", {"total_cores": 512}),
        ("total_gpu_count: 16\nnodes: 4", {"total_gpus": 16, "nodes": 4}),
        ("numGpus: 2", {"gpus_per_node": 2}),
        ("walltime_h=12", {"walltime_s": 43200}),
        ("runtime_hours: 5", {"walltime_s": 18000}),
        ("max_runtime_min: 90", {"walltime_s": 5400}),
        ("job_time_days: 2", {"walltime_s": 172800}),
        ("ram_gb: 64", {"memory_gb_per_node": 64}),
        ("memory_per_machine: 256GB", {"memory_gb_per_node": 256}),
        ("node_mem_gb = 192", {"memory_gb_per_node": 192}),
        ("total_memory_tb: 2", {"memory_gb_total": 2000}),
        (
            "nodes: 1\nncpus_per_node: 32\nmem_per_core: 4GB",
            {"cores_per_node": 32, "memory_gb_per_node": 128},
        ),
        ("cores/node: 56\nnodes: 3", {"cores_per_node": 56, "nodes": 3}),
    ],
)
def test_keys_are_read_word_by_word(text: str, expected: dict[str, float]) -> None:
    req = parse(text)
    for field, value in expected.items():
        assert getattr(req.compute, field) == value, (field, req.compute)


def test_gpu_count_with_model_and_vendor_in_the_value() -> None:
    req = parse("nodes: 3\nper_node_gpu: 2 (NVIDIA A100)")
    assert req.compute.gpus_per_node == 2
    assert req.compute.gpu_model == "A100"
    assert req.compute.gpu_vendor is GpuVendor.NVIDIA


@pytest.mark.parametrize("key", ["gpu_make", "gpu_brand", "accel_vendor"])
def test_gpu_vendor_keys(key: str) -> None:
    req = parse(f"gpus: 2\n{key}: AMD")
    assert req.compute.gpu_vendor is GpuVendor.AMD


@pytest.mark.parametrize("value", ["none", "no", "0"])
def test_accelerator_none_excludes_gpus(value: str) -> None:
    req = parse(f"machines: 1\naccel: {value}")
    assert Feature.GPU in req.excluded


@pytest.mark.parametrize(
    "text",
    [
        "gpu_hours: 500\nnodes: 2",  # an amount of compute, not a count or a walltime
        "core_h: 10000\nnodes: 2",
        "cpu_time: 40\nnodes: 2",
        "gpus_per_task: 1\nnodes: 2",
        "shard_count: 12\nnodes: 2",
    ],
)
def test_keys_that_are_no_count_are_quoted_not_guessed(text: str) -> None:
    req = parse(text)
    first_key = text.split(":")[0]
    assert first_key in quoted(req), req.unresolved
    assert req.compute.walltime_s is None
    assert req.compute.total_cores is None and req.compute.cores_per_node is None


@pytest.mark.parametrize(
    ("text", "run_name"),
    [
        ("case_name: wake_study_7\nnodes: 2", "wake-study-7"),
        ("run_id: rerun42b\nnodes: 1", "rerun42b"),
        ("db=uniref90_2024 cpus=32", "uniref90-2024"),
        ("calc: slab-relax-3\nnodes: 1", "slab-relax-3"),
    ],
)
def test_keys_naming_the_run_or_its_data_name_no_package(text: str, run_name: str) -> None:
    req = parse(text)
    assert run_name not in [s.name for s in req.software]


def test_a_time_budget_is_no_package_and_no_money() -> None:
    req = parse("time_budget: 6h\nnodes: 1")
    assert req.compute.walltime_s == 21600
    assert req.budget_usd is None
    assert "time-budget" not in [s.name for s in req.software]


# -- scheduler resources -----------------------------------------------------------------------


def test_pbs_chunk_keys_nobody_reads_are_quoted() -> None:
    req = parse("#PBS -l select=2:ncpus=32:mpiprocs=32:host=cn07\n#PBS -l walltime=1:00:00")
    assert req.compute.nodes == 2 and req.compute.cores_per_node == 32
    assert "host=cn07" in quoted(req)


@pytest.mark.parametrize("extra", ['"rusage[mem=8000]"', '"select[avx512]"'])
def test_lsf_resource_strings_beyond_span_are_quoted(extra: str) -> None:
    req = parse(f'#BSUB -n 64\n#BSUB -R "span[ptile=16]"\n#BSUB -R {extra}\n#BSUB -W 2:00')
    assert req.compute.cores_per_node == 16
    assert extra.strip('"') in quoted(req)


def test_lsf_span_alone_quotes_nothing() -> None:
    req = parse('#BSUB -n 64\n#BSUB -R "span[ptile=16]"\n#BSUB -W 2:00')
    assert req.compute.cores_per_node == 16 and req.compute.total_cores == 64
    assert req.unresolved == ()


def test_flux_gpus_per_task_are_quoted() -> None:
    req = parse("flux run -N 4 -n 16 -g 1 ./train")
    assert req.compute.nodes == 4
    assert "-g 1" in quoted(req)


@pytest.mark.parametrize(
    "line", ["srun -N 2 -n 64 -c 4 ./app", "sbatch --ntasks=32 --cpus-per-task=8 job.sh"]
)
def test_cpus_per_task_beside_a_job_wide_task_count_are_quoted(line: str) -> None:
    req = parse(line)
    assert req.unresolved, "the job needs more cores than it has tasks"


def test_one_cpu_per_task_adds_nothing() -> None:
    req = parse("srun -N 2 -n 64 -c 1 ./app")
    assert req.compute.total_cores == 64 and req.unresolved == ()


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("3 nodes x 32 cores, 128GB/node, 2h", 128),
        ("2 nodes, 16 cores per node, 4GB/core", 64),
        ("2 nodes w/ 24 cores and 96 GB memroy each", 96),
    ],
)
def test_memory_written_with_a_slash_or_a_typo(text: str, memory: int) -> None:
    assert parse(text).compute.memory_gb_per_node == memory


@pytest.mark.parametrize("text", ["copies at 10 GB/s", "a 25 GB/sec link"])
def test_a_rate_is_not_memory(text: str) -> None:
    assert parse(text).compute.memory_gb_per_node is None


@pytest.mark.parametrize(
    ("text", "total"), [("fluent with 128 procs, 3h", 128), ("run 96 process MPI, 1h", 96)]
)
def test_processes_written_short_or_singular(text: str, total: int) -> None:
    assert parse(text).compute.total_cores == total


# -- storage with a kind ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("needs 8 TB of scratch on a parallel filesystem, 1 node", (StorageKind.PARALLEL, 8000)),
        ("about 300 GB of space on the Lustre filesystem, 2 nodes", (StorageKind.LUSTRE, 300)),
        ("cpus=8 disk=500GB(local) t=2h", (StorageKind.LOCAL, 500)),
        ("storage = 3 TB (nvme)\nnodes = 1", (StorageKind.LOCAL, 3000)),
        ("filesystem: parallel, >= 10 TB free\nnodes: 1", (StorageKind.PARALLEL, 10000)),
        ("scratch: gpfs, at least 2 TB\nnodes: 1", (StorageKind.GPFS, 2000)),
        ("1 node w/ 4 cores, 200GB of scrach, 2h", (StorageKind.ANY, 200)),
        ("1 node, 8 cores, 1 TB of storgae", (StorageKind.ANY, 1000)),
    ],
)
def test_size_and_kind_in_one_phrase_are_one_storage_need(
    text: str, expected: tuple[StorageKind, float]
) -> None:
    assert storage(parse(text)) == [expected]


def test_data_already_on_a_share_sizes_no_free_space() -> None:
    req = parse("The raw frames (~6 TB) already sit on our NFS share. 1 node, 16 cores.")
    assert storage(req) == [(StorageKind.NFS, None)]


def test_data_that_must_go_to_a_filesystem_is_its_size() -> None:
    req = parse("The checkpoints are 3 TB and must go to local SSD on each node. 2 nodes.")
    assert storage(req) == [(StorageKind.LOCAL, 3000)]


@pytest.mark.parametrize(
    "phrase", ["encrypted storage", "immutable storage", "backed-up disk", "replicated volumes"]
)
def test_storage_with_a_quality_no_field_holds_is_quoted(phrase: str) -> None:
    req = parse(f"1 node with 8 cores; the results must be kept on {phrase}.")
    assert phrase in quoted(req)
    assert StorageKind.ANY not in [s.kind for s in req.storage]


@pytest.mark.parametrize("text", ["500GB of logs, 1 node", "2 TB of sample data to read"])
def test_a_size_of_data_is_no_storage_typo(text: str) -> None:
    assert storage(parse(text)) == []
