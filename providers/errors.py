"""Exceptions of the ``providers`` package.

Every error raised on purpose by this package derives from :class:`ProviderError`. The
``transient`` flag says whether the same call may succeed later (a scheduler that timed out),
as opposed to a permanent condition (a name that fails validation).
"""

from __future__ import annotations

from pydantic import ValidationError


class ProviderError(Exception):
    """Root of the provider package's errors.

    Args:
        message: what went wrong and how to fix it, for a person.
        transient: True when retrying later (or elsewhere) may succeed.
    """

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.transient = transient


class ToolNotFoundError(ProviderError):
    """A tool name that no provider of the site offers."""


class ToolArgumentError(ProviderError):
    """Arguments that do not match a tool's JSON schema."""


class ToolClassError(ProviderError):
    """A tool called outside its class: a dispatch tool during negotiation, or the reverse."""


class CommandError(ProviderError):
    """An external command that failed, timed out, or printed something we cannot read.

    Keeps what the command left behind so that a person can debug it.
    """

    def __init__(
        self,
        message: str,
        *,
        argv: list[str] | None = None,
        returncode: int | None = None,
        stdout: str = "",
        stderr: str = "",
        transient: bool = False,
    ) -> None:
        super().__init__(message, transient=transient)
        self.argv = list(argv or [])
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


class StateFileError(ProviderError):
    """A site state file that cannot be read or does not match the schema."""


class UnsafeValueError(ProviderError, ValueError):
    """A name or path from a request that could smuggle in options, paths or shell syntax."""


def validation_message(exc: ValidationError, *, prefix: str = "") -> str:
    """The first problem of a pydantic error as ``where: what``, for a one-line message.

    Pydantic's own text ("1 validation error for ...", "Value error, ...") is noise for the
    person who must fix a file; they need the field's path and the reason.
    """
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "document"
    if prefix:
        where = f"{prefix}.{where}"
    message = str(first["msg"]).removeprefix("Value error, ")
    more = len(exc.errors()) - 1
    return f"{where}: {message}" + (f" (and {more} more)" if more else "")
