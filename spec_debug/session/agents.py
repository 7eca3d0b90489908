"""The agent tree: which agent spawned which, and how each one did."""

from __future__ import annotations

from dataclasses import dataclass, field

from spec_debug.session.events import MAIN_AGENT


@dataclass(slots=True)
class AgentInfo:
    id: str
    parent: str | None = None
    spawned_by: str | None = None
    """Id of the tool call that started it (``meta.json`` ``toolUseId``)."""
    agent_type: str = ""
    description: str = ""
    file: str | None = None
    status: str = "unknown"
    """completed | failed | interrupted | missing | running | unknown; from the parent's tool
    result (``toolUseResult.status``, or the CLI's "[Request interrupted by user" when the
    person stopped it) when there is one, else derived after the fact."""
    events: int = 0
    tool_calls: int = 0
    failed_calls: int = 0
    not_run_calls: int = 0
    """Of ``failed_calls``, those that never ran (the person refused them, a hook blocked them, a
    sibling's error cancelled them: ``failures.NOT_RUN``): no sign the agent's work failed."""
    errors: int = 0
    first_seq: int | None = None
    last_seq: int | None = None
    cut_off: bool | None = None
    """A sub-agent that made tool calls and wrote nothing after its last one: it ended on a tool
    result (or a call) with no report of its own, stopped before it finished (its turn limit, its
    context, the CLI ending it), whatever ``status`` the CLI gave (anthropics/claude-code issue
    #86471: "status: completed" with an empty result or "a mid-reasoning fragment"). Claude Code
    sessions only, whose sub-agent files hold the report; None where it cannot be said: the main
    agent, a sub-agent none of whose events were read, other formats."""

    def as_dict(self, session: str) -> dict:
        return {
            "id": self.id, "session": session, "parent": self.parent, "spawned_by": self.spawned_by,
            "type": self.agent_type, "description": self.description, "file": self.file,
            "events": self.events, "tool_calls": self.tool_calls, "failed_calls": self.failed_calls,
            "errors": self.errors, "status": self.status, "first_seq": self.first_seq,
            "last_seq": self.last_seq, "cut_off": self.cut_off,
        }


@dataclass
class AgentTree:
    agents: dict[str, AgentInfo] = field(default_factory=dict)
    unanswered: set[str] = field(default_factory=set)
    """Sub-agents whose spawning call has no result in their parent's file: the session was cut
    off (killed, still going when copied) while they ran, so no report came back."""

    def get(self, agent_id: str, parent: str | None = MAIN_AGENT) -> AgentInfo:
        info = self.agents.get(agent_id)
        if info is None:
            info = AgentInfo(id=agent_id, parent=None if agent_id == MAIN_AGENT else parent)
            self.agents[agent_id] = info
        return info

    def finish(self) -> None:
        """Fill the statuses nobody reported (tokentelemetry PR #370: an agent whose every
        call failed is ``failed``, not a success)."""
        agents = self.agents.values()
        if self.unanswered:  # parents first: a stop by hand reaches down the tree
            agents = sorted(agents, key=lambda info: self.depth(info.id))
        for info in agents:
            if info.status != "unknown":
                continue
            if info.events == 0:
                info.status = "missing" if info.file is None and info.id != MAIN_AGENT else "unknown"
            elif info.id in self.unanswered:
                # its call never answered: still running when the session was cut off, unless the
                # agent that called it was stopped by hand, which stops the agents it waits on
                # (Esc "kills ALL agents" running in the foreground, anthropics/claude-code issue
                # #33434; was "running" under an interrupted parent)
                parent = self.agents.get(info.parent) if info.parent is not None else None
                info.status = "interrupted" if parent is not None and parent.status == "interrupted" else "running"
            elif info.tool_calls and info.failed_calls == info.tool_calls and info.not_run_calls < info.tool_calls:
                # (calls that were all refused never ran: the person stopped the agent, its work did
                # not fail; read as failed, a session the person declined twice was a failed agent)
                info.status = "failed"
            else:
                info.status = "completed"

    def depth(self, agent_id: str) -> int:
        d, seen = 0, set()
        node = self.agents.get(agent_id)
        while node is not None and node.parent is not None and node.id not in seen:
            seen.add(node.id)
            d += 1
            node = self.agents.get(node.parent)
        return d
