"""Each way a request was misread, in many wordings of our own.

One test per phenomenon found by trying the parser as a new user would (open vocabulary,
hyphenated names, operators in words, optional GPUs, negation, structured text, amounts and
scopes, deadlines, typos, alternatives, low latency, variants). The sentences are written for
these tests; none is copied from the labelled corpus, so passing here is not passing there.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Feature, GpuLogic, GpuVendor, Requirements

NOW = datetime(2026, 3, 10, 8, 30, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def names(req: Requirements) -> list[str]:
    return [s.name for s in req.software]


def spec(req: Requirements, name: str) -> list[str]:
    found = [s for s in req.software if s.name == name]
    assert found, (name, names(req))
    return [str(c) for c in found[0].constraints]


# -- 1. open vocabulary ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "package"),
    [
        ("pip install sentencepiece and run on one GPU", "sentencepiece"),
        ("the qiskit-aer simulator on a single node", "qiskit-aer"),
        ("I use miniFE for weak scaling on 8 nodes", "minife"),
        ("needs hpl-ai, 16 nodes", "hpl-ai"),
        ("benchmarking kripke, laghos and quicksilver on 4 nodes", "laghos"),
        ("run graph500 on 32 nodes", "graph500"),
        ("our code links against libtorch2 and needs 2 GPUs", "libtorch2"),
        ("please load the tensorstore library", "tensorstore"),
        ("jobs use polaris-utils, 1 node", "polaris-utils"),
    ],
)
def test_an_unknown_package_name_is_a_checked_requirement(text: str, package: str) -> None:
    assert package in names(parse(text))


@pytest.mark.parametrize(
    "text",
    [
        "needs AVX-512 on 2 nodes",
        "must run on aarch64",
        "a licence for our vendor tool is required",
        "the node needs an FPGA card",
        "Ubuntu 22.04 on the compute nodes",
    ],
)
def test_a_requirement_no_field_holds_is_kept_unresolved(text: str) -> None:
    assert parse(text).unresolved


# -- 2. hyphens and exact names ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "package", "not_package"),
    [
        ("netcdf-c 4.9 on one node", "netcdf-c", "netcdf"),
        ("nccl-tests over 2 nodes", "nccl-tests", "nccl"),
        ("keras-cv and a GPU", "keras-cv", "keras"),
        ("dask-mpi across 4 nodes", "dask-mpi", "dask"),
        ("pytorch-geometric 2.5 on one A100", "pytorch-geometric", "pytorch"),
        ("llama.cpp on a CPU node", "llama.cpp", "llama"),
    ],
)
def test_a_hyphenated_name_is_read_whole(text: str, package: str, not_package: str) -> None:
    got = names(parse(text))
    assert package in got and not_package not in got


# -- 3. operators in words -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "package", "constraints"),
    [
        ("at least Python 3.10 on one node", "python", [">=3.10"]),
        ("Julia 1.9 or later please", "julia", [">=1.9"]),
        ("cp2k, at least version 2023.2, on 8 nodes", "cp2k", [">=2023.2"]),
        ("nothing older than the 2022 releases of LAMMPS", "lammps", [">=2022"]),
        ("no earlier than GROMACS 2021", "gromacs", [">=2021"]),
        ("numpy, version 1.26 at minimum", "numpy", [">=1.26"]),
        ("gcc newer than 11", "gcc", [">11"]),
        ("R 4.2 or any later version", "r", [">=4.2"]),
        ("PETSc between 3.18 and 3.20", "petsc", [">=3.18", "<=3.20"]),
    ],
)
def test_operators_written_in_words(text: str, package: str, constraints: list[str]) -> None:
    assert spec(parse(text), package) == constraints


# -- 4. optional GPUs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpus", "cores"),
    [
        ("runs on CPU or 2 GPUs per node", 2, None),
        ("to run on CPU OR 1 GPU per node, 4 nodes", 1, None),
        ("a CPU or GPU build of the code", None, None),
        ("32 cores or 2 GPUs per node", 2, 32),
        ("CPUs or GPUs, whichever is free", None, None),
        ("GPU optional, 16 cores", None, 16),
    ],
)
def test_gpus_as_an_option(text: str, gpus: int | None, cores: int | None) -> None:
    c = parse(text).compute
    assert c.gpu_logic is GpuLogic.OR
    assert c.gpus_per_node == gpus
    assert (c.cores_per_node or c.total_cores) == cores


# -- 5. negation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("no GPUs needed for this one", Feature.GPU),
        ("it doesn't need any GPU", Feature.GPU),
        ("GPUs are not required", Feature.GPU),
        ("we don't need MPI", Feature.MPI),
        ("a serial code, no MPI", Feature.MPI),
        ("no containers, please", Feature.CONTAINER),
        ("we do not use docker", Feature.CONTAINER),
        ("no need for a low-latency network", Feature.LOW_LATENCY),
        ("a fast interconnect is not needed", Feature.LOW_LATENCY),
        ("doesn't need MPI or a fast network", Feature.LOW_LATENCY),
    ],
)
def test_negation_is_an_exclusion_never_a_demand(text: str, feature: Feature) -> None:
    req = parse(text)
    assert feature in req.excluded
    if feature is Feature.GPU:
        assert req.compute.gpus_per_node == 0
    if feature is Feature.MPI:
        assert req.mpi is None
    if feature is Feature.CONTAINER:
        assert req.container is None
    if feature is Feature.LOW_LATENCY:
        assert req.network is None or not req.network.low_latency


# -- 6. structured text ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("nodes=4 total_cores=128 walltime_hours=2", {"nodes": 4, "total_cores": 128,
                                                       "walltime_s": 7200}),
        ("nodes: 2\ngpus_per_node: 4\nmem: 256G", {"nodes": 2, "gpus_per_node": 4,
                                                     "memory_gb_per_node": 256.0}),
        ('{"nodes": 3, "cores_per_node": 48, "walltime": "04:00:00"}',
         {"nodes": 3, "cores_per_node": 48, "walltime_s": 14400}),
        ("sbatch -N 4 --gres=gpu:4 --time=2:00:00 --mem=64G job.sh",
         {"nodes": 4, "gpus_per_node": 4, "walltime_s": 7200, "memory_gb_per_node": 64.0}),
        ("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=16\n#SBATCH --cpus-per-task=4",
         {"nodes": 2, "cores_per_node": 64}),
        ("qsub -l select=2:ncpus=32:mem=128gb -l walltime=01:30:00 run.pbs",
         {"nodes": 2, "cores_per_node": 32, "memory_gb_per_node": 128.0, "walltime_s": 5400}),
        ("sbatch --gpus=8 -n 32 train.sh", {"total_gpus": 8, "total_cores": 32}),
    ],
)  # fmt: skip
def test_structured_text_means_what_the_words_would(text: str, expected: dict) -> None:
    req = parse(text)
    got = req.compute.model_dump(exclude_defaults=True)
    assert got == expected
    assert not req.software, names(req)  # keys and flags are never packages


def test_keys_are_never_packages() -> None:
    req = parse("total_cores=64\nwalltime_hours=3\nmax_cost_usd=40\ngpu_count=2")
    assert not req.software
    assert req.budget_usd == 40 and req.compute.total_cores == 64


def test_an_unknown_flag_is_unresolved_not_dropped() -> None:
    assert parse("sbatch -N 2 --constraint=avx512 run.sh").unresolved


# -- 7. amounts and scopes -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("The budget is $5,000.", 5000.0),
        ("we can spend $1.2k", 1200.0),
        ("under 300 dollars.", 300.0),
        ("max cost: $2,500.50", 2500.5),
    ],
)
def test_money_at_a_sentence_end(text: str, budget: float) -> None:
    assert parse(text).budget_usd == budget


@pytest.mark.parametrize(
    ("text", "compute"),
    [
        ("4 nodes x 32 cores", {"nodes": 4, "cores_per_node": 32}),
        ("6 nodes with 48 cores", {"nodes": 6, "cores_per_node": 48}),
        ("two nodes of 4 GPUs", {"nodes": 2, "gpus_per_node": 4}),
        ("3x 64-core nodes", {"nodes": 3, "cores_per_node": 64}),
        ("1.5 TB of memory across the whole job", {"memory_gb_total": 1500.0}),
        ("8 nodes, 2 TB RAM in total", {"nodes": 8, "memory_gb_total": 2000.0}),
        ("16 GPUs in total", {"total_gpus": 16}),
        ("a total of 12 GPUs over 3 nodes", {"nodes": 3, "total_gpus": 12}),
        ("each node with 4 GPUs, 2 nodes", {"nodes": 2, "gpus_per_node": 4}),
        ("24 cores, 96 GB", {"total_cores": 24, "memory_gb_per_node": 96.0}),
    ],
)
def test_amounts_and_their_scope(text: str, compute: dict) -> None:
    assert parse(text).compute.model_dump(exclude_defaults=True) == compute


@pytest.mark.parametrize("text", ["a CPU or GPU build", "a quick test on a CPU or GPU"])
def test_the_article_is_not_a_count(text: str) -> None:
    c = parse(text).compute
    assert c.total_cores is None and c.cores_per_node is None and c.gpus_per_node is None


# -- 8. deadlines are not walltimes ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("hard deadline in 6 hours", 6),
        ("I have 12 hours to get results", 12),
        ("we only have 3 hours left before the review", 3),
        ("results due in 2 days", 48),
        ("within the next 5 hours please", 5),
        ("needed 8 hours from now", 8),
    ],
)
def test_a_relative_deadline(text: str, hours: int) -> None:
    req = parse(text)
    assert req.deadline == NOW + timedelta(hours=hours)
    assert req.deadline_within_s == hours * 3600
    assert req.compute.walltime_s is None


def test_a_deadline_and_a_walltime_together() -> None:
    req = parse("about 2 hours of walltime, but the deadline is in 10 hours")
    assert req.compute.walltime_s == 7200
    assert req.deadline == NOW + timedelta(hours=10)


# -- 9. typos ---------------------------------------------------------------------------------


@pytest.mark.parametrize("typo", ["pytroch", "tensroflow", "gromcas", "lammmps", "openfaom"])
def test_a_misspelled_package_is_kept_as_written(typo: str) -> None:
    """The site check then says "did you mean ..."; the parser never substitutes."""
    assert typo in names(parse(f"need {typo} on one node"))


def test_a_typo_that_is_an_english_word_stays_unresolved() -> None:
    """ "lamps" for LAMMPS is a word of its own: not taken for a package, still not dropped."""
    req = parse("need lamps on one node")
    assert "lamps" not in names(req) and "lamps" in req.unresolved


# -- 10. alternatives -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "group"),
    [
        ("lammps or gromacs on 4 nodes", {"lammps", "gromacs"}),
        ("either pytorch or jax, 1 GPU", {"pytorch", "jax"}),
        ("namd, amber or charmm", {"namd", "amber", "charmm"}),
        ("openfoam or su2, whichever you have", {"openfoam", "su2"}),
    ],
)
def test_alternatives_are_any_of(text: str, group: set[str]) -> None:
    req = parse(text)
    assert [{o.name for o in c.any_of} for c in req.alternatives] == [group]
    assert not set(names(req)) & group


def test_and_is_still_all_of() -> None:
    req = parse("lammps and gromacs on 4 nodes")
    assert set(names(req)) == {"lammps", "gromacs"} and not req.alternatives


def test_versions_as_alternatives() -> None:
    req = parse("python 3.10 or 3.11")
    assert [[str(o) for o in c.any_of] for c in req.alternatives] == [
        ["python ==3.10", "python ==3.11"]
    ]


# -- 11. low latency --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["low latency MPI on 4 nodes", "needs an RDMA-capable network", "a fast interconnect"],
)
def test_low_latency(text: str) -> None:
    req = parse(text)
    assert req.network is not None and req.network.low_latency


def test_low_latency_mpi_asks_for_both() -> None:
    req = parse("low-latency MPI")
    assert req.mpi is not None and req.network is not None and req.network.low_latency


# -- 12. variants -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "package", "variants"),
    [
        ("GROMACS with CUDA", "gromacs", ("+cuda",)),
        ("a CUDA-enabled GROMACS 2023", "gromacs", ("+cuda",)),
        ("lammps+kokkos", "lammps", ("+kokkos",)),
        ("lammps+kokkos+cuda on 2 nodes", "lammps", ("+kokkos", "+cuda")),
        ("hdf5 built without MPI", "hdf5", ("~mpi",)),
        ("hdf5~mpi", "hdf5", ("~mpi",)),
        ("a ROCm build of pytorch", "pytorch", ("+rocm",)),
        ("LAMMPS with Kokkos, version 2Aug2023", "lammps", ("+kokkos",)),
    ],
)
def test_build_variants(text: str, package: str, variants: tuple[str, ...]) -> None:
    found = [s for s in parse(text).software if s.name == package]
    assert found and found[0].variants == variants


def test_with_mpi_asks_for_an_mpi_library_not_a_variant() -> None:
    req = parse("LAMMPS with MPI on 4 nodes")
    assert req.mpi is not None and req.software[0].variants == ()


def test_gpu_vendor() -> None:
    assert parse("two AMD GPUs").compute.gpu_vendor is GpuVendor.AMD
    assert parse("an NVIDIA card").compute.gpu_vendor is GpuVendor.NVIDIA
    assert parse("4 Intel GPUs, one node").compute.gpu_vendor is GpuVendor.INTEL
    assert parse("AMD EPYC CPUs, 64 cores").compute.gpu_vendor is None


@pytest.mark.parametrize(
    "text",
    [
        "1 GPU with at least 40 GB of GPU memory",
        "a GPU, 24 GB memory of GPU minimum",
        "GPU memory: 80GB, one node",
        "needs 48 GB VRAM",
    ],
)
def test_gpu_memory_is_never_node_memory(text: str) -> None:
    """No field holds GPU memory; reading it as node memory would make a site READY with
    GPUs too small, so it stays unresolved."""
    req = parse(text)
    assert req.compute.memory_gb_per_node is None
    assert req.unresolved


@pytest.mark.parametrize(
    ("text", "package"),
    [
        ("please run vortexsim on 8 nodes", "vortexsim"),
        ("launch quokka across 4 nodes", "quokka"),
        ("my hyperopt sweep needs 2 GPUs", "hyperopt"),
        ("an IO500 run on 10 nodes", "io500"),
    ],
)
def test_a_name_where_a_program_stands(text: str, package: str) -> None:
    assert package in names(parse(text))


@pytest.mark.parametrize(
    "text", ["the data lives on 2 nodes", "results sit on Lustre", "a parameter sweep on 4 nodes"]
)
def test_prose_placed_on_resources_is_not_a_package(text: str) -> None:
    assert not parse(text).software


@pytest.mark.parametrize(
    ("text", "gbps"), [("100G InfiniBand", 100.0), ("a 25G ethernet link", 25.0)]
)
def test_a_g_on_a_link_is_a_speed_not_memory(text: str, gbps: float) -> None:
    req = parse(text)
    assert req.network is not None and req.network.min_speed_gbps == gbps
    assert req.compute.memory_gb_per_node is None


def test_a_restatement_in_brackets_is_one_mention() -> None:
    req = parse("either LAMMPS or GROMACS built without CUDA (gromacs~cuda)")
    assert [{o.name for o in c.any_of} for c in req.alternatives] == [{"lammps", "gromacs"}]


@pytest.mark.parametrize("typo", ["tommorow", "tomorow", "tmrw"])
def test_tomorrow_misspelled_is_still_a_deadline(typo: str) -> None:
    assert parse(f"results by {typo}").deadline == datetime(2026, 3, 11, 23, 59, 59, tzinfo=UTC)


def test_a_misspelled_network_word_under_negation_is_an_exclusion() -> None:
    req = parse("dont need a low-latncy network")
    assert Feature.LOW_LATENCY in req.excluded
    assert req.network is None


@pytest.mark.parametrize(
    ("text", "package", "variants"),
    [
        ("Quantum ESPRESSO compiled with ELPA", "quantum-espresso", ("+elpa",)),
        ("cp2k built with plumed", "cp2k", ("+plumed",)),
        ("an MPI-enabled build of netcdf-fortran", "netcdf-fortran", ("+mpi",)),
    ],
)
def test_build_words_make_any_option_a_variant(text: str, package: str, variants) -> None:
    found = [s for s in parse(text).software if s.name == package]
    assert found and found[0].variants == variants


@pytest.mark.parametrize("text", ["16 cores on each of 2 nodes", "16 cores in each of the 2 nodes"])
def test_on_each_of_the_nodes(text: str) -> None:
    assert parse(text).compute.model_dump(exclude_defaults=True) == {
        "nodes": 2,
        "cores_per_node": 16,
    }


@pytest.mark.parametrize(
    "text", ["CPUs are fine, GPUs would be faster", "GPUs would be nice but are not needed"]
)
def test_gpus_that_would_help_are_optional(text: str) -> None:
    req = parse(text)
    assert req.compute.gpu_logic is GpuLogic.OR or Feature.GPU in req.excluded


@pytest.mark.parametrize(
    "text", ["-1 nodes", "lammps on -4 nodes", "-5 GB of memory", "for -3 hours", "= -2 GPUs"]
)
def test_a_negative_amount_is_never_read_as_a_positive_one(text: str) -> None:
    req = parse(text)
    c = req.compute
    assert c.nodes is None and c.memory_gb_per_node is None and c.walltime_s is None
    assert c.gpus_per_node in (None, 1) and req.unresolved  # quoted: blocks READY


def test_text_past_the_limit_is_cut_with_a_note_that_blocks_ready() -> None:
    from secretary_executor.broker import Broker
    from secretary_executor.sites.fleet import demo_fleet

    request = Broker(demo_fleet()).prepare("lammps on 2 nodes " + "x " * 15_000)
    assert len(request.text) == 20_000
    assert request.requirements is not None
    assert any("input truncated" in u for u in request.requirements.unresolved)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gpu: not required", {"gpus_per_node": 0}),
        ("gpu: optional (CPU-only nodes are fine too)", {"gpu_logic": "or"}),
        ("gpu_vendor: amd\ngpus_per_node: 2", {"gpu_vendor": "amd", "gpus_per_node": 2}),
        ('{"gpu": {"count": 2, "model": "A100"}}', {"gpus_per_node": 2, "gpu_model": "A100"}),
        ("max_hours: 3", {"walltime_s": 10800}),
        ('bsub -n 8 -gpu "num=4" -R "span[hosts=1]" ./x.sh',
         {"nodes": 1, "total_cores": 8, "gpus_per_node": 4}),
    ],
)  # fmt: skip
def test_more_structured_keys(text: str, expected: dict) -> None:
    req = parse(text)
    assert req.compute.model_dump(mode="json", exclude_defaults=True) == expected
    assert not req.software


@pytest.mark.parametrize(
    "text", ["800 hours of speech on 48 cores", "we have 300 hours of video to transcode"]
)
def test_a_duration_of_something_else_is_not_a_walltime(text: str) -> None:
    assert parse(text).compute.walltime_s is None


def test_several_versions_are_alternatives() -> None:
    req = parse("python 3.9, 3.10 or 3.11")
    assert [len(c.any_of) for c in req.alternatives] == [3]


def test_gpus_or_plain_cpus_is_optional() -> None:
    assert parse("it runs on GPUs, or on plain CPUs").compute.gpu_logic is GpuLogic.OR


@pytest.mark.parametrize(
    ("text", "compute"),
    [
        ("1024 cors", {"total_cores": 1024}),
        ("8 nodse with 32 cors each", {"nodes": 8, "cores_per_node": 32}),
        ("2 nodez", {"nodes": 2}),
    ],
)
def test_a_misspelled_unit_still_counts(text: str, compute: dict) -> None:
    assert parse(text).compute.model_dump(exclude_defaults=True) == compute


@pytest.mark.parametrize("text", ["8 notes on the run", "3 codes to compare"])
def test_an_english_word_after_a_number_is_not_a_unit(text: str) -> None:
    assert parse(text).compute.is_empty()


@pytest.mark.parametrize(
    ("text", "package", "version"),
    [
        ("version 1.2.5 of AutoDock-Vina", "autodock-vina", "==1.2.5"),
        ("release 61.0.1 of SWAT+", "swat+", "==61.0.1"),
    ],
)
def test_a_version_before_an_unknown_name(text: str, package: str, version: str) -> None:
    assert spec(parse(text), package) == [version]


def test_a_variant_in_brackets() -> None:
    found = [s for s in parse("LAMMPS 29Aug2024 (Kokkos build)").software if s.name == "lammps"]
    assert found and found[0].variants == ("+kokkos",)


@pytest.mark.parametrize(
    "text", ["we keep a second buffer for the exchange", "give me a minute to explain"]
)
def test_an_article_before_second_or_minute_is_no_walltime(text: str) -> None:
    """Reading "a second buffer" as a 1 s walltime would fit any partition's limit."""
    assert parse(text).compute.walltime_s is None


@pytest.mark.parametrize(
    "text",
    [
        "the hindcast covers 2019-2023",
        "data from 2015 to 2020",
        "R for analysis after, version 4.3",
    ],
)
def test_an_english_word_before_years_is_not_a_package(text: str) -> None:
    req = parse(text)
    assert not [s for s in req.software if s.name in ("covers", "data", "after")]
