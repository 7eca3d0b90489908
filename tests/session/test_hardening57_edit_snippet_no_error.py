"""Claude Code's Edit tool answers with a snippet of the edited file ("The file /w/runner.py has
been updated. Here's the result of running `cat -n` on a snippet of the edited file: ..."). An
edit that adds ``raise RuntimeError("CUDA out of memory: ...")`` had that source line read as the
session's CUDA OOM, and the edit as a failed call (a file tool's result has no exit status): the
postmortem's first error was the fix itself. Now an edit tool's result holds no error unless the
CLI failed it (``is_error``: "<tool_use_error>String to replace not found in file.</tool_use_error>").
Shapes: Claude Code tool_use/tool_result lines (TRANSCRIPTS.md section 1a); Edit's
``toolUseResult`` ``{filePath, oldString, newString, originalFile, structuredPatch, userModified,
replaceAll}`` as daaain/claude-code-log's tool models read it."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "c3d4e5f6-0000-4000-8000-00000000e5e1"
SNIPPET = ("The file /w/runner.py has been updated. Here's the result of running `cat -n` on a snippet of the "
           "edited file:\n    10\t    if free < need:\n"
           "    11\t        raise RuntimeError(\"CUDA out of memory: need more KV cache\")\n"
           "    12\t    logger.error(\"NCCL error: unhandled system error\")")


def _session(root: Path) -> Path:
    env = {"sessionId": SESSION, "cwd": "/w", "version": "2.1.30", "isSidechain": False, "userType": "external"}
    lines, n = [], 0

    def line(**kw) -> None:
        nonlocal n
        n += 1
        lines.append({**env, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None,
                      "timestamp": f"2026-10-02T08:00:{n:02d}.000Z", **kw})

    def tool(tid: str, name: str, args: dict, content: str, result: object, is_error: bool = False) -> None:
        line(type="assistant", message={"id": f"m{tid}", "role": "assistant", "content": [
            {"type": "tool_use", "id": tid, "name": name, "input": args}]})
        line(type="user", toolUseResult=result, message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tid, "content": content, "is_error": is_error}]})

    line(type="user", message={"role": "user", "content": "guard the KV cache size"})
    tool("toolu_1", "Edit", {"file_path": "/w/runner.py", "old_string": "pass",
                             "new_string": "raise RuntimeError(\"CUDA out of memory: need more KV cache\")"},
         SNIPPET, {"filePath": "/w/runner.py", "oldString": "pass", "newString": "raise ...", "originalFile": "",
                   "structuredPatch": [], "userModified": False, "replaceAll": False})
    tool("toolu_2", "Edit", {"file_path": "/w/runner.py", "old_string": "nope", "new_string": "x"},
         "<tool_use_error>String to replace not found in file.\nString: nope</tool_use_error>",
         "Error: String to replace not found in file.\nString: nope", is_error=True)
    path = root / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return path


def test_an_edit_snippet_holds_no_error_of_the_session(tmp_path):
    doc = analyze_path(_session(tmp_path)).to_json()
    assert [(e["seq"], e["kind"]) for e in doc["errors"]] == [(4, "tool_error")]
    (main,) = doc["agents"]
    assert (main["tool_calls"], main["failed_calls"]) == (2, 1)
