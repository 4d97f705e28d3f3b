"""Bearer tokens never cross a network in clear: plain http is for this machine only.

The hub sends each worker its credential on every call, and a worker sends the join token to
the hub, so both refuse a plain-http URL on another host unless the administrator opts out.
"""

from __future__ import annotations

import pytest

from endpoint_plugins.errors import SiteConfigError
from endpoint_plugins.mcp_auth import cleartext_problem
from endpoint_plugins.mcp_membership import Membership
from secretary_executor.errors import ConfigurationError
from secretary_executor.hub.config import HubConfig, parse_hub_config
from secretary_executor.hub.registry import RegistrationError, Registry

LOCAL = [
    "http://127.0.0.1:8700/mcp",
    "http://127.8.9.10/mcp",
    "http://localhost:8700/mcp",
    "http://LOCALHOST/mcp",
    "http://[::1]:8700/mcp",
]
OVER_A_NETWORK = [
    "http://10.0.0.5:8700/mcp",
    "http://192.168.1.4/mcp",
    "http://172.16.0.1:80/mcp",
    "http://node042.cluster:8700/mcp",
    "http://hub.example.org/mcp",
    "http://[fd00::5]:8700/mcp",
    "http://0.0.0.0:8700/mcp",
    "HTTP://10.0.0.5/mcp",
]
ENCRYPTED = [
    u.replace("http://", "https://").replace("HTTP://", "https://") for u in OVER_A_NETWORK
]


@pytest.mark.parametrize("url", LOCAL + ENCRYPTED)
def test_loopback_or_tls_is_fine(url: str) -> None:
    assert cleartext_problem(url, "hub url") is None


@pytest.mark.parametrize("url", OVER_A_NETWORK)
def test_plain_http_to_another_host_is_named_with_the_fix(url: str) -> None:
    problem = cleartext_problem(url, "hub url")
    assert problem is not None
    assert "in clear" in problem and "--tls-cert" in problem and "allow_insecure_http" in problem


@pytest.mark.parametrize("url", OVER_A_NETWORK[:3])
def test_a_hub_refuses_a_plain_http_worker_unless_allowed(url: str) -> None:
    with pytest.raises(RegistrationError, match="in clear"):
        Registry().register("w", url, ["a"])
    assert Registry(allow_insecure_http=True).register("w", url, ["a"])


@pytest.mark.parametrize("url", OVER_A_NETWORK)
def test_a_worker_refuses_to_join_a_plain_http_hub_elsewhere(url: str) -> None:
    def install(_hub: str, _credential: str) -> None:
        raise AssertionError("never called")

    args = {"join_token": "j" * 32, "worker": "w", "url": "http://127.0.0.1:1/mcp", "sites": ["a"]}
    with pytest.raises(SiteConfigError, match="in clear"):
        Membership(hub_url=url, on_credential=install, **args)
    Membership(hub_url=url, on_credential=install, allow_insecure_http=True, **args)


def test_the_hub_url_follows_its_tls_setting(tmp_path) -> None:
    (tmp_path / "hub.crt").write_text("-----BEGIN CERTIFICATE-----\n")
    (tmp_path / "hub.key").write_text("-----BEGIN PRIVATE KEY-----\n")
    plain = parse_hub_config({"port": 8711}, base=tmp_path, source="hub.yaml")
    tls = parse_hub_config(
        {"port": 8711, "tls_cert": "hub.crt", "tls_key": "hub.key"}, base=tmp_path, source="x"
    )
    assert plain.url == "http://127.0.0.1:8711/mcp"
    assert tls.url == "https://127.0.0.1:8711/mcp"
    assert tls.tls_cert == str(tmp_path / "hub.crt")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"tls_cert": "hub.crt"}, "both tls_cert and tls_key"),
        ({"tls_key": "hub.key"}, "both tls_cert and tls_key"),
        ({"tls_cert": "missing.crt", "tls_key": "missing.key"}, "not a readable file"),
    ],
)
def test_a_half_or_missing_tls_pair_is_a_clear_error(tmp_path, data, message) -> None:
    (tmp_path / "hub.crt").write_text("x")
    (tmp_path / "hub.key").write_text("x")
    with pytest.raises(ConfigurationError, match=message):
        parse_hub_config(data, base=tmp_path, source="hub.yaml")
    assert HubConfig().url.startswith("http://")
