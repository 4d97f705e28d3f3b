"""Command-line options that point a command at a language model.

The model normally comes from the ``SECRETARY_LLM_*`` variables (docs/agents.md); these options
override them for one run, so an experiment against a local server needs no exported
environment. Each option maps to the variable of the same meaning and is validated the same
way, so a bad value gives the same one-line error either way.
"""

from __future__ import annotations

import argparse
import os

from endpoint_plugins.agent.config import (
    ENV_BASE_URL,
    ENV_JSON_MODE,
    ENV_MAX_LOOPS,
    ENV_MODEL,
    ENV_TIMEOUT,
    LLMConfig,
)
from endpoint_plugins.agent.errors import AgentConfigError
from secretary_executor.cli.common import positive_seconds
from secretary_executor.errors import ConfigurationError
from secretary_executor.select.agentic import DEFAULT_RETRIES

_FLAG_VARS = {
    "llm_model": ENV_MODEL,
    "llm_base_url": ENV_BASE_URL,
    "llm_timeout": ENV_TIMEOUT,
    "llm_max_loops": ENV_MAX_LOOPS,
    "llm_json_mode": ENV_JSON_MODE,
}


def add_llm_options(parser: argparse.ArgumentParser) -> None:
    """The model options (each overrides its ``SECRETARY_LLM_*`` variable)."""
    group = parser.add_argument_group(
        "language model (agent, hybrid, agentic, agentic-cost; default: SECRETARY_LLM_* "
        "variables, see docs/agents.md)"
    )
    group.add_argument("--llm-model", metavar="NAME", help=f"model name ({ENV_MODEL})")
    group.add_argument(
        "--llm-base-url",
        metavar="URL",
        help=f"OpenAI-compatible API root, e.g. http://127.0.0.1:8080/v1 ({ENV_BASE_URL})",
    )
    group.add_argument(
        "--llm-timeout",
        type=positive_seconds,
        metavar="S",
        help=f"seconds one model call may take ({ENV_TIMEOUT}; default 60)",
    )
    group.add_argument(
        "--llm-max-loops",
        type=int,
        metavar="N",
        help=f"model calls per agent negotiation ({ENV_MAX_LOOPS}; default 10)",
    )
    group.add_argument(
        "--llm-json-mode",
        choices=("json_schema", "json_object"),
        help=f"how JSON output is asked for; json_object for llama.cpp ({ENV_JSON_MODE})",
    )
    group.add_argument(
        "--llm-retries",
        type=int,
        default=DEFAULT_RETRIES,
        metavar="N",
        help="unusable agentic selection answers sent back before the decision is UNKNOWN "
        f"(default {DEFAULT_RETRIES})",
    )
    group.add_argument(
        "--llm-max-tokens",
        type=int,
        metavar="N",
        help="cap on the tokens of one model answer (default: the server's)",
    )
    group.add_argument(
        "--llm-guided",
        action="store_true",
        help="agent strategy: force the workload's list_partitions call, then final_answer "
        "(for models too small to choose tools)",
    )


def llm_config(args: argparse.Namespace) -> LLMConfig | None:
    """The model these options and the environment configure; None when neither does.

    Raises:
        ConfigurationError: a half or invalid configuration (the message names the option or
            variable to fix).
    """
    environ = dict(os.environ)
    for flag, var in _FLAG_VARS.items():
        value = getattr(args, flag, None)
        if value is not None:
            environ[var] = str(value)
    try:
        config = LLMConfig.from_env(environ)
    except AgentConfigError as exc:
        raise ConfigurationError(_flag_names(exc.message)) from None
    if config is None:
        return None
    if getattr(args, "llm_retries", 0) < 0:
        raise ConfigurationError(f"--llm-retries must be 0 or more (got {args.llm_retries})")
    tokens = getattr(args, "llm_max_tokens", None)
    if tokens is not None:
        if tokens < 16:
            raise ConfigurationError(f"--llm-max-tokens must be at least 16 (got {tokens})")
        config = config.model_copy(update={"max_output_tokens": tokens})
    return config


def _flag_names(message: str) -> str:
    """The message with each variable also named by its option."""
    for flag, var in _FLAG_VARS.items():
        message = message.replace(var, f"{var} (--{flag.replace('_', '-')})")
    return message
