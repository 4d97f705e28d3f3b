"""Bounded conversation history and bounded tool outputs.

A negotiation may make up to ``max_loops`` model calls, and each tool result can be large (a
partition list of a big centre). Two budgets keep every call's prompt bounded whatever the
site: a tool output longer than its budget is cut with a note saying how much was dropped, and
the history sent each turn keeps the system prompt and the request plus the most recent turns
that fit. A model turn is never separated from the tool results that answer it: APIs reject a
tool result whose call is missing.
"""

from __future__ import annotations

from endpoint_plugins.agent.messages import Message


def truncate(text: str, budget: int) -> str:
    """``text`` cut to ``budget`` characters, with a note of what was dropped.

    Postcondition: the result is at most ``budget`` characters plus the short note.
    """
    if len(text) <= budget:
        return text
    return f"{text[:budget]}... [truncated: {len(text) - budget} more characters not shown]"


class History:
    """The conversation of one negotiation: a fixed head and a window of recent turns.

    Args:
        head: messages always sent (the system prompt and the request).
        budget_chars: the most characters of the recent turns sent per call; the newest turn
            is always sent, even if it alone is larger.
    """

    def __init__(self, head: list[Message], budget_chars: int) -> None:
        self.head = list(head)
        self.turns: list[Message] = []
        self.budget_chars = budget_chars

    def append(self, message: Message) -> None:
        """Add a message at the end."""
        self.turns.append(message)

    def _blocks(self) -> list[list[Message]]:
        """The turns grouped so that tool results stay with the model turn that asked."""
        blocks: list[list[Message]] = []
        for message in self.turns:
            if message.role == "tool" and blocks and blocks[-1][0].role == "assistant":
                blocks[-1].append(message)
            else:
                blocks.append([message])
        return blocks

    def window(self) -> list[Message]:
        """What to send now: the head, a note if turns were dropped, and the recent turns."""
        kept: list[list[Message]] = []
        used = 0
        blocks = self._blocks()
        for block in reversed(blocks):
            size = sum(m.size() for m in block)
            if kept and used + size > self.budget_chars:
                break
            kept.append(block)
            used += size
        kept.reverse()
        dropped = sum(len(b) for b in blocks) - sum(len(b) for b in kept)
        out = list(self.head)
        if dropped:
            out.append(
                Message(
                    role="user",
                    content=f"({dropped} earlier messages were left out to keep this "
                    "conversation short; call a tool again if you need a fact from them.)",
                )
            )
        for block in kept:
            out.extend(block)
        return out
