"""A CommandRunner that serves recorded command output instead of running programs.

Used where the real tool cannot run on a test machine (no GPU driver, no Lustre client, no
HPC container runtime). The recorded texts are written from each tool's documented output
format; every call is kept in ``calls`` so a test can check exactly which argument lists a
provider would have run.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from providers.commands import CommandResult, CommandRunner
from providers.errors import CommandError


@dataclass(frozen=True)
class Reply:
    """What a recorded command printed and how it exited."""

    stdout: str = ""
    stderr: str = ""
    returncode: int = 0


class RecordedRunner(CommandRunner):
    """Answers ``run`` from ``replies`` (keyed by the exact argv) and ``which`` from ``programs``.

    An argv without a recorded reply behaves like a missing program (CommandError), so a
    provider that runs something unexpected fails loudly instead of touching the machine.
    """

    def __init__(
        self,
        replies: Mapping[tuple[str, ...], Reply] | None = None,
        programs: Sequence[str] | None = None,
    ) -> None:
        super().__init__()
        self.replies = dict(replies or {})
        self.programs = set(programs) if programs is not None else {a[0] for a in self.replies}
        self.calls: list[tuple[str, ...]] = []

    def which(self, program: str) -> str | None:
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
        args = tuple(str(a) for a in argv)
        self.calls.append(args)
        reply = self.replies.get(args)
        if reply is None or args[0] not in self.programs:
            raise CommandError(f"{args[0]}: program not found", argv=list(args))
        if check and reply.returncode != 0:
            first = (reply.stderr or reply.stdout).strip().splitlines()
            raise CommandError(
                f"{args[0]} exited with status {reply.returncode}"
                + (f": {first[0][:200]}" if first else ""),
                argv=list(args),
                returncode=reply.returncode,
                stdout=reply.stdout,
                stderr=reply.stderr,
            )
        return CommandResult(args, reply.returncode, reply.stdout, reply.stderr, 0.0)
