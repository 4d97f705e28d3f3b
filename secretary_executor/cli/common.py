"""What every command shares: exit codes, one-line errors, JSON output."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from endpoint_plugins.errors import SiteError
from providers.errors import ProviderError
from secretary_executor.cli.render import make_console
from secretary_executor.errors import ConfigurationError, SecretaryError, UnknownJobError

EXIT_OK = 0
EXIT_FAILED = 1
"""The command ran but the outcome is a failure (no site can run it, a job failed)."""
EXIT_USAGE = 2
"""Bad input: unknown site or algorithm, malformed fleet file, unreadable state file."""

console = make_console()
err_console = make_console(stderr=True)
err_console.soft_wrap = True  # one-line errors stay on one line


def emit_json(value: Any) -> None:
    """Print a model, list of models or plain data as indented JSON on stdout."""
    print(json.dumps(_plain(value), indent=2, default=str))


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def split_trailing_command(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """Split ``argv`` at the first ``--``: options before it, the job's command after it."""
    args = list(argv)
    if "--" in args:
        i = args.index("--")
        return args[:i], args[i + 1 :]
    return args, []


def add_version(parser: argparse.ArgumentParser) -> None:
    """``--version``: the installed package's version, as every well-kept CLI answers it."""
    from secretary_executor import __version__

    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}", help="print the version"
    )


def positive_seconds(text: str) -> float:
    """An argparse type: a number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number of seconds above 0")
    return value


def run_guarded(fn: Callable[[], int]) -> int:
    """Run a command body, turning expected errors into one line on stderr and an exit code."""
    try:
        return fn()
    except (ConfigurationError, UnknownJobError) as exc:
        err_console.print(f"[bold red]error:[/] {exc.message}", highlight=False)
        return EXIT_USAGE
    except (SiteError, ProviderError) as exc:
        err_console.print(f"[bold red]error:[/] {exc.message}", highlight=False)
        return EXIT_USAGE
    except SecretaryError as exc:
        err_console.print(f"[bold red]error:[/] {exc.message}", highlight=False)
        return EXIT_FAILED
    except KeyboardInterrupt:
        err_console.print("interrupted")
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK
