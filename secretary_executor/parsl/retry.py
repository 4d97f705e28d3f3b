"""A Parsl ``retry_handler`` that does not retry what cannot succeed.

Parsl retries every failed task while its ``fail_cost`` stays within ``Config(retries=...)``,
whatever the exception: it has no notion of a permanent error (only a dependency failure skips
retries). A task that no site can run (a :class:`~secretary_executor.errors.SelectionError`
that is not ``transient``: every site answered, none can ever run it) and a task whose resource
specification is wrong (:class:`~secretary_executor.errors.ConfigurationError`) fail the same
way on every try, so retrying them only repeats the fan-out to the fleet and delays the error.

``SecretaryExecutor`` already answers such retries from a cache of refused needs for
``cache_ttl_s`` without asking the sites again; :func:`secretary_retry_handler` also stops
Parsl from trying at all::

    Config(executors=[SecretaryExecutor(...)], retries=3, retry_handler=secretary_retry_handler)

Every other failure costs 1, as it does without a handler.
"""

from __future__ import annotations

from typing import Any

from secretary_executor.errors import ConfigurationError, SelectionError


def is_permanent(exception: BaseException) -> bool:
    """True for the executor's errors that every retry would repeat."""
    if isinstance(exception, ConfigurationError):
        return True
    return isinstance(exception, SelectionError) and not exception.transient


def secretary_retry_handler(exception: Exception, task_record: Any) -> float:
    """The retry cost of a failed try: past the retry budget for a permanent error, else 1.

    ``task_record`` is Parsl's ``TaskRecord`` (a dict with the DataFlowKernel under ``dfk``).
    """
    if not is_permanent(exception):
        return 1.0
    dfk = task_record.get("dfk") if isinstance(task_record, dict) else None
    retries = getattr(getattr(dfk, "config", None), "retries", 0) or 0
    return float(retries + 1)
