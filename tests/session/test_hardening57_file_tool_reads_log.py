"""Claude Code's Read and Grep tools on a server log that holds the crash: the log's errors are
the session's (as for ``tail server.log``), but each reading was also counted a failed call (a
file tool's result has no exit status, so the errors in it said it failed), while the same read
by ``grep -n Error server.log`` in a terminal log is not one (analysis: category ``logs``).
Now a file tool that read a log did not fail; a read the CLI failed (``is_error``) still did.
Shapes: Claude Code tool_use/tool_result lines (TRANSCRIPTS.md section 1a), Read's
``toolUseResult`` ``{type: "text", file: {filePath, content, numLines, startLine, totalLines}}``
and Grep's ``{mode, filenames, numFiles, content, numLines}`` as daaain/claude-code-log reads them."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "c3d4e5f6-0000-4000-8000-00000000e5d1"
LOG = ("     1\t[2026-10-02 08:00:00] Load weight begin\n"
       "     2\tTraceback (most recent call last):\n"
       "     3\t  File \"/sgl/model_runner.py\", line 10, in init\n"
       "     4\ttorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
GREP = "/work/server.log:4:torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"


def _session(root: Path) -> Path:
    env = {"sessionId": SESSION, "cwd": "/work", "version": "2.1.30", "isSidechain": False, "userType": "external"}
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

    line(type="user", message={"role": "user", "content": "the server died, look at its log"})
    tool("toolu_1", "Read", {"file_path": "/work/server.log"}, LOG,
         {"type": "text", "file": {"filePath": "/work/server.log", "content": LOG, "numLines": 4, "startLine": 1,
                                   "totalLines": 4}})
    tool("toolu_2", "Grep", {"pattern": "Error", "path": "/work/server.log", "output_mode": "content", "-n": True},
         GREP, {"mode": "content", "filenames": [], "numFiles": 1, "content": GREP, "numLines": 1})
    tool("toolu_3", "Read", {"file_path": "/work/missing.log"}, "File does not exist.",
         "Error: File does not exist.", is_error=True)
    path = root / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return path


def test_reading_a_log_with_errors_is_no_failed_call(tmp_path):
    doc = analyze_path(_session(tmp_path)).to_json()
    assert [(e["seq"], e["kind"]) for e in doc["errors"]][-1] == (6, "tool_error")
    assert {e["seq"] for e in doc["errors"]} >= {2, 4}  # the log's OOM stays the session's error
    (main,) = doc["agents"]
    assert (main["tool_calls"], main["failed_calls"]) == (3, 1)
