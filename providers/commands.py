"""Running external commands safely: argument lists only, a timeout always, output as data.

Nothing here accepts a shell string. Names and paths that come from requests or tool arguments
are checked with :func:`safe_name` / :func:`safe_path` before they reach an argument list, so a
value can never become an option (``-rf``), a second command (``x; touch f``) or a path outside
what the provider allows (``../../etc``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from providers.errors import CommandError, UnsafeValueError

DEFAULT_TIMEOUT_S = 10.0
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+@-]{0,127}\Z")


def safe_name(value: str, what: str = "name") -> str:
    """Return ``value`` if it is a plain package/module/queue name, else raise.

    Allowed: letters, digits and ``. _ + @ -``, not starting with ``-`` or ``.``, at most 128.

    Raises:
        UnsafeValueError: with the offending value and the allowed form.
    """
    if not isinstance(value, str) or not _SAFE_NAME.match(value):
        raise UnsafeValueError(
            f"{what} {value!r} is not allowed: use letters, digits and . _ + @ - only, "
            "starting with a letter or digit (at most 128 characters)"
        )
    return value


def safe_path(value: str | os.PathLike[str], roots: Sequence[str | os.PathLike[str]]) -> Path:
    """Resolve ``value`` and return it if it lies inside one of ``roots``, else raise.

    Raises:
        UnsafeValueError: the path escapes every allowed root.
    """
    resolved = Path(value).resolve()
    for root in roots:
        root_path = Path(root).resolve()
        if resolved == root_path or root_path in resolved.parents:
            return resolved
    allowed = ", ".join(str(r) for r in roots) or "(none)"
    raise UnsafeValueError(f"path {str(value)!r} is outside the allowed roots: {allowed}")


@dataclass(frozen=True)
class CommandResult:
    """What a finished command left: exit status, output, and how long it took."""

    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    elapsed_s: float


class CommandRunner:
    """Runs commands from argument lists with a timeout. Subclass it to record or fake calls.

    Args:
        env: extra environment variables for every command (e.g. ``SLURM_CONF``).
        default_timeout_s: timeout when a call gives none.
    """

    def __init__(
        self, *, env: Mapping[str, str] | None = None, default_timeout_s: float = DEFAULT_TIMEOUT_S
    ) -> None:
        self.env = dict(env or {})
        self.default_timeout_s = default_timeout_s

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(env={self.env!r}, default_timeout_s={self.default_timeout_s})"
        )

    def which(self, program: str) -> str | None:
        """Full path of ``program`` on PATH (as the commands will see it), or None."""
        path = self.env.get("PATH", os.environ.get("PATH"))
        return shutil.which(program, path=path)

    def run(
        self,
        argv: Sequence[str],
        *,
        timeout_s: float | None = None,
        check: bool = True,
        cwd: str | os.PathLike[str] | None = None,
        input_text: str | None = None,
    ) -> CommandResult:
        """Run ``argv`` and return its result.

        Raises:
            CommandError: the program is missing, timed out (``transient=True``), or exited
                non-zero while ``check`` is True. stdout/stderr are kept on the error.
        """
        args = [str(a) for a in argv]
        if not args:
            raise CommandError("empty command")
        env = {**os.environ, **self.env, "LC_ALL": "C"}
        timeout = timeout_s if timeout_s is not None else self.default_timeout_s
        start = time.perf_counter()
        try:
            proc = subprocess.run(  # noqa: S603 - argument list, never a shell
                args,
                capture_output=True,
                text=True,
                timeout=timeout,
                env=env,
                cwd=cwd,
                input=input_text,
                check=False,
            )
        except FileNotFoundError:
            raise CommandError(f"{args[0]}: program not found", argv=args) from None
        except subprocess.TimeoutExpired as exc:
            raise CommandError(
                f"{args[0]} did not finish within {timeout:g} s",
                argv=args,
                stdout=_text(exc.stdout),
                stderr=_text(exc.stderr),
                transient=True,
            ) from None
        except OSError as exc:
            raise CommandError(f"{args[0]}: {exc.strerror or exc}", argv=args) from None
        elapsed = time.perf_counter() - start
        if check and proc.returncode != 0:
            first = (proc.stderr or proc.stdout).strip().splitlines()
            raise CommandError(
                f"{args[0]} exited with status {proc.returncode}"
                + (f": {first[0][:200]}" if first else ""),
                argv=args,
                returncode=proc.returncode,
                stdout=proc.stdout,
                stderr=proc.stderr,
            )
        return CommandResult(tuple(args), proc.returncode, proc.stdout, proc.stderr, elapsed)


def _text(value: bytes | str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode(errors="replace")
    return value
