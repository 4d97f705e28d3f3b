"""Join tokens shared, bound to one worker, and revoked: the file format and its edits."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from secretary_executor.errors import ConfigurationError
from secretary_executor.hub.auth import SHARED_JOIN, join_refusal
from secretary_executor.hub.join_tokens import (
    add_worker,
    load_join_tokens,
    parse_join_tokens,
    revoke_worker,
)

SHARED = "s" * 43
BOUND = "b" * 43


def test_the_three_line_forms() -> None:
    text = f"# comment\n\n{SHARED}\n{BOUND} worker=w-campus\nrevoked w-old\n"
    tokens = parse_join_tokens(text, "join.txt")
    assert tokens.shared == (SHARED,)
    assert tokens.bound == {BOUND: "w-campus"}
    assert tokens.revoked == {"w-old"}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("short-token", "shorter than 16"),
        (f"{BOUND} worker=bad/name", "bad worker name"),
        (f"{BOUND} name=w-campus", "expected 'TOKEN'"),
        (f"{BOUND} worker=w a", "expected 'TOKEN'"),
        ("revoked", "shorter than 16"),
        ("# only a comment", "holds no join token"),
    ],
)
def test_a_bad_line_is_named_and_its_token_never_shown(line: str, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message) as info:
        parse_join_tokens(line + "\n", "join.txt")
    assert BOUND not in info.value.message


def test_a_revoked_name_loses_its_bound_tokens() -> None:
    tokens = parse_join_tokens(f"{SHARED}\n{BOUND} worker=w-old\nrevoked w-old\n", "join.txt")
    assert tokens.bound == {}


def test_add_and_revoke_edit_the_file_and_keep_it_private(tmp_path: Path) -> None:
    path = tmp_path / "join.txt"
    path.write_text(f"{SHARED}\n")
    first = add_worker(path, "w-a")
    second = add_worker(path, "w-b")
    assert first != second and len(first) >= 40
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    tokens = load_join_tokens(path)
    assert tokens.bound == {first: "w-a", second: "w-b"} and tokens.shared == (SHARED,)

    assert revoke_worker(path, "w-a") == 1
    assert revoke_worker(path, "w-a") == 0  # idempotent
    tokens = load_join_tokens(path)
    assert tokens.bound == {second: "w-b"} and tokens.revoked == {"w-a"}
    assert path.read_text().count("revoked w-a") == 1

    again = add_worker(path, "w-a")  # a new token re-admits the worker
    tokens = load_join_tokens(path)
    assert tokens.bound[again] == "w-a" and "w-a" not in tokens.revoked


@pytest.mark.parametrize("name", ["", "a b", "../x", "x" * 65, "-lead"])
def test_bad_worker_names_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ConfigurationError, match="bad worker name"):
        add_worker(tmp_path / "join.txt", name)


def test_who_may_register_as_whom() -> None:
    tokens = parse_join_tokens(f"{SHARED}\n{BOUND} worker=w-a\nrevoked w-old\n", "join.txt")
    assert join_refusal(SHARED_JOIN, "anything", tokens) is None
    assert join_refusal("join:w-a", "w-a", tokens) is None
    assert "for worker 'w-a'" in (join_refusal("join:w-a", "w-b", tokens) or "")
    assert "revoked" in (join_refusal(SHARED_JOIN, "w-old", tokens) or "")
    assert "revoked" in (join_refusal("join:w-old", "w-old", tokens) or "")
