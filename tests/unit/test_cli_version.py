"""Both commands answer ``--version`` with the installed package's version."""

from __future__ import annotations

import subprocess
import sys

import pytest

from secretary_executor import __version__


@pytest.mark.parametrize(
    ("module", "prog"),
    [
        ("secretary_executor.cli.resource_ask", "resource-ask"),
        ("secretary_executor.cli.secretary", "secretary"),
    ],
)
def test_version(module: str, prog: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", module, "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    assert done.stdout.strip() in (
        f"{prog} {__version__}",
        f"{module.rsplit('.', 1)[-1]} {__version__}",
    )
    assert __version__ != "0+unknown"
