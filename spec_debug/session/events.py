"""The normalised event: one per content block of every transcript format.

Kinds follow issue #6: prompt, text, thinking, tool_call, tool_result, system, summary,
compaction; anything a format adds that we do not model is kept as ``other`` (with its raw
type name) instead of failing, as daaain/claude-code-log and txcript do.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any, Literal

EventKind = Literal[
    "prompt", "text", "thinking", "tool_call", "tool_result", "system", "summary",
    "compaction", "other",
]
MAIN_AGENT = "main"
"""Agent id of the trunk conversation (the session file itself)."""


@dataclass(slots=True)
class Spawn:
    """A tool call that starts a sub-agent (Claude Code ``Task``/``Agent``)."""

    description: str = ""
    agent_type: str = ""
    prompt_key: int = 0
    """A digest of the prompt the call gave (:func:`prompt_key`), the same in every process: with
    it a sub-agent file that lost its link to the call is matched by the prompt it opens with."""
    session_id: str = ""
    """Claude Code: the ``sessionId`` of the line that made the call. A resumed session's file
    starts with the lines it copied from the session it resumed, their id kept, and the
    sub-agents those lines started sit in that session's folder (:mod:`formats.claude_session`)."""
    name: str = ""
    """Claude Code: the ``name`` an agent-team teammate was given (``Agent`` input ``name`` with
    ``team_name``), which its sidecar repeats in place of the ``toolUseId`` it lacks."""


def prompt_key(prompt: str) -> int:
    """A digest of a sub-agent's prompt, stable across processes (``hash`` of a str is not)."""
    return zlib.crc32(prompt.strip().encode("utf-8", "surrogatepass")) + (len(prompt.strip()) << 32)


@dataclass(slots=True)
class Event:
    session: str
    seq: int
    """Message index in its session (stable: the n-th non-blank record of the trunk file;
    sub-agent files continue the count after the trunk, so a seq is unique per session)."""
    agent: str
    role: str
    kind: EventKind
    block: int = 0
    """Index of the content block inside the message (one message may hold text + a call)."""
    tool_name: str | None = None
    call_id: str | None = None
    command: str | None = None
    """Shell command of a tool call (Bash ``input.command``, Codex ``cmd``, ...)."""
    description: str | None = None
    text: str = ""
    """Prompt/text/thinking text, or the output of a tool result."""
    is_error: bool = False
    exit_code: int | None = None
    timestamp: str | None = None
    file: str = ""
    line: int = 0
    raw_type: str | None = None
    host: str | None = None
    """Host known from the format itself (a shell prompt ``root@gpu-3:~#``)."""
    spawn: Spawn | None = None
    agent_ref: str | None = None
    """On a tool result: the sub-agent id it reports on (``toolUseResult.agentId``)."""
    agent_status: str | None = None
    path: str | None = None
    """File a non-shell tool reads or edits (Read/Edit/Write/Grep ``file_path``/``path``)."""
    extracted: Any = None
    """:class:`spec_debug.session.extract.Extracted`, when a worker process scanned the
    event already (its long text then travels no further)."""
    agent_states: tuple | None = None
    """On a Codex multi-agent ``wait`` result (or its ``<subagent_notification>``): ``(agent, status,
    message, Codex's status)`` for each sub-agent it says ended (``formats.codex_agent_states``);
    on a Claude Code line of several task notifications, the same for each task it ends.
    The readers build events positionally, in this field order: a field is added last."""
    cwd: str | None = None
    """On a tool call with a command: the folder the shell it was typed in was in, where the
    format records it (Claude Code's line ``cwd``, Codex's ``workdir`` or turn ``cwd``, the
    folder a Debian prompt shows). A relative path (``python tests/check.py``) means a file there.
    On stream-json's ``init`` line: the run's folder (``formats.claude_code.follow_folder``)."""
    user: str | None = None
    """On a tool call with a command: the user the shell ran it as, where the format shows it
    (a shell log's prompt, ``root@gpu01:~#``)."""
    port: int | None = None
    """On a tool call with a command sent to ``host`` by an MCP server's SSH tool: the port its
    arguments name (``{host, port, username, command}``, ``host: "user@host:2222"``)."""
    container: str | None = None
    """On a tool call with a command: the container whose shell it was typed in, where the log
    shows that shell opened (``docker exec -it sglang bash``, then ``root@a1b2c3d4e5f6:/#``):
    ``docker:sglang``, as :func:`shell.parse_target` names a ``docker exec``'s; ``host`` is then
    the machine the container runs on."""


@dataclass(slots=True)
class ReadStats:
    """What the readers skipped, so a report can say how much it did not understand."""

    lines: int = 0
    broken_json: int = 0
    non_object: int = 0
    too_long: int = 0
    binary: int = 0
    unknown_types: int = 0
    missing_files: list[str] = field(default_factory=list)
    records: int = 0
    """Non-blank lines of a JSONL file (record indices are counted on them)."""
    damaged: list[str] = field(default_factory=list)
    """One line per file that could not be read to its end (a compressed stream cut short or
    corrupt, a file removed or failing while read): what came before is kept, the rest is lost
    (see :func:`spec_debug.session.reader.iter_lines`, :func:`spec_debug.session.sources.iter_events`)."""

    def add(self, other: ReadStats) -> None:
        """Add the counts of a slice of the file read elsewhere (a worker process)."""
        self.lines += other.lines
        self.records += other.records
        self.add_skipped(other)

    def add_skipped(self, other: ReadStats) -> None:
        """Add what ``other`` skipped or found damaged, not its lines: a file read once for all
        the sessions it holds, reported with one of them."""
        for name in ("broken_json", "non_object", "too_long", "binary", "unknown_types"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.damaged.extend(other.damaged)

    @property
    def lines_skipped(self) -> int:
        return self.broken_json + self.non_object + self.too_long + self.binary

    def as_dict(self) -> dict[str, int]:
        return {
            "lines": self.lines,
            "lines_skipped": self.lines_skipped,
            "broken_json": self.broken_json,
            "non_object": self.non_object,
            "too_long": self.too_long,
            "binary": self.binary,
            "unknown_types": self.unknown_types,
            "missing_files": len(self.missing_files),
            "damaged_files": len(self.damaged),
        }
