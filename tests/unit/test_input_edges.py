"""Input that would be misread downstream is refused where it enters: names and ids with a
trailing newline (``$`` would accept one), NUL bytes in a command."""

from __future__ import annotations

import pytest

from providers.commands import safe_name
from providers.errors import ProviderError
from providers.wire import SoftwareRequirement
from providers.workload import flux, local, slurm_parse


@pytest.mark.parametrize("value", ["batch\n", "gpu\n", "a\n\n"])
def test_a_safe_name_refuses_a_trailing_newline(value: str) -> None:
    with pytest.raises((ProviderError, ValueError)):
        safe_name(value)


@pytest.mark.parametrize(
    ("pattern", "good"),
    [
        (slurm_parse.NATIVE_ID_RE, "12345"),
        (flux.NATIVE_ID_RE, "f2abcdef"),
        (local.NATIVE_ID_RE, "local-0123456789ab"),
    ],
)
def test_native_ids_refuse_a_trailing_newline(pattern, good: str) -> None:
    assert pattern.match(good)
    assert not pattern.match(good + "\n")


def test_a_variant_refuses_a_trailing_newline() -> None:
    with pytest.raises(ValueError, match="variant"):
        SoftwareRequirement(name="gromacs", variants=("+cuda\n",))


@pytest.mark.parametrize("argv", [("echo", "a\x00b"), ("\x00ls",), ("true", "", "x\x00")])
def test_a_nul_byte_in_a_command_is_refused_up_front(argv: tuple[str, ...]) -> None:
    from providers.jobspec import JobSpec
    from providers.wire import JobRequest

    with pytest.raises(ValueError, match="NUL byte"):
        JobRequest(text="1 core", command=argv)
    with pytest.raises(ValueError, match="NUL byte"):
        JobSpec(command=argv)
