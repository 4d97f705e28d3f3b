"""Where secretary keeps its files: ``$SECRETARY_HOME`` (default ``~/.secretary``).

The ledger (hub side) and local job folders (site side) both live there; the helper sits in
``providers``, the lowest package, so every layer reads the same setting.
"""

from __future__ import annotations

import os
from pathlib import Path


def secretary_home() -> Path:
    """The folder for the ledger and job folders, read from the environment at call time."""
    return Path(os.environ.get("SECRETARY_HOME") or Path.home() / ".secretary").expanduser()
