"""Exceptions of the ``endpoint_plugins`` package (what runs at a site)."""

from __future__ import annotations


class SiteError(Exception):
    """Root of site-side errors.

    Args:
        message: what went wrong and how to fix it, for a person.
        transient: True when the same request may succeed later or at another site.
    """

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.transient = transient


class SiteConfigError(SiteError):
    """A site configuration that cannot be used; the message says which field and the fix."""


class SiteDispatchError(SiteError):
    """The site could not accept a job (no workload provider that runs work, nothing to run)."""


class DispatchUnsettledError(SiteDispatchError):
    """Whether a dispatch was submitted is not known yet (or cannot be known): the hub keeps it
    PENDING rather than sending the job anywhere else."""


class DispatchWithdrawnError(SiteDispatchError):
    """A dispatch key this site has withdrawn: the job never ran here and never will."""
