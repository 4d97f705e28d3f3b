"""Failure classes found on wording the parser had never read (the dev-f and dev-g round).

Each test names one class and states it in sentences written for the test, not copied from the
corpus: the program a launcher line runs, install lines that end before the next clause, node
shapes written in other ways, release tags that only look like R, a choice of MPI libraries,
counts with thousands separators.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def names(req: Requirements) -> list[str]:
    return [s.name for s in req.software]


# -- the program a launcher line runs --------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "program_words"),
    [
        ("#!/bin/bash\n#SBATCH -N 2\nmodule load namd/3.0\nsrun namd3 +ppn 31 apoa1.namd\n",
         ["namd3", "apoa1.namd"]),
        ("#!/bin/bash\n#PBS -l select=4:ncpus=32\nmpiexec -n 128 flexi_run params.ini\n",
         ["flexi-run", "flexi_run", "params.ini"]),
        ("#!/bin/bash\n#SBATCH --nodes=1\nsrun ./solver -c run.cfg\n", ["solver", "run.cfg"]),
    ],
)  # fmt: skip
def test_the_program_of_a_launcher_line_is_no_package(
    script: str, program_words: list[str]
) -> None:
    req = parse(script)
    assert not set(names(req)) & set(program_words), names(req)
    assert req.compute.nodes in (1, 2, 4)


def test_a_launcher_line_keeps_an_unknown_scheduler_flag_unread() -> None:
    """A flag the reader does not know is never blanked with the program after it."""
    req = parse("#!/bin/bash\n#SBATCH -N 1\nsrun -Z weird ./app\n")
    assert "-Z weird" in req.unparsed


def test_a_launcher_line_still_reads_its_comment() -> None:
    req = parse("#!/bin/bash\n#SBATCH -N 3\nmpirun -np 96 ./wave_solver   # needs hdf5 1.14\n")
    assert "hdf5" in names(req)
    assert req.compute.total_cores == 96 and req.mpi is not None


# -- install lines ---------------------------------------------------------------------------


def test_an_install_line_ends_at_a_semicolon() -> None:
    req = parse("pip install einops timm==1.0.9; 4 GPUs for 3h")
    assert {"einops", "timm"} <= set(names(req))
    assert "gpus" not in names(req)
    assert req.compute.gpus_per_node == 4 and req.compute.walltime_s == 3 * 3600


def test_an_install_item_keeps_its_pip_specifier() -> None:
    req = parse("pip install 'numpy<2' scipy>=1.13")
    versions = {s.name: [str(c) for c in s.constraints] for s in req.software}
    assert versions.get("scipy") == [">=1.13"]


# -- node shapes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "we ask for 5 nodes and every node have 48 cores",
        "5 machines, in each one 48 cores",
        "five computers, each with 48 cores",
        "5 nodes; 1 node have 48 cores",
    ],
)
def test_a_core_count_said_of_each_node_is_per_node(text: str) -> None:
    req = parse(text)
    assert req.compute.nodes == 5, text
    assert req.compute.cores_per_node == 48 and req.compute.total_cores is None, text


def test_a_core_count_after_the_nodes_memory_is_still_per_node() -> None:
    req = parse("1 node, 768 GB RAM, 96 cores, 2 days")
    assert req.compute.cores_per_node == 96 and req.compute.total_cores is None


def test_a_thread_count_after_other_amounts_stays_the_jobs_total() -> None:
    req = parse("1 node, 768 GB RAM, 96 threads, 2 days")
    assert req.compute.total_cores == 96 and req.compute.cores_per_node is None


# -- release tags ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["abaqus R2 on 2 nodes", "pscad r19.4, 1 node", "tag R7"])
def test_a_release_tag_is_not_the_r_language(text: str) -> None:
    assert "r" not in names(parse(text))


def test_r_with_a_spaced_version_is_still_r() -> None:
    req = parse("R 4.3 with data.table, 8 cores")
    assert "r" in names(req)


# -- a choice of MPI libraries ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "either MPICH or Intel MPI works for us, 8 nodes",
        "Open MPI 4.1 / MVAPICH2, 8 nodes",
        "we can use Cray MPICH or Open MPI",
    ],
)
def test_two_mpi_libraries_offered_as_a_choice_mean_any_mpi(text: str) -> None:
    req = parse(text)
    assert req.mpi is not None and req.mpi.implementation is None, text


def test_one_mpi_library_is_still_that_one() -> None:
    req = parse("needs MPICH 4.2 on 8 nodes")
    assert req.mpi is not None and req.mpi.implementation == "mpich"


# -- counts with thousands separators --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores"), [("2,304 MPI ranks for 6h", 2304), ("a total of 10,240 cores", 10240)]
)
def test_a_count_with_thousands_separators_is_one_count(text: str, cores: int) -> None:
    assert parse(text).compute.total_cores == cores


def test_a_list_of_small_numbers_is_no_grouped_count() -> None:
    req = parse("runs 1,2 and 4 nodes in turn, 8 cores")
    assert req.compute.total_cores == 8


# -- structured forms ------------------------------------------------------------------------


def _versions(req: Requirements) -> dict[str, list[str]]:
    return {s.name: [str(c) for c in s.constraints] for s in req.software}


@pytest.mark.parametrize(
    "text",
    [
        '{"codes": {"quokka": "25.03", "amrex": ">=24.10"}, "nodes": 2}',
        '{"packages": {"quokka": "25.03", "amrex": ">=24.10"}}',
    ],
)
def test_a_json_table_of_packages_maps_names_to_versions(text: str) -> None:
    versions = _versions(parse(text))
    assert versions.get("quokka") == ["==25.03"], versions
    assert versions.get("amrex") == [">=24.10"], versions


def test_a_json_table_value_keeps_its_variant() -> None:
    req = parse('{"software": {"lammps": "2Aug2023+kokkos"}}')
    found = [s for s in req.software if s.name == "lammps"]
    assert found and "+kokkos" in found[0].variants


@pytest.mark.parametrize(
    "text", ["tools: sortmerna=4.3.7, fastp", "needs sortmerna=4.3.7 and fastp", "sortmerna=4.3.7"]
)
def test_a_package_pinned_with_equals_is_that_package(text: str) -> None:
    assert _versions(parse(text)).get("sortmerna") == ["==4.3.7"]


@pytest.mark.parametrize("text", ["nodes=4", "threads=8", "ratio=0.5 nodes=2"])
def test_a_count_or_a_form_key_is_no_pinned_package(text: str) -> None:
    assert not {"nodes", "threads", "ratio"} & set(names(parse(text)))


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("max_walltime: 2-00:00:00", 172800), ("requested_runtime = 3:30:00", 12600),
     ("max_wall: 16h", 57600)],
)  # fmt: skip
def test_a_time_key_with_a_prefix_is_the_walltime(text: str, seconds: int) -> None:
    assert parse(text).compute.walltime_s == seconds


def test_a_number_under_an_unknown_key_is_never_dropped() -> None:
    """The key is no requirement any field holds, and its value has no word for the later
    readers: the pair is quoted, so no site answers READY on it unseen."""
    req = parse("peak_flops_per_rank: 3.5\nnodes: 2")
    assert any("peak_flops_per_rank" in u for u in req.unresolved), req.unresolved


def test_ncpu_counts_cores() -> None:
    assert parse("ncpu=24\nwalltime=2:00:00").compute.total_cores == 24


# -- the frame of a message ------------------------------------------------------------------


def test_a_greeting_line_with_a_request_in_it_is_read() -> None:
    req = parse("hey i must run tophat2 2.1 quick, 12 cores, 5 hours")
    assert "tophat2" in names(req)


@pytest.mark.parametrize(
    "text",
    [
        "Dear Scientific Computing team,\nI need 2 nodes for 4 hours.",
        "Hi Priyanka,\nI need 2 nodes for 4 hours.",
        "Subject: Re: a question\n\nHi Oskar,\nI need 2 nodes for 4 hours.",
    ],
)
def test_a_greeting_with_names_only_is_the_frame(text: str) -> None:
    req = parse(text)
    assert req.software == () and req.unresolved == (), (req.software, req.unresolved)
    assert req.compute.nodes == 2


# -- is it a package? ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "package"),
    [
        ("we fit the model with Turing.jl and need 1 node", "turing.jl"),
        ("needs DifferentialEquations.jl 7.13 on 8 cores", "differentialequations.jl"),
        ("my sbi model trains on one GPU", "sbi"),
        ("uses the bayesplot pkg in R 4.4", "bayesplot"),
        ("a package called pyrokinetics, 2 nodes", "pyrokinetics"),
        ("the SPHERE 2.1 code on 4 nodes", "sphere"),
        ("sw=kraken2/2.1.3,go2/1.0", "kraken2"),
    ],
)
def test_a_name_in_a_software_place_is_a_package(text: str, package: str) -> None:
    assert package in names(parse(text)), names(parse(text))


def test_glued_digits_on_an_ambiguous_word_belong_to_the_name() -> None:
    """ "star2/2.7" is no "star" version 2: the digits are part of another name."""
    assert "star" not in names(parse("modules: star2/2.7.11, 8 cores"))


@pytest.mark.parametrize(
    ("text", "not_a_package"),
    [
        ("the solver is written in C++ and needs 16 cores", "c++"),
        ("hybrid MPI+OpenMP, 4 nodes", "mpi+openmp"),
        ("hybrid MPI+OpenMP, 4 nodes", "mpi"),
        ("fine-tune Mistral 7 7B with peft on 2 GPUs", "mistral"),
        ("a study of COVID-19 spread, 64 cores", "covid"),
        ("downscale ERA5 and CMIP6 fields, 64 cores", "era5"),
        ("the run run.jl script, 2 cores", "run.jl"),
        ("STEP 2 of the pipeline uses 8 cores", "step"),
        ("design load case DLC 1.2 with 4 cores", "dlc"),
    ],
)
def test_a_word_that_only_looks_like_a_package_is_none(text: str, not_a_package: str) -> None:
    assert not_a_package not in names(parse(text)), names(parse(text))


def test_the_c_plus_plus_language_is_kept_unread_not_dropped() -> None:
    assert any("C++" in u for u in parse("needs C++ on 2 nodes").unresolved)


# -- optional and compared packages ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "pandas and dask; ipywidgets would be nice but not needed",
        "pandas and dask, ipywidgets (optional)",
        "pandas and dask, ipywidgets if available",
    ],
)
def test_an_optional_package_is_no_requirement(text: str) -> None:
    found = names(parse(text))
    assert "ipywidgets" not in found and {"pandas", "dask"} <= set(found), found


def test_a_package_optional_once_but_required_elsewhere_stays() -> None:
    found = names(parse("needs ipywidgets 8.1. ipywidgets (optional) for the plots"))
    assert "ipywidgets" in found


def test_packages_compared_in_a_subject_do_not_undo_a_later_choice() -> None:
    req = parse("Subject: OpenMM vs Amber 24?\n\nEither OpenMM 8.1 or Amber 24 works for us.")
    assert req.alternatives and {o.name for o in req.alternatives[0].any_of} == {"openmm", "amber"}


def test_packages_only_compared_stay_required() -> None:
    """A comparison may need both; without a choice elsewhere neither is dropped."""
    assert {"hpl", "hpcg"} <= set(names(parse("benchmarking HPL 2.3 vs HPCG 3.1 on 4 nodes")))


# -- a choice of GPU models ------------------------------------------------------------------


def test_two_gpu_models_offered_as_a_choice_require_neither_and_block_ready() -> None:
    req = parse("one server with 4 GPU L40S or 4 GPU A40, either is fine, 6 hours")
    assert req.compute.gpu_model is None and req.compute.gpus_per_node == 4
    assert any("L40S" in u and "A40" in u for u in req.unresolved), req.unresolved


def test_one_gpu_model_is_still_required() -> None:
    assert parse("4 A40 GPUs, 6 hours").compute.gpu_model == "A40"


# -- urgency in forms ------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "level"), [("urgency=low", "no_rush"), ("urgency: high", "now")])
def test_an_urgency_level_in_a_form(text: str, level: str) -> None:
    req = parse(f"{text}\nnodes=1")
    assert req.urgency is not None and req.urgency.value == level


# -- deadlines said around the date ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("the deadline for the report is the 22 of May", datetime(2026, 5, 22, 23, 59, 59)),
        ("our deadline for submission will be May 20", datetime(2026, 5, 20, 23, 59, 59)),
        ("we need the results for Thursday, 2 nodes", datetime(2026, 5, 14, 23, 59, 59)),
        ("the output we need for Friday's meeting", datetime(2026, 5, 15, 23, 59, 59)),
    ],
)
def test_a_deadline_said_around_its_date(text: str, deadline: datetime) -> None:
    req = parse(text)
    assert req.deadline == deadline.replace(tzinfo=UTC), req.deadline


@pytest.mark.parametrize("text", ["we need it for today, 2 nodes", "2 nodes for 3 hours"])
def test_needed_for_today_or_for_a_duration_is_no_deadline(text: str) -> None:
    assert parse(text).deadline is None


# -- one unit of work inside the job ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The pre-processing script runs on 1 core; the solver needs 4 nodes with 64 cores each.",
        "A walker uses 2 cores, and we run 96 walkers on 3 nodes with 64 cores each.",
        "each replica then does a post-processing pass on a single core. 3 nodes x 64 cores",
    ],
)
def test_a_count_that_sizes_one_unit_of_work_is_not_the_jobs(text: str) -> None:
    req = parse(text)
    assert req.compute.total_cores is None, req.compute
    assert req.compute.cores_per_node == 64


def test_counting_all_units_is_the_jobs_total() -> None:
    assert parse("8 replicas so 8 cores is plenty").compute.total_cores == 8


def test_each_of_the_jobs_sizes_the_job() -> None:
    req = parse("Each of the 250 jobs is a single core for about 40 minutes.")
    assert req.compute.total_cores == 1 and req.compute.walltime_s == 2400


def test_one_units_run_time_is_not_the_walltime() -> None:
    req = parse("Each sample takes about 20 minutes; the whole batch needs 5 hours on 2 nodes.")
    assert req.compute.walltime_s == 5 * 3600
    assert any("20 minutes" in u for u in req.unresolved)


def test_cpu_nodes_only_excludes_gpus() -> None:
    req = parse("LAMMPS on CPU nodes only, 4 nodes")
    assert req.compute.gpus_per_node == 0 and [f.value for f in req.excluded] == ["gpu"]


# -- allocation shapes offered as alternatives -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "total_gpus"),
    [
        ("24 GPUs overall: 3 nodes x 8 or 6 nodes x 4, we don't mind", 24),
        ("it may be 1 node with 4 GPU or 2 node with 2 GPU", 4),
    ],
)
def test_shapes_of_one_size_offered_as_a_choice_give_the_total(text: str, total_gpus: int) -> None:
    req = parse(text)
    assert req.compute.total_gpus == total_gpus, req.compute
    assert req.compute.nodes is None and req.compute.gpus_per_node in (None, 0)


def test_core_shapes_take_the_unit_named_before_them() -> None:
    req = parse("256 cores in total; 2x128 or 4x64 are both fine")
    assert req.compute.total_cores == 256 and req.compute.nodes is None
    assert not names(req)


def test_shapes_of_different_sizes_are_kept_unresolved() -> None:
    req = parse("64 cores, 1x64 or 4x32")
    assert any("1x64 or 4x32" in u for u in req.unresolved), req.unresolved


def test_one_shape_is_still_read_as_nodes_and_cores() -> None:
    req = parse("4 nodes x 32 cores, 6h")
    assert req.compute.nodes == 4 and req.compute.cores_per_node == 32


# -- words for GPUs, nodes and scopes --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "nodes", "gpus"),
    [
        ("we need 2 graphic cards AMD in one server", 1, 2),
        ("1 server with 4 GPUs, 2 days", 1, 4),
    ],
)
def test_servers_and_graphic_cards(text: str, nodes: int, gpus: int) -> None:
    req = parse(text)
    assert req.compute.nodes == nodes and req.compute.gpus_per_node == gpus


def test_a_misspelt_total_is_still_a_total() -> None:
    req = parse("3 nodes with 12 gpus totla")
    assert req.compute.total_gpus == 12 and req.compute.gpus_per_node is None


@pytest.mark.parametrize(
    ("text", "nodes", "cores_per_node"),
    [("6 nodse x 48 coers", 6, 48), ("2 nods × 96 cors", 2, 96)],
)
def test_misspelt_units_after_a_multiplier_size_each_node(
    text: str, nodes: int, cores_per_node: int
) -> None:
    req = parse(text)
    assert req.compute.nodes == nodes and req.compute.cores_per_node == cores_per_node


def test_a_swapped_unit_is_a_duration() -> None:
    assert parse("pyscf on 8 cores for 3 dyas").compute.walltime_s == 3 * 86400


# -- everyday words need strong evidence -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("assemble with flye 2.9 and polish with medaka 1.11", "polish"),
        ("samtools 1.20, and window sizes from the config", "window"),
        ("run cp2k 2024.1 and after with phonopy", "after"),
    ],
)
def test_an_everyday_word_listed_beside_a_package_is_no_package(text: str, word: str) -> None:
    assert word not in names(parse(text)), names(parse(text))


@pytest.mark.parametrize(
    ("text", "package"),
    [
        ("bowtie2 2.5 and racon for the polishing", "racon"),
        ("MontePython 3.6 + CLASS, 128 cores", "class"),
        ("pip install stack", "stack"),
        ("diamond 2.1.9 for the protein search", "diamond"),
    ],
)
def test_a_rare_or_strongly_marked_word_is_still_a_package(text: str, package: str) -> None:
    assert package in names(parse(text)), names(parse(text))


def test_the_common_word_list_is_the_generated_one() -> None:
    from endpoint_plugins.parsing.vocabulary import common_word

    assert common_word("after") and common_word("Polish") and not common_word("racon")


def test_the_arguments_of_a_program_named_by_its_path_are_bookkeeping() -> None:
    req = parse("#!/bin/bash\n#SBATCH -N 2\nsrun ./hydro -i deck.sedov -o run7\n")
    assert not {"deck.sedov", "run7"} & set(names(req)), names(req)


# -- one node named later in the clause; negation by the subject; a fast network ------------


def test_amounts_of_one_unit_on_a_single_node_size_the_node() -> None:
    req = parse("Each alignment needs 32 cores and 250 GB of RAM on a single node, 9 hours.")
    assert req.compute.cores_per_node == 32 and req.compute.memory_gb_per_node == 250
    assert req.compute.nodes == 1


@pytest.mark.parametrize(
    ("text", "feature"),
    [("Nothing needs GPUs here.", "gpu"), ("none of it uses MPI, 4 cores", "mpi")],
)
def test_a_negation_by_the_subject_excludes(text: str, feature: str) -> None:
    assert feature in [f.value for f in parse(text).excluded]


@pytest.mark.parametrize("text", ["the network must be fast", "our interconnect should be fast"])
def test_a_network_that_must_be_fast_is_low_latency(text: str) -> None:
    req = parse(text)
    assert req.network is not None and req.network.low_latency


# -- builds with a library -------------------------------------------------------------------


def _variants(req: Requirements, name: str) -> list[str]:
    found = [s for s in req.software if s.name == name]
    assert found, names(req)
    return list(found[0].variants)


@pytest.mark.parametrize(
    ("text", "name", "variant"),
    [
        ("Trilinos compiled with SuperLU, 4 nodes", "trilinos", "+superlu"),
        ("we need SLEPc built against PETSc", "slepc", "+petsc"),
        ("CASTEP (the academic build) built with ELPA", "castep", "+elpa"),
        ("our QUOKKA code (AMR) built with CUDA", "quokka", "+cuda"),
    ],
)
def test_a_package_built_with_a_library_has_that_variant(
    text: str, name: str, variant: str
) -> None:
    req = parse(text)
    assert variant in _variants(req, name)


@pytest.mark.parametrize(
    ("text", "other"),
    [("HDF5 built with GCC 13", "gcc"), ("FFTW built with CUDA 12.4", "cuda")],
)
def test_a_compiler_or_a_versioned_library_is_a_package_of_its_own(text: str, other: str) -> None:
    req = parse(text)
    assert other in names(req)


def test_a_bracket_without_a_build_ties_nothing() -> None:
    req = parse("cuDF 24.06 (RAPIDS) with CUDA 12.2")
    assert "cuda" in names(req)


# -- catalogue spellings, date releases, speed keys ------------------------------------------


def test_a_catalogued_spelling_with_digits_is_no_version() -> None:
    req = parse("iqtree2 and mafft, 16 threads")
    found = [s for s in req.software if s.name == "iq-tree"]
    assert found and found[0].constraints == ()


def test_a_date_release_is_a_version_of_a_shaped_name() -> None:
    req = parse("needs Sirius-DFT 20231130 on 2 nodes")
    found = {s.name: [str(c) for c in s.constraints] for s in req.software}
    assert found.get("sirius-dft") == ["==20231130"], found


def test_osu_benchmarks_are_one_package() -> None:
    assert "osu-micro-benchmarks" in names(parse("OSU micro-benchmarks 7.3 between 2 nodes"))


@pytest.mark.parametrize("text", ["min_link_gbps: 100", "link_speed_gbps = 100"])
def test_a_link_speed_key(text: str) -> None:
    req = parse(text)
    assert req.network is not None and req.network.min_speed_gbps == 100


# -- threads per rank ------------------------------------------------------------------------


def test_threads_per_rank_multiply_ranks_per_node() -> None:
    req = parse("6 nodes, 16 MPI ranks per node, 4 threads per rank, 10h")
    assert req.compute.nodes == 6 and req.compute.cores_per_node == 64


def test_threads_per_rank_without_ranks_per_node_size_one_rank() -> None:
    req = parse("512 MPI ranks with 2 threads per rank")
    assert req.compute.total_cores == 512 and req.compute.cores_per_node is None
    assert any("2 threads" in u for u in req.unresolved), req.unresolved


def test_one_core_per_chain_sizes_a_chain() -> None:
    req = parse("8 chains, one core per chain, packed on a 32-core node")
    assert req.compute.total_cores != 1


# -- release tags as versions ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("ansys fluent 2023 R1 on 2 nodes", "ansys-fluent", "==2023R1"),
        ("LS-DYNA R13.1, 4 nodes", "ls-dyna", "==R13.1"),
        ("app = abaqus\nversion = R2", "abaqus", "==R2"),
        ("MESA r23.05.1 on one node", "mesa", "==r23.05.1"),
    ],
)
def test_a_release_tag_is_a_version(text: str, name: str, version: str) -> None:
    found = {s.name: [str(c) for c in s.constraints] for s in parse(text).software}
    assert found.get(name) == [version], found


# -- a version set apart from its name -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("a short openmm run (v8.1) on one GPU", "openmm", "==8.1"),
        ("the Kripke code (transport proxy) version 1.2 on 4 nodes", "kripke", "==1.2"),
        ("gromacs build version 2024.2", "gromacs", "==2024.2"),
    ],
)
def test_a_version_after_a_noun_or_a_bracket(text: str, name: str, version: str) -> None:
    found = {s.name: [str(c) for c in s.constraints] for s in parse(text).software}
    assert found.get(name) == [version], found


def test_a_bracket_without_the_word_version_keeps_its_number() -> None:
    """ "LAMMPS (12 nodes)" is no version 12: only an explicit "version" crosses a bracket."""
    req = parse("LAMMPS (on 12 nodes) for 4 hours")
    found = [s for s in req.software if s.name == "lammps"]
    assert found and found[0].constraints == () and req.compute.nodes == 12


# -- the interpreter a job script runs -------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "interpreter"),
    [
        ("#!/bin/bash\n#SBATCH -N 1\nsrun python3 fit.py --epochs 4\n", "python"),
        ("#!/bin/bash\n#SBATCH -N 1\njulia --project solve.jl\n", "julia"),
        ("#!/bin/bash\n#SBATCH -N 1\nRscript model.R\n", "r"),
    ],
)
def test_the_interpreter_of_a_script_line_is_needed(script: str, interpreter: str) -> None:
    req = parse(script)
    assert interpreter in names(req), names(req)
    assert not {"fit.py", "solve.jl", "model.r"} & set(names(req))


def test_an_interpreter_inside_a_container_is_the_images() -> None:
    req = parse("#!/bin/bash\n#SBATCH -N 1\napptainer exec img.sif python3 fit.py\n")
    assert "python" not in names(req)
    assert req.container is not None and req.container.runtime == "apptainer"
