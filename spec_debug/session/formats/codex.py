"""OpenAI Codex CLI rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

Each line is ``{timestamp, type, payload}`` (openai/codex ``codex-rs/protocol``
``RolloutLine``). ``response_item`` lines are what the model saw; ``event_msg`` lines
are the UI's copy. We read messages from ``response_item``; a command's result is the
first of ``exec_command_end`` and ``function_call_output`` for its ``call_id`` (txcript
``docs/formats/codex.md``: prefer ``exec_command_end``; the later duplicate is dropped, so
an error in the output is counted once). ``mcp_tool_call_end``, ``patch_apply_end`` and
``item_completed`` end their call the same way (``codex_tool_ends``).

Rollouts written before about September 2025 have no envelope: a header line
``{id, timestamp, instructions, git}``, ``{"record_type": "state"}`` markers, and the
response items themselves as lines (described alike by several independent rollout
readers; ``codex doctor`` once reported these files as scan errors). They are read as if
each item were a ``response_item`` payload.
"""

from __future__ import annotations

import ntpath
import posixpath
import re
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from spec_debug.session import shell, unattended
from spec_debug.session.events import Event, ReadStats, Spawn
from spec_debug.session.formats import codex_agent_states as agent_states
from spec_debug.session.formats import codex_code_mode as code_mode
from spec_debug.session.formats import codex_tool_ends as tool_ends
from spec_debug.session.formats import responses_tools
from spec_debug.session.formats.common import (
    SHELL_TOOL_NAMES, Cursor, attachments_shown, bare_command, block_text, call_text, decode_arguments, process_result,
    remote_host, remote_login, shell_command, tool_path,
)
from spec_debug.session.reader import inner_json, iter_json_records

ROLLOUT_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted",
                           "inter_agent_communication", "inter_agent_communication_metadata", "world_state",
                           "security_risk_score", "token_usage_record", "realtime_item", "retained_context"})
"""Line types of ``RolloutItemWire`` (openai/codex ``codex-rs/protocol`` ``persisted_wire``): the
five of 2025, and those newer CLIs add (messages between the agents of a multi-agent run, the
state of the world the model is shown, risk scores, token records, realtime items)."""
_QUIET_LINES = frozenset({"inter_agent_communication_metadata", "world_state", "security_risk_score",
                          "token_usage_record", "realtime_item", "retained_context"})
"""Bookkeeping line types kept as ``other`` without calling them unknown."""
_QUIET_ITEMS = frozenset({"ghost_snapshot", "compaction", "compaction_summary", "other", "context_compaction",
                          "compaction_trigger", "additional_tools", "configuration_update"})
"""Response items that hold nothing to read (openai/codex ``codex-rs/protocol/src/models.rs``
``ResponseItem``: the git snapshot ``/undo`` restores, an encrypted compaction, ``Other``; in 2026
CLIs also the opaque context a remote compaction returns, whose ``compacted`` line is the
compaction, its trigger, tool definitions added mid-session and a reasoning setting), kept as
``other`` without calling them unknown; any other item type the reader does not know is counted
in ``unknown_types``."""
RESPONSE_ITEM_TYPES = frozenset({
    "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output",
    "local_shell_call", "reasoning", "web_search_call", "tool_search_call", "tool_search_output",
}) | responses_tools.ITEM_TYPES
"""Response items (openai/codex ``codex-rs/protocol/src/models.rs`` ``ResponseItem``, and the
Responses API's shell and apply_patch tool items, :mod:`formats.responses_tools`) that only
Codex or a program's saved Responses items hold as bare lines; a bare ``message`` is left out:
OpenAI chat has it too."""
_EXIT_TEXT = re.compile(r"(?:Process exited with code|Exit code:?|sandbox denied exec error, exit code:)\s+(-?\d+)")
"""The exit status a shell result states in its text. A command the sandbox stopped or that
failed inside it comes back as ``failed in sandbox LinuxSeccomp with execution error: sandbox
denied exec error, exit code: N, stdout: …, stderr: …`` (openai/codex ``codex-rs/core/src/
error.rs`` ``SandboxErr::Denied``, in rollouts of CLI 0.2x-0.3x): read without it, a failed
``npm test`` was a command that ran fine."""
_EXEC_HEADER = ("Chunk ID: ", "Wall time: ")
_OUTPUT_MARK = "\nOutput:\n"


def _status_text(output: str) -> str:
    """The part of a shell result that states how the command ended. The unified exec tool's
    answer is a header, then ``Output:`` and the command's output: ``Chunk ID: …\nWall time: …
    seconds\nProcess exited with code N`` or ``Process running with session ID N``, ``Original
    token count: …\nOutput:\n…`` (openai/codex ``codex-rs/core/src/tools/handlers/unified_exec.rs``
    ``format_exec_response``; ``response_header`` in 2026 CLIs): the status is in the header alone.
    Searched as a whole, a server still running whose log said ``Exit code: 1`` (a worker's probe
    it retried) had exited 1, was a failed command, and lost the status its poll gave."""
    head = output[:400]
    if head.startswith(_EXEC_HEADER) and (end := head.find(_OUTPUT_MARK)) >= 0:
        return head[:end]
    return head


_MCP_CALL_FAILED = "tool call error: "
"""How an MCP tool call that failed comes back (openai/codex ``codex-rs/core/src/mcp_tool_call.rs``,
``format!("tool call error: {e}")``): a failed call, not a result."""
_MCP_ARGS_FAILED = re.compile(r"err: [^\n]+ at line \d+ column \d+")
"""An MCP tool call whose arguments were no JSON, answered before it ran: ``format!("err: {e}")``
around serde_json's error, ``{msg} at line {l} column {c}`` (openai/codex ``codex-rs/core/src/
mcp_tool_call.rs`` ``handle_mcp_tool_call``, in every release: ``success: Some(false)``, which the
rollout does not keep, and no ``mcp_tool_call_end``), e.g. ``err: EOF while parsing an object at line
1 column 41``: a failed call, read as a result that came back fine. CLIs that write an MCP result
as its content blocks, serialized (``FunctionCallOutputPayload::from(&CallToolResult)``: ``serde_json::
to_string(content)``), write it ``[{"type":"text","text":"err: ..."}]`` (``CallToolResult::
from_error_text``)."""
_MCP_ARGS_HEADS = ("err: ", '[{"type":"text","text":"err: ')


def _mcp_args_failed(output: str) -> str | None:
    """The error of :data:`_MCP_ARGS_FAILED` that ``output`` is, bare or as its one content block."""
    if output[0] == "[":
        try:
            output = block_text(inner_json(output))
        except ValueError:
            return None
    output = output.strip()
    return output if _MCP_ARGS_FAILED.fullmatch(output) is not None else None


_COLLAB_FAILED = ("collab spawn failed: ", "collab tool failed: ", "collab manager unavailable",
                  "Agent depth limit reached. ", "Unknown model `")
"""How the multi-agent ("collab") tools answer a call that did nothing: ``spawn_agent`` that could not
start the sub-agent, ``format!("collab spawn failed: {err}")`` (``agent thread limit reached (max
6)``), ``send_input``/``wait``/``close_agent`` that failed, ``format!("collab tool failed: {err}")``,
either when the manager is gone, ``collab manager unavailable`` (openai/codex ``codex-rs/core/src/
tools/handlers/multi_agents_common.rs`` ``collab_spawn_error``, ``collab_agent_error``; ``collab.rs``
before), a spawn past the depth limit, ``Agent depth limit reached. Solve the task yourself.``, or
naming a model Codex does not have, ``Unknown model `x` for spawn_agent. Available models: …``
(``multi_agents/spawn.rs``). The model's copy keeps no ``success: false``: read as results that came
back fine, a sub-agent never started was a spawn that worked."""
_AGENT_GONE = ("agent with id ", (" not found", " is closed"))
"""``collab_agent_error``'s answer for a sub-agent that does not exist or has ended: ``agent with id
{id} not found``, ``agent with id {id} is closed``: a failed call (:data:`_COLLAB_FAILED`)."""


def _collab_failed(output: str) -> bool:
    if output.startswith(_COLLAB_FAILED):
        return not output.startswith(_COLLAB_FAILED[4]) or " for spawn_agent" in output[:200]
    return output.startswith(_AGENT_GONE[0]) and len(output) < 200 and output.rstrip().endswith(_AGENT_GONE[1])


AGENTS_SDK_TOOL_FAILED = ("An error occurred while running the tool. Please try again. Error: ",
                          "An error occurred while parsing tool arguments. Please try again with valid JSON. Error: ")
"""What the OpenAI Agents SDK hands the model for a function tool that raised, or whose arguments
were no JSON (two objects back to back included: the call never ran): its default
``default_tool_error_function`` (openai/openai-agents-python ``src/agents/tool.py``; the JS SDK's
default ``errorFunction`` says the same). A failed call, read as a result that came back fine."""
_POLL_FAILED = "write_stdin failed: "
"""The unified exec tool's answer to a ``write_stdin`` it could not do: ``format!("write_stdin
failed: {err}")`` (``{err:?}`` in some releases) around ``UnifiedExecError`` (openai/codex
``codex-rs/core/src/tools/handlers/unified_exec.rs``, ``codex-rs/core/src/unified_exec/errors.rs``):
``Unknown process id 7`` (``UnknownProcessId { process_id: "7" }``) for a session that ended or
never was, ``stdin is closed for this session; rerun exec_command with tty=true ...``. The call
failed and nothing was typed or read; as a poll's output it read as more output of the command
polled, and as a typed line's, a command that ran fine."""
_EXEC_FAILED = ("execution error: ", "exec_command failed: ", "failed to parse exec_command arguments: ",
                "failed to parse write_stdin arguments: ", _POLL_FAILED)
"""How a shell call that could not be run comes back, with no exit code: ``format!("execution
error: {err:?}")`` (openai/codex ``codex-rs/core/src/tools/events.rs`` ``ToolEmitter::finish``, any
``ToolError::Codex`` but a sandbox timeout or denial), e.g. ``execution error: Io(Os { code: 2,
kind: NotFound, message: "No such file or directory" })`` for a ``workdir`` that does not exist;
the unified exec tool's ``exec_command failed: {err:?}`` (``CreateProcess { message }``: the process
could not be started; ``SandboxDenied``) and its arguments that did not parse (``codex-rs/core/src/
tools/handlers/unified_exec.rs``). Its ``exec_command_end`` (exit -1, failed), when there is one, is
not kept in rollouts of the default persistence (``codex-rs/core/src/rollout/policy.rs``
``should_persist_event_msg``): the model's copy is all there is, and it read as a command that ran
fine."""
_UNSUPPORTED = ("unsupported call: ", "unsupported custom tool call: ")
"""Codex's answer to a call of a tool it does not have (openai/codex ``codex-rs/core/src/tools/
registry.rs`` ``unsupported_tool_call_message``): nothing ran. A ``container.exec`` or ``shell``
call of a CLI that no longer has that tool was a command that ran fine."""
_PATCH_FAILED = ("apply_patch verification failed: ", "Failed to find expected lines ", "Failed to find context '",
                 "apply_patch handler received ", "invalid patch: ", "invalid hunk at line ",
                 "failed to parse function arguments: ", tool_ends.EMPTY_PATCH_REJECTED)
"""How a patch that did not apply comes back, with no exit code: the tool handler's
``format!("apply_patch verification failed: {parse_error}")`` (openai/codex ``codex-rs/core/src/
tools/handlers/apply_patch.rs``) around the apply-patch crate's ``ComputeReplacements`` errors
``Failed to find expected lines in {path}:`` and ``Failed to find context '{ctx}' in {path}``
(``codex-rs/apply-patch/src/lib.rs``): a failed edit, not a result. The same handler turns away
input that is no patch invocation (``apply_patch handler received invalid patch input``,
``… non-apply_patch input``, ``… unsupported payload``); the parser's own errors, handed on bare,
read ``invalid patch: {0}`` and ``invalid hunk at line {n}, {message}`` (``codex-rs/apply-patch/src/
parser.rs`` ``ParseError``); and every function tool answers JSON arguments that did not parse with
``failed to parse function arguments: {e:?}`` (the call never ran); a patch with no change is
turned away ``patch rejected: empty patch`` (``codex-rs/core/src/safety.rs``). A shell result never starts
so: it starts with ``Exit code:`` or is JSON. CLIs of mid-2025 handed the same errors on as
``format!("error: {parse_error:#}")`` (openai/codex ``codex-rs/core/src/codex.rs``,
``MaybeApplyPatchVerified::CorrectnessError``), the crate then saying ``Failed to find expected lines
{lines:?} in {path}`` (:data:`_OLD_PATCH_FAILED`)."""
_OLD_PATCH_FAILED = "error: "
"""The prefix of a patch error of a mid-2025 CLI (:data:`_PATCH_FAILED`): a failed edit when one
of those errors follows. In a rollout of then (codex-session-viewer's ``docs/example.jsonl``,
AcidicSoil/codex-session-viewer) nine edits that did not apply read as edits that worked."""
_PATCH_COMMANDS = ("apply_patch", "applypatch")
"""The names Codex takes a patch under in a shell command (openai/codex ``codex-rs/apply-patch/
src/lib.rs`` ``APPLY_PATCH_COMMANDS``): ``applypatch <<'PATCH'`` is the same edit."""
_ABORTED = "aborted by user"
"""What Codex hands the model for a call the person interrupted (Esc): ``Wall time: {secs:.1}
seconds\naborted by user`` for the shell tools, ``aborted by user after {secs:.1}s`` for any
other (openai/codex ``codex-rs/core/src/tools/parallel.rs`` ``ToolCallRuntime::abort_message``;
openai/codex issue #35735 quotes the first from a rollout). The command was stopped, which the
analysis counts as an interrupt, not as a failure of the system."""


_TS_ERROR_NOTE = "error-"
"""The id of the TypeScript Codex CLI's own note of a turn that failed for good, a system message
``{id: "error-<ms>", role: "system", content: [{type: input_text, text: "⚠️  Rate limit
reached. ..."}]}`` (also: the request the API rejected, the context length exceeded, a network
error, a connection closed early; openai/codex ``codex-cli/src/utils/agent/agent-loop.ts``), kept
in its rollout: the Rust CLI's ``error`` event, an error of the session with no command (was: a
system note, the failure lost)."""


def _ts_error_note(payload: dict) -> bool:
    item_id = payload.get("id")
    return isinstance(item_id, str) and item_id.startswith(_TS_ERROR_NOTE)


def _aborted_by_user(output: str) -> bool:
    if output.startswith(_ABORTED):
        return True
    return output.startswith("Wall time: ") and "\n" + _ABORTED in output[:60]


_SHELL_TOOLS = frozenset({"exec_command", "shell", "shell_command", "local_shell", "container.exec", "bash"})
"""``shell`` takes an argv, ``shell_command`` and ``exec_command`` a string (openai/codex
``codex-rs/core/src/tools/spec.rs``)."""
CODEX_TOOLS = (_SHELL_TOOLS - {"bash"}) | frozenset({"apply_patch", "update_plan", "write_stdin", "view_image",
                                                    "spawn_agent", "wait_agent", "send_input", "close_agent"})
"""Tool names Codex's own tools have (openai/codex ``codex-rs/core/src/tools/spec.rs``): a bare
Responses item calling one is from a rollout, not from a program's own item list (``bash``, a
name many programs give their own shell tool, says nothing)."""
_UI_DUPLICATES = frozenset({"user_message", "agent_message", "agent_reasoning"})
COMPACTION_BRIDGE = ("Another language model started to solve this problem and produced a summary of its thinking "
                     "process.")
"""How the user message begins that Codex puts its own compaction's summary in, after the context
and the person's earlier messages of the history it rebuilds (openai/codex ``codex-rs/core/templates/
compact/summary_prefix.md``; ``codex-rs/core/src/compact.rs``, ``build_compacted_history``)."""
_COMPACTION_PROMPTS = ("You are performing a CONTEXT CHECKPOINT COMPACTION.",
                       "You have exceeded the maximum number of tokens, please stop coding and instead write a short "
                       "memento message")
"""The user message Codex asks for its compaction's summary with, last in the history it sends
(openai/codex ``codex-rs/core/templates/compact/prompt.md``: the second, of the first automatic
compaction, ea225df2, 2025-09; the first since 611e00c8, 2025-10, "compactor 2")."""
_CODEX_WARNINGS = ("Warning: apply_patch was requested via ",
                   "Warning: The maximum number of unified exec processes you can keep open is",
                   "Warning: Your account was flagged for potentially high-risk cyber activity")
"""Warnings Codex writes to the model as user messages of their own (``Session::record_model_warning``:
``format!("Warning: {message}")``): an edit made with ``apply_patch`` through the shell tool (``apply_patch
was requested via exec_command. Use the apply_patch tool instead of exec_command.``, openai/codex
``codex-rs/core/src/tools/handlers/apply_patch.rs`` ``intercept_apply_patch``), too many unified exec
processes open, a request routed to a fallback model; Codex's own reading of its history skips them
(``codex-rs/core/src/context/contextual_user_message.rs``: ``LegacyApplyPatchExecCommandWarning``,
``LegacyUnifiedExecProcessLimitWarning``, ``LegacyModelMismatchWarning``). Read as prompts, each edit
made with ``apply_patch <<'EOF'`` was a message the person sent."""
_INJECTED = ("<environment_context>", "<user_instructions>", "# AGENTS.md instructions for ", "<INSTRUCTIONS>",
             "<recommended_plugins>", "<turn_aborted>", "<skill>", "<subagent_notification>", "<hook_prompt",
             "<codex_internal_context", COMPACTION_BRIDGE, *_COMPACTION_PROMPTS, "<user_action>", "<goal_context>",
             "<extension_context>", "<agent_message_board_notification>", *_CODEX_WARNINGS)
"""How the parts Codex writes into user messages begin (not typed by the person; several
independent rollout readers filter the same markers; openai/codex ``codex-rs/core/src/context/``
writes ``<turn_aborted>`` after an interrupt and ``<user_shell_command>``, below; its own
compaction asks for a summary and hands it on in user messages: a proxy's record of its requests
holds them, read as prompts of the person's). ``/review`` hands its findings on as ``<user_action>
<context>User initiated a review task. ...</context><action>review</action><results>…``
(``codex-rs/core/templates/review/exit_success.xml``, ``exit_interrupted.xml``,
``history_message_completed.md``); goals and extensions steer the model in ``<goal_context>`` and
``<extension_context>`` (``codex-rs/core/src/context/contextual_user_message.rs``
``CONTEXTUAL_USER_FRAGMENTS``: ``LegacyGoalContext``, ``ExtensionContext``); a post on the agent
message board is told in ``<agent_message_board_notification>\nNew post {id} in discussion {id}. Use
collaboration.read_post ...`` (``agent_message_board_notification.rs``, a user-role fragment)."""
_EXTERNAL = "<external_"
"""Context a hook or an app adds to a turn, one user-message part per key: ``<external_{key}>{value}
</external_{key}>`` (openai/codex ``codex-rs/core/src/context/fragments.rs`` ``AdditionalContextFragment``,
a user-role fragment): Codex's, when the part closes its own tag (:func:`_external_end`)."""


def _external_end(head: str) -> str | None:
    """The closing tag of the :data:`_EXTERNAL` part ``head`` (the text from its ``<external_``), when
    the tag names a key and the part ends with that key's closing tag, as Codex's matcher reads one."""
    key_end = head.find(">", len(_EXTERNAL))
    if key_end <= len(_EXTERNAL) or "\n" in head[:key_end]:
        return None
    end = f"</external_{head[len(_EXTERNAL):key_end]}>"
    return end if head.rstrip().endswith(end) else None


_ENV_CWD = re.compile(r"<cwd>\s*((?:/|[A-Za-z]:[\\/]|\\\\)[^<\n]*?)\s*</cwd>")
"""The working folder in Codex's ``<environment_context>`` message (openai/codex codex-rs/core
environment_context.rs serialises ``cwd`` as ``<cwd>…</cwd>``); absolute paths only, a Windows
one (``C:\\Users\\dev\\sglang``, a UNC share) too: the native Windows CLI's."""
_USER_SHELL = re.compile(r"^\s*<user_shell_command>\s*<command>\n?(.*?)\n?</command>\s*<result>\n?(.*?)\n?</result>",
                         re.DOTALL)
"""A command the person ran themselves with ``!`` in the TUI, handed to the model as a user
message (openai/codex ``codex-rs/core/src/context/user_shell_command.rs``): ``<user_shell_command>
<command>CMD</command><result>Exit code: N\nDuration: S seconds\nOutput:\nOUT</result>
</user_shell_command>``; a run that did not end by itself says ``Exit code: none (...)``."""
_SHELL_RESULT = re.compile(r"^Exit code: (-?\d+|none[^\n]*)\n(?:Duration: [^\n]*\n)?"
                           r"(?:(?:Warning: truncated output [^\n]*\n)?Output:\n)?", re.DOTALL)
"""The header of a ``!`` command's result: a long output adds ``{warning}\n`` before ``Output:``
(openai/codex ``codex-rs/core/src/context/user_shell_command.rs`` ``body``, ``original_token_count``
mapped through ``truncation_warning``: ``Warning: truncated output (original token count: N)``,
``codex-rs/utils/output-truncation``); read without it, the warning and the label were output."""
_MEDIA_TAG = re.compile(r'<(image|audio) name=(\[(?:Image|Audio) #\d+\])(?: path=".*")?>\s*'
                        r'|<(/?)(image|audio)>\s*', re.DOTALL)
"""The text parts around a pasted image or recording in the user message the model is handed:
``<image name=[Image #1] path="/tmp/shot.png">``, the ``input_image``, ``</image>`` (``<audio
name=[Audio #1] ...>`` for audio; openai/codex ``codex-rs/protocol/src/models.rs``
``local_image_content_items``). Read as typed words, the prompt was ``<image name=...>\n</image>``
and its report was that tag; the label alone is what the TUI shows. A tag is one only next to its
image or recording (an open tag before it, a close tag after it), as Codex's own reading of a user
message skips them (``event_mapping.rs`` ``parse_user_message``): ``<image>`` typed alone is words."""
_IDE_REQUEST = "## My request for Codex:"
_IDE_CONTEXT = ("# Context from my IDE setup:", "# Files mentioned by the user:")
"""The IDE extension and the desktop app put the editor's state (active file, selection, open
tabs) or the attached files before the request, which follows ``## My request for Codex:``
(openai/codex ``codex-rs/tui/src/ide_context/prompt.rs``; many rollout readers split there)."""
_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+)$", re.MULTILINE)
"""``apply_patch`` input names its files on these lines (openai/codex ``codex-rs/apply-patch``)."""


def looks_like(obj: dict) -> bool:
    line_type = obj.get("type")
    return (isinstance(line_type, str) and line_type in ROLLOUT_TYPES and "payload" in obj) or looks_like_legacy(obj)


def looks_like_legacy(obj: dict) -> bool:
    """A line of a rollout from before the ``{timestamp, type, payload}`` envelope."""
    if obj.get("record_type") == "state":
        return True
    line_type = obj.get("type")
    if "payload" not in obj and isinstance(line_type, str) and line_type in RESPONSE_ITEM_TYPES:
        return True
    # The header: {id, timestamp} and often instructions and git; never a type or a role.
    return isinstance(obj.get("id"), str) and isinstance(obj.get("timestamp"), str) and not (
        "type" in obj or "role" in obj or "messages" in obj or "payload" in obj)


SPAWN_TOOLS = frozenset({"spawn_agent"})
"""The multi-agent ("collab") tool that starts a sub-agent thread; its output is
``{"agent_id": <thread id>}`` and the UI copy is ``event_msg`` ``collab_agent_spawn_end``
``{call_id, sender_thread_id, new_thread_id}`` (openai/codex ``codex-rs/core/src/tools/handlers/
multi_agents*``; the same items in several independent rollout readers' fixtures)."""


def read(path: Path, cursor: Cursor, stats: ReadStats, skip: tuple[int, int] | None = None) -> Iterator[Event]:
    """``skip``: record indices not to turn into events (``codex_threads.replayed_span``); they keep
    their place in the seq numbering."""
    results_seen: OrderedDict[str, None] = OrderedDict()
    processes = _Processes()
    last_error = ""  # what the last error event said: a turn's end may repeat it
    viewed = False  # a view_image call's output was read: the image it attached follows (_VIEWED)
    folder: str | None = None  # the session's, then the turn's working folder (session_meta, turn_context cwd)
    for index, lineno, obj in iter_json_records(path, stats):
        cursor.records = index + 1
        if skip is not None and skip[0] <= index < skip[1]:
            continue
        seq = cursor.seq_base + index
        ts = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None
        payload = obj.get("payload")
        if not isinstance(payload, dict):
            payload = {}
        line_type = obj.get("type")
        if not isinstance(line_type, str):
            line_type = None
        if "payload" not in obj:
            line_type, payload = _legacy(obj, line_type)
        if line_type == "state":
            continue  # a {"record_type": "state"} marker: bookkeeping, nothing to show
        ptype = payload.get("type")
        if not isinstance(ptype, str):
            ptype = None

        def event(kind, role, block=0, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                         block=block, timestamp=ts, file=cursor.file, line=lineno, **kw)

        if line_type == "response_item":
            if ptype == "message" and viewed and payload.get("role") == "user" and _media_only(payload.get("content")):
                yield event("system", "user", raw_type="view_image", text=attachments_shown(payload["content"]))
                continue
            if ptype in ("message", "function_call", "custom_tool_call", "local_shell_call"):
                viewed = False
            elif ptype == "function_call_output":
                viewed = viewed or _VIEWED in (payload.get("output"), _content(payload.get("output")))
            # Bare items (no envelope: an old rollout, or Responses API items saved by a program
            # of one's own) take any tool whose arguments hold a command as a shell.
            for ev in _response_item(payload, ptype, event, results_seen, processes, any_shell="payload" not in obj):
                # not an ssh tool's call; nor a line typed into a terminal (write_stdin), whose shell
                # may have moved since it opened (`cd sglang` typed, then `git log`)
                if ev.command is not None and ev.kind == "tool_call" and ev.host is None and ev.tool_name != _POLL_TOOL:
                    ev.cwd = _in_folder(ev.cwd, folder)
                elif ev.kind == "system" and ev.role == "user" and "<cwd>" in ev.text \
                        and (said := _ENV_CWD.search(ev.text)) is not None:
                    # <environment_context><cwd>/srv/app</cwd>…: the only folder a rollout of mid
                    # 2025 names (no session_meta, no turn_context), and a turn's new one after
                    folder = said.group(1)
                if ev.raw_type == f"response_item:{ptype}" and ptype not in _QUIET_ITEMS:
                    stats.unknown_types += 1  # kept, but an item newer than this reader may hold a call
                yield ev
        elif line_type == "event_msg":
            if ptype in _TURN_ENDS or ptype == "turn_aborted":
                viewed = False  # the turn ended before its next request: no image of view_image follows
            if ptype == "exec_command_end":
                call_id = _call_id(payload)
                if call_id in results_seen:
                    continue  # the function_call_output came first
                if isinstance(payload.get("source"), str) and call_id not in processes.calls:
                    # No call of this file started it: a command the person ran with ! (source
                    # "user_shell"; persisted in the extended mode, openai/codex codex-rs/core/src/
                    # rollout/policy.rs should_persist_exec_command_end), whose call and result
                    # are read from the <user_shell_command> message the model is handed, or one
                    # a code-mode cell ran, read from the cell. As a result of its own it was a
                    # second failed call, and each error of its output was counted twice.
                    if processes.cells and (ran := shell_command(payload)) is not None:
                        processes.cell_command_end(ran, payload.get("exit_code") if type(payload.get("exit_code")) is int
                                                   else None)
                    yield event("system", "system", raw_type=f"event_msg:{ptype}")
                    continue
                _remember(results_seen, call_id)
                output = payload.get("aggregated_output") or "\n".join(
                    s for s in (payload.get("stdout"), payload.get("stderr")) if isinstance(s, str))
                if processes.shown and isinstance(output, str):
                    output = processes.unseen(call_id, output)  # the rest of what it showed running
                code = payload.get("exit_code") if isinstance(payload.get("exit_code"), int) else None
                if code == _SIGINT_EXIT and processes.ended_by_key(call_id):
                    code = None  # the model's Ctrl-C ended it (see _Processes.stopped_by_key)
                result = event("tool_result", "tool", call_id=call_id, text=str(output),
                               exit_code=code, is_error=bool(code))
                status = payload.get("status")
                if (isinstance(status, str) and status.lower() == tool_ends.DECLINED) \
                        or (code == -1 and tool_ends.refused(result.text)):
                    result = tool_ends.not_run(result)  # refused at the approval prompt: never ran
                yield result
            elif ptype in _UI_DUPLICATES or ptype == "token_count":
                yield event("other", "system", raw_type=f"event_msg:{ptype}")
            elif ptype in tool_ends.END_EVENTS or ptype == "item_completed":
                item = payload.get("item")
                end = tool_ends.from_event(ptype, payload) if ptype != "item_completed" \
                    else tool_ends.from_item(item) if isinstance(item, dict) else None
                if end is not None and end.call_id not in processes.calls and processes.cells \
                        and isinstance(item, dict) and (ran := shell_command(item)) is not None:
                    processes.cell_command_end(ran, end.exit_code)  # a command a code-mode cell ran
                elif end is not None and end.is_error and not end.declined and processes.cells \
                        and end.call_id.startswith(_NESTED_CALL) and end.call_id not in processes.calls \
                        and not tool_ends.refused(end.text):
                    processes.cell_failed(_nested_failure(ptype, end, item), item)  # a cell's patch or MCP call
                if end is not None and end.call_id in processes.calls and end.call_id not in results_seen:
                    # The call's end as the UI saw it, the only copy that says an MCP tool failed
                    # (codex_tool_ends); the function_call_output after it is then dropped. An end
                    # without its call in the file (a command a code-mode cell ran, read from the
                    # cell) stays a system line, so that no call is counted twice.
                    _remember(results_seen, end.call_id)
                    result = event("tool_result", "tool", call_id=end.call_id, text=end.text,
                                   exit_code=end.exit_code, is_error=end.is_error)
                    # (an MCP call declined at its prompt ends {"Err": "user rejected MCP tool call"}: no status)
                    yield tool_ends.not_run(result) if end.declined or (end.is_error and tool_ends.refused(end.text)) \
                        else result
                else:
                    yield event("system", "system", raw_type=f"event_msg:{ptype}")
            elif ptype == "turn_aborted":
                # {"type": "turn_aborted", "reason": "interrupted" | "replaced" | ...}: the person
                # stopped the turn (openai/codex codex-rs/protocol/src/protocol.rs TurnAbortedEvent).
                reason = payload.get("reason") if isinstance(payload.get("reason"), str) else "unknown"
                yield event("system", "system", raw_type=f"event_msg:{ptype}", text=f"turn aborted: {reason}")
            elif ptype == "collab_agent_spawn_end" and isinstance(payload.get("new_thread_id"), str):
                yield event("other", "system", raw_type=f"event_msg:{ptype}", call_id=_call_id(payload),
                            agent_ref=payload["new_thread_id"])
            elif ptype in _TURN_ENDS and isinstance(payload.get("error"), dict):
                yield from _turn_failed(payload["error"], last_error, event)
            else:
                said = str(payload.get("message", "")) if isinstance(payload.get("message"), str) else ""
                if ptype == "error":
                    last_error = said
                yield event("system", "system", raw_type=f"event_msg:{ptype}", text=said)
        elif line_type == "session_meta":
            if folder is None and isinstance(payload.get("cwd"), str):
                folder = payload["cwd"]
            yield event("system", "system", raw_type="session_meta",
                        text=f"cwd={payload.get('cwd')} cli_version={payload.get('cli_version')}")
        elif line_type == "legacy_header":
            if folder is None and isinstance(payload.get("cwd"), str) and payload["cwd"]:
                folder = payload["cwd"]  # {id, timestamp, instructions, cwd?, git?}: the session's folder
            yield event("system", "system", raw_type="session_meta", text=f"id={payload.get('id')}")
        elif line_type == "turn_context":
            if isinstance(payload.get("cwd"), str):
                folder = payload["cwd"]  # the turn's folder: its commands run there unless they name one
            yield event("system", "system", raw_type="turn_context", text=f"model={payload.get('model')}")
        elif line_type == "compacted":
            yield event("compaction", "system", raw_type="compacted", text=str(payload.get("message", "")))
        elif line_type == "inter_agent_communication":
            # {author: "/root/researcher", recipient: "/root", content, trigger_turn}: a sub-agent's
            # report to its parent, or a task handed down (openai/codex codex-rs/protocol
            # protocol.rs InterAgentCommunication); the content may be encrypted instead.
            author = payload.get("author") if isinstance(payload.get("author"), str) else "?"
            content = payload.get("content") if isinstance(payload.get("content"), str) else ""
            yield event("system", "system", raw_type=line_type, text=f"message from {author}: {content}")
        elif line_type in _QUIET_LINES:
            yield event("other", "system", raw_type=line_type)
        else:
            stats.unknown_types += 1
            yield event("other", "system", raw_type=str(line_type))


def _workdir(args) -> str | None:
    """The folder a shell call names for itself: ``workdir`` of the ``shell`` and ``exec_command``
    tools, ``working_directory`` of a ``local_shell_call`` action (openai/codex codex-rs/protocol
    models.rs ShellToolCallParams, LocalShellExecAction; core unified_exec ExecCommandArgs)."""
    if not isinstance(args, dict):
        return None
    folder = args.get("workdir", args.get("working_directory"))
    return folder if isinstance(folder, str) and folder else None


def _in_folder(workdir: str | None, folder: str | None) -> str | None:
    """Where a call ran: its own ``workdir``, read from the turn's folder when relative (Codex
    resolves it so: codex-rs/core TurnContext::resolve_path, cwd.join), else the turn's folder.
    On Windows (the native CLI: a turn's ``cwd`` ``C:\\Users\\dev\\sglang``) a ``workdir`` with a drive
    or a UNC share is absolute, a relative one joins with ``\\`` (Rust's ``Path::is_absolute``, ``join``
    there); read as POSIX paths, ``C:\\repo\\python`` ran in ``C:\\repo/C:\\repo\\python``."""
    if workdir is None:
        return folder
    if workdir.startswith("/") or folder is None or _WINDOWS_ABSOLUTE.match(workdir):
        return workdir
    if _WINDOWS_ABSOLUTE.match(folder):
        return ntpath.normpath(ntpath.join(folder, workdir))
    return posixpath.normpath(posixpath.join(folder, workdir))


_WINDOWS_ABSOLUTE = re.compile(r"[A-Za-z]:[\\/]|\\\\")
"""A Windows path that is absolute: a drive and its root (``C:\\``, ``C:/``), or a UNC share (``\\\\server``)."""


_TURN_ENDS = frozenset({"task_complete", "turn_complete"})
"""A turn's end (``turn_complete`` the newer name, ``task_complete`` its serde alias). In 2026 CLIs it
carries the turn's failure, ``error{message, codex_error_info}`` (an API's 404 or 402, the
provider's refusal): rollouts of the paginated history mode keep no ``error`` event, so this is the
only trace of it (openai/codex ``codex-rs/protocol`` ``TurnCompleteEvent``; real ``codex exec``
0.149 rollouts quoted in a 2026 research note of an audit tool's Codex adapter)."""


def _turn_failed(error: dict, said_before: str, event) -> Iterator[Event]:
    """A failed turn's end: an error of the session, unless the error event before it said it."""
    message = error.get("message") if isinstance(error.get("message"), str) else ""
    if message and message == said_before:
        yield event("system", "system", raw_type="event_msg:turn_complete", text=message)
        return
    kind = error.get("codex_error_info")
    yield event("system", "system", raw_type="error",  # the analysis's agent_error
                text=message or f"the turn failed ({kind if isinstance(kind, str) else 'no message'})")


_VIEWED = "attached local image path"
"""What Codex's ``view_image`` tool answers before the image it attached comes, as a user message
of that image alone, at the model's next request (openai/codex ``codex-rs/core/src/tools/handlers/
view_image.rs``: ``inject_input``/``inject_response_items``; newer CLIs put the image in the output
itself). Read as a user message, the model's own look at a file was a prompt the person sent."""


def _content(output) -> object:
    """An output written as ``{"content": ..., "success": ...}`` (FunctionCallOutputPayload): its content."""
    return output.get("content") if isinstance(output, dict) else None


def _media_only(content) -> bool:
    """A user message of images or recordings and the tags around them, no words."""
    if not isinstance(content, list) or not content:
        return False
    for i, part in enumerate(content):
        if not isinstance(part, dict):
            return False
        if part.get("type") in ("input_image", "input_audio"):
            continue
        text = block_text([part])
        if text.strip() and _media_tag(content, i, text.lstrip()) is None:
            return False
    return any(part.get("type") in ("input_image", "input_audio") for part in content)


def _media_tag(parts: list, i: int, head: str) -> re.Match | None:
    """Part ``i`` (``head``) as the tag Codex put around the image or recording next to it: an open
    tag just before an ``input_image`` (``input_audio``), a close tag just after one; else None."""
    tag = _MEDIA_TAG.fullmatch(head)
    if tag is None:
        return None
    j = i - 1 if tag.group(3) == "/" else i + 1
    neighbour = parts[j] if 0 <= j < len(parts) else None
    kind = tag.group(1) or tag.group(4)
    return tag if isinstance(neighbour, dict) and neighbour.get("type") == f"input_{kind}" else None


def injects(parts: list) -> bool:
    """A user message's parts hold one Codex wrote in (:data:`_INJECTED`: its environment, AGENTS.md;
    or a command the person ran with ``!``, :data:`_USER_SHELL`)."""
    for part in parts:
        head = block_text([part]).lstrip()
        if _injected(head) or (head.startswith("<user_shell_command>") and _USER_SHELL.match(head)) \
                or (head.startswith(_EXTERNAL) and _external_end(head) is not None):
            return True
    return False


_INJECTED_ENDS = (("<environment_context>", "</environment_context>"), ("<user_instructions>", "</user_instructions>"),
                  ("# AGENTS.md instructions for ", "</INSTRUCTIONS>"), ("<INSTRUCTIONS>", "</INSTRUCTIONS>"),
                  ("<recommended_plugins>", "</recommended_plugins>"), ("<turn_aborted>", "</turn_aborted>"),
                  ("<skill>", "</skill>"), ("<subagent_notification>", "</subagent_notification>"),
                  ("<hook_prompt", "</hook_prompt>"), ("<codex_internal_context", "</codex_internal_context>"),
                  ("<user_shell_command>", "</user_shell_command>"), ("<user_action>", "</user_action>"),
                  ("<goal_context>", "</goal_context>"), ("<extension_context>", "</extension_context>"),
                  ("<agent_message_board_notification>", "</agent_message_board_notification>"))
"""How each part Codex writes in (:data:`_INJECTED`, a ``!`` command's) ends: its closing tag."""
_FOLDED_ENDS = tuple((start.lower(), end.lower()) for start, end in _INJECTED_ENDS if start != "<user_shell_command>")


def _injected(head: str) -> bool:
    """``head`` (a user-message part, leading blanks off) begins as a part Codex writes in does
    (:data:`_INJECTED`). Codex's own reader of its history takes the markers in any case, start and
    end (openai/codex ``codex-rs/core/src/context/`` ``ContextualUserFragmentMarkers::matches_text``:
    ``eq_ignore_ascii_case`` on both): ``<Environment_Context>…</Environment_Context>`` is its
    context too. A marker in another case is one only with its closing tag at the part's end."""
    if head.startswith(_INJECTED):
        return True
    if head[:1] not in "<#":
        return False
    folded = head[:40].lower()
    for start, end in _FOLDED_ENDS:
        if folded.startswith(start):
            return head.rstrip()[-len(end):].lower() == end
    return False


def _joined_external_end(head: str) -> str | None:
    """The closing tag of an :data:`_EXTERNAL` part at the start of joined text (what follows it is
    the next part)."""
    key_end = head.find(">", len(_EXTERNAL))
    if key_end <= len(_EXTERNAL) or "\n" in head[:key_end]:
        return None
    end = f"</external_{head[len(_EXTERNAL):key_end]}>"
    return end if end in head else None


def joined_parts(text: str) -> list[str]:
    """A user message's parts from their text joined without a separator, as Codex sends a message
    on the Chat Completions wire (openai/codex ``codex-rs/codex-api/src/requests/chat.rs``: each
    part's text pushed onto one string): each part Codex wrote in, up to its closing tag, then the
    typed rest. A part without its closing tag keeps the rest of the text."""
    parts: list[str] = []
    rest = text
    while (head := rest.lstrip()) and (end := next((e for s, e in _INJECTED_ENDS if head.startswith(s)), None)
                                       or (_joined_external_end(head) if head.startswith(_EXTERNAL) else None)):
        at = rest.find(end)
        if at < 0:
            break
        at += len(end)
        parts.append(rest[:at])
        rest = rest[at:]
    if rest.strip() or not parts:
        parts.append(rest)
    return parts


def _user_message(parts: list, event) -> Iterator[Event]:
    """A user message's parts: what Codex injects (its environment, AGENTS.md, plugin lists, the
    IDE's state) is ``system``; a command the person ran with ``!`` is a call and its result;
    the rest, often in the same message, is the prompt."""
    injected, typed, shells, labels = [], [], [], []
    for i, part in enumerate(parts):
        text = block_text([part])
        if not text.strip():
            continue
        head = text.lstrip()
        if head.startswith("<user_shell_command>") and (shell := _USER_SHELL.match(text)):
            shells.append(shell)
        elif head.startswith(("<image", "</image>", "<audio", "</audio>")) and (tag := _media_tag(parts, i, head)):
            if tag.group(2):
                labels.append(len(typed))
                typed.append(tag.group(2))  # the pasted image's label, as the TUI shows it
        elif _injected(head) or (head.startswith(_EXTERNAL) and _external_end(head) is not None):
            injected.append(text)
        elif head.startswith(_IDE_CONTEXT) and _IDE_REQUEST in text:
            context, _, request = text.partition(_IDE_REQUEST)
            injected.append(context.rstrip())
            typed.append(request.strip())
        else:
            typed.append(text)
    if labels:
        # The TUI sends a pasted image's placeholder in the words too ('[Image #1] why is this flat?',
        # the text alone '[Image #1]'): a label said there is not said again
        words = "\n".join(t for n, t in enumerate(typed) if n not in labels)
        typed = [t for n, t in enumerate(typed) if n not in labels or t not in words]
    block = 0
    if injected:
        # a sub-agent's end Codex tells its parent (MultiAgentV2 writes no wait for it)
        states = tuple(s for text in injected for s in agent_states.notification_states(text)) or None
        yield event("system", "user", text="\n".join(injected), agent_states=states)
        block += 1
    for shell in shells:
        command = shell.group(1).strip()
        result = _SHELL_RESULT.match(shell.group(2))
        code = int(result.group(1)) if result and result.group(1)[0] != "n" else None
        call = event("tool_call", "user", block, tool_name="shell", command=command, text=command,
                     description="run with ! by the user")
        call.call_id = f"user-shell-{call.seq}-{block}"
        yield call
        yield event("tool_result", "tool", block + 1, call_id=call.call_id, exit_code=code, is_error=bool(code),
                    text=shell.group(2)[result.end():] if result else shell.group(2))
        block += 2
    if not typed and (shown := attachments_shown(parts, numbered=True)):
        typed = [shown]  # pasted images alone: the TUI's [Image #1] placeholders
    if typed or not (injected or shells):
        yield event("prompt", "user", block, text="\n".join(typed))


def _legacy(obj: dict, line_type) -> tuple[str | None, dict]:
    """``(line_type, payload)`` of a line without the envelope (see the module doc)."""
    if obj.get("record_type") == "state":
        return "state", obj
    if line_type == "message" or line_type in RESPONSE_ITEM_TYPES:
        return "response_item", obj
    if line_type is None and isinstance(obj.get("role"), str) and "content" in obj:
        # a Responses API input message written without its type, as the OpenAI Agents SDK
        # keeps items ({"role": "user", "content": "..."}; see ResponseItems)
        return "response_item", {**obj, "type": "message"}
    if line_type is None and "id" in obj and "timestamp" in obj:
        return "legacy_header", obj
    return line_type, {}


@dataclass(slots=True)
class _Processes:
    """Commands that outlive their first output. Codex's ``exec_command`` returns after
    ``yield_time_ms`` with "Process running with session ID N" while the command runs on; the
    model polls it with ``write_stdin{session_id: N}`` until a poll says "Process exited with
    code N" (openai/codex ``codex-rs/core/src/unified_exec/``; the same outputs in published
    rollouts). That exit is the command's: its result goes under the command's call id, and the
    first output under ``<call id>#running`` (a partial result that must not close the call)."""

    calls: OrderedDict[str, None] = field(default_factory=OrderedDict)
    """Call ids of the tool calls read so far (any tool)."""
    shell_calls: OrderedDict[str, str] = field(default_factory=OrderedDict)
    """Call id of a shell command -> the command."""
    polls: OrderedDict[str, str] = field(default_factory=OrderedDict)
    """write_stdin call id -> the session id it polls."""
    running: dict[str, str] = field(default_factory=dict)
    """session id -> call id of the command that started it."""
    keyed_stops: OrderedDict[str, str] = field(default_factory=OrderedDict)
    """write_stdin call that sent Ctrl-C (``chars: "\\u0003"``) -> the session id it sent it to."""
    typed_calls: OrderedDict[str, bool] = field(default_factory=OrderedDict)
    """write_stdin calls that typed a command into a shell (:meth:`typed`)."""
    shells: dict[str, list[str | None]] = field(default_factory=dict)
    """session id of a running interactive shell (``ssh gpu01`` with no command, ``bash``) -> the
    hosts of the shells opened in it, innermost last: what ``write_stdin{chars}`` types there is a
    command run on the last one."""
    shown: OrderedDict[str, list | None] = field(default_factory=OrderedDict)
    """Call id of a command still running -> ``[length, body, ...]``: what its running outputs showed
    so far (the first one's and each poll's, bodies after ``Output:``), in order; None past
    :data:`_SHOWN_MAX` (:meth:`saw`, :meth:`unseen`)."""
    typed_in: dict[str, str] = field(default_factory=dict)
    """session id of a running interactive shell -> the call that typed the last command there: what
    a later poll of the shell shows (no chars) is that command's output, not the shell opener's."""

    local_items: OrderedDict[str, str] = field(default_factory=OrderedDict)
    """A ``local_shell_call``'s item id -> its call id."""
    search: str | None = None
    """Call id of the last ``tool_search_call``: a server-run search's output names no call."""
    cells: OrderedDict[str, tuple[list[str], list[int | None], list[str], list[str]]] = \
        field(default_factory=OrderedDict)
    """Call id of a code-mode cell whose result is not read yet -> (the literal commands it runs,
    the exit codes of those its ``item_completed`` ``CommandExecution`` ends reported, what its
    patches and MCP calls that failed said, the files its literal patches touch and the MCP tools
    it calls). Those ends name the nested call's own id, never the cell's call (see
    :meth:`cell_command_end`, :meth:`cell_failed`)."""

    def cell_command_end(self, command: str, code: int | None) -> None:
        """A command a code-mode cell ran ended with ``code`` (codex-cli 0.153.4 writes an
        ``item_completed{item: CommandExecution{id: "exec-<uuid>", command: [shell, "-lc", cmd],
        exit_code}}`` between the cell's call and its output, as in a real rollout,
        hariharasudhan-quest/ai-analyzer-codex-code codex_session.jsonl). A cell that prints only
        ``r.output`` prints no status: this end is the only record of it. It is the latest open
        cell's whose literals hold the command."""
        for commands, codes, _, _ in reversed(self.cells.values()):
            if command in commands:
                codes.append(code)
                return

    def cell_failed(self, said: str, item) -> None:
        """A patch or MCP call of an open code-mode cell failed, saying ``said``
        (:func:`_nested_failure`): of the latest open cell whose literals name what failed (the
        patched file ``said`` names, the MCP tool of the ``McpToolCall`` ``item``), else of the
        latest open cell. A cell left running in the background (``Script running with cell ID
        N``) stays open while the model runs others: its patch that failed is its own, not the
        newest cell's."""
        tool = f"mcp__{item.get('server')}__{item.get('tool')}" if isinstance(item, dict) \
            and isinstance(item.get("server"), str) and isinstance(item.get("tool"), str) else None
        owner = next((cell for cell in reversed(self.cells.values())
                      if (tool is not None and tool in cell[3])
                      or (tool is None and any(path in said for path in cell[3] if not path.startswith("mcp__")))),
                     None) or next(reversed(self.cells.values()))
        failures = owner[2]
        if len(failures) < 8:
            failures.append(said)

    def local_shell_id(self, payload: dict) -> str | None:
        """A ``local_shell_call``'s call id: its ``call_id``, else its item ``id``, which Codex
        then answers under (openai/codex ``codex-rs/core`` takes ``call_id`` or ``id`` for a
        ``LocalShellCall``; rollouts hold ``"call_id": null``). An output naming the item ``id``
        (``local_shell_call_output{id}``, as the API's own shape and proxies write it) is the call's."""
        call_id, item_id = _call_id(payload), payload.get("id")
        if not isinstance(item_id, str):
            return call_id
        if call_id is not None and call_id != item_id:
            _bounded(self.local_items, item_id, call_id)
        return call_id or item_id

    def call(self, name: str, call_id: str | None, command: str | None, args) -> None:
        if call_id is None:
            return
        _bounded(self.calls, call_id, None)
        if name == _POLL_TOOL and (session := _session_id(args)) is not None:
            _bounded(self.polls, call_id, session)  # a command typed in it too
            if isinstance(args.get("chars"), str) and "\x03" in args["chars"]:
                _bounded(self.keyed_stops, call_id, session)
            if command is not None:
                _bounded(self.typed_calls, call_id, True)  # its output is its own
                if session in self.shells:
                    self.typed_in[session] = call_id
            elif args.get("chars") and session in self.typed_in:
                # a key (Ctrl-C), `exit`: the command typed last is over; the shell prints next
                del self.typed_in[session]
        elif command is not None:
            _bounded(self.shell_calls, call_id, command)
        elif name == code_mode.WAIT_TOOL and isinstance(args, dict) and isinstance(args.get("cell_id"), (int, str)):
            _bounded(self.polls, call_id, f"cell:{args['cell_id']}")

    def cell_result(self, call_id: str | None, running_cell: str | None, results_seen) -> tuple[str | None, bool]:
        """A code-mode cell's output: ``Script running with cell ID N`` is a partial result of
        the cell's call; the ``wait{cell_id: N}`` poll that ends it gives the cell's own result."""
        if call_id is None:
            return call_id, False
        polled = self.polls.get(call_id)
        if running_cell is not None:
            owner = self.running.get(f"cell:{running_cell}") if polled else None
            if owner is None:
                owner = self.running[f"cell:{running_cell}"] = call_id
            self.polls.pop(call_id, None)
            return f"{owner}#running", True
        if polled is not None:
            self.polls.pop(call_id, None)
            owner = self.running.pop(polled, None)
            if owner is not None and owner not in results_seen:
                return owner, False
        return call_id, False

    def result(self, call_id: str | None, output: str, code, results_seen) -> tuple[str | None, bool]:
        """``(call id to report the result under, still running)``."""
        if call_id is None:
            return call_id, False
        if call_id in self.shell_calls and code is None:
            running = _RUNNING.search(output[:400])
            if running:
                self.running[running.group(1)] = call_id
                target = shell.parse_target(self.shell_calls[call_id])
                if unattended.interactive(target.inner, host=target.host, container=target.container) \
                        in _OPENS_SHELL and len(self.shells) < 64:
                    self.shells[running.group(1)] = [target.host]
                self.saw(call_id, output)
                return f"{call_id}#running", True
        session = self.polls.pop(call_id, None)
        typed = self.typed_calls.pop(call_id, False)
        if session is not None and code is None and (started := self.running.get(session)) is not None:
            # what a poll or a line typed there showed is the next part of the session's output
            self.saw(started, output)
        if session is not None and code is None and not typed and (owner := self.running.get(session)) is not None \
                and owner not in results_seen:
            # a poll of a command still running: more of that command's output (its host's), not
            # the output of a call of its own; in a shell, of the command typed there last (the
            # benchmark typed at gpu01's prompt, not the `ssh gpu01` that opened the prompt)
            return f"{self.typed_in.get(session, owner)}#running", True
        if session is not None and isinstance(code, int):
            self.shells.pop(session, None)
            self.typed_in.pop(session, None)
            owner = self.running.pop(session, None)
            if owner is not None and owner not in results_seen:
                return owner, False
            if owner is not None:
                # The command's exec_command_end came first (newest CLIs write it always, see
                # ECHO): this poll's "Process exited with code N" repeats the end of a command
                # already ended, not a second failure.
                return ECHO, False
        return call_id, False

    def saw(self, call_id: str, output: str) -> None:
        """``output`` (a chunk Codex returned while the command of ``call_id`` ran) showed its body."""
        body = output.partition("\nOutput:\n")[2] if "\nOutput:\n" in output[:400] else output
        shown = self.shown.get(call_id)
        if shown is None:
            if call_id not in self.shown:
                _bounded(self.shown, call_id, [len(body), body])
        elif shown[0] + len(body) <= _SHOWN_MAX:
            shown[0] += len(body)
            shown.append(body)
        else:
            self.shown[call_id] = None  # too long to follow: its end is read whole

    def unseen(self, call_id: str | None, output: str) -> str:
        """What the ``exec_command_end`` of ``call_id`` says the running outputs did not show yet:
        its ``aggregated_output`` is the command's whole output (openai/codex ``codex-rs/core/src/
        unified_exec/``: the end carries what the process wrote from its start), of which each chunk
        returned while it ran showed the next part. Read whole, each error and reading shown while it
        ran was read a second time (the launch's traceback twice)."""
        shown = self.shown.pop(call_id, None) if call_id is not None and self.shown else None
        if not shown:
            return output
        at = 0
        for body in shown[1:]:
            if not output.startswith(body, at):
                return output  # not what was shown (Codex cut a chunk): read whole
            at += len(body)
        return output[at:]

    def poll_failed(self, call_id: str | None, gone: bool) -> None:
        """A ``write_stdin`` the tool could not do (:data:`_POLL_FAILED`); ``gone``: its session
        is no more (unknown process id), so nothing later is typed into that shell."""
        if call_id is None:
            return
        session = self.polls.pop(call_id, None)
        self.typed_calls.pop(call_id, None)
        self.keyed_stops.pop(call_id, None)
        if gone and session is not None:
            self.shells.pop(session, None)
            self.typed_in.pop(session, None)

    def stopped_by_key(self, call_id: str | None) -> bool:
        """The call sent Ctrl-C to the command it polls, and that ended it: the exit status 130
        (128 + SIGINT) is the stop the model asked for (the only way to end a ``tail -f`` or a
        ``watch``), not a failure of the command; read as one, every follow ended was an error,
        and three of them a loop of failing retries."""
        return call_id is not None and self.keyed_stops.pop(call_id, None) is not None

    def ended_by_key(self, call_id: str | None) -> bool:
        """The command of ``call_id`` was sent Ctrl-C by a poll: its ``exec_command_end`` (written
        before that poll's result) says 130 for the stop."""
        return call_id is not None and any(self.running.get(s) == call_id for s in self.keyed_stops.values())

    def typed(self, args) -> tuple[str, str | None] | None:
        """``write_stdin{session_id, chars: "nvidia-smi\\n"}`` into an interactive shell: the command
        line typed and the host it runs on (the shell's, or the one an ``ssh`` typed there opened);
        None for a poll (no chars), a key (Ctrl-C), or input to a program that is no shell."""
        session = _session_id(args)
        if session is None or not isinstance(args.get("chars"), str):
            return None
        hosts = self.shells.get(session)
        line = args["chars"].strip()
        if hosts is None or not line or not args["chars"].rstrip(" ").endswith(("\n", "\r")) \
                or not line.isprintable() and "\n" not in line:
            return None
        if _LEAVE.fullmatch(line):
            if len(hosts) > 1:
                hosts.pop()  # back in the shell that opened it
            return None  # the shell ends: no check of anything
        host = hosts[-1]
        target = shell.parse_target(line)
        if unattended.interactive(target.inner, host=target.host, container=target.container) in _OPENS_SHELL \
                and len(hosts) < 16:
            hosts.append(target.host or host)
        return line, host


def _session_id(args) -> str | None:
    """The session a ``write_stdin`` call writes to, as the ``Process running with session ID N``
    that started it names it. Models send it as ``29757.0`` too, which Codex takes (openai/codex
    ``codex-rs/core/src/tools/handlers/unified_exec.rs`` test ``accepts_integral_float_arguments_
    from_model_tool_calls``); read as no session, the poll that saw the command end was a call of
    its own and the command kept no exit status."""
    if not isinstance(args, dict):
        return None
    value = args.get("session_id")
    if type(value) is float and value.is_integer():
        return str(int(value))
    return str(value) if isinstance(value, (int, str)) and type(value) is not bool else None


def _bounded(seen: OrderedDict, key: str, value) -> None:
    seen[key] = value
    if len(seen) > 4096:
        seen.popitem(last=False)


_POLL_TOOL = "write_stdin"
_SHOWN_MAX = 1 << 20
TYPED = "typed"
"""The raw type of the result of a command typed into a shell (``write_stdin{chars}``): the
analysis keeps its call, whose output later polls of the shell show under ``<call>#running``
(:meth:`_Processes.result`)."""
_SIGINT_EXIT = 130
_OPENS_SHELL = frozenset({"an interactive login (ssh with no command)", "an interactive shell"})
"""What :func:`unattended.interactive` calls a command whose terminal then reads shell commands
(not a REPL's Python, an editor's keys)."""
_LEAVE = re.compile(r"(?:exit|logout)(?:\s+\d+)?")
ECHO = "\x00echo"
"""What :meth:`_Processes.result` returns for a poll whose "Process exited with code N" repeats
the end of a command that its ``exec_command_end`` ended already. Newer CLIs persist the
``exec_command_end`` of every command the agent started (openai/codex ``codex-rs/core/src/
rollout/policy.rs`` ``should_persist_exec_command_end``: ``Agent`` and ``UnifiedExecStartup``
sources in the limited, default mode; only the extended mode wrote it before), and the
exit watcher sends it as soon as the process ends (``codex-rs/core/src/unified_exec/
async_watcher.rs``), before the ``write_stdin`` poll that saw it exit returns. Read as a result
of its own, the poll was a second failed call and each error of the output was counted twice."""
_RUNNING = re.compile(r"^Process running with session ID (\d+)", re.MULTILINE)


class ResponseItems:
    """Responses API items read one after the other outside a rollout: the same ``function_call``
    / ``function_call_output`` / ``message`` / ``reasoning`` objects, saved as a list (the
    OpenAI Agents SDK's ``RunResult.to_input_list()``, openai/openai-agents-python
    ``src/agents/result.py``; openai/openai-python ``types/responses/response_input_item_param.py``)."""

    def __init__(self) -> None:
        self._results_seen: OrderedDict[str, None] = OrderedDict()
        self._processes = _Processes()
        self.chat_calls: set[str] = set()
        """Calls of a chat-completions log read as these items, their results still to come
        (openai_chat: Codex's unified exec on the Chat Completions wire)."""
        self.folder: str | None = None
        """The working folder the last ``<environment_context>`` named (Codex's requests through a
        proxy: no turn_context there, the folder is only said in that message)."""
        self.background: OrderedDict[str, str] = OrderedDict()
        """Background processes of Hermes Agent's ``terminal`` tool still running, by the session id
        it gave each: the call that started it (openai_chat: a later poll's end is that command's)."""

    def events(self, item: dict, event) -> Iterator[Event]:
        ptype = item.get("type") if isinstance(item.get("type"), str) else None
        # Tools there are the program's own: any whose arguments hold a command runs one (as in
        # OpenAI chat), not only Codex's shell tools.
        for ev in _response_item(item, ptype, event, self._results_seen, self._processes, any_shell=True):
            if self.folder is not None and ev.command is not None and ev.kind == "tool_call" and ev.host is None \
                    and ev.tool_name != _POLL_TOOL:
                ev.cwd = _in_folder(ev.cwd, self.folder)  # as a rollout's calls run in the turn's folder
            elif ev.kind == "system" and ev.role == "user" and "<cwd>" in ev.text \
                    and (said := _ENV_CWD.search(ev.text)) is not None:
                self.folder = said.group(1)
            yield ev

    def folder_of(self, args: object) -> str | None:
        """Where a call of Codex's shell tools read elsewhere (the Chat Completions wire) ran: its
        ``workdir`` from the folder the last ``<environment_context>`` named; None before one."""
        return None if self.folder is None else _in_folder(_workdir(args), self.folder)


def _response_item(payload: dict, ptype, event, results_seen, processes: _Processes,
                   any_shell: bool = False) -> Iterator[Event]:
    if ptype == "message":
        role = payload.get("role") if isinstance(payload.get("role"), str) else "assistant"
        content = payload.get("content")
        if role == "user":
            yield from _user_message(content if isinstance(content, list) else [content], event)
            return
        text = block_text(content)
        if role == "system" and _ts_error_note(payload):
            yield event("system", "system", text=text, raw_type="error")  # the analysis's agent_error
            return
        if role in ("developer", "system"):
            kind = "system"
        else:
            kind = "text"
        yield event(kind, role, text=text)
    elif ptype == "reasoning":
        summary = payload.get("summary")
        text = block_text(summary) if isinstance(summary, list) else ""
        if isinstance(summary, list) and not text:
            text = "\n".join(str(s.get("text", "")) for s in summary if isinstance(s, dict))
        if not text:
            # Open-weight models send the reasoning itself: content [{type: reasoning_text, text}]
            # (openai/codex codex-rs/protocol/src/models.rs, ReasoningItemContent).
            text = block_text(payload.get("content"))
        yield event("thinking", "assistant", text=text)
    elif ptype in ("function_call", "custom_tool_call", "local_shell_call"):
        name = payload.get("name") if isinstance(payload.get("name"), str) else ptype
        name = _with_mcp_server(name, payload.get("namespace"))
        raw_args = payload.get("arguments", payload.get("input", payload.get("action")))
        cell = None
        if name == code_mode.EXEC_TOOL and ptype == "custom_tool_call" and isinstance(raw_args, str):
            # A code-mode cell: the commands are the literals of its tools.exec_command calls.
            cell = code_mode.cell_calls(raw_args)
            args, command = None, "\n".join(cell.commands) or None
            if isinstance(payload.get("call_id"), str):
                # (every cell: a patch or an MCP call of its own may fail too)
                _bounded(processes.cells, payload["call_id"], (cell.commands, [], [], cell.patch_files + cell.mcp_tools))
            if command is None and cell.patch_files:
                name = "apply_patch"  # a cell that only edits: an edit, as the apply_patch tool's
        else:
            args = decode_arguments(raw_args)
            command = shell_command(raw_args) if (any_shell or name in _SHELL_TOOLS or ptype == "local_shell_call") \
                else None
        if command is None and ptype == "function_call" and (name in _SHELL_TOOLS or name.lower() in SHELL_TOOL_NAMES):
            command = bare_command(raw_args, args)  # read as a chat tool call's bare string is
        host = remote_host(args)  # an MCP server's SSH tool: {host, command}
        if command is None and host is not None:
            command = shell_command(args)
        if command is not None and command.startswith(_PATCH_COMMANDS) and "*** Begin Patch" in command[:400]:
            # An edit made through the shell tool: {"command": ["apply_patch", "*** Begin Patch…"]}, as
            # Codex's own instructions show it, or `apply_patch <<'EOF'` in bash -lc (openai/codex
            # codex-rs/core prompt.md; codex-rs/apply-patch reads both). The same edit as the
            # apply_patch tool of newer CLIs, not a command run on a host.
            argv = args.get("command") if isinstance(args, dict) else None
            patch = argv[1] if isinstance(argv, list) and len(argv) == 2 and argv[0] in _PATCH_COMMANDS \
                else command.split(" ", 1)[-1]
            name, raw_args, command = "apply_patch", patch, None
        text = call_text(command, raw_args)
        path = tool_path(args)
        if cell is not None:
            path = cell.patch_files[0] if cell.patch_files else None
        elif path is None and name == "apply_patch":
            patch = raw_args if isinstance(raw_args, str) else ""
            if isinstance(args, dict) and isinstance(args.get("input"), str):
                patch = args["input"]  # apply_patch as a function tool: {"input": "*** Begin Patch…"}
            patched = _PATCH_FILE.search(patch)
            path = patched.group(1).strip() if patched else None
        spawn = None
        if name in SPAWN_TOOLS:
            args = args if isinstance(args, dict) else {}
            label = args.get("task_name") or args.get("message") or args.get("prompt") \
                or _items_text(args.get("items")) or ""
            kind = args.get("agent_type") or args.get("role") or ""
            spawn = Spawn(description=str(label)[:200], agent_type=str(kind))
        call_id = _call_id(payload) if ptype != "local_shell_call" else processes.local_shell_id(payload)
        if name == _POLL_TOOL and (typed := processes.typed(args)) is not None:
            # typed into the shell an earlier exec_command opened (tty: true): a command run there
            command, host = typed
            text = command
        processes.call(name, call_id, command, args)
        # an MCP server's SSH tool: the user and port it logs in with (remote_login)
        user, port = remote_login(args) if command and host is not None and isinstance(args, dict) else (None, None)
        yield event("tool_call", "assistant", tool_name=name, call_id=call_id,
                    command=command, text=text, path=path, spawn=spawn, host=host if command else None,
                    cwd=_workdir(args) if command and host is None else None, user=user, port=port)
    elif ptype in responses_tools.ITEM_TYPES and ptype != "local_shell_call_output":
        yield from responses_tools.events(payload, ptype, event)
    elif ptype in ("function_call_output", "custom_tool_call_output", "local_shell_call_output"):
        call_id = _call_id(payload)
        if ptype == "local_shell_call_output":
            call_id = responses_tools.output_call_id(payload)
            call_id = processes.local_items.get(call_id, call_id)
        if call_id in results_seen:
            return  # exec_command_end gave this result already
        output = payload.get("output")
        cell_out = code_mode.cell_output(output) if isinstance(output, (list, str)) and output else None
        if cell_out is not None:
            yield from _cell_result(call_id, cell_out, event, results_seen, processes)
            return
        code = None
        reported_failure = isinstance(output, dict) and output.get("success") is False
        if isinstance(output, dict):
            # FunctionCallOutputPayload written whole, {content, content_items?, success?}: the text
            # may be in content_items alone (openai/codex codex-rs/protocol/src/models.rs). Its
            # `success: false` is the tool's own word that the call failed: the TypeScript CLI's
            # shape for a failure ("failure -> output is an object { content, success:false }",
            # codex-rs/core/src/models.rs of mid-2025), which forks of the Rust CLI write whole;
            # a failed MCP call's "err: ..." has no exit code to say so.
            output = output.get("content") or output.get("content_items") or output.get("output", "")
        if isinstance(output, list):
            output = block_text(output)
        output = output if isinstance(output, str) else ""
        agent_ref = declined = states = None
        cut = tool_ends.bare_aborted(output)
        if output.startswith("{"):
            # Newer Codex wraps shell output as {"output": ..., "metadata": {"exit_code": N}}.
            try:
                wrapped = inner_json(output)
                states = agent_states.wait_states(wrapped)
                if states is not None:
                    # a multi-agent wait: how the sub-agents ended; one that errored failed the
                    # call, as `codex exec --json` marks such a wait (see codex_agent_states)
                    _remember(results_seen, call_id)
                    yield event("tool_result", "tool", call_id=call_id, text=agent_states.said(states) or output,
                                is_error=bool(agent_states.failures(states)), agent_states=states)
                    return
                if isinstance(wrapped, dict) and isinstance(wrapped.get("agent_id"), str):
                    agent_ref = wrapped["agent_id"]  # spawn_agent's result names the new thread
                elif isinstance(wrapped, dict) and isinstance(wrapped.get("task_name"), str) \
                        and wrapped["task_name"].startswith("/"):
                    # MultiAgentV2's spawn_agent names the agent's path instead, {"task_name":
                    # "/root/docs_review", "nickname": ...} (openai/codex codex-rs/core/src/tools/
                    # handlers/multi_agents_v2/spawn.rs SpawnAgentResult), and its rollout's
                    # session_meta gives the same agent_path (codex_threads.Thread.agent_path)
                    agent_ref = wrapped["task_name"]
                if isinstance(wrapped, dict) and isinstance(wrapped.get("output"), str):
                    meta = wrapped.get("metadata") or {}
                    code = meta.get("exit_code") if isinstance(meta, dict) else None
                    if code is None and type(wrapped.get("exit_code")) is int:
                        code = wrapped["exit_code"]  # unified exec's {output, exit_code, wall_time_seconds}
                    output = wrapped["output"]
                    declined = tool_ends.ts_declined(wrapped)
                    cut = tool_ends.ts_interrupted(wrapped)
                    if declined == "denied" and isinstance(meta.get("reason"), str) and meta["reason"]:
                        output = meta["reason"]
                elif (process := process_result(wrapped)) is not None:
                    # an app's own function tool on the Responses API (an Agents SDK session's
                    # input list) answering with the process, {stdout, stderr, returncode}: see
                    # common._STREAM_EXIT_KEYS. Codex's own tools never write this shape.
                    output, code = process
            except ValueError:
                pass
        if code is None:
            m = _EXIT_TEXT.search(_status_text(output))
            code = int(m.group(1)) if m else None
        if declined is not None or cut:
            _remember(results_seen, call_id)
            result = event("tool_result", "tool", call_id=call_id, text=output)
            yield tool_ends.interrupted(result) if cut else tool_ends.not_run(result, declined)
            return
        if tool_ends.refused(output):
            # the model's copy of a call refused before it ran (older rollouts have no exec_command_end)
            _remember(results_seen, call_id)
            yield tool_ends.not_run(event("tool_result", "tool", call_id=call_id, text=output))
            return
        if output[:1] in "CT" and output.startswith(tool_ends.HOOK_BLOCKED):
            _remember(results_seen, call_id)  # a PreToolUse hook turned it away: it never ran
            yield tool_ends.not_run(event("tool_result", "tool", call_id=call_id, text=output), "hook_blocked")
            return
        if output.startswith(_POLL_FAILED):
            # the write itself failed: the poll's own failed call, not the polled command's output
            processes.poll_failed(call_id, "Unknown process id" in output or "UnknownProcessId" in output)
            _remember(results_seen, call_id)
            yield event("tool_result", "tool", call_id=call_id, text=output, is_error=True)
            return
        poll_id = call_id
        typed = call_id in processes.typed_calls  # a command typed into a shell: its own result
        stopped = code == _SIGINT_EXIT and processes.stopped_by_key(call_id)
        call_id, running = processes.result(call_id, output, code, results_seen)
        if stopped:
            code = None  # the model ended it (a `tail -f`, a `watch`) with Ctrl-C: no failure
        if call_id is ECHO:
            # the poll's own result, empty: the command's output, exit code and errors were
            # read from its exec_command_end, and the tail of them this poll shows is no news
            _remember(results_seen, poll_id)
            yield event("tool_result", "tool", call_id=poll_id, raw_type="echo")
            return
        if not running:
            _remember(results_seen, call_id)  # a running command's exec_command_end is still to come
            if processes.shown:
                processes.shown.pop(call_id, None)
        if output.startswith(_MCP_ARGS_HEADS) and (bad_args := _mcp_args_failed(output)) is not None:
            yield event("tool_result", "tool", call_id=call_id, text=bad_args, is_error=True)
            return
        yield event("tool_result", "tool", call_id=call_id, text=output,
                    exit_code=code if isinstance(code, int) else None,
                    is_error=bool(code) or reported_failure or output.startswith((_MCP_CALL_FAILED, *_EXEC_FAILED, *_UNSUPPORTED, *AGENTS_SDK_TOOL_FAILED))
                    or output.startswith(_PATCH_FAILED) or _aborted_by_user(output)
                    or (output[:1] in "cAUa" and _collab_failed(output))
                    or (output.startswith(_OLD_PATCH_FAILED) and output[len(_OLD_PATCH_FAILED):].startswith(_PATCH_FAILED)),
                    agent_ref=agent_ref,
                    raw_type="running" if running else TYPED if typed and call_id == poll_id else None)
    elif ptype == "web_search_call":
        yield from _web_search(payload, event)
    elif ptype in ("tool_search_call", "tool_search_output"):
        yield from _tool_search(payload, ptype, event, processes)
    elif ptype == "agent_message":
        # {author: "/root/worker", recipient: "/root", content: [{type: input_text, text} |
        # {type: encrypted_content}]}: what one agent of a multi-agent run told another, as the
        # newest CLIs keep it in the history (openai/codex codex-rs/protocol/src/models.rs
        # ResponseItem::AgentMessage); read as the inter_agent_communication line of earlier ones.
        author = payload.get("author") if isinstance(payload.get("author"), str) else "?"
        yield event("system", "system", raw_type="agent_message",
                    text=f"message from {author}: {block_text(payload.get('content'))}")
    else:
        yield event("other", "assistant", raw_type=f"response_item:{ptype}")


_MCP_PREFIX = "mcp__"


def _with_mcp_server(name: str, namespace) -> str:
    """An MCP tool's name with its server, ``mcp__<server>__<tool>``, as Claude Code names one.
    Newer CLIs group a server's tools under a namespace and write the call as ``{"namespace":
    "mcp__context7__", "name": "query_docs"}`` (openai/codex ``codex-rs/codex-mcp`` ``qualified_mcp_
    tool_name_prefix``: ``mcp`` + ``__`` + server + ``__``; ``ResponseItem::FunctionCall.namespace``
    in ``codex-rs/protocol/src/models.rs``); older ones wrote the whole name as ``name``. Proxies
    replaying Responses items spell the namespace without the closing ``__``. Other namespaces
    group Codex's own tools (``multi_agent_v1`` for ``spawn_agent``) and leave the name alone."""
    if not isinstance(namespace, str) or not namespace.startswith(_MCP_PREFIX) or name.startswith(_MCP_PREFIX):
        return name
    return f"{namespace}{name}" if namespace.endswith("__") else f"{namespace}__{name}"


def _cell_result(call_id: str | None, cell: code_mode.CellOutput, event, results_seen,
                 processes: _Processes) -> Iterator[Event]:
    """The result of a code-mode cell (or of the ``wait`` that ended one still running)."""
    call_id, running = processes.cell_result(call_id, cell.running_cell, results_seen)
    if not running:
        _remember(results_seen, call_id)
    code = cell.exit_code
    ended = processes.cells.pop(call_id, None) if not running and call_id is not None else None
    text, failed = cell.text, cell.failed
    if code is None and ended is not None and ended[1]:
        # the cell printed no status of its own: its commands' ends said how they exited
        code = next((c for c in ended[1] if c not in (None, 0)), None)
    if code is None and not failed and ended is not None and ended[2]:
        # nor did its commands: a patch or an MCP call of it that failed is how it ended (its
        # words first: they are the call's error, what the cell printed after them is not)
        failed = True
        text = "\n".join([*ended[2], text]) if text else "\n".join(ended[2])
    yield event("tool_result", "tool", call_id=call_id, text=text, exit_code=code,
                is_error=not running and (failed or bool(code)), raw_type="running" if running else None)


_NESTED_CALL = "exec-"
"""How the id of a tool call a code-mode cell makes begins: ``format!("{PUBLIC_TOOL_NAME}-{}", uuid)``
(openai/codex ``codex-rs/core/src/tools/code_mode/mod.rs`` ``call_nested_tool``); its end names that id."""


def _nested_failure(ptype: str, end: tool_ends.ToolEnd, item) -> str:
    """What a cell's patch or MCP call that failed said: a ``FileChange`` item its stdout and stderr
    (newer CLIs), else only the files it was to change (``changes``, by path; a list of ``{path}`` in
    ``codex exec --json``); ``patch_apply_end`` its stderr; an MCP call its error (``codex_tool_ends``)."""
    kind = item.get("type") if isinstance(item, dict) else None
    if isinstance(kind, str) and kind.lower() in ("filechange", "file_change") and end.text == str(item.get("status")):
        changes = item.get("changes")
        paths = list(changes)[:4] if isinstance(changes, dict) else [
            c["path"] for c in changes[:4] if isinstance(c, dict) and isinstance(c.get("path"), str)] \
            if isinstance(changes, list) else []
        return "apply_patch failed: " + ", ".join(map(str, paths)) if paths else "apply_patch failed"
    said = end.text.strip()
    return said or ("apply_patch failed" if ptype == "patch_apply_end" else "tool call failed")


def _items_text(items) -> str:
    """The text of a ``spawn_agent`` task given as ``items`` rather than ``message``: a list of
    ``UserInput`` (``{"type": "text", "text": ...}``, images, skills, mentions), which Codex turns into
    the sub-agent's prompt joining the text items by new lines (openai/codex ``codex-rs/core/src/tools/
    handlers/multi_agents/spawn.rs`` ``SpawnAgentArgs.items``, ``parse_collab_input``; ``render_input_
    preview`` in ``codex-rs/core/src/agent/control.rs``). Read from ``message`` alone, such a spawn
    had an empty description."""
    if not isinstance(items, list):
        return ""
    return "\n".join(item["text"] for item in items
                     if isinstance(item, dict) and item.get("type") == "text" and isinstance(item.get("text"), str))


WEB_SEARCH_TOOL = "web_search"


def _web_search(payload: dict, event) -> Iterator[Event]:
    """A search the model ran with the Responses API's hosted ``web_search`` tool: ``{"type":
    "web_search_call", "status": "completed", "action": {"type": "search", "query": "..."}}``,
    or an ``open_page{url}`` / ``find_in_page{url, pattern}`` action (openai/codex
    ``codex-rs/protocol/src/models.rs`` ``WebSearchCall``, ``WebSearchAction``). Codex persists the
    item (``codex-rs/core/src/rollout/policy.rs``) without its ``id`` and without the results,
    which OpenAI's servers fed the model: the call and its outcome are on the one line, read as
    a call and its result so the agent's tool calls count it. What it ran is the query, never a
    command on a host."""
    action = payload.get("action") if isinstance(payload.get("action"), dict) else {}
    what = action.get("type") if isinstance(action.get("type"), str) else "search"
    query = action.get("query")
    if not isinstance(query, str) or not query.strip():
        queries = action.get("queries")  # newer CLIs: several queries in one search
        query = "; ".join(q for q in queries if isinstance(q, str)) if isinstance(queries, list) else ""
    url = action.get("url") if isinstance(action.get("url"), str) else ""
    if what == "open_page":
        text = url
    elif what == "find_in_page":
        pattern = action.get("pattern") if isinstance(action.get("pattern"), str) else ""
        text = f"{pattern!r} in {url}" if pattern else url
    else:
        text = query
    # the page it opened is the call's path: a source file on GitHub read after a failure is a
    # change of approach to reading source code (shell.categorize), as with WebFetch
    page = url if what in ("open_page", "find_in_page") and url else None
    call = event("tool_call", "assistant", tool_name=WEB_SEARCH_TOOL, text=text, description=what, path=page)
    item_id = payload.get("id")
    call.call_id = item_id if isinstance(item_id, str) and item_id else f"web-search-{call.seq}"
    yield call
    status = payload.get("status") if isinstance(payload.get("status"), str) else None
    # in_progress | searching | completed | failed (openai/openai-python
    # types/responses/response_function_web_search.py)
    yield event("tool_result", "tool", 1, call_id=call.call_id, is_error=status == "failed",
                text=f"web search {status}" if status else "")


TOOL_SEARCH_TOOL = "tool_search"


def _tool_search(payload: dict, ptype: str, event, processes: _Processes) -> Iterator[Event]:
    """A look-up of the tools the session deferred (an MCP server's, an app's), before calling
    one: ``tool_search_call{call_id, execution: client | server, arguments: {query, limit}}``,
    answered by ``tool_search_output{call_id, status, execution, tools: [...]}`` with the tools it
    loaded, a namespace holding its own (openai/codex ``codex-rs/protocol/src/models.rs``
    ``ResponseItem::ToolSearchCall`` / ``ToolSearchOutput``, both persisted by ``codex-rs/rollout/
    src/policy.rs``). A search the API ran itself has ``call_id: null`` on both items, its output
    the answer to the search just before. Neither runs a command."""
    call_id = _call_id(payload)
    if ptype == "tool_search_call":
        args = decode_arguments(payload.get("arguments"))
        query = args.get("query") if isinstance(args, dict) else args
        if not isinstance(query, str) and isinstance(payload.get("query"), str):
            query = payload["query"]  # proxies replaying the item put the query at its top
        call = event("tool_call", "assistant", tool_name=TOOL_SEARCH_TOOL,
                     text=query if isinstance(query, str) else call_text(None, payload.get("arguments")))
        item_id = payload.get("id")
        call.call_id = call_id or (item_id if isinstance(item_id, str) and item_id else f"tool-search-{call.seq}")
        processes.search = call.call_id
        processes.call(TOOL_SEARCH_TOOL, call.call_id, None, None)
        yield call
        return
    if call_id is None:
        call_id, processes.search = processes.search, None
    names = []
    for tool in payload.get("tools") if isinstance(payload.get("tools"), list) else ():
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            continue
        inner = tool.get("tools")
        if isinstance(inner, list):  # {"type": "namespace", "name": "mcp__grafana__", "tools": [...]}
            names += [_with_mcp_server(t["name"], tool["name"]) for t in inner
                      if isinstance(t, dict) and isinstance(t.get("name"), str)]
        else:
            names.append(tool["name"])
    yield event("tool_result", "tool", call_id=call_id, text="\n".join(names),
                is_error=payload.get("status") == "failed")


def _call_id(payload: dict) -> str | None:
    call_id = payload.get("call_id")
    return call_id if isinstance(call_id, str) else None


def _remember(seen: OrderedDict, call_id: str | None) -> None:
    if call_id is not None:
        seen[call_id] = None
        if len(seen) > 4096:
            seen.popitem(last=False)
