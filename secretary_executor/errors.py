"""Exceptions of the ``secretary_executor`` package.

:class:`SecretaryError` is the root. ``transient`` tells the executor whether the next-ranked
proposal may still succeed (failover) or whether the request itself is wrong.
"""

from __future__ import annotations


class SecretaryError(Exception):
    """Root of the hub-side errors.

    Args:
        message: what went wrong and how to fix it, for a person.
        transient: True when trying again, or at another site, may succeed.
    """

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.transient = transient


class ConfigurationError(SecretaryError):
    """A fleet file, site name, algorithm name or option that is wrong; the message says the fix."""


class SelectionError(SecretaryError):
    """No proposal could be selected, or the algorithm cannot run (e.g. no model configured)."""


class DispatchError(SecretaryError):
    """A site refused or failed a dispatch."""


class SiteUnavailableError(SecretaryError):
    """A site did not answer in time or its transport failed (transient: try another site)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, transient=True)


class DispatchUnsettledError(SiteUnavailableError):
    """A dispatch whose outcome is unknown: the site may have the job. The hub keeps it PENDING
    and never sends it to another site; asking its status settles it with the same key."""

    def __init__(self, message: str, *, transient: bool = True) -> None:
        SecretaryError.__init__(self, message, transient=transient)


class DispatchWithdrawnError(DispatchError):
    """The site never received a dispatch and has withdrawn its key: the job will not run."""


class LedgerError(SecretaryError):
    """The ledger cannot be written (disk full, read-only home): the step was not recorded."""


class UnknownJobError(SecretaryError):
    """A job id that the ledger has never seen.

    ``job_id`` lets each door phrase its own hint (the CLI names a command, the hub a tool).
    """

    def __init__(self, message: str, *, job_id: str = "") -> None:
        super().__init__(message)
        self.job_id = job_id
