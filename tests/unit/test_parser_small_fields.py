"""Small fields in wordings the parser had never read: optional items, negated network needs,
relative deadlines in key=value text, budgets in words, patched builds and negated choices.

Each test states one class in sentences written for the test, not copied from the corpus:
items under a "Nice to have" heading or after "Nice to have:" on a line are no requirements
(a GPU there makes GPUs an option); "networking" is a word of its own, never a misspelt
"network", so "no need for fast networking" stays an exclusion; a deadline key with a span
("need_by=+36h", "deadline: in 3 days") counts from now and is never a walltime; "two
thousand dollars" is a budget; "patched with PLUMED 2.9" is a build variant as well as a
package; "we don't need X or Y" asks for neither, and offers no choice between them.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements
from providers.wire.requirements import Feature, GpuLogic

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def low_latency(req: Requirements) -> bool:
    return req.network is not None and req.network.low_latency is True


def names(req: Requirements) -> set[str]:
    return {s.name for s in req.software}


def choices(req: Requirements) -> list[set[str]]:
    return [{s.name for s in a.any_of} for a in req.alternatives]


# -- optional items --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Required:\n- 8 nodes\n- Open MPI\n\nNice to have:\n  - a low-latency network\n",
        "MUST\n* 8 nodes\n* Open MPI\nNICE-TO-HAVE\n* RDMA between the nodes\n",
        "Needs: 8 nodes, Open MPI.\nWish list:\n- high-speed interconnect\n",
        "- 8 nodes\n- Open MPI\n- Nice to have: a fast interconnect for the halo exchange\n",
    ],
)
def test_a_network_wish_is_no_network_requirement(text: str) -> None:
    req = parse(text)
    assert req.compute.nodes == 8
    assert not low_latency(req)
    assert not req.unresolved


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Needs:\n- 2 nodes\n\nOptional:\n- local SSD scratch space\n- Paraview\n", set()),
        ("* Code: NAMD 3.0\n* Nice to have: VMD for looking at the frames\n", {"namd"}),
        ("### Must\n- CP2K 2024.1\n\n### Nice to have\n- a node-local NVMe cache\n", {"cp2k"}),
    ],
)
def test_optional_items_ask_for_nothing(text: str, kept: set[str]) -> None:
    req = parse(text)
    assert names(req) == kept
    assert not req.storage


def test_a_gpu_in_an_optional_line_makes_gpus_an_option() -> None:
    req = parse("* Code: NAMD 3.0, 4 nodes\n* Nice to have: GPUs to speed it up\n")
    assert req.compute.gpu_logic is GpuLogic.OR
    assert req.compute.gpus_per_node is None


@pytest.mark.parametrize(
    "text",
    [
        "We need 4 nodes and a low-latency network; nice to have would be a short queue.",
        "Must have:\n- 4 nodes\n- a fast interconnect\n",
    ],
)
def test_a_required_network_outside_the_optional_items_stays(text: str) -> None:
    assert low_latency(parse(text))


# -- negated network needs -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Runs on 6 nodes. No need for low-latency networking, it is embarrassingly parallel.",
        "Six nodes; we don't need fast networking at all.",
        "No high-speed networking needed, 6 nodes.",
    ],
)
def test_networking_after_a_negation_is_an_exclusion_only(text: str) -> None:
    req = parse(text)
    assert Feature.LOW_LATENCY in req.excluded
    assert not low_latency(req)


@pytest.mark.parametrize(
    "text",
    ["6 nodes with low-latency networking", "6 nodes, fast networking between them please"],
)
def test_networking_asked_for_is_low_latency(text: str) -> None:
    req = parse(text)
    assert low_latency(req)
    assert Feature.LOW_LATENCY not in req.excluded


def test_a_misspelt_network_word_is_still_read() -> None:
    assert low_latency(parse("4 nodes and a fast netwrok"))


# -- relative deadlines in key=value text ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("app=wrf nodes=4 need_by=+36h", "2026-12-02T21:00:00+00:00"),
        ("deadline=+3d cores=64", "2026-12-04T09:00:00+00:00"),
        ("results_by: in 2 days\ncores: 64", "2026-12-03T09:00:00+00:00"),
        ('{"cores": 64, "deadline": "within 12 hours"}', "2026-12-01T21:00:00+00:00"),
        ("due_by=now+1w nodes=2", "2026-12-08T09:00:00+00:00"),
    ],
)
def test_a_deadline_key_with_a_span_counts_from_now(text: str, expected: str) -> None:
    req = parse(text)
    assert req.deadline is not None and req.deadline.isoformat() == expected
    assert req.compute.walltime_s is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("deadline: 5pm", "2026-12-01T17:00:00+00:00"),
        ("deadline=2026-12-10", "2026-12-10T23:59:59+00:00"),
        ("due_by: friday", "2026-12-04T23:59:59+00:00"),
    ],
)
def test_a_deadline_key_with_a_time_or_date_is_unchanged(text: str, expected: str) -> None:
    req = parse(text)
    assert req.deadline is not None and req.deadline.isoformat() == expected


def test_a_walltime_key_with_a_span_stays_a_walltime() -> None:
    req = parse("walltime=48h nodes=2")
    assert req.compute.walltime_s == 48 * 3600
    assert req.deadline is None


# -- budgets in words ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We can pay at most three thousand dollars for the whole campaign.", 3000.0),
        ("budget: five hundred USD, 2 nodes", 500.0),
        ("Our group has about fifty bucks left for this.", 50.0),
        ("Up to a thousand US dollars is fine.", 1000.0),
        ("Keep it under twenty dollars please.", 20.0),
    ],
)
def test_an_amount_in_words_is_a_budget(text: str, expected: float) -> None:
    assert parse(text).budget_usd == expected


@pytest.mark.parametrize(
    "text",
    [
        "two thousand atoms on 4 nodes",
        "a thousand samples, each on one core",
        "We run three hundred replicas.",
    ],
)
def test_a_number_in_words_without_money_is_no_budget(text: str) -> None:
    assert parse(text).budget_usd is None


# -- patched builds --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "package", "plugin"),
    [
        ("We run LAMMPS 2Aug2023 patched with PLUMED 2.9 on one node.", "lammps", "plumed"),
        ("CP2K 2024.1, patched with PLUMED 2.8, 2 nodes", "cp2k", "plumed"),
    ],
)
def test_a_patched_package_has_the_plugin_as_variant_and_package(
    text: str, package: str, plugin: str
) -> None:
    req = parse(text)
    found = {s.name: s for s in req.software}
    assert f"+{plugin}" in found[package].variants
    assert plugin in found
    assert [c.version for c in found[plugin].constraints]


def test_a_package_patched_with_an_unversioned_plugin_is_a_variant_only() -> None:
    req = parse("GROMACS 2024, patched with PLUMED, on 1 GPU")
    found = {s.name: s for s in req.software}
    assert "+plumed" in found["gromacs"].variants


@pytest.mark.parametrize(
    "text",
    [
        "We use GROMACS 2024 and PLUMED 2.9 on one GPU.",
        "GROMACS 2024; I patched the topology by hand last week.",
    ],
)
def test_no_patch_no_variant(text: str) -> None:
    req = parse(text)
    found = {s.name: s for s in req.software}
    assert not found["gromacs"].variants


# -- negated choices -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Dask 2024.1 on 8 nodes. We don't need Hadoop or Hive for this.", {"dask"}),
        ("OpenFOAM 11; no need for ParaView or VisIt on the nodes.", {"openfoam"}),
        ("We do not require GROMACS or NAMD, only AMBER 24.", {"amber"}),
        ("Julia 1.10 is all; we won't use Python or R.", {"julia"}),
    ],
)
def test_a_negated_choice_asks_for_neither(text: str, kept: set[str]) -> None:
    req = parse(text)
    assert names(req) == kept
    assert not req.alternatives


@pytest.mark.parametrize(
    ("text", "group"),
    [
        ("We need GROMACS or NAMD on 2 nodes.", {"gromacs", "namd"}),
        ("It does not matter: OpenFOAM or SU2, whatever is installed.", {"openfoam", "su2"}),
        ("Not sure yet; LAMMPS or HOOMD-blue would both work.", {"lammps", "hoomd-blue"}),
    ],
)
def test_a_choice_that_is_not_negated_stays(text: str, group: set[str]) -> None:
    assert group in choices(parse(text))


# -- when to hear back is no deadline --------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "It would be great to hear back by Thursday; the jobs themselves have no deadline. 2 nodes",
        "Please reply within 3 days if you can host this. 2 nodes, 12 hours each.",
        "Could you let us know by Friday whether 2 nodes are possible?",
        "A response before the 10th would help us plan. 2 nodes.",
    ],
)
def test_when_to_hear_back_is_no_deadline(text: str) -> None:
    assert parse(text).deadline is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We need the results by Friday. Let me know.", "2026-12-04T23:59:59+00:00"),
        ("Let me know if the results can be ready by Friday.", "2026-12-04T23:59:59+00:00"),
        ("Please answer soon; the runs must finish by Friday.", "2026-12-04T23:59:59+00:00"),
        ("2 nodes, results within 2 days, and a reply is welcome", "2026-12-03T09:00:00+00:00"),
    ],
)
def test_a_results_deadline_near_a_reply_word_stays(text: str, expected: str) -> None:
    req = parse(text)
    assert req.deadline is not None and req.deadline.isoformat() == expected


# -- "that much" space -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The checkpoints add up to 1.5 TB, so we need that much free disk space.", 1500.0),
        ("4 nodes; the results come to 700 GB and I need that much space.", 700.0),
        ("The archive is 12 TB. We'd need that much disk space free.", 12000.0),
    ],
)
def test_that_much_space_takes_the_size_named_before(text: str, expected: float) -> None:
    req = parse(text)
    assert [s.min_free_gb for s in req.storage] == [expected]


def test_that_much_space_with_no_size_is_quoted() -> None:
    req = parse("2 nodes, and that much disk space as last time.")
    assert not req.storage
    assert any("that much" in u for u in req.unresolved)
