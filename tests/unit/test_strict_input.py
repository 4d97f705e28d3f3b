"""Structured requirements from people and agents: an unknown field is an error, never dropped.

``{"name": "python", "version": ">=99"}`` (the field is ``constraints``) used to lose its version
silently and make a site READY for a job it could not run.
"""

from __future__ import annotations

import pytest

from providers.wire import Requirements
from providers.wire.strict import UnknownFieldError, validate_user_input
from secretary_executor.errors import ConfigurationError


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"software": [{"name": "python", "version": ">=99"}]}, "software[0].version"),
        ({"compute": {"node": 4}}, "compute.node"),
        ({"gpus": 2}, "gpus"),
        ({"alternatives": [{"any_of": [{"name": "a"}, {"name": "b", "v": "1"}]}]},
         "alternatives[0].any_of[1].v"),
        ({"network": {"fabric": "infiniband", "speed": 100}}, "network.speed"),
        ({"storage": [{"kind": "lustre", "free_gb": 10}]}, "storage[0].free_gb"),
    ],
)  # fmt: skip
def test_an_unknown_field_names_itself_and_the_valid_ones(data: dict, where: str) -> None:
    with pytest.raises(UnknownFieldError, match="valid fields there") as caught:
        validate_user_input(Requirements, data)
    assert repr(where) in str(caught.value)


def test_valid_input_still_validates() -> None:
    data = {"software": [{"name": "python", "constraints": [{"op": ">=", "version": "3.10"}]}]}
    assert validate_user_input(Requirements, data).software[0].name == "python"


def test_the_parsl_door_refuses_unknown_fields() -> None:
    from secretary_executor.parsl.app import secretary_app

    with pytest.raises(ConfigurationError, match="software\\[0\\].version"):

        @secretary_app(requirements={"software": [{"name": "python", "version": ">=99"}]})
        def task() -> None:  # pragma: no cover - never defined
            pass
