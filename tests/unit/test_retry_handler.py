"""``secretary_retry_handler``: Parsl does not retry what every try would repeat."""

from __future__ import annotations

import pytest

from secretary_executor.errors import ConfigurationError, SelectionError
from secretary_executor.parsl.retry import is_permanent, secretary_retry_handler


class _Config:
    retries = 3


class _Dfk:
    config = _Config()


@pytest.mark.parametrize(
    ("error", "cost"),
    [
        (SelectionError("no site can run this request"), 4.0),
        (ConfigurationError("bad spec"), 4.0),
        (SelectionError("a site did not answer", transient=True), 1.0),
        (ValueError("the task's own"), 1.0),
    ],
)
def test_the_retry_handler_prices_permanent_errors_past_the_budget(error, cost):
    assert secretary_retry_handler(error, {"dfk": _Dfk()}) == cost
    assert is_permanent(error) is (cost > 1)
