"""Cline and Roo Code task histories: ``<globalStorage>/tasks/<taskId>/api_conversation_history.json``.

The file is the Anthropic ``messages`` the extension sends (read by :mod:`formats.openai_chat`),
with what this module adds:

- Tools called in XML inside the reply's text (Cline, and Roo Code before native tool calls):
  ``<execute_command>\\n<command>ls</command>\\n</execute_command>`` (cline/cline
  ``src/core/prompts/system.ts``, parsed by ``src/core/assistant-message/parse-assistant-message.ts``).
- Their results, a user turn opening with ``[execute_command for 'ls'] Result:`` and the output in
  the blocks after it (``toolDescription()`` and ``pushToolResult`` in cline/cline
  ``src/core/task/index.ts``; Cline writes these even for its native ``tool_use`` calls), then
  an ``<environment_details>`` block the extension adds to every user turn (no prompt anyone typed).
- Roo Code's exit status in a command's result: ``Command executed in terminal within working
  directory '/p'. Command execution was not successful, inspect the cause and adjust as
  needed.\\nExit code: 1\\nOutput:\\n...``, ``Process terminated by signal SIGKILL``, or the
  timeout note (RooCodeInc/Roo-Code ``src/core/tools/ExecuteCommandTool.ts``,
  ``executeCommandInTerminal``). Cline's first ``Command executed.\\nOutput:`` gives none, its
  later ones do (:data:`_CLINE_EXIT`).
- ``ts`` (epoch milliseconds) on each message (Roo Code's ``ApiMessage``).

ui_messages.json and task_metadata.json beside it are the webview's copy and the file tracker's
state, no transcript (detection passes them by).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import MAIN_AGENT, Event
from spec_debug.session.formats.common import Cursor

TRANSCRIPT_STEM = "api_conversation_history"
_EDITORS = ("Code", "Code - Insiders", "Code - OSS", "VSCodium", "Cursor", "Windsurf")
"""The editors' folders in ``~/.config`` (``Code - OSS``: VS Code built from source, Arch's ``code``)."""
_SERVERS = (".vscode-server", ".vscode-server-insiders", ".vscode-remote", ".cursor-server", ".windsurf-server",
            ".vscodium-server")
"""The editors' remote servers in a home: over Remote-SSH the extension runs on the host and keeps its
tasks in ``~/.vscode-server/data/User/globalStorage/<extension id>/tasks`` (where the public guides put
Cline's settings on a remote host); ``.vscode-remote`` in dev containers."""
_EXTENSIONS = ("saoudrizwan.claude-dev", "rooveterinaryinc.roo-cline", "kilocode.kilo-code")
"""Where the extensions keep their tasks on Linux: ``~/.config/<editor>/User/globalStorage/<extension
id>/tasks/<taskId>/`` (VS Code's globalStorage; Cline's, Roo Code's and Kilo Code's extension ids)."""


_TASK_ID = re.compile(r"\d{10,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
"""A task folder's name: Cline's ``Date.now()`` in milliseconds, Roo Code's and Kilo Code's a UUID."""


def is_task_folder(folder: Path) -> bool:
    """``tasks/<taskId>/``, or a task's folder copied out of it: the session is named by it. Another
    folder holding an ``api_conversation_history.json`` (``notes/``) names nothing."""
    return folder.parent.name == "tasks" or bool(_TASK_ID.fullmatch(folder.name.lower()))


def home_tasks(home: Path, folders: list[str]) -> list[Path]:
    """The task histories in a home (``folders`` its dot-folders), from the editors' storage under
    ``.config`` and their remote servers' (the rest of those folders is no session)."""
    users = [home / ".config" / editor / "User" for editor in _EDITORS] if ".config" in folders else []
    users += [home / server / "data" / "User" for server in _SERVERS if server in folders]
    folders_of_tasks = [user / "globalStorage" / extension / "tasks" for user in users for extension in _EXTENSIONS]
    found = []
    if _CLI_HOME in folders:
        folders_of_tasks.append(home / _CLI_HOME / "data" / "tasks")
        found.extend(sdk_sessions(home / _CLI_HOME / "data" / SDK_SESSIONS_DIR))
    for tasks in folders_of_tasks:
        try:
            entries = sorted(tasks.iterdir()) if tasks.is_dir() else []
        except OSError:
            continue
        found.extend(task / f"{TRANSCRIPT_STEM}.json" for task in entries
                     if (task / f"{TRANSCRIPT_STEM}.json").is_file())
    return found


SDK_SESSIONS_DIR = "sessions"
SDK_MESSAGES = ".messages.json"
"""The Cline CLI 3 (built on Cline's SDK, ``@cline/core``) keeps a session a folder,
``~/.cline/data/sessions/<sessionId>/``: ``<sessionId>.messages.json``, ``{version: 1, sessionId,
agent, messages: [{role, content: [Anthropic blocks], ts}]}`` (read as OpenAI-like chats,
:mod:`formats.openai_chat`), a sub-agent's or team task's ``<agentId>[__<taskId>].messages.json``
beside it; the ``.log`` transcript, the ``<sessionId>.json`` manifest and ``.hooks.jsonl`` telemetry
there say the same again or no talk at all (cline/cline ``sdk/packages/core/docs/messages-contract-v1.md``,
``sdk/packages/core/src/session/session-artifacts.ts``)."""


SDK_SHELL_TOOL = "run_commands"
"""The shell tool of Cline's SDK: ``{commands: [str] | str}`` (or ``command``/``cmd``), each command
run apart and answered in one result (``createBashTool`` in cline/cline
``sdk/packages/core/src/extensions/tools/definitions.ts``)."""


SDK_SPAWN_TOOL = "spawn_agent"
"""The SDK's sub-agent tool, ``{systemPrompt, task}``: the sub-agent runs ``task`` as its first
prompt (``createSpawnAgentTool`` in cline/cline ``sdk/packages/core/src/extensions/tools/team/
spawn-agent-tool.ts``). Nothing the SDK writes names the call a sub-agent came from (its session row
keeps ``parentAgentId`` alone, ``src/session/models/session-row.ts``): the task text links them."""


def sdk_agent_id(messages_file: Path) -> str:
    """A sub-agent's id (or ``<agentId>__<teamTaskId>``) from its messages file's name."""
    return messages_file.name.removesuffix(SDK_MESSAGES)


def read_sdk_agents(main: Path, agents: list[Path], cursor: Cursor, tree: AgentTree | None,
                    read: Callable[[Path, Cursor], Iterator[Event]]) -> Iterator[Event]:
    """A Cline CLI 3 session (:data:`SDK_MESSAGES`): its own messages file, then each sub-agent's
    or team task's beside it, read as an agent of the session, linked to the ``spawn_agent`` call
    whose task is its first prompt (:data:`SDK_SPAWN_TOOL`). Read as sessions of their own, the
    sub-agents' commands were in no call of the session that started them."""
    said: list[tuple[str, str]] = []
    cut = False
    for event in read(main, cursor):
        if event.kind == "tool_call" and event.tool_name == SDK_SPAWN_TOOL and event.call_id:
            task = _spawn_task(event.text)
            if task:
                said.append((task, event.call_id))
            cut = cut or task is None
        yield event
    calls = _calls_by_task(_spawn_calls(main) if cut and agents else said)
    seq_base = cursor.seq_base + cursor.records
    for path in agents:
        agent = sdk_agent_id(path)
        info = tree.get(agent, parent=MAIN_AGENT) if tree is not None else None
        if info is not None:
            info.agent_type, info.file = "subagent", str(path)
        sub = Cursor(session=cursor.session, agent=agent, file=str(path), seq_base=seq_base)
        linked = info is None
        for event in read(path, sub):
            if not linked and event.kind == "prompt":
                # before the sub-agent's results, which its parent's report may restate
                linked = True
                info.spawned_by = calls.pop((event.text or "").strip(), None)
                info.description = (event.text or "").strip()[:200]
            yield event
        seq_base += sub.records


def _calls_by_task(said: list[tuple[str, str]]) -> dict[str, str | None]:
    """``{task: call id}``; None for a task more than one call gave (the same check sent twice, to
    two sub-agents): which sub-agent ran which call is not written, so neither is linked."""
    calls: dict[str, str | None] = {}
    for task, call_id in said:
        calls[task] = call_id if task not in calls or calls[task] == call_id else None
    return calls


def _spawn_calls(main: Path) -> list[tuple[str, str]]:
    """``(task, call id)`` of the session's ``spawn_agent`` calls, read from its messages file: a
    call's text is its arguments cut at 2,000 characters (common.call_text), and the sub-agent's
    ``systemPrompt``, written before its ``task``, is often longer."""
    try:
        doc = json.loads(main.read_bytes())
    except (OSError, ValueError, RecursionError):
        return []
    messages = doc.get("messages") if isinstance(doc, dict) else None
    found: list[tuple[str, str]] = []
    for message in messages if isinstance(messages, list) else ():
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("name") == SDK_SPAWN_TOOL \
                    and isinstance(block.get("id"), str) and isinstance(block.get("input"), dict) \
                    and isinstance(task := block["input"].get("task"), str) and task.strip():
                found.append((task.strip(), block["id"]))
    return found


def _spawn_task(text: str | None) -> str | None:
    try:
        args = json.loads(text) if text else None
    except (ValueError, RecursionError):
        return None  # cut at 2,000 characters (common.call_text): no task to match
    task = args.get("task") if isinstance(args, dict) else None
    return task.strip() if isinstance(task, str) and task.strip() else None


def sdk_commands(args: dict) -> str | None:
    """The commands of a ``run_commands`` call, one a line (a Windows call's ``{command, args}``
    entries as argv)."""
    commands = args.get("commands")
    commands = [commands] if isinstance(commands, (str, dict)) else commands
    if not isinstance(commands, list):
        return None
    lines = [c if isinstance(c, str) else " ".join([c["command"], *(a for a in c.get("args") or () if isinstance(a, str))])
             for c in commands if isinstance(c, str) or (isinstance(c, dict) and isinstance(c.get("command"), str))]
    return "\n".join(lines) or None


def sdk_session_files(folder: Path, names) -> list[Path] | None:
    """A Cline SDK session folder's messages files, its own first (None for another folder)."""
    own = f"{folder.name}{SDK_MESSAGES}"
    if own not in names:
        return None
    return [folder / own] + [folder / n for n in sorted(names) if n.endswith(SDK_MESSAGES) and n != own]


SDK_COMPACTION = ".compaction.json"
"""``<sessionId>.compaction.json``: the compacted context the model is sent after a compaction,
``{version: 1, updated_at, source_message_count, messages, system_prompt}``, its messages a summary and
the last of the session's own, which the messages file keeps whole (cline/cline ``sdk/packages/core/src/
session/models/session-compaction.ts``, ``session-artifacts.ts`` ``sessionCompactionPath``): read as a
session, its commands were the session's again."""


def is_sdk_artifact(name: str, session: str) -> bool:
    """A file Cline's SDK writes in the session's folder (:data:`SDK_MESSAGES`, :data:`SDK_COMPACTION`)."""
    return name.endswith((SDK_MESSAGES, ".log", ".hooks.jsonl")) or name in (f"{session}.json",
                                                                           f"{session}{SDK_COMPACTION}")


def sdk_sessions(sessions: Path) -> list[Path]:
    """The messages files of the Cline CLI's sessions folder (:data:`SDK_MESSAGES`)."""
    try:
        folders = sorted(p for p in sessions.iterdir() if p.is_dir())
    except OSError:
        return []
    found = []
    for folder in folders:
        try:
            found.extend(sdk_session_files(folder, {p.name for p in folder.iterdir()}) or ())
        except OSError:
            continue
    return found


_CLI_HOME = ".cline"
"""The Cline CLI's home: its tasks in ``~/.cline/data/tasks/<taskId>/`` as the extension keeps them
(``CLINE_DATA_DIR``, ``~/.cline/data``, in cline/cline's CLI; the path the public trajectory
collectors and session browsers read); its settings/ and the rest are no session."""


_TOOL_NAMES = ("execute_command", "read_file", "write_to_file", "replace_in_file", "apply_diff", "insert_content",
               "search_and_replace", "search_files", "list_files", "list_code_definition_names", "browser_action",
               "use_mcp_tool", "access_mcp_resource", "ask_followup_question", "attempt_completion", "new_task",
               "plan_mode_respond", "switch_mode", "codebase_search", "update_todo_list", "web_fetch",
               "load_mcp_documentation", "fetch_instructions")
"""The XML tools of Cline (cline/cline ``src/shared/tools.ts``) and Roo Code (RooCodeInc/Roo-Code
``packages/types/src/tool.ts``) a reply may call; a tag of another name is text."""
_BARE_TOOLS = frozenset({"load_mcp_documentation"})
"""The one tool called without a parameter (cline/cline ``src/core/prompts/system.ts``: "Parameters:
None"); every other call has one, so a bare tag of another tool in a reply is prose naming it."""
_XML_CALL = re.compile(r"<(" + "|".join(_TOOL_NAMES) + r")>(.*?)(?:</\1>|\Z)", re.S)
_XML_PARAM = re.compile(r"<(\w+)>(.*?)</\1>", re.S)
_RESULT_HEADER = re.compile(r"\[(\w+)(?: for '.*?)?\] Result:[ \t]*\n?", re.S)
"""``[execute_command for 'ls'] Result:``; the quoted part may span lines (a heredoc) and be
followed by a note (IBM Bob's ``[read_file for 'a.py'. Reading multiple files at once ...] Result:``)."""
_ROO_EXIT = re.compile(r"Command executed in terminal\s+within working directory '[^\n]*?'\. "
                       r"(?:Command execution was not successful[^\n]*\n)?"
                       r"(?:Exit code: (-?\d+)|(Process terminated by signal))")
_CLINE_EXIT = re.compile(r"Command (?:executed successfully \(exit code (-?\d+)\)|failed with exit code (-?\d+))\.")
"""Cline's later results: ``Command executed successfully (exit code 0).\\nOutput:`` and ``Command
failed with exit code 1.\\nOutput:`` (a public task history, mike4567/MRA04242026
``api_conversation_history.json``, Cline of April 2026)."""
_NOTES = ("<environment_details>", "[TASK RESUMPTION]", "[ERROR] You did not use a tool", "# task_progress",
          "# TODO LIST UPDATE REQUIRED")
"""Blocks the extension adds to a user turn, no prompt anyone typed: the environment, the note on
resuming an interrupted task, the reminder to call a tool (``formatResponse.noToolsUsed``) and the
task_progress reminders (all in the public history above)."""
_FAILURE_OPENINGS = ("The tool execution failed with the following error:",
                     "The command was terminated after exceeding", "Command failed to execute in terminal",
                     "Working directory '", "The user denied this operation")
"""Results that say the call failed or never ran: ``formatResponse.toolError`` and ``toolDenied``
(both extensions' ``src/core/prompts/responses.ts``), Roo Code's timeout, shell integration and
missing-folder notes."""


def is_extension_note(text: str) -> bool:
    """A block the extension wrote into a user turn (:data:`_NOTES`), such as the environment
    details it appends to each (open tabs, files, time, mode)."""
    return text.lstrip().startswith(_NOTES)


def xml_calls(text: str) -> list[tuple[str, dict[str, str]]]:
    """The XML tool calls in a reply's text, as ``(tool, {param: value})``; none when the text
    names no tool (checked by substring first: most replies hold none)."""
    if "</" not in text or not any(f"<{name}>" in text for name in _TOOL_NAMES):
        return []
    calls = []
    for m in _XML_CALL.finditer(text):
        params = {k: v.strip("\n") for k, v in _XML_PARAM.findall(m.group(2))}
        if params or m.group(1) in _BARE_TOOLS:
            calls.append((m.group(1), params))  # another bare tag is prose naming the tool
    return calls


def result_header(text: str) -> tuple[str, str] | None:
    """``(tool, rest of the block)`` of a user turn's block that opens a tool result."""
    if not text.startswith("["):
        return None
    m = _RESULT_HEADER.match(text)
    return (m.group(1), text[m.end():]) if m else None


def exit_status(output: str) -> tuple[int | None, bool]:
    """The exit code and whether the call failed, from a command result's opening."""
    m = _ROO_EXIT.match(output)
    if m:
        return (int(m.group(1)), m.group(1) != "0") if m.group(1) else (None, True)
    m = _CLINE_EXIT.match(output)
    if m:
        code = int(m.group(1) or m.group(2))
        return code, code != 0
    return None, output.startswith(_FAILURE_OPENINGS)
