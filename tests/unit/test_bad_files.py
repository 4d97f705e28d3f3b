"""Files a person points the project at may be anything: each gives one clear error, never a
traceback, a hang or unbounded memory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from endpoint_plugins.config import load_site_config
from endpoint_plugins.errors import SiteConfigError
from endpoint_plugins.install import EndpointInstallError, allow_functions
from providers.errors import StateFileError
from providers.files import MAX_TEXT_FILE_BYTES, read_text_file
from providers.state import load_state
from secretary_executor.errors import ConfigurationError
from secretary_executor.hub.config import load_hub_config
from secretary_executor.sites.fleet import load_fleet


def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.yaml"
    os.mkfifo(path)
    return path


def _binary(tmp_path: Path) -> Path:
    path = tmp_path / "binary.yaml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00\x00")
    return path


def _huge(tmp_path: Path) -> Path:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:
        handle.truncate(MAX_TEXT_FILE_BYTES + 1)  # sparse: no disk used
    return path


def _deep(tmp_path: Path) -> Path:
    path = tmp_path / "deep.yaml"
    path.write_text("[" * 20_000 + "]" * 20_000, encoding="utf-8")
    return path


BAD = {"fifo": _fifo, "binary": _binary, "huge": _huge, "deep": _deep}
LOADERS = [
    (load_state, StateFileError),
    (load_fleet, ConfigurationError),
    (load_hub_config, ConfigurationError),
    (load_site_config, SiteConfigError),
]


@pytest.mark.parametrize("kind", sorted(BAD))
@pytest.mark.parametrize(("loader", "error"), LOADERS, ids=lambda x: getattr(x, "__name__", ""))
def test_a_bad_file_is_one_clear_error(tmp_path: Path, kind: str, loader, error) -> None:
    path = BAD[kind](tmp_path)
    with pytest.raises(error) as caught:
        loader(path)
    message = str(caught.value)
    assert str(path) in message or path.name in message
    assert "\n" not in message.strip()


def test_dev_zero_is_refused_without_reading_it() -> None:
    with pytest.raises(OSError, match="not a regular file"):
        read_text_file("/dev/zero")


MALFORMED = [
    "password: hunter2-Secret-Value\n  nested: [unclosed\n",
    "token: 'hunter2-Secret-Value\n",
    "a: 1\n\thunter2-Secret-Value: 2\n",
    "- hunter2-Secret-Value\nkey: value\n",
]


@pytest.mark.parametrize("text", MALFORMED)
@pytest.mark.parametrize(("loader", "error"), LOADERS, ids=lambda x: getattr(x, "__name__", ""))
def test_a_malformed_file_is_never_echoed(tmp_path: Path, text: str, loader, error) -> None:
    """The YAML error names the line and column, not the line's content (it may be a secret)."""
    path = tmp_path / "malformed.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(error) as caught:
        loader(path)
    message = str(caught.value)
    assert "hunter2" not in message and "Secret-Value" not in message, message
    assert str(path) in message or path.name in message


def test_endpoint_install_does_not_echo_a_malformed_config(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(MALFORMED[0], encoding="utf-8")
    with pytest.raises(EndpointInstallError) as caught:
        allow_functions(config, ["abc"])
    assert "hunter2" not in str(caught.value) and "line 2" in str(caught.value)
