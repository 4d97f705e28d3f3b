"""A site says whether an error is worth retrying elsewhere: a value it cannot accept is a
permanent refusal, not a transient failure that sends the job round every other site."""

from __future__ import annotations

from pathlib import Path

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.secretary import Secretary
from endpoint_plugins.service import handle
from providers.state import load_state, providers_from_state

STATE = Path(__file__).resolve().parents[2] / "secretary_executor/fleets/demo/hpc-campus.yaml"


def _secretary() -> Secretary:
    providers = providers_from_state(load_state(STATE))
    return Secretary(SiteConfig(name="campus"), providers=providers)


def _dispatch(plan: dict, **request) -> dict:
    body = {"request_id": "r1", "text": "1 node", "command": ["true"], **request}
    return handle(_secretary(), "dispatch", {"request": body, "plan": plan})


def test_a_value_the_site_cannot_accept_is_a_permanent_bad_request() -> None:
    for plan in ({"partition": "cpu nodes"}, {"partition": "x" * 80}, {"partition": "-cpu"}):
        envelope = _dispatch(plan)
        assert envelope["ok"] is False, plan
        error = envelope["error"]
        assert error["type"] == "BadRequest", error
        assert error["transient"] is False, error
        assert "partition" in error["message"], error


def test_a_good_plan_still_dispatches() -> None:
    envelope = _dispatch({})
    assert envelope["ok"] is True, envelope
    assert envelope["result"]["native_id"].startswith("sim-")
