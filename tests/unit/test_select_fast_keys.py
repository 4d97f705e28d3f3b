"""The ordering selectors rank by precomputed flat keys; the ranking must be exactly the
one their ``sort_key`` defines (``sorted(candidates, key=sort_key)``), on any proposal set:
unknown and NaN metrics, infinities, equal values, repeated sites and repeated objects."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from providers.wire import Metrics, Policy, Proposal, Verdict
from secretary_executor.select import MinCost, QueueDepth, Soonest
from secretary_executor.select._common import candidates
from secretary_executor.select.base import SortingSelector

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


@settings(max_examples=300, deadline=None)
@given(st.lists(proposal, max_size=40), st.data())
def test_column_ranking_equals_the_sort_key_ranking(proposals: list[Proposal], data) -> None:
    if proposals:  # the same object twice must still be ranked once
        proposals = proposals + [data.draw(st.sampled_from(proposals))]
    for selector in ORDERING:
        got = selector.rank(proposals, None, Policy(algorithm=selector.name))
        want = reference(selector, proposals)
        assert [id(p) for p in got] == [id(p) for p in want], selector.name


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
    for selector in ORDERING:
        assert selector.flat_keys(pool) is not None, selector.name
