"""How Codex's sub-agents ended, as the agent that spawned them was told: the ``wait`` tool's
result and the ``<subagent_notification>`` Codex writes into the parent's history.

Both carry ``AgentStatus`` as serde writes it (openai/codex ``codex-rs/protocol/src/protocol.rs``,
``rename_all = "snake_case"``): ``"pending_init"``, ``"running"``, ``"interrupted"``,
``{"completed": msg | null}``, ``{"errored": msg}``, ``"shutdown"``, ``"not_found"``. ``wait``
answers ``{"status": {<thread id or agent path>: AgentStatus}, "timed_out": bool}``
(``codex-rs/core/src/tools/handlers/multi_agents/wait.rs`` ``WaitAgentResult``); a notification is
``<subagent_notification>\\n{"agent_path": ..., "status": AgentStatus}\\n</subagent_notification>``.
``codex exec --json`` gives the same as ``agents_states{thread: {status, message}}``.

A sub-agent that errored (its model stream broke, its usage ran out) often leaves no failed command
in its own rollout, so only this word says it failed: read without it, the agent was ``completed``.
"""

from __future__ import annotations

import json

NOTIFICATION = "<subagent_notification>"

_FINAL = {"completed": "completed", "errored": "failed", "interrupted": "interrupted", "not_found": "missing"}
"""Codex's final statuses as :class:`spec_debug.session.agents.AgentInfo` names them. ``shutdown``
(closed with ``close_agent``) and the running ones say nothing of how its work ended."""

State = tuple[str, str, str, str]
"""(agent: thread id or agent path, status as AgentInfo names it, Codex's message, Codex's status)"""


def state(ref: str, status) -> State | None:
    """One sub-agent's ``AgentStatus`` (or ``codex exec``'s ``{status, message}``), if final."""
    message = ""
    if isinstance(status, dict) and isinstance(status.get("status"), str):
        message = status.get("message") if isinstance(status.get("message"), str) else ""
        status = status["status"]
    elif isinstance(status, dict) and len(status) == 1:
        status, said = next(iter(status.items()))
        message = said if isinstance(said, str) else ""
    if not isinstance(status, str) or status not in _FINAL:
        return None
    return ref, _FINAL[status], message, status


def wait_states(output: object) -> tuple[State, ...] | None:
    """The sub-agents a ``wait`` result reports on; None when ``output`` is no such result."""
    if not isinstance(output, dict) or not isinstance(output.get("status"), dict) \
            or not isinstance(output.get("timed_out"), bool):
        return None
    found = (state(ref, status) for ref, status in output["status"].items() if isinstance(ref, str))
    return tuple(s for s in found if s is not None)


def notification_states(text: str) -> tuple[State, ...]:
    """The sub-agent a ``<subagent_notification>`` block reports on."""
    body = text.strip()
    if not body.startswith(NOTIFICATION):
        return ()
    body = body[len(NOTIFICATION):].rsplit("</subagent_notification>", 1)[0]
    try:
        said = json.loads(body)
    except (ValueError, RecursionError):
        return ()
    if not isinstance(said, dict) or not isinstance(said.get("agent_path"), str):
        return ()
    found = state(said["agent_path"], said.get("status"))
    return (found,) if found is not None else ()


def failures(states: tuple[State, ...] | None) -> list[State]:
    """The states that say a sub-agent did not do its work (errored, or gone)."""
    return [s for s in states or () if s[1] in ("failed", "missing")]


def said(states: tuple[State, ...]) -> str:
    """The result as the report shows it, one sub-agent a line, in Codex's words ("errored")."""
    return "\n".join(f"{ref}: {codex}" + (f": {message}" if message else "") for ref, _, message, codex in states)
