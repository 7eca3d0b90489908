"""Codex "code mode": the model's one tool is ``exec``, a JavaScript cell that calls the real
tools (``await tools.exec_command({cmd: "..."})``, ``tools.apply_patch("*** Begin Patch…")``,
MCP tools), and the rollout keeps only the cell and what it printed.

What a rollout holds (lines of codex-cli 0.157.0 quoted verbatim in rderaison/bromure
``Tests/AgentCodingTests/CodexCodeModeTests.swift``; openai/codex issue #42864 for 0.153.0):

- the call: ``custom_tool_call{name: "exec", input: <JavaScript>}``;
- its result: ``custom_tool_call_output{output: [{type: input_text, text}, ...]}``, a header
  block ``Script completed|Script failed\\nWall time N seconds\\nOutput:\\n`` (or ``Script
  running with cell ID N`` for a cell that outlives its yield, polled with ``wait{cell_id}``;
  ``Script terminated`` for one the model ended with ``wait{cell_id, terminate: true}``), then one block per ``text(...)`` the cell printed. An ``exec_command`` result printed whole is
  ``{"chunk_id", "wall_time_seconds", "exit_code", "original_token_count", "output"}`` (inside
  ``{"status": "fulfilled", "value": …}`` after ``Promise.allSettled``); a cell that threw ends
  with a ``Script error:\\n…`` block (openai/codex ``codex-rs/core/tests/suite/code_mode.rs``
  asserts this shape).

Read without this, a code-mode session shows no command at all: every ssh, server launch and
benchmark of the session hides inside the JavaScript.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

EXEC_TOOL = "exec"
WAIT_TOOL = "wait"

_SHELL_CALL = re.compile(r"\btools\.(?:exec_command|shell_command|shell)\(\s*\{")
# The command field of the call's object literal: a JSON-style or a bare key, then a string
# literal in any of JavaScript's three quotes that is the whole value (not "cat " + f).
_CMD_FIELD = re.compile(r"""["']?\b(?:cmd|command)["']?\s*:\s*(?P<lit>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\$]|\\.)*`)(?=\s*[,}])""",
                        re.S)
_PATCH_CALL = re.compile(r"\btools\.apply_patch\(")
_MCP_CALL = re.compile(r"\btools\.(mcp__\w+)\(")
_PATCH_FILE = re.compile(r"\*\*\* (?:Update|Add|Delete) File: ([^\n\\]+)")
_JS_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_HEADER = re.compile(r"\AScript (?P<state>completed|failed|terminated|running with cell ID (?P<cell>\S+))\b")
"""How a cell ended: ``format_script_status`` (openai/codex ``codex-rs/core/src/tools/code_mode/mod.rs``);
``Script terminated`` is a running cell the model ended with ``wait{cell_id, terminate: true}``
(``wait_handler.rs``): stopped, not failed, and the wait's output is the cell's end."""
_SCRIPT_ERROR = "Script error:"


@dataclass(slots=True)
class Cell:
    """What a cell's source says it runs: the literal shell commands, in order, and the files
    its literal patches touch. A command the code builds while it runs (``"cat " + f``) is not
    a literal and is not read."""

    commands: list[str] = field(default_factory=list)
    patch_files: list[str] = field(default_factory=list)
    mcp_tools: list[str] = field(default_factory=list)
    """The MCP tools it calls by name (``tools.mcp__gpu__restart_server(...)``)."""


@dataclass(slots=True)
class CellOutput:
    text: str
    """What the cell printed, each command's output unwrapped from its JSON record."""
    exit_code: int | None
    """The first non-zero exit code of the commands it printed, else 0 when any printed one."""
    failed: bool
    """The script threw (``Script failed``)."""
    running_cell: str | None = None
    """``Script running with cell ID N``: the cell runs on and a ``wait`` will end it."""


def cell_calls(source: str) -> Cell:
    cell = Cell()
    if "tools." not in source:
        return cell
    for m in _SHELL_CALL.finditer(source):
        # the command field of this call's object: before the next tool call starts
        end = source.find("tools.", m.end())
        field_match = _CMD_FIELD.search(source, m.end() - 1, end if end >= 0 else len(source))
        if field_match:
            command = _js_string(field_match.group("lit")).strip()
            if command:
                cell.commands.append(command)
    if _PATCH_CALL.search(source):
        cell.patch_files = [path.strip() for path in _PATCH_FILE.findall(source)]
    if "tools.mcp__" in source:
        cell.mcp_tools = _MCP_CALL.findall(source)[:16]
    return cell


def _js_string(literal: str) -> str:
    """The value of a JavaScript string literal (the three quotes; the escapes of ECMA-262
    "String Literals": ``\\n``, ``\\uXXXX``, ``\\u{X}``, ``\\xXX``, a line continuation)."""
    body = literal[1:-1]
    if "\\" not in body:
        return body

    def one(m: re.Match) -> str:
        esc = m.group(1)
        if esc[0] == "u":
            return chr(int(esc[2:-1] if esc[1] == "{" else esc[1:], 16))
        if esc[0] == "x" and len(esc) == 3:
            return chr(int(esc[1:], 16))
        if esc == "\n":
            return ""
        return _ESCAPES.get(esc, esc)

    try:
        return _JS_ESCAPE.sub(one, body)
    except (ValueError, OverflowError):
        return body


def cell_output(output) -> CellOutput | None:
    """The result of an ``exec`` cell, or None when ``output`` is not one (no ``Script …``
    header)."""
    blocks = _blocks(output)
    if not blocks or not blocks[0].startswith("Script "):
        return None
    header = _HEADER.match(blocks[0])
    if header is None:
        return None
    parts: list[str] = []
    codes: list[int] = []
    # the header block may carry the first printed text after its "Output:" line
    first = blocks[0].split("Output:\n", 1)
    rest = ([first[1]] if len(first) == 2 and first[1].strip() else []) + blocks[1:]
    for block in rest:
        record = _exec_record(block)
        if record is None:
            # what the script threw is the failure's message, not its "Script error:" label
            parts.append(block[len(_SCRIPT_ERROR):].lstrip("\n") if block.startswith(_SCRIPT_ERROR) else block)
            continue
        code = record.get("exit_code")
        if isinstance(code, int) and not isinstance(code, bool):
            codes.append(code)
        out = record.get("output")
        parts.append(out if isinstance(out, str) else "")
    exit_code = next((c for c in codes if c != 0), 0) if codes else None
    return CellOutput(text="\n".join(p for p in parts if p), exit_code=exit_code,
                      failed=header.group("state") == "failed", running_cell=header.group("cell"))


def _blocks(output) -> list[str]:
    if isinstance(output, str):
        return [output]
    if isinstance(output, list):
        return [b["text"] for b in output if isinstance(b, dict) and isinstance(b.get("text"), str)]
    return []


def _exec_record(block: str) -> dict | None:
    """An ``exec_command`` result the cell printed whole: a JSON object with ``exit_code`` or
    ``chunk_id`` (bare, or the ``value`` of a settled promise)."""
    if not block.startswith("{") or ('"exit_code"' not in block and '"chunk_id"' not in block):
        return None
    try:
        record = json.loads(block)
    except (ValueError, RecursionError):
        return None
    if isinstance(record, dict) and isinstance(record.get("value"), dict) and "status" in record:
        record = record["value"]
    if isinstance(record, dict) and ("exit_code" in record or "chunk_id" in record):
        return record
    return None
