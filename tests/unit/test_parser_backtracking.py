"""No parser pattern can backtrack exponentially.

A repeated group whose body is an unbounded repeat with nothing else it *must* match, such as
``(?:\\x00+ ,?)+``, can split one run of characters in 2^(n-1) ways before it gives up. The
parser blanks understood text into runs of barrier characters, so such a group met a 20-
character run in a real request ("2 nodes, 4 NVIDIA H100 GPUs on each node, ...") and took
seconds; four more characters took minutes. Timing a parse would make a slow test, not a
precise one, so this test reads every compiled pattern of the parser instead and rejects the
shape itself. The fix for a flagged pattern is a possessive inner repeat (``\\x00++``) or a
body that must match something besides the repeat.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from datetime import UTC, datetime

import pytest

import endpoint_plugins.parsing as parsing
from endpoint_plugins.parsing import parse_requirements

try:  # Python 3.11+
    from re import _constants as _c
    from re import _parser as _p
except ImportError:  # pragma: no cover - older layout
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT)
NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)


def _nullable(items) -> bool:
    """Whether a sequence can match the empty string anywhere.

    An anchor (``$``, ``\\b``) matches nothing but pins where it can: a pass that must end at a
    line end cannot stop in the middle of a run, so it does not count as optional here.
    """
    return all(_item_nullable(item) for item in items)


def _item_nullable(item) -> bool:
    op, av = item
    if op in (_c.ASSERT, _c.ASSERT_NOT):
        return True
    if op is _c.SUBPATTERN:
        return _nullable(av[3])
    if op is _c.ATOMIC_GROUP:
        return _nullable(av)
    if op is _c.BRANCH:
        return any(_nullable(alt) for alt in av[1])
    if op in (*_REPEATS, _c.POSSESSIVE_REPEAT):
        return av[0] == 0 or _nullable(av[2])
    return False


def _loose(items) -> bool:
    """Whether a sequence can be one unbounded repeat and otherwise nothing at all.

    Repeating such a sequence lets one run of characters be split between passes in
    exponentially many ways.
    """
    return any(
        _loose_item(part) and _nullable(items[:i] + items[i + 1 :]) for i, part in enumerate(items)
    )


def _loose_item(item) -> bool:
    op, av = item
    if op in _REPEATS:
        return av[1] == _c.MAXREPEAT or (av[1] > 1 and _loose(list(av[2])))
    if op is _c.SUBPATTERN:
        return _loose(list(av[3]))
    if op is _c.BRANCH:
        return any(_loose(list(alternative)) for alternative in av[1])
    return False


def _nested_repeats(items) -> list[str]:
    """Repeated groups whose body can be one unbounded repeat and nothing else."""
    found: list[str] = []
    for op, av in items:
        if op in _REPEATS and av[1] > 1 and _loose(list(av[2])):
            found.append(str((op, av))[:200])
        for child in _children(op, av):
            found.extend(_nested_repeats(child))
    return found


def _children(op, av):
    if op is _c.SUBPATTERN:
        yield list(av[3])
    elif op is _c.ATOMIC_GROUP:
        yield list(av)
    elif op is _c.BRANCH:
        yield from (list(alt) for alt in av[1])
    elif op in (*_REPEATS, _c.POSSESSIVE_REPEAT):
        yield list(av[2])
    elif op in (_c.ASSERT, _c.ASSERT_NOT):
        yield list(av[1])


def _parser_patterns() -> dict[str, re.Pattern[str]]:
    patterns: dict[str, re.Pattern[str]] = {}
    for info in pkgutil.iter_modules(parsing.__path__):
        module = importlib.import_module(f"{parsing.__name__}.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                patterns[f"{info.name}.{name}"] = value
    return patterns


def test_the_analysis_flags_the_shapes_that_backtrack() -> None:
    """The check itself: it finds star-of-plus shapes and passes their safe rewrites."""
    flagged = [
        r"(?:\x00+,?)+",
        r"(?:a+)+$",
        r"(?:\s*(?:and)?\s*)+x",
        r"(?:(?:\x00+|\d+)\s*(?:,|and)?)+",
    ]
    safe = [
        r"(?:\x00++,?)+",
        r"(?:a+,)+",
        r"(?:\s*,\s*)+",
        r"\d+(?:\.\d+)*",
        r"(?:\s+\w{1,3})+",
        r"(?:[ \t]*+.*(?:\n|$)){1,60}",
    ]
    for pattern in flagged:
        assert _nested_repeats(_p.parse(pattern)), pattern
    for pattern in safe:
        assert not _nested_repeats(_p.parse(pattern)), pattern


def test_no_parser_pattern_nests_an_unbounded_repeat_in_a_repeat() -> None:
    patterns = _parser_patterns()
    assert len(patterns) > 100  # the walk found the parser's patterns
    bad = {
        name: found
        for name, pattern in patterns.items()
        if (found := _nested_repeats(_p.parse(pattern.pattern, pattern.flags)))
    }
    assert not bad, bad


@pytest.mark.parametrize(
    "text",
    [
        "Requirements: 2 nodes, 4 NVIDIA H100 GPUs on each node, NVLink between them, 64 cores",
        "one node with 8 AMD MI250X accelerators in every single node, 2 TB RAM, 128 cores",
        "3 servers, 2 x NVIDIA L40S 48GB cards on every server, and 96 cores",
        "1 node: 4 NVIDIA A100-SXM4-80GB GPUs per node and node-local NVMe, 64 threads",
    ],
)
def test_long_blanked_runs_between_a_node_count_and_its_cores_still_parse(text: str) -> None:
    """The requests that met the backtracking shape read the node and its cores as before."""
    requirements = parse_requirements(text, now=NOW)
    assert requirements.compute.nodes is not None
