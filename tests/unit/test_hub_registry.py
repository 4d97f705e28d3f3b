"""Registry, auth policy, fan-out modes and extension loading of the federation hub."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from endpoint_plugins.errors import SiteConfigError
from endpoint_plugins.mcp_auth import BearerTable, read_token_file
from endpoint_plugins.service import Operation
from providers.wire import Requirements, Verdict
from secretary_executor.errors import ConfigurationError
from secretary_executor.hub.auth import SHARED_JOIN, hub_tokens, is_bound_to, is_loopback
from secretary_executor.hub.config import HubConfig, parse_hub_config
from secretary_executor.hub.extensions import ExtensionSpec, resolve
from secretary_executor.hub.fanout import FanOut, FederatedFleet
from secretary_executor.hub.registry import RegistrationError, Registry, WorkerState
from secretary_executor.hub.server import Hub
from secretary_executor.sites.base import Site, Transport
from secretary_executor.sites.fleet import demo_fleet

URL = "http://127.0.0.1:9001/mcp"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_register_heartbeat_sweep_and_rejoin() -> None:
    clock = Clock()
    reg = Registry(heartbeat_s=2.0, clock=clock)
    cred = reg.register("w1", URL, ["a", "b"])
    assert len(cred) >= 32 and reg.owner_of_credential(cred) == "w1"
    clock.now += 5.9
    reg.heartbeat("w1")
    clock.now += 6.0  # exactly 3 periods: still UP
    assert reg.sweep() == []
    clock.now += 0.1
    assert reg.sweep() == ["w1"]
    assert reg.is_down("a") and reg.owner_of_credential(cred) is None
    with pytest.raises(RegistrationError, match="register again"):
        reg.heartbeat("w1")
    again = reg.register("w1", URL, ["a", "b"])
    assert again != cred and not reg.is_down("a")
    record = reg.worker("w1")
    assert record is not None and record.state is WorkerState.UP and record.joins == 2
    assert "credential" not in repr(reg.workers()) and cred not in repr(reg)


@pytest.mark.parametrize(
    "name", ["x; touch MARKER", "$(touch MARKER)", "`id`", "../etc", "-rf", ""]
)
def test_register_rejects_unsafe_names(name: str) -> None:
    reg = Registry()
    with pytest.raises(RegistrationError, match="not allowed"):
        reg.register(name, URL, ["a"])
    with pytest.raises(RegistrationError, match="not allowed"):
        reg.register("w", URL, [name])


def test_register_rejects_taken_sites_and_bad_urls() -> None:
    reg = Registry(reserved_sites=["static"])
    reg.register("w1", URL, ["a"])
    with pytest.raises(RegistrationError, match="already served"):
        reg.register("w2", URL, ["a"])
    with pytest.raises(RegistrationError, match="already served"):
        reg.register("w2", URL, ["static"])
    with pytest.raises(RegistrationError, match="http"):
        reg.register("w2", "file:///etc/passwd", ["b"])
    with pytest.raises(RegistrationError, match="no sites"):
        reg.register("w2", URL, [])


def test_bearer_table_scopes_and_revocation() -> None:
    table = BearerTable()
    table.grant("t" * 20, "alice", "client")
    assert table.lookup("t" * 20) == ("alice", "client")
    assert table.lookup("t" * 19) is None and table.lookup("") is None
    table.revoke_client("alice")
    assert table.lookup("t" * 20) is None
    assert "t" * 20 not in repr(table)


def test_token_files(tmp_path: Any) -> None:
    f = tmp_path / "tokens.txt"
    with pytest.raises(SiteConfigError, match="cannot read"):
        read_token_file(f)
    f.write_text("# comment\n\n")
    with pytest.raises(SiteConfigError, match="holds no token"):
        read_token_file(f)
    f.write_text("short\n")
    with pytest.raises(SiteConfigError, match="shorter than 16"):
        read_token_file(f)
    f.write_text("a" * 32 + "\n")
    assert read_token_file(f) == ["a" * 32]


def test_auth_required_off_loopback(tmp_path: Any) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("example.org")
    assert hub_tokens(HubConfig()) is None
    with pytest.raises(ConfigurationError, match="refusing to serve on 0.0.0.0"):
        hub_tokens(HubConfig(host="0.0.0.0"))
    join = tmp_path / "join.txt"
    join.write_text("j" * 32)
    with pytest.raises(ConfigurationError, match="also needs token_file"):
        hub_tokens(HubConfig(join_token_file=str(join)))
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("c" * 32)
    table = hub_tokens(HubConfig(host="0.0.0.0", token_file=str(tokens), join_token_file=str(join)))
    assert table is not None
    assert table.lookup("c" * 32) == ("client-1", "client")
    assert table.lookup("j" * 32) == ("joining-worker", "join")
    assert hub_tokens(HubConfig(host="0.0.0.0"), transport="stdio") is None


def test_hub_config_messages(tmp_path: Any) -> None:
    with pytest.raises(ConfigurationError, match="fanout.mode"):
        parse_hub_config({"fanout": {"mode": "random"}}, base=tmp_path, source="x")
    with pytest.raises(ConfigurationError, match="Extra inputs"):
        parse_hub_config({"prot": 1}, base=tmp_path, source="x")
    cfg = parse_hub_config({"token_file": "t.txt"}, base=tmp_path, source="x")
    assert cfg.token_file == str(tmp_path / "t.txt")


def test_extensions_need_the_allow_list() -> None:
    assert resolve("json:dumps", ("json",)) is __import__("json").dumps
    with pytest.raises(ConfigurationError, match="not in extensions.allowed_modules"):
        resolve("os:system", ("json",))
    with pytest.raises(ConfigurationError, match="not of the form"):
        resolve("__import__('os').system('id')", ("os",))
    with pytest.raises(ConfigurationError, match="cannot import"):
        resolve("json.nothere:x", ("json",))
    with pytest.raises(ConfigurationError, match="not a function"):
        resolve("json:__doc__", ("json",))
    assert ExtensionSpec().tools == ()


class Silent(Transport):
    """A site that never answers: fan-out must not wait on it past the site's timeout."""

    async def call(self, operation: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


@pytest.mark.parametrize("mode", ["concurrent", "serial", "batched"])
def test_fanout_modes_give_one_proposal_per_site(mode: str) -> None:
    sites = demo_fleet().sites
    silent = Site("silent", Silent(), timeout_s=0.2)
    down = Site("down", Silent(), timeout_s=60)
    fleet = FederatedFleet(
        [*sites, silent, down],
        fanout=FanOut(mode=mode, batch_size=2, concurrency=3),  # type: ignore[arg-type]
        is_down=lambda name: name == "down",
    )
    reqs = Requirements.model_validate({"compute": {"cores_per_node": 4}})
    proposals = asyncio.run(fleet.negotiate(reqs, request_id="r1"))
    assert [p.site for p in proposals] == fleet.names
    by_site = {p.site: p for p in proposals}
    assert by_site["silent"].verdict is Verdict.UNREACHABLE
    assert "heartbeats" in by_site["down"].reason
    assert by_site["hpc-campus"].verdict is not Verdict.UNREACHABLE


def test_an_up_name_cannot_be_taken_without_its_credential() -> None:
    """The join token is shared, so it cannot tell two workers apart: the credential does."""
    clock = Clock()
    reg = Registry(heartbeat_s=2.0, clock=clock)
    cred = reg.register("w1", URL, ["a"])
    for presented in (None, "", "x" * 43, cred[:-1] + ("A" if cred[-1] != "A" else "B")):
        with pytest.raises(RegistrationError, match="cannot take its name"):
            reg.register("w1", "https://10.9.9.9:8800/mcp", ["a"], presented)
    record = reg.worker("w1")
    assert record is not None and record.url == URL and record.joins == 1
    assert reg.owner_of_credential(cred) == "w1"  # the impostor changed nothing

    renewed = reg.register("w1", URL, ["a", "b"], cred)  # the worker itself, new sites
    assert renewed != cred and reg.owner_of_credential(cred) is None
    with pytest.raises(RegistrationError, match="cannot take its name"):
        reg.register("w1", URL, ["a"], cred)  # the old credential is spent

    clock.now += 6.1
    assert reg.sweep() == ["w1"]
    assert reg.register("w1", URL, ["a"])  # DOWN: the name is free again


def test_a_join_token_bound_to_the_name_replaces_an_up_worker_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A worker restarted after a crash has lost its credential; a join token bound to its
    name proves who it is, so it takes its entry back without waiting for the DOWN mark."""
    clock = Clock()
    reg = Registry(heartbeat_s=2.0, clock=clock)
    cred = reg.register("w1", URL, ["a"])
    restarted = "https://10.9.9.9:8800/mcp"
    with caplog.at_level("WARNING", logger="secretary_executor.hub.registry"):
        fresh = reg.register("w1", restarted, ["a", "b"], bound_token=True)
    record = reg.worker("w1")
    assert record is not None and record.state is WorkerState.UP
    assert record.url == restarted and record.sites == ("a", "b") and record.joins == 2
    assert reg.owner_of_credential(cred) is None and reg.owner_of_credential(fresh) == "w1"
    assert "w1 registered again with its own join token" in caplog.text
    assert fresh not in caplog.text and cred not in caplog.text


def test_only_a_token_bound_to_that_name_counts_as_the_worker() -> None:
    assert is_bound_to("join:w1", "w1")
    for joiner in (None, SHARED_JOIN, "join:w2", "join:w1x", "w1"):
        assert not is_bound_to(joiner, "w1"), joiner


def test_a_worker_down_too_long_is_forgotten_with_its_sites() -> None:
    clock = Clock()
    reg = Registry(heartbeat_s=2.0, clock=clock, forget_after_s=60.0)
    reg.register("gone", URL, ["a", "b"])
    reg.register("alive", URL, ["c"])
    clock.now += 6.1
    assert sorted(reg.sweep()) == ["alive", "gone"]
    reg.register("alive", URL, ["c"])  # DOWN, so it may rejoin without a credential
    clock.now += 59.0
    assert reg.forget() == []  # not yet: DOWN for less than a minute
    clock.now += 2.0
    reg.heartbeat("alive")
    assert reg.forget() == [("gone", ("a", "b"))]
    assert reg.worker("gone") is None and not reg.is_down("a")
    assert reg.register("newcomer", URL, ["a"])  # the names are free for another worker


def test_the_hub_drops_a_forgotten_workers_sites_from_its_fleet() -> None:
    """The hub's own sweep, with the registry's clock moved on instead of sleeping."""

    async def go() -> tuple[list[str], list[str], list[str]]:
        hub = Hub(HubConfig.model_validate({"ledger": ":memory:", "forget_down_after_s": 30}))
        clock = Clock()
        hub.registry.clock = clock
        credential = hub.registry.register("w", URL, ["s1", "s2"])
        await hub._attach("w", URL, ("s1", "s2"), credential)
        first = list(hub.fleet.names)
        clock.now += hub.registry.deadline_s + 0.1
        await hub.sweep()
        down = list(hub.fleet.names)  # DOWN: still listed, reported UNREACHABLE
        clock.now += 31.0
        await hub.sweep()
        return first, down, list(hub.fleet.names)

    first, down, last = asyncio.run(go())
    assert {"s1", "s2"} <= set(first) and {"s1", "s2"} <= set(down)
    assert not {"s1", "s2"} & set(last)
