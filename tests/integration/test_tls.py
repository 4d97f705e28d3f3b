"""A hub and a worker serving https, with a private CA made by the test.

Real ``secretary serve`` processes on loopback: the hub serves https from its config
(``tls_cert``/``tls_key``), the worker with ``--tls-cert``/``--tls-key`` and joins the hub at its
``https://`` URL, and every client (this test, the worker calling the hub, the hub calling the
worker) trusts the CA through ``SSL_CERT_FILE``. A job dispatched through the hub really runs.
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from federation_harness import SECRETARY, Federation, Procs, free_port, token_file, wait_for

APPEND = "import sys; open(sys.argv[1], 'a').write(sys.argv[2] + chr(10))"


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A CA, and a server certificate it signs for 127.0.0.1 and localhost: (ca, cert, key)."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("secretary test CA"))
        .issuer_name(_name("secretary test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                crl_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name("localhost"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), False)
        .sign(ca_key, hashes.SHA256())
    )
    paths = folder / "ca.pem", folder / "server.pem", folder / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    paths[2].chmod(0o600)
    return paths


@pytest.fixture(scope="module")
def tls_fed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Federation, Path]]:
    folder = tmp_path_factory.mktemp("tls")
    ca, cert, key = make_certificates(folder)
    token = token_file(folder / "tokens.txt")
    token_file(folder / "join.txt")
    port = free_port()
    (folder / "hub.yaml").write_text(
        f"name: hub\nport: {port}\ntoken_file: tokens.txt\njoin_token_file: join.txt\n"
        f"heartbeat_s: 1\ntls_cert: {cert.name}\ntls_key: {key.name}\n"
    )
    (folder / "here.yaml").write_text(
        "name: here\nkind: local\nproviders: {enabled: [local, cpu, memory]}\n"
    )
    procs = Procs(folder, folder / "home")
    procs.env["SSL_CERT_FILE"] = str(ca)
    fed = Federation(procs, f"https://127.0.0.1:{port}/mcp", token, folder / "join.txt")
    mp = pytest.MonkeyPatch()
    mp.setenv("SSL_CERT_FILE", str(ca))  # this test's own MCP client trusts the CA too
    try:
        procs.start("hub", ["serve", "hub", "--config", str(folder / "hub.yaml")])
        wport = free_port()
        procs.start(
            "w-here",
            [
                *("serve", "worker", "--join", fed.url, "--join-token-file", str(fed.join_file)),
                *("--name", "w-here", "--port", str(wport), "--site", str(folder / "here.yaml")),
                *("--tls-cert", str(cert), "--tls-key", str(key)),
            ],
        )
        wait_for(lambda: "here" in fed.sites(), "the https worker to register", timeout_s=90)
        yield fed, folder
    finally:
        mp.undo()
        procs.stop_all()


def test_negotiate_and_dispatch_over_https_both_ways(tls_fed: tuple[Federation, Path]) -> None:
    fed, folder = tls_fed
    runs = folder / "runs.txt"

    async def go() -> dict[str, Any]:
        command = [sys.executable, "-c", APPEND, str(runs), "over-tls"]
        r = await fed.call("negotiate_job", {"text": "1 core for 5 minutes", "command": command})
        rid = r.structured_content["request_id"]
        r = await fed.call("dispatch_job", {"request_id": rid, "site": "here"})
        assert not r.is_error, r.content[0].text
        return r.structured_content

    worker = fed.worker("w-here")
    assert worker["url"].startswith("https://127.0.0.1:")
    receipt = asyncio.run(go())
    assert receipt["site"] == "here"
    wait_for(lambda: runs.exists() and runs.read_text().split() == ["over-tls"], "the job")


def test_plain_http_and_an_untrusted_certificate_get_nowhere(
    tls_fed: tuple[Federation, Path],
) -> None:
    fed, _ = tls_fed
    plain = fed.url.replace("https://", "http://")
    with pytest.raises(httpx2.HTTPError):
        httpx2.post(plain, json={}, timeout=5, headers={"Authorization": f"Bearer {fed.token}"})
    with pytest.raises(httpx2.HTTPError):  # the system trust store does not know the test CA
        httpx2.post(fed.url, json={}, timeout=5, verify=True, trust_env=False)


def test_a_worker_will_not_send_its_join_token_in_clear(tmp_path: Path) -> None:
    (tmp_path / "join.txt").write_text("j" * 43 + "\n")
    (tmp_path / "here.yaml").write_text("name: here\nkind: local\n")
    argv = [
        *SECRETARY,
        *("serve", "worker", "--join", "http://10.255.255.1:8700/mcp"),
        *("--join-token-file", str(tmp_path / "join.txt"), "--site", str(tmp_path / "here.yaml")),
    ]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "in clear" in done.stderr and "Traceback" not in done.stderr
