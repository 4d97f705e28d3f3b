"""Where secretary keeps its files: ``$SECRETARY_HOME`` (default ``~/.secretary``).

The ledger (hub side) and local job folders (site side) both live there; the helper sits in
``providers``, the lowest package, so every layer reads the same setting.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def secretary_home() -> Path:
    """The folder for the ledger and job folders, read from the environment at call time."""
    return Path(os.environ.get("SECRETARY_HOME") or Path.home() / ".secretary").expanduser()


def private_home() -> Path:
    """:func:`secretary_home`, created readable by its owner only (0700).

    The home holds the ledger, which records requests and job scripts. A folder this call
    creates gets mode 0700; the default ``~/.secretary``, when it already exists, is narrowed to
    it. A folder named by ``SECRETARY_HOME`` that already exists is left as the person set it up
    (it may be shared on purpose).
    """
    home = secretary_home()
    if not home.exists():
        home.mkdir(parents=True, mode=0o700)
        os.chmod(home, 0o700)  # mkdir's mode passes through the umask; say it exactly
    elif not os.environ.get("SECRETARY_HOME"):
        info = home.stat()
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and info.st_mode & 0o077:
            os.chmod(home, 0o700)
    return home
