"""A worker chooses the URL the hub calls with its credential, so the hub admits only URLs
inside the administrator's ``worker_hosts`` policy, and caps what one registration may claim."""

from __future__ import annotations

import pytest

from secretary_executor.errors import ConfigurationError
from secretary_executor.hub.config import parse_hub_config
from secretary_executor.hub.registry import RegistrationError, Registry
from secretary_executor.hub.worker_urls import HostPolicy, WorkerUrlError

OUTSIDE_THE_DEFAULT = [
    "http://169.254.169.254/latest/meta-data",  # cloud metadata (link-local)
    "http://[fe80::1]:8800/mcp",
    "http://8.8.8.8:8800/mcp",
    "https://203.0.113.7/mcp",
    "http://[2001:db8::1]:8800/mcp",
    "http://no-such-host.invalid:8800/mcp",  # does not resolve
    "http://0.0.0.0:8800/mcp",
]
INSIDE_THE_DEFAULT = [
    "http://127.0.0.1:8800/mcp",
    "http://localhost:8800/mcp",
    "http://[::1]:8800/mcp",
    "http://10.3.4.5:8800/mcp",
    "http://172.20.0.9/mcp",
    "https://192.168.1.20:9443/mcp",
    "http://100.64.1.1/mcp",
]


@pytest.mark.parametrize("url", OUTSIDE_THE_DEFAULT)
def test_the_default_policy_refuses_hosts_outside_private_networks(url: str) -> None:
    with pytest.raises(WorkerUrlError, match="worker_hosts|does not resolve|advertise-url"):
        HostPolicy().check(url)
    with pytest.raises(RegistrationError):
        Registry().register("w", url, ["a"])


@pytest.mark.parametrize("url", INSIDE_THE_DEFAULT)
def test_the_default_policy_admits_loopback_and_private_hosts(url: str) -> None:
    HostPolicy().check(url)
    tls = url.replace("http://", "https://")
    assert Registry().register("w", tls, ["a"])
    assert Registry(allow_insecure_http=True).register("w", url, ["a"])


def test_an_administrator_widens_or_narrows_the_policy() -> None:
    loopback = HostPolicy(["loopback"])
    loopback.check("http://127.0.0.1/mcp")
    with pytest.raises(WorkerUrlError):
        loopback.check("http://10.0.0.1/mcp")
    named = HostPolicy(["loopback", "node042.cluster", "203.0.113.0/24"])
    named.check("http://node042.cluster:8800/mcp")  # named: admitted without resolving
    named.check("https://203.0.113.7/mcp")
    with pytest.raises(WorkerUrlError):
        named.check("http://node043.cluster.invalid/mcp")
    metadata = HostPolicy(["169.254.169.254/32"])  # only an explicit entry admits it
    metadata.check("http://169.254.169.254/")
    HostPolicy(["any"]).check("http://8.8.8.8/mcp")


@pytest.mark.parametrize("entry", ["10.0.0.0/33", "not a host", "-bad-", "*", "ünï.example"])
def test_a_bad_policy_entry_is_a_clear_config_error(tmp_path, entry: str) -> None:
    with pytest.raises(ValueError, match="worker_hosts entry"):
        HostPolicy([entry])
    with pytest.raises(ConfigurationError, match="worker_hosts"):
        parse_hub_config({"worker_hosts": [entry]}, base=tmp_path, source="hub.yaml")


def test_the_hub_config_carries_the_policy_to_the_registry(tmp_path) -> None:
    config = parse_hub_config(
        {"worker_hosts": ["loopback"], "max_sites_per_worker": 3}, base=tmp_path, source="x"
    )
    reg = Registry(worker_hosts=config.worker_hosts, max_sites=config.max_sites_per_worker)
    with pytest.raises(RegistrationError, match="outside the hub's worker_hosts"):
        reg.register("w", "http://10.0.0.1/mcp", ["a"])
    reg.register("w", "http://127.0.0.1/mcp", ["a", "b", "c"])


def test_one_registration_cannot_claim_thousands_of_sites() -> None:
    reg = Registry(max_sites=100)
    sites = [f"s{i}" for i in range(3000)]
    with pytest.raises(RegistrationError, match="3000 sites; this hub accepts at most 100"):
        reg.register("w", "http://127.0.0.1/mcp", sites)
    assert reg.workers() == []
    reg.register("w", "http://127.0.0.1/mcp", sites[:100])
