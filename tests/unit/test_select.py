"""Selection algorithms: each ranking rule, ties, edge cases, seeds and the fallback chain."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from providers.wire import Metrics, Policy, Proposal, Verdict
from secretary_executor.errors import ConfigurationError, SelectionError
from secretary_executor.select import (
    SELECTORS,
    Agentic,
    FirstReady,
    MinCost,
    QueueDepth,
    RandomReady,
    RunAnytime,
    SelectionOutcome,
    Selector,
    SelectorInfo,
    Soonest,
    get_selector,
    list_selectors,
    select_with_fallback,
)
from secretary_executor.select.registry import VARIANTS

R, B = Verdict.READY, Verdict.BUSY
NEVER = (Verdict.INCOMPATIBLE, Verdict.NEEDS_INFORMATION, Verdict.UNREACHABLE, Verdict.UNKNOWN)
HEURISTICS = [name for name in SELECTORS if name != "agentic"]


def prop(site: str, verdict: Verdict = R, **metrics: float | int | str | None) -> Proposal:
    """A hand-built proposal: a site, a verdict and the metrics selectors rank by."""
    return Proposal(site=site, verdict=verdict, metrics=Metrics(**metrics))


def sites(ranked: list[Proposal]) -> list[str]:
    return [p.site for p in ranked]


def rank(name: str, proposals: list[Proposal], seed: int | None = None) -> list[Proposal]:
    return get_selector(name).rank(proposals, None, Policy(algorithm=name, seed=seed))


# --- registry ------------------------------------------------------------------------------------


def test_registry_has_the_seven_in_table_order() -> None:
    assert list(SELECTORS) == [
        "agentic",
        "first-ready",
        "random",
        "soonest",
        "run-anytime",
        "min-cost",
        "queue-depth",
    ]
    for name, cls in SELECTORS.items():
        assert issubclass(cls, Selector)
        assert cls.name == name
        assert cls.__doc__ and "Wins" in cls.__doc__ and "Loses" in cls.__doc__


def test_list_selectors_matches_table_1() -> None:
    rows = {info.name: info for info in list_selectors()}
    assert all(isinstance(info, SelectorInfo) for info in rows.values())
    assert (rows["agentic"].logic, rows["agentic"].status) == ("LLM Reasoning", "Varies")
    assert (rows["first-ready"].logic, rows["first-ready"].status) == ("Greedy", "READY")
    assert (rows["random"].logic, rows["random"].status) == ("Stochastic", "READY")
    assert (rows["soonest"].logic, rows["soonest"].status) == ("Quantitative", "R/B")
    assert (rows["run-anytime"].logic, rows["run-anytime"].status) == ("Stochastic", "R/B")
    assert (rows["min-cost"].logic, rows["min-cost"].status) == ("Economic", "R/B")
    assert (rows["queue-depth"].logic, rows["queue-depth"].use_case) == (
        "Quantitative",
        "Fleet-wide load balancing",
    )
    assert all(info.summary for info in rows.values())
    assert list(rows) == [*SELECTORS, *VARIANTS]  # every name get_selector accepts, Table 1 first
    assert (rows["agentic-cost"].logic, rows["agentic-cost"].status) == ("LLM Reasoning", "Varies")


def test_get_selector_returns_fresh_instances_and_normalises_names() -> None:
    a, b = get_selector("soonest"), get_selector("soonest")
    assert isinstance(a, Soonest) and a is not b
    assert isinstance(get_selector(" First_Ready "), FirstReady)


def test_unknown_algorithm_names_the_value_and_the_allowed_set() -> None:
    with pytest.raises(ConfigurationError) as info:
        get_selector("cheapest")
    message = info.value.message
    assert "'cheapest'" in message
    for name in SELECTORS:
        assert name in message


# --- first-ready ---------------------------------------------------------------------------------


def test_first_ready_keeps_input_order_and_skips_busy() -> None:
    proposals = [prop("b", B), prop("z", R), prop("a", R)]
    assert sites(FirstReady().rank(proposals, None, Policy())) == ["z", "a"]
    assert FirstReady().select(proposals).site == "z"


def test_first_ready_with_only_busy_chooses_none() -> None:
    assert FirstReady().select([prop("a", B), prop("b", B)]) is None


# --- random --------------------------------------------------------------------------------------


def test_random_is_reproducible_for_a_seed_and_ignores_arrival_order() -> None:
    proposals = [prop(f"s{i}", R) for i in range(8)] + [prop("busy", B)]
    first = sites(rank("random", proposals, seed=7))
    assert first == sites(rank("random", proposals, seed=7))
    assert first == sites(rank("random", list(reversed(proposals)), seed=7))
    assert sorted(first) == [f"s{i}" for i in range(8)]
    draws = {tuple(sites(rank("random", proposals, seed=s))) for s in range(20)}
    assert len(draws) > 1


def test_random_does_not_touch_global_random_state() -> None:
    import random

    state = random.getstate()
    rank("random", [prop("a"), prop("b")], seed=1)
    rank("run-anytime", [prop("a"), prop("b", B)], seed=1)
    assert random.getstate() == state


def test_random_with_only_busy_chooses_none() -> None:
    assert RandomReady().select([prop("a", B)], None, Policy(seed=3)) is None


# --- soonest -------------------------------------------------------------------------------------


def test_soonest_prefers_ready_then_earliest_start() -> None:
    proposals = [
        prop("busy-fast", B, estimated_start_s=10),
        prop("ready-slow", R, estimated_start_s=60),
        prop("ready-fast", R, estimated_start_s=5),
        prop("ready-unknown", R),
    ]
    assert sites(Soonest().rank(proposals, None, Policy())) == [
        "ready-fast",
        "ready-slow",
        "ready-unknown",
        "busy-fast",
    ]


def test_soonest_ties_break_by_queue_depth_then_name() -> None:
    proposals = [
        prop("c", B, estimated_start_s=100, queue_depth=3),
        prop("b", B, estimated_start_s=100, queue_depth=1),
        prop("a", B, estimated_start_s=100, queue_depth=3),
        prop("d", B, estimated_start_s=100),
    ]
    expected = ["b", "a", "c", "d"]
    assert sites(Soonest().rank(proposals, None, Policy())) == expected
    assert sites(Soonest().rank(list(reversed(proposals)), None, Policy())) == expected


def test_soonest_picks_a_busy_site_when_nothing_is_ready() -> None:
    proposals = [prop("x", B, estimated_start_s=900), prop("y", B, estimated_start_s=300)]
    assert Soonest().select(proposals).site == "y"


def test_soonest_treats_nan_as_unknown() -> None:
    proposals = [prop("nan", B, estimated_start_s=float("nan")), prop("ok", B, estimated_start_s=9)]
    assert sites(Soonest().rank(proposals, None, Policy())) == ["ok", "nan"]


# --- run-anytime ---------------------------------------------------------------------------------


def test_run_anytime_draws_among_ready_and_busy_reproducibly() -> None:
    proposals = [prop("r1", R), prop("b1", B), prop("b2", B), prop("no", Verdict.INCOMPATIBLE)]
    ranked = sites(rank("run-anytime", proposals, seed=42))
    assert sorted(ranked) == ["b1", "b2", "r1"]
    assert ranked == sites(rank("run-anytime", proposals, seed=42))
    assert RunAnytime().select([prop("only", B)], None, Policy(seed=0)).site == "only"
    chosen = {rank("run-anytime", proposals, seed=s)[0].site for s in range(40)}
    assert "b1" in chosen or "b2" in chosen


# --- min-cost ------------------------------------------------------------------------------------


def test_min_cost_cheapest_first_unknown_last() -> None:
    proposals = [
        prop("dear", R, estimated_cost_usd=9.5),
        prop("unpriced", R),
        prop("cheap", B, estimated_cost_usd=1.25),
    ]
    assert sites(MinCost().rank(proposals, None, Policy())) == ["cheap", "dear", "unpriced"]


def test_min_cost_ties_ready_then_soonest_then_name() -> None:
    proposals = [
        prop("busy", B, estimated_cost_usd=2.0, estimated_start_s=0),
        prop("late", R, estimated_cost_usd=2.0, estimated_start_s=50),
        prop("b-now", R, estimated_cost_usd=2.0, estimated_start_s=0),
        prop("a-now", R, estimated_cost_usd=2.0, estimated_start_s=0),
    ]
    assert sites(MinCost().rank(proposals, None, Policy())) == ["a-now", "b-now", "late", "busy"]


# --- queue-depth ---------------------------------------------------------------------------------


def test_queue_depth_shortest_queue_then_more_free_nodes() -> None:
    proposals = [
        prop("deep", R, queue_depth=40, free_nodes=100),
        prop("unknown", R),
        prop("short-few", R, queue_depth=2, free_nodes=1),
        prop("short-many", R, queue_depth=2, free_nodes=30),
        prop("short-unknown-free", R, queue_depth=2),
    ]
    assert sites(QueueDepth().rank(proposals, None, Policy())) == [
        "short-many",
        "short-few",
        "short-unknown-free",
        "deep",
        "unknown",
    ]


def test_queue_depth_ties_ready_then_name() -> None:
    proposals = [
        prop("c", B, queue_depth=0, free_nodes=0),
        prop("b", R, queue_depth=0, free_nodes=0),
        prop("a", R, queue_depth=0, free_nodes=0),
    ]
    assert sites(QueueDepth().rank(proposals, None, Policy())) == ["a", "b", "c"]


# --- agentic -------------------------------------------------------------------------------------


def test_agentic_without_a_model_says_how_to_fix_it() -> None:
    with pytest.raises(SelectionError) as info:
        Agentic().rank([prop("a")], None, Policy(algorithm="agentic"))
    message = info.value.message
    assert message.startswith("no model configured for agentic selection")
    assert "SECRETARY_LLM_BASE_URL" in message and "SECRETARY_LLM_MODEL" in message
    assert "docs/agents.md" in message and "--algorithm soonest" in message
    assert not info.value.transient


# --- edge cases, every heuristic -----------------------------------------------------------------


@pytest.mark.parametrize("name", HEURISTICS)
def test_empty_list_chooses_none(name: str) -> None:
    selector = get_selector(name)
    assert selector.rank([], None, Policy(seed=1)) == []
    assert selector.select([], None, Policy(seed=1)) is None


@pytest.mark.parametrize("name", HEURISTICS)
@pytest.mark.parametrize("verdict", NEVER)
def test_non_compatible_verdicts_are_never_chosen(name: str, verdict: Verdict) -> None:
    bad = [prop(f"s{i}", verdict, estimated_start_s=0, estimated_cost_usd=0) for i in range(3)]
    assert rank(name, bad, seed=1) == []
    mixed = [*bad, prop("good", B, estimated_start_s=500, estimated_cost_usd=99, queue_depth=9)]
    ranked = rank(name, mixed, seed=1)
    if SELECTORS[name].status == "READY":
        assert ranked == []
    else:
        assert sites(ranked) == ["good"]


@pytest.mark.parametrize("name", HEURISTICS)
def test_same_object_twice_is_ranked_once(name: str) -> None:
    one = prop("a", R)
    assert rank(name, [one, one, prop("b", R)], seed=2).count(one) == 1


# --- fallback chain ------------------------------------------------------------------------------


def test_fallback_moves_past_agentic_and_records_why() -> None:
    proposals = [prop("slow", B, estimated_start_s=600), prop("now", R, estimated_start_s=0)]
    outcome = select_with_fallback(
        proposals, None, Policy(algorithm="agentic", fallback=("soonest", "first-ready"))
    )
    assert isinstance(outcome, SelectionOutcome)
    assert outcome.algorithm == "soonest"
    assert outcome.chosen is not None and outcome.chosen.site == "now"
    assert outcome.ranked == ("now", "slow")
    assert len(outcome.notes) == 1 and outcome.notes[0].startswith("agentic could not decide")


def test_fallback_not_used_when_the_first_algorithm_decides() -> None:
    outcome = select_with_fallback([prop("a")], None, Policy(algorithm="first-ready"))
    assert (outcome.algorithm, outcome.chosen.site, outcome.notes) == ("first-ready", "a", ())


def test_nothing_to_choose_is_an_answer_with_a_note() -> None:
    outcome = select_with_fallback(
        [prop("a", B)], None, Policy(algorithm="first-ready", fallback=("soonest",))
    )
    assert outcome.chosen is None and outcome.algorithm == "first-ready"
    assert outcome.ranked == ()
    assert "1 proposal(s): 0 READY, 1 BUSY" in outcome.notes[0]


def test_fallback_chain_exhausted_raises_with_every_reason() -> None:
    with pytest.raises(SelectionError) as info:
        select_with_fallback([prop("a")], None, Policy(algorithm="agentic", fallback=("agentic",)))
    assert "tried agentic" in info.value.message
    assert "no model configured" in info.value.message


def test_fallback_with_an_unknown_name_fails_before_running() -> None:
    with pytest.raises(ConfigurationError, match="'soonst'"):
        select_with_fallback([prop("a")], None, Policy(algorithm="soonest", fallback=("soonst",)))


def test_fallback_passes_the_seed_through() -> None:
    proposals = [prop(f"s{i}") for i in range(6)]
    policy = Policy(algorithm="agentic", fallback=("random",), seed=11)
    assert select_with_fallback(proposals, None, policy).ranked == tuple(
        sites(rank("random", proposals, seed=11))
    )


# --- property ------------------------------------------------------------------------------------

_numbers = st.one_of(st.none(), st.floats(min_value=0, max_value=1e6))
_counts = st.one_of(st.none(), st.integers(min_value=0, max_value=1000))
_proposals = st.builds(
    prop,
    site=st.sampled_from(["a", "b", "c", "d", "e"]),
    verdict=st.sampled_from(list(Verdict)),
    estimated_start_s=_numbers,
    estimated_cost_usd=_numbers,
    queue_depth=_counts,
    free_nodes=_counts,
)


@given(
    pool=st.lists(_proposals, max_size=8),
    picks=st.lists(st.integers(min_value=0, max_value=7), max_size=12),
    name=st.sampled_from(HEURISTICS),
    seed=st.one_of(st.none(), st.integers()),
)
def test_rank_returns_unique_compatible_proposals_from_the_input(
    pool: list[Proposal], picks: list[int], name: str, seed: int | None
) -> None:
    # Repeating objects from the pool exercises identity de-duplication.
    proposals = pool + [pool[i] for i in picks if i < len(pool)]
    ranked = get_selector(name).rank(proposals, None, Policy(algorithm=name, seed=seed))
    compatible_ids = {id(p) for p in proposals if p.verdict.compatible}
    ranked_ids = [id(p) for p in ranked]
    assert len(ranked_ids) == len(set(ranked_ids))
    assert set(ranked_ids) <= compatible_ids
    if SELECTORS[name].status == "R/B":
        assert set(ranked_ids) == compatible_ids
    else:
        assert set(ranked_ids) == {id(p) for p in proposals if p.verdict is Verdict.READY}


def test_an_unknown_algorithm_fails_at_prepare_not_at_dispatch() -> None:
    """Checked before any site is asked, with the valid names in the message."""
    from providers.wire import Policy
    from secretary_executor.broker import Broker
    from secretary_executor.errors import ConfigurationError
    from secretary_executor.sites.fleet import demo_fleet

    broker = Broker(demo_fleet())
    with pytest.raises(ConfigurationError, match="soonest"):
        broker.prepare("1 core", policy=Policy(algorithm="cheapest-ever"))
    with pytest.raises(ConfigurationError):
        broker.prepare("1 core", policy=Policy(fallback=("nope",)))
