"""The free space of a storage need, and the sizes that are not it.

Free space is read when the text sizes the room it asks for, wherever the amount sits: "room
for 600 GB of restart files", "space to hold 3 TB", an amount pointing back at a kind with
"there", a sized project area, a misspelt "terrabyte", free quota of a bucket, and a per-node
size right after a disk word. Sizes that describe data owned, used or produced before now,
data at a URL, and kinds named as where data already lives, or as examples of the parallel
filesystem asked for, are not needs. Every sentence here was written for the test; none is
copied from the request corpus.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements, StorageKind

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday

ANY = StorageKind.ANY
LUSTRE = StorageKind.LUSTRE
GPFS = StorageKind.GPFS
BEEGFS = StorageKind.BEEGFS
NFS = StorageKind.NFS
LOCAL = StorageKind.LOCAL
S3 = StorageKind.S3
PARALLEL = StorageKind.PARALLEL


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def storage(text: str) -> set[tuple[StorageKind, float | None]]:
    return {(s.kind, s.min_free_gb) for s in parse(text).storage}


# -- room / space for an amount --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Please leave room for 600 GB of restart files.", {(ANY, 600.0)}),
        ("We need space to hold 3 TB of simulation snapshots.", {(ANY, 3000.0)}),
        ("The run writes a lot, so room for ~2 TB of output somewhere.", {(ANY, 2000.0)}),
        ("GPFS scratch with room for about 750 GB of trajectories, please.", {(GPFS, 750.0)}),
        ("Our BeeGFS area must have space for 12 TB of raw frames.", {(BEEGFS, 12000.0)}),
        ("8 nodes, 4 hours, and capacity for up to 5 TiB of logs.", {(ANY, 5497.558139)}),
        ("ich brauche scratch with room to store 900 Go of results", {(ANY, 900.0)}),
    ],
)
def test_room_for_an_amount_is_free_space(text: str, want: set) -> None:
    assert storage(text) == want


@pytest.mark.parametrize(
    "text",
    [
        "The node needs 512 GB of RAM with room for a 40 GB model in memory.",
        "Leave room for 3 more nodes next week if you can.",
    ],
)
def test_room_in_memory_or_for_nodes_is_no_storage(text: str) -> None:
    assert not any(s.min_free_gb for s in parse(text).storage)


# -- an amount pointing back with "there" -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "Outputs land on the Lustre scratch. Over the week we will write about 4 TB there.",
            {(LUSTRE, 4000.0)},
        ),
        (
            "Inputs come from an object store bucket and we need 250 GB free there for temp files.",
            {(S3, 250.0)},
        ),
        (
            "Use our group NFS export; please check we can store 80 GB there.",
            {(NFS, 80.0)},
        ),
        (
            "The frames go to GPFS and we must keep roughly 9 TB there until the paper is out.",
            {(GPFS, 9000.0)},
        ),
        (
            "Inputs are on an S3 bucket, we need 300 GB free there; also 2 TB of local scratch.",
            {(S3, 300.0), (LOCAL, 2000.0)},
        ),
    ],
)
def test_size_there_sizes_the_kind_named_before(text: str, want: set) -> None:
    assert storage(text) == want


# -- sized project areas, quota, the misspelt unit, per-node disk ------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Could I get a project space of 5 TB for the consortium?", {(ANY, 5000.0)}),
        ("we need a group directory with about 800 GB for shared conda envs", {(ANY, 800.0)}),
        ("home quota of 200 GB would be enough", {(ANY, 200.0)}),
        ("an S3 bucket with 15 TB of free quota for the archive tiles", {(S3, 15000.0)}),
        ("plz some scratch, roughly one terrabyte, for 2 days", {(ANY, 1000.0)}),
        ("I also need some scratch space, half a terrabyte would do.", {(ANY, 500.0)}),
        ("Nodes: 2. Disk: NVMe 1.5 TB on each node. Memory 64 GB per node.", {(LOCAL, 1500.0)}),
        ("Each node should have local SSD 800 GB per node and 3 days.", {(LOCAL, 800.0)}),
    ],
)
def test_sized_areas_and_misspelt_units(text: str, want: set) -> None:
    assert storage(text) == want


def test_per_node_disk_size_is_not_memory() -> None:
    req = parse("4 nodes. Memory 96 GB per node. Disk: local SSD 700 GB on every node.")
    assert req.compute.memory_gb_per_node == 96.0
    assert {(s.kind, s.min_free_gb) for s in req.storage} == {(LOCAL, 700.0)}


# -- sizes that are not free space -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "Our lab has 55 TB of radar data on /gpfs/archive. 6 TB free on GPFS for the run.",
            {(GPFS, 6000.0)},
        ),
        (
            "We used 120 TB of the object store last year. This time an S3 bucket with 5 TB.",
            {(S3, 5000.0)},
        ),
        ("Last campaign we filled 30 TB of Lustre; this one needs Lustre too.", {(LUSTRE, None)}),
        ("Input tiles: s3://survey-tiles/2026/ (about 70 GB), read only. Needs S3.", {(S3, None)}),
        ("The pipeline produced 2 TB of BAM files on our NFS.", {(NFS, None)}),
    ],
)
def test_data_owned_used_or_addressed_is_not_free_space(text: str, want: set) -> None:
    assert storage(text) == want


@pytest.mark.parametrize(
    "text",
    [
        "The checkpoints are 300 GB and they are already in my scratch. 4 hours on one node.",
        "my inputs are already on the scratch space, so 64 cores for 3 hours please",
        "Everything is already under our storage; just 2 nodes for a day.",
    ],
)
def test_generic_scratch_where_data_already_lives_is_no_need(text: str) -> None:
    assert parse(text).storage == ()


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("All inputs already sit on our Lustre project area, 64 cores please.", {(LUSTRE, None)}),
        ("The raw reads (~5 TB) are already stored on the NFS share; 2 nodes.", {(NFS, None)}),
    ],
)
def test_named_filesystem_where_data_already_lives_stays_a_need(text: str, want: set) -> None:
    """The job must reach the filesystem its data sits on; the data's size is not free space."""
    assert storage(text) == want


def test_kind_where_data_already_lives_and_must_be_mounted_is_a_need() -> None:
    text = "The reads already sit on our NFS share, which has to be mounted on the nodes."
    assert storage(text) == {(NFS, None)}


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("20 TB on a parallel filesystem (Lustre or GPFS, either works).", {(PARALLEL, 20000.0)}),
        ("We want parallel storage such as BeeGFS, with 4 TB free.", {(PARALLEL, 4000.0)}),
        ("a parallel file system (e.g. GPFS), and 10 TB free", {(PARALLEL, 10000.0)}),
    ],
)
def test_examples_of_the_parallel_filesystem_are_not_needs(text: str, want: set) -> None:
    assert storage(text) == want


def test_a_named_kind_beside_a_parallel_one_still_counts() -> None:
    assert storage("a parallel filesystem for the output and Lustre for the inputs") == {
        (PARALLEL, None),
        (LUSTRE, None),
    }


@pytest.mark.parametrize(
    "text",
    [
        "We model beam losses in a storage ring with 4 nodes for 6 hours.",
        "Tracking in the storage rings of two light sources, 128 cores.",
    ],
)
def test_a_storage_ring_is_no_storage(text: str) -> None:
    assert parse(text).storage == ()


def test_an_unsized_amount_with_no_storage_word_stays_unread() -> None:
    req = parse("I need 64 GB for this.")
    assert req.storage == ()
    assert any("64 GB" in u for u in req.unparsed)
