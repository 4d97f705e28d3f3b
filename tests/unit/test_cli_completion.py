"""Shell completion comes from the commands' own parsers: a real bash completes a subcommand."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest


def _script(shell: str, prog: str) -> str:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "secretary_executor.cli.secretary",
            "completion",
            shell,
            "--for",
            prog,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    ("prog", "typed", "expected"),
    [
        ("resource-ask", "neg", "negotiate"),
        ("resource-ask", "lo", "logs"),
        ("secretary", "end", "endpoint"),
    ],
)
def test_bash_completes_a_subcommand(tmp_path, prog: str, typed: str, expected: str) -> None:
    bash = shutil.which("bash")
    assert bash is not None
    script = tmp_path / "completion.bash"
    script.write_text(_script("bash", prog))
    function = "_shtab_" + prog.replace("-", "_")
    line = f"{prog} {typed}"
    probe = (
        f'source "{script}"; COMP_WORDS=({line}); COMP_CWORD=1; COMP_LINE="{line}"; '
        f'COMP_POINT=${{#COMP_LINE}}; {function}; echo "${{COMPREPLY[@]}}"'
    )
    done = subprocess.run([bash, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == [expected], done.stderr


def test_zsh_and_tcsh_scripts_are_produced() -> None:
    assert "resource-ask" in _script("zsh", "resource-ask")
    assert "secretary" in _script("tcsh", "secretary")
