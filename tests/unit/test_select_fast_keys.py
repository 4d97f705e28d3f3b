"""The ordering selectors rank by precomputed flat keys; the ranking must be exactly the
one their ``sort_key`` defines (``sorted(candidates, key=sort_key)``), and the one a
straightforward reference written here from the documented rules gives, on any proposal set:
unknown and NaN metrics, infinities, equal values, repeated sites and repeated objects; from a
list or tuple (keys read straight from the models), from a :class:`ProposalSet` (first and
kept ranking), for ``select`` (the best only) and through the fallback chain."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from providers.wire import Metrics, Policy, Proposal, Verdict
from secretary_executor.select import MinCost, QueueDepth, Soonest, select_with_fallback
from secretary_executor.select._common import candidates, distinct
from secretary_executor.select.base import SortingSelector
from secretary_executor.select.proposal_set import ProposalSet

ORDERING = [Soonest(), MinCost(), QueueDepth()]

floats = st.one_of(
    st.none(),
    st.sampled_from([0.0, -0.0, 1.0, 2.5, float("inf"), float("-inf"), float("nan")]),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
)
ints = st.one_of(st.none(), st.integers(min_value=0, max_value=5))
proposal = st.builds(
    lambda site, verdict, start, cost, queue, free: Proposal(
        site=site,
        verdict=verdict,
        metrics=Metrics(
            estimated_start_s=start, estimated_cost_usd=cost, queue_depth=queue, free_nodes=free
        ),
    ),
    site=st.sampled_from(["a", "b", "c", "d", "e"]),
    verdict=st.sampled_from(list(Verdict)),
    start=floats,
    cost=floats,
    queue=ints,
    free=ints,
)


def reference(selector: SortingSelector, proposals: list[Proposal]) -> list[Proposal]:
    return sorted(candidates(proposals, selector.verdicts), key=selector.sort_key)


def unknown_last(value: float | None) -> tuple[bool, float]:
    """Known values first, smallest first; None and NaN after them, equal to each other."""
    unknown = value is None or value != value
    return (unknown, 0.0 if unknown else float(value))  # type: ignore[arg-type]


def unknown_last_high_first(value: float | None) -> tuple[bool, float]:
    unknown, v = unknown_last(value)
    return (unknown, -v)


REFERENCE_KEYS = {
    "soonest": lambda p: (
        p.verdict is not Verdict.READY,
        unknown_last(p.metrics.estimated_start_s),
        unknown_last(p.metrics.queue_depth),
        p.site,
    ),
    "min-cost": lambda p: (
        unknown_last(p.metrics.estimated_cost_usd),
        p.verdict is not Verdict.READY,
        unknown_last(p.metrics.estimated_start_s),
        p.site,
    ),
    "queue-depth": lambda p: (
        unknown_last(p.metrics.queue_depth),
        unknown_last_high_first(p.metrics.free_nodes),
        p.verdict is not Verdict.READY,
        p.site,
    ),
}


def straightforward(name: str, proposals: list[Proposal]) -> list[Proposal]:
    """Each READY or BUSY object once (first occurrence), stably sorted by the documented key."""
    pool: list[Proposal] = []
    for p in proposals:
        if p.verdict in (Verdict.READY, Verdict.BUSY) and all(p is not q for q in pool):
            pool.append(p)
    return sorted(pool, key=REFERENCE_KEYS[name])


@settings(max_examples=300, deadline=None)
@given(st.lists(proposal, max_size=40), st.data())
def test_column_ranking_equals_the_sort_key_ranking(proposals: list[Proposal], data) -> None:
    if proposals:  # the same object twice must still be ranked once
        proposals = proposals + [data.draw(st.sampled_from(proposals))]
    for selector in ORDERING:
        got = selector.rank(proposals, None, Policy(algorithm=selector.name))
        want = reference(selector, proposals)
        assert [id(p) for p in got] == [id(p) for p in want], selector.name
        plain = straightforward(selector.name, proposals)
        assert [id(p) for p in got] == [id(p) for p in plain], selector.name
        best = selector.select(proposals)
        assert best is (plain[0] if plain else None), selector.name
        kept = ProposalSet(proposals)
        for _ in range(2):  # computed, then the kept ranking
            again = selector.rank(kept, None, Policy(algorithm=selector.name))
            assert [id(p) for p in again] == [id(p) for p in plain], selector.name
        assert selector.select(kept) is best, selector.name
        for _ in range(2):  # from a plain sequence nothing is kept: each ranking is read afresh
            again = selector.rank(tuple(proposals), None, Policy(algorithm=selector.name))
            assert [id(p) for p in again] == [id(p) for p in plain], selector.name
        assert selector.select(tuple(proposals)) is best, selector.name
        groups = selector.direct(distinct(proposals))  # declines exactly where rows cannot say
        assert (groups is None) == bool(selector.columns & kept.ambiguous), selector.name
        if groups is not None:
            direct = [key[-1] for group in groups for key in sorted(group)]
            assert [id(p) for p in direct] == [id(p) for p in plain], selector.name


@settings(max_examples=150, deadline=None)
@given(st.lists(proposal, max_size=30), st.data())
def test_the_fallback_chain_ranks_as_the_sort_key(proposals: list[Proposal], data) -> None:
    """The broker's decision: the policy's algorithm, after one that cannot decide (agentic
    with no model), from a plain list, a tuple or a set, with repeated objects."""
    if proposals:
        proposals = proposals + [data.draw(st.sampled_from(proposals))]
    for selector in ORDERING:
        plain = straightforward(selector.name, proposals)
        others = tuple(s.name for s in ORDERING if s is not selector)
        for policy in (
            Policy(algorithm=selector.name, fallback=others),
            Policy(algorithm="agentic", fallback=(selector.name, *others)),
        ):
            for arrived in (proposals, tuple(proposals), ProposalSet(proposals)):
                outcome = select_with_fallback(arrived, None, policy)
                assert outcome.algorithm == selector.name
                assert outcome.ranked == tuple(p.site for p in plain), selector.name
                assert outcome.chosen is (plain[0] if plain else None), selector.name


def test_a_kept_ranking_is_a_new_list_each_time() -> None:
    kept = ProposalSet(
        [Proposal(site="a", verdict=Verdict.READY), Proposal(site="b", verdict=Verdict.BUSY)]
    )
    first = Soonest().rank(kept, None, Policy(algorithm="soonest"))
    first.clear()
    assert [p.site for p in Soonest().rank(kept, None, Policy(algorithm="soonest"))] == ["a", "b"]
    assert len(kept) == 2 and [p.site for p in kept] == ["a", "b"] and kept[0].site == "a"


def test_a_known_infinity_still_sorts_before_an_unknown_value() -> None:
    """Flat keys cannot tell a known ``inf`` from unknown, so ``sort_key`` decides."""
    late = Proposal(site="z-late", verdict=Verdict.READY, metrics=Metrics(estimated_start_s=1e400))
    unknown = Proposal(site="a-unknown", verdict=Verdict.READY, metrics=Metrics())
    ranked = Soonest().rank([unknown, late], None, Policy(algorithm="soonest"))
    assert [p.site for p in ranked] == ["z-late", "a-unknown"]


def test_flat_keys_are_used_when_they_can_say_the_key() -> None:
    pool = [
        Proposal(site=s, verdict=Verdict.READY, metrics=Metrics(queue_depth=q))
        for s, q in [("b", 1), ("a", None)]
    ]
    kept = ProposalSet(pool)
    assert kept.ambiguous == frozenset() and len(kept.rows) == 2
    late = ProposalSet(
        [Proposal(site="z", verdict=Verdict.BUSY, metrics=Metrics(estimated_cost_usd=1e400))]
    )
    assert late.ambiguous == {"cost"}
