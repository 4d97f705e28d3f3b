"""Exceptions of the LLM agent: configuration problems and back-end (API) failures."""

from __future__ import annotations

from endpoint_plugins.errors import SiteConfigError, SiteError


class AgentError(SiteError):
    """Root of the agent's errors (a :class:`SiteError`, so the service reports it as data)."""


class AgentConfigError(AgentError, SiteConfigError):
    """An LLM configuration that cannot be used; the message names the variable and the fix."""


class AgentBackendError(AgentError):
    """A model API call that failed: HTTP error, timeout, lost connection or a reply we cannot read.

    ``transient`` is True for failures that may pass on a retry (HTTP 429 and 5xx, timeouts,
    connection errors) and False for ones that will not (a bad key, an unknown model, a reply
    that does not match the protocol). ``status`` is the HTTP status when there was one.
    """

    def __init__(self, message: str, *, transient: bool = False, status: int | None = None) -> None:
        super().__init__(message, transient=transient)
        self.status = status
