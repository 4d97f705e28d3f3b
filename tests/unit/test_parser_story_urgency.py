"""Words of urgency inside the story of a ticket are not the urgency of the request.

"Without the licence server the job stops immediately" says what a program does; "I've now
rebuilt the mesh" and "What I need now: 4 nodes ..." use "now" for "currently". None asks for
the run to start at once. The wordings are written for these tests; the negative cases keep
the urgency that is asked for.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def urgency(text: str) -> str | None:
    req = parse_requirements(text, now=NOW)
    return req.urgency.value if req.urgency is not None else None


@pytest.mark.parametrize(
    "text",
    [
        "If the licence check fails the solver stops immediately. 2 nodes, 8 hours please.",
        "With the default stack size it crashes immediately; we need 1 node with 64 cores.",
        "The code dies immediately on the login node, so please give us 4 nodes for 12 hours.",
        "Our script exits immediately when /scratch is missing. Need 500 GB of scratch.",
        "It segfaults immediately with 2 ranks, so I'd like 1 node with 32 cores for 3 hours.",
        "The run aborted immediately because of the quota. Please give me 2 TB of scratch.",
        "The MPI job hangs immediately after init. 2 nodes for 4 hours.",
        "I've now rebuilt the mesh, so please give us 6 nodes for 20 hours.",
        "We have now moved the data to Lustre; 4 nodes, 10 hours.",
        "The code has now been ported to GPUs. 2 nodes with 4 A100 each, 6 hours.",
        "What I need now: 8 nodes, 24 hours, GROMACS 2024.",
        "What we really need now is 2 nodes for 12 hours with OpenFOAM v2312.",
        "Sorry for the long story. What I would like now: 1 node with 4 GPUs for 6 hours.",
    ],
)
def test_urgency_words_of_the_story_are_not_urgency(text: str) -> None:
    assert urgency(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "Please start it immediately, 2 nodes for 8 hours.",
        "We need 4 nodes immediately for 6 hours.",
        "Could I get 1 node now? Just 2 hours.",
        "The solver stops at step 40. We need 2 nodes urgently.",
        "It crashed yesterday; we need to rerun immediately on 2 nodes.",
        "I need it now: 2 nodes for 3 hours.",
    ],
)
def test_asked_urgency_is_kept(text: str) -> None:
    assert urgency(text) == "now"
