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
from providers.wire.proposal import RANK_KEYS
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


def proposals_of(sites: st.SearchStrategy[str], verdicts: list[Verdict]) -> st.SearchStrategy:
    metrics = st.builds(
        Metrics,
        estimated_start_s=floats,
        estimated_cost_usd=floats,
        queue_depth=ints,
        free_nodes=ints,
    )
    return st.builds(Proposal, site=sites, verdict=st.sampled_from(verdicts), metrics=metrics)


proposal = proposals_of(st.sampled_from(["a", "b", "c", "d", "e"]), list(Verdict))


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


# Keys kept by the proposals themselves (``RANK_KEYS``, computed when a proposal is built) rank
# a plain list or tuple with no Python code run per proposal; they must order as ``sort_key``
# and must never outlive the values they were computed from.

long_sites = st.one_of(
    st.sampled_from(["a", "a\x00", "b", "é", "\U0001f600", "z" * 40 + "1", "z" * 40 + "2"]),
    st.text(max_size=40),
)
long_proposal = proposals_of(long_sites, [Verdict.READY, Verdict.BUSY, Verdict.UNREACHABLE])


@settings(max_examples=300, deadline=None)
@given(st.lists(long_proposal, max_size=40), st.data())
def test_kept_keys_rank_as_the_sort_key(proposals: list[Proposal], data) -> None:
    """Long names alike in their first bytes, NUL, non-ASCII and surrogate-free text, repeated
    objects: where the kept keys decide, they decide as ``sort_key``."""
    if proposals and data.draw(st.booleans()):
        proposals = proposals + [data.draw(st.sampled_from(proposals))]
    for selector in ORDERING:
        plain = straightforward(selector.name, proposals)
        fast = selector.presorted(proposals)
        if fast is not None:
            assert [id(p) for p in fast] == [id(p) for p in plain], selector.name
        got = selector.rank(tuple(proposals), None, Policy(algorithm=selector.name))
        assert [id(p) for p in got] == [id(p) for p in plain], selector.name


def test_kept_keys_decide_a_plain_list() -> None:
    pool = [
        Proposal(site=f"s{i}", verdict=v, metrics=Metrics(estimated_start_s=t, queue_depth=q))
        for i, (v, t, q) in enumerate(
            [
                (Verdict.BUSY, 1.0, 3),
                (Verdict.READY, float("nan"), None),
                (Verdict.READY, -0.0, 2),
                (Verdict.INCOMPATIBLE, 0.0, 0),
                (Verdict.READY, 0.0, 1),
                (Verdict.READY, float("inf"), 0),
            ]
        )
    ]
    for selector in ORDERING:
        fast = selector.presorted(pool)
        assert fast is not None, selector.name
        assert [p.site for p in fast] == [p.site for p in reference(selector, pool)]
    # equal keys, different objects with equal names: input order, as the stable sort keeps
    twins = [Proposal(site="x", verdict=Verdict.READY) for _ in range(3)]
    assert [id(p) for p in Soonest().presorted(twins) or []] == [id(p) for p in twins]
    # the same object twice: ranked once, by the other path
    assert Soonest().presorted([twins[0], twins[0]]) is None
    assert Soonest().rank([twins[0], twins[0]], None, Policy()) == [twins[0]]
    # names alike in the bytes a key holds: the other path decides
    alike = [Proposal(site="q" * 40 + c, verdict=Verdict.READY) for c in "ba"]
    assert Soonest().presorted(alike) is None
    assert [p.site[-1] for p in Soonest().rank(alike, None, Policy())] == ["a", "b"]


def kept_keys(p: Proposal) -> dict[str, object]:
    return {name: p.__dict__[name] for name in RANK_KEYS if name in p.__dict__}


def test_kept_keys_follow_model_copy_with_changes() -> None:
    """A copy with other values gets the keys of those values, never the original's."""
    p = Proposal(site="a", verdict=Verdict.READY, metrics=Metrics(estimated_start_s=5.0))
    q = Proposal(site="b", verdict=Verdict.READY, metrics=Metrics(estimated_start_s=1.0))
    assert Soonest().presorted([p, q]) == [q, p]
    for deep in (False, True):
        sooner = p.model_copy(update={"metrics": Metrics(estimated_start_s=0.5)}, deep=deep)
        assert Soonest().presorted([q, sooner]) == [sooner, q]
        gone = p.model_copy(update={"verdict": Verdict.INCOMPATIBLE}, deep=deep)
        assert Soonest().presorted([gone, q]) == [q]
        renamed = q.model_copy(update={"site": "0"}, deep=deep)
        assert kept_keys(renamed) == kept_keys(
            Proposal(site="0", verdict=Verdict.READY, metrics=q.metrics)
        )
        same = p.model_copy(deep=deep)
        assert kept_keys(same) == kept_keys(p) and same == p
    # values the keys cannot hold: the copy keeps none, and sort_key decides
    raw = p.model_copy(update={"metrics": {"estimated_start_s": 0.1}})
    assert kept_keys(raw) == {} and Soonest().presorted([raw, q]) is None


def test_kept_keys_are_no_part_of_the_model() -> None:
    """Not dumped, not in the schema, not compared or hashed, not pickled (recomputed)."""
    import copy
    import pickle

    import pytest

    dill = pytest.importorskip("dill")  # how Globus Compute and Parsl send objects

    # (no NaN here: a NaN equals nothing but itself, so no copy of it would compare equal)
    p = Proposal(site="a", verdict=Verdict.BUSY, metrics=Metrics(estimated_cost_usd=1e400))
    assert set(kept_keys(p)) == set(RANK_KEYS)
    assert not set(RANK_KEYS) & set(p.model_dump()) and "_rank" not in p.model_dump_json()
    assert dict(p).keys() == p.model_dump().keys()
    assert "_rank" not in str(Proposal.model_json_schema()) and "_rank" not in repr(p)
    bare = Proposal.model_validate_json(p.model_dump_json())
    bare.__dict__.clear()
    bare.__dict__.update({k: v for k, v in p.__dict__.items() if k not in RANK_KEYS})
    assert bare == p and hash(bare.model_copy(update={"metrics": Metrics()})) == hash(
        p.model_copy(update={"metrics": Metrics()})
    )
    state = p.__getstate__()
    assert not set(RANK_KEYS) & set(state["__dict__"]) and set(kept_keys(p)) == set(RANK_KEYS)
    for back in (
        pickle.loads(pickle.dumps(p)),
        dill.loads(dill.dumps(p)),
        copy.copy(p),
        copy.deepcopy(p),
        Proposal.model_validate(p.model_dump()),
    ):
        assert back == p and kept_keys(back) == kept_keys(p)
    # a proposal built from raw values keeps no keys: another path ranks the list
    odd = Proposal.model_construct(site="c", verdict="READY", metrics=Metrics())
    assert kept_keys(odd) == {} and Soonest().presorted([odd, p]) is None
