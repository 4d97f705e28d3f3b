"""The Provider base: tool registration, manifests, tool-class enforcement, probe caching."""

from __future__ import annotations

import pytest

from providers import ToolKind, ToolSession, dispatch_tool, secretary_tool
from providers.categories import SoftwareProvider, WorkloadProvider, provider_kind
from providers.errors import ProviderError, ToolArgumentError, ToolClassError, ToolNotFoundError
from providers.facts import SoftwareFacts, SoftwarePackage
from providers.tools import parse_docstring


class CountingSoftware(SoftwareProvider):
    """A software provider whose probe counts how often it runs."""

    name = "counting"
    description = "test provider"
    detection = "always present"

    def __init__(self, **kw):
        super().__init__(**kw)
        self.probes = 0

    def _probe(self) -> SoftwareFacts:
        self.probes += 1
        return SoftwareFacts(
            manager="test", packages=(SoftwarePackage(name="LAMMPS", version="2Aug2023"),)
        )

    @secretary_tool
    def echo(self, text: str, times: int = 1) -> list[str]:
        """Repeat a text.

        Args:
            text: what to repeat.
            times: how often (at least one).
        """
        return [text] * times

    @dispatch_tool
    def launch(self, what: str) -> str:
        """Pretend to start something.

        Args:
            what: the thing to start.
        """
        return f"started {what}"


class Broken(SoftwareProvider):
    name = "broken"

    def _probe(self) -> SoftwareFacts:
        raise ProviderError("spack database is corrupt")


def test_tools_are_collected_with_their_class():
    specs = CountingSoftware.tool_specs()
    assert specs["echo"].kind is ToolKind.READ
    assert specs["launch"].kind is ToolKind.DISPATCH
    assert specs["find_software"].kind is ToolKind.READ  # inherited standard tool


def test_manifest_has_types_and_descriptions_from_docstring():
    manifest = {m.tool: m for m in CountingSoftware().manifest()}
    echo = manifest["echo"]
    assert echo.name == "counting__echo"
    assert echo.description == "Repeat a text."
    props = echo.parameters["properties"]
    assert props["text"]["type"] == "string"
    assert props["text"]["description"] == "what to repeat."
    assert props["times"]["type"] == "integer"
    assert echo.parameters["required"] == ["text"]
    assert echo.returns["type"] == "array"


def test_manifest_filters_by_kind():
    read = {m.tool for m in CountingSoftware().manifest(ToolKind.READ)}
    assert "launch" not in read and "echo" in read


def test_dispatch_tool_refused_during_negotiation():
    with pytest.raises(ToolClassError, match="dispatch tool"):
        CountingSoftware().call_tool("launch", {"what": "x"}, allowed=ToolKind.READ)


def test_read_tool_refused_during_dispatch():
    with pytest.raises(ToolClassError):
        CountingSoftware().call_tool("echo", {"text": "x"}, allowed=ToolKind.DISPATCH)


def test_arguments_validated_against_schema():
    p = CountingSoftware()
    with pytest.raises(ToolArgumentError, match="times"):
        p.call_tool("echo", {"text": "x", "times": "many"}, allowed=ToolKind.READ)
    with pytest.raises(ToolArgumentError, match="Extra inputs"):
        p.call_tool("echo", {"text": "x", "evil": 1}, allowed=ToolKind.READ)
    with pytest.raises(ToolNotFoundError, match="its tools are"):
        p.call_tool("rm_rf", {}, allowed=ToolKind.READ)


def test_results_are_json_ready():
    p = CountingSoftware()
    found = p.call_tool("find_software", {"name": "lammps"}, allowed=ToolKind.READ)
    assert found == [
        {
            "name": "LAMMPS",
            "version": "2Aug2023",
            "variants": [],
            "location": None,
            "environment": None,
        }
    ]


def test_probe_is_cached_until_invalidated():
    p = CountingSoftware()
    first = p.probe()
    assert p.probe() is first
    p.find_software("lammps")
    assert p.probes == 1
    p.invalidate()
    p.probe()
    assert p.probes == 2


def test_failing_probe_is_a_report_not_an_exception():
    report = Broken().probe()
    assert not report.available
    assert "corrupt" in (report.error or "")
    with pytest.raises(ProviderError, match="not available"):
        Broken().facts()


def test_session_records_evidence_and_errors():
    session = ToolSession([CountingSoftware(), Broken()], allowed=ToolKind.READ)
    ok = session.call("counting", "echo", {"text": "hi", "times": 2})
    bad = session.call("broken", "find_software", {"name": "x"})
    denied = session.call("counting", "launch", {"what": "x"})
    assert ok.result == ["hi", "hi"] and ok.error is None
    assert "not available" in (bad.error or "")
    assert "dispatch tool" in (denied.error or "")
    assert len(session.evidence) == 3
    assert [p.name for p in session.providers()] == ["counting"]
    assert all(m.kind is ToolKind.READ for m in session.manifest())


def test_session_resolves_qualified_names():
    session = ToolSession([CountingSoftware()], allowed=ToolKind.READ)
    ev = session.call_qualified("counting__echo", {"text": "a"})
    assert ev.result == ["a"]
    missing = session.call_qualified("nobody__echo", {})
    assert "no tool named" in (missing.error or "")


def test_decorator_misuse_is_loud():
    with pytest.raises(TypeError, match="docstring"):

        @secretary_tool
        def undocumented(self) -> int:
            return 1

    with pytest.raises(TypeError, match="lower_snake_case"):

        @secretary_tool
        def BadName(self) -> int:
            """Doc."""
            return 1


def test_override_of_a_tool_stays_a_tool():
    class Live(CountingSoftware):
        name = "live"

        def echo(self, text: str, times: int = 1) -> list[str]:
            """Repeat loudly."""
            return [text.upper()] * times

    assert Live.tool_specs()["echo"].kind is ToolKind.READ
    assert Live().call_tool("echo", {"text": "a"}, allowed=ToolKind.READ) == ["A"]


def test_provider_kind():
    assert provider_kind(CountingSoftware) == "software"
    assert "submit_job" in WorkloadProvider.tool_specs()


def test_parse_google_docstring():
    text, args = parse_docstring(
        "Summary line.\n\nMore.\n\nArgs:\n    a: first\n        continued.\n    b (int): second\n\n"
        "Returns:\n    nothing"
    )
    assert text == "Summary line.\n\nMore."
    assert args == {"a": "first continued.", "b": "second"}


def test_probe_many_keeps_order_and_reuses_fresh_results():
    from providers.base import probe_many

    warm, cold, broken = CountingSoftware(name="warm"), CountingSoftware(name="cold"), Broken()
    warm.probe()
    reports = probe_many([warm, cold, broken])
    assert [r.provider for r in reports] == ["warm", "cold", "broken"]
    assert (warm.probes, cold.probes) == (1, 1)
    assert not reports[2].available and "corrupt" in (reports[2].error or "")
    assert warm.fresh and cold.fresh
