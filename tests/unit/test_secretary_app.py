"""``@secretary_app`` / ``@secretary_bash_app`` and reading a task's resource specification."""

from __future__ import annotations

import pytest

from providers.wire import ComputeRequirement, Policy, Requirements
from secretary_executor.errors import ConfigurationError
from secretary_executor.parsl import secretary_app, secretary_bash_app, secretary_spec
from secretary_executor.parsl.app import SecretaryBashApp, SecretaryPythonApp
from secretary_executor.parsl.spec import split_spec

DEFAULT = Requirements(compute=ComputeRequirement(cores_per_node=1))


def _split(spec):
    return split_spec(spec, default_requirements=DEFAULT, default_policy=Policy())


def test_both_decorator_forms_make_python_apps_on_the_secretary_executor():
    @secretary_app
    def bare(x):
        return x

    @secretary_app(request="python >= 3.10 on 4 cores", policy="min-cost")
    def configured(x):
        return x

    assert isinstance(bare, SecretaryPythonApp) and bare.executors == ["secretary"]
    assert bare.secretary_spec == {}
    assert configured.secretary_spec == {
        "secretary_request": "python >= 3.10 on 4 cores",
        "secretary_policy": "min-cost",
    }


def test_bash_variant_and_custom_executors():
    @secretary_bash_app(requirements={"compute": {"gpus_per_node": 1}}, executors=["mine"])
    def cmd():
        return "true"

    assert isinstance(cmd, SecretaryBashApp) and cmd.executors == ["mine"]
    assert cmd.secretary_spec["secretary_requirements"] == {"compute": {"gpus_per_node": 1}}


def test_bad_decorator_arguments_fail_at_decoration_with_the_field_named():
    with pytest.raises(ConfigurationError, match="nodes"):
        secretary_spec(requirements={"compute": {"nodes": 0}})
    with pytest.raises(ConfigurationError, match="request"):
        secretary_spec(request="  ")


def test_an_empty_or_none_spec_means_the_default_requirements():
    for spec in (None, {}):
        needs = _split(spec)
        assert needs.requirements == DEFAULT and needs.forward == {}


def test_parsl_keys_become_requirements_and_are_still_forwarded():
    spec = {"cores": 8, "memory": 4096, "gpus": 2, "running_time_min": 30, "priority": 5}
    needs = _split({**spec, "secretary_request": "python"})
    compute = needs.requirements.compute
    assert (compute.cores_per_node, compute.memory_gb_per_node, compute.gpus_per_node) == (
        8,
        4.0,
        2,
    )
    assert compute.walltime_s == 1800
    assert needs.forward == spec


def test_request_text_is_parsed_and_structured_requirements_win():
    text = _split({"secretary_request": "lammps >= 2023 on 2 nodes"}).requirements
    assert text.software[0].name == "lammps" and text.compute.nodes == 2
    both = _split(
        {"secretary_request": "lammps", "secretary_requirements": {"compute": {"nodes": 3}}}
    ).requirements
    assert both.compute.nodes == 3 and not both.software


def test_equal_needs_share_a_cache_key_and_policy_changes_it():
    a = _split({"secretary_requirements": {"compute": {"cores_per_node": 4}}})
    b = _split({"cores": 4})
    c = _split({"cores": 4, "secretary_policy": "min-cost"})
    assert a.key == b.key != c.key
    assert c.policy.algorithm == "min-cost"


@pytest.mark.parametrize(
    "spec",
    [
        {"cores": "many"},
        {"cores": -1},
        {"secretary_request": 5},
        {"secretary_policy": {"algorithm": ""}},
    ],
)
def test_bad_specs_are_one_line_configuration_errors(spec):
    with pytest.raises(ConfigurationError) as info:
        _split(spec)
    assert "\n" not in info.value.message


def test_a_call_carries_a_resource_specification_only_when_there_is_something_to_say(
    monkeypatch,
):
    from parsl.app.python import PythonApp

    sent: list[dict] = []
    monkeypatch.setattr(PythonApp, "__call__", lambda self, *a, **kw: sent.append(kw))

    @secretary_app
    def bare(x):
        return x

    @secretary_app(policy="min-cost")
    def configured(x):
        return x

    bare(1)
    bare(1, parsl_resource_specification={"cores": 2})
    configured(1)
    configured(1, parsl_resource_specification={"secretary_policy": "soonest"})
    assert sent == [
        {},  # nothing to say: the executor reads a missing spec as the default needs
        {"parsl_resource_specification": {"cores": 2}},
        {"parsl_resource_specification": {"secretary_policy": "min-cost"}},
        {"parsl_resource_specification": {"secretary_policy": "soonest"}},  # the call wins
    ]
