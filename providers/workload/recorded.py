"""A command runner that answers from recorded output: the test seam for scheduler providers.

PBS, Torque, LSF, Cobalt, Moab and OAR cannot be installed on a development machine, so their
providers are exercised against output written from each scheduler's documented format. A
:class:`RecordedRunner` maps an argument vector to a :class:`Recording` (stdout, stderr, exit
status), pretends the listed programs are on PATH, and keeps every argument vector it was
asked to run, so a test can assert exactly what a provider would have executed. Nothing is ever
executed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from providers.commands import CommandResult, CommandRunner
from providers.errors import CommandError


@dataclass(frozen=True)
class Recording:
    """What one command printed and how it exited."""

    stdout: str = ""
    stderr: str = ""
    returncode: int = 0


class RecordedRunner(CommandRunner):
    """Serves recorded output instead of running commands, and records every call.

    Args:
        recordings: argument vector (a tuple) -> what it prints. A value may also be a plain
            string (stdout, exit status 0).
        programs: programs that :meth:`which` reports as installed; by default the first word
            of every recorded command.

    After each :meth:`run`, ``calls`` ends with the argument vector and ``inputs`` with the
    text given on standard input (or None).
    """

    def __init__(
        self,
        recordings: Mapping[tuple[str, ...], Recording | str] | None = None,
        *,
        programs: Iterable[str] | None = None,
    ) -> None:
        super().__init__()
        self.recordings: dict[tuple[str, ...], Recording] = {
            tuple(k): (v if isinstance(v, Recording) else Recording(stdout=v))
            for k, v in (recordings or {}).items()
        }
        if programs is None:
            programs = {argv[0] for argv in self.recordings}
        self.programs = set(programs)
        self.calls: list[tuple[str, ...]] = []
        self.inputs: list[str | None] = []

    def __repr__(self) -> str:
        return f"RecordedRunner(programs={sorted(self.programs)!r})"

    def which(self, program: str) -> str | None:
        """``/recorded/bin/<program>`` for a listed program, else None."""
        return f"/recorded/bin/{program}" if program in self.programs else None

    def run(
        self,
        argv: Sequence[str],
        *,
        timeout_s: float | None = None,
        check: bool = True,
        cwd: str | os.PathLike[str] | None = None,
        input_text: str | None = None,
    ) -> CommandResult:
        """Answer ``argv`` from the recordings, with the same errors as the real runner.

        Raises:
            CommandError: the program is not listed ("program not found"), no recording exists
                for this exact argument vector, or the recording exits non-zero while ``check``.
        """
        args = tuple(str(a) for a in argv)
        if not args:
            raise CommandError("empty command")
        self.calls.append(args)
        self.inputs.append(input_text)
        if args[0] not in self.programs:
            raise CommandError(f"{args[0]}: program not found", argv=list(args))
        recording = self.recordings.get(args)
        if recording is None:
            raise CommandError(
                f"{args[0]}: no recorded output for {list(args)!r}",
                argv=list(args),
                returncode=127,
            )
        if check and recording.returncode != 0:
            first = (recording.stderr or recording.stdout).strip().splitlines()
            raise CommandError(
                f"{args[0]} exited with status {recording.returncode}"
                + (f": {first[0][:200]}" if first else ""),
                argv=list(args),
                returncode=recording.returncode,
                stdout=recording.stdout,
                stderr=recording.stderr,
            )
        return CommandResult(args, recording.returncode, recording.stdout, recording.stderr, 0.0)
