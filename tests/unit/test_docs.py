"""The documentation's examples run, and its command lines name only what exists.

* Every ```` ```python ```` block of README.md and docs/ compiles, and runs offline in a fresh
  interpreter unless an HTML comment right before it says why not (docs/contributing.md):
  ``<!-- skip-snippet: REASON -->`` for a fragment, ``<!-- needs-service: WHAT -->`` for an
  example that needs a model, a login or a running server.
* Every ``secretary ...`` and ``resource-ask ...`` command shown in a shell block or in inline
  code uses sub-commands and options that the real argparse parsers have.
* The README's tour runs as written, on the demo fleet.
* Repository paths (``bench/fanout.py``) and dotted names (``endpoint_plugins.reply_cap``)
  the docs mention exist.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from secretary_executor.cli import resource_ask, secretary
from secretary_executor.ledger import Ledger

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

SKIP = "skip-snippet"
NEEDS_SERVICE = "needs-service"
_MARKER = re.compile(r"^<!--\s*([a-z-]+)\s*:\s*(.+?)\s*-->$")
_MARKER_LIKE = re.compile(r"^<!--\s*[\w-]*(snippet|service)", re.IGNORECASE)
_FENCE = re.compile(r"^(\s*)```\s*([\w+-]*)\s*$")
SHELL_LANGS = {"", "bash", "sh", "shell", "console"}

PROGRAMS: dict[str, Callable[[], argparse.ArgumentParser]] = {
    "resource-ask": resource_ask._parser,
    "secretary": secretary._parser,
}
_OPERATOR = re.compile(r"[|&;<>()]+")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PREFIXES = {"time", "exec", "env", "sudo", "command"}


@dataclass(frozen=True)
class Block:
    """One fenced code block of a Markdown file."""

    path: Path
    line: int
    lang: str
    code: str
    marker: tuple[str, str] | None

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def fenced_blocks(path: Path) -> Iterator[Block]:
    """The fenced blocks of ``path``, dedented, with the marker comment just before each."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, lang = opening.groups()
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            body.append(lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j])
            j += 1
        before = next((lines[k].strip() for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        found = _MARKER.match(before)
        marker = (found.group(1), found.group(2)) if found else None
        yield Block(path, i + 1, lang.lower(), "\n".join(body) + "\n", marker)
        i = j + 1


def prose(path: Path) -> str:
    """The file's text with its fenced blocks left out."""
    kept: list[str] = []
    inside = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("```"):
            inside = not inside
        elif not inside:
            kept.append(line)
    return "\n".join(kept)


def python_blocks() -> list[Block]:
    return [b for path in DOCS for b in fenced_blocks(path) if b.lang in ("python", "py")]


def _runnable(block: Block) -> bool:
    return block.marker is None


# -- the command lines -----------------------------------------------------------------------


def _logical_lines(code: str) -> Iterator[str]:
    """Shell lines with their backslash continuations joined and a ``$ `` prompt removed."""
    pending = ""
    for raw in code.splitlines():
        line = raw.rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = (pending + line).strip()
        pending = ""
        yield line.removeprefix("$ ")
    if pending:
        yield pending.strip()


def _words(line: str) -> list[str]:
    """A shell line's words and operators (``|``, ``&&``, ``<(``, ...), quotes and comments
    handled as the shell does."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:  # an unbalanced quote: the words as they are
        return line.split()


def _program(word: str) -> str | None:
    """The program a word runs: ``secretary``, or a path to it in a ``bin`` folder."""
    folder, _, name = word.rpartition("/")
    if name in PROGRAMS and (not folder or folder == "bin" or folder.endswith("/bin")):
        return name
    return None


def invocations(text: str) -> Iterator[tuple[str, list[str]]]:
    """``(program, arguments)`` for every ``secretary`` / ``resource-ask`` call in shell text.

    A call is a program in command position (first, after an operator, after ``VAR=value`` or
    ``time``), by name or path, and ends at the next operator; optional parts written in
    brackets (``[--json]``) count as given.
    """
    for line in _logical_lines(text):
        call: list[str] | None = None
        at_command = True
        for word in [*_words(line), ";"]:
            if _OPERATOR.fullmatch(word):
                if call is not None:
                    yield call[0], [w for w in (a.strip("[]") for a in call[1:]) if w]
                call, at_command = None, True
            elif call is not None:
                call.append(word)
            elif at_command and (_ASSIGNMENT.match(word) or word in _PREFIXES):
                continue
            elif at_command and (name := _program(word)):
                call = [name]
            else:
                at_command = False


def shown_commands() -> list[tuple[str, str, list[str]]]:
    """Every call shown in the docs: ``(where, program, arguments)``."""
    shown: list[tuple[str, str, list[str]]] = []
    for path in DOCS:
        for block in fenced_blocks(path):
            if block.lang in SHELL_LANGS:
                for program, args in invocations(block.code):
                    shown.append((block.where, program, args))
        for found in re.findall(r"`((?:[^`\n]|\n(?!\s*\n))+)`", prose(path)):
            span = " ".join(found.split())  # inline code may wrap across lines
            for program, args in invocations(span):
                shown.append((f"{path.relative_to(ROOT)} `{span}`", program, args))
    return shown


def _takes(action: argparse.Action) -> int:
    """How many words an option consumes after its flag (1 for optional values)."""
    if isinstance(action.nargs, int):
        return action.nargs
    return 0 if action.nargs == 0 else 1


def _metavar(action: argparse.Action) -> str:
    """How the docs write a positional as a placeholder: its metavar, or its name in capitals."""
    return str(action.metavar or action.dest.upper())


def check_invocation(parser: argparse.ArgumentParser, args: list[str]) -> list[str]:
    """What in ``args`` the parser does not have: unknown sub-commands, options and choices.

    Values are not checked against their types (docs use placeholders such as ``JOB_ID``),
    only against explicit ``choices`` (where the placeholder is the positional's own name in
    capitals, ``CATEGORY``); everything after ``--`` is the job's own command.
    """
    problems: list[str] = []
    path = parser.prog
    positionals = [a for a in parser._actions if not a.option_strings]
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            break
        if word.startswith("-") and word != "-":
            flag, has_value, _ = word.partition("=")
            action = parser._option_string_actions.get(flag)
            if action is None:  # how many values follow is unknown: the rest is unreadable
                problems.append(f"{path}: no option {flag}")
                break
            i += 1
            if not has_value:
                values = args[i : i + _takes(action)]
                if action.choices and values and values[0] not in action.choices:
                    problems.append(f"{path} {flag}: {values[0]!r} is not one of the choices")
                i += len(values)
            continue
        if not positionals:
            problems.append(f"{path}: unexpected argument {word!r}")
            i += 1
            continue
        action = positionals[0]
        if isinstance(action, argparse._SubParsersAction):
            sub = action.choices.get(word)
            if sub is None:
                problems.append(f"{path}: no sub-command {word!r}")
                break
            parser, path = sub, f"{path} {word}"
            positionals = [a for a in sub._actions if not a.option_strings]
            i += 1
            continue
        if action.choices and word not in action.choices and word != _metavar(action):
            problems.append(f"{path} {action.dest}: {word!r} is not one of the choices")
        if action.nargs not in ("*", "+", argparse.REMAINDER):
            positionals.pop(0)
        i += 1
    return problems


def test_the_docs_show_commands_of_both_programs() -> None:
    shown = shown_commands()
    assert {program for _, program, _ in shown} == set(PROGRAMS)
    assert len(shown) >= 40  # the scan finds the docs' commands, not nothing


def test_every_command_shown_in_the_docs_exists() -> None:
    parsers = {name: build() for name, build in PROGRAMS.items()}
    wrong = [
        f"{where}: {problem}"
        for where, program, args in shown_commands()
        for problem in check_invocation(parsers[program], args)
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("secretary sim negotiate --workerz 3 --out x", "no option --workerz"),
        ("secretary sim simulate --out x", "no sub-command 'simulate'"),
        ("resource-ask list algorithms", "'algorithms' is not one of the choices"),
        ("resource-ask jobs JOB_ID", "unexpected argument 'JOB_ID'"),
        ("x && .venv/bin/resource-ask select 'a' --algorithm=soonest --fast", "no option --fast"),
    ],
)
def test_a_command_that_does_not_exist_is_found(line: str, problem: str) -> None:
    [(program, args)] = list(invocations(line))
    problems = check_invocation(PROGRAMS[program](), args)
    assert len(problems) == 1 and problem in problems[0]


def test_a_call_ends_where_the_shell_line_does() -> None:
    text = "time secretary sim report runs/neg   # re-render\nsource <(secretary completion bash)"
    assert list(invocations(text)) == [
        ("secretary", ["sim", "report", "runs/neg"]),
        ("secretary", ["completion", "bash"]),
    ]
    assert list(invocations("secretary_executor/cli/sim.py and secretary-site.yaml")) == []
    assert list(invocations("~/.local/share/bash-completion/completions/resource-ask")) == []


# -- the Python examples ---------------------------------------------------------------------


def test_every_marker_is_known_and_comes_before_a_python_block() -> None:
    marked = {(b.path, b.line) for b in python_blocks() if b.marker}
    wrong: list[str] = []
    for path in DOCS:
        for block in fenced_blocks(path):
            if block.marker and block.marker[0] not in (SKIP, NEEDS_SERVICE):
                wrong.append(f"{block.where}: unknown marker {block.marker[0]!r}")
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            if _MARKER_LIKE.match(line.strip()) and not _MARKER.match(line.strip()):
                wrong.append(f"{path.relative_to(ROOT)}:{number}: malformed marker {line!r}")
    markers = sum(
        1
        for path in DOCS
        for line in path.read_text(encoding="utf-8").splitlines()
        if _MARKER.match(line.strip())
    )
    assert wrong == [] and markers == len(marked)


@pytest.mark.parametrize("block", python_blocks(), ids=lambda b: b.where)
def test_python_example_compiles(block: Block) -> None:
    compile(block.code, block.where, "exec")


@pytest.mark.slow
@pytest.mark.parametrize(
    "block", [b for b in python_blocks() if _runnable(b)], ids=lambda b: b.where
)
def test_python_example_runs_offline(block: Block, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(block.code, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(_SERVICE_SETTINGS)}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    # Offline: no model is configured, and HTTP to anything but this machine goes nowhere.
    env.update(HTTP_PROXY=_NOWHERE, HTTPS_PROXY=_NOWHERE, ALL_PROXY=_NOWHERE)
    env["NO_PROXY"] = "localhost,127.0.0.1,::1"
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, f"{block.where} failed:\n{done.stderr[-3000:]}"


_SERVICE_SETTINGS = ("SECRETARY_LLM_", "OPENAI_", "GEMINI_", "GOOGLE_API", "GLOBUS_")
_NOWHERE = "http://127.0.0.1:9"  # the discard port: nothing answers


def test_at_least_the_readme_and_parsl_examples_run() -> None:
    runnable = {b.path.name for b in python_blocks() if _runnable(b)}
    assert {"README.md", "parsl.md"} <= runnable


# -- files and names the docs point at ------------------------------------------------------

_REPO_PATH = re.compile(
    r"(?<![\w/.~-])((?:examples|bench|scripts|tests|docs|providers|endpoint_plugins|"
    r"secretary_executor|shared)/[\w/.-]*\w)"
)
_DOTTED = re.compile(r"`((?:providers|endpoint_plugins|secretary_executor)(?:\.\w+)+)(?:\(.*?\))?`")


def test_every_repository_path_in_the_docs_exists() -> None:
    shown = [
        (path.relative_to(ROOT), found)
        for path in DOCS
        for found in _REPO_PATH.findall(path.read_text(encoding="utf-8"))
    ]
    missing = [f"{where}: {found}" for where, found in shown if not (ROOT / found).exists()]
    assert len(shown) >= 20 and missing == []


def _resolve(dotted: str) -> object:
    """The module or attribute a dotted name names (ImportError or AttributeError if none)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise ImportError(dotted)


def test_every_dotted_name_in_the_docs_resolves() -> None:
    names = {n for path in DOCS for n in _DOTTED.findall(path.read_text(encoding="utf-8"))}
    wrong = []
    for name in sorted(names):
        try:
            _resolve(name)
        except (ImportError, AttributeError) as exc:
            wrong.append(f"{name}: {exc}")
    assert names and wrong == []


def test_a_missing_name_is_found() -> None:
    assert _resolve("secretary_executor.broker.Broker").__name__ == "Broker"
    with pytest.raises(AttributeError):
        _resolve("secretary_executor.broker.Brokr")


# -- the README ------------------------------------------------------------------------------


def _readme_section(title: str) -> Block:
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8").splitlines()
    start = text.index(f"## {title}") + 1
    return next(b for b in fenced_blocks(readme) if b.line > start)


def test_the_quick_start_is_make_demo_and_make_test() -> None:
    commands = [
        line.split("#")[0].strip() for line in _readme_section("Quick start").code.splitlines()
    ]
    assert commands == ["make demo", "make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("demo", "test"):
        assert re.search(rf"^{target}:", makefile, re.MULTILINE)


def test_make_test_builds_the_docs_strictly() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    test_target = re.search(r"^test:(.*)$", makefile, re.MULTILINE)
    docs_recipe = re.search(r"^docs:.*\n\t(.*)$", makefile, re.MULTILINE)
    assert test_target and "docs" in test_target.group(1).split()
    assert docs_recipe and "mkdocs build --strict" in docs_recipe.group(1)


def test_the_readmes_programs_are_the_installed_scripts() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "scripts"
    ]
    assert scripts == {
        "resource-ask": "secretary_executor.cli.resource_ask:main",
        "secretary": "secretary_executor.cli.secretary:main",
    }


def _tour() -> list[list[str]]:
    """The tour's commands, and the shell-completion command beside it, as argument lists."""
    commands = []
    for line in _readme_section("A short tour").code.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            commands.append(words)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands += [shlex.split(c) for c in re.findall(r"source <\((\.venv/bin/[^)]+)\)", readme)]
    return commands


def _newest_job() -> str:
    """The id of the ledger's newest job, as the README tells the reader to take."""
    ledger = Ledger()
    try:
        return ledger.jobs(limit=1)[0].job_id
    finally:
        ledger.close()


@pytest.mark.slow
def test_the_readme_tour_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """Each command runs through its program's entry point; JOB_ID is the newest job."""
    mains = {"resource-ask": resource_ask.main, "secretary": secretary.main}
    tour = _tour()
    assert len(tour) >= 10
    job_id = ""
    for words in tour:
        program, args = words[0], words[1:]
        assert program.startswith(".venv/bin/"), f"the tour runs the venv's scripts: {words}"
        if "JOB_ID" in args:
            job_id = job_id or _newest_job()
            args = [job_id if a == "JOB_ID" else a for a in args]
        status = mains[program.removeprefix(".venv/bin/")](args)
        out = capsys.readouterr()
        assert status == 0, f"{shlex.join(words)} exited {status}:\n{out.err[-2000:]}"
        assert out.out.strip(), f"{shlex.join(words)} printed nothing"
        if args[0] == "logs":
            assert "42" in out.out.splitlines(), "logs shows what the tour's job printed"
    assert job_id
