"""analyze: the file tools of the agents it reads, by the names and arguments they really send.

test_hardening47_gemini_file_tools classed Gemini CLI's file tools by the names of its docs; the
CLI itself renamed them since (google-gemini/gemini-cli packages/core/src/tools/definitions/
base-declarations.ts): the search is ``grep_search{pattern, dir_path}`` (was
``search_file_content{pattern, path}``), ``glob`` and ``list_directory`` take ``dir_path``, and
``read_many_files`` takes ``include: [...]`` (was ``paths``). Qwen Code, its fork, sends
``grep_search`` too. OpenCode's tools are ``read``/``edit``/``write``/``multiedit{filePath}``,
``grep``/``glob``/``list{path}`` and ``patch`` (sst/opencode packages/opencode/src/tool/*.ts);
Kimi CLI's ``ReadFile``/``WriteFile``/``StrReplaceFile{path}`` (MoonshotAI/kimi-cli
src/kimi_cli/tools/file/); Crush's ``view``/``edit``/``multiedit``/``write{file_path}`` and
``ls{path}`` (charmbracelet/crush internal/llm/tools/). Before, all of them were kind "other"
with no path: reading the engine's source after a failure was no pivot, and a phase of edits was
titled "Running commands"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.formats.common import tool_path
from spec_debug.session.shell import categorize
from tests.session.test_hardening47_gemini_file_tools import ENGINE, _second_call

ENGINE_DIR = "/usr/lib/python3/site-packages/sglang/srt/speculative"

GEMINI_NOW = {
    "grep_search": ({"pattern": "aux_hidden_state", "dir_path": ENGINE_DIR}, ENGINE_DIR),
    "list_directory": ({"dir_path": ENGINE_DIR}, ENGINE_DIR),
    "glob": ({"pattern": "**/eagle*.py", "dir_path": ENGINE_DIR}, ENGINE_DIR),
    "read_many_files": ({"include": ["README.md", ENGINE]}, ENGINE),
}


@pytest.mark.parametrize("name", GEMINI_NOW)
def test_current_gemini_cli_reading_the_engine_is_a_pivot_to_reading_source(tmp_path, name):
    args, shown = GEMINI_NOW[name]
    [pivot] = analyze_path(_second_call(tmp_path, name, args)).pivots
    assert (pivot.from_category, pivot.to_category) == ("python", "read_source")
    assert pivot.summary.endswith(f"to reading source code: {name} {shown}")


CONFIG = "/models/e3/config.json"
TOOLS = [
    # (tool, its arguments as the agent sends them, category)
    ("read", {"filePath": ENGINE}, "read_source"),                       # OpenCode
    ("read", {"filePath": CONFIG, "offset": 0, "limit": 2000}, "inspect_config"),
    ("grep", {"pattern": "d2t", "path": ENGINE_DIR}, "read_source"),
    ("list", {"path": ENGINE_DIR}, "read_source"),
    ("edit", {"filePath": "/work/run.sh", "oldString": "a", "newString": "b"}, "edit"),
    ("write", {"filePath": "/work/run.sh", "content": "x"}, "edit"),
    ("multiedit", {"filePath": "/work/run.sh", "edits": []}, "edit"),
    ("patch", {"patchText": "*** Begin Patch\n*** End Patch"}, "edit"),
    ("ReadFile", {"path": ENGINE}, "read_source"),                       # Kimi CLI
    ("WriteFile", {"path": "/work/run.sh", "content": "x"}, "edit"),
    ("StrReplaceFile", {"path": "/work/run.sh", "edit": {"old": "a", "new": "b"}}, "edit"),
    ("view", {"file_path": ENGINE}, "read_source"),                      # Crush
    ("ls", {"path": ENGINE_DIR}, "read_source"),
    ("grep_search", {"pattern": "d2t", "path": ENGINE_DIR}, "read_source"),  # Qwen Code
    ("LS", {"path": ENGINE_DIR}, "read_source"),                         # Claude Code of 2025, Droid
    ("Create", {"file_path": "/work/run.sh", "content": "x"}, "edit"),   # Droid
]


@pytest.mark.parametrize("name, args, category", TOOLS)
def test_each_agents_file_tools_read_or_edit(name, args, category):
    assert categorize(None, name, tool_path(args)) == category


def _write(path: Path, value: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")


def test_opencode_reading_the_engine_after_a_failure_is_a_pivot(tmp_path):
    """OpenCode's storage (as test_hardening21_formats_opencode): a launch that fails, then a read
    of the engine's source by its ``filePath``."""
    session, project, user, reply = "ses_7b2c", "5c1f", "msg_c01", "msg_c02"
    storage = tmp_path / "opencode" / "storage"
    _write(storage / "session" / project / f"{session}.json",
           {"id": session, "version": "0.15.8", "projectID": project, "directory": "/work/spec",
            "title": "eagle3", "time": {"created": 1767812640000, "updated": 1767812700000}})
    _write(storage / "message" / session / f"{user}.json",
           {"id": user, "sessionID": session, "role": "user", "time": {"created": 1767812641000}})
    _write(storage / "part" / user / "prt_01.json",
           {"id": "prt_01", "sessionID": session, "messageID": user, "type": "text", "text": "why does it fail?"})
    _write(storage / "message" / session / f"{reply}.json",
           {"id": reply, "sessionID": session, "role": "assistant", "modelID": "claude-sonnet-4-5",
            "providerID": "anthropic", "time": {"created": 1767812642000, "completed": 1767812650000}})

    def tool(n: int, name: str, args: dict, output: str, meta: dict) -> dict:
        return {"id": f"prt_{n:02d}", "sessionID": session, "messageID": reply, "type": "tool",
                "callID": f"toolu_{n}", "tool": name,
                "state": {"status": "completed", "input": args, "output": output, "title": name,
                          "metadata": meta, "time": {"start": 1767812644000 + n, "end": 1767812645000 + n}}}
    launch = "python compare_draft.py --ckpt /models/e3"
    failed = "Traceback (most recent call last):\nRuntimeError: shape mismatch: 12288 vs 4096\n"
    _write(storage / "part" / reply / "prt_02.json",
           tool(2, "bash", {"command": launch, "description": "Run it"}, failed, {"output": failed, "exit": 1}))
    _write(storage / "part" / reply / "prt_03.json",
           tool(3, "read", {"filePath": ENGINE}, "<file>\n00001| class EAGLEWorker:\n</file>", {"preview": ""}))
    [pivot] = analyze_path(storage).pivots
    assert (pivot.from_category, pivot.to_category) == ("python", "read_source")
    assert pivot.summary.endswith(f"to reading source code: read {ENGINE}")


def _codex(tmp_path: Path, name: str, args: dict) -> Path:
    """A Codex rollout: a run that fails, then one call of ``name``."""
    def line(kind: str, payload: dict) -> str:
        return json.dumps({"timestamp": "2026-03-02T03:04:05.000Z", "type": kind, "payload": payload})
    failed = "Traceback (most recent call last):\nRuntimeError: shape mismatch: 12288 vs 4096\n"
    lines = [
        line("session_meta", {"id": "33333333-1111-4111-8111-111111111111", "timestamp": "2026-03-02T03:04:05.000Z",
                              "cwd": "/work/spec", "originator": "codex_cli_rs", "cli_version": "0.77.0"}),
        line("response_item", {"type": "message", "role": "user",
                               "content": [{"type": "input_text", "text": "why does it fail?"}]}),
        line("response_item", {"type": "function_call", "name": "exec_command", "call_id": "call_1",
                               "arguments": json.dumps({"cmd": "python compare_draft.py --ckpt /models/e3"})}),
        line("response_item", {"type": "function_call_output", "call_id": "call_1",
                               "output": f"Chunk ID: 9f1e\nWall time: 0.5 seconds\nProcess exited with code 1\n"
                                         f"Original token count: 20\nOutput:\n{failed}"}),
        line("response_item", {"type": "function_call", "name": name, "call_id": "call_2",
                               "arguments": json.dumps(args)}),
        line("response_item", {"type": "function_call_output", "call_id": "call_2", "output": f"{ENGINE}\n"}),
    ]
    path = tmp_path / "rollout-2026-03-02T03-04-05-33333333-1111-4111-8111-111111111111.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("name, args", [
    # codex-rs core/src/tools/spec.rs create_grep_files_tool{pattern, include, path, limit},
    # create_list_dir_tool{dir_path, offset, limit, depth}: Codex's own file tools, beside read_file
    ("grep_files", {"pattern": "aux_hidden_state", "include": "*.py", "path": ENGINE_DIR}),
    ("list_dir", {"dir_path": ENGINE_DIR, "depth": 2}),
])
def test_codex_searching_the_engine_after_a_failure_is_a_pivot(tmp_path, name, args):
    [pivot] = analyze_path(_codex(tmp_path, name, args)).pivots
    assert (pivot.from_category, pivot.to_category) == ("python", "read_source")
    assert pivot.summary.endswith(f"to reading source code: {name} {ENGINE_DIR}")
