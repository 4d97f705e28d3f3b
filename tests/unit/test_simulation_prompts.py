"""Prompt generation: every index and style parses back to exactly the generated requirement."""

from __future__ import annotations

from collections import Counter

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire.requirements import Comparator, GpuLogic
from secretary_executor.simulation.catalogue import Catalogue, build_catalogue
from secretary_executor.simulation.generator import generate_fleet
from secretary_executor.simulation.prompts import INDEX_WEIGHTS, STYLES, generate_prompts


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return build_catalogue(w.state for w in generate_fleet(40))


@pytest.fixture(scope="module")
def prompts(catalogue):
    return generate_prompts(catalogue, 600, seed=3)


def test_every_index_and_style_occurs(prompts):
    seen = {(p.index, p.style) for p in prompts}
    assert seen == {(i, s) for i in INDEX_WEIGHTS for s in STYLES}


def test_every_prompt_parses_back_to_its_requirement(prompts):
    """The generator and the real parser agree by construction, for every index and style."""
    for p in prompts:
        parsed = parse_requirements(p.text)
        got = parsed.model_dump(mode="json", exclude={"source_text", "requested_at"})
        want = p.requirements.model_dump(mode="json", exclude={"source_text", "requested_at"})
        assert got == want, f"SI {p.index} {p.style}: {p.text!r}"


def test_index_weights_shape_the_distribution(prompts):
    counts = Counter(p.index for p in prompts)
    assert counts[3] > counts[2] > counts[1]
    assert counts[3] > counts[4] > counts[7]


def test_dimensions_grow_with_the_index(prompts):
    for p in prompts:
        r = p.requirements
        assert len(r.software) == 1  # an application is always requested
        assert bool(r.software[0].constraints) == (p.index >= 2)
        if p.index >= 2:
            assert r.software[0].constraints[0].op in (Comparator.LE, Comparator.GE, Comparator.EQ)
        assert (r.compute.nodes is not None) == (p.index >= 3)
        assert (r.compute.gpus_per_node is not None) == (p.index >= 4)
        assert (r.network is not None) == (p.index >= 5)
        assert (r.urgency is not None) == (p.index >= 5)
        assert bool(r.storage) == (p.index >= 6)
        assert (r.mpi is not None) == (p.index >= 6)
        assert (r.container is not None) == (p.index == 7)


def test_both_gpu_logics_occur(prompts):
    logics = {p.requirements.compute.gpu_logic for p in prompts if p.index >= 4}
    assert logics == {GpuLogic.AND, GpuLogic.OR}


def test_values_come_from_the_fleet_catalogue(prompts, catalogue):
    for p in prompts:
        sw = p.requirements.software[0]
        assert sw.name in catalogue.apps
        for c in sw.constraints:
            assert c.version in catalogue.apps[sw.name]
        if p.requirements.container is not None:
            assert p.requirements.container.runtime in catalogue.runtimes
        if p.requirements.mpi is not None:
            assert p.requirements.mpi.implementation in catalogue.mpi


def test_prompts_are_deterministic(catalogue):
    assert generate_prompts(catalogue, 20, seed=1) == generate_prompts(catalogue, 20, seed=1)
    assert generate_prompts(catalogue, 20, seed=1) != generate_prompts(catalogue, 20, seed=2)


def test_empty_catalogue_is_refused(catalogue):
    empty = catalogue.model_copy(update={"apps": {}})
    with pytest.raises(ValueError, match="no software"):
        generate_prompts(empty, 1)
