"""How the hub's fan-out groups sites into calls, and how big a batch reply may be.

Sites of one worker session (``McpTransport`` on one ``McpConnection``) go together, up to the
policy's largest group; every other site is a call of its own. No connection is opened here:
grouping only looks at which session a site uses."""

from __future__ import annotations

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.mcp_batch import MAX_BATCH_SITES
from endpoint_plugins.mcp_client import McpConnection
from endpoint_plugins.reply_cap import BATCH_BYTES_PER_SITE, MAX_REPLY_BYTES, reply_cap_for
from endpoint_plugins.secretary import Secretary
from secretary_executor.hub.fanout import FanOut, groups
from secretary_executor.sites import InProcessTransport, Site
from secretary_executor.sites.mcp import McpTransport


def remote(conn: McpConnection, *names: str) -> list[Site]:
    return [Site(n, McpTransport(conn, n)) for n in names]


def local(name: str) -> Site:
    return Site(name, InProcessTransport(Secretary(SiteConfig(name=name))))


def names(calls: list[list[Site]]) -> list[list[str]]:
    return [[s.name for s in call] for call in calls]


def test_sites_of_one_worker_share_a_call_and_others_go_alone() -> None:
    w1, w2 = McpConnection("http://127.0.0.1:1/mcp"), McpConnection("http://127.0.0.1:2/mcp")
    a, b, c = remote(w1, "a", "b", "c")
    x, y = remote(w2, "x", "y")
    here = local("here")
    calls = groups([a, x, here, b, y, c], size=MAX_BATCH_SITES)
    assert names(calls) == [["a", "b", "c"], ["x", "y"], ["here"]]


def test_groups_are_cut_at_the_policy_size_and_serial_means_one_site_per_call() -> None:
    conn = McpConnection("http://127.0.0.1:1/mcp")
    sites = remote(conn, *"abcde")
    assert names(groups(sites, size=2)) == [["a", "b"], ["c", "d"], ["e"]]
    assert names(groups(sites, size=1)) == [[s] for s in "abcde"]


def test_largest_group_follows_the_mode() -> None:
    assert FanOut(mode="serial").largest_group == 1
    assert FanOut(mode="batched", batch_size=16).largest_group == 16
    assert FanOut(mode="concurrent", concurrency=8).largest_group == 8
    assert FanOut(mode="concurrent", concurrency=4096).largest_group == MAX_BATCH_SITES


def test_a_batch_reply_may_grow_with_its_sites_but_never_below_one_reply() -> None:
    assert reply_cap_for(1) == MAX_REPLY_BYTES
    assert reply_cap_for(1000) == 1000 * BATCH_BYTES_PER_SITE > MAX_REPLY_BYTES
