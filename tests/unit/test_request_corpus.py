"""The hand-labelled corpus: well-formed labels, the fail-safe rule, and floors on the dev split.

Only the dev split and the verdict set are asserted on here. The held-out split
(``tests/data/requests/heldout-*.yaml``) is read by ``bench/parser_accuracy.py`` alone; a test
that asserted on it would make it a training set.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from endpoint_plugins.negotiation.rules import UNRESOLVED_PREFIX
from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.parsing.parser import PARSER_ERROR
from endpoint_plugins.parsing.vocabulary import is_prose, leftover_words
from providers.wire import CheckStatus, Verdict
from secretary_executor.evaluation.corpus import FIELDS, load_corpus, score
from secretary_executor.evaluation.verdicts import (
    labelled_requirements,
    negotiate,
    parsed_requirements,
    score_verdicts,
    verdict_set,
)

DATA = Path(__file__).resolve().parents[1] / "data"
LABEL_KEYS = {
    "software", "any_of", "nodes", "cores_per_node", "total_cores", "gpus_per_node",
    "total_gpus", "gpu_model", "gpu_vendor", "gpu_optional", "memory_gb_per_node",
    "memory_gb_total", "walltime_s", "fabric", "low_latency", "min_speed_gbps", "storage",
    "container", "mpi", "exclude", "urgency", "deadline", "budget_usd", "unexpressible",
}  # fmt: skip

NOW, DEV = load_corpus(DATA / "requests", "dev-*.yaml")
_, VERDICT_REQUESTS, SITES = verdict_set(DATA / "verdicts")


def _all_labelled() -> list:
    held = load_corpus(DATA / "requests", "heldout-*.yaml")[1]
    return [*DEV, *held, *VERDICT_REQUESTS]


def test_the_corpus_is_large_enough_and_well_formed() -> None:
    items = _all_labelled()
    held = [r for r in items if r.split.startswith("heldout")]
    assert len(DEV) + len(held) >= 300 and len(held) >= 100
    assert len({r.id for r in items}) == len(items), "request ids must be unique"
    for item in items:
        unknown = set(item.expect) - LABEL_KEYS
        assert not unknown, f"{item.id}: unknown label fields {sorted(unknown)}"
        assert item.text.strip(), item.id
    assert {r.style for r in items} >= {
        "support-ticket",
        "job-script",
        "one-liner",
        "typo",
        "key-value",
        "non-native",
        "mailing-list",
    }


def test_the_verdict_set_labels_every_site_for_every_request() -> None:
    assert len(SITES) >= 20 and len(VERDICT_REQUESTS) >= 50
    for item in VERDICT_REQUESTS:
        assert set(item.labels) == set(SITES), item.id
        assert set(item.labels.values()) <= {"runnable", "not_runnable"}, item.id


# -- the fail-safe rule ---------------------------------------------------------------------


def _unread_words(text: str) -> list[str]:
    """Leftover words that the documented prose rule does not cover."""
    return [w for _, w in leftover_words(text) if not is_prose(w)]


@pytest.mark.parametrize("item", [*DEV, *VERDICT_REQUESTS], ids=lambda r: r.id)
def test_nothing_requirement_like_is_silently_unread(item) -> None:
    """Every leftover word that is not known prose is quoted in ``unresolved`` (so it blocks
    READY), unless it became a checked requirement."""
    parsed = parse_requirements(item.text, now=NOW)
    unresolved = " ".join(parsed.unresolved).lower()
    for fragment in parsed.unparsed:
        if fragment.startswith("[") or "(conflicts with" in fragment or "not used)" in fragment:
            continue
        for word in _unread_words(fragment):
            assert word.lower() in unresolved, (item.id, fragment, parsed.unresolved)


def test_an_unresolved_phrase_is_never_ready_anywhere() -> None:
    """Across every verdict-set site, a request with unresolved phrases is never READY/BUSY,
    and each phrase is quoted by an UNKNOWN check."""
    checked = 0
    for item in [*DEV, *VERDICT_REQUESTS]:
        parsed = parse_requirements(item.text, now=NOW)
        if not parsed.unresolved:
            continue
        for site in list(SITES.values())[:5]:
            proposal = negotiate(parsed, site)
            assert proposal.verdict not in (Verdict.READY, Verdict.BUSY), item.id
            quoted = [c for c in proposal.checks if c.requirement.startswith(UNRESOLVED_PREFIX)]
            assert len(quoted) == len(parsed.unresolved)
            assert all(c.status is CheckStatus.UNKNOWN for c in quoted)
            checked += 1
    assert checked > 50


def test_no_extractor_fails_on_the_corpus() -> None:
    for item in [*DEV, *VERDICT_REQUESTS]:
        parsed = parse_requirements(item.text, now=NOW)
        assert not any(PARSER_ERROR in u for u in parsed.unparsed), item.id


# -- floors ---------------------------------------------------------------------------------


def test_dev_split_accuracy_floor() -> None:
    """A regression floor, not a target: the held-out figures are in docs/benchmarks.md.

    dev-f and dev-g (120 requests in new wording) joined the split at 0.961 / 73 %; the round
    that followed brought all seven files to 0.979 / 83.5 %. dev-h, dev-i and dev-j (180 more)
    joined at 0.967 / 77.1 % over all ten files; the round that followed brought them to
    0.984 / 86.2 %, with every unexpressible requirement quoted. dev-k, dev-l and dev-m (180
    more) joined at 0.971 / 79.1 % over all thirteen files; the round that followed brought
    them to 0.985 / 86.8 %. dev-n and dev-o (120 more) joined at 0.982 / 83.6 % over all
    fifteen files; the round that followed brought them to 0.987 / 87.5 %, and a second round
    over all fifteen to 0.993 / 93.5 %. dev-p, dev-q and dev-r (180 more) joined at
    0.984 / 88.6 % over all eighteen files; two rounds by failure class brought them to
    0.992 / 93.6 %. dev-s and dev-t (120 more) joined at 0.983 / 89.0 % over all twenty;
    the round that followed brought them to 0.987 / 90.5 %. dev-u, dev-v and dev-w (180
    more) joined at 0.980 / 86.3 % over all twenty-three; three rounds by failure class
    brought them to 0.990 / 91.3 %. dev-x, dev-y and dev-z (180 more) joined at
    0.984 / 86.6 % over all twenty-six; three rounds by failure class brought them to
    0.990 / 91.0 %. dev-aa, dev-ab and dev-ac (180 more) joined at 0.986 / 88.0 % over all
    twenty-nine; one round by failure class brought them to 0.988 / 89.1 %. dev-ad and dev-ae
    (120 more) joined at 0.987 / 87.8 % over all thirty-one; one round by failure class
    brought them to 0.989 / 89.1 %. Raise it as the figures rise, never lower it to let a
    change through: only new files may lower it, to their first reading."""
    result, _ = score(DEV, parse_requirements, NOW)
    assert result.micro.f1 >= 0.988
    assert result.exact_rate >= 0.890
    assert result.unexpressible_flagged == result.unexpressible
    assert set(result.fields) <= set(FIELDS)


def test_no_false_ready_on_the_verdict_set() -> None:
    """The dangerous error: READY or BUSY at a site that cannot run the job."""
    from_text = score_verdicts(
        VERDICT_REQUESTS, SITES, parsed_requirements(parse_requirements, NOW)
    )
    assert from_text.false_ready == []
    from_labels = score_verdicts(VERDICT_REQUESTS, SITES, labelled_requirements)
    assert from_labels.false_ready == []
    assert from_labels.balanced_accuracy >= 0.95
